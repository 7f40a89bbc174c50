"""What ET205 and ET209's index report on a folder of deadends.dev canon JSON files.

    python benchmarks/regex_sample_report.py ../shared/corpus/deadends-dev/canons [--flags IGNORECASE] [--mode search]
    python benchmarks/regex_sample_report.py CANONS --measure   # also time each attack (opt-in)

Reads `error.regex` and `error.signature` of every `*/*/*.json`, analyses each regex
as ET205 does (by analysis alone: the same counts on every run and machine), and
prints the counts by class, the steps the analysis took (largest first: how far each
is from the budget), how many regexes ET209's index must run on every text (no usable
literal), and the CPU time of each part. With `--measure`, each finding's attack is
also timed in the regex worker under a 100 ms budget, as `regex.measure = true` does
(a clock: those figures differ between runs).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

from entrykit.regex import redos
from entrykit.regex.budget import Budget, TooComplex
from entrykit.regex.compiling import flags_value
from entrykit.regex.literal_index import RegexIndex
from entrykit.regex.runner import RegexRunner


class _Counted(Budget):
    """A budget that remembers how much of it the last analysis used."""

    last: Budget | None = None

    def __init__(self, limit: int, what: str) -> None:
        super().__init__(limit, what)
        _Counted.last = self


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("canons", type=Path)
    parser.add_argument("--flags", nargs="*", default=["IGNORECASE"])
    parser.add_argument("--mode", default="search", choices=["search", "match", "fullmatch"])
    parser.add_argument("--show", type=int, default=5)
    parser.add_argument("--measure", action="store_true", help="also time each attack in the worker (opt-in)")
    args = parser.parse_args()
    flags = flags_value(args.flags)
    errors = [json.loads(p.read_text(encoding="utf-8"))["error"] for p in sorted(args.canons.rglob("*.json"))]
    patterns = _compiling(errors, flags)
    print(f"{len(errors)} entries, {sum(p is None for p in patterns)} regexes do not compile; "
          f"flags {args.flags or 'none'}, mode {args.mode}")
    _report_analysis(patterns, flags, args.mode, args.measure, args.show)
    _report_index(patterns, flags, args.mode, [e["signature"] for e in errors])


def _compiling(errors: list[dict[str, Any]], flags: int) -> list[str | None]:
    """Each entry's regex, or None where it does not compile."""
    patterns: list[str | None] = []
    for error in errors:
        try:
            re.compile(error.get("regex") or "", flags)
            patterns.append(error.get("regex"))
        except re.error:
            patterns.append(None)
    return patterns


def _report_analysis(patterns: list[str | None], flags: int, mode: str, measure: bool, show: int) -> None:
    """ET205's classes, the steps its analysis took, and (with `measure`) the soonest attacks."""
    counts: Counter[str] = Counter()
    steps: list[tuple[int, str]] = []
    measured: list[tuple[redos.Result, str]] = []
    redos.Budget = _Counted  # type: ignore[misc]  # count the steps each analysis takes
    start = time.process_time()
    with RegexRunner(100) as runner:
        for pattern in patterns:
            if pattern is None:
                continue
            try:
                results = redos.analyse(pattern, flags, mode, runner, measure=measure)
            except TooComplex as exc:
                counts[f"too complex to analyse (ET210): {exc.reason}"] += 1
                continue
            finally:
                if _Counted.last is not None:
                    steps.append((_Counted.last.used, pattern))
            label, timed = _classify(results)
            counts[label] += 1
            if timed is not None:
                measured.append((timed, pattern))
    print(f"ET205 analysis{' and timing' if measure else ''}: {time.process_time() - start:.1f} s CPU")
    for label, count in sorted(counts.items(), key=lambda item: -item[1]):
        print(f"  {count:5}  {label}")
    steps.sort(reverse=True)
    print(f"steps per regex (budget {redos.STEP_BUDGET:,}): largest {steps[0][0]:,}, "
          f"median {steps[len(steps) // 2][0]:,}")
    for used, pattern in steps[:show]:
        print(f"  {used:>9,}  {pattern[:100]}")
    if measured:
        _report_soonest(measured, show)
def _classify(results: list[redos.Result]) -> tuple[str, redos.Result | None]:
    """The class of a regex's worst result, and that result if its attack was timed."""
    if not results:
        return "no finding (linear, or no attack makes it fail)", None
    result = results[0]
    finding = result.finding
    if finding.kind == "polynomial" and finding.degree < 3 and not finding.group_repeat:
        return "no finding (quadratic through single-character repeats)", None
    if result.measurement is None:
        return finding.label, None
    timing = ", timing confirms it" if result.measurement.confirmed else ", timing does not confirm it"
    return finding.label + timing, result


def _report_soonest(measured: list[tuple[redos.Result, str]], show: int) -> None:
    def shortest_over(item: tuple[redos.Result, str]) -> int:
        measurement = item[0].measurement
        over = [length for length, s in measurement.runs if s is None] if measurement is not None else []
        return over[0] if over else 10**9

    print("attacks that exceeded the budget soonest:")
    for result, pattern in sorted(measured, key=shortest_over)[:show]:
        assert result.measurement is not None
        print(f"  {pattern}\n    {result.finding.label}: {result.finding.attack.describe()}; "
              f"{result.measurement.describe(100)}")


def _report_index(patterns: list[str | None], flags: int, mode: str, signatures: list[str]) -> None:
    """How many regexes ET209's index cannot narrow down by a literal."""
    start = time.process_time()
    index = RegexIndex(patterns, flags, mode, signatures)
    print(f"ET209 index: {len(index.fallback)} of {sum(p is not None for p in patterns)} regexes have no usable "
          f"literal and run on every text (built in {time.process_time() - start:.2f} s CPU)")
    for number in index.fallback:
        print(f"  {patterns[number]}")


if __name__ == "__main__":
    main()
