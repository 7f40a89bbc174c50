"""A summary's places are read from its file's top mapping at once (`entry.pack_places`),
and a mapping's pairs by token made in one pass when its keys are plain
(`positions._pairs_by_token`): the same places as each pointer located on its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import loader, parsing, positions
from entrykit.entry import _PLACE, Entry, pack_places, summary_pointers
from entrykit.lint.corpus_summary import summarize, without_fact_fields

_KEYS = st.sampled_from(["id", "signature", "examples", "aliases", "regex", "domain", "a/b", "a~1b", "b~a", "b~0a", "x"])
_TEXT = st.text(alphabet=st.sampled_from("pq :-#\u2028\x85\u2029é中"), max_size=6)
_VALUE = st.one_of(
    _TEXT,
    st.lists(_TEXT, max_size=70),  # (past the places a file keeps)
    st.dictionaries(st.sampled_from(["leads_to", "k"]), st.lists(_TEXT, max_size=3), max_size=2),
    st.integers(),
    st.lists(st.one_of(_TEXT, st.integers()), max_size=3),
)


@st.composite
def _documents(draw: Any) -> str:
    """YAML texts of mappings like entries', in block or flow style; some with a key written
    twice, a key that is no text, or an alias."""
    data = draw(st.dictionaries(_KEYS, _VALUE, min_size=1, max_size=6))
    flow = draw(st.booleans())
    text = yaml.safe_dump(data, allow_unicode=True, default_flow_style=flow, width=30)
    if not flow:
        text += draw(st.sampled_from(["", "id: again\n", "7: seven\n", "? [a]\n: b\n", "z: &v [q]\nw: *v\n"]))
    return text


def _entry(text: str) -> Entry | None:
    got = loader.load(Path("/nowhere/e.yaml"), "e.yaml", text=text, keep_nodes=True)
    return got if isinstance(got, Entry) else None


def _plain_places(entry: Entry, summary: dict[str, Any]) -> bytes:
    """`pack_places` as it was: each pointer of the summary located on its own."""
    return b"".join(_PLACE.pack(*entry.locate(where)) for where in summary_pointers(summary))


@settings(max_examples=300, deadline=None)
@given(text=_documents(), keep=st.one_of(st.none(), st.sets(_KEYS)))
@example(text="b~a: p\nb~0a: q\n", keep={"b~0a"})  # (`b~0a` is the pointer token of `b~a`)
@example(text="a/b: p\na~1b: q\n", keep={"a~1b"})
def test_packed_places_are_the_places_each_pointer_locates(text: str, keep: set[str] | None) -> None:
    first, second = _entry(text), _entry(text)
    if first is None or second is None:
        return
    # (a summary of some of the top keys, whichever: `b~0a` alone in a file that has `b~a` too)
    summary = {k: v for k, v in first.data.items() if k in keep} if keep is not None else without_fact_fields(summarize(first.data))
    try:
        wanted = _plain_places(second, summary)
    except TypeError:  # (keys of several kinds do not sort, whichever way)
        with pytest.raises(TypeError):
            pack_places(first, summary)
        return
    assert pack_places(first, summary) == wanted
    assert first.locate("/id") == second.locate("/id")  # (the tables kept on the way serve later places)


@settings(max_examples=300, deadline=None)
@given(text=_documents())
def test_a_mappings_pairs_by_token_are_the_pairs_walked_key_by_key(text: str) -> None:
    root = parsing.compose_yaml(text)
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            assert positions._pairs_by_token(node) == positions._pairs_by_token_walked(node.value)
            stack += [part for pair in node.value for part in pair]
        elif isinstance(node, yaml.SequenceNode):
            stack += node.value
