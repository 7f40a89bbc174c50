"""Lint at corpus scale, in one run on the same files: cold, warm, --jobs, pre-commit, memory, floor.

    python benchmarks/scale.py [--count 10000] [--memory-count 100000]
        [--regex-style mixed] [--duplicates 0.02] [--defects 0.01] [--work DIR]

Generates (once, deterministically, with benchmarks/generate.py) a YAML corpus of
`--count` entries, the same entries as JSON, a 10-entry YAML corpus, and a YAML
corpus of `--memory-count` entries; then times, each as its own `entrykit lint`
process under `/usr/bin/time -v` (wall time from Python's clock, peak memory
from time's "Maximum resident set size"):

- the floor: `json.load` of every file of the JSON twin (in this process, best of 3);
- cold lint (empty cache) with `--jobs 1` and with all cores;
- warm lint (nothing changed since the previous run);
- one-file pre-commit lint (`entrykit lint FILE`, the file edited just before) in
  the large corpus and in the 10-entry one, the two in turn in each of 5 rounds (the
  ratio is the median of the rounds'), once for an edit corpus rules do not see (a
  comment) and once for one they do (the signature);
- cold lint of the memory corpus with all cores, for its peak memory (the largest
  process; the pool's workers are each smaller than the main process).

Figures are printed as ratios, since absolute times on shared machines drift.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

TODAY = "2026-11-30"


def _corpus(work: Path, name: str, count: int, fmt: str, args: argparse.Namespace) -> Path:
    root = work / name
    stamp = work / f"{name}.params.json"
    params = {"count": count, "fmt": fmt, "style": args.regex_style, "dup": args.duplicates,
              "defects": args.defects, "seed": args.seed}
    if root.is_dir() and stamp.is_file() and json.loads(stamp.read_text()) == params:
        return root
    shutil.rmtree(root, ignore_errors=True)
    started = time.perf_counter()
    generate.write_corpus(root, count, fmt, args.seed, args.duplicates, args.regex_style, args.defects)
    stamp.write_text(json.dumps(params))
    print(f"  generated {count:,} {fmt} entries in {time.perf_counter() - started:.0f} s", flush=True)
    return root


def floor(root: Path) -> float:
    """Seconds to json.load every file below `root` (best of 3)."""
    files = sorted(root.rglob("*.json"))
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for path in files:
            with open(path, encoding="utf-8") as stream:
                json.load(stream)
        best = min(best, time.perf_counter() - started)
    return best


def libyaml(root: Path) -> float:
    import yaml

    files = sorted(root.rglob("*.yaml"))
    started = time.perf_counter()
    for path in files:
        yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return time.perf_counter() - started


def lint(root: Path, *extra: str) -> tuple[float, int, int]:
    """(wall seconds, peak RSS in MB, diagnostics) of one `entrykit lint` process."""
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "entrykit", "lint", "--root", str(root),
               "--today", TODAY, "--format", "json", "--exit-zero", "--cache-dir", str(_cache_dir(root)), *extra]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=root.parent, env=_child_env(root))
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"entrykit lint failed ({done.returncode}):\n{done.stderr[-3000:]}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    return wall, int(rss.group(1)) // 1024 if rss else -1, len(json.loads(done.stdout))


def with_bytecode(env: dict[str, str], folder: Path) -> dict[str, str]:
    """`env` for a measured run that keeps its compiled modules in `folder`, as an installed
    program has them, even where PYTHONDONTWRITEBYTECODE is set: compiling every module
    again in each run is a fixed cost that would hide what a corpus's size costs."""
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder)
    return env


def _child_env(root: Path) -> dict[str, str]:
    """The environment of a measured run: bytecode kept beside the corpus (`with_bytecode`)."""
    return with_bytecode(dict(os.environ), root.parent / "pycache")


def _cache_dir(root: Path) -> Path:
    """The cache folder of the benchmark's runs on `root`: beside the corpus, outside it."""
    return root.parent / f"{root.name}-cache"


def _clear(root: Path) -> None:
    shutil.rmtree(_cache_dir(root), ignore_errors=True)


def precommit(roots: Sequence[Path], rounds: int = 5, what: str = "comment") -> list[list[float]]:
    """Wall times of `entrykit lint FILE` right after FILE was edited (cache warm), per root,
    one per round: each round edits and lints one file of every root in turn, so that the
    corpora compared meet the same load (one after the other, a drift of the machine's
    speed between them would show as a difference between the corpora).

    `what` the edit touches: a comment (corpus rules see nothing new: their findings
    come from the last full run) or the signature (corpus rules run, focused on FILE)."""
    targets = [sorted(root.rglob("*.yaml"))[len(list(root.glob("*"))) // 2] for root in roots]
    originals = [target.read_text(encoding="utf-8") for target in targets]
    times: list[list[float]] = [[] for _ in roots]
    try:
        for n in range(rounds):
            for root, target, original, took in zip(roots, targets, originals, times, strict=True):
                if what == "comment":
                    edited = original + f"# edited {n}\n"
                else:
                    edited = re.sub(r"^signature: (.*)$", rf"signature: \1 (edit {n})", original, count=1, flags=re.M)
                    assert edited != original
                target.write_text(edited, encoding="utf-8")
                took.append(lint(root, str(target))[0])
    finally:
        for target, original in zip(targets, originals, strict=True):
            target.write_text(original, encoding="utf-8")
    return times


def round_ratios(times: Sequence[Sequence[float]]) -> list[float]:
    """Each round's time in the first root over its time in the second (`precommit`'s rounds)."""
    first, second = times
    return [a / b for a, b in zip(first, second, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--memory-count", type=int, default=100_000, help="0 skips the memory run")
    parser.add_argument("--regex-style", choices=generate.REGEX_STYLES, default="mixed")
    parser.add_argument("--duplicates", type=float, default=0.02)
    parser.add_argument("--defects", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path("/tmp/entrykit-scale"))
    parser.add_argument("--skip-jobs-1", action="store_true", help="skip the cold --jobs 1 run (slow)")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    cores = len(os.sched_getaffinity(0))
    print(f"corpora: --regex-style {args.regex_style} --duplicates {args.duplicates} "
          f"--defects {args.defects} --seed {args.seed}; {cores} cores", flush=True)
    big = _corpus(args.work, f"yaml{args.count}", args.count, "yaml", args)
    twin = _corpus(args.work, f"json{args.count}", args.count, "json", args)
    small = _corpus(args.work, "yaml10", 10, "yaml", args)

    base = floor(twin)
    parse = libyaml(big)
    rows: list[tuple[str, float, int, int]] = []

    def show(label: str, wall: float, rss: int = -1, found: int = -1) -> None:
        rows.append((label, wall, rss, found))
        extra = f"  peak {rss:,} MB" if rss >= 0 else ""
        extra += f"  {found:,} diagnostics" if found >= 0 else ""
        print(f"{label:<44} {wall:9.2f} s  {wall / base:8.1f}x floor{extra}", flush=True)

    print(f"{'json.load floor (' + format(args.count, ',') + ' JSON twins)':<44} {base:9.2f} s", flush=True)
    show("libyaml parse of the YAML files (reference)", parse)
    jobs1 = None
    if not args.skip_jobs_1:
        _clear(big)
        jobs1 = lint(big, "--jobs", "1")
        show("cold lint, --jobs 1", *jobs1)
    _clear(big)
    cold = lint(big)
    show(f"cold lint, all cores (--jobs {cores})", *cold)
    warm = lint(big)
    show("warm lint (nothing changed)", *warm)
    lint(small)  # fill the small corpus's cache
    one = precommit([big, small])
    sig = precommit([big, small], what="signature")
    one_big, one_small = map(statistics.median, one)
    sig_big, sig_small = map(statistics.median, sig)
    show(f"pre-commit, 1 edited file in {args.count:,}", one_big)
    show("pre-commit, 1 edited file in 10", one_small)
    show(f"pre-commit, 1 signature edited in {args.count:,}", sig_big)
    show("pre-commit, 1 signature edited in 10", sig_small)
    print()
    if jobs1 is not None:
        print(f"--jobs 1 / all cores:               {jobs1[0] / cold[0]:.2f}")
    print(f"cold (all cores) / floor:           {cold[0] / base:.1f}  (target <= 25)")
    print(f"warm / floor:                       {warm[0] / base:.1f}  (target <= 3)")
    print(f"pre-commit {args.count:,} / pre-commit 10:   {statistics.median(round_ratios(one)):.2f}  (target <= 1.5; median of rounds)")
    print(f"  the same, signature edited:      {statistics.median(round_ratios(sig)):.2f}")
    if args.memory_count:
        huge = _corpus(args.work, f"yaml{args.memory_count}", args.memory_count, "yaml", args)
        _clear(huge)
        wall, rss, found = lint(huge)
        print(f"cold lint of {args.memory_count:,}: {wall:.0f} s, peak {rss:,} MB (target < 2,048), "
              f"{found:,} diagnostics", flush=True)


if __name__ == "__main__":
    main()
