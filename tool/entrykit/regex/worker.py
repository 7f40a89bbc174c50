"""The regex worker process: count matches, compile regexes and time `regex.measure`'s, each under a CPU-time guard.

Started by `entrykit.regex.runner` as a plain script (`python -I -S this_file`): `-I`
keeps the current directory (a checkout under review) and the environment out of
`sys.path`, `-S` skips `site` for a quick start. The worker imports the standard
library and `framing.py`, loaded by its path from this file's own folder (`_beside`);
only a first count puts the folder that holds this entrykit package on `sys.path`
(`_counter`), never the current directory.
It reads pickled batches on stdin and writes one frame per job on stdout (see
`framing`). `_sre` checks for pending signals while it backtracks, so a SIGPROF raised
in this process's main thread stops a runaway match; the parent kills the whole
process only if that ever fails to happen.

The budget is CPU time of this process (`ITIMER_PROF`; measured with `time.thread_time`,
which the armed timer does not make coarse, and the worker has one thread), not
time on the wall clock: other processes loading the machine slow a match down but do
not use up its budget. Lint verdicts are not decided by it: a match is counted in
steps by `counting` (imported from the entrykit package this file belongs to, on first
use) and only then run in `re`; a compile comes here only once counting found it quick;
the budget of both is a guard. Memory is limited too (`MEMORY_LIMIT`).
"""

from __future__ import annotations

import os
import pickle
import re
import signal
import struct
import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any


def _beside(name: str) -> ModuleType:
    """The module `name`.py of this file's folder, loaded by path (the package is not importable)."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"_entrykit_worker_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __package__:  # imported by the parent, for the constants below
    from entrykit.regex import framing
else:  # pragma: no cover - runs in the worker process
    framing = _beside("framing")

RESULT = struct.Struct(">Bdqq")  # status, seconds, match start and end (-1); the message follows in the frame
NO_MATCH, MATCH, TIMEOUT, ERROR = 0, 1, 2, 3
FLUSH_EVERY = 0.02
COMPILE = "compile"  # a job mode: only compile the regex (MATCH if it compiles in time)
# A job mode's prefix: count the match's steps in entrykit's model of `re` (the verdict:
# over `counting.MATCH_STEPS` is a timeout), then take the match from `re`. The budget of
# such a job is a guard against work the count does not see, `COUNT_GUARD` seconds: the
# count and the run it lets `re` make take at most about 1 s on the machines entrykit is
# measured on, so that only a count gone wrong, not a slower machine, meets it.
COUNT = "count:"
COUNT_GUARD = 5.0
COUNT_TIMEOUT = "counting the match's steps took longer than the guard"
MEMORY_LIMIT = 2 << 30  # bytes of address space: a runaway count is a MemoryError here, not a full machine
COMPILE_TIMEOUT = "compiling the regex took longer than the budget"
COMPILE_TOO_COSTLY = "compiling the regex counts more steps than the budget allows"  # (not sent: decided by the parent)
STRIKES = 3  # overruns of one regex after which the rest of its texts in a batch are not run
NOT_RUN = "not run: the regex had already run past the budget 3 times"
SKIPPED = "not run: an earlier text of the series took long enough"


class _Expired(BaseException):  # not an `Exception`: no `except Exception` of what it stops may take it
    pass


# The timer ticks every budget/TICKS seconds of CPU time for a whole batch; the handler
# stops the job that has run past its budget. Cheaper than arming a timer for every job.
TICKS = 8
_current = {"started": 0.0, "budget": 0.0, "running": False}


def _alarm(signum: int, frame: object) -> None:
    if _current["running"] and time.thread_time() - _current["started"] >= _current["budget"]:
        _current["running"] = False
        raise _Expired()


_COUNTER: list[Callable[[str, int, str, str], Any]] = []  # `_counter`'s, once imported


def _counter() -> Callable[[str, int, str, str], Any]:
    """`counting.count_match`, imported on first use from the entrykit package this file
    belongs to (its own folder's parent's parent, never the current directory)."""
    if not _COUNTER:
        package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        if package_parent not in sys.path:
            sys.path.insert(0, package_parent)
        from entrykit.regex.counting import count_match

        _COUNTER.append(count_match)
    return _COUNTER[0]


def main() -> None:
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY or soft > MEMORY_LIMIT:
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, hard))
    except (ImportError, ValueError, OSError):  # no such limit here: the CPU guard still holds
        pass
    signal.signal(signal.SIGPROF, _alarm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop
    cache: dict[tuple[str, int], re.Pattern[str]] = {}
    failures: dict[tuple[str, int], tuple[str, int]] = {}  # what did not compile (in time) stays so
    fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
    framing.write_all(fd_out, framing.frame(framing.READY))
    while True:
        payload = framing.read_frame(fd_in)
        if payload is None:
            return
        budget, compile_budget, jobs = pickle.loads(payload)
        results = _Results(fd_out)
        signal.setitimer(signal.ITIMER_PROF, budget / TICKS, budget / TICKS)
        # `stop_at` > 0 makes a run a series (texts of growing size): the texts after the
        # first that takes `stop_at` seconds or times out are not run. A compile has a
        # budget of its own: the parent sends only regexes it counted as quick to compile,
        # and that budget is a guard, so a match never pays for its regex's compile.
        for pattern, flags, mode, texts, stop_at in jobs:
            _current["budget"] = compile_budget
            compiled, failure, failed = _compile(pattern, flags, cache, failures)
            _current["budget"] = budget
            if mode.startswith(COUNT):
                _count_job(compiled, failure, failed, (pattern, flags, mode[len(COUNT) :]), texts, results)
            else:
                _run_job(compiled, failure, failed, mode, texts, stop_at, results)
        signal.setitimer(signal.ITIMER_PROF, 0)
        results.send()


class _Results:
    """A batch's result frames, sent in bulk but at least every FLUSH_EVERY seconds (on the
    wall clock), so the parent's watchdog hears from us well within its wait."""

    def __init__(self, fd_out: int) -> None:
        self.fd_out = fd_out
        self.pending: list[bytes] = []
        self.flushed = time.perf_counter()

    def add(self, frame: bytes) -> None:
        self.pending.append(frame)
        if time.perf_counter() - self.flushed >= FLUSH_EVERY:
            self.send()

    def send(self) -> None:
        framing.write_all(self.fd_out, b"".join(self.pending))
        self.pending, self.flushed = [], time.perf_counter()


def _compile(
    pattern: str,
    flags: int,
    cache: dict[tuple[str, int], re.Pattern[str]],
    failures: dict[tuple[str, int], tuple[str, int]],
) -> tuple[re.Pattern[str] | None, str, int]:
    """The compiled regex (from `cache` if compiled before), or None with the failure
    message and the status that reports it; a failure is kept in `failures`."""
    compiled: re.Pattern[str] | None = None
    failure, failed = "", ERROR
    try:
        _current["started"] = time.thread_time()
        _current["running"] = True
        try:
            if (pattern, flags) in failures:
                failure, failed = failures[(pattern, flags)]
            else:
                compiled = cache.get((pattern, flags))
                if compiled is None:
                    compiled = cache[(pattern, flags)] = re.compile(pattern, flags)
        finally:
            _current["running"] = False
    except _Expired:
        failure, failed = failures[(pattern, flags)] = COMPILE_TIMEOUT, TIMEOUT
    except Exception as exc:  # re.error, RecursionError, OverflowError, ...
        failure, failed = failures[(pattern, flags)] = f"{type(exc).__name__}: {exc}", ERROR
    return compiled, failure, failed


def _run_job(
    compiled: re.Pattern[str] | None,
    failure: str,
    failed: int,
    mode: str,
    texts: list[str],
    stop_at: float,
    results: _Results,
) -> None:
    """One result frame per text of a job: its status, CPU seconds, match start and end, and message."""
    run = None if compiled is None or mode == COMPILE else getattr(compiled, mode, None)
    if compiled is not None and run is None and mode != COMPILE:
        failure = f"unknown match mode {mode!r}"
    overruns = 0
    stopped = False
    for text in texts:
        status, message, where, until = NO_MATCH, "", -1, -1
        start = time.thread_time()
        if mode == COMPILE and compiled is not None:
            status = MATCH
        elif stopped:
            status, message = TIMEOUT, SKIPPED
        elif overruns >= STRIKES:
            status, message = TIMEOUT, NOT_RUN
        elif run is None:
            status, message = failed, failure
        else:
            status, message, where, until = _match(run, text, start)
            if status == TIMEOUT:
                overruns += 1
        elapsed = time.thread_time() - start
        if stop_at > 0 and message != SKIPPED and (status == TIMEOUT or elapsed >= stop_at):
            stopped = True
        # Short messages keep a batch's results well inside one pipe buffer, so the
        # worker never blocks on writing while the parent writes the next batch.
        encoded = message[:120].encode("utf-8", "replace")
        results.add(framing.frame(RESULT.pack(status, elapsed, where, until) + encoded))


def _count_job(
    compiled: re.Pattern[str] | None,
    failure: str,
    failed: int,
    regex: tuple[str, int, str],
    texts: list[str],
    results: _Results,
) -> None:
    """One result frame per text: the model's count decides a timeout; a match within the
    budget is then run in `re` (at most the budget's steps), whose answer it gives. After
    `STRIKES` timeouts the rest of the texts are not run (the runner's strikes, which also
    see what it knew before, decide which are)."""
    pattern, flags, mode = regex
    run = None if compiled is None else getattr(compiled, mode, None)
    overruns = 0
    for text in texts:
        status, message, where, until = NO_MATCH, "", -1, -1
        start = time.thread_time()
        if overruns >= STRIKES:
            status, message = TIMEOUT, NOT_RUN
        elif run is None:
            status, message = (failed, failure) if compiled is None else (ERROR, f"unknown match mode {mode!r}")
        else:
            try:
                _current["started"] = start
                _current["running"] = True
                try:
                    counted = _counter()(pattern, flags, mode, text)
                    if counted.error:
                        status, message = ERROR, counted.error
                    elif counted.over:
                        status, message = TIMEOUT, counted.reason
                    else:
                        found = run(text)
                        if found is not None:
                            status, where, until = MATCH, found.start(), found.end()
                finally:
                    _current["running"] = False
            except _Expired:
                status, message = TIMEOUT, COUNT_TIMEOUT
            except Exception as exc:  # MemoryError past the limit; errors CPython raises at search time
                status, message = ERROR, f"{type(exc).__name__}: {exc}"
            overruns += status == TIMEOUT
        encoded = message[:120].encode("utf-8", "replace")
        results.add(framing.frame(RESULT.pack(status, time.thread_time() - start, where, until) + encoded))


def _match(run: Callable[[str], re.Match[str] | None], text: str, start: float) -> tuple[int, str, int, int]:
    """(status, message, match start and end or -1) of one match, stopped at the budget."""
    try:
        _current["started"] = start
        _current["running"] = True
        try:
            found = run(text)
            if found is not None:
                return MATCH, "", found.start(), found.end()
        finally:
            _current["running"] = False
    except _Expired:
        return TIMEOUT, "", -1, -1
    except Exception as exc:  # errors CPython raises at search time (SystemError seen)
        return ERROR, f"{type(exc).__name__}: {exc}", -1, -1
    return NO_MATCH, "", -1, -1


if __name__ == "__main__":
    main()
