"""Read a regular file without waiting on a pipe, socket or device a checkout put in its place."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


def read_regular(path: Path, most: int) -> bytes:
    """At most `most` bytes of the regular file at `path`. It is opened without blocking, so a
    FIFO put in its place is refused, not waited on. OSError says why it cannot be read: gone,
    not a regular file, or a NUL in its name."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except ValueError:  # a NUL in the name
        raise OSError(errno.EINVAL, "its name holds a NUL character", str(path)) from None
    with os.fdopen(fd, "rb") as stream:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe, socket or device)", str(path))
        return stream.read(most)
