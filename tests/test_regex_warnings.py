"""What `re`'s parser warns of is kept by the regex reader (ET219), never shown or raised."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from entrykit.regex import syntax
from entrykit.regex.compiling import compile_error, compile_pattern

from .conftest import REPO, lint_corpus

NESTED = "unexpected token [[{(] at line \\d+"
UNION = "pipe [|||] found, [[] too"


def _lint(folder: Path, python_options: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    """`entrykit lint --no-cache ARGS` in `folder`, run by a Python given `python_options`."""
    return subprocess.run(
        [sys.executable, *python_options, "-m", "entrykit", "lint", "--no-cache", *args],
        cwd=folder, capture_output=True, text=True, timeout=300,
        env={**os.environ, "GITHUB_ACTIONS": "", "NO_COLOR": "1"},
    )


@pytest.fixture(autouse=True)
def _fresh_reader() -> Iterator[None]:
    # (and a fresh compiler: a pattern another test in this process compiled is not compiled again)
    syntax.clear_memo()
    compile_pattern.cache_clear()
    yield
    syntax.clear_memo()
    compile_pattern.cache_clear()


def test_warnings_are_kept_and_neither_shown_nor_raised_under_any_filter() -> None:
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("error")  # `python -W error`: a warning that got out would raise
        before = list(warnings.filters)
        parsed = syntax.parse(UNION, 0)
        assert warnings.filters == before
    assert shown == []
    assert parsed.warned == (
        syntax.ReWarning(True, "Possible set union at position 7"),
        syntax.ReWarning(True, "Possible nested set at position 19"),
    )
    assert syntax.parse("pipe [|] found, [\\[] too --force && x", 0).warned == ()


def test_the_warnings_go_with_the_tree_from_the_compiler_to_the_records() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compile_error(NESTED) is None  # compiled first: the records take its tree
        assert (NESTED, 0) in syntax._HANDOFF.trees
        parsed = syntax.parse(NESTED, 0)
    assert (NESTED, 0) not in syntax._HANDOFF.trees
    assert parsed.warned == (syntax.ReWarning(True, "Possible nested set at position 18"),)


def test_a_pattern_keeps_its_first_warnings_only(tmp_path: Path) -> None:
    parsed = syntax.parse("[a&&b]" * 1000, 0)
    assert len(parsed.warned) == syntax.KEPT_WARNINGS
    assert parsed.warned[0].message == "Possible set intersection at position 2"
    entry = f"id: test/case\nsignature: \"a\"\nregex: '{'[a&&b]' * 1000}'\n"
    found = [d for d in lint_corpus(tmp_path, {"test/case.yaml": entry}).diagnostics if d.code == "ET219"]
    assert [d.message for d in found] == [
        "`re` warns: Possible set intersection at position 2 (and at least 15 more); "
        "a later Python may read it as a nested set or a set operation"
    ]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 refuses the pattern")
def test_a_deprecation_is_reported_as_refused_later(tmp_path: Path) -> None:
    pattern = "(err)?(?(\u0661)or|x)"
    assert syntax.parse(pattern, 0).warned == (
        syntax.ReWarning(False, "bad character in group name '\u0661' at position 9"),
    )
    entry = f"id: test/case\nsignature: \"error\"\nregex: '{pattern}'\n"
    found = [d for d in lint_corpus(tmp_path, {"test/case.yaml": entry}).diagnostics if d.code == "ET219"]
    assert [d.message for d in found] == [
        "`re` warns: bad character in group name '\u0661' at position 9; Python 3.12 and later refuse it"
    ]


@pytest.mark.parametrize("options", [[], ["-W", "error"]])
def test_lint_shows_a_finding_not_python_s_warning(tmp_path: Path, options: list[str]) -> None:
    folder = tmp_path / "entries" / "test"
    folder.mkdir(parents=True)
    (folder / "case.yaml").write_text(
        f"id: test/case\nsignature: \"pipe | found, [ too\"\nregex: '{UNION}'\n", encoding="utf-8"
    )
    done = _lint(tmp_path, options, "--select", "ET219", "entries")
    assert done.stdout.splitlines()[0] == (
        "entries/test/case.yaml:3:8: ET219 [warning] `re` warns: Possible set union at position 7 (and 1 more); "
        "a later Python may read it as a nested set or a set operation"
    )
    assert done.returncode == 0 and done.stderr == ""  # (a warning does not fail the lint)


def test_a_configured_schema_s_patterns_print_no_warning_nor_crash(tmp_path: Path) -> None:
    schema = json.loads((REPO / "schema" / "entry.schema.json").read_text(encoding="utf-8"))
    schema["properties"]["id"]["pattern"] = "^[[a-z]+/[a-z-]+$"  # jsonschema compiles and searches it
    (tmp_path / "nested.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "entrykit.toml").write_text('root = "entries"\nschema = "nested.schema.json"\n', encoding="utf-8")
    folder = tmp_path / "entries" / "py"
    folder.mkdir(parents=True)
    (folder / "x.yaml").write_text('id: py/x\nsignature: "boom"\nregex: "boom"\n', encoding="utf-8")
    done = _lint(tmp_path, ["-W", "error"], "--select", "ET101")
    assert done.returncode == 1 and done.stderr == ""
    assert "entries/py/x.yaml:1:1: ET101 [error] required field `category` is missing" in done.stdout.splitlines()
