"""The regex rules read an entry's regex once for all of them (its parse, whether it
compiles): what one entry's check keeps is never read for another, nor under other flags."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from entrykit.entry import Entry
from entrykit.lint import engine
from entrykit.rules import regex as regex_rules
from entrykit.rules import regex_hygiene

from .conftest import TODAY, make_config

ENTRIES = {
    "d/a.yaml": {"id": "d/a", "signature": "Error: disk full (code 28)", "regex": r"Error:\ disk full \(code \d+\).*$"},
    "d/b.yaml": {"id": "d/b", "signature": "error: DISK FULL", "regex": "error: DISK FULL|error: disk full"},
    "d/c.yaml": {"id": "d/c", "signature": "fatal: no such file", "regex": "fatal: no such [file"},
    # too costly to compile within 1 ms of budget (counted), not within 100 ms
    "d/d.yaml": {"id": "d/d", "signature": "fatal: disk full", "regex": "fatal: " + "y" * 3000},
}
FLAGS: list[dict[str, Any]] = [{}, {"regex": {"flags": ["IGNORECASE"]}}, {"regex": {"timeout_ms": 1}}]


def _entry(tmp_path: Path, name: str) -> Entry:
    return Entry(name, tmp_path / "entries" / name, "yaml", dict(ENTRIES[name]), "")


def _found(tmp_path: Path, entry: Entry, table: dict[str, Any]) -> list[tuple[str, int, int, str]]:
    config = make_config(tmp_path, {"select": ["ET2"], **table})
    return [(d.code, d.line, d.col, d.message) for d in engine.check([entry], [entry], config, TODAY)]


def _forget() -> None:
    regex_hygiene._parsed_of.forget()
    regex_rules._compiling_of.forget()


def test_each_entry_and_each_setting_is_read_for_itself(tmp_path: Path) -> None:
    fresh: dict[tuple[str, int], list[tuple[str, int, int, str]]] = {}
    for name in ENTRIES:
        for which, table in enumerate(FLAGS):
            _forget()
            fresh[name, which] = _found(tmp_path, _entry(tmp_path, name), table)
    assert fresh["d/a.yaml", 0] != fresh["d/b.yaml", 0]
    assert fresh["d/b.yaml", 0] != fresh["d/b.yaml", 1]  # (the duplicate alternatives: caseless, three)
    assert any(code == "ET201" for code, *_ in fresh["d/c.yaml", 0])
    assert fresh["d/d.yaml", 0] != fresh["d/d.yaml", 2]  # (ET202 where it compiles, ET206 where it is too costly to)
    entries = {name: _entry(tmp_path, name) for name in ENTRIES}
    order = [
        ("d/a.yaml", 0), ("d/b.yaml", 0), ("d/b.yaml", 1), ("d/a.yaml", 1), ("d/c.yaml", 0), ("d/c.yaml", 1),
        ("d/d.yaml", 0), ("d/d.yaml", 2), ("d/d.yaml", 0), ("d/a.yaml", 2), ("d/a.yaml", 0),
    ]
    for name, which in order:  # one after the other, the same entries, nothing forgotten between
        assert _found(tmp_path, entries[name], FLAGS[which]) == fresh[name, which]


def test_the_regex_is_parsed_and_compiled_once_for_all_the_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[Any] = []
    compiled: list[Any] = []
    real_parse, real_compiling = regex_hygiene._parse, regex_rules._compiling
    monkeypatch.setattr(regex_hygiene, "_parse", lambda *args: parsed.append(args) or real_parse(*args))
    monkeypatch.setattr(regex_rules, "_compiling", lambda *args: compiled.append(args) or real_compiling(*args))
    _forget()
    for name in ENTRIES:
        _found(tmp_path, _entry(tmp_path, name), {})
    assert [args[0] for args in parsed] == [e["regex"] for e in ENTRIES.values()]
    assert [args[0] for args in compiled] == [e["regex"] for e in ENTRIES.values()]
