"""A regex both compiled and analysed is parsed once: `syntax.compiled` equals `re.compile`,
and the records `syntax.parse` makes are the same whichever of the two parsed first."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import compiling, syntax
from tests.pattern_strategies import joined_patterns

FLAGS = [0, re.IGNORECASE, re.IGNORECASE | re.MULTILINE | re.DOTALL, re.ASCII, re.VERBOSE]

TRICKY = [
    "ab", "a|b", "(?P<name>x)(?P=name)", "(a)(b)?(?(2)c|d)", r"(?i)KeyError: '\w+'", "(?i:x)y",
    "a*+b++c?+", "(?>ab|a)c", r"(?<=x)y(?<!z)", r"[^\W\d_]+", "[Ā-￠]", r"\bword\b", "^$",
    "(?x) a b  # comment", r"\N{LATIN SMALL LETTER A}", "ſ|K|ı", "(((a)))", "a{2,5}?",
    "bad (regex", "a**", "(?P<1>x)", "(?<=a+)b", r"\1(a)", "x{99999999999}",
]  # fmt: skip


def _outcome(make: Callable[..., Any], pattern: str, flags: int) -> Any:
    try:
        return make(pattern, flags)
    except Exception as exc:  # a pattern that does not compile: the same error, the same words
        return (type(exc), str(exc))


@pytest.mark.parametrize("flags", FLAGS)
def test_compiled_equals_re_compile(fresh: None, flags: int) -> None:
    for pattern in TRICKY:
        ours = _outcome(syntax.compiled, pattern, flags)
        assert ours == _outcome(re.compile, pattern, flags), pattern
        if isinstance(ours, re.Pattern):  # equal patterns: the same text, flags, groups and code
            assert ours.pattern == pattern and ours.groupindex == re.compile(pattern, flags).groupindex
            with pytest.raises(TypeError):  # a text pattern, as re's: bytes are refused
                ours.search(b"ab")  # type: ignore[call-overload]


@pytest.mark.parametrize("first", ["compile", "parse"])
@pytest.mark.parametrize("flags", FLAGS)
def test_the_records_are_the_same_whichever_reader_parses_first(fresh: None, first: str, flags: int) -> None:
    alone = {}
    for pattern in TRICKY:
        alone[pattern] = _outcome(syntax.parse, pattern, flags)
    syntax.clear_memo()
    for pattern in TRICKY:
        if first == "compile":
            _outcome(syntax.compiled, pattern, flags)
            assert _outcome(syntax.parse, pattern, flags) == alone[pattern], pattern
        else:
            assert _outcome(syntax.parse, pattern, flags) == alone[pattern], pattern
            assert _outcome(syntax.compiled, pattern, flags) == _outcome(re.compile, pattern, flags)


WORDS = ["error", "Error", "a", "ß", "İ", "中文", "x_1", "", "K"]
JOINERS = ["", " ", ".*", r"\s+", "|", "?", "[a-z]", "(?:", ")", "(", "(?P<g>", "{1,3}", r"\w+", "(?i)"]
PATTERNS = joined_patterns(WORDS, JOINERS, 6)


@settings(max_examples=300, deadline=None)
@given(pattern=PATTERNS, flags=st.sampled_from(FLAGS), first=st.booleans())
def test_generated_patterns_compile_and_parse_as_alone(pattern: str, flags: int, first: bool) -> None:
    syntax.clear_memo()
    alone = _outcome(syntax.parse, pattern, flags)
    syntax.clear_memo()
    if first:
        compiled = _outcome(syntax.compiled, pattern, flags)
        parsed = _outcome(syntax.parse, pattern, flags)
    else:
        parsed = _outcome(syntax.parse, pattern, flags)
        compiled = _outcome(syntax.compiled, pattern, flags)
    assert parsed == alone
    assert compiled == _outcome(re.compile, pattern, flags)
    syntax.clear_memo()


def test_a_pattern_compiled_and_analysed_is_read_once_by_either_reader(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    parse, quick = syntax._p.parse, syntax._quick_tree

    def counting(pattern: str, flags: int = 0) -> Any:
        calls.append(pattern)
        return parse(pattern, flags)

    def counting_quick(pattern: str, flags: int) -> Any:
        tree = quick(pattern, flags)
        if tree is not None:  # (None: the pattern is left to re's parser, counted there)
            calls.append(pattern)
        return tree

    monkeypatch.setattr(syntax._p, "parse", counting)
    monkeypatch.setattr(syntax, "_quick_tree", counting_quick)
    for number in range(100):  # more than the hand-off holds: each is taken while it is there
        pattern = f"(?P<n>entry {number}) (x|y)+"
        compiling.compile_pattern(pattern, re.IGNORECASE)
        syntax.parse(pattern, re.IGNORECASE)
        syntax.parse(f"analysed first {number}", 0)
        compiling.compile_pattern(f"analysed first {number}", 0)
    assert len(calls) == 200 and len(set(calls)) == 200


def test_the_hand_off_stays_within_its_bounds(fresh: None) -> None:
    for number in range(3 * syntax.HANDOFF_ENTRIES):
        syntax.parse(f"only analysed {number}")  # never compiled: its tree is never taken
        assert len(syntax._HANDOFF.trees) <= syntax.HANDOFF_ENTRIES
    syntax.clear_memo()
    long = "z" * (syntax.HANDOFF_LONGEST + 1)
    syntax.parse(long)
    assert (long, 0) not in syntax._HANDOFF.trees


def test_deadends_regexes_compile_as_re_compiles_them(deadends_regexes: list[str], fresh: None) -> None:
    patterns = deadends_regexes
    assert len(patterns) > 1000
    for flags in (0, re.IGNORECASE):
        alone = {p: _outcome(syntax.parse, p, flags) for p in patterns}
        syntax.clear_memo()
        for pattern in patterns:
            assert _outcome(syntax.compiled, pattern, flags) == _outcome(re.compile, pattern, flags)
            assert _outcome(syntax.parse, pattern, flags) == alone[pattern]
        syntax.clear_memo()
