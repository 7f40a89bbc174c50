"""The command line writes UTF-8 whatever the locale's or `PYTHONIOENCODING`'s encoding."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ENTRY = 'id: py/cjk\ndomain: "错误…😀"\nsignature: "错误：找不到模块"\nregex: "ModuleNotFound"\n'
EXPECTED = "entries/py/cjk.yaml:2:9: ET505 [error] domain `错误…😀` differs from the id's prefix `py`"


def _lint(folder: Path, encoding: str, *options: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "entrykit", "lint", "--no-cache", "--select", "ET505", *options, "entries"],
        cwd=folder, capture_output=True, timeout=300,
        env={**os.environ, "GITHUB_ACTIONS": "", "NO_COLOR": "1", "PYTHONIOENCODING": encoding},
    )


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
def test_findings_that_quote_any_text_are_written_as_utf8(tmp_path: Path, encoding: str) -> None:
    (tmp_path / "entries" / "py").mkdir(parents=True)
    (tmp_path / "entries" / "py" / "cjk.yaml").write_text(ENTRY, encoding="utf-8")
    done = _lint(tmp_path, encoding)
    assert (done.returncode, done.stderr) == (1, b"")  # findings, not "internal error: UnicodeEncodeError"
    assert done.stdout.decode("utf-8").splitlines()[0] == EXPECTED
    for name in ("json", "sarif"):
        assert _lint(tmp_path, encoding, "--format", name).stdout == _lint(tmp_path, "utf-8", "--format", name).stdout
