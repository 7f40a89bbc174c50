"""A terminal that talks: colour where wanted (NO_COLOR, FORCE_COLOR), progress on a terminal only.

The terminal cases run entrykit in a real pseudo-terminal (`tests/pty_session.py`): its
standard output and error are a tty, as at a person's prompt. Progress normally waits
for a run to pass a second; these runs set that delay to zero in the child (a test
cannot wait on a clock), so every run draws its bar.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from entrykit.cli import terminal
from entrykit.cli.terminal import Progress, color_enabled

from .conftest import FIXTURES, write_corpus
from .pty_session import PtySession

SGR = re.compile(r"\x1b\[[0-9;]*m")
# The child: entrykit's own entry point with the progress delay at zero.
CHILD = (
    "import sys, entrykit.cli.terminal as t; t.SHOW_AFTER = 0; "
    "from entrykit.cli import main; sys.argv[0] = 'entrykit'; main()"
)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("env", "tty", "expected"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"NO_COLOR": ""}, True, True),  # set but empty: as if unset
        ({"FORCE_COLOR": "1"}, False, True),
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False),  # NO_COLOR first, as Python decides
        ({"TERM": "dumb"}, True, False),
        ({"TERM": "dumb", "FORCE_COLOR": "1"}, True, True),
    ],
)
def test_colour_follows_the_conventions(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], tty: bool, expected: bool
) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert color_enabled(_Tty() if tty else io.StringIO()) is expected


def test_progress_waits_for_a_second_and_skips_finished_stages(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]  # the progress helper's clock, moved by hand
    monkeypatch.setattr(terminal.time, "monotonic", lambda: clock[0])
    stream = _Tty()
    fresh = Progress(stream, enabled=True)
    clock[0] += 0.5
    fresh("checking files", 1, 10)
    assert stream.getvalue() == ""  # a run under a second shows nothing
    late = Progress(stream, enabled=True)
    clock[0] += 2
    late("candidates", 10, 10)  # already done when first told: never drawn (no leap to 100 %)
    assert stream.getvalue() == ""
    late("scoring", 3, 10)
    late("scoring", 4, 10)  # within the redraw interval: not drawn again
    late("scoring", 10, 10)  # the end of a stage always is
    late.close()
    drawn = stream.getvalue()
    assert "scoring" in drawn and " 3/10" in drawn and " 10/10" in drawn and " 4/10" not in drawn
    assert drawn.endswith("\r\x1b[K")  # the line is cleared at the end
    off = Progress(stream, enabled=False)
    clock[0] += 2
    off("scoring", 5, 10)
    off.close()
    assert stream.getvalue() == drawn


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "GITHUB_ACTIONS")}
    env.update({"TERM": "xterm-256color", "COLUMNS": "100", **extra})
    return env


def _corpus(tmp_path: Path) -> Path:
    import shutil

    shutil.copytree(FIXTURES / "golden", tmp_path / "golden")
    return tmp_path / "golden"


def _in_pty(cwd: Path, *args: str, **env: str) -> tuple[int, str]:
    session = PtySession([sys.executable, "-c", CHILD, *args], str(cwd), _env(**env), timeout=120)
    status = session.wait()
    return status, session.output


def test_lint_at_a_terminal_is_in_colour_with_a_progress_bar(tmp_path: Path) -> None:
    status, output = _in_pty(_corpus(tmp_path), "lint", "--today", "2026-11-30", "--no-cache", "--jobs", "1")
    assert status == 1
    bars = re.findall(r"\r(checking files|corpus rules) +\[[#-]+\] (\d+)/(\d+)", output)
    counts = [int(done) for stage, done, _ in bars if stage == "checking files"]
    assert counts[0] < counts[-1] == 3, bars  # it moves with the files checked
    report = output[output.rindex("\r\x1b[K") + len("\r\x1b[K") :]  # the bar cleared, then the report
    assert "\x1b[1mentries/git/broken.json:4:3:\x1b[0m \x1b[31m\x1b[1mET001\x1b[0m" in report
    assert SGR.sub("", report) == (Path(__file__).parent / "golden" / "lint.text").read_text(encoding="utf-8")


def test_no_color_at_a_terminal_keeps_the_progress_bar(tmp_path: Path) -> None:
    status, output = _in_pty(_corpus(tmp_path), "lint", "--today", "2026-11-30", "--no-cache", NO_COLOR="1")
    assert status == 1 and not SGR.search(output) and "checking files" in output


def test_quiet_at_a_terminal_shows_no_progress(tmp_path: Path) -> None:
    status, output = _in_pty(_corpus(tmp_path), "lint", "--today", "2026-11-30", "--no-cache", "-q")
    assert status == 1 and "checking files" not in output and "Found" not in output and "ET001" in output


def test_piped_output_has_neither_colour_nor_progress(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    argv = [sys.executable, "-c", CHILD, "lint", "--today", "2026-11-30", "--no-cache"]
    piped = subprocess.run(argv, cwd=corpus, env=_env(), capture_output=True, text=True, timeout=120, check=False)
    assert piped.returncode == 1 and "\x1b" not in piped.stdout + piped.stderr and piped.stderr == ""
    forced = subprocess.run(
        argv, cwd=corpus, env=_env(FORCE_COLOR="1"), capture_output=True, text=True, timeout=120, check=False
    )
    assert SGR.search(forced.stdout) and SGR.sub("", forced.stdout) == piped.stdout
    assert forced.stderr == ""  # colour, but no progress: standard error is no terminal


def test_fmt_dupes_and_import_show_progress_at_a_terminal(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    status, output = _in_pty(corpus, "fmt", "--check")
    assert status in (1, 2) and re.search(r"\rformatting +\[[#-]+\] \d+/3", output)
    status, output = _in_pty(corpus, "dupes")
    assert re.search(r"\rreading entries +\[[#-]+\] \d+/3", output)
    assert re.search(r"\rreading regexes +\[[#-]+\] \d+/2", output)
    canons = tmp_path / "canons"
    write_corpus(tmp_path, {"a.json": "{}", "b.json": "{}"}, root="canons")
    status, output = _in_pty(tmp_path, "import", "--from", "deadends", "--out", str(tmp_path / "out"), str(canons))
    assert re.search(r"\rreading canons +\[[#-]+\] \d+/2", output)


def test_match_says_when_nothing_matched_at_a_terminal(tmp_path: Path) -> None:
    status, output = _in_pty(_corpus(tmp_path), "match", "nothing like any entry")
    assert status == 1 and "No entry's regex matches the message" in output


def test_progress_delay_is_a_second() -> None:
    assert terminal.SHOW_AFTER == 1.0
