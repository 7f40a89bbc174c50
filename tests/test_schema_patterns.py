"""A project's schema that could hang or crash a run is a configuration error: a `pattern`
that could backtrack, refused before any entry is read (jsonschema runs schema patterns with
`re`, without a time limit, on entries' text), and `$ref`s that loop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from click.testing import Result as CliRunnerResult

from entrykit.cli import ExitCode, cli
from entrykit.lint.engine import SCHEMA_REGEXES_LIMIT
from entrykit.regex.redos import slow_search
from entrykit.schema import load_schema, regexes

from .conftest import REPO


@pytest.mark.parametrize(
    ("pattern", "said"),
    [
        ("^(a+)+$", "backtracks exponentially"),
        ("x.*y", "polynomially, degree 2"),
        ("(\\w+\\s?)*:", "backtracks"),
        # counted repeats: as slow as unbounded ones on texts a little longer than their bounds
        ("^(a{1,30}){1,30}$", "may backtrack exponentially where its counted repeats run long"),
        ("^(a?){30}a{30}$", "where its counted repeats run long"),
    ],
)
def test_a_schema_pattern_that_could_backtrack_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pattern: str, said: str
) -> None:
    schema = json.loads((REPO / "schema" / "entry.schema.json").read_text(encoding="utf-8"))
    schema["properties"]["id"]["pattern"] = pattern
    (tmp_path / "schema.json").write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "entries" / "python").mkdir(parents=True)
    # an id the pattern would take exponential time to reject, were it run
    (tmp_path / "entries" / "python" / "a.yaml").write_text(f'id: "{"a" * 40}!"\nsignature: x\n', encoding="utf-8")
    (tmp_path / "entrykit.toml").write_text('root = "entries"\nschema = "schema.json"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", "--no-cache"])
    assert result.exit_code == ExitCode.ERROR
    assert f"pattern `{pattern}` may not run on entries' text" in result.output and said in result.output


def test_every_pattern_of_the_bundled_schema_runs_in_linear_time() -> None:
    patterns = sorted(set(regexes(load_schema(None))))
    assert patterns and [p for p in patterns if slow_search(p) is not None] == []


def test_a_schema_whose_refs_loop_is_a_configuration_error_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = json.loads((REPO / "schema" / "entry.schema.json").read_text(encoding="utf-8"))
    schema.setdefault("$defs", {}).update({"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}})
    schema["properties"]["id"] = {"$ref": "#/$defs/a"}
    (tmp_path / "schema.json").write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "entries" / "python").mkdir(parents=True)
    (tmp_path / "entries" / "python" / "x.yaml").write_text("id: python/x\nsignature: x\n", encoding="utf-8")
    (tmp_path / "entrykit.toml").write_text('root = "entries"\nschema = "schema.json"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", "--no-cache"])
    assert result.exit_code == ExitCode.ERROR
    assert "recursed past Python's limit" in result.output and "crashed" not in result.output


@pytest.mark.parametrize("pattern", ["^[0-9a-f]{8}$", "^(ab){2,5}$", "^[a-z]{3,8}-[0-9]{1,4}$", "^ERROR.*$", "error"])
def test_patterns_that_run_in_linear_time_are_taken(pattern: str) -> None:
    assert slow_search(pattern) is None


def _with_pattern_keys(tmp_path: Path, count: int) -> CliRunnerResult:
    schema = json.loads((REPO / "schema" / "entry.schema.json").read_text(encoding="utf-8"))
    held = len(set(regexes(schema)))
    schema["patternProperties"].update({f"^x{i}_[a-z]+$": {"type": "string"} for i in range(count - held)})
    name = f"schema-{count}.json"  # (a schema is read once per path and process)
    (tmp_path / name).write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "entries" / "python").mkdir(parents=True, exist_ok=True)
    (tmp_path / "entries" / "python" / "x.yaml").write_text("id: python/x\nsignature: x\nx1_a: 1\n", encoding="utf-8")
    (tmp_path / "entrykit.toml").write_text(f'root = "entries"\nschema = "{name}"\n', encoding="utf-8")
    return CliRunner().invoke(cli, ["lint", "--no-cache"])


def test_a_schema_of_more_regexes_than_entrykit_runs_is_refused_before_it_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """jsonschema tries each `patternProperties` key on every key of an entry: a schema of
    50,000 of them took 35 s to lint one entry of 200 keys."""
    monkeypatch.chdir(tmp_path)
    at_limit = _with_pattern_keys(tmp_path, SCHEMA_REGEXES_LIMIT)
    assert at_limit.exit_code == ExitCode.FINDINGS and "x1_a" in at_limit.output  # (`1` is no string)
    checked: list[object] = []
    monkeypatch.setattr("jsonschema.Draft202012Validator.check_schema", lambda schema: checked.append(schema))
    over = _with_pattern_keys(tmp_path, SCHEMA_REGEXES_LIMIT + 1)
    assert over.exit_code == ExitCode.ERROR and checked == []
    assert f"holds {SCHEMA_REGEXES_LIMIT + 1:,} regexes (`pattern` values and `patternProperties` keys), more than the {SCHEMA_REGEXES_LIMIT:,}" in over.output
