"""Time ET209's prefiltered cross-matching against naive all-pairs, same corpus, one run.

    python benchmarks/regex_pairs.py [--sizes 2500 25000] [--sample 2500] [--seed 1]

For each size a deterministic corpus is generated (`generate.py --regex-style mixed`,
regexes compiled with IGNORECASE and run in `search` mode as lookups do). The
prefiltered side is `entrykit.regex.literal_index.cross_matches`: literal extraction, one
Aho-Corasick pass, the real regexes run on the candidates through the time-budgeted
worker. The naive side tries every regex on every other entry's signature in-process.
Where the corpus has more regexes than `--sample`, naive runs only a random sample of
them (all texts each) and its time is extrapolated linearly in the number of regexes;
the pairs of the sampled regexes are compared with the prefiltered ones.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import make_entries  # noqa: E402

from entrykit.regex.literal_index import Text, cross_matches, naive_cross_matches  # noqa: E402
from entrykit.regex.runner import RegexRunner  # noqa: E402

FLAGS = re.IGNORECASE
MODE = "search"


def pair_set(pairs: Mapping[int, Sequence[Text]], only: set[int] | None = None) -> set[tuple[int, int]]:
    return {(a, t.owner) for a, texts in pairs.items() if only is None or a in only for t in texts}


def run(size: int, sample: int, seed: int) -> None:
    entries = make_entries(size, seed=seed, regex_style="mixed")
    patterns: list[str | None] = [e["regex"] for e in entries]
    texts = [Text(i, "/signature", e["signature"]) for i, e in enumerate(entries)]

    with RegexRunner(100) as runner:
        start = time.perf_counter()
        result = cross_matches(patterns, texts, FLAGS, MODE, runner)
        prefiltered = time.perf_counter() - start
    found = pair_set(result.pairs)

    chosen = list(range(size))
    if size > sample:
        chosen = sorted(random.Random(seed).sample(range(size), sample))
    subset: list[str | None] = [p if i in set(chosen) else None for i, p in enumerate(patterns)]
    start = time.perf_counter()
    naive_pairs = naive_cross_matches(subset, texts, FLAGS, MODE)
    naive_sampled = time.perf_counter() - start
    naive = naive_sampled * size / len(chosen)
    same = pair_set(naive_pairs) == pair_set(result.pairs, set(chosen))
    how = "all regexes" if len(chosen) == size else f"{len(chosen)} sampled regexes, x{size / len(chosen):.0f}"
    print(
        f"{size:>6} entries: prefiltered {prefiltered:7.2f} s ({result.tried:,} regex runs, "
        f"{result.fallback} full-scan regexes, {len(found):,} pairs); naive {naive:8.1f} s "
        f"({how}); ratio {naive / prefiltered:6.1f}x; same pairs: {same}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2500, 25000])
    parser.add_argument("--sample", type=int, default=2500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, flags IGNORECASE, mode {MODE}")
    for size in args.sizes:
        run(size, args.sample, args.seed)


if __name__ == "__main__":
    main()
