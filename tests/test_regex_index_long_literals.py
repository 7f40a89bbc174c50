"""The regex index finds a text's literals in linear time: its automaton holds each literal's
first `KEY_LENGTH` characters, and a longer literal is looked for in the text once its key is
there. (pyahocorasick walks a state's whole chain of failure links at every position, so a
24 KB literal `a a a ...` against a signature of the same took seconds, 100 KB minutes.)
The literals found are those found before; the cross-matches of long literals are the naive ones."""

from __future__ import annotations

import re
from pathlib import Path

import ahocorasick
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.regex import literal_index
from entrykit.regex.literal_index import MIN_LITERAL, RegexIndex, Text, cross_matches, fold, naive_cross_matches
from entrykit.regex.runner import RegexRunner

from .conftest import lint_corpus
from .hostile import entry_text

_PIECES = st.text(alphabet="ab A", min_size=1, max_size=9)
_LITERALS = st.lists(st.lists(_PIECES, min_size=1, max_size=12).map("".join), min_size=1, max_size=6)
_TEXTS = st.lists(st.sampled_from(["a", "b", " ", "A", "ab", "a a ", "b a"]), max_size=40).map("".join)


def _indexed(index: RegexIndex) -> set[str]:
    """Every literal the index looks for."""
    return {lit for query in index.queries for lit in literal_index.literals_of(query) if len(lit) >= MIN_LITERAL}


def _literals_in_as_before(index: RegexIndex, text: str) -> set[str]:
    """`RegexIndex.literals_in` as it was: one automaton over the whole literals."""
    automaton = ahocorasick.Automaton()
    for lit in _indexed(index):
        automaton.add_word(lit, lit)
    if not len(automaton):
        return set()
    automaton.make_automaton()
    return {lit for _, lit in automaton.iter(fold(text))}


@settings(max_examples=400, deadline=None)
@given(_LITERALS, _TEXTS, st.sampled_from([2, 3, 5, 64]))
@example(["a a a a a a", "a a a a b"], "a a a a a a a", 3)
@example(["aaaa", "aaab", "aaa"], "xaaab", 3)
def test_the_literals_found_are_as_before(literals: list[str], text: str, key_length: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(literal_index, "KEY_LENGTH", key_length, raising=False)
        index = RegexIndex([re.escape(lit) for lit in literals], re.IGNORECASE, "search", [text])
        found = index.literals_in(text)
    assert found == _literals_in_as_before(index, text)
    assert found == {lit for lit in _indexed(index) if lit in fold(text)}
    assert set(index.df_literals[0]) == found


def test_the_automaton_holds_no_key_longer_than_key_length() -> None:
    """What bounds pyahocorasick's walk at each position is its longest key (the 24 KB literal
    itself before)."""
    signature = "a " * 12_000
    index = RegexIndex([re.escape(signature), "a a", None], 0, "search", [signature, "a a b"])
    assert max(map(len, index._automaton.keys())) <= 64  # (`KEY_LENGTH`)
    assert index.literals_in(signature) == {signature, "a a"}
    assert index.literals_in("a a b") == {"a a"}
    assert index.candidates(signature) == {0, 1}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=160), min_size=2, max_size=5), st.sampled_from(["a ", "ab", "a"]))
def test_long_literal_cross_matches_are_the_naive_ones(lengths: list[int], unit: str) -> None:
    patterns: list[str | None] = [re.escape((unit * length)[:length]) + ("b" if n % 2 else "") for n, length in enumerate(lengths)]
    texts = [Text(n, "/signature", (unit * (length + 7))[: length + 7]) for n, length in enumerate(lengths)]
    with RegexRunner(1000) as runner:
        found = cross_matches(patterns, texts, 0, "search", runner)
    assert {n: list(row) for n, row in found.pairs.items()} == naive_cross_matches(patterns, texts, 0, "search")


def test_entries_with_long_literal_regexes_cross_match_in_lint(tmp_path: Path) -> None:
    text = ("a " * 12_000).strip()
    files = {f"python/e{n}.yaml": entry_text(f"python/e{n}", signature=text, regex=re.escape(text)) for n in range(3)}
    result = lint_corpus(tmp_path, files)
    cross = [d for d in result.diagnostics if d.code == "ET209"]
    assert len({(d.path, d.message) for d in cross}) == 6  # each regex matches the two other signatures
