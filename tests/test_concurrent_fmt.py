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

from entrykit.config import from_table
from entrykit.lint.engine import lint
from entrykit.writing import write_files

from .conftest import REPO

LATER = date(2031, 1, 1)  # every entry's `last_confirmed` is stale then: a finding on a line fmt moves
ROUNDS = 6

_LINTER = """
import json, sys
from datetime import date
from pathlib import Path
from entrykit.config import from_table
from entrykit.lint.engine import lint
base, stop = Path(sys.argv[1]), Path(sys.argv[2])
config = from_table({"root": "entries"}, base)
runs = []
while not stop.exists() or len(runs) < 2:
    result = lint(None, config, date(2031, 1, 1), cwd=base, use_cache=True)
    runs.append([[d.path, d.line, d.col, d.code, d.message] for d in result.diagnostics])
print(json.dumps(runs))
"""


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


def test_fmt_while_lint_reads_gives_old_or_new_results_and_a_sound_cache(tmp_path: Path) -> None:
    sources = sorted(p for domain in ("git", "pip", "python") for p in (REPO / "entries" / domain).glob("*.yaml"))
    old = {tmp_path / "entries" / p.parent.name / p.name: _unformatted(p.read_text(encoding="utf-8")) for p in sources}
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    for path, text in old.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    before = _by_file(_rows(tmp_path, use_cache=False))
    fmt = [sys.executable, "-m", "entrykit", "fmt"]
    assert subprocess.run(fmt, cwd=tmp_path, capture_output=True, timeout=120).returncode == 0
    after = _by_file(_rows(tmp_path, use_cache=False))
    assert set(before) == set(after) and len(before) == len(old)  # every file has a finding ...
    assert all(before[k] != after[k] for k in before)  # ... that fmt moves: old and new tell apart

    write_files(old)
    stop = tmp_path / "stop"
    linter = subprocess.Popen(
        [sys.executable, "-c", _LINTER, str(tmp_path), str(stop)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        for _ in range(ROUNDS):
            done = subprocess.run(fmt, cwd=tmp_path, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            time.sleep(0.2)
            write_files(old)  # back to the old layout, atomically as fmt writes: the next round has work
        done = subprocess.run(fmt, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
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
