"""Hostile input, class by class: a diagnostic with a position, never a traceback, hang or surprise read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from entrykit.config import from_table
from entrykit.entry import Entry
from entrykit.errors import ConfigError
from entrykit.lint.engine import lint
from entrykit.loader import Limits, LoadFailure, discover, load
from entrykit.parsing import parse_json, parse_yaml

from .conftest import TODAY
from .hostile import (
    BAD_FILES,
    can_make_unreadable,
    entry_text,
    restore_permissions,
    special_files,
)

# Classes whose every file is not an entry at all (ET001); the others load and are linted.
NOT_ENTRIES = {
    "invalid UTF-8", "UTF-16 or UTF-32 with BOM", "NUL bytes", "empty file", "10 MB single-line file",
    "deep nesting (100,000 levels)", "YAML alias bombs", "arbitrary tags (never constructed)",
    "top-level list or scalar",
}
CASES = [(kind, name) for kind, files in BAD_FILES.items() for name in files]


@pytest.mark.parametrize(("kind", "name"), CASES, ids=[f"{k}:{n}" for k, n in CASES])
def test_every_bad_file_is_et001_at_a_place_in_it_or_an_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, name: str
) -> None:
    monkeypatch.chdir(tmp_path)  # a tag that ran `touch SENTINEL` would leave it here
    raw = BAD_FILES[kind][name]
    path = tmp_path / name
    path.write_bytes(raw)
    result = load(path, name)
    if kind in NOT_ENTRIES:
        assert isinstance(result, LoadFailure), result
        assert 1 <= result.line <= raw.count(b"\n") + 1 and result.col >= 1
        assert result.message
    else:
        assert isinstance(result, Entry)
    assert not (tmp_path / "SENTINEL").exists()


@pytest.mark.parametrize(
    ("kind", "name", "line", "col", "words"),
    [
        ("invalid UTF-8", "lone-byte.yaml", 2, 22, "invalid UTF-8 byte `0xff`"),
        ("NUL bytes", "nul-inside.yaml", 2, 22, "NUL byte"),
        ("deep nesting (100,000 levels)", "deep-flow.yaml", 2, 1006, "nesting deeper than 50 levels"),
        ("deep nesting (100,000 levels)", "deep-compact.yaml", 1, 101, "nesting deeper than 50 levels"),
        ("deep nesting (100,000 levels)", "deep-mapping.yaml", 51, 51, "nesting deeper than 50 levels"),
        ("deep nesting (100,000 levels)", "deep-arrays.json", 1, 51, "nesting deeper than 50 levels"),
        ("deep nesting (100,000 levels)", "deep-objects.json", 1, 251, "nesting deeper than 50 levels"),
        ("YAML alias bombs", "billion-laughs.yaml", 7, 35, "more than 50 aliases of collections"),
        ("YAML alias bombs", "recursive-sequence.yaml", 2, 11, "alias `*x` refers to a node that contains it"),
        ("YAML alias bombs", "recursive-mapping.yaml", 2, 21, "alias `*x` refers to a node that contains it"),
        ("YAML alias bombs", "many-aliases.yaml", 3, 208, "more than 50 aliases"),
        ("arbitrary tags (never constructed)", "os-system.yaml", 1, 5, "tag `tag:yaml.org,2002:python/object/apply:os.system` is not allowed"),
        ("top-level list or scalar", "number.json", 1, 1, "found a number"),
    ],
)
def test_positions_of_bad_files(tmp_path: Path, kind: str, name: str, line: int, col: int, words: str) -> None:
    path = tmp_path / name
    path.write_bytes(BAD_FILES[kind][name])
    result = load(path, name)
    assert isinstance(result, LoadFailure)
    assert (result.line, result.col) == (line, col)
    assert words in result.message


def test_limits_are_configurable_with_sane_defaults(tmp_path: Path) -> None:
    config = from_table({}, tmp_path)
    assert config.limits == Limits(2 * 1024 * 1024, 50, 50)
    nested = "id: a/b\nx: " + "[" * 60 + "]" * 60 + "\n"
    aliases = "id: a/b\nanchor: &a [1]\nlist: [" + ", ".join(["*a"] * 60) + "]\n"
    assert parse_yaml(nested).problem is not None and parse_yaml(aliases).problem is not None
    assert parse_yaml(nested, max_nesting=100).problem is None
    assert parse_yaml(aliases, max_aliases=60).problem is None
    assert parse_json('{"x": ' + "[" * 60 + "]" * 60 + "}", max_nesting=61).problem is None
    raised = from_table({"max-nesting": 100, "max-aliases": 0, "max-file-bytes": 10}, tmp_path)
    assert raised.limits == Limits(10, 100, 0)
    assert parse_yaml("a: &x [1]\nb: *x\n", max_aliases=0).problem is not None
    for key, value in [("max-nesting", 0), ("max-aliases", -1), ("max-nesting", True), ("max-aliases", "5")]:
        with pytest.raises(ConfigError, match=key):
            from_table({key: value}, tmp_path)


def test_aliases_of_scalars_and_shared_subtrees_within_limits_load(tmp_path: Path) -> None:
    parsed = parse_yaml("a: &s text\nb: *s\nc: &l [1, 2]\nd: [*l, *l]\n")
    assert parsed.problem is None
    assert parsed.data == {"a": "text", "b": "text", "c": [1, 2], "d": [[1, 2], [1, 2]]}


def test_complex_keys_are_named_whole_and_not_taken_for_duplicates(tmp_path: Path) -> None:
    root = tmp_path / "entries" / "bad"
    root.mkdir(parents=True)
    (root / "keys.yaml").write_bytes(BAD_FILES["non-string keys"]["complex-keys.yaml"])
    result = lint(None, from_table({"root": "entries", "select": ["ET0", "ET101"]}, tmp_path), TODAY, cwd=tmp_path)
    found = [(d.line, d.code, d.message) for d in result.diagnostics]
    assert [code for _, code, _ in found if code == "ET003"] == []
    assert sum(code == "ET004" for _, code, _ in found) == 3
    assert any("`['a', 'b']`" in message for _, code, message in found if code == "ET101")


# -- files that are not bytes -------------------------------------------------------------


@pytest.fixture
def special(tmp_path: Path):
    root = tmp_path / "entries"
    made = special_files(root / "odd", tmp_path / "outside")
    (root / "ok").mkdir()
    (root / "ok" / "fine.yaml").write_text(entry_text("ok/fine"), encoding="utf-8")
    yield root, made
    restore_permissions(root / "odd")


def test_discovery_never_hangs_follows_no_link_out_and_loses_nothing(special, tmp_path: Path) -> None:
    root, _ = special
    config = from_table({"root": "entries", "select": ["ET0"]}, tmp_path)
    found = {p.relative_to(root).as_posix() for p in discover([root])}
    # the directory link loop is never followed; the directory named like an entry is walked into
    assert "odd/dir-entry.yaml/inside.yaml" in found and not any("loop-dir" in p for p in found)
    assert not any(p.startswith("odd/leak-dir") for p in found)
    result = lint(None, config, TODAY, cwd=tmp_path)
    by_file = {d.path.split("entries/", 1)[1]: d.message for d in result.diagnostics if d.code == "ET001"}
    assert "outside the corpus; not read" in by_file["odd/leak.yaml"]
    assert "outside the corpus; not read" in by_file["odd/zero.yaml"]  # /dev/zero: never read
    assert "No such file or directory" in by_file["odd/dangling.yaml"]  # a link inside, to nothing
    assert "Too many levels of symbolic links" in by_file["odd/loop-a.yaml"]
    assert "not a regular file" in by_file["odd/pipe.yaml"]  # a pipe would block a read forever
    assert "ok/fine.yaml" in [f.split("entries/", 1)[1] for f in result.files]
    if can_make_unreadable(root):
        assert "Permission denied" in by_file["odd/locked.yaml"]
        assert "cannot list directory" in by_file["odd/locked-dir"]
    assert not any("top secret" in d.message or "bad/secret" in d.message for d in result.diagnostics)
    assert all(entry.id != "bad/secret" for entry in result.entries)


def test_a_link_inside_the_corpus_is_followed(tmp_path: Path) -> None:
    root = tmp_path / "entries" / "pip"
    root.mkdir(parents=True)
    (root / "real.yaml").write_text(entry_text("pip/real"), encoding="utf-8")
    os.symlink("real.yaml", root / "alias.yaml")
    result = load(root / "alias.yaml", "alias.yaml", within=tmp_path / "entries")
    assert isinstance(result, Entry) and result.id == "pip/real"


def test_unreadable_files_and_directories_are_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the user running the tests may read: permission errors are injected."""
    root = tmp_path / "entries" / "pip"
    (root / "sub").mkdir(parents=True)
    (root / "locked.yaml").write_text(entry_text("pip/locked"), encoding="utf-8")
    (root / "sub" / "inner.yaml").write_text(entry_text("pip/inner"), encoding="utf-8")
    (root / "fine.yaml").write_text(entry_text("pip/fine"), encoding="utf-8")
    real_open, real_scandir = open, os.scandir

    def guarded_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(file).endswith("locked.yaml"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    def guarded_scandir(path="."):  # type: ignore[no-untyped-def]
        if str(path).endswith("sub"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr("builtins.open", guarded_open)
    monkeypatch.setattr(os, "scandir", guarded_scandir)
    result = lint(None, from_table({"root": "entries", "select": ["ET0"]}, tmp_path), TODAY, cwd=tmp_path)
    messages = {d.path: d.message for d in result.diagnostics}
    assert messages == {
        "entries/pip/locked.yaml": "cannot read file: Permission denied",
        "entries/pip/sub": "cannot list directory: Permission denied",
    }
    assert "entries/pip/fine.yaml" in result.files
