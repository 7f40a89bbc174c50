"""entrykit's own regexes stay linear on hostile text: every module-level pattern of the
package either searches in linear time by entrykit's own analysis (`redos.slow_search`) or is
listed here with why the way it is used bounds its cost; the two that hung on a stranger's
entry (a version spec, a baseline of a long id) read what they read before, and go through."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

import entrykit
from entrykit.cli import cli
from entrykit.lint import baseline
from entrykit.regex.redos import slow_search
from entrykit.versions import specifiers

from .conftest import lint_corpus, write_corpus
from .hostile import entry_text

# Patterns `slow_search` calls super-linear in a search, and why each use of them is not.
SUPER_LINEAR_BUT_BOUNDED = {
    "entrykit.authoring.importers.deadends.UPSTREAM_ID": "fullmatch only; its `/`s end each run, read once",
    "entrykit.authoring.importers.markdown._SIGNATURE_LABEL": "match on one page line (no line break: `$` never fails after `(.*)`)",
    "entrykit.authoring.scaffold._EXCEPTION": "its lookbehind starts a search only at a word's start; the word is read once",
    "entrykit.journal._ID": "fullmatch of 16 characters",
    "entrykit.lint.baseline._LIST_POSITION": "its lookbehind starts a search only after a `/`; the digits are read once",
    "entrykit.message_tokens._BEFORE_VALUE": "searched only in the 64 characters before a word (`_metavariable`)",
    "entrykit.message_tokens._IPV4": "fullmatch of counted repeats: at most 21 characters read",
    "entrykit.message_tokens._PLURAL_ACRONYM": "fullmatch of one word; its `s` cannot be part of the run before it",
    "entrykit.message_tokens._PLURAL_NAME": "fullmatch of one word; its `s` cannot be part of the run before it",
    "entrykit.message_tokens._QUOTES": "a quote closed by another character is searched by `_QuotedSearch` (linear)",
    "entrykit.parsing._JSON_STRING": "match at one quote at a time by `json_brackets`, which stops at the first that fails",
    "entrykit.paths.ID_PATTERN": "fullmatch only; a segment's separators end each run, read once",
    "entrykit.regex.suggest._UUID": "fullmatch of counted repeats: at most 37 characters read",
    "entrykit.translation.translated_fields._ASCII_WORD": "its lookbehind starts a search only at a word's start",
    "entrykit.versions.package_names._DATE": "match at the start of counted repeats: at most 11 characters read",
    "entrykit.versions.package_names._DATE_LIKE": "match at the start of counted repeats: at most 11 characters read",
    "entrykit.versions.specifiers._ANY_SPEC": "match at the start only; its blanks are read once",
    "entrykit.versions.specifiers._RELEASE": "match at the start only; its `.`s end each run of digits",
    "entrykit.versions.specifiers._WILDCARD": "match at the start only; the lazy prefix tries `.x` once a character",
    "entrykit.versions.specifiers._WORD": "match at the start only; its `/` ends the scope's run",
}

# The patterns these replaced, for the comparisons below.
_OLD_ENTRY_PATH = re.compile(r"[^\s`'\"(),;]*\.(?:ya?ml|json)(?![\w.])")
_OLD_CLAUSE = re.compile(
    r"\s*(?P<op>" + "|".join(re.escape(o) for o in specifiers._OPERATORS) + r")?\s*(?P<token>[^\s,<>=!~^]+)\s*"
)
# An entry's 100 KB: the old patterns took minutes on it (quadratic), the new ones read it at once.
_HOSTILE_LENGTH = 100_000


def _module_patterns() -> dict[tuple[str, int], set[str]]:
    """Each module-level compiled text pattern of the package -> the names it is known by."""
    found: dict[tuple[str, int], set[str]] = {}
    for module_info in pkgutil.walk_packages(entrykit.__path__, "entrykit."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for attribute, value in vars(module).items():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                found.setdefault((value.pattern, value.flags), set()).add(f"{module_info.name}.{attribute}")
    return found


@pytest.fixture(scope="module")
def module_patterns() -> dict[tuple[str, int], set[str]]:
    return _module_patterns()


def test_every_module_pattern_is_linear_or_listed_with_a_reason(module_patterns: dict[tuple[str, int], set[str]]) -> None:
    unlisted = {
        min(names): verdict
        for (pattern, flags), names in module_patterns.items()
        if not names & SUPER_LINEAR_BUT_BOUNDED.keys() and (verdict := slow_search(pattern, flags)) is not None
    }
    assert unlisted == {}


def test_every_listed_pattern_exists_and_still_needs_its_reason(module_patterns: dict[tuple[str, int], set[str]]) -> None:
    flagged = {name for key, names in module_patterns.items() if slow_search(*key) is not None for name in names}
    assert set(SUPER_LINEAR_BUT_BOUNDED) - flagged == set()


def _same_match(found: re.Match[str] | None, plain: re.Match[str] | None) -> bool:
    if found is None or plain is None:
        return found is plain
    return (found.span(), found.groupdict()) == (plain.span(), plain.groupdict())


_SPEC_TEXTS = st.lists(st.sampled_from([" ", "\t", "\n", "<", ">", "=", "!", "~", "^", "a", "1", ".", "*", "+", "x"]), max_size=20).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_SPEC_TEXTS)
@example(" >= 1.0 ")
@example("  !")
@example("== ~1")
@example(">=  =1")
def test_a_clause_reads_as_before_from_every_position(text: str) -> None:
    for position in range(len(text) + 1):
        assert _same_match(specifiers._CLAUSE.match(text, position), _OLD_CLAUSE.match(text, position)), position


_MESSAGE_TEXTS = st.lists(
    st.sampled_from([".yaml", ".yml", ".json", ".ya", "a", "x.", "/", "_", "-", " ", "\n", "`", "'", '"', "(", ")", ",", ";", "é", ".", "!"]),
    max_size=16,
).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_MESSAGE_TEXTS)
@example("id `a/b` belongs in `a/b.yaml`, not in `git/x.yaml`")
@example("x.yaml.json/y.yml z.jsonx ../a.yaml")
@example("a.yaml/b.json!c.yml_")
def test_paths_leave_a_message_as_before(message: str) -> None:
    assert baseline._entry_paths_left_out(message) == _OLD_ENTRY_PATH.sub("\0", message)


def test_a_spec_of_a_long_blank_clause_is_an_et401(tmp_path: Path) -> None:
    spec = "pip>=1.0," + " " * _HOSTILE_LENGTH + "!"
    entry = entry_text("pip/x", versions=[{"version": spec}])
    result = lint_corpus(tmp_path, {"pip/x.yaml": entry})
    messages = [d.message for d in result.diagnostics if d.code == "ET401"]
    assert len(messages) == 1 and "cannot read `!`" in messages[0]


def test_a_baseline_holds_the_findings_on_an_entry_with_a_long_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_corpus(tmp_path, {"pip/x.yaml": entry_text("pip/" + "a" * _HOSTILE_LENGTH)})
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    lint = ["lint", "--today", "2026-11-30", "--format", "json"]
    runner = CliRunner()
    assert runner.invoke(cli, [*lint, "--write-baseline", "baseline.json"], catch_exceptions=False).exit_code == 0
    found = json.loads(runner.invoke(cli, lint, catch_exceptions=False).stdout)
    assert any("a" * _HOSTILE_LENGTH in d["message"] for d in found)  # (the message names the id)
    against = runner.invoke(cli, [*lint, "--baseline", "baseline.json"], catch_exceptions=False)
    assert (against.exit_code, json.loads(against.stdout)) == (0, [])
