"""Does `compiling.compile_steps` count at least a step per microsecond CPython takes to compile a regex?

    python benchmarks/compile_steps.py [--length 20000] [--rounds 3]

ET206 decides whether a long regex compiles within the time budget by counting
(`compiling.compile_steps`): one counting more steps than the budget's microseconds is
not compiled, one counting fewer is compiled in the worker under ten times the budget
(`compiling.COMPILE_MARGIN`), a guard that only a count ten times under its compile, or
a machine that much slower, would meet. This script
compiles regexes made of each repeated unit (`--length` characters), with and without
IGNORECASE, and class ranges of growing size, and prints for each the count, the best
CPU time of `--rounds` compiles, and their ratio (steps per microsecond). It measures
only; it decides nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import time
import warnings

from entrykit.regex.compiling import COMPILE_MARGIN, compile_steps

UNITS = (
    "a", "(a)", "(?:a)", "a|", "\\w+", "[ab]", "[a-z]", "(a|b)*", "a{2,5}", "(?=a)", "\\d", ".", "[^a]", "é", "中",
    "[\u0100-\u01ff]",
    # classes whose characters (and other cases) touch blocks of 256 beyond the first
    "[жa]", "[αβ]", "[µᲂ]", "[一鿿Ā]", "[éᲂ一😀]", "[ĀȀ̀ЀԀ؀܀ࠀ]", "[一鿿]", "[aĀȀ]", "[µĀ]", "[Āā਀ਁ]",
    # ... and letters `re` gives further cases under IGNORECASE (the Kelvin sign, the long s)
    "[ks]", "[ik]",
)
RANGES = ((0x100, 0x1FF), (0x100, 0xFFF), (0x100, 0xFFFF), (0x10000, 0x1FFFF))


def compile_seconds(pattern: str, rounds: int) -> float:
    """The least CPU time of `rounds` compiles of `pattern` (each new to `re`'s cache)."""
    best = float("inf")
    for _ in range(rounds):
        fresh = f"{pattern}(?#{time.perf_counter_ns()})"
        started = time.process_time()
        with contextlib.suppress(re.error):
            re.compile(fresh)
        best = min(best, time.process_time() - started)
    return best


def row(label: str, pattern: str, flags: int, rounds: int) -> float:
    steps = compile_steps(pattern, flags)
    micro = compile_seconds(("(?i)" if flags else "") + pattern, rounds) * 1e6
    ratio = steps / max(micro, 1.0)
    print(f"{label:<34} {steps:>12,} {micro:>12,.0f} {ratio:>8.2f}")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--length", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # (re's warnings of possible nested sets)
    print(f"{'regex':<34} {'steps':>12} {'us':>12} {'steps/us':>8}")
    ratios = []
    for unit in UNITS:
        pattern = unit * max(1, args.length // len(unit))
        for flags, case in ((0, ""), (re.IGNORECASE, " (?i)")):
            ratios.append(row(f"{unit!r} x {len(pattern) // len(unit):,}{case}", pattern, flags, args.rounds))
    for low, high in RANGES:
        pattern = f"[{chr(low)}-{chr(high)}]" * 50
        for flags, case in ((0, ""), (re.IGNORECASE, " (?i)")):
            ratios.append(row(f"50 ranges of {high - low + 1:,} code points{case}", pattern, flags, args.rounds))
    print(f"steps per microsecond: least {min(ratios):.2f}, most {max(ratios):.2f} (the guard is {COMPILE_MARGIN}x the budget)")


if __name__ == "__main__":
    main()
