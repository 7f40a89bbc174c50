"""Run every regex entrykit applies to entry data under a per-match time budget.

CPython's `re` holds the GIL and cannot be stopped from another thread, so matches
run in a persistent worker process (`_regex_worker.py`), batched, where a SIGALRM
interrupts a runaway match (`_sre` checks for signals while it backtracks). If the
worker ever overruns its budget by a wide margin anyway, it is killed, the job is
recorded as timed out, a fresh worker is started and the batch goes on.

Matches that are provably cheap run in-process: a regex without any repetition
backtracks at most once per path through the pattern at each start position, so
its cost is bounded by `paths * size * len(text)` (see `_bounded_cost`).

A `RegexRunner` holds no state that a forked or spawned process could share by
mistake: `shared_runner()` keys its instances by process id.
"""

from __future__ import annotations

import atexit
import enum
import os
import pickle
import re
import select
import signal
import struct
import subprocess
import sys
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import _regex_worker as protocol
from .matching import compile_pattern

try:  # Python 3.11+: the parser is private but stable; entrykit needs 3.11.
    from re import _constants as sre_c
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

DEFAULT_TIMEOUT_MS = 100
_WORKER = Path(protocol.__file__).resolve()
_FAST_PATH_LIMIT = 2_000_000  # backtracking steps we accept in-process, about 20 ms
_BATCH = 512
_MEMO_SIZE = 200_000


class Status(enum.IntEnum):
    NO_MATCH = protocol.NO_MATCH
    MATCH = protocol.MATCH
    TIMEOUT = protocol.TIMEOUT
    ERROR = protocol.ERROR


@dataclass(frozen=True)
class Job:
    """One regex applied to one text the way lookups apply it."""

    pattern: str
    flags: int
    mode: str
    text: str


@dataclass(frozen=True)
class Outcome:
    """What running a job gave: a status, the time it took, and an error message."""

    status: Status
    seconds: float = 0.0
    error: str = ""
    start: int = -1  # where the match begins, if it matched

    @property
    def matched(self) -> bool:
        return self.status is Status.MATCH

    @property
    def timed_out(self) -> bool:
        return self.status is Status.TIMEOUT


def _paths_and_size(items: Iterable[Any]) -> tuple[int, int] | None:
    """(paths, nodes) of a parsed sequence, or None if it repeats anything more than once."""
    paths, size = 1, 0
    for op, av in items:
        size += 1
        if op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, sre_c.POSSESSIVE_REPEAT):
            low, high, sub = av
            if high > 1:
                return None
            inner = _paths_and_size(sub)
            if inner is None:
                return None
            paths *= inner[0] + (1 if low == 0 else 0)
            size += inner[1]
        elif op is sre_c.BRANCH:
            total = 0
            for branch in av[1]:
                inner = _paths_and_size(branch)
                if inner is None:
                    return None
                total += inner[0]
                size += inner[1]
            paths *= max(total, 1)
        elif op is sre_c.SUBPATTERN or op is sre_c.ATOMIC_GROUP:
            inner = _paths_and_size(av[-1] if op is sre_c.SUBPATTERN else av)
            if inner is None:
                return None
            paths *= inner[0]
            size += inner[1]
        elif op in (sre_c.ASSERT, sre_c.ASSERT_NOT):
            inner = _paths_and_size(av[1])
            if inner is None:
                return None
            paths *= inner[0] + 1
            size += inner[1]
        elif op is sre_c.GROUPREF_EXISTS:
            yes = _paths_and_size(av[1])
            no = _paths_and_size(av[2]) if av[2] is not None else (1, 0)
            if yes is None or no is None:
                return None
            paths *= yes[0] + no[0]
            size += yes[1] + no[1]
        elif op is sre_c.IN:
            size += len(av)
    return paths, size


@lru_cache(maxsize=65536)
def _bounded_cost(pattern: str, flags: int) -> int | None:
    """Steps per start position if `pattern` has no repetition, else None (unknown)."""
    try:
        parsed = sre_parse.parse(pattern, flags)
    except Exception:
        return None
    counted = _paths_and_size(parsed)
    if counted is None:
        return None
    return counted[0] * (counted[1] + 1)


def _run_here(job: Job) -> Outcome:
    start = time.perf_counter()
    try:
        compiled = compile_pattern(job.pattern, job.flags)
        if job.mode == "search":
            found = compiled.search(job.text)
        elif job.mode == "match":
            found = compiled.match(job.text)
        else:
            found = compiled.fullmatch(job.text)
    except Exception as exc:  # re.error, and errors CPython raises at search time
        return Outcome(Status.ERROR, time.perf_counter() - start, f"{type(exc).__name__}: {exc}")
    if found is None:
        return Outcome(Status.NO_MATCH, time.perf_counter() - start)
    return Outcome(Status.MATCH, time.perf_counter() - start, start=found.start())


def provably_fast(job: Job) -> bool:
    """True if the job's worst case is small enough to run without a budget."""
    cost = _bounded_cost(job.pattern, job.flags)
    return cost is not None and cost * (len(job.text) + 1) <= _FAST_PATH_LIMIT


class _Worker:
    """One worker process and the bytes it has sent but we have not parsed yet."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", str(_WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
            start_new_session=True,  # a Ctrl-C in the terminal is ours to handle, not its
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.fd_out = self.proc.stdout.fileno()
        self.buffer = bytearray()
        self.offset = 0
        if self._read(1, 30.0) != b"R":
            self.kill()
            raise RuntimeError("the regex worker process did not start")

    def send(self, budget: float, jobs: Sequence[Job]) -> None:
        payload = pickle.dumps(
            (budget, [(j.pattern, j.flags, j.mode, j.text) for j in jobs]), protocol=pickle.HIGHEST_PROTOCOL
        )
        assert self.proc.stdin is not None
        self.proc.stdin.write(protocol.HEADER.pack(len(payload)) + payload)

    def _read(self, size: int, timeout: float) -> bytes | None:
        if len(self.buffer) - self.offset < size:
            del self.buffer[: self.offset]
            self.offset = 0
            deadline = time.monotonic() + timeout
            while len(self.buffer) < size:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                ready, _, _ = select.select([self.fd_out], [], [], left)
                if not ready:
                    return None
                chunk = os.read(self.fd_out, 1 << 20)
                if not chunk:
                    return None
                self.buffer += chunk
        data = bytes(self.buffer[self.offset : self.offset + size])
        self.offset += size
        return data

    def receive(self, timeout: float) -> Outcome | None:
        """The next job's outcome, or None if none came in time (or the worker died)."""
        head = self._read(protocol.RESULT.size, timeout)
        if head is None:
            return None
        status, seconds, where, length = protocol.RESULT.unpack(head)
        message = self._read(length, timeout) if length else b""
        if message is None:
            return None
        return Outcome(Status(status), seconds, message.decode("utf-8", "replace"), where)

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


class RegexRunner:
    """Runs batches of jobs under a per-match budget; remembers recent outcomes.

    Use one per process (`shared_runner`) or as a context manager.
    """

    def __init__(self, timeout_ms: float = DEFAULT_TIMEOUT_MS) -> None:
        if timeout_ms <= 0:
            raise ValueError("timeout_ms must be positive")
        self.budget = timeout_ms / 1000.0
        self._worker: _Worker | None = None
        self._pid = os.getpid()
        self._memo: OrderedDict[Job, Outcome] = OrderedDict()
        self.restarts = 0

    def __enter__(self) -> RegexRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._worker is not None and self._pid == os.getpid():
            self._worker.kill()
        self._worker = None

    def run(self, jobs: Sequence[Job]) -> list[Outcome]:
        """Outcomes in the order of `jobs`; never raises for what a regex does."""
        results: list[Outcome | None] = [None] * len(jobs)
        remote: list[int] = []
        for index, job in enumerate(jobs):
            known = self._memo.get(job)
            if known is not None:
                self._memo.move_to_end(job)
                results[index] = known
            elif provably_fast(job):
                results[index] = self._remember(job, _run_here(job))
            else:
                remote.append(index)
        unique: dict[Job, list[int]] = {}
        for index in remote:
            unique.setdefault(jobs[index], []).append(index)
        pending = list(unique)
        for start in range(0, len(pending), _BATCH):
            batch = pending[start : start + _BATCH]
            for job, outcome in zip(batch, self._run_remote(batch)):
                self._remember(job, outcome)
                for index in unique[job]:
                    results[index] = outcome
        return [r for r in results if r is not None]

    def run_one(self, pattern: str, flags: int, mode: str, text: str) -> Outcome:
        return self.run([Job(pattern, flags, mode, text)])[0]

    def _remember(self, job: Job, outcome: Outcome) -> Outcome:
        self._memo[job] = outcome
        if len(self._memo) > _MEMO_SIZE:
            self._memo.popitem(last=False)
        return outcome

    def _ensure_worker(self) -> _Worker:
        if self._pid != os.getpid():  # inherited across fork: the worker is the parent's
            self._worker, self._pid, self._memo = None, os.getpid(), OrderedDict()
        if self._worker is None or self._worker.proc.poll() is not None:
            self._worker = _Worker()
        return self._worker

    def _run_remote(self, batch: Sequence[Job]) -> list[Outcome]:
        outcomes: list[Outcome] = []
        # The worker stops each match at the budget and reports at least every
        # FLUSH_EVERY seconds; past this margin we stop the worker ourselves.
        watchdog = self.budget + protocol.FLUSH_EVERY + max(1.0, self.budget)
        one_by_one = False
        while len(outcomes) < len(batch):
            worker = self._ensure_worker()
            size = 1 if one_by_one else len(batch) - len(outcomes)
            worker.send(self.budget, batch[len(outcomes) : len(outcomes) + size])
            for _ in range(size):
                outcome = worker.receive(watchdog)
                if outcome is not None:
                    outcomes.append(outcome)
                    continue
                worker.kill()
                self._worker = None
                self.restarts += 1
                if one_by_one:  # the job that hung is known exactly
                    outcomes.append(Outcome(Status.TIMEOUT, watchdog))
                # else: results still buffered in the dead worker are lost; redo the
                # rest one job per batch so the job that hangs is known exactly
                one_by_one = True
                break
        return outcomes


_SHARED: dict[tuple[int, float], RegexRunner] = {}


def shared_runner(timeout_ms: float = DEFAULT_TIMEOUT_MS) -> RegexRunner:
    """This process's runner for a budget (created on first use, closed at exit)."""
    key = (os.getpid(), float(timeout_ms))
    runner = _SHARED.get(key)
    if runner is None:
        runner = _SHARED[key] = RegexRunner(timeout_ms)
    return runner


@atexit.register
def _close_shared() -> None:
    for (pid, _), runner in list(_SHARED.items()):
        if pid == os.getpid():
            runner.close()
