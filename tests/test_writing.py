"""Atomic writes, safe id paths and byte-preserving round-trips."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from entrykit.errors import UsageError
from entrykit.paths import entry_path
from entrykit.roundtrip import load_document
from entrykit.writing import WriteRefused, atomic_write

from .conftest import FIXTURES, REPO


def test_atomic_write_replaces_and_keeps_mode(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    atomic_write(target, "new\n")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.yaml"]


def test_failure_before_replace_leaves_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a.yaml"
    target.write_bytes(b"original\n")

    def disk_full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError):
        atomic_write(target, "new\n")
    assert target.read_bytes() == b"original\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.yaml"]


def test_refuses_to_overwrite_unless_asked(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_text("mine\n")
    with pytest.raises(WriteRefused):
        atomic_write(target, "theirs\n", overwrite=False)
    assert target.read_text() == "mine\n"
    atomic_write(tmp_path / "b.yaml", "fresh\n", overwrite=False)
    assert (tmp_path / "b.yaml").read_text() == "fresh\n"


@pytest.mark.parametrize(
    "bad", ["../../etc/x", "/etc/passwd", "pip\\..\\x", "pip/a\x00b", "pip/../x", "pip", "a/b/c", "Pip/X", ""]
)
def test_unsafe_ids_never_become_paths(tmp_path: Path, bad: str) -> None:
    with pytest.raises(UsageError):
        entry_path(tmp_path, bad)


def test_entry_path(tmp_path: Path) -> None:
    assert entry_path(tmp_path, "pip/no-match") == (tmp_path / "pip" / "no-match.yaml").resolve()


def _files() -> list[Path]:
    return sorted(
        p
        for folder in (REPO / "entries", FIXTURES / "seed001", FIXTURES / "golden")
        for p in folder.rglob("*")
        if p.suffix in (".yaml", ".json") and p.name != "broken.json" and p.name != "expected.yaml"
    )


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(REPO)))
def test_round_trip_is_byte_identical(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert load_document(text, "json" if path.suffix == ".json" else "yaml").dump() == text


def test_round_trip_keeps_comments_and_other_layouts() -> None:
    text = "# head\nid: a  # the id\nlist:\n- x\n- 'y'\nmap:\n    k: v\n"
    document = load_document(text, "yaml")
    document.set("/map/k", "w")
    assert document.dump() == text.replace("k: v", "k: w")


def test_replace_keeps_quoting_and_the_gap_before_comments() -> None:
    text = 'id: a  # the id\nlist:\n  - "one"  # first\n  - two # second\nkey: \'x\'\n'
    document = load_document(text, "yaml")
    document.replace("/list/0", "three")
    document.replace("/list/1", "twenty-two")
    document.replace("/id", "abc")
    document.replace("/key", "longer value")
    assert document.dump() == (
        'id: abc  # the id\nlist:\n  - "three"  # first\n  - twenty-two # second\nkey: \'longer value\'\n'
    )
