"""Positions from the fast path (JSON scanner, libyaml marks) equal ruamel's round-trip positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
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
