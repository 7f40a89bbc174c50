"""`fmt` rewriting files while `lint` (with its cache) reads the corpus again and again: lint never
fails, every file's diagnostics in every run are those of its old or its new content, and the
cache left behind gives what a fresh `--no-cache` lint gives."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit.cli import cli
from entrykit.config import from_table
from entrykit.lint.engine import lint
from entrykit.writing import write_files

from .conftest import REPO

LATER = date(2031, 1, 1)  # every entry's `last_confirmed` is stale then: a finding on a line fmt moves
ROUNDS = 6

# Lints until told to stop; after each run it says how many it has finished (in `done`).
_LINTER = """
import json, os, sys
from datetime import date
from pathlib import Path
from entrykit.config import from_table
from entrykit.lint.engine import lint
base, stop, done = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
config = from_table({"root": "entries"}, base)
runs = []
while not stop.exists() or len(runs) < 2:
    result = lint(None, config, date(2031, 1, 1), cwd=base, use_cache=True)
    runs.append([[d.path, d.line, d.col, d.code, d.message] for d in result.diagnostics])
    done.with_suffix(".tmp").write_text(str(len(runs)))
    os.replace(done.with_suffix(".tmp"), done)
print(json.dumps(runs))
"""


def _finished(done: Path) -> int:
    return int(done.read_text()) if done.exists() else 0


def _wait_for_runs(linter: subprocess.Popen[str], done: Path, count: int) -> None:
    """Until the linter has finished `count` runs (or has stopped: the checks after say why)."""
    while linter.poll() is None and _finished(done) < count:
        time.sleep(0.05)


def _unformatted(text: str) -> str:
    """The `id:` line moved last: out of schema order, and every line after it one up."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("id: "))
    return "".join(lines[:at] + lines[at + 1 :] + lines[at : at + 1])


def _by_file(rows: list[list[object]]) -> dict[str, list[list[object]]]:
    found: dict[str, list[list[object]]] = {}
    for row in rows:
        found.setdefault(str(row[0]), []).append(row)
    return found


def _rows(base: Path, use_cache: bool) -> list[list[object]]:
    result = lint(None, from_table({"root": "entries"}, base), LATER, cwd=base, use_cache=use_cache)
    return [[d.path, d.line, d.col, d.code, d.message] for d in result.diagnostics]


def _fmt() -> None:
    """`entrykit fmt` in the working directory (in this process: the linter is the other one)."""
    result = CliRunner().invoke(cli, ["fmt"], catch_exceptions=False)
    assert result.exit_code == 0, result.output


def test_fmt_while_lint_reads_gives_old_or_new_results_and_a_sound_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = sorted(p for domain in ("git", "pip", "python") for p in (REPO / "entries" / domain).glob("*.yaml"))
    old = {tmp_path / "entries" / p.parent.name / p.name: _unformatted(p.read_text(encoding="utf-8")) for p in sources}
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    for path, text in old.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    before = _by_file(_rows(tmp_path, use_cache=False))
    monkeypatch.chdir(tmp_path)
    _fmt()
    after = _by_file(_rows(tmp_path, use_cache=False))
    assert set(before) == set(after) and len(before) == len(old)  # every file has a finding ...
    assert all(before[k] != after[k] for k in before)  # ... that fmt moves: old and new tell apart

    write_files(old, within=None)
    stop, progress = tmp_path / "stop", tmp_path / "done"
    linter = subprocess.Popen(
        [sys.executable, "-c", _LINTER, str(tmp_path), str(stop), str(progress)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        # Counted, not timed: one run over the old layout before the first rewrite, one that
        # starts after the last (its predecessor may have begun before), whatever the load.
        _wait_for_runs(linter, progress, 1)
        for _ in range(ROUNDS):
            _fmt()
            write_files(old, within=None)  # back to the old layout, atomically as fmt writes: the next round has work
        _fmt()
        _wait_for_runs(linter, progress, _finished(progress) + 2)
    finally:
        stop.touch()
        out, err = linter.communicate(timeout=300)
    assert linter.returncode == 0, err
    runs = json.loads(out)
    assert len(runs) >= 2
    observed: set[str] = set()
    for rows in runs:
        seen = _by_file(rows)
        assert set(seen) == set(before)
        states = {"old" if seen[k] == before[k] else "new" if seen[k] == after[k] else "torn" for k in seen}
        assert "torn" not in states, rows
        observed |= states
    assert observed == {"old", "new"}  # the runs did overlap the rewrites
    print(f"{len(runs)} lint runs during {ROUNDS} rewrites")
    # afterwards: what the cache holds gives exactly what a fresh run gives, the new content's results
    assert _rows(tmp_path, use_cache=True) == _rows(tmp_path, use_cache=False)
    assert _by_file(_rows(tmp_path, use_cache=True)) == after
    assert not list((tmp_path / "entries").rglob("*.tmp")) and not list((tmp_path / "entries").rglob(".*.old"))
