"""The installed command (`entrykit.cli.run`) exits as `main` does, without freeing the heap.

Each probe runs in its own interpreter: `run` ends the process. It must print all the
output (more than a pipe holds), exit with main's status, run the exit handlers, and take
the interpreter's own way out when an exit message, a running thread or an output that
cannot be flushed asks for it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from .conftest import REPO

# An object that says when the interpreter frees it (at a usual exit, with the module's globals).
_HELD = (
    "class Held:\n    def __del__(self):\n        print('freed', file=sys.stderr)\n"
    "held = Held()\n"
)


def _probe(body: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", body], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_run_prints_and_exits_as_main_does(tmp_path: Path) -> None:
    shutil.copytree(REPO / "entries", tmp_path / "entries")
    for number in range(400):  # findings enough for more output than a pipe holds
        (tmp_path / "entries" / f"broken-{number}.yaml").write_text("id: x/y\nregex: '('\n", encoding="utf-8")
    lint = ["lint", "--root", "entries", "--format", "json", "--no-cache", "--today", "2026-11-30"]
    by_main = _probe(
        "import sys\nfrom entrykit.cli import main\n"
        f"sys.argv = ['entrykit', *{lint!r}]\nmain()\n",
        tmp_path,
    )
    by_run = _probe(
        "import atexit, sys\nfrom entrykit.cli import run\n"
        "atexit.register(lambda: print('exit handler ran', file=sys.stderr))\n"
        f"{_HELD}"
        f"sys.argv = ['entrykit', *{lint!r}]\nrun()\n"
        "print('not reached', file=sys.stderr)\n",
        tmp_path,
    )
    assert by_main.returncode == by_run.returncode == 1  # findings
    assert len(by_run.stdout) > 65536  # more than a pipe holds: all of it was flushed
    assert by_run.stdout == by_main.stdout and json.loads(by_run.stdout)
    assert by_run.stderr.splitlines()[-1] == "exit handler ran"
    assert "not reached" not in by_run.stderr
    assert "freed" not in by_run.stderr  # what the run held was not freed one by one


def test_an_exit_message_takes_the_usual_way(tmp_path: Path) -> None:
    done = _probe(
        "import entrykit.cli as cli, sys\n"
        "cli.main = lambda: sys.exit('entrykit: stopped here')\ncli.run()\n",
        tmp_path,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == "entrykit: stopped here"


def test_a_running_thread_is_waited_for(tmp_path: Path) -> None:
    done = _probe(
        "import entrykit.cli as cli, sys, threading, time\n"
        f"{_HELD}"
        "def late():\n    time.sleep(0.3)\n    print('thread done', flush=True)\n"
        "cli.main = lambda: (threading.Thread(target=late).start(), sys.exit(3))\ncli.run()\n",
        tmp_path,
    )
    assert done.returncode == 3
    assert done.stdout == "thread done\n"
    assert done.stderr == "freed\n"  # the interpreter's own exit


def test_a_plain_return_exits_zero(tmp_path: Path) -> None:
    done = _probe(
        "import entrykit.cli as cli\ncli.main = lambda: print('done')\ncli.run()\n",
        tmp_path,
    )
    assert (done.returncode, done.stdout) == (0, "done\n")
