"""Instructions a cold one-core lint executes, counted by valgrind's callgrind, beside another checkout's.

    python benchmarks/instructions.py --before DIR [--count 600] [--shapes template,diverse] [--work DIR] [--cache]
        [--jobs N]

A shared machine's speed drifts by a third within minutes, and its CPU seconds with it:
a change of a few percent does not show in timings (`benchmarks/targets.py`). The number
of instructions a run executes does not drift. For each shape, the generated corpus of
`--count` entries (`targets.corpus`, seed 1; the default is above the near-duplicate
search's exact limit, so band keys are made) is linted cold (`lint --no-cache --jobs 1
--format json`) under `valgrind --tool=callgrind`, by this checkout and by `--before`
(another checkout's `tool/` first on PYTHONPATH) in turn. It prints each count, the
ratio, and whether the two outputs are the same bytes. The count covers the lint process,
start-up included, not its regex worker. With `--jobs N` above 1 the lint runs with that
many processes (its pool's workers, its corpus lanes), every process it starts is
counted too (`--trace-children=yes`), and the count is their sum: what the work costs
whichever core it ran on. With `--cache` each lint is given an empty
`--cache-dir` instead of `--no-cache` and the corpus as its `--root`, as `benchmarks/targets.py`'s
cold lint is: the count then holds writing the cache too. Valgrind runs a program some 50 times slower:
600 entries take a few minutes per run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scale  # noqa: E402
import targets  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
_COLLECTED = re.compile(r"Collected : (\d+)")


def count_instructions(tool: Path, corpus: Path, work: Path, cache: bool = False, jobs: int = 1) -> tuple[int, bytes]:
    """(instructions executed, the JSON output) of a cold lint of `corpus` by the entrykit
    source in `tool`, on one core or, with `jobs` above 1, in that many processes (all of
    them counted); with `cache`, into an empty cache folder rather than none."""
    env = scale.with_bytecode(dict(os.environ, PYTHONPATH=str(tool)), work / "bytecode")
    folder = work / "cache"
    # (with a cache, the corpus is linted as its root, as targets.py does: files named outside
    # a corpus root are not cached)
    caching = ["--cache-dir", str(folder), "--root", str(corpus)] if cache else ["--no-cache", str(corpus)]
    command = [sys.executable, "-m", "entrykit", "lint", *caching, "--jobs", str(jobs), "--format", "json"]
    subprocess.run(command, env=env, capture_output=True, check=False)  # bytecode written before counting
    shutil.rmtree(folder, ignore_errors=True)  # (the run above filled it: the counted run starts cold)
    outs = work / "callgrind-out"
    shutil.rmtree(outs, ignore_errors=True)
    outs.mkdir()
    children = ["--trace-children=yes"] if jobs > 1 else []
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={outs}/callgrind.out.%p", *children, *command],
        env=env,
        capture_output=True,
        check=False,
    )
    shutil.rmtree(outs, ignore_errors=True)
    found = _COLLECTED.findall(done.stderr.decode("utf-8", "replace"))  # (one line per process counted)
    if not found:
        raise SystemExit(f"callgrind reported no count:\n{done.stderr.decode('utf-8', 'replace')[-2000:]}")
    return sum(map(int, found)), done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="another entrykit checkout")
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--shapes", default="template,diverse")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "entrykit-instructions")
    parser.add_argument("--cache", action="store_true", help="lint into an empty cache folder, not --no-cache")
    parser.add_argument("--jobs", type=int, default=1, help="processes the lint runs in (above 1: all of them counted)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    args.work.mkdir(parents=True, exist_ok=True)
    for shape in args.shapes.split(","):
        corpus = targets.corpus(args.work, shape, args.count, "yaml")
        after, after_out = count_instructions(HERE / "tool", corpus, args.work, args.cache, args.jobs)
        before, before_out = count_instructions(args.before.resolve() / "tool", corpus, args.work, args.cache, args.jobs)
        same = "the same output" if after_out == before_out else "OUTPUTS DIFFER"
        print(
            f"{shape} {args.count:,}: before {before:,} instructions, after {after:,} "
            f"({after / before:.3f}x, {100 * (after - before) / before:+.1f}%); {same}",
            flush=True,
        )


if __name__ == "__main__":
    main()
