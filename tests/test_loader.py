"""Malformed files are ET001 diagnostics with positions, never tracebacks."""

from __future__ import annotations

import codecs
import os
from pathlib import Path

import pytest

from entrykit.config import from_table
from entrykit.lint.engine import lint
from entrykit.loader import LoadFailure, load, read_entry_bytes

from .conftest import TODAY


def _load(tmp_path: Path, name: str, raw: bytes) -> object:
    path = tmp_path / name
    path.write_bytes(raw)
    return load(path, name)


@pytest.mark.parametrize(
    ("name", "raw", "line", "col", "words"),
    [
        ("bad.yaml", b"id: test/a\nsignature: caf\xe9\n", 2, 15, "invalid UTF-8"),
        ("bin.yaml", bytes(range(256)), 1, 1, "NUL byte"),
        ("nul.json", b'{"id": "a"}\n\x00', 2, 1, "NUL byte"),
        ("u16.yaml", codecs.BOM_UTF16_LE + "id: a\n".encode("utf-16-le"), 1, 1, "UTF-16"),
        ("empty.yaml", b"", 1, 1, "empty"),
        ("blank.json", b"  \n\n", 1, 1, "empty"),
        ("list.json", b"[1, 2]", 1, 1, "found a list"),
        ("scalar.yaml", b"42\n", 1, 1, "found a number"),
        ("trunc.yaml", b"id: a\nsignature: [1, 2\n", 3, 1, "invalid YAML"),
        ("trunc.json", b'{"id": "a",\n "x": ', 2, 7, "invalid JSON"),
        ("deep.json", b"[" * 100_000 + b"]" * 100_000, 1, 51, "nesting deeper than 50 levels"),
        # libyaml stops at its own limit (1,000 levels) before it says where level 51 opened
        ("deep.yaml", b"[" * 100_000 + b"]" * 100_000, 1, None, "nesting deeper than 50 levels"),
    ],
)
def test_bad_bytes_are_located(
    tmp_path: Path, name: str, raw: bytes, line: int, col: int | None, words: str
) -> None:
    result = _load(tmp_path, name, raw)
    assert isinstance(result, LoadFailure)
    assert (result.line, result.col if col is not None else None) == (line, col)
    assert words in result.message


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    result = _load(tmp_path, "bom.yaml", codecs.BOM_UTF8 + b"id: test/a\n")
    assert not isinstance(result, LoadFailure)
    assert result.data == {"id": "test/a"}  # type: ignore[union-attr]


def test_file_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"signature: " + b"a" * 5000 + b"\n")
    result = load(path, "big.yaml", max_bytes=1000)
    assert isinstance(result, LoadFailure) and "over the limit" in result.message


def test_yaml_follows_the_1_2_core_schema_and_keeps_dates_as_text(tmp_path: Path) -> None:
    text = b"a: yes\nb: on\nc: 2024-06-01\nd: 0o17\ne: 1_000\nf: ~\ng: TRUE\nh: 1.5e3\ni: 017\n"
    entry = _load(tmp_path, "s.yaml", text)
    assert entry.data == {  # type: ignore[union-attr]
        "a": "yes", "b": "on", "c": "2024-06-01", "d": 15, "e": 1000, "f": None, "g": True, "h": 1500.0,
        "i": 17,  # as ruamel.yaml reads it (YAML 1.1 read fifteen: ET006)
    }


def test_one_bad_file_does_not_stop_the_corpus(tmp_path: Path) -> None:
    root = tmp_path / "entries" / "pip"
    root.mkdir(parents=True)
    (root / "bad.yaml").write_bytes(b"\xff\xfe\x00garbage")
    (root / "good.yaml").write_text('id: pip/good\nsignature: "x"\nregex: "y"\n')
    config = from_table({"root": "entries", "select": ["ET0", "ET202"]}, tmp_path)
    result = lint(None, config, TODAY, cwd=tmp_path)
    assert [(d.path, d.code) for d in result.diagnostics] == [
        ("entries/pip/bad.yaml", "ET001"),
        ("entries/pip/good.yaml", "ET202"),
    ]


@pytest.mark.parametrize(("size", "limit", "whole"), [(5000, 8000, True), (5000, 3000, False)])
def test_a_file_that_grew_since_stat_is_read_up_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int, limit: int, whole: bool
) -> None:
    """The read is sized by what stat said; a file longer than that (it grew, or stat does
    not know its size) is still read whole, or refused past the limit."""
    path = tmp_path / "grown.yaml"
    path.write_bytes(b"signature: " + b"a" * (size - 12) + b"\n")
    real_stat = Path.stat

    def stat_said_less(self: Path, **kwargs: object) -> os.stat_result:
        info = real_stat(self, **kwargs)  # type: ignore[arg-type]
        if self == path:
            return os.stat_result((info.st_mode, *info[1:6], 100, *info[7:]))
        return info

    monkeypatch.setattr(Path, "stat", stat_said_less)
    raw = read_entry_bytes(path, limit)
    if whole:
        assert raw == path.read_bytes()
    else:
        assert isinstance(raw, str) and "over the limit of 3,000 bytes" in raw
