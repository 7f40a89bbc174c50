"""Atomic writes, safe id paths and byte-preserving round-trips."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from entrykit import journal
from entrykit.errors import UsageError
from entrykit.paths import entry_path
from entrykit.roundtrip import load_document
from entrykit.writing import WriteRefused, atomic_write, write_files

from .conftest import FIXTURES, REPO
from .faults import Faults, SimulatedCrash, changed, snapshot


def test_atomic_write_replaces_and_keeps_mode(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    atomic_write(target, "new\n", within=tmp_path)
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
        atomic_write(target, "new\n", within=tmp_path)
    assert target.read_bytes() == b"original\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.yaml"]


def test_refuses_to_overwrite_unless_asked(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_text("mine\n")
    with pytest.raises(WriteRefused):
        atomic_write(target, "theirs\n", overwrite=False, within=tmp_path)
    assert target.read_text() == "mine\n"
    atomic_write(tmp_path / "b.yaml", "fresh\n", overwrite=False, within=tmp_path)
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


# -- several files as one change -------------------------------------------------------


def _three_files(tmp_path: Path) -> tuple[Path, Path, Path]:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second, doomed = tmp_path / "a" / "one.yaml", tmp_path / "b" / "two.yaml", tmp_path / "a" / "gone.yaml"
    first.write_bytes(b"one\n")
    second.write_bytes(b"two\n")
    doomed.write_bytes(b"gone\n")
    os.chmod(second, 0o600)
    return first, second, doomed


def _change(tmp_path: Path, first: Path, second: Path, doomed: Path) -> None:
    write_files(
        {first: "ONE\n", second: "TWO\n", tmp_path / "b" / "new.yaml": "NEW\n"}, delete=[doomed], within=tmp_path
    )


def test_write_files_writes_creates_deletes_and_keeps_modes(tmp_path: Path) -> None:
    first, second, doomed = _three_files(tmp_path)
    _change(tmp_path, first, second, doomed)
    assert snapshot(tmp_path) == {
        "a/one.yaml": b"ONE\n", "b/two.yaml": b"TWO\n", "b/new.yaml": b"NEW\n",
    } | {k: v for k, v in snapshot(tmp_path).items() if k in ("a", "b")}
    assert stat.S_IMODE(second.stat().st_mode) == 0o600
    assert not doomed.exists()


@pytest.mark.parametrize("error", ["oserror", "crash"])
def test_a_failure_at_any_step_of_write_files_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: str
) -> None:
    first, second, doomed = _three_files(tmp_path)
    with Faults().installed(monkeypatch) as dry:
        _change(tmp_path, first, second, doomed)
    steps = dry.steps
    done = snapshot(tmp_path)
    assert {"mkstemp", "write", "fsync", "chmod", "link", "replace"} <= set(steps)
    commit = max(i for i, step in enumerate(steps) if step == "replace")  # the last rename
    failures = 0
    for index in range(len(steps)):
        for path, raw in ((first, b"one\n"), (second, b"two\n"), (doomed, b"gone\n")):
            path.write_bytes(raw)
        (tmp_path / "b" / "new.yaml").unlink(missing_ok=True)
        before = snapshot(tmp_path)
        with Faults(fail_at=index, error=error).installed(monkeypatch):
            try:
                _change(tmp_path, first, second, doomed)
                raised = False
            except (OSError, SimulatedCrash):
                raised = True
        after = snapshot(tmp_path)
        if raised and index <= commit:  # all: nothing changed
            assert changed(before, after) == [], f"step {index} ({steps[index]})"
            failures += 1
        else:  # nothing: done anyway (a link that fails is a copy; old copies may stay behind)
            assert [k for k in changed(done, after) if not k.endswith(".old")] == [], f"step {index}"
    # every step up to the last rename failed the change, but a link (then a copy) when it is an OSError
    links = steps[: commit + 1].count("link") if error == "oserror" else 0
    assert failures == commit + 1 - links


def test_a_failed_change_removes_the_folders_it_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """All or nothing for folders too: a new file's folders, made to stage it, go again
    when a later step of the change fails."""
    (tmp_path / "entries" / "old").mkdir(parents=True)
    in_new_folders = tmp_path / "entries" / "new" / "deeper" / "one.yaml"
    last = tmp_path / "entries" / "old" / "two.yaml"
    before = sorted(path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*"))
    rename = os.replace

    def full_at_the_last(source: object, target: object) -> None:  # (after the first file is in place)
        if Path(str(target)) == last:
            raise OSError(28, "No space left on device")
        rename(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", full_at_the_last)
    with pytest.raises(OSError):
        write_files({in_new_folders: "one\n", last: "two\n"}, within=tmp_path)
    assert sorted(path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*")) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_what_is_no_regular_file_is_never_replaced(tmp_path: Path) -> None:
    """A rename onto a pipe or a device (`--output-file json=/dev/full`) would put a file
    in its place for good: refused before anything is written."""
    pipe = tmp_path / "report.json"
    os.mkfifo(pipe)
    other = tmp_path / "other.yaml"
    with pytest.raises(WriteRefused, match="is a device, pipe or socket, not a regular file"):
        write_files({other: "x\n", pipe: "y\n"}, within=tmp_path)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode) and not other.exists()
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    with pytest.raises(WriteRefused, match="is a folder, not a regular file"):
        atomic_write(folder, "z\n", within=tmp_path)


def test_write_files_refuses_to_overwrite_before_writing_anything(tmp_path: Path) -> None:
    first, second, _ = _three_files(tmp_path)
    before = snapshot(tmp_path)
    with pytest.raises(WriteRefused):
        write_files({tmp_path / "a" / "fresh.yaml": "x\n", second: "y\n"}, overwrite=False, within=tmp_path)
    assert changed(before, snapshot(tmp_path)) == []


def test_writing_through_a_link_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text("old\n")
    os.symlink("real.yaml", tmp_path / "link.yaml")
    atomic_write(tmp_path / "link.yaml", "new\n", within=None)
    write_files({tmp_path / "link.yaml": "newer\n"}, within=None)
    assert os.readlink(tmp_path / "link.yaml") == "real.yaml"
    assert real.read_text() == "newer\n"


def test_a_hard_crash_after_the_temp_write_leaves_the_original(tmp_path: Path) -> None:
    """The process dies (no handler runs) between the fsync of the temp file and the rename."""
    target = tmp_path / "entry.yaml"
    target.write_bytes(b"original\n")
    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from entrykit.writing import atomic_write\n"
        "os.replace = lambda *a, **k: os._exit(137)\n"
        "atomic_write(Path(sys.argv[1]), 'new\\n', within=None)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, str(target)], timeout=60)
    assert proc.returncode == 137
    assert target.read_bytes() == b"original\n"
    leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name != "entry.yaml")
    assert sorted(n.rsplit(".", 1)[1] for n in leftovers) == ["old", "tmp"]
    assert all(n.startswith(".entry.yaml.") for n in leftovers)
    outcomes = journal.recover()  # what the next command does first
    assert any(o.files == 1 and o.cleaned == 2 and not o.restored for o in outcomes)
    assert [p.name for p in tmp_path.iterdir()] == ["entry.yaml"] and target.read_bytes() == b"original\n"


_KILLED_IN_NEW_FOLDERS = (
    "import os, sys\n"
    "from pathlib import Path\n"
    "from entrykit.writing import write_files\n"
    "os.replace = lambda *a, **k: os._exit(137)\n"
    "write_files({Path(sys.argv[1]): 'one\\n', Path(sys.argv[2]): 'two\\n'}, within=None)\n"
)


def _killed_in_new_folders(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """A change of a file in two new folders and of an existing one, killed at its first
    rename: (the new folders, innermost first; the tree as it was before)."""
    (tmp_path / "entries" / "old").mkdir(parents=True)
    (tmp_path / "entries" / "old" / "two.yaml").write_text("old\n", encoding="utf-8")
    new = tmp_path / "entries" / "new" / "deeper" / "one.yaml"
    before = sorted(path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*"))
    proc = subprocess.run(
        [sys.executable, "-c", _KILLED_IN_NEW_FOLDERS, str(new), str(tmp_path / "entries" / "old" / "two.yaml")],
        timeout=60,
    )
    assert proc.returncode == 137
    assert new.parent.is_dir()  # made to stage the new file, and left by the kill
    return new.parent, new.parent.parent, before


def test_recovery_after_a_kill_removes_the_folders_the_change_made(tmp_path: Path) -> None:
    deeper, new, before = _killed_in_new_folders(tmp_path)
    outcomes = journal.recover()  # what the next command does first
    assert [o.removed_folders for o in outcomes if o.removed_folders] == [[str(deeper), str(new)]]
    assert sorted(path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*")) == before
    assert (tmp_path / "entries" / "old" / "two.yaml").read_text(encoding="utf-8") == "old\n"


def test_recovery_keeps_a_made_folder_that_holds_other_files_or_was_made_again(tmp_path: Path) -> None:
    """Only the change's own folders go, and only empty: one a user has since put a file in
    stays, and so does one of the same name made since (another folder)."""
    deeper, new, _ = _killed_in_new_folders(tmp_path)
    (new / "mine.yaml").write_text("kept\n", encoding="utf-8")
    deeper.rename(new / "moved")  # (with the change's temporary file in it)
    deeper.mkdir()  # the same name, another folder: the old one still exists
    outcomes = journal.recover()
    assert [o.removed_folders for o in outcomes if o.files] == [[]]
    assert deeper.is_dir() and (new / "mine.yaml").read_text(encoding="utf-8") == "kept\n"


def test_a_file_changed_since_it_was_read_is_not_overwritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another program writes a file between the command's read and its write (an editor, a
    teammate's script): the change is refused whole, before or while it is made."""
    from entrykit import writing

    first, second, gone = tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "c.yaml"
    for path in (first, second, gone):
        path.write_text(f"old {path.stem}\n", encoding="utf-8")
    read = {path: f"old {path.stem}\n" for path in (first, second, gone)}
    second.write_text("old b\nedited meanwhile\n", encoding="utf-8")
    with pytest.raises(WriteRefused, match="changed since it was read"):
        write_files({first: "new a\n", second: "new b\n"}, delete=[gone], within=tmp_path, read=read)
    assert second.read_text(encoding="utf-8") == "old b\nedited meanwhile\n"
    assert first.read_text(encoding="utf-8") == "old a\n" and gone.exists()
    second.write_text("old b\n", encoding="utf-8")
    stage = writing._stage

    def stage_then_edit(path: Path, data: bytes, mode: int, journal: object = None) -> Path:
        staged = stage(path, data, mode, journal)  # type: ignore[arg-type]
        if path == second:  # (after the check before anything is written)
            with gone.open("a", encoding="utf-8") as stream:
                stream.write("a line a teammate added\n")
        return staged

    monkeypatch.setattr(writing, "_stage", stage_then_edit)
    with pytest.raises(WriteRefused, match="c.yaml` changed since it was read"):
        write_files({first: "new a\n", second: "new b\n"}, delete=[gone], within=tmp_path, read=read)
    assert [p.read_text(encoding="utf-8") for p in (first, second)] == ["old a\n", "old b\n"]  # rolled back
    assert gone.read_text(encoding="utf-8") == "old c\na line a teammate added\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml", "c.yaml"]


def test_a_byte_order_mark_is_no_change(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_bytes(b"\xef\xbb\xbfold\n")
    write_files({target: "new\n"}, within=tmp_path, read={target: "old\n"})
    assert target.read_text(encoding="utf-8") == "new\n"
