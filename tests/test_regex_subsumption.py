"""`subsumption.finds_all`: a regex proven to find every text another finds does; the cases merges meet are proven."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import syntax
from entrykit.regex.backtracking import Model
from entrykit.regex.subsumption import finds_all

from .re_guard import counted_for_re

_ATOMS = st.sampled_from(["a", "b", "ab", "ba", "x", ".*", ".", "[ab]", "(?:a|b)", "b?", "\\d", "(?i:a)", "^", "\\b", " "])


def _regexes(depth: int) -> st.SearchStrategy[str]:
    seq = st.lists(_ATOMS, min_size=1, max_size=4).map("".join)
    if depth == 0:
        return seq
    branches = st.lists(_regexes(depth - 1), min_size=1, max_size=3).map("|".join)
    group = st.tuples(st.sampled_from(["(", "(?:", "(?s:"]), branches, st.just(")")).map("".join)
    return st.lists(st.one_of(seq, group), min_size=1, max_size=3).map("".join)


_LITERALS = st.sampled_from(["ab", "ba", "aab", "b a", "(?:ab|ba)", "a[ab]", "^ab", "a.b"])  # what proofs are about
_AROUND = st.sampled_from(["", "z", "z-", ".*", "\\d", "[yz]", "(?i:z)"])
_REGEX = st.lists(_regexes(1), min_size=1, max_size=3).map("|".join)
_TEXT = st.lists(st.sampled_from(["a", "b", "A", "x", "z", "1", " ", "\n", "ab", "ba"]), max_size=10).map("".join)


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[str, str]:
    """(general, specific): often the specific one spelled around a part of the general one,
    the pairs a proof is about."""
    general = draw(st.one_of(_REGEX, st.lists(_LITERALS, min_size=1, max_size=3).map("|".join)))
    part = draw(st.sampled_from(general.split("|")))
    # (spelled with characters of their own, so that the general regex finds nothing in them)
    around = st.one_of(st.just(""), _AROUND)
    before, opened, after = draw(st.tuples(around, st.sampled_from(["", "(?i:", "(?s:", "("]), around))
    word = draw(st.sampled_from(["ab", "ba", "b a", "a b"]))
    built = [f"{before}{opened}{inner}{')' if opened else ''}{after}" for inner in (part, word)]
    return general, draw(st.sampled_from([*built, *built, part, draw(_REGEX)]))


@settings(max_examples=800, deadline=None)
@given(_pairs(), st.lists(_TEXT, min_size=1, max_size=8), st.sampled_from([0, re.IGNORECASE]), st.data())
def test_a_regex_proven_to_find_all_another_finds_does(
    pair: tuple[str, str], texts: list[str], flags: int, data: st.DataObject
) -> None:
    general, specific = pair
    try:
        wide, narrow = re.compile(general, flags), re.compile(specific, flags)
    except re.error:
        assert not finds_all(general, specific, flags, "search")
        return
    if not finds_all(general, specific, flags, "search"):
        return
    # texts the specific regex finds (Hypothesis writes them from it), and the other texts
    texts += data.draw(st.lists(st.from_regex(narrow), min_size=1, max_size=4))
    # `re` is run only where its search is counted within a budget first: a regex these make
    # may backtrack for ages on a text it does not find (`.*` eleven times, then `x`)
    wide_model, narrow_model = Model(syntax.parse(general, flags)), Model(syntax.parse(specific, flags))
    for text in texts:
        if counted_for_re(narrow_model, text) is None:
            continue
        if narrow.search(text) and counted_for_re(wide_model, text) is not None:
            assert wide.search(text), (general, specific, text)


@pytest.mark.parametrize(
    ("general", "specific"),
    [  # pairs from merging near-duplicate deadends.dev entries
        ("goroutine leak|leaked goroutine|goroutine.*still running|too many goroutines", "too many goroutines"),
        ("(CORS.*preflight|Access-Control-Allow-Origin|blocked by CORS)", "has been blocked by CORS policy"),
        ("(The operation was aborted|AbortError|ERR_ABORTED)", "DOMException.*AbortError"),
        ("(prompt injection|jailbreak|ignore.*previous.*instructions)", "ignore.*previous.*instructions"),
        ("too m(?:any|uch) goroutines", "error: too much goroutines"),
        ("a[bc]d", "xacdx"),
    ],
)
def test_proven(general: str, specific: str) -> None:
    assert finds_all(general, specific, 0, "search")
    assert finds_all(general, specific, re.IGNORECASE, "search")  # the whole of both folded


def test_folded_case_is_compared_folded() -> None:
    assert finds_all("blocked by cors", "has been BLOCKED by CORS policy", re.IGNORECASE, "search")
    assert finds_all("(?i)strasse", "(?i)STRASSE", 0, "search")
    assert not finds_all("blocked by cors", "has been BLOCKED by CORS policy", 0, "search")


@pytest.mark.parametrize(
    ("general", "specific", "flags", "mode"),
    [
        ("ChunkLoadError|Loading chunk.*failed", "Loading chunk \\d+ failed", 0, "search"),  # true, not proven
        ("bind: address already in use", "Bind for .+?:\\d+ failed: port is already allocated", 0, "search"),
        ("entity too large", "413 Request Entity Too Large", 0, "search"),
        ("abc", "xabc", 0, "match"),  # a match from the start only
        ("abc", "x(?i:abc)x", 0, "search"),  # case folded in part
        ("(?i)abc", "xabcx", 0, "search"),  # in one of them only
        ("abc", "xabcx", re.IGNORECASE | re.ASCII, "search"),  # folded otherwise than `fold`
        ("^abc", "abc", 0, "search"),
        ("a.b|c", "(?s:a.b)", 0, "search"),  # the same alternative, not under the same flags
        ("abc", "ab(?=c)c", 0, "search"),
        ("abc", "(", 0, "search"),  # does not parse
    ],
)
def test_not_proven(general: str, specific: str, flags: int, mode: str) -> None:
    assert not finds_all(general, specific, flags, mode)


def test_a_long_literal_is_spelled_once_not_once_per_character(monkeypatch: pytest.MonkeyPatch) -> None:
    """The strings a literal matches were extended a character at a time, each step copying
    them whole: a merge of an entry whose regex is a 192,000-character literal took 8.3 s (growth.py,
    `merge-into-grown`, its json style)."""
    from entrykit.regex import subsumption

    spelled = [0]
    real_product = subsumption.product

    def counted(*parts: Any) -> Any:
        spelled[0] += 1
        return real_product(*parts)

    monkeypatch.setattr(subsumption, "product", counted)
    literal = "a " * 25_000
    assert finds_all(literal, "x" + literal + "y", 0, "search")
    assert not finds_all(literal + "b", literal, 0, "search")
    assert spelled[0] <= 4  # one spelling per sequence read (was one per character: 50,000)
