"""Recovery after a killed change of several files: what it puts back, what it leaves, and
which records it refuses to act on."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from entrykit import journal, private_folder
from entrykit.cli.common import recover_interrupted_writes
from entrykit.writing import WriteRefused, write_files

# Runs write_files on the files named on the command line (each gets "new <name>"), and
# dies (no handler runs) at the os.replace call given first.
_KILLED_AT_REPLACE = (
    "import os, sys\n"
    "from pathlib import Path\n"
    "from entrykit.writing import write_files\n"
    "real, calls, deadly = os.replace, [0], int(sys.argv[1])\n"
    "def replace(*a, **k):\n"
    "    calls[0] += 1\n"
    "    if calls[0] == deadly:\n"
    "        os._exit(137)\n"
    "    return real(*a, **k)\n"
    "os.replace = replace\n"
    "write_files({Path(p): 'new ' + Path(p).stem[-1] + '\\n' for p in sys.argv[2:]}, within=None)\n"
)


def _killed(deadly: int, *paths: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", _KILLED_AT_REPLACE, str(deadly), *map(str, paths)], timeout=60)
    assert proc.returncode == 137


@pytest.fixture(autouse=True)
def _checkout_anywhere() -> Iterator[None]:
    journal.keep_out_of([])
    yield
    journal.keep_out_of([])


def test_two_names_cut_alike_keep_their_own_contents(tmp_path: Path) -> None:
    """Names that share their first `NAME_BYTES` bytes (ids are not limited in length) have
    hidden files of their own: recovery puts each original back in its own file."""
    stem = "x" * journal.NAME_BYTES
    first, second = tmp_path / f"{stem}-a", tmp_path / f"{stem}-b"
    first.write_text("old a\n", encoding="utf-8")
    second.write_text("old b\n", encoding="utf-8")
    assert journal.short_name(first.name) != journal.short_name(second.name)
    assert all(len(journal.short_name(p.name).encode()) <= journal.NAME_BYTES for p in (first, second))
    _killed(2, first, second)  # the first file replaced, the second set aside but not replaced
    assert first.read_text(encoding="utf-8") == "new a\n"
    outcomes = journal.recover()
    assert [sorted(o.restored) for o in outcomes] == [[str(first)]]
    assert (first.read_text(encoding="utf-8"), second.read_text(encoding="utf-8")) == ("old a\n", "old b\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.name, second.name])


def test_a_file_edited_in_place_after_a_kill_keeps_the_edit(tmp_path: Path) -> None:
    """The file the change wrote, edited since without a new inode (`>>`, an editor saving in
    place), is the user's now: recovery leaves it, and says where the content before is."""
    edited, other = tmp_path / "a.yaml", tmp_path / "b.yaml"
    edited.write_text("old a\n", encoding="utf-8")
    other.write_text("old b\n", encoding="utf-8")
    _killed(2, edited, other)
    with edited.open("a", encoding="utf-8") as stream:
        stream.write("# a hand edit after the crash\n")
    [outcome] = journal.recover()
    assert edited.read_text(encoding="utf-8") == "new a\n# a hand edit after the crash\n"
    assert other.read_text(encoding="utf-8") == "old b\n"
    [(path, aside)] = outcome.kept
    assert path == str(edited) and Path(aside).read_text(encoding="utf-8") == "old a\n"


def test_a_file_made_while_a_new_one_is_written_is_never_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`overwrite=False` (new, import) holds until the file is in place: another process
    making the file after the check loses nothing, and nothing of the change is left."""
    from entrykit import writing

    target, fresh = tmp_path / "x" / "taken.yaml", tmp_path / "x" / "fresh.yaml"
    stage = writing._stage

    def stage_then_race(path: Path, data: bytes, mode: int, journal: object = None) -> Path:
        staged = stage(path, data, mode, journal)  # type: ignore[arg-type]
        if path == target:
            target.write_text("theirs\n", encoding="utf-8")
        return staged

    monkeypatch.setattr(writing, "_stage", stage_then_race)
    with pytest.raises(WriteRefused, match="exists"):
        write_files({fresh: "mine\n", target: "mine\n"}, overwrite=False, within=tmp_path)
    assert target.read_text(encoding="utf-8") == "theirs\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["taken.yaml"]


def _forged_record(cache: Path, victim: Path, home: tuple[int, int] | None = None) -> None:
    """A record a checkout could ship with its own key: the victim as a file the change made."""
    top = private_folder.open_folder(cache)
    key = private_folder.secret_key(top)
    folder = top.folder(journal.FOLDER, create=True)
    assert folder is not None
    info = victim.stat()
    change = "0123456789abcdef"
    body = json.dumps({
        "change": change, "committed": False, "home": list(home or folder.identity()),
        "steps": [[str(victim), False, [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns]]],
        "folders": [],
    }).encode()  # fmt: skip
    tag = hashlib.blake2b(change.encode() + b"\0" + body, key=key, digest_size=32, person=b"entrykit-journal").digest()
    folder.write(f"{change}.journal", tag + body)
    folder.close()
    top.close()


def test_a_record_shipped_from_another_folder_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A private folder copied whole (key and records, as an archive keeps them) is another
    folder: its records name the folder they were written in, and are not acted on."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    made = tmp_path / "made"
    _forged_record(made, victim)
    shipped = tmp_path / "shipped"
    shutil.copytree(made, shipped)
    monkeypatch.setenv(private_folder.ENV_VAR, str(shipped))
    assert journal.recover() == []
    assert victim.read_text(encoding="utf-8") == "precious\n"
    monkeypatch.setenv(private_folder.ENV_VAR, str(made))  # where it was written, it is read
    assert [o.removed_new for o in journal.recover()] == [[str(victim)]]


def test_the_journal_is_never_read_in_the_work_tree_a_command_runs_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENTRYKIT_CACHE_DIR inside the checkout (a relative `.cache/entrykit`): a key and records
    a pull request put there are not read, even ones that name their folder rightly; the
    command says why it keeps no journal."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    _forged_record(project / ".cache" / "entrykit", victim)
    monkeypatch.chdir(project)
    monkeypatch.setenv(private_folder.ENV_VAR, ".cache/entrykit")
    recover_interrupted_writes()  # what `main` does before every command
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert journal.Journal.begin([]) is None  # nor kept there
    journal.keep_out_of([])
    assert [o.removed_new for o in journal.recover()] == [[str(victim)]]  # (the record itself was sound)


def test_main_warns_when_the_journal_would_lie_in_the_work_tree(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    env = {**os.environ, private_folder.ENV_VAR: ".cache/entrykit"}
    proc = subprocess.run(
        [sys.executable, "-m", "entrykit", "rules"], cwd=project, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0
    assert "not keeping a journal of writes" in proc.stderr and str(project) in proc.stderr


def test_a_change_of_several_files_without_a_journal_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A private folder others may write is no place for the journal: the change still runs,
    and the command says that a kill midway could not be rolled back (one file: nothing to say)."""
    from entrykit.writing import UnjournaledWrite

    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv(private_folder.ENV_VAR, str(shared))
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    with pytest.warns(UnjournaledWrite, match="changing 2 files without a journal .*may be written by other users"):
        write_files({first: "a\n", second: "b\n"}, within=tmp_path)
    assert (first.read_text(encoding="utf-8"), second.read_text(encoding="utf-8")) == ("a\n", "b\n")
    project = tmp_path / "project"
    (project / "entries" / "git").mkdir(parents=True)
    (project / "entrykit.toml").write_text('root = "entries"\n', encoding="utf-8")
    for name in ("a", "b"):
        (project / "entries" / "git" / f"{name}.yaml").write_text(f'signature:    "{name}"\nid: git/{name}\n', encoding="utf-8")
    env = {**os.environ, private_folder.ENV_VAR: str(shared)}
    proc = subprocess.run(
        [sys.executable, "-m", "entrykit", "fmt"], cwd=project, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("entrykit: warning: changing 2 files without a journal") == 1, proc.stderr


def test_what_a_change_killed_before_its_first_record_left_is_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock and a half-written record of a change whose process is gone are removed by the
    next recovery; those of a change still at work stay."""
    monkeypatch.setenv(private_folder.ENV_VAR, str(tmp_path / "cache"))
    top = private_folder.open_folder(tmp_path / "cache")
    private_folder.secret_key(top)
    folder = top.folder(journal.FOLDER, create=True)
    assert folder is not None
    dead, alive = "0123456789abcdef", "fedcba9876543210"
    folder.create(f"{dead}.lock", b"")
    folder.create(f".{dead}.journal.00aa11bb22cc.tmp", b"half a record")
    held = folder.lock(f"{alive}.lock")
    folder.create(f".{alive}.journal.33dd44ee55ff.tmp", b"being written")
    assert journal.recover() == []
    assert sorted(folder.files()) == [f".{alive}.journal.33dd44ee55ff.tmp", f"{alive}.lock"]
    assert held is not None
    folder.unlock(held)
    folder.close()
    top.close()
