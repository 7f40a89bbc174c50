"""ET208's shortcuts give what the plain computation gives.

- `JoinedTexts.holding`, once it has searched for enough literals, looks a literal of three
  characters or more up by its character triples before searching the texts that hold them
  all: the same mask as testing `literal in text` for every text, on generated texts and on
  every literal of the deadends canons' regexes against the probes and probe messages;
- `too_broad` runs a regex only on the probes and probe messages that hold every literal
  a match needs (one walk of its query over both, joined): the same answer as running it
  on all of them, on generated regexes and on the canons' regexes with their own texts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import breadth
from entrykit.regex.literal_index import JoinedTexts, fold, literals_of, required
from entrykit.regex.runner import RegexRunner
from tests.pattern_strategies import joined_patterns

ALPHABET = "abcé中\0 "  # (a NUL is what joins the texts)


def _plain_holding(texts: tuple[str, ...], literal: str) -> int:
    return sum(1 << number for number, text in enumerate(texts) if literal in text)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.text(alphabet=ALPHABET, max_size=14) | st.sampled_from(["abcabc", "aaa", "", "ab"]), max_size=9),
    st.lists(st.text(alphabet=ALPHABET, max_size=7) | st.sampled_from(["abc", "bca", "aaaa", "cab"]), max_size=6),
)
def test_joined_texts_hold_a_literal_where_each_text_does(texts: list[str], literals: list[str]) -> None:
    searched, indexed = JoinedTexts(tuple(texts)), JoinedTexts(tuple(texts))
    searched.KEPT = indexed.KEPT = 2  # (answers let go often)
    indexed.INDEX_AFTER = 1  # (the triples indexed after the first search)
    for literal in literals + literals:  # (asked again: the kept answer)
        expected = _plain_holding(tuple(texts), literal)
        assert searched.holding(literal) == expected, literal
        assert indexed.holding(literal) == expected, literal
    assert searched._grams is None


def _canon_regexes(deadends: Path) -> Iterator[tuple[str, list[str]]]:
    for path in sorted(deadends.rglob("*.json")):
        error = json.loads(path.read_text(encoding="utf-8")).get("error") or {}
        pattern = error.get("regex")
        if isinstance(pattern, str):
            own = [t for t in [error.get("signature"), *(error.get("examples") or [])] if isinstance(t, str)]
            yield pattern, own


def test_the_canons_literals_are_held_by_the_same_probes(deadends_dir: Path) -> None:
    texts = tuple(fold(t) for t in (*breadth.probe_texts(), *(p.message for p in breadth.probe_messages())))
    joined = JoinedTexts(texts)
    joined.INDEX_AFTER = 100  # (some searched, the rest looked up by their triples)
    literals: set[str] = set()
    for pattern, _ in _canon_regexes(deadends_dir):
        try:
            literals.update(literals_of(required(pattern, re.IGNORECASE)))
        except Exception:
            continue
    held = 0
    for literal in sorted(literals):
        mask = joined.holding(literal)
        assert mask == _plain_holding(texts, literal), literal
        held += mask != 0
    assert len(literals) > 5000 and held > 100  # (some literals are in the probes: not all masks empty)
    assert joined._grams is not None


def _everything(query: object, texts: JoinedTexts) -> int:
    """Every probe and probe message, whatever the regex's literals."""
    return (1 << len(texts.texts)) - 1


def _both_ways(pattern: str, flags: int, own: list[str], runner: RegexRunner) -> tuple[object, object]:
    breadth._regex_alone.cache_clear()
    try:
        short = breadth.too_broad(pattern, flags, "search", runner, 3, own)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(breadth, "may_match_each", _everything)
            breadth._regex_alone.cache_clear()
            plain = breadth.too_broad(pattern, flags, "search", runner, 3, own)
    finally:
        breadth._regex_alone.cache_clear()
    return short, plain


@pytest.fixture(scope="module")
def runner() -> Iterator[RegexRunner]:
    with RegexRunner() as shared:
        yield shared


WORDS = ["error", "Error", "failed", "not found", "denied", "KeyError", "No module named", "x", "ß", "İ", "中文", ""]
JOINERS = ["", " ", ".*", ": ", r"\s+", "|", "?", "[:]", "(?:", ")", "(", ".{0,20}", r"\w+"]
PATTERNS = joined_patterns(WORDS, JOINERS, 5)
OWN = st.lists(st.sampled_from(["KeyError: 'x'", "error: failed", "No such file or directory", "ab"]), max_size=2)


@settings(max_examples=300, deadline=None)
@given(pattern=PATTERNS, flags=st.sampled_from([0, re.IGNORECASE]), own=OWN)
def test_too_broad_on_the_probes_holding_the_literals_is_too_broad_on_all(
    pattern: str, flags: int, own: list[str], runner: RegexRunner
) -> None:
    short, plain = _both_ways(pattern, flags, own, runner)
    assert short == plain


def test_too_broad_on_the_canons_is_too_broad_on_all_probes(deadends_dir: Path, runner: RegexRunner) -> None:
    broad = 0
    for pattern, own in list(_canon_regexes(deadends_dir))[::2]:
        short, plain = _both_ways(pattern, re.IGNORECASE, own, runner)
        assert short == plain, pattern
        broad += short is not None
    assert broad > 10
