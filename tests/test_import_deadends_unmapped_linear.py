"""A canon's unmapped fields are listed each once, in the order first found, by one pass
(`dict.fromkeys`); they were sorted by `list.index`, a pass over the list per field:
24,000 dead ends with an unknown key imported in 13 s CPU, quadratic. Same list."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.authoring.importers import deadends
from entrykit.cli import cli

_CANON = {
    "id": "python/boom/linux",
    "error": {"signature": "ERROR: boom", "regex": "ERROR: boom", "domain": "python"},
    "verdict": {"summary": "It breaks."},
}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c.d", "e[0]", "a.b"]), max_size=12), st.lists(st.sampled_from(["p", "q", "a"]), max_size=6))
def test_unmapped_fields_are_as_before(read: list[str], item_keys: list[str]) -> None:
    canon: dict[str, Any] = {**_CANON, "dead_ends": [{"action": "x", **{key: 1 for key in item_keys}}] * 2}
    found = [*read, *(f"dead_ends[{n}].{key}" for n in range(2) for key in dict.fromkeys(item_keys))]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(deadends._Reader, "unmapped", lambda self: list(read))
        imported = deadends.convert(canon, Path("c.json"))
    assert imported.unmapped == sorted(set(found), key=found.index)


class _CountedStr(str):
    """A field path that counts the comparisons made with it."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        _CountedStr.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_each_unmapped_field_is_compared_a_few_times(monkeypatch: Any) -> None:
    plain = deadends._field_path
    monkeypatch.setattr(deadends, "_field_path", lambda keys: _CountedStr(plain(keys)))
    count = 3_000
    canon = {**_CANON, **{f"x{n}": n for n in range(count)}}
    _CountedStr.compared = 0
    imported = deadends.convert(canon, Path("c.json"))
    assert imported.unmapped == [f"x{n}" for n in range(count)]
    assert _CountedStr.compared <= count  # (a sort keyed by list.index compared 4.5M times)


def test_a_canon_of_thousands_of_unknown_fields_imports(tmp_path: Path, monkeypatch: Any) -> None:
    count = 20_000
    canon = {**_CANON, "dead_ends": [{"action": f"a {n}", "zz": n} for n in range(count)]}
    (tmp_path / "c.json").write_text(json.dumps(canon), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["import", "--from", "deadends", "--out", "out", "-v", "c.json"])
    assert result.exit_code == 0, result.output
    listed = [line for line in result.output.splitlines() if line.startswith("  not carried over: ")]
    assert listed == [f"  not carried over: dead_ends[{n}].zz" for n in range(count)]
