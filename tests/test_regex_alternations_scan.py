"""`syntax._alternations` passes over the characters that change nothing in its scan (all but
`\\ [ ] ( ) |`): it finds the alternatives the scan of every character finds."""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings

from entrykit.regex import syntax
from tests.pattern_strategies import joined_patterns
from tests.test_regex_parse_once import TRICKY

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402

WORDS = ["error", "a", "", "ß", "中文", r"\.", r"\|", r"\(", r"\)", r"\[", r"\]", "\\", "]", "^"]
JOINERS = [
    "", " ", "|", "||", "(", ")", "(?:", "(?P<g>", "(?i)", "(?#c)", "(?=", "(?(1)", "[", "]", "[^", "[]", "[^]", "[(|)]",
    r"[\]|]", ".*", "+", "?", "{2}", "\\", r"\\",
]  # fmt: skip
PATTERNS = joined_patterns(WORDS, JOINERS, 10)


def _plain_alternations(pattern: str) -> list[tuple[bool, tuple[str, ...]]]:
    """The scan as it was: every character read."""
    found: list[tuple[bool, tuple[str, ...]]] = []
    frames: list[tuple[int, list[int], bool]] = [(0, [], False)]
    opened: list[int] = [0]
    at, size = 0, len(pattern)
    in_class = False
    while at < size:
        char = pattern[at]
        if char == "\\":
            at += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            at += 1
            if at < size and pattern[at] == "^":
                at += 1
            if at < size and pattern[at] == "]":
                at += 1
            continue
        elif char == "(":
            body = syntax._group_body(pattern, at)
            if body is None:
                close = pattern.find(")", at)
                at = size if close < 0 else close + 1
                continue
            frames.append((body[0], [], body[1]))
            opened.append(at)
            at = body[0]
            continue
        elif char == "|":
            frames[-1][1].append(at)
        elif char == ")" and len(frames) > 1:
            start = opened.pop()
            whole = len(frames) == 2 and start == 0 and at == size - 1 and syntax._plain_opening(pattern[: frames[-1][0]])
            found.extend((whole, branches) for branches in syntax._split(pattern, frames.pop(), at))
        at += 1
    found.extend((len(frames) == 1, branches) for branches in syntax._split(pattern, frames[0], size))
    return found


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
    rng = random.Random(51)
    for pattern in {generate.make_entry(index, rng, style)["regex"] for index in range(400)}:
        _check(pattern)
