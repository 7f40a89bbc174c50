"""What starting entrykit costs: `entrykit --version` loads neither the configuration nor
the entries' parsers (checked by module name, in a fresh process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# What reading the configuration or an entry loads; a run that does neither needs none of it.
READERS = ("entrykit.config", "entrykit.settings", "entrykit.loader", "entrykit.parsing", "entrykit.entry", "yaml")


def _run(*args: str) -> tuple[str, list[str]]:
    """What `entrykit ARGS` printed, and the modules it had imported when it exited."""
    probe = (
        "import json, sys\nfrom entrykit.cli import main\n"
        f"sys.argv = ['entrykit', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert exc.code in (0, None), exc.code\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=120, check=True
    )
    return proc.stdout, list(json.loads(proc.stderr.strip().splitlines()[-1]))


def _readers(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == r or m.startswith(r + ".") for r in READERS)]


def test_the_version_is_told_without_loading_the_readers() -> None:
    printed, modules = _run("--version")
    assert printed.startswith("entrykit, version ")
    assert _readers(modules) == []


def test_a_command_that_reads_the_configuration_loads_them() -> None:
    """The probe sees them where they are used (so the test above can fail)."""
    printed, modules = _run("render", "entries/node/cannot-find-module.yaml")
    assert printed
    assert {"entrykit.config", "entrykit.loader", "yaml"} <= set(_readers(modules))
