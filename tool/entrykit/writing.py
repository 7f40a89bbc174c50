"""Atomic file writes: temp file in the same directory, fsync, os.replace; mode kept.

Every command that writes (fmt, --fix, merge, new, import) goes through here, so
a failure at any step leaves the original file byte-identical.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from .errors import EntrykitError


class WriteRefused(EntrykitError):
    """A write that would overwrite an existing file without being asked to."""


def atomic_write(path: Path, text: str, *, overwrite: bool = True, encoding: str = "utf-8") -> None:
    """Replace `path` with `text` in one step; on any failure the old file is untouched."""
    atomic_write_bytes(path, text.encode(encoding), overwrite=overwrite)


def atomic_write_bytes(path: Path, data: bytes, *, overwrite: bool = True, durable: bool = True) -> None:
    """Replace `path` with `data` in one step. `durable=False` skips the fsyncs, for
    files that are only worth rebuilding if a crash loses them (the cache)."""
    if not overwrite and path.exists():
        raise WriteRefused(f"`{path}` exists; refusing to overwrite it")
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    temp = Path(temp_name)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        os.chmod(temp, mode)
        if not overwrite and path.exists():
            raise WriteRefused(f"`{path}` exists; refusing to overwrite it")
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    if durable:
        _fsync_dir(folder)


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
