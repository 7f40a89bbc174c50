"""Merge two entries into one: a pure function from both entries' data to the merged data and a report.

Rules (the README's "Merging" section says the same):

- identity: the survivor keeps its id and domain; the other id and its aliases
  join `aliases`;
- signatures: the survivor's stays; the other signature and every example become
  `examples`; the regex is kept if it matches them all, else one that does is
  proposed (see `choose_regex`);
- lists: union. Dead ends and workarounds whose actions read alike
  (`phrase_similarity` >= `ITEM_SIMILARITY`) become one item: the survivor's
  action, sources united, rates combined by evidence, an empty condition winning
  (it means "always"); version rows with the same range become one row; every
  translated list (`workarounds_zh`, ...) is rebuilt item by item beside them;
- scalars: `first_seen` min, `last_confirmed` and `last_updated` max,
  `evidence_count` summed, `confidence` and `fix_success_rate` averaged weighted
  by evidence, `verification_tier` the lower of the two; any other value that
  differs (root cause, category, translations, item texts) is a conflict,
  resolved by `prefer`, by `choices`, or left unresolved for the caller.

Every item of either input is placed in the report's ledger: where it is in the
result, or which result item it was merged into.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from entrykit import pointer as jp
from entrykit.errors import UsageError
from entrykit.paths import shown
from entrykit.regex.runner import Job, Status, shared_runner
from entrykit.regex.suggest import suggest_regex
from entrykit.schema import validator
from entrykit.similarity.phrases import phrase_similarity

ITEM_SIMILARITY = 0.85  # actions at least this alike (0..1) are one item
ITEM_LISTS = ("dead_ends", "workarounds")
RATE_KEYS = {"dead_ends": "fail_rate", "workarounds": "success_rate"}
TRANSLATED_SCALARS = ("signature", "root_cause")
GRAPH_LISTS = ("leads_to", "preceded_by", "frequently_confused_with")
TIERS = ("ai_generated", "auto_generated", "human_reviewed", "expert_reviewed")
SCALAR_CONFLICTS = (
    "category", "subcategory", "root_cause_type", "official_doc_url", "official_doc_section",
    "error_code", "resolvable", "locale",
)  # fmt: skip
SKIP = object()  # "no value": a key that is absent


@dataclass(frozen=True)
class Conflict:
    """A value the two entries disagree on, at a pointer into the result."""

    pointer: str
    into: Any
    other: Any
    follows: tuple[str, ...] = ()  # translation fields whose values go with this choice


@dataclass(frozen=True)
class Resolution:
    """How a conflict was settled: `into`, `other` or `edit` (with the value)."""

    choice: str
    value: Any
    how: str  # "--prefer into", "chosen", ...


@dataclass(frozen=True)
class Placement:
    """Where one item of an input ended up in the result."""

    side: str  # "into" | "other"
    kind: str  # "dead end", "workaround", "source", "version", "tag", "example", "translation", ...
    source: str  # pointer in its input
    value: Any
    target: str  # pointer in the result
    merged: bool  # True: merged into the item at `target`, not copied there


@dataclass
class RegexOutcome:
    """What happened to the regex: kept, or replaced by a proposal checked on every message."""

    pattern: str
    changed: bool
    how: str
    examples: int
    counterexamples: int
    ok: bool


@dataclass
class MergeReport:
    """Everything a reviewer needs to trust the merge."""

    survivor: str
    absorbed: str
    conflicts: list[Conflict] = field(default_factory=list)
    resolutions: dict[str, Resolution] = field(default_factory=dict)
    ledger: list[Placement] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    regex: RegexOutcome | None = None
    differences: list[str] = field(default_factory=list)  # deepdiff's field-by-field view

    @property
    def unresolved(self) -> list[Conflict]:
        return [c for c in self.conflicts if c.pointer not in self.resolutions]


@dataclass
class MergeResult:
    """The merged entry's data and the report."""

    data: dict[str, Any]
    report: MergeReport


def _plain(value: Any) -> Any:
    """A plain copy (ruamel's commented containers become dicts and lists)."""
    return json.loads(json.dumps(value, default=str))


def _missing(value: Any) -> bool:
    return value is SKIP or value is None or value == ""


def _key(value: Any) -> str:
    if value is SKIP:
        return "\0absent"
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _evidence(data: Mapping[str, Any]) -> int:
    value = data.get("evidence_count")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


def _rate(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def combine_rates(a: Any, b: Any, weight_a: int, weight_b: int) -> Any:
    """The evidence-weighted mean of two rates, to two decimals; one side missing: the other."""
    ra, rb = _rate(a), _rate(b)
    if ra is None:
        return b if rb is not None else a
    if rb is None:
        return a
    return round((ra * weight_a + rb * weight_b) / (weight_a + weight_b), 2)


def _union(first: Iterable[Any], second: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    seen: set[str] = set()
    for item in [*first, *second]:
        key = _key(item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


class _Merger:
    """One merge in progress: the inputs, the conflict choices, the report being built."""

    def __init__(
        self,
        into: Mapping[str, Any],
        other: Mapping[str, Any],
        prefer: str | None,
        choices: Mapping[str, Any],
        flags: int,
        mode: str,
    ) -> None:
        self.a = _plain(into)
        self.b = _plain(other)
        self.prefer = prefer
        self.choices = dict(choices)
        self.flags = flags
        self.mode = mode
        self.wa, self.wb = _evidence(self.a), _evidence(self.b)
        self.report = MergeReport(str(self.a.get("id")), str(self.b.get("id")))
        self.out: dict[str, Any] = {}
        self.handled: set[str] = set()  # keys decided on, kept or not

    # -- conflicts -------------------------------------------------------------

    def decide(self, pointer: str, a: Any, b: Any, follows: tuple[str, ...] = ()) -> tuple[str, Any]:
        """Record a conflict and settle it if a choice or preference says how: (side, value)."""
        self.report.conflicts.append(Conflict(pointer, a, b, follows))
        choice = self.choices.get(pointer)
        if isinstance(choice, tuple) and choice and choice[0] == "edit":
            self.report.resolutions[pointer] = Resolution("edit", choice[1], "edited")
            return "edit", choice[1]
        if choice in ("into", "other"):
            value = a if choice == "into" else b
            self.report.resolutions[pointer] = Resolution(choice, value, "chosen")
            return choice, value
        if self.prefer in ("into", "other"):
            value = a if self.prefer == "into" else b
            self.report.resolutions[pointer] = Resolution(self.prefer, value, f"--prefer {self.prefer}")
            return self.prefer, value
        return "into", a  # unresolved: the survivor's value stands until someone decides

    def scalar(self, pointer: str, a: Any, b: Any) -> Any:
        """Equal or one-sided values merge; different ones are conflicts."""
        if _missing(b) or _key(a) == _key(b):
            return b if a is SKIP else a  # an absent value never stands in for a present one
        if _missing(a):
            return b
        return self.decide(pointer, a, b)[1]

    def place(self, side: str, kind: str, source: str, value: Any, target: str, merged: bool = False) -> None:
        self.report.ledger.append(Placement(side, kind, source, value, target, merged))

    # -- the parts -------------------------------------------------------------

    def identity(self) -> None:
        a, b = self.a, self.b
        self.out["id"] = a.get("id")
        if "domain" in a or "domain" in b:
            self.out["domain"] = a.get("domain", b.get("domain"))
            if not _missing(b.get("domain")) and b.get("domain") != self.out["domain"]:
                self.report.notes.append(
                    f"domain `{b.get('domain')}` of `{b.get('id')}` gives way to `{self.out['domain']}`, which the survivor's id names"
                )
        own = {a.get("id")}
        aliases: list[Any] = []
        for side, names in (
            ("into", list(a.get("aliases") or [])),
            ("other", [b.get("id"), *(b.get("aliases") or [])]),
        ):
            for index, name in enumerate(names):
                if not isinstance(name, str) or name in own:
                    continue
                if name not in aliases:
                    aliases.append(name)
                source = "/id" if side == "other" and index == 0 else jp.join("aliases", index - (side == "other"))
                self.place(side, "alias", source, name, jp.join("aliases", aliases.index(name)))
        if aliases or "aliases" in a:
            self.out["aliases"] = aliases

    def translated_scalar(self, name: str) -> None:
        """A text field and its translations (`root_cause`, `root_cause_zh`): one choice for all."""
        a, b = self.a, self.b
        locales = sorted({k for k in [*a, *b] if self.is_translation(k, name)})
        self.handled.update([name, *locales])
        va, vb = a.get(name, SKIP), b.get(name, SKIP)
        if _missing(vb) or _key(va) == _key(vb):
            side = "same"
        elif name == "signature":
            side = "into"  # the survivor's signature stays; the other one becomes an example
        elif _missing(va):
            side = "other"
        else:
            side, value = self.decide(jp.join(name), va, vb, tuple(locales))
            if side == "edit":
                self.out[name] = value
                for loc in locales:
                    for who, data in (("into", a), ("other", b)):
                        if loc in data:
                            self.drop_translation(loc, "the text it translated was edited", who)
                return
        chosen = vb if side == "other" else va
        if chosen is not SKIP:
            self.out[name] = chosen
        for loc in locales:
            ta, tb = a.get(loc, SKIP), b.get(loc, SKIP)
            if side == "same":
                value = self.scalar(jp.join(loc), ta, tb)
                if value is not SKIP:
                    self.out[loc] = value
                continue
            keep, lose, lose_side = (ta, tb, "other") if side == "into" else (tb, ta, "into")
            if keep is not SKIP:
                self.out[loc] = keep
            settled = jp.join(name) in self.report.resolutions
            if lose is not SKIP and _key(lose) != _key(keep) and name != "signature" and settled:
                # (a signature's translation goes with it into `examples`, see signatures())
                self.drop_translation(loc, f"it translates the {name} that was not chosen", lose_side)

    def drop_translation(self, loc: str, why: str, side: str) -> None:
        data = self.a if side == "into" else self.b
        value = data.get(loc)
        self.report.notes.append(f"`{loc}` of `{data.get('id')}` is not kept: {why}")
        base = loc.rsplit("_", 1)[0] if not loc.startswith("root_cause_") else "root_cause"
        self.place(side, "translation", jp.join(loc), value, jp.join(base), merged=True)

    @staticmethod
    def is_translation(key: str, name: str) -> bool:
        return key.startswith(name + "_") and not (name == "root_cause" and key == "root_cause_type")

    def signatures(self) -> None:
        a, b = self.a, self.b
        signature = a.get("signature")
        examples: list[Any] = []
        sources: list[tuple[str, str, Any]] = []
        for index, example in enumerate(a.get("examples") or []):
            sources.append(("into", jp.join("examples", index), example))
        if b.get("signature") is not None:
            sources.append(("other", "/signature", b.get("signature")))
        for index, example in enumerate(b.get("examples") or []):
            sources.append(("other", jp.join("examples", index), example))
        for side, source, message in sources:
            if message == signature:
                self.place(side, "example", source, message, "/signature", merged=True)
                continue
            if message not in examples:
                examples.append(message)
            target = jp.join("examples", examples.index(message))
            self.place(side, "example", source, message, target)
            if side == "other" and source == "/signature":
                for key in sorted(k for k in b if self.is_translation(k, "signature")):
                    if _key(b[key]) != _key(a.get(key, SKIP)):
                        self.place("other", "translation", jp.join(key), b[key], target, merged=True)
                        self.report.notes.append(
                            f"`{key}` of `{b.get('id')}` translates its signature, now {target} (examples carry no translations)"
                        )
        if examples or "examples" in a:
            self.out["examples"] = examples
        counter = _union(a.get("counterexamples") or [], b.get("counterexamples") or [])
        for side, data in (("into", a), ("other", b)):
            for index, message in enumerate(data.get("counterexamples") or []):
                self.place(side, "counterexample", jp.join("counterexamples", index), message,
                           jp.join("counterexamples", counter.index(message)))
        clash = [m for m in counter if m in examples or m == signature]
        for message in clash:
            self.report.notes.append(f"`{message[:60]}` is both an example and a counterexample; no regex can satisfy both")
        if counter or "counterexamples" in a:
            self.out["counterexamples"] = counter

    def items(self, name: str) -> None:
        """Dead ends or workarounds, with their translated lists kept aligned."""
        a_items = [x for x in self.a.get(name) or []]
        b_items = [x for x in self.b.get(name) or []]
        if name not in self.a and name not in self.b:
            return
        pairs: list[tuple[float, int, int]] = []
        for i, x in enumerate(a_items):
            for j, y in enumerate(b_items):
                if isinstance(x, dict) and isinstance(y, dict):
                    similarity = phrase_similarity(str(x.get("action", "")), str(y.get("action", "")))
                    if similarity >= ITEM_SIMILARITY:
                        pairs.append((similarity, i, j))
        matched_a: dict[int, int] = {}
        matched_b: set[int] = set()
        for _, i, j in sorted(pairs, key=lambda t: (-t[0], t[1], t[2])):
            if i not in matched_a and j not in matched_b:
                matched_a[i] = j
                matched_b.add(j)
        merged: list[Any] = []
        origin: list[tuple[int | None, int | None]] = []
        for i, x in enumerate(a_items):
            j = matched_a.get(i)
            target = jp.join(name, len(merged))
            self.place("into", name[:-1].replace("_", " "), jp.join(name, i), x, target)
            if j is None:
                merged.append(x)
            else:
                merged.append(self.merge_item(name, len(merged), x, b_items[j]))
                self.place("other", name[:-1].replace("_", " "), jp.join(name, j), b_items[j], target, merged=True)
            origin.append((i, j))
        for j, y in enumerate(b_items):
            if j not in matched_b:
                self.place("other", name[:-1].replace("_", " "), jp.join(name, j), y, jp.join(name, len(merged)))
                merged.append(y)
                origin.append((None, j))
        self.out[name] = merged
        self.sources(name, a_items, b_items, merged, origin)
        self.item_translations(name, merged, origin, a_items, b_items)

    def merge_item(self, name: str, index: int, x: dict[str, Any], y: dict[str, Any]) -> dict[str, Any]:
        item: dict[str, Any] = {}
        where = jp.join(name, index)
        for key in [*x, *[k for k in y if k not in x]]:
            xv, yv = x.get(key, SKIP), y.get(key, SKIP)
            if key == "action":
                item[key] = xv if xv is not SKIP else yv
            elif key == RATE_KEYS.get(name):
                item[key] = combine_rates(None if xv is SKIP else xv, None if yv is SKIP else yv, self.wa, self.wb)
            elif key == "sources":
                item[key] = _union([] if xv is SKIP else xv or [], [] if yv is SKIP else yv or [])
            elif key == "condition":
                item[key] = self.condition(jp.child(where, key), xv, yv)
            else:
                item[key] = self.scalar(jp.child(where, key), xv, yv)
        return item

    def condition(self, pointer: str, a: Any, b: Any) -> Any:
        if _key(a) == _key(b):
            return a
        for kept, lost in ((a, b), (b, a)):
            if _missing(kept):
                self.report.notes.append(f"{pointer}: the merged item applies always; the condition `{lost}` no longer limits it")
                return ""
        return f"{a}; or {b}"

    def sources(self, name: str, a_items: list[Any], b_items: list[Any], merged: list[Any], origin: list[tuple[int | None, int | None]]) -> None:
        for k, (i, j) in enumerate(origin):
            for side, items, n in (("into", a_items, i), ("other", b_items, j)):
                if n is None or not isinstance(items[n], dict):
                    continue
                result = merged[k].get("sources") or [] if isinstance(merged[k], dict) else []
                for s, url in enumerate(items[n].get("sources") or []):
                    position = result.index(url) if url in result else 0
                    self.place(side, "source", jp.join(name, n, "sources", s), url, jp.join(name, k, "sources", position))

    def item_translations(
        self, name: str, merged: list[Any], origin: list[tuple[int | None, int | None]],
        a_items: list[Any], b_items: list[Any],
    ) -> None:
        locales = sorted({k for k in [*self.a, *self.b] if k.startswith(name + "_")})
        self.handled.update(locales)
        for loc in locales:
            ta = self.a.get(loc) if isinstance(self.a.get(loc), list) else None
            tb = self.b.get(loc) if isinstance(self.b.get(loc), list) else None
            out: list[Any] = []
            gaps = 0
            for k, (i, j) in enumerate(origin):
                mine = ta[i] if ta is not None and i is not None and i < len(ta) else SKIP
                theirs = tb[j] if tb is not None and j is not None and j < len(tb) else SKIP
                target = jp.join(loc, k)
                if mine is not SKIP:
                    out.append(mine)
                    self.place("into", "translation", jp.join(loc, i), mine, target)
                    if theirs is not SKIP and _key(theirs) != _key(mine):
                        self.place("other", "translation", jp.join(loc, j), theirs, target, merged=True)
                elif theirs is not SKIP:
                    out.append(theirs)
                    self.place("other", "translation", jp.join(loc, j), theirs, target)
                else:
                    out.append("")
                    gaps += 1
            for side, items, translations in (("into", a_items, ta), ("other", b_items, tb)):
                for extra in range(len(items), len(translations or [])):
                    assert translations is not None
                    self.place(side, "translation", jp.join(loc, extra), translations[extra], jp.join(loc), merged=True)
                    self.report.notes.append(f"`{loc}` of `{(self.a if side == 'into' else self.b).get('id')}` has more items than `{name}`; item {extra + 1} is not kept")
            if gaps:
                self.report.notes.append(f"`{loc}` has {gaps} empty item(s) for {name} that only the other side had: translate them")
            self.out[loc] = out

    def versions(self) -> None:
        if "versions" not in self.a and "versions" not in self.b:
            return
        rows: list[Any] = []
        keys: list[str | None] = []
        for side, data in (("into", self.a), ("other", self.b)):
            for index, row in enumerate(data.get("versions") or []):
                key = re.sub(r"\s+", "", str(row.get("version", ""))).casefold() if isinstance(row, dict) else None
                if key is not None and key in keys and side == "other":
                    at = keys.index(key)
                    merged = dict(rows[at])
                    for field_name, value in row.items():
                        merged[field_name] = self.scalar(jp.join("versions", at, field_name), merged.get(field_name, SKIP), value)
                    rows[at] = merged
                    self.place(side, "version", jp.join("versions", index), row, jp.join("versions", at), merged=True)
                elif isinstance(row, dict) or _key(row) not in {_key(r) for r in rows}:
                    rows.append(row)
                    keys.append(key)
                    self.place(side, "version", jp.join("versions", index), row, jp.join("versions", len(rows) - 1))
                else:
                    at = [_key(r) for r in rows].index(_key(row))
                    self.place(side, "version", jp.join("versions", index), row, jp.join("versions", at), merged=True)
        self.out["versions"] = rows

    def tags(self) -> None:
        if "tags" not in self.a and "tags" not in self.b:
            return
        tags = _union(self.a.get("tags") or [], self.b.get("tags") or [])
        for side, data in (("into", self.a), ("other", self.b)):
            for index, tag in enumerate(data.get("tags") or []):
                self.place(side, "tag", jp.join("tags", index), tag, jp.join("tags", tags.index(tag)))
        self.out["tags"] = tags

    def graph(self) -> None:
        ga, gb = self.a.get("transition_graph"), self.b.get("transition_graph")
        if ga is None and gb is None:
            return
        ga = ga if isinstance(ga, dict) else {}
        gb = gb if isinstance(gb, dict) else {}
        selves = {self.a.get("id"), self.b.get("id"), *(self.out.get("aliases") or [])}
        graph: dict[str, Any] = {}
        for name in [*ga, *[k for k in gb if k not in ga]]:
            items: list[Any] = []
            targets: list[str] = []
            for side, data in (("into", ga), ("other", gb)):
                refs = data.get(name)
                for index, ref in enumerate(refs if isinstance(refs, list) else []):
                    source = jp.join("transition_graph", name, index)
                    target_id = ref.get("error_id") if isinstance(ref, dict) else ref
                    if isinstance(target_id, str) and target_id in selves:
                        self.report.notes.append(f"{source} of `{(self.a if side == 'into' else self.b).get('id')}` pointed at the merged pair itself and is dropped")
                        self.place(side, "graph edge", source, ref, "/id", merged=True)
                        continue
                    key = _key(target_id)  # under a key the schema does not know, a reference may be anything
                    if key in targets:
                        at = targets.index(key)
                        items[at] = self.merge_ref(jp.join("transition_graph", name, at), items[at], ref)
                        self.place(side, "graph edge", source, ref, jp.join("transition_graph", name, at), merged=True)
                    else:
                        targets.append(key)
                        items.append(ref)
                        self.place(side, "graph edge", source, ref, jp.join("transition_graph", name, len(items) - 1))
            graph[name] = items
        self.out["transition_graph"] = graph

    def merge_ref(self, pointer: str, kept: Any, new: Any) -> Any:
        if not isinstance(new, dict):
            return kept
        if not isinstance(kept, dict):
            return new
        merged = dict(kept)
        for key, value in new.items():
            merged[key] = self.scalar(jp.child(pointer, key), kept.get(key, SKIP), value)
        return merged

    def os_specific(self) -> None:
        oa, ob = self.a.get("os_specific"), self.b.get("os_specific")
        if oa is None and ob is None:
            return
        oa = oa if isinstance(oa, dict) else {}
        ob = ob if isinstance(ob, dict) else {}
        merged = dict(oa)
        for key, value in ob.items():
            merged[key] = self.scalar(jp.join("os_specific", key), oa.get(key, SKIP), value)
        self.out["os_specific"] = merged

    def numbers_and_dates(self) -> None:
        a, b = self.a, self.b
        for name, pick in (("first_seen", min), ("last_confirmed", max), ("last_updated", max)):
            values = [v for v in (a.get(name), b.get(name)) if isinstance(v, str) and v]
            if values:
                self.out[name] = pick(values)
            elif name in a:
                self.out[name] = a[name]
        counts = [v for v in (a.get("evidence_count"), b.get("evidence_count")) if isinstance(v, int) and not isinstance(v, bool)]
        if counts:
            self.out["evidence_count"] = sum(counts)
        for name in ("confidence", "fix_success_rate"):
            if name in a or name in b:
                self.out[name] = combine_rates(a.get(name), b.get(name), self.wa, self.wb)
        ta, tb = a.get("verification_tier"), b.get("verification_tier")
        if ta in TIERS and tb in TIERS:
            self.out["verification_tier"] = min(ta, tb, key=TIERS.index)
            if ta != tb:
                self.report.notes.append(f"`verification_tier` is the lower of `{ta}` and `{tb}`: part of the merged entry was only `{self.out['verification_tier']}`")
        elif ta is not None or tb is not None:
            self.out["verification_tier"] = self.scalar("/verification_tier", ta if ta is not None else SKIP, tb if tb is not None else SKIP)

    def rest(self) -> None:
        """Every other key: known scalars and unknown fields alike."""
        done = set(self.out) | self.handled
        for name in [*self.a, *[k for k in self.b if k not in self.a]]:
            if name in done:
                continue
            va, vb = self.a.get(name, SKIP), self.b.get(name, SKIP)
            if isinstance(va, list) and isinstance(vb, list):
                self.out[name] = _union(va, vb)
            else:
                value = self.scalar(jp.join(name), va, vb)
                if value is not SKIP:
                    self.out[name] = value

    def regex(self) -> None:
        pattern, outcome = choose_regex(self.a, self.b, self.out, self.flags, self.mode)
        if pattern is not None:
            self.out["regex"] = pattern
        self.report.regex = outcome

    def run(self) -> MergeResult:
        self.identity()
        self.signatures()
        for name in TRANSLATED_SCALARS:
            self.translated_scalar(name)
        for name in ITEM_LISTS:
            self.items(name)
        self.versions()
        self.tags()
        self.graph()
        self.os_specific()
        self.numbers_and_dates()
        self.regex()
        self.rest()
        order = [*self.a, *[k for k in self.b if k not in self.a], *self.out]
        data = {k: self.out[k] for k in dict.fromkeys(order) if k in self.out}
        from deepdiff import (
            DeepDiff,  # imported here: it pulls in numpy, and lint never needs it
        )

        diff = DeepDiff(self.a, self.b, ignore_order=True, verbose_level=2)
        self.report.differences = [str(k) for k in diff.affected_root_keys]
        return MergeResult(data, self.report)


def regex_checks(pattern: str, messages: Sequence[str], counter: Sequence[str], flags: int, mode: str) -> bool:
    """True if `pattern` compiles, matches every message and none of the counterexamples,
    each run under the time budget (a run that overruns counts as a failed check)."""
    runner = shared_runner()
    if not runner.compiles(pattern, flags):
        return False
    jobs = [Job(pattern, flags, mode, text) for text in [*messages, *counter]]
    outcomes = runner.run(jobs)
    wanted = [Status.MATCH] * len(messages) + [Status.NO_MATCH] * len(counter)
    return [o.status for o in outcomes] == wanted


def alternation(patterns: Sequence[str]) -> str:
    unique = list(dict.fromkeys(patterns))
    return unique[0] if len(unique) == 1 else "|".join(f"(?:{p})" for p in unique)


def choose_regex(
    a: Mapping[str, Any], b: Mapping[str, Any], out: Mapping[str, Any], flags: int = 0, mode: str = "search"
) -> tuple[str | None, RegexOutcome]:
    """The survivor's regex if it recognises every message, else the first that does of:
    a regex suggested from the survivor's signature, the two entries' regexes as an
    alternation, the suggestions for every message as an alternation."""
    messages = [m for m in [out.get("signature"), *(out.get("examples") or [])] if isinstance(m, str)]
    counter = [m for m in out.get("counterexamples") or [] if isinstance(m, str)]
    own, theirs = a.get("regex"), b.get("regex")
    candidates: list[tuple[str, str]] = []
    if isinstance(own, str):
        candidates.append((own, "kept: it matches every example"))
    if isinstance(out.get("signature"), str):
        candidates.append((suggest_regex(out["signature"]), "suggested from the signature"))
    if isinstance(own, str) and isinstance(theirs, str):
        candidates.append((alternation([own, theirs]), "the two entries' regexes as alternatives"))
    candidates.append((alternation([suggest_regex(m) for m in messages]), "suggested from every message, as alternatives"))
    for pattern, how in candidates:
        if messages and regex_checks(pattern, messages, counter, flags, mode):
            return pattern, RegexOutcome(pattern, pattern != own, how, len(messages) - 1, len(counter), True)
    return (own if isinstance(own, str) else None), RegexOutcome(
        str(own), False, "no regex matches every example and no counterexample; kept the survivor's", len(messages) - 1, len(counter), False
    )


def merge_entries(
    into: Mapping[str, Any],
    other: Mapping[str, Any],
    *,
    prefer: str | None = None,
    choices: Mapping[str, Any] | None = None,
    flags: int = 0,
    mode: str = "search",
) -> MergeResult:
    """Merge `other` into `into` (the survivor). Pure: inputs are not changed.

    `prefer` ("into" or "other") settles every conflict one way; `choices` maps a
    conflict's pointer to "into", "other" or ("edit", value). Conflicts neither
    settles stay in `report.unresolved` and the survivor's value stands in.
    """
    if prefer not in (None, "into", "other"):
        raise ValueError(f"prefer must be 'into' or 'other', not {prefer!r}")
    for data in (into, other):
        wrong = shape_problem(data)
        if wrong is not None:
            raise UsageError(f"`{shown(str(data.get('id')))}`: {wrong}; fix the entry before merging")
    return _Merger(into, other, prefer, choices or {}, flags, mode).run()


def shape_problem(data: Mapping[str, Any]) -> str | None:
    """The first value of a type the schema does not allow (a merge needs the shapes right), or None."""
    for error in validator().iter_errors(_plain(data)):
        if error.validator in ("type", "oneOf", "anyOf"):
            where = jp.from_path(list(error.absolute_path)) or "/"
            expected = error.validator_value
            if error.validator != "type":
                return f"`{shown(where)}` is none of the forms the schema allows"
            wanted = " or ".join(expected) if isinstance(expected, list) else str(expected)
            return f"`{shown(where)}` must be {wanted}"
    return None


def rewrite_references(data: Any, old_ids: Iterable[str], new_id: str) -> bool:
    """Turn `transition_graph` references to any of `old_ids` into `new_id`, in place.

    Works on plain or round-trip (ruamel) data. A reference that would then
    repeat one already in the same list is removed. Returns whether anything changed.
    """
    old = set(old_ids)
    graph = data.get("transition_graph") if isinstance(data, Mapping) else None
    if not isinstance(graph, Mapping):
        return False
    changed = False
    for name in GRAPH_LISTS:
        items = graph.get(name)
        if not isinstance(items, list):
            continue
        seen: set[Any] = set()
        index = 0
        while index < len(items):
            item = items[index]
            target = item.get("error_id") if isinstance(item, Mapping) else item
            if target == new_id and new_id in seen:
                changed = True
                del items[index]  # the survivor was named already, under an old id
                continue
            if target in old:
                changed = True
                if new_id in seen:
                    del items[index]
                    continue
                if isinstance(item, Mapping):
                    item["error_id"] = new_id
                else:
                    items[index] = new_id
                target = new_id
            seen.add(target)
            index += 1
    return changed


def _show(value: Any, width: int = 100) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def report_text(result: MergeResult, into: Mapping[str, Any], other: Mapping[str, Any]) -> str:
    """The merge report: every field the two entries differ in (found by deepdiff) and what became of it,
    the conflicts and how each was settled, where the other entry's items went, the regex, notes."""
    report = result.report
    a, b = _plain(into), _plain(other)
    lines = [f"Merging `{report.absorbed}` into `{report.survivor}`", "", "Fields that differ:"]
    conflicts = {c.pointer: c for c in report.conflicts}
    for name in report.differences:
        pointer = jp.join(name)
        merged = result.data.get(name, SKIP)
        if any(p == pointer or p.startswith(pointer + "/") for p in conflicts):
            inside = [p for p in conflicts if p == pointer or p.startswith(pointer + "/")]
            outcome = f"conflict at {', '.join(inside)} (below)"
        elif _key(merged) == _key(a.get(name, SKIP)):
            outcome = "kept the survivor's"
        elif _key(merged) == _key(b.get(name, SKIP)):
            outcome = f"taken from `{report.absorbed}`"
        elif isinstance(merged, list):
            outcome = f"united: {len(merged)} item(s)"
        else:
            outcome = f"combined: {_show(a.get(name))} + {_show(b.get(name))} -> {_show(merged)}"
        lines.append(f"  {name}: {outcome}")
    lines += ["", "Conflicts:" if report.conflicts else "Conflicts: none"]
    for conflict in report.conflicts:
        resolution = report.resolutions.get(conflict.pointer)
        lines.append(f"  {conflict.pointer}")
        lines.append(f"    a ({report.survivor}): {_show(conflict.into)}")
        lines.append(f"    b ({report.absorbed}): {_show(conflict.other)}")
        if resolution is None:
            lines.append("    -> unresolved")
        else:
            lines.append(f"    -> {resolution.choice} ({resolution.how}): {_show(resolution.value)}")
        if conflict.follows:
            lines.append(f"    (with it: {', '.join(conflict.follows)})")
    moved = [p for p in report.ledger if p.side == "other" and p.source != "/id"]
    lines += ["", f"Items of `{report.absorbed}`:"]
    for place in moved:
        verb = "merged into" if place.merged else "now"
        lines.append(f"  {place.kind} {place.source} -> {verb} {place.target}")
    if report.regex is not None:
        r = report.regex
        state = "checked" if r.ok else "FAILS"
        lines += ["", f"Regex ({r.how}; {state} against the signature, {r.examples} example(s), {r.counterexamples} counterexample(s)):", f"  {r.pattern}"]
    if report.notes:
        lines += ["", "Notes:"]
        lines += [f"  - {note}" for note in report.notes]
    return "\n".join(lines) + "\n"
