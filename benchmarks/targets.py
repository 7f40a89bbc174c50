"""Every speed and memory target of `entrykit lint`, as ratios measured side by side in one run.

    python benchmarks/targets.py [--sizes 2500,10000,25000,100000] [--shapes template,diverse]
        [--canons ../shared/corpus/deadends-dev/canons] [--peer ../shared/peer/deadends-dev]
        [--before ../main] [--rounds 2] [--work /tmp/entrykit-targets]

Corpora come from `generate.py` (seed 1), each written once as YAML and as its JSON
twin: `template` is the one-template corpus (`--one-template`: every entry one message
template, every regex matching every signature, ids shared: where pairwise corpus rules
would grow with the square), `diverse` the mixed corpus (distinct errors, regexes of
every style, 2% planted near-duplicates, 1% planted defects). For each shape and size
the script measures, each `entrykit lint` as its own process under `/usr/bin/time -v`:

- the floor: `json.load` of every file of the JSON twin (in this process, best of 3);
- cold lint: an empty cache folder (`--cache-dir`), all cores. At sizes up to 10,000
  (the cold target's) the floor and the cold lint are measured `--rounds` times, one
  after the other: a shared machine's speed drifts by a third within minutes, so each
  round's ratio is printed and the table takes the round with the median ratio (of an
  even number of rounds, the higher of the middle two);
- warm lint: the same folder again, nothing changed (there, `--rounds` times after the
  last cold lint, each beside a floor of its own, and the median round);
- wall time, CPU time (the lint and the processes it waited for), peak memory (the
  largest process), and the number of diagnostics;

then, at the 10k size (or the largest below it), one-file pre-commit lint in that corpus
against the same in a 10-entry corpus, the two in turn in each of 5 rounds
(`scale.precommit`), and the median round by its ratio; and, with
`--canons` and `--peer`, the peer's own validator (`python -m generator.validate
--data-only`, its README's way) against cold `entrykit lint --no-cache` over the same
canons imported with `entrykit import --from deadends`, alternating, `--rounds` each:
each round's ratio (its two runs met the same load), their median (as above: of an
even number, the higher of the middle two) and the lowest, and the median round's two
runs (wall, CPU, diagnostics).

With `--before DIR` (a checkout of another entrykit version), each cold and warm lint
and the peer comparison also run that version's source (`DIR/tool` first on
PYTHONPATH) right after this one, so both meet the same load: a before -> after table.
Absolute times on a shared machine drift; the ratios are what the targets are about.
Every process measured runs as an installed program would, from compiled bytecode: it
is kept in `WORK/bytecode` (`PYTHONPYCACHEPREFIX`), written by one warm-up run of each.

Targets: cold deadends >= 10x faster than the peer; cold 10k <= 25x the floor; warm 10k
<= 3x; pre-commit 10k / 10 <= 1.5; peak memory of a cold 100k lint < 1 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
import scale  # noqa: E402

TODAY = "2026-11-30"
COLD_TARGET_SIZE = 10_000  # the size of the cold target: its lints are measured `--rounds` times
AFTER: Path | None = None  # the entrykit measured: this checkout's, or --after's
LINT_FORMAT = "yaml"  # the files linted (the floor always reads the JSON twin)
BYTECODE: Path | None = None  # where every measured process keeps its compiled modules
T = TypeVar("T")


@dataclass(frozen=True)
class Run:
    """One process: wall and CPU seconds, peak resident MB, diagnostics printed."""

    wall: float
    cpu: float
    rss: int
    found: int


def corpus(work: Path, shape: str, count: int, fmt: str) -> Path:
    """The generated corpus of `shape` and `count` entries in `fmt`, written once."""
    root = work / f"{shape}-{count}-{fmt}"
    stamp = work / f"{root.name}.done"
    if root.is_dir() and stamp.is_file():
        return root
    shutil.rmtree(root, ignore_errors=True)
    started = time.perf_counter()
    if shape == "template":
        generate.write_corpus(root, count, fmt, 1, one_template=True)
    else:
        generate.write_corpus(root, count, fmt, 1, 0.02, "mixed", 0.01)
    stamp.write_text("1")
    print(
        f"  generated {count:,} {shape} {fmt} entries in {time.perf_counter() - started:.0f} s",
        flush=True,
    )
    return root


def _env(source: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if BYTECODE is not None:
        env = scale.with_bytecode(env, BYTECODE)
    if source is not None:
        env["PYTHONPATH"] = (
            str(source / "tool") + os.pathsep + env.get("PYTHONPATH", "")
        )
    return env


def timed(
    command: list[str], cwd: Path, env: dict[str, str], ok: tuple[int, ...] = (0,)
) -> tuple[Run, str]:
    """Run `command` under /usr/bin/time -v; its Run and its standard output."""
    started = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-v", *command],
        check=False,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
    )
    wall = time.perf_counter() - started
    if done.returncode not in ok:
        raise SystemExit(
            f"{' '.join(command[:4])} ... failed ({done.returncode}):\n{done.stderr[-3000:]}"
        )

    def field(name: str) -> float:
        found = re.search(rf"{re.escape(name)}: ([0-9.]+)", done.stderr)
        return float(found.group(1)) if found else -1.0

    cpu = field("User time (seconds)") + field("System time (seconds)")
    rss = int(field("Maximum resident set size (kbytes)")) // 1024
    return Run(wall, cpu, rss, -1), done.stdout


def lint(root: Path, source: Path | None, *extra: str) -> Run:
    command = [
        sys.executable,
        "-m",
        "entrykit",
        "lint",
        "--root",
        str(root),
        "--today",
        TODAY,
        "--format",
        "json",
        "--exit-zero",
        *extra,
    ]
    run, out = timed(command, root.parent, _env(source))
    return Run(run.wall, run.cpu, run.rss, len(json.loads(out)))


def _show(label: str, run: Run, floor: float | None = None) -> None:
    ratio = f"{run.wall / floor:8.1f}x floor" if floor else " " * 14
    print(
        f"  {label:<34} {run.wall:8.2f} s wall {run.cpu:8.2f} s CPU {ratio}  peak {run.rss:,} MB  "
        f"{run.found:,} diagnostics",
        flush=True,
    )


def size_row(
    work: Path, shape: str, count: int, before: Path | None, rounds: int = 1
) -> dict[str, Run | float]:
    """Floor, cold and warm lint of one corpus (and the same by `before`).

    With `rounds` above 1, the floor and each version's cold lint are measured again in
    each round, one after the other, so that each round's ratio meets one machine speed;
    after the last round's cold lint, each version's warm lint is measured `rounds` times
    the same way, each beside a floor of its own. The row keeps, for cold and for warm,
    the round whose ratio is the median: its run ("cold <version>", "warm <version>")
    and its floor ("floor <version>", "floor warm <version>")."""
    twin = corpus(work, shape, count, "json")
    big = corpus(work, shape, count, LINT_FORMAT)
    versions = [("after", AFTER), *([("before", before)] if before else [])]
    measured: dict[str, list[tuple[float, Run]]] = {}  # "cold after" -> each round's (floor, run)
    for number in range(rounds):
        base = scale.floor(twin)
        label = f" (round {number + 1} of {rounds})" if rounds > 1 else ""
        print(f"{shape} {count:,}{label}: json.load floor {base:.2f} s", flush=True)
        for name, source in versions:
            with tempfile.TemporaryDirectory(prefix="entrykit-targets-") as cache:
                # Each version its own empty cache folder: a version's default folder (in the
                # project, or the user's cache directory) may hold what an earlier run left.
                extra = ("--cache-dir", cache)
                shutil.rmtree(big / ".entrykit_cache", ignore_errors=True)  # where older versions kept it
                measured.setdefault(f"cold {name}", []).append(_measured(f"cold lint ({name})", base, big, source, extra))
                if number == rounds - 1:  # warm lints need the cache the cold lint filled
                    measured[f"warm {name}"] = [
                        _measured(f"warm lint ({name})", base if again == 0 else scale.floor(twin), big, source, extra)
                        for again in range(rounds)
                    ]
                shutil.rmtree(big / ".entrykit_cache", ignore_errors=True)
    row: dict[str, Run | float] = {}
    for key, runs in measured.items():
        floor, run = median_round(runs, _ratio)
        kind, name = key.split()
        row[key], row[f"floor {name}" if kind == "cold" else f"floor warm {name}"] = run, floor
        if rounds > 1:
            each = ", ".join(f"{_ratio(measure):.1f}x" for measure in runs)
            print(f"  {kind} lint ({name}) per round: {each}; median {_ratio((floor, run)):.1f}x", flush=True)
    return row


def _measured(label: str, floor: float, root: Path, source: Path | None, extra: tuple[str, ...]) -> tuple[float, Run]:
    """One lint of `root` beside the floor measured just before it, shown as it ends."""
    run = lint(root, source, *extra)
    _show(label, run, floor)
    return floor, run


def median_round(rounds: Sequence[T], key: Callable[[T], float]) -> T:
    """The round whose `key` is the median: of an even number, the higher of the middle two
    (a round that was measured, with its own runs, rather than an average of two)."""
    return sorted(rounds, key=key)[len(rounds) // 2]


def _ratio(measure: tuple[float, Run]) -> float:
    floor, run = measure
    return run.wall / floor


def pre_commit(work: Path, shape: str, count: int) -> list[list[float]]:
    """One-file pre-commit lints in the corpus of `count` and in a 10-entry one, the two in
    turn in each round (`scale.precommit`): the times in each, round by round."""
    big = corpus(work, shape, count, "yaml")
    small = corpus(work, shape, 10, "yaml")
    scale._clear(big)
    scale._clear(small)
    scale.lint(big)  # fill both caches
    scale.lint(small)
    return scale.precommit([big, small])


def imported(work: Path, canons: Path) -> Path:
    """The canons imported with `entrykit import --from deadends` (once)."""
    project = work / "deadends"
    stamp = work / "deadends.done"
    if not stamp.is_file():
        shutil.rmtree(project, ignore_errors=True)
        project.mkdir(parents=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "entrykit",
                "import",
                "--from",
                "deadends",
                "--out",
                "entries",
                str(canons),
            ],
            cwd=project,
            check=True,
            capture_output=True,
        )
        stamp.write_text("1")
    return project / "entries"


def warm_bytecode(work: Path, sources: list[Path | None], canons: Path, peer: Path) -> None:
    """Compile, once, what each measured program imports (into `BYTECODE`, outside every
    checkout): each version by a lint of a small corpus, the peer by importing its validator."""
    small = corpus(work, "template", 10, "yaml")
    for source in sources:
        lint(small, source, "--no-cache")
    if canons.is_dir() and peer.is_dir():
        subprocess.run(
            [sys.executable, "-c", "import generator.validate"],
            cwd=peer_scratch(work, canons, peer), env=_env(None), check=True, capture_output=True,
        )


def peer_scratch(work: Path, canons: Path, peer: Path) -> Path:
    """The peer's validator in a scratch folder with the canons at data/canons (its README's way)."""
    scratch = work / "peer"
    if not (scratch / "data" / "canons").is_dir():
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.copytree(peer / "generator", scratch / "generator")
        shutil.copytree(canons, scratch / "data" / "canons")
    return scratch


def peer_rows(
    work: Path, canons: Path, peer: Path, before: Path | None, rounds: int
) -> dict[str, list[Run]]:
    entries = imported(work, canons)
    scratch = peer_scratch(work, canons, peer)
    runs: dict[str, list[Run]] = {"peer": [], "after": [], "before": []}
    for _ in range(rounds):
        # The peer exits 1 when a canon fails its checks: that is a result, not a failure.
        runs["peer"].append(
            timed(
                [sys.executable, "-m", "generator.validate", "--data-only"],
                scratch,
                _env(None),
                ok=(0, 1),
            )[0]
        )
        runs["after"].append(lint(entries, AFTER, "--no-cache"))
        if before is not None:
            runs["before"].append(lint(entries, before, "--no-cache"))
    return runs


def report_canons(runs: dict[str, list[Run]]) -> None:
    """Print the peer against entrykit on the canons: each round, then per version the median
    and lowest of the rounds' ratios and the median round's two runs."""
    # Each round's runs met the same load; the machine's speed may drift between rounds.
    for number, peer_run in enumerate(runs["peer"]):
        ours = "  ".join(
            f"{name} {runs[name][number].wall:.2f} s ({peer_run.wall / runs[name][number].wall:.1f}x)"
            for name in ("after", "before")
            if runs[name]
        )
        print(f"  round {number + 1}: peer {peer_run.wall:.2f} s  {ours}", flush=True)
    for name in ("after", "before"):
        if not runs[name]:
            continue
        # Each round's ratio, its runs side by side: the median says what the machine
        # usually gives, the lowest what a busy moment can take it down to.
        rounds = [(theirs.wall / mine.wall, theirs, mine) for theirs, mine in zip(runs["peer"], runs[name], strict=True)]
        ratios = [ratio for ratio, _, _ in rounds]
        # the median round itself, its two runs (not the fastest of each side: two rounds)
        ratio, theirs, mine = median_round(rounds, lambda measured: measured[0])
        print(
            f"deadends canons, entrykit ({name}) per round: median {ratio:.1f}x, lowest {min(ratios):.1f}x, "
            f"{sum(r >= 10 for r in ratios)} of {len(ratios)} rounds >= 10x",
            flush=True,
        )
        print(
            f"deadends canons, the median round: peer {theirs.wall:.2f} s, entrykit ({name}) cold "
            f"{mine.wall:.2f} s ({mine.cpu:.1f} s CPU, {mine.found:,} diagnostics): "
            f"{ratio:.1f}x faster (target >= 10); CPU {theirs.cpu / mine.cpu:.1f}x",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2500,10000,25000,100000")
    parser.add_argument("--shapes", default="template,diverse")
    parser.add_argument(
        "--canons",
        type=Path,
        default=HERE.parent.parent / "shared/corpus/deadends-dev/canons",
    )
    parser.add_argument(
        "--peer", type=Path, default=HERE.parent.parent / "shared/peer/deadends-dev"
    )
    parser.add_argument(
        "--before", type=Path, help="a checkout of the entrykit to compare with"
    )
    parser.add_argument(
        "--after",
        type=Path,
        help="a checkout to measure instead of this one (its tool/ first on PYTHONPATH)",
    )
    parser.add_argument(
        "--before-sizes", default="2500,10000", help="sizes the before version runs at"
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--work", type=Path, default=Path("/tmp/entrykit-targets"))
    parser.add_argument("--skip-precommit", action="store_true")
    parser.add_argument(
        "--lint-format",
        choices=["yaml", "json"],
        default="yaml",
        help="lint the YAML corpora (default) or their JSON twins (quicker to generate)",
    )
    args = parser.parse_args()
    global AFTER, LINT_FORMAT, BYTECODE
    AFTER, LINT_FORMAT = args.after, args.lint_format
    args.work.mkdir(parents=True, exist_ok=True)
    BYTECODE = args.work / "bytecode"
    warm_bytecode(args.work, [AFTER, *([args.before] if args.before else [])], args.canons, args.peer)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    before_sizes = {int(s) for s in args.before_sizes.split(",") if s}
    print(
        f"{len(os.sched_getaffinity(0))} cores; load {os.getloadavg()[0]:.1f}",
        flush=True,
    )

    if args.canons.is_dir() and args.peer.is_dir():
        report_canons(peer_rows(args.work, args.canons, args.peer, args.before, args.rounds))

    table: dict[tuple[str, int], dict[str, Run | float]] = {}
    for shape in [s for s in args.shapes.split(",") if s]:
        for count in sizes:
            table[(shape, count)] = size_row(
                args.work,
                shape,
                count,
                args.before if count in before_sizes else None,
                args.rounds if count <= COLD_TARGET_SIZE else 1,
            )

    print(
        "\nshape     entries   floor s   cold s (x floor)   warm s (x floor)   peak MB   diagnostics"
        + ("   before: cold x / warm x" if args.before else "")
    )
    for (shape, count), row in table.items():
        base = float(row["floor after"])  # type: ignore[arg-type]
        warm_base = float(row["floor warm after"])  # type: ignore[arg-type]
        cold, warm = row["cold after"], row["warm after"]
        assert isinstance(cold, Run) and isinstance(warm, Run)
        line = (
            f"{shape:<9} {count:>7,} {base:9.2f} {cold.wall:9.1f} ({cold.wall / base:6.1f}x) "
            f"{warm.wall:9.1f} ({warm.wall / warm_base:6.1f}x) {max(cold.rss, warm.rss):9,} {cold.found:12,}"
        )
        old_cold, old_warm = row.get("cold before"), row.get("warm before")
        if isinstance(old_cold, Run) and isinstance(old_warm, Run):
            old_base = float(row["floor before"])  # type: ignore[arg-type]
            old_warm_base = float(row["floor warm before"])  # type: ignore[arg-type]
            line += f"   {old_cold.wall / old_base:6.1f}x / {old_warm.wall / old_warm_base:6.1f}x"
        print(line, flush=True)
    largest = max(sizes)
    for shape in [s for s in args.shapes.split(",") if s]:
        cold = table[(shape, largest)]["cold after"]
        assert isinstance(cold, Run)
        print(
            f"peak memory, cold {largest:,} {shape}: {cold.rss:,} MB (target < 1,024 at 100,000)"
        )

    if not args.skip_precommit:
        mid = max((s for s in sizes if s <= 10_000), default=min(sizes))
        shape = args.shapes.split(",")[0]
        times = pre_commit(args.work, shape, mid)
        rounds = list(zip(scale.round_ratios(times), *times, strict=True))  # (ratio, 10k s, 10 s) each
        print("pre-commit per round: " + ", ".join(f"{ratio:.2f}" for ratio, _, _ in rounds))
        ratio, big, small = median_round(rounds, lambda measured: measured[0])
        print(
            f"pre-commit, one edited file (the median round): {mid:,} {shape} entries {big:.2f} s, "
            f"10 entries {small:.2f} s: {ratio:.2f} (target <= 1.5)"
        )


if __name__ == "__main__":
    main()
