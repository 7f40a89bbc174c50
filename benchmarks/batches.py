"""Cold lints with the files checked one at a time and in batches, stage by stage, side by side in one run.

    python benchmarks/batches.py [--count 10000] [--shapes template,diverse] [--rounds 3] [--work DIR] [--jobs N]

For each shape, the generated corpus of `--count` entries (`targets.corpus`: seed 1,
YAML) is linted cold (`lint --no-cache --format json`) by this checkout twice per
round, in turn: as it is (`pipeline.BATCH_FILES` files per batch, each fact and then
each rule over all of a batch's files), and with every file checked alone, all its
steps before the next file's (`pipeline.BATCH_CHARACTERS` set to 0: no second file
fits in a batch). The pool and its chunks are the same in both. It prints each run's
wall and CPU seconds (the lint and the processes it waited for) and its output's
hash, then the medians' ratios, batched over alone.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scale  # noqa: E402
import targets  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
# The lint as the command runs it, its batch bound set first (argv: the bound, then lint's arguments).
_LINT = (
    "import sys\n"
    "from entrykit.lint import pipeline\n"
    "if sys.argv[1] != 'default':\n"
    "    pipeline.BATCH_CHARACTERS = int(sys.argv[1])\n"
    "from entrykit.cli import run\n"
    "sys.argv = ['entrykit', *sys.argv[2:]]\n"
    "run()\n"
)
MODES = {"alone": "0", "batched": "default"}


def lint_once(root: Path, mode: str, jobs: int | None, work: Path) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, output sha256) of one cold lint of `root` in `mode`."""
    env = scale.with_bytecode(dict(os.environ, PYTHONPATH=str(HERE / "tool")), work / "bytecode")
    command = [sys.executable, "-c", _LINT, MODES[mode], "lint", "--no-cache", "--format", "json", str(root)]
    if jobs:
        command += ["--jobs", str(jobs)]
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = os.times()
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr.decode("utf-8", "replace")[-3000:])
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, hashlib.sha256(done.stdout).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--shapes", default="template,diverse")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, help="passed to lint (default: all cores)")
    parser.add_argument("--work", type=Path, help="where the corpora are written (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="entrykit-batches-") as scratch:
        work = args.work or Path(scratch)
        for shape in args.shapes.split(","):
            root = targets.corpus(work, shape, args.count, "yaml")
            lint_once(root, "batched", args.jobs, work)  # (bytecode written before anything is timed)
            runs: dict[str, list[tuple[float, float]]] = {mode: [] for mode in MODES}
            digests: set[str] = set()
            for number in range(1, args.rounds + 1):
                for mode in MODES:
                    wall, cpu, digest = lint_once(root, mode, args.jobs, work)
                    runs[mode].append((wall, cpu))
                    digests.add(digest)
                    print(f"{shape} {args.count:,} round {number} {mode:8} wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
                          f"output sha256 {digest[:16]}", flush=True)
            walls = {mode: statistics.median(w for w, _ in found) for mode, found in runs.items()}
            cpus = {mode: statistics.median(c for _, c in found) for mode, found in runs.items()}
            print(f"{shape} {args.count:,}: median wall alone {walls['alone']:.2f} s, batched {walls['batched']:.2f} s "
                  f"({walls['batched'] / walls['alone']:.2f}); median cpu alone {cpus['alone']:.2f} s, batched "
                  f"{cpus['batched']:.2f} s ({cpus['batched'] / cpus['alone']:.2f}); "
                  f"{'the same output' if len(digests) == 1 else 'OUTPUTS DIFFER'}")


if __name__ == "__main__":
    main()
