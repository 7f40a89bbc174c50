"""The command line's standard streams: UTF-8 whatever the locale's or `PYTHONIOENCODING`'s
encoding, and a plain error (exit 2, never a traceback or an "internal error") when the
output finds no room or was closed."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
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


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, where every write finds no room")
@pytest.mark.parametrize("command", [["lint", "--no-cache", "entries"], ["explain", "ET505"]])
def test_output_with_no_room_is_an_error_of_the_machine_not_of_entrykit(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "entries" / "py").mkdir(parents=True)
    (tmp_path / "entries" / "py" / "cjk.yaml").write_text(ENTRY, encoding="utf-8")
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "entrykit", *command], cwd=tmp_path, stdout=full, stderr=subprocess.PIPE,
            timeout=300, env={**os.environ, "GITHUB_ACTIONS": "", "NO_COLOR": "1"},
        )
    assert done.returncode == 2
    assert done.stderr.decode() == f"entrykit: error: cannot write: {os.strerror(28)}\n"  # not "internal error"


def _closing(*fds: int) -> Callable[[], None]:
    def close() -> None:  # (in the child, before entrykit starts: as `>&-` leaves it)
        for fd in fds:
            os.close(fd)

    return close


@pytest.mark.skipif(os.name != "posix", reason="closes descriptors before the command starts")
def test_a_closed_output_is_said_as_such(tmp_path: Path) -> None:
    (tmp_path / "entries" / "py").mkdir(parents=True)
    (tmp_path / "entries" / "py" / "cjk.yaml").write_text(ENTRY, encoding="utf-8")
    command = [sys.executable, "-m", "entrykit", "lint", "--no-cache", "entries"]
    env = {**os.environ, "GITHUB_ACTIONS": "", "NO_COLOR": "1"}
    done = subprocess.run(command, cwd=tmp_path, stderr=subprocess.PIPE, preexec_fn=_closing(1), timeout=300, env=env)
    assert (done.returncode, done.stderr.decode()) == (2, "entrykit: error: cannot write: standard output is closed\n")
    # with nowhere to say anything, the exit status still says it
    done = subprocess.run(command, cwd=tmp_path, preexec_fn=_closing(1, 2), timeout=300, env=env)
    assert done.returncode == 2
    # a closed standard input reads as empty
    done = subprocess.run(
        [sys.executable, "-m", "entrykit", "match", "-"], cwd=tmp_path, capture_output=True,
        preexec_fn=_closing(0), timeout=300, env=env,
    )
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr.decode() == "No entry's regex matches 0 lines (1 entry checked).\n"
