"""`positions.yaml_place` reads each mapping's keys into one table of pairs by pointer token
(`_pairs_by_token`): its answers are those of the table of lists it replaces, and the
position index's wherever no key along the pointer is written twice."""

from __future__ import annotations

import json
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import pointer as jp
from entrykit.parsing import YamlLines, compose_yaml
from entrykit.positions import yaml_place, yaml_positions

_KEYS = st.sampled_from(["id", "a", "b", "a/b", "~t", "~1", "x~0/", "1", "0", "é", "", "null", "true"])


def _listed_place(root: yaml.Node, place: Any, pointer: str, at_key: bool) -> tuple[int, int] | None:
    """`yaml_place` as it was: every mapping's pairs listed by escaped key, looked up anew."""
    node, key_node = root, None
    if pointer:
        for token in pointer[1:].split("/"):
            found = None
            if isinstance(node, yaml.MappingNode):
                table: dict[str, list[Any]] = {}
                for pair in node.value:
                    key = pair[0]
                    text = str(key.value) if isinstance(key, yaml.ScalarNode) else "<complex key>"
                    table.setdefault(jp.escape(text), []).append(pair)
                pairs = table.get(token, [])
                if len(pairs) > 1:
                    return None
                found = pairs[0] if pairs else None
            elif isinstance(node, yaml.SequenceNode) and token.isdigit() and str(int(token)) == token and int(token) < len(node.value):
                found = (None, node.value[int(token)])
            if found is None:
                break
            key_node, node = found
    mark = key_node.start_mark if at_key and key_node is not None else node.start_mark
    line, col = place(mark.line, mark.column)
    return int(line), int(col)


def _text(pairs: list[tuple[str, Any]], indent: str = "") -> str:
    """YAML of a mapping written as these pairs, in order (a key may come twice)."""
    out = []
    for key, value in pairs:
        if isinstance(value, list):
            out.append(f"{indent}{json.dumps(key)}:\n{_text(value, indent + '  ')}")
        else:
            out.append(f"{indent}{json.dumps(key)}: {json.dumps(value)}\n")
    return "".join(out)


_VALUES = st.recursive(
    st.sampled_from(["v", "w x", 1]),
    lambda inner: st.lists(st.tuples(_KEYS, inner), min_size=1, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_KEYS, _VALUES), min_size=1, max_size=6), st.lists(st.lists(_KEYS, max_size=3), max_size=6))
def test_places_by_token_equal_the_listed_table_and_the_index(pairs: list[tuple[str, Any]], asked: list[list[str]]) -> None:
    text = _text(pairs)
    root = compose_yaml(text)
    assert root is not None
    index = yaml_positions(text, root)
    lines = YamlLines(text)
    pointers = set(index.spots) | {jp.join(*tokens) for tokens in asked}
    pointers |= {p + "/missing" for p in index.spots}
    tables: dict[int, Any] = {}  # kept between calls, as `Entry.locate` keeps them
    for pointer in sorted(pointers):
        for at_key in (False, True):
            got = yaml_place(root, lines, pointer, at_key, tables)
            assert got == _listed_place(root, lines, pointer, at_key), (text, pointer, at_key)
            if got is not None:
                assert got == index.locate(pointer, at_key), (text, pointer, at_key)
