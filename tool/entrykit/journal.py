"""The journal of changes to several files: what `writing.write_files` is about to do, kept
in entrykit's private folder, so that a run killed in the middle (SIGKILL, power loss) is
rolled back by the next entrykit command, whichever it is.

A change is recorded before its first temporary file is made and marked committed once
every file is in place; while it runs, its process holds a lock on it. Every temporary
file and every kept-aside original of the change is named `.<file name>.<change id>.…`
beside its file, so the journal knows them without listing random names. `recover`
finds changes whose process is gone (their lock is free): one that was not committed is
rolled back (each original put back in place, unless the file changed again since, and
each folder the change made removed again if it is empty) and its temporary files
removed; one that was committed only loses the leftovers. Records are authenticated
with the private folder's key, name the folder they were written in (a record copied
or shipped elsewhere is not read), and only rename or remove files of those hidden
names, a file the change itself made, and folders only empty. The journal is never
kept in the checkout a command runs in (`keep_out_of`), where a pull request could
put a key and records of its own.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from entrykit.private_folder import Folder, Unusable, location, open_folder, secret_key

FOLDER = "journal"
_MAX_RECORD = 64 << 20
NAME_BYTES = 200  # of a file's name in its temporary names: the rest fits any file system
_NAME_DIGEST = 8  # bytes of the digest that tells apart long names cut alike
_kept_out_of: tuple[Path, ...] = ()  # real paths: see `keep_out_of`

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no journal
    fcntl = None  # type: ignore[assignment]


def short_name(name: str) -> str:
    """`name` as the hidden names beside it hold it: at most `NAME_BYTES` bytes of UTF-8. A
    longer name is cut (whole characters) and ends in a digest of the whole name, so two
    names cut alike never share their hidden files."""
    data = name.encode("utf-8", "surrogateescape")
    if len(data) <= NAME_BYTES:
        return name
    digest = hashlib.blake2b(data, digest_size=_NAME_DIGEST).hexdigest()
    return data[: NAME_BYTES - len(digest) - 1].decode("utf-8", "ignore") + "~" + digest


def keep_out_of(folders: Sequence[Path]) -> None:
    """Never keep or read the journal inside these folders (the checkout a command runs in)."""
    global _kept_out_of
    _kept_out_of = tuple(Path(os.path.realpath(folder)) for folder in folders)


def inside_kept_out(where: Path) -> Path | None:
    """The folder of `keep_out_of` that `where` lies in, if any."""
    real = Path(os.path.realpath(where))
    return next((f for f in _kept_out_of if real == f or f in real.parents), None)


def file_identity(path: str | Path) -> tuple[int, int, int, int] | None:
    """What a file is and, as far as its metadata tells, holds: device, inode, size and
    modification time. A file edited in place since is no longer the one recorded."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def hidden_prefix(path: Path, change: str) -> str:
    """The start of every hidden name the change `change` makes beside `path`."""
    return f".{short_name(path.name)}.{change}."


@dataclass
class Step:
    """One file of a change: written (its old content kept aside while the change runs) or
    deleted (moved aside). `identity` is the new content's file once staged (`file_identity`)."""

    path: str
    deleting: bool = False
    identity: tuple[int, int, int, int] | None = None


@dataclass
class Outcome:
    """What `recover` did about one interrupted change."""

    files: int
    restored: list[str] = field(default_factory=list)
    removed_new: list[str] = field(default_factory=list)
    # (file, its content before the change) not put back, because the file changed again since
    # or could not be replaced: both are left as they are
    kept: list[tuple[str, str]] = field(default_factory=list)
    cleaned: int = 0
    removed_folders: list[str] = field(default_factory=list)  # made by the change, empty again
    committed: bool = False


class Journal:
    """One change in progress, recorded and locked in the private folder."""

    def __init__(self, folder: Folder, key: bytes, change: str, lock_fd: int) -> None:
        self.folder, self.key, self.change, self.lock_fd = folder, key, change, lock_fd
        self.steps: list[Step] = []
        # the folders the change makes, outermost first, each with what it is once made
        self.folders: list[tuple[str, tuple[int, int] | None]] = []

    @classmethod
    def begin(cls, steps: list[Step], folders: Sequence[str] = ()) -> Journal | None:
        """Record a change about to start, and the folders (absolute, outermost first) it
        will make; None where there is no private folder to keep it in (the change then
        runs unrecorded). OSError if it cannot be recorded."""
        journal_folder = _journal_folder(create=True)
        if isinstance(journal_folder, str):
            return None
        folder, key = journal_folder
        change = os.urandom(8).hex()
        lock_fd = folder.lock(f"{change}.lock")
        if lock_fd is None:  # pragma: no cover - a fresh random name is never locked
            raise OSError(errno.EEXIST, "journal lock taken", change)
        journal = cls(folder, key, change, lock_fd)
        journal.steps = steps
        journal.folders = [(name, None) for name in folders]
        try:
            journal._write(committed=False)
        except BaseException:
            journal.finish()
            raise
        return journal

    def prefix(self, path: Path) -> str:
        return hidden_prefix(path, self.change)

    def staged(self) -> None:
        """Record what each new file and folder is, now that they are all staged (before any
        replace): recovery then removes only the folders that are still the change's own."""
        self.folders = [(name, _folder_identity(name)) for name, _ in self.folders]
        self._write(committed=False)

    def committed(self) -> None:
        """Every file is in place: from now on the change is kept, whatever happens."""
        self._write(committed=True)

    def sweep(self) -> None:
        """Remove every hidden file of this change (after it was undone: a temporary file
        made the moment the process was interrupted has no other owner)."""
        for step in self.steps:
            path = Path(step.path)
            for leftover in [*_hidden(path, self.change, ".tmp"), *_hidden(path, self.change, ".old")]:
                with contextlib.suppress(OSError):
                    os.unlink(leftover)

    def finish(self) -> None:
        """The change is over (made or undone): forget it."""
        self.folder.remove(f"{self.change}.journal")
        self.folder.remove(f"{self.change}.lock")
        self.folder.unlock(self.lock_fd)
        self.folder.close()

    def _write(self, committed: bool) -> None:
        record = {
            "change": self.change,
            "home": list(self.folder.identity()),
            "committed": committed,
            "steps": [[s.path, s.deleting, list(s.identity) if s.identity else None] for s in self.steps],
            "folders": [[name, list(identity) if identity else None] for name, identity in self.folders],
        }
        body = json.dumps(record, ensure_ascii=True).encode("ascii")
        self.folder.write(f"{self.change}.journal", _tag(self.key, self.change, body) + body)


def _tag(key: bytes, change: str, body: bytes) -> bytes:
    return hashlib.blake2b(change.encode() + b"\0" + body, key=key, digest_size=32, person=b"entrykit-journal").digest()


def why_none() -> str:
    """Why `Journal.begin` keeps no journal here (said when a change of several files runs without one)."""
    found = _journal_folder(create=True)
    if isinstance(found, str):
        return found
    found[0].close()
    return "it could not be kept a moment ago"


def _journal_folder(create: bool) -> tuple[Folder, bytes] | str:
    """The journal's folder and the key of the private folder around it; else why there is none."""
    if fcntl is None:
        return "this platform has no file locks"
    where, _ = location(None)
    inside = inside_kept_out(where)
    if inside is not None:
        return f"its folder `{where}` is inside the git work tree `{inside}`"
    if not create and not os.path.isdir(where / FOLDER):
        return "no change was ever recorded"
    try:
        top = open_folder(where) if create else Folder.top(where)
        key = secret_key(top)
    except Unusable as exc:
        return f"its folder `{where}` cannot be used: {exc}"
    folder = top.folder(FOLDER, create=create)
    top.close()
    return (folder, key) if folder is not None else f"its folder `{where / FOLDER}` cannot be made"


def _record(folder: Folder, key: bytes, change: str) -> dict[str, object] | None:
    """The change's record, if it is there and verifies."""
    blob = folder.read(f"{change}.journal", _MAX_RECORD)
    if blob is None or len(blob) < 32:
        return None
    tag, body = blob[:32], blob[32:]
    if not hmac.compare_digest(tag, _tag(key, change, body)):
        return None
    try:
        record = json.loads(body)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("change") != change or record.get("home") != list(folder.identity()):
        return None
    return record


def _same_file(one: Path, other: Path) -> bool:
    first, second = file_identity(one), file_identity(other)
    return first is not None and second is not None and first[:2] == second[:2]


def _folder_identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


def _hidden(path: Path, change: str, suffix: str) -> list[Path]:
    """The hidden files the change left beside `path` with `suffix` (`.tmp`, `.old`)."""
    prefix = hidden_prefix(path, change)
    try:
        names = os.listdir(path.parent)
    except OSError:
        return []
    return [path.parent / n for n in sorted(names) if n.startswith(prefix) and n.endswith(suffix)]


def _roll_back(change: str, record: dict[str, object]) -> Outcome:
    """Undo one change (or, committed, clean up after it). What was set aside says what the
    change did to a file, whatever the record expected of it: a file set aside was there
    when the change replaced or deleted it, and goes back in place unless the file changed
    again since; a new file the change made, still as made, goes again."""
    steps = record.get("steps")
    outcome = Outcome(files=len(steps) if isinstance(steps, list) else 0, committed=record.get("committed") is True)
    for item in steps if isinstance(steps, list) else []:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and os.path.isabs(item[0])):
            continue
        path, deleting, identity = Path(item[0]), item[1] is True, item[2]
        staged = tuple(identity) if isinstance(identity, list) and len(identity) == 4 else None
        for temp in _hidden(path, change, ".tmp"):
            _remove(temp, outcome)
        asides = _hidden(path, change, ".old")
        if outcome.committed:  # the change was made: only its leftovers go
            for aside in asides:
                _remove(aside, outcome)
            continue
        current = file_identity(path)
        ours = current is not None and current == staged
        if not asides:
            if ours and not deleting:  # a new file of the change: it goes again
                _remove(path, outcome, counted=False)
                outcome.removed_new.append(str(path))
            continue
        for number, aside in enumerate(asides):
            try:
                if number == 0 and (current is None or ours):  # replaced or deleted by the change: put back
                    os.replace(aside, path)
                    outcome.restored.append(str(path))
                elif number == 0 and not _same_file(aside, path):  # changed again since: both kept
                    outcome.kept.append((str(path), str(aside)))
                else:  # never replaced: a link to the file as it is
                    _remove(aside, outcome)
            except OSError:
                outcome.kept.append((str(path), str(aside)))
    if not outcome.committed:
        _remove_folders(record.get("folders"), outcome)
    return outcome


def _remove_folders(folders: object, outcome: Outcome) -> None:
    """Remove the folders an undone change made, innermost first: each only if it is empty
    and, where the record says what it was, still that folder (not one made since)."""
    for item in reversed(folders) if isinstance(folders, list) else []:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and os.path.isabs(item[0])):
            continue
        name, identity = item
        made = tuple(identity) if isinstance(identity, list) and len(identity) == 2 else None
        if made is not None and _folder_identity(name) != made:
            continue
        try:
            os.rmdir(name)  # refuses a folder that is not empty, or not a folder
        except OSError:
            continue
        outcome.removed_folders.append(name)


def _remove(path: Path, outcome: Outcome, counted: bool = True) -> None:
    try:
        os.unlink(path)
    except OSError:
        return
    if counted:
        outcome.cleaned += 1


def recover() -> list[Outcome]:
    """Roll back every change whose process died before committing it (and clean up after
    those that did); what was done, for the command to say. Changes of running processes
    are left alone. Never raises."""
    journal_folder = _journal_folder(create=False)
    if isinstance(journal_folder, str):
        return []
    folder, key = journal_folder
    outcomes = []
    with folder:
        names = sorted(folder.files())
        # a change's record, its lock, and what a write of its record left (a process killed
        # before its first record, or while it rewrote it, leaves those alone)
        changes = sorted({change for name in names if (change := _change_of(name)) is not None})
        for change in changes:
            lock_fd = folder.lock(f"{change}.lock")
            if lock_fd is None:  # its process is still at work
                continue
            try:
                # read under the lock: a change that ended meanwhile has no record any more
                record = _record(folder, key, change)
                if record is not None:
                    outcomes.append(_roll_back(change, record))
                folder.remove(f"{change}.journal")
                for name in names:
                    if name.startswith(f".{change}.journal.") and name.endswith(".tmp"):
                        folder.remove(name)
                folder.remove(f"{change}.lock")
            finally:
                folder.unlock(lock_fd)
    return outcomes


def _change_of(name: str) -> str | None:
    """The change a file of the journal's folder belongs to: `<id>.journal`, `<id>.lock`, or
    `.<id>.journal.<random>.tmp` (a record being written); None for anything else."""
    change, _, rest = name.removeprefix(".").partition(".")
    if len(change) != 16 or not set(change) <= _HEX:
        return None
    if name.startswith("."):
        return change if rest.startswith("journal.") and rest.endswith(".tmp") else None
    return change if rest in ("journal", "lock") else None


_HEX = frozenset("0123456789abcdef")
