"""entrykit's own regexes stay linear on hostile text: every pattern of the package either
searches in linear time by entrykit's own analysis (`redos.slow_search`) or is listed here with
why the way it is used bounds its cost. The patterns are those bound to a module-level name,
those held up to three levels inside a module's tuples, lists, dicts and the package's objects
(`entrykit.message_tokens._GRAMMAR[3].regex`), and the literal patterns of `re` calls in the
package's functions (`entrykit.cli.new._is_date#0`, the first in `_is_date`). The two that hung
on a stranger's entry (a version spec, a baseline of a long id) read what they read before, and
go through."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import json
import pkgutil
import re
from collections.abc import Iterator
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
    # The message-token grammar: `scan` searches each pattern from where the last token ended.
    "entrykit.message_tokens._GRAMMAR[2].regex": (
        "its lookbehind starts a search only where a run of the address's characters starts (after `@` at most):"
        " each run is read once as a name and once as a host"
    ),
    "entrykit.message_tokens._GRAMMAR[4].regex": "counted repeats after its lookbehind: at most 36 characters read from each start",
    "entrykit.message_tokens._GRAMMAR[5].regex": (
        "its lookbehind starts a search only where a run of path characters starts; the run is read once: past its first"
        " character the match cannot fail"
    ),
    "entrykit.message_tokens._GRAMMAR[13].regex": (
        "its lookbehinds start items only after `[` or `(`, which no item holds, and a size only at a digit no word"
        " character is before: no character is read by two starts of one kind"
    ),
    "entrykit.message_tokens._GRAMMAR[17].regex": "at most 32 groups of thousands read from each start: 131 characters",
    "entrykit.message_tokens._GRAMMAR[18].regex": "its lookbehind starts a search only where a dotted name starts; the name is read once",
    "entrykit.message_tokens._GRAMMAR[19].regex": "its `\\b(?<!\\.)` starts a search only where a dotted name starts; its runs are possessive",
    # Literal patterns of `re` calls in functions.
    "entrykit.authoring.render.rate_from#0": "fullmatch only; its `.` ends the run of digits, read once",
    "entrykit.cli.new._add_translation_options#0": "fullmatch only; its `_`s end each run, read once",
    "entrykit.cli.new._is_date#0": "fullmatch of counted repeats: at most 11 characters read",
}

# The patterns these replaced, for the comparisons below.
_OLD_ENTRY_PATH = re.compile(r"[^\s`'\"(),;]*\.(?:ya?ml|json)(?![\w.])")
_OLD_CLAUSE = re.compile(
    r"\s*(?P<op>" + "|".join(re.escape(o) for o in specifiers._OPERATORS) + r")?\s*(?P<token>[^\s,<>=!~^]+)\s*"
)
# An entry's 100 KB: the old patterns took minutes on it (quadratic), the new ones read it at once.
_HOSTILE_LENGTH = 100_000


# How far inside a module's containers and the package's objects patterns are looked for:
# `_IMPLICIT['1'][0][1]` of `entrykit.parsing` is three levels in.
_DEPTH = 3
_PACKAGE = Path(entrykit.__file__).parent
# The functions of `re` that take a pattern first, and where each takes its flags.
_FLAGS_AT = {"compile": 1, "search": 2, "match": 2, "fullmatch": 2, "findall": 2, "finditer": 2, "split": 3, "sub": 4, "subn": 4}


def _module_patterns() -> dict[tuple[str, int], set[str]]:
    """Each compiled text pattern of the package's modules (bound to a name, or held inside
    what is) and each literal pattern of its functions -> the names it is known by."""
    found: dict[tuple[str, int], set[str]] = {}
    for module_info in pkgutil.walk_packages(entrykit.__path__, "entrykit."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for attribute, value in vars(module).items():
            for name, pattern in _held(f"{module_info.name}.{attribute}", value, _DEPTH):
                found.setdefault((pattern.pattern, pattern.flags), set()).add(name)
    for name, pattern, flags in _literal_patterns():
        found.setdefault((pattern, flags), set()).add(name)
    return found


def _held(name: str, value: object, depth: int) -> Iterator[tuple[str, re.Pattern[str]]]:
    """The text patterns `value` is or holds, up to `depth` levels inside, each with its name."""
    if isinstance(value, re.Pattern):
        if isinstance(value.pattern, str):
            yield name, value
    elif depth > 0:
        for step, inner in _inside(value):
            yield from _held(name + step, inner, depth - 1)


def _inside(value: object) -> list[tuple[str, object]]:
    """What a tuple, list or dict holds, or the fields of an object of the package (a
    dataclass's, a named tuple's, or its `__dict__`), each with the step that names it."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return [(f".{field}", item) for field, item in zip(value._fields, value, strict=True)]
    if isinstance(value, (tuple, list)):
        return [(f"[{index}]", item) for index, item in enumerate(value)]
    if isinstance(value, dict):
        return [(f"[{key!r}]", item) for key, item in value.items()]
    if isinstance(value, type) or type(value).__module__.partition(".")[0] != "entrykit":
        return []  # (classes, functions and modules hold what other code made)
    if dataclasses.is_dataclass(value):
        return [(f".{field.name}", getattr(value, field.name)) for field in dataclasses.fields(value)]
    return [(f".{attribute}", item) for attribute, item in getattr(value, "__dict__", {}).items()]


def _literal_patterns() -> Iterator[tuple[str, str, int]]:
    """Each `re.<function>` call of the package's functions with a literal pattern: named by
    its module, function and place among those of the function (`module.function#0`), its
    pattern and flags."""
    for path in sorted(_PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(_PACKAGE.parent).with_suffix("").parts)
        yield from _LiteralCalls(module).found(ast.parse(path.read_text(encoding="utf-8")))


class _LiteralCalls(ast.NodeVisitor):
    """The literal patterns of `re` calls in the functions of one module's source."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.scope: list[str] = []
        self.functions = 0  # functions the scope is inside
        self.counts: dict[str, int] = {}
        self.calls: list[tuple[str, str, int]] = []

    def found(self, tree: ast.AST) -> list[tuple[str, str, int]]:
        """The calls `tree` holds, in the order of its source."""
        self.visit(tree)
        return self.calls

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        """Name what the class holds after it."""
        self._inside(node.name, node, function=False)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        """Name what the function holds after it."""
        self._inside(node.name, node, function=True)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        """Name what the function holds after it."""
        self._inside(node.name, node, function=True)

    def _inside(self, name: str, node: ast.AST, function: bool) -> None:
        self.scope.append(name)
        self.functions += function
        self.generic_visit(node)
        self.functions -= function
        self.scope.pop()

    def visit_Call(self, node: ast.Call) -> None:
        """Keep the call if it is `re.<function>("...")` inside a function."""
        func = node.func
        if (
            self.functions
            and isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "re"
            and func.attr in _FLAGS_AT
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            where = ".".join([self.module, *self.scope])
            index = self.counts.get(where, 0)
            self.counts[where] = index + 1
            self.calls.append((f"{where}#{index}", node.args[0].value, _flags(node, _FLAGS_AT[func.attr])))
        self.generic_visit(node)


def _flags(call: ast.Call, position: int) -> int:
    """The flags a call of `re` passes, at `position` or by keyword (0 without any)."""
    given = call.args[position] if len(call.args) > position else None
    given = next((k.value for k in call.keywords if k.arg == "flags"), given)
    return 0 if given is None else _flag_value(given)


def _flag_value(node: ast.expr) -> int:
    """The value of `re.X`, `re.X | re.Y` or a number, as the source writes it."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        return int(getattr(re, node.attr))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _flag_value(node.left) | _flag_value(node.right)
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    raise ValueError(f"flags this test cannot read: {ast.unparse(node)}")


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


def test_the_patterns_held_inside_and_written_in_functions_are_seen(module_patterns: dict[tuple[str, int], set[str]]) -> None:
    names = {name for names in module_patterns.values() for name in names}
    assert {"entrykit.message_tokens._GRAMMAR[3].regex", "entrykit.message_tokens._GRAMMAR[0].gate"} <= names
    assert "entrykit.parsing._IMPLICIT['1'][0][1]" in names and "entrykit.cli.new._is_date#0" in names
    assert ("[0-9a-f]+|[0-9A-F]+", 0) in module_patterns  # (`_accept_number`'s second)


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
