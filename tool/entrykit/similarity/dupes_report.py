"""What `entrykit dupes` prints: near-duplicate clusters that do not chain, and template families.

A cluster is a star: a representative and the entries that pair with it. The
representatives are taken in order of how many pairs they have (then by id), each
with the entries not yet in a cluster; so every member of a cluster looks like its
representative, and two errors that only look like a third one in between are
never put together. An entry whose partners all went to clusters whose
representatives it does not pair with stays alone; its pairs are listed as pairs
`between` clusters. What is listed grows with the corpus, not with its pairs: each
representative's pairs with its members, and each entry's closest pairs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from entrykit.entry import Entry
from entrykit.output_safety import dumps, escape, escape_lines
from entrykit.similarity.near_duplicates import Duplicates, Pair, Reason, pair_order


@dataclass
class Cluster:
    """A representative and the entries that pair with it, ordered by id, with the pairs
    listed among them (the representative's with each member first)."""

    representative: Entry
    members: list[Entry]
    pairs: list[Pair] = field(default_factory=list)


@dataclass
class Report:
    """Clusters, the listed pairs between them, and the entries' counts."""

    clusters: list[Cluster]
    between: list[Pair]
    more: list[tuple[Entry, int]]  # entries with more pairs than listed for them, and how many in all
    found: Duplicates


def _key(entry: Entry) -> tuple[str, str]:
    return (entry.id or "", entry.path)


def build(found: Duplicates, targets: set[str] | None = None) -> Report:
    """Clusters of `found` (see the module docstring); with `targets` (paths), only the
    clusters and pairs that involve one of them."""
    entries = found.entries
    key = found.cliques.key
    order = sorted((n for n, count in found.counts.items() if count), key=lambda n: (-found.counts[n], *key(n)))
    home: dict[int, int] = {}
    stars: dict[int, Cluster] = {}
    for rep in order:
        if rep in home:
            continue
        home[rep] = rep
        star = stars[rep] = Cluster(entries[rep], [entries[rep]])
        for k in found.cliques.members(rep):
            if k not in home:
                home[k] = rep
                star.members.append(entries[k])
                star.pairs.append(found.clique_pair(rep, k))
        for k, pair in sorted(found.neighbours.get(rep, ()), key=lambda item: key(item[0])):
            if k not in home:
                home[k] = rep
                star.members.append(entries[k])
                star.pairs.append(pair)
    listed = {(p.a.path, p.b.path) for star in stars.values() for p in star.pairs}
    between: list[Pair] = []
    paths = {entry.path: n for n, entry in enumerate(entries)}
    for pair in found.pairs:
        if (pair.a.path, pair.b.path) in listed:
            continue
        listed.add((pair.a.path, pair.b.path))
        a, b = paths[pair.a.path], paths[pair.b.path]
        if home.get(a) == home.get(b):
            stars[home[a]].pairs.append(pair)
        else:
            between.append(pair)
    clusters = list(stars.values())
    for star in clusters:
        star.members.sort(key=_key)
        head = [p for p in star.pairs if star.representative in (p.a, p.b)]
        rest = sorted((p for p in star.pairs if star.representative not in (p.a, p.b)), key=pair_order)
        star.pairs = sorted(head, key=pair_order) + rest
    clusters.sort(key=lambda c: (-len(c.members), *_key(c.representative)))
    between.sort(key=pair_order)
    shown: dict[str, int] = {}
    for pair in [p for c in clusters for p in c.pairs] + between:
        shown[pair.a.path] = shown.get(pair.a.path, 0) + 1
        shown[pair.b.path] = shown.get(pair.b.path, 0) + 1
    more = sorted(
        ((entries[n], count) for n, count in found.counts.items() if count > shown.get(entries[n].path, 0)),
        key=lambda item: _key(item[0]),
    )
    if targets is not None:
        clusters = [c for c in clusters if any(e.path in targets for e in c.members)]
        between = [p for p in between if p.a.path in targets or p.b.path in targets]
        more = [(e, n) for e, n in more if e.path in targets]
    return Report(clusters, between, more, found)


def _reason_json(reason: Reason) -> dict[str, Any]:
    return {"code": reason.code, "text": reason.text, "strength": round(reason.strength, 4)}


def _side(entry: Entry) -> dict[str, Any]:
    return {"id": entry.id, "path": entry.path}


def _pair_json(pair: Pair) -> dict[str, Any]:
    reasons = [_reason_json(r) for r in pair.reasons]
    return {"a": _side(pair.a), "b": _side(pair.b), "score": pair.score, "reasons": reasons}


def _families(found: Duplicates, targets: set[str] | None) -> list[dict[str, Any]]:
    out = []
    for family in found.families:
        members = [found.entries[n] for n in family.members]
        if targets is not None and not any(e.path in targets for e in members):
            continue
        out.append({
            "ids": [e.id for e in members],
            "paths": [e.path for e in members],
            "template": family.template,
            "values": [list(v) for v in family.values],
        })
    return out


def report_json(report: Report, entries: int, targets: set[str] | None = None) -> dict[str, Any]:
    """The `--format json` document (see README, "Near-duplicates")."""
    return {
        "entries": entries,
        "pairs": sum(len(c.pairs) for c in report.clusters) + len(report.between),
        "per_entry": report.found.per_entry,
        "clusters": [
            {
                "ids": [e.id for e in c.members],
                "paths": [e.path for e in c.members],
                "representative": _side(c.representative),
                "pairs": [_pair_json(p) for p in c.pairs],
            }
            for c in report.clusters
        ],
        "between": [_pair_json(p) for p in report.between],
        "more": [{**_side(e), "pairs": count} for e, count in report.more],
        "families": _families(report.found, targets),
    }


def _pair_lines(pair: Pair) -> list[str]:
    lines = [
        f"`{escape(str(pair.a.id))}` ~ `{escape(str(pair.b.id))}`  score {pair.score:.2f}",
        f"    {escape(str(pair.a.path))}",
        f"    {escape(str(pair.b.path))}",
    ]
    lines.extend(f"    - {escape(r.text)}" for r in pair.reasons)
    return lines


def report_text(report: Report, entries: int, targets: set[str] | None = None) -> str:
    """Pairs as readable text, grouped by cluster, with a closing count."""
    lines: list[str] = []
    for cluster in report.clusters:
        if len(cluster.members) > 2:
            names = ", ".join(f"`{escape(str(e.id))}`" for e in cluster.members)
            around = escape(str(cluster.representative.id))
            lines.append(f"cluster of {len(cluster.members)} around `{around}`: {names}")
        for pair in cluster.pairs:
            lines.extend(_pair_lines(pair))
        lines.append("")
    if report.between:
        lines.append("between clusters:")
        for pair in report.between:
            lines.extend(_pair_lines(pair))
        lines.append("")
    for entry, count in report.more:
        lines.append(f"`{escape(str(entry.id))}` has {count} near-duplicates in all")
    if report.more:
        lines.append("")
    count = sum(len(c.pairs) for c in report.clusters) + len(report.between)
    among = f"{entries} {'entry' if entries == 1 else 'entries'}"
    if count:
        pairs = f"{count} near-duplicate pair{'s' * (count != 1)}"
        groups = len(report.clusters)
        lines.append(f"Found {pairs} in {groups} cluster{'s' * (groups != 1)} among {among}.")
    else:
        lines.append(f"No near-duplicates among {among}.")
    families = len(_families(report.found, targets))
    if families:
        lines.append(
            f"{families} template famil{'y' if families == 1 else 'ies'} (entries of one message that differ "
            "in a named value): `entrykit dupes --families` lists them."
        )
    return "\n".join(lines) + "\n"


def families_text(found: Duplicates, entries: int, targets: set[str] | None = None) -> str:
    """Template families as readable text, largest first."""
    lines: list[str] = []
    listed = _families(found, targets)
    for family in listed:
        lines.append(f"family of {len(family['ids'])}: {escape(str(family['template']))}")
        for entry_id, path, values in zip(family["ids"], family["paths"], family["values"], strict=True):
            slot = " | ".join(map(escape, values)) if values else "(representative)"
            lines.append(f"    `{escape(str(entry_id))}`  {slot}  {escape(str(path))}")
        lines.append("")
    among = f"{entries} {'entry' if entries == 1 else 'entries'}"
    if listed:
        lines.append(f"Found {len(listed)} template famil{'y' if len(listed) == 1 else 'ies'} among {among}.")
    else:
        lines.append(f"No template families among {among}.")
    return "\n".join(lines) + "\n"


def render(report: Report, entries: int, output_format: str, families: bool, targets: set[str] | None) -> str:
    """The whole output of `entrykit dupes`, entry text escaped (no control reaches the terminal)."""
    if output_format == "json":
        return dumps(report_json(report, entries, targets), indent=2) + "\n"
    if families:
        return escape_lines(families_text(report.found, entries, targets))
    return escape_lines(report_text(report, entries, targets))

