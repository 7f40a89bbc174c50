"""benchmarks/batches.py: its two ways of linting check the files in the two orders it names, and give the same output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import batches  # noqa: E402


def test_alone_and_batched_give_the_same_output(tmp_path: Path) -> None:
    root = batches.targets.corpus(tmp_path, "diverse", 60, "yaml")
    outputs = {batches.lint_once(root, mode, 1, tmp_path)[2] for mode in batches.MODES}
    assert len(outputs) == 1


def test_alone_lets_no_second_file_into_a_batch(tmp_path: Path) -> None:
    """The bound the `alone` mode sets (`BATCH_CHARACTERS`) holds every file apart: the
    script it runs, given a lint that prints each batch's size, prints only ones."""
    root = batches.targets.corpus(tmp_path, "diverse", 12, "yaml")
    spy = (
        "from entrykit.lint import pipeline\n"
        "real = pipeline.Checker.check_entries\n"
        "def told(self, checks):\n"
        "    if checks: print('batch', len(checks), file=sys.stderr)\n"
        "    real(self, checks)\n"
        "pipeline.Checker.check_entries = told\n"
    )
    script = batches._LINT.replace("from entrykit.cli import run\n", spy + "from entrykit.cli import run\n")
    sizes = {}
    for mode, bound in batches.MODES.items():
        done = subprocess.run(
            [sys.executable, "-c", script, bound, "lint", "--no-cache", "--jobs", "1", "--format", "json", str(root)],
            capture_output=True, text=True, check=False,
        )
        sizes[mode] = [int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("batch ")]
    assert sizes["alone"] == [1] * 12
    assert sizes["batched"] == [12]
