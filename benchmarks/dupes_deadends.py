"""Near-duplicates on the real deadends.dev canons: counts, recall, and a sample of pairs to judge.

    python benchmarks/dupes_deadends.py [--canons ../shared/corpus/deadends-dev/canons]
        [--entries DIR] [--sample 30] [--seed 14] [--show-all] [--lint]

Imports the canons with `entrykit import --from deadends` into a temporary folder
(or reads an already imported `--entries` folder), runs `entrykit dupes --format json`
there as a user would, and prints:

- counts: pairs listed, clusters and their sizes, template families and their
  sizes, pairs by their strongest reason, entries with more pairs than listed;
- recall on pairs of entries (two ids) whose signatures are equal once normalised,
  for two definitions of "normalised": entrykit's (volatile tokens such as numbers,
  paths, URLs become placeholders; names stay) and the older one that also turned
  every quoted or backticked value into a placeholder; a pair counts as found when
  `dupes` lists it; the pairs not found are printed with the reason;
- a random sample (`--seed`, `--sample`) of the listed pairs with both entries'
  signatures, regexes and root causes, to judge by reading them (`--show-all`
  prints every listed pair that way);
- with `--lint`, the ET502 diagnostics `entrykit lint --select ET502` gives.

Run it with the entrykit of another checkout on `PYTHONPATH` to compare builds
(the recall definitions need this checkout's `entrykit.similarity`).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CANONS = HERE.parent.parent / "shared" / "corpus" / "deadends-dev" / "canons"
STRONGEST = ("same-id", "same-signature", "regex-matches-both", "same-slug", "regex-matches-other", "similar-signature")


def entrykit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "entrykit", *args], capture_output=True, text=True, cwd=cwd, check=False)


def listed_pairs(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for c in report["clusters"] for p in c["pairs"]] + list(report.get("between", []))


def load_entries(root: Path) -> dict[str, dict[str, Any]]:
    import yaml

    return {str(p.relative_to(root.parent)): yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(root.rglob("*.yaml"))}


def recall(report: dict[str, Any], entries: dict[str, dict[str, Any]]) -> None:
    from entrykit import message_tokens as mt
    from entrykit.similarity import near_duplicates as nd

    found = {frozenset((p["a"]["path"], p["b"]["path"])) for p in listed_pairs(report)}
    older = {k: v for k, v in nd.PLACEHOLDERS.items() if k != mt.QUANTITY}
    older.update({mt.QUOTED: "vquoted", mt.CODE: "vquoted"})
    for name, placeholders in (("names kept (entrykit's)", nd.PLACEHOLDERS), ("quoted values too (older)", older)):
        groups: dict[str, list[str]] = defaultdict(list)
        for path, data in entries.items():
            groups[nd.normalize_signature(data.get("signature") or "", placeholders)].append(path)
        pairs = [
            (a, b) for paths in groups.values() for a, b in itertools.combinations(paths, 2) if entries[a]["id"] != entries[b]["id"]
        ]
        hits = [p for p in pairs if frozenset(p) in found]
        print(f"recall, same normalised signature, {name}: {len(hits)}/{len(pairs)} = {len(hits) / max(1, len(pairs)):.3f}")
        for a, b in pairs:
            if frozenset((a, b)) not in found:
                print(f"    not listed: {entries[a]['id']} ~ {entries[b]['id']}")
                print(f"        {entries[a].get('signature')!r}\n        {entries[b].get('signature')!r}")


def show(pair: dict[str, Any], entries: dict[str, dict[str, Any]], number: int) -> None:
    reasons = ", ".join(r["code"] for r in pair["reasons"])
    print(f"[{number}] {pair['score']:.2f} {pair['a']['id']} ~ {pair['b']['id']}  ({reasons})")
    for side in ("a", "b"):
        data = entries[pair[side]["path"]]
        print(f"    {side}: {data.get('signature')!r}")
        print(f"       regex {data.get('regex')!r}")
        print(f"       cause {str(data.get('root_cause'))[:220]!r}")


def summary(report: dict[str, Any]) -> None:
    pairs = listed_pairs(report)
    sizes = Counter(len(c["ids"]) for c in report["clusters"])
    families = Counter(len(f["ids"]) for f in report.get("families", []))
    strongest = Counter(next((c for c in STRONGEST if c in {r["code"] for r in p["reasons"]}), "support only") for p in pairs)
    print(f"entries {report['entries']}, pairs listed {len(pairs)}, clusters {len(report['clusters'])}")
    print(f"cluster sizes (size: clusters): {dict(sorted(sizes.items()))}")
    print(f"template families (size: families): {dict(sorted(families.items()))}, "
          f"{sum(len(f['ids']) for f in report.get('families', []))} entries")
    print(f"pairs by strongest reason: {dict(strongest.most_common())}")
    print(f"entries with more pairs than listed: {len(report.get('more', []))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--canons", type=Path, default=CANONS)
    parser.add_argument("--entries", type=Path, help="an already imported entries folder")
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--show-all", action="store_true")
    parser.add_argument("--lint", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.entries is None:
            root = Path(folder) / "entries"
            done = entrykit("import", "--from", "deadends", "--out", str(root), str(args.canons.resolve()), cwd=Path(folder))
            if done.returncode != 0:
                raise SystemExit(done.stderr)
        else:
            root = args.entries.resolve()
        result = entrykit("dupes", "--root", str(root), "--format", "json", cwd=root.parent)
        report = json.loads(result.stdout)
        entries = load_entries(root)
        summary(report)
        recall(report, entries)
        pairs = sorted(listed_pairs(report), key=lambda p: (p["a"]["path"], p["b"]["path"]))
        chosen = pairs if args.show_all else random.Random(args.seed).sample(pairs, min(args.sample, len(pairs)))
        print(f"\n{len(chosen)} pairs (seed {args.seed}):" if not args.show_all else "\nall pairs:")
        for number, pair in enumerate(chosen, 1):
            show(pair, entries, number)
        if args.lint:
            linted = entrykit("lint", "--root", str(root), "--select", "ET502", "--format", "json", "--exit-zero", "--no-cache",
                              cwd=root.parent)
            found = json.loads(linted.stdout)
            print(f"\nET502 diagnostics: {len(found)} on {len({d['path'] for d in found})} files")


if __name__ == "__main__":
    main()
