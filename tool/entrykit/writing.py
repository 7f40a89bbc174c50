"""Atomic file writes: temp file in the same directory, fsync, os.replace; mode kept.

Every command that writes (fmt, --fix, merge, new, import, translations
--mark-current) goes through here, so a failure at any step leaves the original
files byte-identical. `write_files` makes several writes and deletions one change:
all or nothing.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from entrykit.errors import EntrykitError


class WriteRefused(EntrykitError):
    """A write that would overwrite an existing file without being asked to."""


def _target(path: Path) -> Path:
    """Where writing `path` lands: through a symbolic link to its file, which stays a link."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _mode(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _stage(path: Path, data: bytes, mode: int, durable: bool = True) -> Path:
    """`data` in a (fsynced) temp file beside `path`, with `mode`; removed again on failure."""
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    temp = Path(temp_name)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        os.chmod(temp, mode)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def atomic_write(path: Path, text: str, *, overwrite: bool = True, encoding: str = "utf-8") -> None:
    """Replace `path` with `text` in one step; on any failure the old file is untouched."""
    atomic_write_bytes(path, text.encode(encoding), overwrite=overwrite)


def atomic_write_bytes(path: Path, data: bytes, *, overwrite: bool = True, durable: bool = True) -> None:
    """Replace `path` with `data` in one step. `durable=False` skips the fsyncs, for
    files that are only worth rebuilding if a crash loses them (the cache)."""
    path = _target(path)
    if not overwrite and path.exists():
        raise WriteRefused(f"`{path}` exists; refusing to overwrite it")
    temp = _stage(path, data, _mode(path), durable)
    try:
        if not overwrite and path.exists():
            raise WriteRefused(f"`{path}` exists; refusing to overwrite it")
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    if durable:
        _fsync_dir(path.parent)


def write_files(
    texts: Mapping[Path, str],
    delete: Sequence[Path] = (),
    *,
    overwrite: bool = True,
    encoding: str = "utf-8",
) -> None:
    """Write every text and delete every file in `delete` as one change: all or nothing.

    Each text is staged in a fsynced temp file beside its target before any target
    changes. Then, in order, each target is replaced (its old content kept aside as a
    hard link) and each deletion is a rename aside. If any step fails, the steps already
    made are undone and the temp files removed, so every file is byte-identical to
    before; only then does the error propagate. The kept-aside files are removed last.
    """
    targets = {_target(path): text.encode(encoding) for path, text in texts.items()}
    doomed = [_target(path) for path in delete]
    if not overwrite:
        for path in targets:
            if path.exists():
                raise WriteRefused(f"`{path}` exists; refusing to overwrite it")
    staged: dict[Path, Path] = {}
    undo: list[tuple[Path, Path | None]] = []  # (target, its old content aside, or None if new)
    try:
        for path, data in targets.items():
            staged[path] = _stage(path, data, _mode(path))
        for path, temp in staged.items():
            aside = _aside(path) if path.exists() else None
            if aside is None and not overwrite and path.exists():
                raise WriteRefused(f"`{path}` exists; refusing to overwrite it")
            undo.append((path, aside))
            os.replace(temp, path)
        for path in doomed:
            aside = _aside(path, link=False)
            undo.append((path, aside))
    except BaseException:
        for path, aside in reversed(undo):
            try:
                if aside is not None and path.exists() and os.path.samefile(aside, path):
                    aside.unlink()  # never replaced: renaming a hard link onto itself does nothing
                elif aside is not None:
                    os.replace(aside, path)
                elif path not in staged or not staged[path].exists():
                    path.unlink(missing_ok=True)
            except OSError:  # pragma: no cover - nothing better to do than to go on undoing
                pass
        for temp in staged.values():
            temp.unlink(missing_ok=True)
        raise
    for _, aside in undo:
        if aside is not None:
            try:
                aside.unlink(missing_ok=True)
            except OSError:  # the change is made; a stray hidden copy is no loss
                pass
    for folder in {path.parent for path in [*targets, *doomed]}:
        _fsync_dir(folder)


def _aside(path: Path, link: bool = True) -> Path:
    """A hidden name beside `path` that now holds its content: a hard link to it, or
    (`link=False`) the file itself, renamed."""
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent)
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
