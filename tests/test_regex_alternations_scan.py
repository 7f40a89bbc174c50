"""`syntax._alternations` passes over the characters that change nothing in its scan (all but
`\\ [ ] ( ) |`): it finds the alternatives the scan of every character finds."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings

from entrykit.regex import syntax
from tests.pattern_strategies import joined_patterns
from tests.test_regex_parse_once import TRICKY

from .conftest import generated_regexes

WORDS = ["error", "a", "", "ß", "中文", r"\.", r"\|", r"\(", r"\)", r"\[", r"\]", "\\", "]", "^"]
JOINERS = [
    "", " ", "|", "||", "(", ")", "(?:", "(?P<g>", "(?i)", "(?#c)", "(?=", "(?(1)", "[", "]", "[^", "[]", "[^]", "[(|)]",
    r"[\]|]", ".*", "+", "?", "{2}", "\\", r"\\",
]  # fmt: skip
PATTERNS = joined_patterns(WORDS, JOINERS, 10)


# every character a structural one: the scan reads each, as it did before it passed over
# the characters that change nothing
_EVERY_CHARACTER = re.compile(r"(?s).")


def _plain_alternations(pattern: str) -> list[tuple[bool, tuple[str, ...]]]:
    """The scan reading every character."""
    passed_over = syntax._STRUCTURE
    syntax._STRUCTURE = _EVERY_CHARACTER
    try:
        return syntax._alternations(pattern)
    finally:
        syntax._STRUCTURE = passed_over


def _check(pattern: str) -> None:
    assert syntax._alternations(pattern) == _plain_alternations(pattern), pattern


def test_tricky_patterns() -> None:
    for pattern in [*TRICKY, "(a|b)", "a|(b|c)|d", r"[|]|\||(x|)", "(?(1)a|b)|c", "(a|b", "a|b)", "[a|b", "\\"]:
        _check(pattern)


def test_the_scan_still_finds() -> None:
    assert syntax._alternations("(open|opening) x|y") == [(False, ("open", "opening")), (True, ("(open|opening) x", "y"))]


@settings(max_examples=500, deadline=None)
@given(pattern=PATTERNS)
def test_generated_patterns(pattern: str) -> None:
    _check(pattern)


def test_deadends_regexes(deadends_regexes: list[str]) -> None:
    patterns = deadends_regexes
    assert len(patterns) > 1000
    for pattern in patterns:
        _check(pattern)


@pytest.mark.parametrize("style", ["template", "mixed"])
def test_generated_corpus_regexes(style: str) -> None:
    for pattern in generated_regexes(style):
        _check(pattern)
