"""Cold `entrykit lint` of one corpus by two installs of entrykit, side by side in one run.

    python benchmarks/compare_builds.py /tmp/ddproj --before ../main/.venv/bin/python --rounds 3

Alternates the two interpreters (`--before`, and `--after`, this one by default) so
that both meet the same machine load, runs `-m entrykit lint --no-cache --format
json` in the project folder, and prints each run's wall and CPU time (the lint and
the processes it started and waited for: use `--jobs 1` for complete CPU figures,
as pool processes do not wait for their regex workers), the hash of its output, and
the medians' ratio after/before.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def lint_once(python: str, project: Path, jobs: int | None) -> tuple[float, float, str]:
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(
        [python, "-m", "entrykit", "lint", "--no-cache", "--format", "json", *(["--jobs", str(jobs)] if jobs else [])],
        cwd=project, capture_output=True, check=False,
    )
    wall = time.perf_counter() - start
    after = os.times()
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr.decode("utf-8", "replace"))
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, hashlib.sha256(done.stdout).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--before", required=True, help="python of the install to compare against")
    parser.add_argument("--after", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--jobs", type=int, help="passed to lint; with 1, every process lint starts is waited for, so CPU is complete"
    )
    args = parser.parse_args()
    times: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
    for number in range(1, args.rounds + 1):
        for name, python in (("before", args.before), ("after", args.after)):
            wall, cpu, digest = lint_once(python, args.project, args.jobs)
            times[name].append((wall, cpu))
            print(f"round {number} {name:6}  wall {wall:6.1f} s  cpu {cpu:6.1f} s  output sha256 {digest[:16]}")
    walls = {name: statistics.median(w for w, _ in runs) for name, runs in times.items()}
    cpus = {name: statistics.median(c for _, c in runs) for name, runs in times.items()}
    print(f"median wall: before {walls['before']:.1f} s, after {walls['after']:.1f} s, "
          f"after/before {walls['after'] / walls['before']:.2f}")
    print(f"median cpu:  before {cpus['before']:.1f} s, after {cpus['after']:.1f} s, "
          f"after/before {cpus['after'] / cpus['before']:.2f}")


if __name__ == "__main__":
    main()
