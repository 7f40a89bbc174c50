"""Peak memory of a cold `entrykit lint`, and bytes per entry, at several corpus sizes.

    python benchmarks/memory.py [--sizes 10000,25000,100000] [--shapes template,diverse]
        [--lint-format json|yaml] [--before ../main] [--before-sizes 10000,25000]
        [--phases] [--work /tmp/entrykit-targets]

Corpora are `targets.py`'s (`generate.py`, seed 1; `template` is the one-template
corpus, `diverse` the mixed one), written once. Each cold lint is its own process
(`--format json`, an empty `--cache-dir`, all cores) under `/usr/bin/time -v`; its
peak is the largest process's maximum resident set. Printed per shape and size: the
peak in MB, the peak per entry, and the growth per entry from the size before (what
each further entry costs, without the interpreter and the imports every run pays
once), the diagnostics, and the CPU time per entry (the lint and the processes it
waited for). If memory, output and time are linear in the corpus, the growth, the
diagnostics per entry and the CPU per entry are about the same at every size. With `--before DIR` (a checkout of another entrykit version) each lint of the
`--before-sizes` also runs that version's source right after this one's: a before ->
after table.

With `--phases`, the largest size of each shape is also linted in this process
(`--jobs` all cores, Linux only) with the peak of each phase of the run: the per-file
phase, each cache save, the corpus rules, the diagnostics, the JSON report (the kernel's
peak counter is reset before each). Target: a cold lint of 100,000 entries < 1 GB.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import targets  # noqa: E402


def cold(root: Path, source: Path | None) -> targets.Run:
    """One cold lint of `root` by `source` (None: this checkout) in a process of its own."""
    with tempfile.TemporaryDirectory(prefix="entrykit-memory-") as cache:
        return targets.lint(root, source, "--cache-dir", cache)


def _status(field: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1]) // 1024
    return -1


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # resets this process's peak resident set (VmHWM)


def phases(root: Path) -> None:
    """Lint `root` in this process and print the peak resident MB of each phase."""
    from entrykit import registry
    from entrykit.cli.common import command_config
    from entrykit.lint import cache, engine, reporters

    def watch(owner: Any, name: str, label: str) -> Callable[[], None]:
        original = getattr(owner, name)

        def watched(*args: Any, **kwargs: Any) -> Any:
            before = _status("VmRSS")
            _reset_peak()
            try:
                return original(*args, **kwargs)
            finally:
                print(f"    {label:<16} {before:6,} -> {_status('VmRSS'):6,} MB, peak {_status('VmHWM'):6,} MB")

        setattr(owner, name, watched)
        return lambda: setattr(owner, name, original)

    undo = [
        watch(engine._Run, "records", "per-file phase"),
        watch(cache.Store, "save", "cache save"),
        watch(engine, "_corpus_findings", "corpus rules"),
        watch(engine.Diagnostics, "__init__", "diagnostics"),
    ]
    here = Path.cwd()
    os.chdir(root.parent)
    try:
        config = command_config(None, root)
        print(f"  phases of a cold lint of {root.name} in one process (start {_status('VmRSS'):,} MB):")
        with tempfile.TemporaryDirectory(prefix="entrykit-memory-") as folder:
            result = engine.lint(
                None, config, date.fromisoformat(targets.TODAY), use_cache=True, cache_dir=Path(folder),
                jobs=len(os.sched_getaffinity(0)),
            )
            before = _status("VmRSS")
            _reset_peak()
            with open(os.devnull, "w") as out:
                options = reporters.ReportOptions(cwd=Path.cwd(), base=Path.cwd())
                reporters.REPORTERS["json"](result.diagnostics, registry.all_rules(), out, options)
            print(f"    {'json report':<16} {before:6,} -> {_status('VmRSS'):6,} MB, peak {_status('VmHWM'):6,} MB")
    finally:
        os.chdir(here)
        for step in undo:
            step()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,25000,100000")
    parser.add_argument("--shapes", default="template")
    parser.add_argument("--lint-format", choices=["yaml", "json"], default="json")
    parser.add_argument("--before", type=Path, help="a checkout of the entrykit to compare with")
    parser.add_argument("--before-sizes", default="10000,25000", help="sizes the before version runs at")
    parser.add_argument("--phases", action="store_true", help="also the peak of each phase (Linux)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/entrykit-targets"))
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    sizes = sorted(int(s) for s in args.sizes.split(",") if s)
    shapes = [s for s in args.shapes.split(",") if s]
    before_sizes = {int(s) for s in args.before_sizes.split(",") if s}
    versions: list[tuple[str, Path | None]] = [("after", None), *([("before", args.before)] if args.before else [])]
    print(f"{len(os.sched_getaffinity(0))} cores; load {os.getloadavg()[0]:.1f}", flush=True)
    rows: list[tuple[str, str, int, targets.Run]] = []
    for shape in shapes:
        for count in sizes:
            root = targets.corpus(args.work, shape, count, args.lint_format)
            for name, source in versions:
                if name == "before" and count not in before_sizes:
                    continue
                run = cold(root, source)
                rows.append((shape, name, count, run))
                print(
                    f"  {shape} {count:,} ({name}): peak {run.rss:,} MB, {run.wall:.0f} s ({run.cpu:.0f} s CPU), "
                    f"{run.found:,} diagnostics",
                    flush=True,
                )
        if args.phases:
            phases(targets.corpus(args.work, shape, sizes[-1], args.lint_format))

    print("\nshape     version   entries   peak MB   KB/entry   growth KB/entry   diagnostics   CPU ms/entry")
    for shape in shapes:
        for name, _ in versions:
            previous: tuple[int, int] | None = None
            for row_shape, row_name, count, run in rows:
                if (row_shape, row_name) != (shape, name):
                    continue
                growth = (
                    f"{(run.rss - previous[1]) * 1024 / (count - previous[0]):17.1f}" if previous else " " * 17
                )
                print(
                    f"{shape:<9} {name:<7} {count:>9,} {run.rss:9,} {run.rss * 1024 / count:10.1f} {growth} "
                    f"{run.found:13,} {run.cpu * 1000 / count:14.2f}"
                )
                previous = (count, run.rss)
    for shape in shapes:
        largest = [run for row_shape, name, count, run in rows if row_shape == shape and name == "after"][-1]
        print(f"peak memory, cold {sizes[-1]:,} {shape}: {largest.rss:,} MB (target < 1,024 at 100,000)")


if __name__ == "__main__":
    main()
