"""Cold lints of one corpus give the same bytes, on an idle machine and under CPU load.

    python benchmarks/determinism.py /tmp/ddproj --runs 5
    python benchmarks/determinism.py /tmp/near --write-near-budget --runs 5

Runs `entrykit lint --no-cache --format json` in the corpus's project folder `--runs`
times as it is, then `--runs` times while `yes > /dev/null` keeps a core busy
(pinned to CPU 0 with `taskset` when there is one), and prints the SHA-256 of each
output and how many ET206 findings it holds. Every hash must be the same: no finding
may depend on how fast the machine happens to be (ET205 is decided by analysis,
ET206 by counted steps).

`--write-near-budget` first writes a corpus made to sit on a clock's edge: regexes
whose texts each take CPython's `re` close to 100 ms (`(a|a)+$` on 19 a's and a bang,
then 14 to 18 more a's and a bang, about 75 to 110 ms here), which a time budget of
100 ms would report on some runs and not on others.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import time
from pathlib import Path


def write_near_budget(project: Path) -> None:
    """Entries whose texts take a backtracking matcher about as long as a 100 ms budget."""
    entries = project / "entries" / "near"
    entries.mkdir(parents=True, exist_ok=True)
    (project / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    for number, extra in enumerate(range(14, 19)):
        text = "a" * 19 + "!" + "a" * extra + "!"
        (entries / f"edge-{number}.yaml").write_text(
            f'id: near/edge-{number}\nsignature: "near budget {number}"\nregex: \'(a|a)+$|near budget {number}\'\n'
            f'examples: ["{text}"]\n',
            encoding="utf-8",
        )


def lint_once(project: Path) -> tuple[str, float, int, int]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "entrykit", "lint", "--no-cache", "--format", "json"],
        cwd=project, capture_output=True, check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr.decode("utf-8", "replace"))
    slow = done.stdout.count(b'"ET206"')
    return hashlib.sha256(done.stdout).hexdigest(), time.perf_counter() - start, len(done.stdout), slow


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path, help="a folder whose `entrykit lint` lints the corpus")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--write-near-budget", action="store_true", help="write the near-budget corpus first")
    args = parser.parse_args()
    if args.write_near_budget:
        write_near_budget(args.project)
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
                digest, seconds, size, slow = lint_once(args.project)
                hashes.add(digest)
                label = "under load" if loaded else "as is"
                print(f"run {number} {label:10}  sha256 {digest}  {size:,} bytes  ET206 {slow}  {seconds:5.1f} s")
        finally:
            if hog is not None:
                hog.kill()
                hog.wait()
    print("identical" if len(hashes) == 1 else f"DIFFERENT: {len(hashes)} distinct outputs")
    if len(hashes) != 1:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
