"""The process's standard streams: written as UTF-8, stood in for where they are closed,
and what a failed write of them means."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys

# What writing may fail with that is the machine's doing, not entrykit's: no space on the
# device, the user's quota, the largest file allowed, a standard stream that was closed.
CANNOT_WRITE = frozenset(
    getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EBADF") if hasattr(errno, name)
)


class ClosedOutput(io.TextIOBase):
    """Standard output of a process started without one (`entrykit lint >&-`): writing to
    it fails as writing to a closed descriptor does, so that the run says it could not
    write its output instead of stopping on Python's `None` where the stream should be."""

    encoding = "utf-8"
    errors = "backslashreplace"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def isatty(self) -> bool:
        return False


def stand_in_for_closed() -> None:
    """Give each standard stream the process was started without a stand-in.

    The descriptor itself gets `os.devnull`, so that no file the run opens later takes
    its number (and receives what a child process writes there). Standard input then
    reads as empty and standard error writes nowhere (there is nowhere to say anything);
    standard output is a `ClosedOutput`, which says so when the run writes to it.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                os.open(os.devnull, os.O_RDWR)  # (the lowest free number: this one)
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (the process's own, for its life)
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (the process's own, for its life)


def write_utf8() -> None:
    """Write the output and the messages as UTF-8, whatever the locale or `PYTHONIOENCODING`
    say: the same bytes on every machine. Findings quote the entries' text (CJK, `…`),
    which a pipe's code page on Windows or an ASCII encoding cannot hold: written in it,
    the first such line would stop the run. A lone surrogate, which no UTF-8 holds, is
    written as its escape."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # (a stream replaced by the caller may lack it)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # (a closed stream: nothing to write to)
                reconfigure(encoding="utf-8", errors="backslashreplace")
