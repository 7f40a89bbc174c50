"""What the ET3xx translation rules add to a lint run, side by side in one process.

    python benchmarks/translation_rules_cost.py [--count 1000] [--repeat 5]

A generated corpus (benchmarks/generate.py: entries with zh translations) is
linted alternately with every rule and with ET3 ignored; the medians and their
ratio are reported, and the cost per entry of the translation rules.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import write_corpus  # noqa: E402

from entrykit.config import from_table  # noqa: E402
from entrykit.lint.engine import lint  # noqa: E402
from entrykit.translation import preserved_tokens as tokens  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "entries"
        write_corpus(root, args.count, "yaml")
        config = from_table({"root": "entries"}, Path(tmp))
        without = config.with_selection(None, ["ET3"])
        runs: dict[str, list[float]] = {"all rules": [], "without ET3": []}
        for _ in range(args.repeat):
            for name, chosen in (("all rules", config), ("without ET3", without)):
                tokens._extract.cache_clear()  # no help from the previous run
                start = time.perf_counter()
                lint(None, chosen, date(2026, 11, 30), cwd=Path(tmp))
                runs[name].append(time.perf_counter() - start)
    full, base = statistics.median(runs["all rules"]), statistics.median(runs["without ET3"])
    print(f"{args.count} entries, median of {args.repeat}: all rules {full:.2f} s, without ET3 {base:.2f} s")
    print(f"ratio {full / base:.2f}; the translation rules cost {(full - base) / args.count * 1e3:.2f} ms per entry")


if __name__ == "__main__":
    main()
