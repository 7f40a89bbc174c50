"""A project's schema that could hang or crash a run is a configuration error: a `pattern`
that could backtrack, refused before any entry is read (jsonschema runs schema patterns with
`re`, without a time limit, on entries' text), and `$ref`s that loop."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from click.testing import Result as CliRunnerResult

from entrykit.cli import ExitCode, cli
from entrykit.lint.engine import SCHEMA_REGEXES_LIMIT
from entrykit.regex.redos import slow_search
from entrykit.schema import load_schema, regexes
from entrykit.schema_keywords import REGEX_FORMAT_ERRORS, regex_format

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


def _regex_format_project(tmp_path: Path, values: dict[str, str]) -> list[tuple[str, str]]:
    schema = json.loads((REPO / "schema" / "entry.schema.json").read_text(encoding="utf-8"))
    schema["properties"]["error_code"]["format"] = "regex"
    (tmp_path / "schema.json").write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "entries" / "python").mkdir(parents=True)
    for name, value in values.items():
        text = f"id: python/{name}\nsignature: x\nconfidence: 7\nerror_code: {json.dumps(value, ensure_ascii=False)}\n"
        (tmp_path / "entries" / "python" / f"{name}.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "entrykit.toml").write_text('root = "entries"\nschema = "schema.json"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["lint", "--no-cache", "--format", "json"])
    return [(Path(d["path"]).stem, d["message"]) for d in json.loads(result.output) if d["code"] == "ET101" and "error_code" in d["message"]]


def test_a_regex_format_reads_what_is_slow_to_compile_without_compiling_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """jsonschema's `regex` format compiles the entry's string in-process, without a budget:
    a 20 KB string of `(?i)[\\u0100-\\U0010ffff]` classes took 12 s to lint."""
    import re._compiler as sre_compiler  # (what `re.compile` calls for a pattern not cached)

    wide = "(?i)" + "[\u0100-\U0010ffff]" * 40
    compiled: list[object] = []
    real = sre_compiler.compile

    def recorded(p: object, flags: int = 0) -> object:
        compiled.append(p)
        return real(p, flags)

    monkeypatch.setattr(sre_compiler, "compile", recorded)
    monkeypatch.chdir(tmp_path)
    found = _regex_format_project(tmp_path, {"wide": wide, "broken": "a(b", "plain": "a+b", "wide-broken": wide + "("})
    assert sorted(found)[0] == ("broken", "`error_code` is `a(b`, not a valid regex")
    assert [name for name, message in sorted(found) if message.endswith(", not a valid regex")] == ["broken", "wide-broken"]
    assert wide not in compiled  # (jsonschema had `re.compile` it)


_WIDE = "(?i)" + "[\u0100-\U0010ffff]" * 5


@pytest.mark.parametrize(
    "pattern", ["a+", "a(b", "(?<=a+)b", "[z-a]", "\\p{L}", "x{2,1}", _WIDE + "x", _WIDE + "(", _WIDE + "[", "(?P<n>a)(?P<n>b)"]
)
def test_a_string_is_a_regex_where_re_compiles_it(pattern: str) -> None:
    try:
        re.compile(pattern)
        compiles = True
    except re.error:
        compiles = False
    try:
        read = regex_format(pattern)
    except REGEX_FORMAT_ERRORS:
        read = False
    assert read == compiles

