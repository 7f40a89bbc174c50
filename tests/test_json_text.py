"""`json_text.indented` writes what `json.dumps(indent=2, ensure_ascii=False)` writes."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.json_text import indented

# What reports hold (walked), and what they do not (written by json.dumps): floats, keys
# that are no strings, tuples; strings with controls, quotes, non-ASCII and lone surrogates.
_TEXT = st.text(st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF), max_size=8)
_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), _TEXT, st.floats(allow_nan=True), st.just(""),
)
_KEYS = st.one_of(_TEXT, _TEXT, _TEXT, st.integers(-5, 5), st.booleans(), st.none())
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4), st.tuples(inner, inner)
    ),
    max_leaves=30,
)


# Only what the walk writes itself.
_WALKED = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), _TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=4)),
    max_leaves=30,
)


@settings(max_examples=600)
@given(_WALKED)
def test_indented_is_what_json_dumps_writes(value: Any) -> None:
    assert indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


@settings(max_examples=300)
@given(_VALUES)
def test_values_it_does_not_walk_are_written_by_json_dumps(value: Any) -> None:
    assert indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_nested_and_empty_containers() -> None:
    value = {"a": [], "b": {}, "c": [{"d": [1, True, None, "é\n\"\\"]}, [[]], {"": {}}], "e": False}
    assert indented(value) == json.dumps(value, indent=2, ensure_ascii=False)
    assert indented([]) == "[]" and indented({}) == "{}" and indented("x") == '"x"'
