"""The cold path's shortcuts answer exactly what the long way answers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.lint.corpus_summary import summary_entry
from entrykit.parsing import compose_yaml
from entrykit.positions import build_index
from entrykit.regex.breadth import probe_messages
from entrykit.regex.literal_index import fold, may_match, may_match_each, required

_LITERALS = st.sampled_from(["", "a", "ab", "err", "error", "x", "no such", "中文", "ß", "İ"])
_QUERIES = st.recursive(
    st.none() | _LITERALS,
    lambda inner: st.tuples(st.sampled_from(["and", "or"]), st.lists(inner, max_size=4).map(tuple)),
    max_leaves=12,
)
_TEXTS = st.lists(
    st.text(alphabet="abexrotnsuchİß中文 ", max_size=24) | st.sampled_from(["Error: no such file", "中文 error"]),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(_QUERIES, _TEXTS)
def test_may_match_each_is_may_match_on_every_text(query: object, texts: list[str]) -> None:
    mask = may_match_each(query, [fold(text) for text in texts])  # type: ignore[arg-type]
    assert [bool(mask >> i & 1) for i in range(len(texts))] == [may_match(query, t) for t in texts]  # type: ignore[arg-type]
    assert mask >> len(texts) == 0


def test_may_match_each_on_real_regexes_and_probe_messages() -> None:
    messages = [probe.message for probe in probe_messages()]
    folded = [fold(m) for m in messages]
    held = 0
    for pattern in [r"No module named '(\w+)'", r"(error|fatal): .*not found", r"Permission denied", r"x"]:
        query = required(pattern, re.IGNORECASE)
        mask = may_match_each(query, folded)
        assert [bool(mask >> i & 1) for i in range(len(messages))] == [may_match(query, m) for m in messages]
        held += bin(mask).count("1")
    assert held > 0  # some of the real messages hold these literals: the masks were not all empty


_STARRED_YAML = [
    'id: a\nregex: "fail.*ed (a|b)*"\nsignature: "x * y"\n',  # stars, no alias: places along the nodes
    "id: a\nnote: |\n  *not an alias*\nlist: [1, '*', 3]\n",
    "a: &x 1\nb: *x\nc: [*x, 2]\n",  # an alias of a scalar: places from the index
    "a: &x [1, {k: v}]\nb:\n  - *x\n",
]


@pytest.mark.parametrize("text", _STARRED_YAML)
def test_places_of_a_summary_with_stars_equal_the_index(text: str, tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    path.write_text(text, encoding="utf-8")
    index = build_index(text, "yaml")
    wanted = {(p, k) for p in [*index.spots, "/list/9", "/b/0/k", "/c/0", "/nothing"] for k in (False, True)}
    summary = summary_entry("e.yaml", path, "yaml", {}, {})
    assert summary.places(wanted) == {(p, k): index.locate(p, k) for p, k in wanted}


def test_composed_nodes_are_kept_only_without_aliases() -> None:
    assert compose_yaml(_STARRED_YAML[0]) is not None
    assert compose_yaml(_STARRED_YAML[1]) is not None
    assert compose_yaml(_STARRED_YAML[2]) is None
    assert compose_yaml(_STARRED_YAML[3]) is None
