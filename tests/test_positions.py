"""Positions from the fast path (JSON scanner, libyaml marks) equal ruamel's round-trip positions."""

from __future__ import annotations

import bisect
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from entrykit import pointer as jp
from entrykit.loader import LoadFailure, load
from entrykit.positions import build_index, json_positions

from .conftest import FIXTURES, REPO


def ruamel_positions(text: str) -> dict[str, tuple[int, ...]]:
    """pointer -> (line, col[, key_line, key_col]) from a ruamel round-trip load (the slow path).

    Empty (null) YAML values are left out: ruamel places them at the next token,
    while entrykit places them right after their key, where an editor would type.
    """
    data = YAML().load(text)
    found: dict[str, tuple[int, ...]] = {}

    def walk(node: Any, here: str) -> None:
        if isinstance(node, CommentedMap):
            for key in node:
                k_line, k_col, v_line, v_col = node.lc.data[key]
                if node[key] is not None:
                    found[jp.child(here, key)] = (v_line + 1, v_col + 1, k_line + 1, k_col + 1)
                walk(node[key], jp.child(here, key))
        elif isinstance(node, CommentedSeq):
            for index, value in enumerate(node):
                line, col = node.lc.data[index]
                if value is not None:
                    found[jp.child(here, index)] = (line + 1, col + 1)
                walk(value, jp.child(here, index))

    walk(data, "")
    return found


def _fixture_files() -> list[Path]:
    files = []
    for folder in (FIXTURES, REPO / "entries"):
        files += [p for p in folder.rglob("*") if p.suffix in (".yaml", ".json") and "cases" not in p.parts]
    return sorted(files)


@pytest.mark.parametrize("path", _fixture_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_fast_positions_equal_slow_positions(path: Path) -> None:
    entry = load(path, path.name)
    if isinstance(entry, LoadFailure) or path.name == "expected.yaml":
        pytest.skip("not an entry")
    slow = ruamel_positions(entry.text)
    fast = build_index(entry.text, entry.fmt).spots
    for pointer, where in slow.items():
        spot = fast[pointer]
        mine = (spot.line, spot.col) if len(where) == 2 else (spot.line, spot.col, spot.key_line, spot.key_col)
        assert mine == where, pointer


def test_json_scanner_handles_escapes_and_unicode() -> None:
    text = '{"a\\"b": "\\ud83d\\ude00 x", "zh": "参数", "n": [1, -2.5e3, true, null]}'
    spots = json_positions(text).spots
    assert (spots['/a"b'].line, spots['/a"b'].col) == (1, 10)
    assert (spots["/n/1"].line, spots["/n/1"].col) == (1, 49)
    assert (spots["/zh"].key_col, spots["/zh"].col) == (28, 34)


def test_missing_pointer_falls_back_to_nearest_ancestor() -> None:
    index = build_index("id: a\nworkarounds:\n  - action: x\n", "yaml")
    assert index.locate("/workarounds/0/how") == (3, 5)
    assert index.locate("/nowhere") == (1, 1)


def _case_texts() -> list[Any]:
    """Every entry text of the rule case files (tests/rules/cases/*.yaml)."""
    import yaml

    params = []
    for case_file in sorted((REPO / "tests" / "rules" / "cases").glob("*.yaml")):
        for case in yaml.safe_load(case_file.read_text(encoding="utf-8")) or []:
            files = {case.get("path", "test/case.yaml"): case["entry"]} if "entry" in case else case.get("files", {})
            for name, text in files.items():
                params.append(pytest.param(name, text, id=f"{case_file.stem}::{case['name']}::{name}"))
    return params


@pytest.mark.parametrize(("name", "text"), _case_texts())
def test_fast_positions_equal_slow_positions_in_rule_cases(tmp_path: Path, name: str, text: str) -> None:
    """The rule cases hold the odd files (flow style, anchors, quoting, CRLF, JSON, BOMs):
    wherever both loaders read one as an entry, their places agree."""
    path = tmp_path / Path(name).name
    path.write_text(text, encoding="utf-8")
    entry = load(path, path.name)
    if isinstance(entry, LoadFailure) or entry.needs_positions:
        pytest.skip("not an entry, or one the fast parser flags (duplicate keys, NaN)")
    try:
        slow = ruamel_positions(entry.text) if entry.fmt == "yaml" else None
    except Exception:
        pytest.skip("ruamel does not load it")
    if slow is None:  # JSON: ruamel reads it as YAML flow style
        try:
            slow = ruamel_positions(entry.text)
        except Exception:
            pytest.skip("ruamel does not load it")
    fast = build_index(entry.text, entry.fmt).spots
    for pointer, where in slow.items():
        spot = fast[pointer]
        mine = (spot.line, spot.col) if len(where) == 2 else (spot.line, spot.col, spot.key_line, spot.key_col)
        assert mine == where, pointer


_ODD_YAML = [
    "id: a\nlist:\n  - x\n  - {k: v, 'a/b': 1, '~t': 2}\n",
    "a: 1\r\nb:\r\n  c: [1, 2]\r\n",
    "s: \"x\u2028y\"\nt:\n  - 1\n",  # a line break only YAML counts
    "? [1, 2]\n: complex\nk: v\n",
    "a: &x {b: 1}\nc: *x\n",  # an alias: places come from the index
    "a: 1\na: {b: 2}\n",  # a duplicate key: places come from the index
    "a: {b: 1}\nc: 2\na: {zz: 3}\n",  # /a/zz only in the second of two `a`
    "id: x\nn: null\ne:\nz: []\n",
]


@pytest.mark.parametrize("text", _ODD_YAML)
def test_places_along_a_pointer_equal_the_index(text: str, tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    path.write_text(text, encoding="utf-8", newline="")
    kept = load(path, "e.yaml", keep_nodes=True)
    assert not isinstance(kept, LoadFailure)
    index = build_index(kept.text, "yaml")
    pointers = set(index.spots) | {p + "/missing" for p in index.spots} | {p + "/7" for p in index.spots}
    pointers |= {"/list/01", "/list/-1", "/nothing/deeper"}
    for pointer in sorted(pointers):
        for at_key in (False, True):
            assert kept.locate(pointer, at_key) == index.locate(pointer, at_key), (pointer, at_key)


def test_places_along_a_pointer_on_real_entries() -> None:
    for path in sorted((REPO / "entries").rglob("*.yaml")):
        kept = load(path, path.name, keep_nodes=True)
        assert not isinstance(kept, LoadFailure) and kept.nodes is not None
        index = build_index(kept.text, "yaml")
        for pointer in index.spots:
            for at_key in (False, True):
                assert kept.locate(pointer, at_key) == index.locate(pointer, at_key), (path, pointer)


@pytest.mark.parametrize("text", _ODD_YAML)
def test_places_of_a_summary_equal_the_index(text: str, tmp_path: Path) -> None:
    """A summary (no text in memory) reads its file once for many places, with the same answers."""
    from entrykit.lint.corpus_summary import summary_entry

    path = tmp_path / "e.yaml"
    path.write_text(text, encoding="utf-8", newline="")
    index = build_index(path.read_bytes().decode("utf-8"), "yaml")
    wanted = {(p, k) for p in [*index.spots, "/list/9", "/a/b", "/a/zz", "/nothing"] for k in (False, True)}
    summary = summary_entry("e.yaml", path, "yaml", {}, {})
    assert summary.places(wanted) == {(p, k): index.locate(p, k) for p, k in wanted}


# --- the JSON scanner against JSON written here, with each value's place noted as it is written ---

_KEYS = st.sampled_from(["id", "a", "a/b", "~t", 'q"uote', "back\\slash", "tab\there", "é", "参数", "\u2028", ""])
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8), st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999"]).map(lambda s: ("raw", s)),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.lists(st.tuples(_KEYS, inner), max_size=4).map(lambda kv: ("object", kv))),
    max_leaves=12,
)
_SPACES = st.sampled_from(["", " ", "\n", "\r\n", "\r", "\t", "\n    ", " \r\n  "])


class _Writer:
    """Writes a value as JSON, noting where each value and key starts and each irregularity."""

    def __init__(self, spaces: Any) -> None:
        self.out: list[str] = []
        self.size = 0
        self.spaces = spaces
        self.starts: dict[str, tuple[int, int | None]] = {}  # pointer -> (value offset, key offset)
        self.odd: list[tuple[str, str, int, str]] = []  # (kind, pointer, offset, detail)

    def put(self, text: str) -> None:
        self.out.append(text)
        self.size += len(text)

    def gap(self) -> None:
        self.put(self.spaces.draw(_SPACES))

    def value(self, value: Any, pointer: str, key_at: int | None) -> None:
        self.starts[pointer] = (self.size, key_at)
        if isinstance(value, tuple) and value[0] == "raw":
            self.odd.append(("nonfinite-number", pointer, self.size, value[1]))
            self.put(value[1])
        elif isinstance(value, tuple):
            self.put("{")
            seen: set[str] = set()
            for number, (key, item) in enumerate(value[1]):
                self.gap()
                if number:
                    self.put(",")
                    self.gap()
                at, child = self.size, jp.child(pointer, key)
                if key in seen:
                    self.odd.append(("duplicate-key", child, at, key))
                seen.add(key)
                self.put(json.dumps(key, ensure_ascii=self.spaces.draw(st.booleans())))
                self.gap()
                self.put(":")
                self.gap()
                self.value(item, child, at)
            self.gap()
            self.put("}")
        elif isinstance(value, list):
            self.put("[")
            for number, item in enumerate(value):
                self.gap()
                if number:
                    self.put(",")
                    self.gap()
                self.value(item, jp.child(pointer, number), None)
            self.gap()
            self.put("]")
        else:
            self.put(json.dumps(value, ensure_ascii=self.spaces.draw(st.booleans())))


@settings(max_examples=300, deadline=None)
@given(value=_VALUES, spaces=st.data(), bom=st.booleans())
def test_json_scanner_places_every_value_where_it_was_written(value: Any, spaces: Any, bom: bool) -> None:
    writer = _Writer(spaces)
    if bom:
        writer.put("\ufeff")
    writer.gap()
    writer.value(value, "", None)
    writer.gap()
    text = "".join(writer.out)
    breaks = [0] + [m.end() for m in re.finditer(r"\r\n|\n|\r", text)]

    def place(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(breaks, offset)
        return line, offset - breaks[line - 1] + 1

    index = json_positions(text)
    expected = {}
    for pointer, (at, key_at) in writer.starts.items():
        key_place = place(key_at) if key_at is not None else (None, None)
        expected[pointer] = (*place(at), *key_place)
    assert {p: (s.line, s.col, s.key_line, s.key_col) for p, s in index.spots.items()} == expected
    odd = [(kind, pointer, *place(at), detail) for kind, pointer, at, detail in writer.odd]
    assert [(i.kind, i.pointer, i.line, i.col, i.detail) for i in index.irregularities] == odd
