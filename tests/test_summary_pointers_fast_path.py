"""`summary_pointers` names a summary of texts (and lists of texts) by its keys at once: the same pointers,
in the same order, as walking it value by value (the walk it makes of any other summary)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from entrykit.entry import MAX_KNOWN_PLACES, _nested_pointers, summary_pointers


class _Text(str):
    """A text of a type of its own (a loader may make one)."""


_keys = st.text(alphabet="ab/~1", max_size=4)
_values = st.recursive(
    st.one_of(st.text(max_size=3), st.integers(), st.none(), st.text(max_size=3).map(_Text)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.one_of(_keys, st.integers(0, 3)), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(st.dictionaries(_keys, st.text(max_size=3), max_size=MAX_KNOWN_PLACES + 3))
def test_a_summary_of_texts_is_named_by_its_keys(summary: dict[str, str]) -> None:
    assert summary_pointers(summary) == _nested_pointers(summary)


@given(st.dictionaries(_keys, st.one_of(st.text(max_size=3), st.lists(st.text(max_size=3), max_size=4)), max_size=8))
def test_a_summary_of_texts_and_lists_of_texts_is_named_by_its_keys(summary: dict[str, Any]) -> None:
    assert summary_pointers(summary) == _nested_pointers(summary)


@given(st.dictionaries(_keys, _values, max_size=6))
def test_any_summary_is_named_as_walking_it(summary: dict[str, Any]) -> None:
    assert summary_pointers(summary) == _nested_pointers(summary)


@given(st.dictionaries(st.integers(-3, 3), st.text(max_size=3), max_size=5))
def test_keys_that_are_no_texts_are_named_as_walking_them(summary: dict[int, str]) -> None:
    assert summary_pointers(summary) == _nested_pointers(summary)


def test_a_large_summary_of_texts_is_named_as_far_as_the_walk_goes() -> None:
    summary = {f"field{n:03d}": "text" for n in range(MAX_KNOWN_PLACES + 6)}
    assert summary_pointers(summary) == _nested_pointers(summary)
    assert len(summary_pointers(summary)) == MAX_KNOWN_PLACES
