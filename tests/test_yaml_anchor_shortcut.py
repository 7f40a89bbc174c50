"""A YAML text with a `&` but no alias is built directly, with what the loader's way gives."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import parsing

from .conftest import DEADENDS
from .test_cold_path import _both_ways, _same

_AMPERSAND_DOCUMENTS = [
    "run: make && make install\nwhy: a & b\n",  # `&` in plain scalars: no anchor
    "run: 'a && b'\nb: \"&x\"\nc: |\n  &notananchor\n",
    "a: &x 1\n",  # an anchor no alias refers to
    "a: &x [1, 2]\nb: &y {k: v}\n",
    "a: &x 1\nb: *x\n",  # an alias of a scalar
    "a: &x [1]\nb: *x\n",
    "&k key: 1\nother: *k\n",  # an alias of a key, as a value
    "&k key: 1\n*k : 2\n",  # and as a key: a duplicate
    "base: &b {a: 1}\nmore:\n  <<: *b\n  c: 2\n",  # a merge key
    "a: &x [1, *x]\n",  # an alias inside its own anchor: no document
    "a: &a [1, 2]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: [*c, *c, *c]\n",
    "a: &x [[[[1]]]]\nb: [[[*x]]]\n",  # nesting reached through an alias
    "a: &x 017\nb: *x\nc: yes\n",
    "a: &x\n  - 1\n",
    "- &x a && b\n- *x\n",
]


@pytest.mark.parametrize("text", _AMPERSAND_DOCUMENTS)
def test_documents_with_ampersands_equal_the_loaders(text: str) -> None:
    _same(*_both_ways(text))
    _same(*_both_ways(text, nesting=3))


def test_a_document_without_an_alias_is_built_directly(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    monkeypatch.setattr(parsing.EntryYamlLoader, "construct_document", lambda self, node: calls.append(node))
    assert parsing.parse_yaml("run: make && make install\na: &x [1]\n").data == {
        "run": "make && make install",
        "a": [1],
    }
    assert parsing.parse_yaml("a: &x [1]\nb: *x\n").data is None  # the loader's way, here stubbed
    assert len(calls) == 1


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=10),
    st.sampled_from(["a && b", "&x", "*x", "& ", "yes", "017", "~", "x & y"]),
)
_DATA = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=16,
)


@settings(max_examples=300, deadline=None)
@given(
    _DATA,
    _DATA,
    st.lists(st.integers(min_value=0, max_value=3), max_size=4),
    st.sampled_from([None, True, False]),
    st.integers(min_value=1, max_value=6),
)
def test_shared_values_equal_the_loaders(
    data: object, shared: object, places: list[int], flow: bool | None, nesting: int
) -> None:
    # A collection put in several places is dumped once with an anchor and then as aliases.
    document = {"data": data, "spots": [shared if place else data for place in places], "shared": shared}
    text = yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True)
    _same(*_both_ways(text, nesting))


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def test_real_entries_with_ampersands_equal_the_loaders() -> None:
    if not DEADENDS.is_dir():
        pytest.skip("the deadends.dev corpus is not here")
    texts = []
    for path in sorted(DEADENDS.rglob("*.json")):
        raw = path.read_text(encoding="utf-8")
        if "&" in raw:
            texts.append(yaml.dump(json.loads(raw), Dumper=_DUMPER, allow_unicode=True, sort_keys=False))
    assert len(texts) > 50
    for text in texts:
        fast, slow = _both_ways(text)
        _same(fast, slow)
        assert fast.nodes is not None  # no alias: built directly, nodes kept for places
