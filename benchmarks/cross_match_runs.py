"""Regex runs of a corpus's cross-matching (ET206, ET209, ET502) as the corpus grows.

    python benchmarks/cross_match_runs.py [--sizes 2500,10000,25000,100000]
        [--shapes diverse,template] [--work /tmp/entrykit-targets]

Corpora come from `targets.corpus` (the same generated JSON corpora as
benchmarks/targets.py, written once into WORK). For each shape and size the script
loads every entry, makes its regex fact, and runs `corpus_cross_matches` as a lint does
(each regex against every other entry's signature and examples, through the literal
index), then prints the entries, the regexes without a cover, how many of those were
left unchecked (past `UNCOVERED_LIMIT`), the regex runs made, and the runs per entry;
and, counted without running anything, the runs the cross-matching would make
without the limit. Runs are counts, not times: the same on any machine. Runs per entry
that stay flat as the corpus grows are linear; without the limit, a corpus where one
regex in a hundred needs no literal text makes runs per entry that grow with the corpus.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import targets  # noqa: E402

from entrykit.loader import LoadFailure, load  # noqa: E402
from entrykit.regex import literal_index  # noqa: E402
from entrykit.regex.runner import RegexRunner  # noqa: E402


def entries_of(root: Path) -> list[Any]:
    """The corpus's entries, loaded as a lint loads them, in path order."""
    out = []
    for path in sorted(root.rglob("*.json")):
        entry = load(path, str(path.relative_to(root)))
        if not isinstance(entry, LoadFailure):
            out.append(entry)
    return out


def unlimited_runs(entries: list[Any], runner: RegexRunner) -> int:
    """The runs cross-matching would make with no limit on regexes without a cover (counted, not run)."""
    counted = {"runs": 0}
    real_run_groups, real_limit = literal_index._run_groups, literal_index.UNCOVERED_LIMIT

    def count_only(groups: Any, *args: Any, **kwargs: Any) -> Any:
        counted["runs"] = sum(len(texts) for _, texts in groups)
        return {}, {}, {}, counted["runs"]

    literal_index._run_groups, literal_index.UNCOVERED_LIMIT = count_only, 1 << 62
    try:
        literal_index.corpus_cross_matches(entries, 0, "search", runner)
    finally:
        literal_index._run_groups, literal_index.UNCOVERED_LIMIT = real_run_groups, real_limit
    return counted["runs"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2500,10000,25000,100000")
    parser.add_argument("--shapes", default="diverse,template")
    parser.add_argument("--work", type=Path, default=Path("/tmp/entrykit-targets"))
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    print(f"UNCOVERED_LIMIT = {literal_index.UNCOVERED_LIMIT}")
    print(f"{'shape':9} {'entries':>8} {'uncovered':>9} {'unchecked':>9} {'runs':>10} {'per entry':>9} "
          f"{'unlimited':>11} {'per entry':>9} {'seconds':>7}")
    for shape in args.shapes.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            entries = entries_of(targets.corpus(args.work, shape, size, "json"))
            with RegexRunner() as runner:
                started = time.perf_counter()
                cross, _ = literal_index.corpus_cross_matches(entries, 0, "search", runner)
                seconds = time.perf_counter() - started
                unlimited = unlimited_runs(entries, runner)
            uncovered = sum(
                1 for e in entries if (fact := literal_index.regex_fact(e, 0, runner))[0] and fact[2] is None
            )
            count = len(entries)
            print(
                f"{shape:9} {count:>8,} {uncovered:>9,} {len(cross.unchecked):>9,} {cross.tried:>10,} "
                f"{cross.tried / count:>9.1f} {unlimited:>11,} {unlimited / count:>9.1f} {seconds:>7.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
