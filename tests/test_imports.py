"""Each command imports what it uses: reading the configuration, `fmt` and `render` never
load the rules, the lint engine or jsonschema (checked by module name, in a fresh process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ENTRY = "entries/node/cannot-find-module.yaml"
# The rule stack: every rule family, the analyses only rules use, the engine, jsonschema.
RULE_STACK = (
    "entrykit.rules",
    "entrykit.lint",
    "entrykit.regex.redos",
    "entrykit.regex.literal_index",
    "entrykit.similarity.near_duplicates",
    "jsonschema",
)


def _modules(code: str) -> list[str]:
    """The modules a fresh interpreter has imported after running `code`."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    proc = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=120, check=True
    )
    return list(json.loads(proc.stdout.splitlines()[-1]))


def _command(*args: str) -> str:
    return (
        "import sys\nfrom entrykit.cli import main\n"
        f"sys.argv = ['entrykit', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert exc.code in (0, None), exc.code\n"
    )


def _of_rule_stack(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == s or m.startswith(s + ".") for s in RULE_STACK)]


@pytest.mark.parametrize(
    "code",
    [
        "from entrykit.config import load_config\nload_config()",
        _command("fmt", "--check", ENTRY),
        _command("render", ENTRY),
    ],
    ids=["config", "fmt", "render"],
)
def test_commands_that_run_no_rule_do_not_import_them(code: str) -> None:
    modules = _modules(code)
    assert "entrykit.config" in modules
    assert _of_rule_stack(modules) == []


def test_lint_imports_the_rules_it_runs() -> None:
    """The probe sees the rule stack where it is used (so the test above can fail)."""
    modules = _modules(_command("lint", "--no-cache", ENTRY))
    assert {"entrykit.rules.regex", "entrykit.lint.engine", "entrykit.similarity.near_duplicates"} <= set(
        _of_rule_stack(modules)
    )
    # A valid entry is checked without jsonschema (tests/test_schema_dates.py); an invalid one needs it.
    assert "entrykit.authoring.formatter" not in modules
    assert not [m for m in modules if m.startswith("ruamel")], "only --fix needs the round-trip editor"
