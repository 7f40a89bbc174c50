"""Fault injection for file writes: make the k-th file-system step fail, then check nothing changed.

`Faults` wraps the calls `entrykit.writing` makes (temp file creation, write, fsync,
chmod, link, replace, unlink) and records them in order. A dry run lists the steps
of an operation; then the operation is repeated once per step with that step
failing: with ENOSPC (writes and fsync), EIO (the rest), or `SimulatedCrash`, a
BaseException like a Ctrl-C in the middle of the write.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest


class SimulatedCrash(BaseException):
    """The process is interrupted at this step (not an Exception: only cleanup handlers run)."""


STEPS = ("mkstemp", "write", "fsync", "chmod", "link", "replace", "unlink")


class Faults:
    """Counts the write steps; `fail_at` (0-based) makes that step raise `error`."""

    def __init__(self, fail_at: int | None = None, error: str = "oserror") -> None:
        self.fail_at = fail_at
        self.error = error
        self.steps: list[str] = []

    def step(self, name: str) -> None:
        index = len(self.steps)
        self.steps.append(name)
        if index == self.fail_at:
            if self.error == "crash":
                raise SimulatedCrash(name)
            code = errno.ENOSPC if name in ("write", "fsync", "mkstemp") else errno.EIO
            raise OSError(code, os.strerror(code), f"<{name}>")

    @contextmanager
    def installed(self, monkeypatch: pytest.MonkeyPatch) -> Iterator[Faults]:
        real: dict[str, Callable[..., Any]] = {
            "mkstemp": tempfile.mkstemp, "fdopen": os.fdopen, "fsync": os.fsync, "chmod": os.chmod,
            "link": os.link, "replace": os.replace, "unlink": os.unlink,
        }

        def wrap(name: str) -> Callable[..., Any]:
            def call(*args: Any, **kwargs: Any) -> Any:
                self.step(name)
                return real[name](*args, **kwargs)

            return call

        class _Stream:
            def __init__(self, inner: Any) -> None:
                self.inner = inner

            def write(self, data: bytes) -> int:
                self_outer.step("write")
                return int(self.inner.write(data))

            def __getattr__(self, name: str) -> Any:
                return getattr(self.inner, name)

            def __enter__(self) -> _Stream:
                self.inner.__enter__()
                return self

            def __exit__(self, *exc: Any) -> Any:
                return self.inner.__exit__(*exc)

        self_outer = self

        def fdopen(*args: Any, **kwargs: Any) -> Any:
            return _Stream(real["fdopen"](*args, **kwargs))

        with monkeypatch.context() as patch:
            patch.setattr(tempfile, "mkstemp", wrap("mkstemp"))
            patch.setattr(os, "fdopen", fdopen)
            for name in ("fsync", "chmod", "link", "replace", "unlink"):
                patch.setattr(os, name, wrap(name))
            yield self


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every file below `folder` (bytes; links as their target), hidden ones included."""
    found: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            key = path.relative_to(folder).as_posix()
            if path.is_symlink():
                found[key] = "-> " + os.readlink(path)
            elif path.is_file():
                found[key] = path.read_bytes()
    return found


def changed(before: dict[str, bytes | str], after: dict[str, bytes | str]) -> list[str]:
    """Files added, removed or altered between two snapshots."""
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
