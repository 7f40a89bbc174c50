"""Help at the point of error: "did you mean", the schema for editors, shell completion."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit.cli import ExitCode, cli
from entrykit.config import from_table
from entrykit.errors import ConfigError
from entrykit.spelling import closest

from .conftest import REPO, lint_corpus

ENTRY = """\
id: test/case
signature: boom
regex: boom
domain: test
category: config_error
root_cause: because
dead_ends:
  - action: Retry
    why_fails: Same input.
    fail_rate: 0.9
    condtion: always
workarounds: []
firstseen: "2024-01-01"
first_seen: "2024-01-01"
last_confirmed: "2024-06-01"
colour: blue
"""


def test_unknown_entry_keys_name_the_key_they_most_likely_mean(tmp_path: Path) -> None:
    result = lint_corpus(tmp_path, {"test/case.yaml": ENTRY}, {"select": ["ET101"]})
    messages = {(d.line, d.message) for d in result.diagnostics}
    assert messages == {
        (11, "unknown key `condtion`; did you mean `condition`?"),  # within a dead end: its keys
        (13, "unknown key `firstseen`; did you mean `first_seen`?"),
        (16, "unknown key `colour`"),  # nothing close: no guess
    }


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"max-file-byte": 1}, "unknown key `tool.entrykit.max-file-byte`; did you mean `max-file-bytes`?"),
        ({"per_file_ignore": {}}, "unknown key `tool.entrykit.per_file_ignore`; did you mean `per_file_ignores`?"),
        ({"translations": {}}, "unknown key `tool.entrykit.translations`; did you mean `translation`?"),
        ({"regex": {"timout_ms": 5}}, "unknown key `tool.entrykit.regex.timout_ms`; did you mean `timeout_ms`?"),
        ({"colour": "red"}, "unknown key `tool.entrykit.colour`"),
    ],
)
def test_unknown_config_keys_name_the_key_they_most_likely_mean(table: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        from_table(table, Path("."))
    assert str(raised.value) == message


def test_closest_ignores_case_and_separators_and_is_stable() -> None:
    assert closest("First-Seen", ["first_seen", "last_seen"]) == "first_seen"
    assert closest("tag", ["tags", "tag_"]) == closest("tag", ["tag_", "tags"])
    assert closest("zzz", ["first_seen"]) is None


# --- the schema for editors ------------------------------------------------------


def test_schema_prints_the_schema_lint_uses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["schema"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN
    assert result.output == (REPO / "schema" / "entry.schema.json").read_text(encoding="utf-8")


def test_schema_output_writes_the_file_and_a_configured_schema_wins(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    own = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "ours", "type": "object"}
    (tmp_path / "own.json").write_text(json.dumps(own), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nschema = "own.json"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["schema", "--output", "schema/entry.schema.json"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN and "wrote schema/entry.schema.json" in result.output
    assert json.loads((tmp_path / "schema" / "entry.schema.json").read_text(encoding="utf-8")) == own
    assert [p.name for p in (tmp_path / "schema").iterdir()] == ["entry.schema.json"]  # no temp file left


def test_schema_output_into_a_file_it_cannot_write_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "blocked").write_text("a file, not a folder", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["schema", "--output", "blocked/entry.schema.json"])
    assert result.exit_code == ExitCode.ERROR
    assert result.output.startswith("entrykit: error: cannot write") and result.output.count("\n") == 1


# --- shell completion --------------------------------------------------------------


def _entrykit() -> str:
    script = Path(sys.executable).parent / "entrykit"
    if not script.is_file():
        pytest.skip("no entrykit script beside the interpreter")
    return str(script)


def test_completion_script_is_produced_for_each_shell(tmp_path: Path) -> None:
    for shell, needle in (("bash", "complete -o nosort -F _entrykit_completion entrykit"),
                          ("zsh", "compdef _entrykit_completion entrykit"), ("fish", "complete --no-files --command entrykit")):
        env = {**os.environ, "_ENTRYKIT_COMPLETE": f"{shell}_source"}
        out = subprocess.run([_entrykit()], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
        assert out.returncode == 0 and needle in out.stdout, (shell, out.stdout, out.stderr)


def test_bash_completes_commands_and_choices_with_the_documented_script(tmp_path: Path) -> None:
    """What the README tells users to put in ~/.bashrc, run in a real bash."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    script = (
        'eval "$(_ENTRYKIT_COMPLETE=bash_source entrykit)"\n'
        'COMP_WORDS=(entrykit sch); COMP_CWORD=1; _entrykit_completion entrykit; echo "${COMPREPLY[*]}"\n'
        'COMPREPLY=(); COMP_WORDS=(entrykit lint --format s); COMP_CWORD=3; _entrykit_completion entrykit; echo "${COMPREPLY[*]}"\n'
    )
    env = {**os.environ, "PATH": f"{Path(_entrykit()).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = subprocess.run([bash, "--norc", "--noprofile", "-c", script], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.stdout.splitlines() == ["schema", "sarif"], out.stderr
