"""Cold lints of one corpus give the same bytes, on an idle machine and under CPU load.

    python benchmarks/determinism.py /tmp/ddproj --runs 5

Runs `entrykit lint --no-cache --format json` in the corpus's project folder `--runs`
times as it is, then `--runs` times while `yes > /dev/null` keeps a core busy
(pinned to CPU 0 with `taskset` when there is one), and prints the SHA-256 of each
output. Every hash must be the same: no finding may depend on how fast the machine
happens to be (ET205 is decided by analysis; ET206's budget is CPU time).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import time
from pathlib import Path


def lint_once(project: Path) -> tuple[str, float, int]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "entrykit", "lint", "--no-cache", "--format", "json"],
        cwd=project, capture_output=True, check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr.decode("utf-8", "replace"))
    return hashlib.sha256(done.stdout).hexdigest(), time.perf_counter() - start, len(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path, help="a folder whose `entrykit lint` lints the corpus")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    hashes = set()
    for loaded in (False, True):
        hog = None
        if loaded:
            command = ["yes"]
            if shutil.which("taskset"):
                command = ["taskset", "-c", "0", *command]
            hog = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            for number in range(1, args.runs + 1):
                digest, seconds, size = lint_once(args.project)
                hashes.add(digest)
                label = "under load" if loaded else "as is"
                print(f"run {number} {label:10}  sha256 {digest}  {size:,} bytes  {seconds:5.1f} s")
        finally:
            if hog is not None:
                hog.kill()
                hog.wait()
    print("identical" if len(hashes) == 1 else f"DIFFERENT: {len(hashes)} distinct outputs")
    if len(hashes) != 1:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
