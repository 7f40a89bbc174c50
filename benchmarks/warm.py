"""A warm lint (every file from the cache) against the json.load floor, side by side in one run.

    python benchmarks/warm.py [--sizes 10000] [--shapes diverse,template] [--rounds 5]
        [--before DIR] [--work /tmp/entrykit-targets]

The corpora are `targets.py`'s (generated once by `generate.py`, seed 1: `template` the
one-template corpus, `diverse` the mixed one; linted as YAML, the floor read from their
JSON twin). For each shape and size, and each entrykit measured (this checkout's, and with
`--before DIR` the source in `DIR/tool` of another version; `--after DIR` measures another
checkout instead of this one), one cold `entrykit lint
--format json --cache-dir D` fills a cache folder of its own; then `--rounds` rounds, each
of them: the floor (`json.load` of every file of the twin, in this process, best of 3) and
one warm lint of each version, every version in the same round so that all meet the same
load. Each lint is its own process (`targets.timed`: wall and CPU seconds, peak memory),
running from compiled bytecode as an installed program would.

Printed: each round, then the medians and the ratio of the median warm lint to the median
floor (the target: a warm 10k lint within 3x the floor). The script checks, and stops if
not, that every warm run printed the bytes its cold run printed, and that the versions
printed the same bytes. `DIR` needs `tool/entrykit` and `schema/` (the schema is placed
inside a scratch copy of the package when the checkout keeps it beside).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import scale  # noqa: E402
import targets  # noqa: E402


def source(checkout: Path, work: Path) -> Path:
    """A folder with `tool/entrykit` of `checkout` that imports as an installed package does:
    with its schema inside (`entrykit.schemas`)."""
    if (checkout / "tool" / "entrykit" / "schemas").is_dir():
        return checkout
    copy = work / f"source-{hashlib.blake2b(str(checkout).encode(), digest_size=6).hexdigest()}"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(checkout / "tool", copy / "tool", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(checkout / "schema", copy / "tool" / "entrykit" / "schemas")
    return copy


def lint(root: Path, version: Path | None, cache: Path) -> tuple[targets.Run, str]:
    """One `entrykit lint --format json` of `root` by `version` (None: this checkout) with the
    cache in `cache`: its Run and a digest of what it printed."""
    command = [
        sys.executable, "-m", "entrykit", "lint", "--root", str(root), "--today", targets.TODAY,
        "--format", "json", "--exit-zero", "--cache-dir", str(cache),
    ]
    run, out = targets.timed(command, root.parent, targets._env(version))
    return run, hashlib.blake2b(out.encode(), digest_size=16).hexdigest()


def measure(work: Path, shape: str, count: int, versions: dict[str, Path | None], rounds: int) -> None:
    twin = targets.corpus(work, shape, count, "json")
    root = targets.corpus(work, shape, count, "yaml")
    print(f"{shape} {count:,}:", flush=True)
    floors: list[float] = []
    warm: dict[str, list[targets.Run]] = {name: [] for name in versions}
    with tempfile.TemporaryDirectory(prefix="entrykit-warm-") as scratch:
        caches = {name: Path(scratch) / name for name in versions}
        printed: dict[str, str] = {}
        for name, version in versions.items():
            cold, printed[name] = lint(root, version, caches[name])
            print(f"  cold ({name}) {cold.wall:8.2f} s wall {cold.cpu:8.2f} s CPU (fills the cache)", flush=True)
        if len(set(printed.values())) != 1:
            raise SystemExit(f"the versions printed different reports: {printed}")
        for number in range(1, rounds + 1):
            floors.append(scale.floor(twin))
            line = f"  round {number}: floor {floors[-1]:.2f} s"
            for name, version in versions.items():
                run, digest = lint(root, version, caches[name])
                if digest != printed[name]:
                    raise SystemExit(f"a warm run ({name}) printed other bytes than its cold run")
                warm[name].append(run)
                line += f"; warm ({name}) {run.wall:.2f} s wall {run.cpu:.2f} s CPU {run.rss} MB"
            print(line, flush=True)
    floor = statistics.median(floors)
    for name, runs in warm.items():
        wall = statistics.median(r.wall for r in runs)
        cpu = statistics.median(r.cpu for r in runs)
        print(
            f"  {shape} {count:,} warm ({name}): median {wall:.2f} s wall ({cpu:.2f} s CPU), floor {floor:.2f} s:"
            f" {wall / floor:.1f}x the floor (target <= 3); peak {max(r.rss for r in runs)} MB",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000")
    parser.add_argument("--shapes", default="diverse,template")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path, help="a checkout of the entrykit to compare with")
    parser.add_argument("--after", type=Path, help="a checkout to measure instead of this one")
    parser.add_argument("--work", type=Path, default=Path("/tmp/entrykit-targets"))
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    targets.BYTECODE = args.work / "bytecode"
    versions: dict[str, Path | None] = {"after": source(args.after.resolve(), args.work) if args.after else None}
    if args.before is not None:
        versions["before"] = source(args.before.resolve(), args.work)
    print(f"{len(os.sched_getaffinity(0))} cores; load {os.getloadavg()[0]:.1f}", flush=True)
    for shape in [s for s in args.shapes.split(",") if s]:
        for count in [int(s) for s in args.sizes.split(",") if s]:
            measure(args.work, shape, count, versions, args.rounds)


if __name__ == "__main__":
    main()
