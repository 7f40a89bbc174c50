"""Length-prefixed frames over a pipe: the one wire format of entrykit's worker processes.

A frame is a 4-byte big-endian length and that many bytes. Both workers
(`worker.py` for `re`, `js_worker.py` for QuickJS) read their requests and write
their answers as frames, and announce themselves with one `READY` frame.

This module imports nothing but the standard library and nothing of entrykit: a
worker runs as a plain script (`python -I -S worker.py`), where the installed
package is not importable, and loads this file by its path, from its own folder
(see `worker.py`).
"""

from __future__ import annotations

import os
import select
import struct
import time

HEADER = struct.Struct(">I")
READY = b"ready"


def frame(payload: bytes) -> bytes:
    """`payload` as one frame."""
    return HEADER.pack(len(payload)) + payload


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def read_exact(fd: int, size: int) -> bytes | None:
    """`size` bytes from `fd`, waiting as long as it takes; None at end of file."""
    chunks = []
    while size:
        chunk = os.read(fd, size)
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> bytes | None:
    """The next frame's payload (blocking: the worker's side); None at end of file."""
    header = read_exact(fd, HEADER.size)
    if header is None:
        return None
    return read_exact(fd, HEADER.unpack(header)[0])


class FrameReader:
    """The parent's side: a worker's frames as they arrive, never waiting past a deadline."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.offset = 0

    def frames(self, wanted: int, timeout: float) -> list[bytes] | None:
        """Between 1 and `wanted` complete frames, as soon as any are there; None if no
        frame was complete within `timeout` seconds or the worker closed its end."""
        deadline = time.monotonic() + timeout
        while True:
            out = self._complete(wanted)
            if out:
                return out
            if not self._fill(max(0.0, deadline - time.monotonic())):
                return None

    def _complete(self, wanted: int) -> list[bytes]:
        out: list[bytes] = []
        buffer, offset, size = self.buffer, self.offset, HEADER.size
        unpack = HEADER.unpack_from
        while len(out) < wanted and len(buffer) - offset >= size:
            (length,) = unpack(buffer, offset)
            if len(buffer) - offset - size < length:
                break
            out.append(bytes(buffer[offset + size : offset + size + length]))
            offset += size + length
        self.offset = offset
        return out

    def _fill(self, timeout: float) -> bool:
        """Wait up to `timeout` for more bytes; False if none came or the worker is gone."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        chunk = os.read(self.fd, 1 << 20)
        if not chunk:
            return False
        if self.offset:
            del self.buffer[: self.offset]
            self.offset = 0
        self.buffer += chunk
        return True
