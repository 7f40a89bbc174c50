"""Merges that should change nothing, on the real deadends.dev canons: each entry with a copy of itself, and near-duplicates again.

    python benchmarks/merge_self.py [--canons ../shared/corpus/deadends-dev/canons] [--entries DIR]

Imports the canons with `entrykit import --from deadends` into a temporary folder (or
reads an already imported `--entries` folder; skipped when neither is there) and prints:

- each entry merged with a deep copy of itself (`merge_entries(d, [copy])`): the entries
  whose merge raises a conflict (by kind), the dead ends and workarounds lost, and the
  entries changed beyond `evidence_count` (which adds up) and version rows rewritten in
  canonical form (which the report names); each entry with a conflict or a lost item;
- the pairs of one entry's own actions that read alike across entries but not within one
  (`SAME_ACTION` <= score < `SAME_ACTION_IN_ENTRY`), to judge by reading: a merge must not
  fold them;
- for each pair `entrykit dupes` lists, and for `--random` pairs of unrelated entries
  (seeded: the same pairs every run), merged both ways with the corpus's lookup
  (IGNORECASE, search) and `--prefer into`/`other`: the signatures and examples either
  input's regex matched (as lookups run it, `merge_regex.matched`) that the merged regex
  misses, and whether merging the absorbed entry into the result again changes anything
  but `evidence_count`.

Run it with the entrykit of another checkout first on `PYTHONPATH` to compare builds.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from entrykit.authoring import merge
from entrykit.authoring.merge_regex import matched
from entrykit.similarity.actions import SAME_ACTION, SAME_ACTION_IN_ENTRY, action_similarity

HERE = Path(__file__).resolve().parent
CANONS = HERE.parent.parent / "shared" / "corpus" / "deadends-dev" / "canons"
ITEM_LISTS = ("dead_ends", "workarounds")


def entrykit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "entrykit", *args], cwd=cwd, capture_output=True, text=True, check=False)


def _actions(data: dict[str, Any], name: str) -> list[str]:
    return [item["action"] for item in data.get(name) or [] if isinstance(item, dict) and isinstance(item.get("action"), str)]


def self_merges(entries: dict[str, dict[str, Any]]) -> None:
    counts: Counter[str] = Counter()
    for path, data in entries.items():
        result = merge.merge_entries(data, [copy.deepcopy(data)])
        kinds = Counter(conflict.kind for conflict in result.report.conflicts)
        counts.update({f"conflicts ({kind})": n for kind, n in kinds.items()})
        lost = {name: len(_actions(data, name)) - len(_actions(result.data, name)) for name in ITEM_LISTS}
        counts["items lost"] += sum(lost.values())
        changed = {key for key in {*data, *result.data} if data.get(key) != result.data.get(key)} - {"evidence_count"}
        reported = {d.pointer.split("/")[1] for d in result.report.dropped if "canonical form" in d.why}
        counts["entries changed beyond evidence_count and canonical version rows"] += bool(changed - reported)
        if kinds or any(lost.values()):
            counts["entries with a conflict or a lost item"] += 1
            print(f"   {path}: conflicts {dict(kinds)}, lost {lost}")
    print(f"{len(entries):,} entries merged with a copy of themselves: {dict(sorted(counts.items()))}")


def own_alike_pairs(entries: dict[str, dict[str, Any]]) -> None:
    found = 0
    for path, data in entries.items():
        for name in ITEM_LISTS:
            for a, b in itertools.combinations(_actions(data, name), 2):
                score = action_similarity(a, b)
                if SAME_ACTION <= score < SAME_ACTION_IN_ENTRY:
                    found += 1
                    print(f"   {path} {name} ({score:.2f}):\n      {a}\n      {b}")
    print(f"{found} pairs of one entry's own actions read {SAME_ACTION} to {SAME_ACTION_IN_ENTRY} alike (above)")


def _found(pattern: Any, texts: list[str]) -> set[int]:
    """Indices of `texts` the regex finds as the corpus looks errors up (none if it does not compile)."""
    found = matched(pattern if isinstance(pattern, str) else None, texts, re.IGNORECASE, "search")
    return found or set()


def pair_merges(entries: dict[str, dict[str, Any]], pairs: list[tuple[str, str]], what: str) -> None:
    counts: Counter[str] = Counter()
    for a_path, b_path in pairs:
        for prefer, (survivor, other) in (("into", (a_path, b_path)), ("other", (b_path, a_path))):
            into, absorbed = entries[survivor], entries[other]
            result = merge.merge_entries(into, [absorbed], prefer=prefer, flags=re.IGNORECASE, mode="search")
            counts["merges"] += 1
            texts = [t for e in (into, absorbed) for t in [e.get("signature"), *(e.get("examples") or [])] if isinstance(t, str)]
            before = _found(into.get("regex"), texts) | _found(absorbed.get("regex"), texts)
            missed = [texts[i] for i in sorted(before - _found(result.data.get("regex"), texts))]
            counts["matched texts the merged regex misses"] += len(missed)
            again = merge.merge_entries(result.data, [copy.deepcopy(absorbed)], prefer="into", flags=re.IGNORECASE, mode="search")
            changed = {k for k in {*result.data, *again.data} if result.data.get(k) != again.data.get(k)} - {"evidence_count"}
            counts["merges the absorbed entry changes again"] += bool(changed)
            for text in missed:
                print(f"   {survivor} + {other}: misses {text[:120]!r}")
            if changed:
                print(f"   {survivor} + {other}: merged again, changes {sorted(changed)}")
    print(f"{len(pairs)} {what}, merged both ways: {dict(sorted(counts.items()))}")


def _random_pairs(names: list[str], count: int) -> list[tuple[str, str]]:
    """`count` distinct pairs of entries, drawn with seed 7 (the same pairs every run)."""
    draw, chosen = random.Random(7), dict[tuple[str, str], None]()
    while len(chosen) < min(count, len(names) * (len(names) - 1) // 2):
        first, second = sorted(draw.sample(names, 2))  # (each pair is merged both ways)
        chosen[(first, second)] = None
    return list(chosen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--canons", type=Path, default=CANONS)
    parser.add_argument("--entries", type=Path, help="an imported corpus root (its project folder holds the configuration)")
    parser.add_argument("--random", type=int, default=150, help="how many random pairs of entries to merge (seed 7)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="merge-self-") as scratch:
        root = args.entries
        if root is None:
            if not args.canons.is_dir():
                print(f"skipped: {args.canons} is not present")
                return
            root = Path(scratch) / "entries"
            entrykit("import", "--from", "deadends", "--out", str(root), str(args.canons), cwd=Path(scratch))
        project = root.parent
        entries = {p.relative_to(root).as_posix(): yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(root.rglob("*.yaml"))}
        self_merges(entries)
        own_alike_pairs(entries)
        report = json.loads(entrykit("dupes", "--format", "json", "--root", str(root), cwd=project).stdout or "{}")
        prefix = f"{root.name}/"
        pairs = [
            (pair["a"]["path"].removeprefix(prefix), pair["b"]["path"].removeprefix(prefix))
            for cluster in report.get("clusters", []) for pair in cluster["pairs"]
        ]  # fmt: skip
        pair_merges(entries, [(a, b) for a, b in pairs if a in entries and b in entries], "near-duplicate pairs (entrykit dupes)")
        pair_merges(entries, _random_pairs(sorted(entries), args.random), "random pairs (seed 7)")


if __name__ == "__main__":
    main()
