"""What ET205 and ET209's index report on a folder of deadends.dev canon JSON files.

    python benchmarks/regex_sample_report.py ../shared/corpus/deadends-dev/canons [--flags IGNORECASE] [--mode search]

Reads `error.regex` and `error.signature` of every `*/*/*.json`, analyses each regex
as ET205 does (the attack confirmed under the 100 ms budget), and prints the counts
by class, the slowest confirmed attacks, how many regexes ET209's index must run on
every text (no usable literal), and the wall time of each part.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from pathlib import Path

from entrykit.regex.compiling import flags_value
from entrykit.regex.literal_index import RegexIndex
from entrykit.regex.redos import AnalysisTooComplex, analyse
from entrykit.regex.runner import RegexRunner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("canons", type=Path)
    parser.add_argument("--flags", nargs="*", default=["IGNORECASE"])
    parser.add_argument("--mode", default="search", choices=["search", "match", "fullmatch"])
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args()
    flags = flags_value(args.flags)
    errors = [json.loads(p.read_text(encoding="utf-8"))["error"] for p in sorted(args.canons.rglob("*.json"))]
    patterns = []
    for error in errors:
        try:
            re.compile(error.get("regex") or "", flags)
            patterns.append(error.get("regex"))
        except re.error:
            patterns.append(None)
    print(f"{len(errors)} entries, {sum(p is None for p in patterns)} regexes do not compile; "
          f"flags {args.flags or 'none'}, mode {args.mode}")

    counts: Counter[str] = Counter()
    measured = []
    start = time.perf_counter()
    with RegexRunner(100) as runner:
        for pattern in patterns:
            if pattern is None:
                continue
            try:
                results = analyse(pattern, flags, args.mode, runner)
            except AnalysisTooComplex:
                counts["too complex to analyse"] += 1
                continue
            if not results:
                counts["no finding (linear, or quadratic through single-character repeats)"] += 1
                continue
            result = results[0]
            finding = result.finding
            if finding.kind == "polynomial" and finding.degree < 3 and not finding.group_repeat:
                counts["no finding (linear, or quadratic through single-character repeats)"] += 1
                continue
            label = finding.label
            if result.measurement is not None:
                label += ", confirmed" if result.measurement.confirmed else ", not confirmed"
                measured.append((result, pattern))
            counts[label] += 1
    print(f"ET205 analysis and confirmation: {time.perf_counter() - start:.1f} s")
    for label, count in sorted(counts.items(), key=lambda item: -item[1]):
        print(f"  {count:5}  {label}")

    def shortest_over(item: tuple[object, str]) -> int:
        result = item[0]
        over = [length for length, s in result.measurement.runs if s is None]  # type: ignore[attr-defined]
        return over[0] if over else 10**9

    print("attacks that exceeded the budget soonest:")
    for result, pattern in sorted(measured, key=shortest_over)[: args.show]:
        print(f"  {pattern}\n    {result.finding.label}: {result.finding.attack.describe()}; "
              f"{result.measurement.describe(100)}")

    start = time.perf_counter()
    index = RegexIndex(patterns, flags, args.mode, [e["signature"] for e in errors])
    print(f"ET209 index: {len(index.fallback)} of {sum(p is not None for p in patterns)} regexes have no usable "
          f"literal and run on every text (built in {time.perf_counter() - start:.2f} s)")
    for number in index.fallback:
        print(f"  {patterns[number]}")


if __name__ == "__main__":
    main()
