"""Findings per rule code and severity in `entrykit lint --format json` output, and a seeded sample of each.

    entrykit lint --format json --exit-zero --no-cache --today 2026-12-01 entries > after.json
    python benchmarks/code_counts.py after.json                     # counts per code and severity
    python benchmarks/code_counts.py before.json after.json         # side by side
    python benchmarks/code_counts.py after.json --sample 8 --seed 14 --code ET401

The sample is what a precision figure is judged on: for each code and severity, `--sample`
findings drawn with `random.Random(seed)` from the findings in the file's order (all of them
when there are fewer), so the same file and seed give the same sample on every machine.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

Key = tuple[str, str]


def read(path: Path) -> list[dict[str, Any]]:
    """The diagnostics of one JSON report."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["diagnostics"] if isinstance(data, dict) else data


def counts(diagnostics: list[dict[str, Any]]) -> Counter[Key]:
    return Counter((d["code"], d["severity"]) for d in diagnostics)


def sample(diagnostics: list[dict[str, Any]], size: int, seed: int) -> dict[Key, list[dict[str, Any]]]:
    """Per code and severity, `size` findings drawn with `random.Random(seed)` (one generator per group)."""
    groups: dict[Key, list[dict[str, Any]]] = defaultdict(list)
    for diagnostic in diagnostics:
        groups[(diagnostic["code"], diagnostic["severity"])].append(diagnostic)
    return {
        key: items if len(items) <= size else random.Random(seed).sample(items, size)
        for key, items in sorted(groups.items())
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", type=Path, nargs="+", help="one report, or a report before and one after")
    parser.add_argument("--sample", type=int, default=0, help="print this many findings of each code (of the last report)")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--code", action="append", default=[], help="sample only these codes")
    args = parser.parse_args()
    reports = [read(p) for p in args.reports]
    tallies = [counts(r) for r in reports]
    keys = sorted(set().union(*tallies))
    names = [p.name for p in args.reports]
    print("code   severity  " + "  ".join(f"{n:>12}" for n in names))
    for key in keys:
        print(f"{key[0]:<6} {key[1]:<9} " + "  ".join(f"{t[key]:>12}" for t in tallies))
    print(f"{'total':<16} " + "  ".join(f"{len(r):>12}" for r in reports))
    if args.sample:
        for (code, severity), items in sample(reports[-1], args.sample, args.seed).items():
            if args.code and code not in args.code:
                continue
            print(f"\n{code} {severity}: {len(items)} of {tallies[-1][(code, severity)]}")
            for number, d in enumerate(items, 1):
                print(f"{number}. {d['path']}:{d['line']}:{d['col']} {d['message']}")


if __name__ == "__main__":
    main()
