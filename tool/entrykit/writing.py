"""Atomic file writes: temp file in the same directory, fsync, os.replace; mode kept.

Every command that writes (fmt, --fix, merge, new, import, translations
--mark-current, schema --output, render --output) goes through here, so a failure at
any step leaves the original files byte-identical. `write_files` makes several writes
and deletions one change: all or nothing, also when the process is killed in the
middle (`journal`: the next entrykit command rolls it back). Writes stay inside the
folders they are meant for (`within`): a path inside one of them whose real path
leaves it (a symbolic link on the way) is refused, and so are two paths that are one
file (hard links).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path

from entrykit.errors import EntrykitError
from entrykit.journal import Journal, Step, file_identity, short_name, why_none
from entrykit.regular_files import read_regular


class UnjournaledWrite(UserWarning):
    """A change of several files made without a journal: if the process is killed midway, no
    later command can roll it back (the command line says so; see `journal.why_none`)."""


class WriteRefused(EntrykitError):
    """A write that would overwrite an existing file without being asked to, land outside
    where it belongs, or replace something that is no regular file."""


Scope = Path | Sequence[Path] | None


def _target(path: Path) -> Path:
    """Where writing `path` lands: through a symbolic link to its file, which stays a link."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def check_inside(paths: Sequence[Path], within: Scope) -> None:
    """WriteRefused for a path that lies inside one of the folders `within` as written but
    whose real path leaves it (through a symbolic link to a folder or a file elsewhere)."""
    if within is None:
        return
    folders = [within] if isinstance(within, Path) else list(within)
    for path in paths:
        written = os.path.abspath(path)
        real = os.path.realpath(path)
        homes = [f for f in folders if _under(written, os.path.abspath(f)) or _under(written, os.path.realpath(f))]
        if homes and not any(_under(real, os.path.realpath(f)) for f in homes):
            raise WriteRefused(
                f"`{path}` leads out of `{homes[0]}` (through a symbolic link, to `{real}`); nothing was written"
            )


def _check_files(paths: Sequence[Path]) -> None:
    """WriteRefused for a path that is there but is no regular file (a rename onto a device
    such as `/dev/full`, a pipe or a socket would put a file in its place, for good), or
    for two paths that are one file (hard links): a change to one is a change to both."""
    seen: dict[tuple[int, int], Path] = {}
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            continue  # (not there: a new file; or one the write itself will fail on, and say why)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
            raise WriteRefused(f"`{path}` is {kind}, not a regular file; nothing was written")
        other = seen.setdefault((info.st_dev, info.st_ino), path)
        if other != path:
            raise WriteRefused(f"`{other}` and `{path}` are the same file (hard links); nothing was written")


def _check_writable(paths: Sequence[Path]) -> None:
    """PermissionError naming the first file that cannot be replaced, before anything is."""
    for path in paths:
        if path.exists() and not os.access(path, os.W_OK):
            raise PermissionError(13, "the file is read-only", str(path))
        folder = path.parent
        if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(13, "its folder is not writable", str(path))


def _mode(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _prefix(path: Path, journal: Journal | None) -> str:
    return journal.prefix(path) if journal is not None else f".{short_name(path.name)}."


def _stage(path: Path, data: bytes, mode: int, journal: Journal | None = None) -> Path:
    """`data` in a (fsynced) temp file beside `path`, with `mode`; removed again on failure.
    An error names `path`, not the temp file."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(prefix=_prefix(path, journal), suffix=".tmp", dir=folder)
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, str(path)) from None
    temp = Path(temp_name)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp, mode)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def atomic_write(path: Path, text: str, *, within: Scope, overwrite: bool = True, encoding: str = "utf-8") -> None:
    """Replace `path` with `text` in one step; on any failure the old file is untouched (a
    change of one file: see `write_files`)."""
    write_files({path: text}, overwrite=overwrite, encoding=encoding, within=within)


def write_files(
    texts: Mapping[Path, str],
    delete: Sequence[Path] = (),
    *,
    within: Scope,
    overwrite: bool = True,
    encoding: str = "utf-8",
    read: Mapping[Path, str] | None = None,
) -> None:
    """Write every text and delete every file in `delete` as one change: all or nothing.

    `read`: the text files held when the command read them (as entries are read: UTF-8, a
    BOM left out). A file that holds anything else when it is about to be replaced or
    deleted was changed by someone else meanwhile: WriteRefused, and nothing is written
    (checked before anything is, and again just before each file is replaced).

    Every caller says where its writes belong (`within`: None only for files a user named
    outside any project). Refused before anything is touched: a path that leaves the
    folders `within` (see `check_inside`), two paths that are one file, and (PermissionError, naming it) a
    file or folder that cannot be written. Then the change is recorded in the journal
    and each text staged in a fsynced temp file beside its target. Then, in order,
    each target is replaced (its old content kept aside as a hard link) and each
    deletion is a rename aside. If any step fails, the steps already made are undone
    and the temp files removed, so every file is byte-identical to before; only then
    does the error propagate. If the process is killed instead, the next entrykit
    command undoes them (`journal.recover`). The kept-aside files are removed last.
    """
    targets, doomed = _checked_targets(texts, delete, overwrite=overwrite, encoding=encoding, within=within)
    as_read = {_target(path): text.encode("utf-8") for path, text in (read or {}).items()}
    _check_as_read(as_read)
    folders = _folders_to_make(targets)
    journal = Journal.begin(  # absolute: the next command may run elsewhere
        [Step(os.path.abspath(path)) for path in targets]
        + [Step(os.path.abspath(path), deleting=True) for path in doomed],
        [os.path.abspath(folder) for folder in folders],
    )
    if journal is None and len(targets) + len(doomed) > 1:
        warnings.warn(
            UnjournaledWrite(
                f"changing {len(targets) + len(doomed)} files without a journal ({why_none()}): if this run is "
                "killed midway, no later command can roll the change back"
            ),
            stacklevel=2,
        )
    change = _Change(journal, folders, as_read)
    try:
        change.stage(targets)
        change.replace(doomed, overwrite=overwrite)
    except BaseException:
        change.roll_back()
        raise
    change.finish({path.parent for path in [*targets, *doomed]})


def _checked_targets(
    texts: Mapping[Path, str], delete: Sequence[Path], *, overwrite: bool, encoding: str, within: Scope
) -> tuple[dict[Path, bytes], list[Path]]:
    """The files to write (with their bytes) and to delete, as `write_files` lands on them;
    WriteRefused or PermissionError for any that must not be touched, before any is."""
    check_inside([*texts, *delete], within)
    targets = {_target(path): text.encode(encoding) for path, text in texts.items()}
    doomed = [_target(path) for path in delete]
    _check_files([*targets, *doomed])
    if not overwrite:
        for path in targets:
            if path.exists():
                raise WriteRefused(f"`{path}` exists; refusing to overwrite it")
    _check_writable([*targets, *doomed])
    return targets, doomed


class _Change:
    """One all-or-nothing change under way: its journal, the temp file staged for each
    target, and, for each target replaced or deleted so far, its old content set aside
    (None for a file that is new)."""

    def __init__(self, journal: Journal | None, made: list[Path], as_read: Mapping[Path, bytes]) -> None:
        self.journal = journal
        self.as_read = as_read
        self.staged: dict[Path, Path] = {}
        self.undo: list[tuple[Path, Path | None]] = []
        self.made = made  # folders staging creates, outermost first

    def stage(self, targets: Mapping[Path, bytes]) -> None:
        """Each target's bytes in a fsynced temp file beside it, recorded in the journal."""
        for path, data in targets.items():
            self.staged[path] = _stage(path, data, _mode(path), journal=self.journal)
        if self.journal is not None:
            # the steps that delete files come last and have nothing staged
            for step, temp in zip(self.journal.steps, self.staged.values(), strict=False):
                step.identity = file_identity(temp)
            self.journal.staged()

    def replace(self, doomed: Sequence[Path], *, overwrite: bool) -> None:
        """Each target replaced by its temp file, then each file in `doomed` renamed aside."""
        for path, temp in self.staged.items():
            if not overwrite:
                self.undo.append((path, None))
                _create(temp, path)
                continue
            _check_as_read(self.as_read, path)
            aside = _aside(path, journal=self.journal) if path.exists() else None
            self.undo.append((path, aside))
            os.replace(temp, path)
        for path in doomed:
            _check_as_read(self.as_read, path)
            aside = _aside(path, link=False, journal=self.journal)
            self.undo.append((path, aside))
        if self.journal is not None:
            self.journal.committed()

    def roll_back(self) -> None:
        """Undo the steps made, newest first, and remove the temp files."""
        undone = True
        for path, aside in reversed(self.undo):
            try:
                if aside is not None and path.exists() and os.path.samefile(aside, path):
                    aside.unlink()  # never replaced: renaming a hard link onto itself does nothing
                elif aside is not None:
                    os.replace(aside, path)
                elif path not in self.staged or not self.staged[path].exists():
                    path.unlink(missing_ok=True)
            except OSError:  # pragma: no cover - go on undoing; the journal keeps the rest
                undone = False
        for temp in self.staged.values():
            temp.unlink(missing_ok=True)
        for folder in reversed(self.made):
            with contextlib.suppress(OSError):  # (not empty: another process put a file there)
                folder.rmdir()
        if self.journal is not None and undone:  # else the next command finishes undoing it
            self.journal.sweep()
            self.journal.finish()

    def finish(self, folders: set[Path]) -> None:
        """The change is made: remove the old contents set aside, make the renames durable."""
        for _, aside in self.undo:
            if aside is not None:
                with contextlib.suppress(OSError):  # the change is made; a stray hidden copy is no loss
                    aside.unlink(missing_ok=True)
        for folder in folders:
            _fsync_dir(folder)
        if self.journal is not None:
            self.journal.finish()


def _folders_to_make(targets: Mapping[Path, bytes]) -> list[Path]:
    """The folders that staging the targets creates, each once, outermost first: what a
    change that fails (or the journal, after a kill) removes again."""
    made: dict[Path, None] = {}
    for path in targets:
        missing: list[Path] = []
        folder = path.parent
        while folder not in made and not os.path.isdir(folder) and folder != folder.parent:
            missing.append(folder)
            folder = folder.parent
        made.update(dict.fromkeys(reversed(missing)))
    return list(made)


def _aside(path: Path, link: bool = True, journal: Journal | None = None) -> Path:
    """A hidden name beside `path` that now holds its content: a hard link to it, or
    (`link=False`) the file itself, renamed."""
    handle, name = tempfile.mkstemp(prefix=_prefix(path, journal), suffix=".old", dir=path.parent)
    os.close(handle)
    aside = Path(name)
    try:
        if link:
            os.unlink(aside)
            try:
                os.link(path, aside)
            except OSError:  # no hard links here: a copy does as well
                shutil.copyfile(path, aside)
                shutil.copymode(path, aside)
        else:
            os.replace(path, aside)
    except BaseException:
        aside.unlink(missing_ok=True)
        raise
    return aside


def _check_as_read(as_read: Mapping[Path, bytes], only: Path | None = None) -> None:
    """WriteRefused for a file that no longer holds the bytes the command read (`only`: that
    file alone, if it was read)."""
    for path, data in as_read.items() if only is None else [(only, as_read.get(only))]:
        if data is not None and _held(path, len(data)) != data:
            raise WriteRefused(f"`{path}` changed since it was read (another program wrote it); nothing was written")


def _held(path: Path, most: int) -> bytes | None:
    """A regular file's bytes, a UTF-8 BOM left out, read up to one byte more than `most`
    (never waiting on a pipe put in its place); None if it is gone or no regular file."""
    try:
        data = read_regular(path, most + 4)
    except OSError:
        return None
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def _create(temp: Path, path: Path) -> None:
    """`temp` becomes `path`, which must not exist: WriteRefused if it does, even if another
    process made it a moment ago (a hard link is made only where no file is)."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise WriteRefused(f"`{path}` exists; refusing to overwrite it") from None
    except OSError:  # no hard links here: the check just before renaming does what it can
        if os.path.lexists(path):
            raise WriteRefused(f"`{path}` exists; refusing to overwrite it") from None
        os.replace(temp, path)
        return
    temp.unlink()


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every platform allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
