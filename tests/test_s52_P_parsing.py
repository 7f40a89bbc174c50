"""Parsing shortcuts against the plain computations they replace: the JSON bracket scan
against one regex."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import parsing
from entrykit.loader import Limits, parse_text

# The single regex `json_brackets` replaces: a string, or a bracket.
_BRACKETS_REGEX = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet='"\\[]{}a\n', max_size=60))
def test_json_brackets_are_the_regex_brackets(text: str) -> None:
    """The scan finds the brackets the regex's `finditer` found, on any text of quotes,
    backslashes and brackets (closed strings, unclosed ones, escapes at the end)."""
    expected = [m.start() for m in _BRACKETS_REGEX.finditer(text) if m.group() in "[]{}"]
    assert list(parsing.json_brackets(text)) == expected


def test_json_deep_text_with_an_unclosed_string_is_placed() -> None:
    """A JSON text the reader gives up on deep in brackets, followed by 1 MB of escaped
    quotes no `"` closes, is placed past its brackets (one regex read it once per `"`:
    hours). The text is one line: the 1,001st bracket is its column."""
    hostile = '\\"\\aa' * 200_000
    text = "[" * 999 + hostile + "[[!"
    problem = parse_text(text, "json", Limits(nesting=1000)).problem
    assert problem == parsing.ParseProblem(1, 999 + len(hostile) + 2, "nesting deeper than 1000 levels")
    within = parse_text("[" * 999 + hostile + "!", "json", Limits(nesting=1000)).problem
    assert within == parsing.ParseProblem(1, 1, "nesting deeper than 1000 levels")
