"""A text's candidate regexes are those whose whole literal query the text holds, though
`RegexIndex.candidates` checks only the part of a query that a literal the text holds covers."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex.literal_index import RegexIndex, fold, satisfied

# Literals that overlap (`ab` in `abc`), short ones (`a`: never a cover, looked up in the
# text), and queries of "and"s and "or"s nested as `required` makes them and deeper.
_LITERALS = st.sampled_from(["a", "b", "ab", "ba", "abc", "bc", "cab", "c"])
_QUERIES = st.one_of(
    st.none(),
    st.recursive(
        _LITERALS,
        lambda inner: st.tuples(st.sampled_from(["and", "or"]), st.lists(inner, min_size=2, max_size=4).map(tuple)),
        max_leaves=12,
    ),
)
_TEXTS = st.lists(st.text(alphabet="abcAB ", max_size=10), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(st.lists(_QUERIES, min_size=1, max_size=8), _TEXTS)
def test_candidates_are_the_regexes_whose_query_the_text_holds(queries: list[Any], texts: list[str]) -> None:
    patterns = [f"regex {number}" for number in range(len(queries))]  # (read through `queries` only)
    index = RegexIndex(patterns, 0, "search", texts, queries)
    for text in texts:
        present = index.literals_in(text)
        holding = {number for number, query in enumerate(queries) if satisfied(query, present, fold(text))}
        assert index.candidates(text) == holding
        assert index.candidates(text, set(present)) == holding


def test_a_literal_of_one_branch_checks_that_branch() -> None:
    """`ab` covers the first branch only: a text with `ab` but without `cab` is not a
    candidate by that branch, and one with `bc` and `ba` is by the second."""
    query = ("or", (("and", ("ab", "cab")), ("and", ("bc", "ba"))))
    index = RegexIndex(["r"], 0, "search", ["ab", "bcba", "cab"], [query])
    assert index.candidates("ab") == set()
    assert index.candidates("cab") == {0}
    assert index.candidates("bcba") == {0}
    assert index.candidates("ab bc") == set()


def test_every_literal_of_a_part_cover_finds_it() -> None:
    """A part whose cover holds several literals (an "or" inside, as `_or` may leave it, or an
    "and" whose rarest part is one) is found by each of them."""
    queries: list[Any] = [
        ("or", (("or", ("ab", "bc")), "cab")),
        ("and", (("or", ("ab", "bc")), "c")),
    ]
    index = RegexIndex(["r0", "r1"], 0, "search", ["ab", "bc", "cab c"], queries)
    assert index.candidates("bc") == {0, 1}
    assert index.candidates("ab") == {0}
    assert index.candidates("cab") == {0, 1}


def test_a_regex_without_a_cover_is_found_by_each_of_its_parts() -> None:
    """`c` is too short to be a cover, so the regex has none: every text is checked for
    `c`, and the other branch is found through its literal `ab` as any covered part is."""
    query = ("or", (("and", ("ab", "ba")), "c"))
    index = RegexIndex(["r"], 0, "search", ["ab ba", "c", "ab"], [query])
    assert index.fallback == [0] and index.covers == [None]
    assert index.candidates("ab ba") == {0}
    assert index.candidates("c") == {0}
    assert index.candidates("ab") == set()
    assert index.candidates("ba b") == set()
