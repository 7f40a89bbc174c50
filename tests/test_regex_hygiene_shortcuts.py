"""ET211-ET213's checks skip their walk of the regex where its text shows there is nothing to
find (no spelling of a literal backslash, no `^` or `$`, no dash): they find what the plain walks
find."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import hygiene, syntax
from tests.pattern_strategies import joined_patterns
from tests.test_regex_parse_once import FLAGS, TRICKY

from .conftest import generated_regexes

WORDS = ["error", "a", "s", "d", "", "K", "ß", r"\.", r"\d", r"\\", "-", "^", "$", "]"]
JOINERS = [
    "", " ", ".*", "|", "(", ")", "(?:", "(?m)", "(?m:", "(?-m:", "[", "]", "[^", "[a-z]", "[A-z]", "[+-.]", "-",
    r"\\", r"\\s", r"\x5c", r"\x5cd", r"\u005cw", r"\U0000005cb", r"\N{REVERSE SOLIDUS}", r"\134", r"\0134S", r"[\\]",
    r"[\x5c]d", "^", "$", r"\A", r"\Z", r"\b", "+", "?", "{2}", r"\-", "[-a]", "[a-]",
]  # fmt: skip
PATTERNS = joined_patterns(WORDS, JOINERS, 8)


def _check(pattern: str, flags: int) -> None:
    try:
        parsed = syntax.parse(pattern, flags)
    except Exception:
        return
    assert hygiene.double_escaped_shorthands(parsed) == hygiene._double_escaped_shorthands_walked(parsed), pattern
    assert hygiene.line_anchors(parsed) == hygiene._line_anchors_walked(parsed), pattern
    assert hygiene.obscure_ranges(parsed) == hygiene._obscure_ranges_walked(parsed), pattern


@pytest.mark.parametrize("flags", FLAGS)
def test_tricky_patterns(flags: int) -> None:
    for pattern in [*TRICKY, r"a\\sb", r"x\x5cd", r"[\\]w", r"\134S", r"^a$", "(?m)^a$", "[A-z]", "[+-.]", "a-b"]:
        _check(pattern, flags)


def test_the_checks_still_find() -> None:
    assert hygiene.double_escaped_shorthands(syntax.parse(r"a\x5cd \\s")) == ["\\d", "\\s"]
    assert hygiene.line_anchors(syntax.parse("^a|b$")) == ["^", "$"]
    assert hygiene.obscure_ranges(syntax.parse("[A-z]")) == ["A-z"]


@settings(max_examples=500, deadline=None)
@given(pattern=PATTERNS, flags=st.sampled_from(FLAGS))
def test_generated_patterns(pattern: str, flags: int) -> None:
    _check(pattern, flags)


def test_deadends_regexes(deadends_regexes: list[str]) -> None:
    patterns = deadends_regexes
    assert len(patterns) > 1000
    for pattern in patterns:
        _check(pattern, re.IGNORECASE)


@pytest.mark.parametrize("style", ["template", "mixed"])
def test_generated_corpus_regexes(style: str) -> None:
    for pattern in generated_regexes(style):
        _check(pattern, 0)
