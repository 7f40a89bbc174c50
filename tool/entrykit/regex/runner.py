"""Run every regex entrykit applies to entry data within a budget that no clock decides.

A match that a bound on its steps proves cheap runs in-process in `re` (`provably_fast`):
a regex whose only repetitions take one character at a time, or repeat a group that
splits a text in one way only (`(?:\\.\\d+)*`), has a bound on its steps (`regex.steps`);
a job whose bound is within `FAST_PATH_LIMIT` needs no other budget. Any other match
is counted first by the step-counting model of `re`'s matcher (`regex.counting`), which
stops at the same number of steps: over the budget on every machine under any load, or
on none; only a match within the budget is then run by `re`. That happens in a
persistent worker process (`regex/worker.py`), under a guard of its CPU time and a
limit of its memory against work the count does not see: CPython's `re` holds the GIL
and cannot be stopped from another thread, but a SIGPROF stops it there.

Compiling a long regex is counted first too (`compiling`); one whose count is within
the time budget is compiled in the worker under ten times that budget of its CPU time,
a guard against a count gone wrong. The worker also times ET205's attacks when
`regex.measure` asks for it. If the worker
ever overruns its budget by a wide margin anyway, it is killed, the job is recorded as
timed out, a fresh worker is started and the batch goes on.

A `RegexRunner` holds no state that a forked or spawned process could share by
mistake: `shared_runner()` keys its instances by process id.
"""

from __future__ import annotations

import atexit
import enum
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from entrykit.regex import framing
from entrykit.regex import worker as protocol
from entrykit.regex.compiling import (
    COMPILE_MARGIN,
    cheap_to_compile,
    compile_error,
    compile_pattern,
    compile_steps,
    compile_steps_limit,
    settings_flags,
)
from entrykit.regex.steps import runs_within_limit, runs_within_limit_each

DEFAULT_TIMEOUT_MS = 100
COMPILE = protocol.COMPILE  # the mode of a job that only compiles its regex
_WORKER = Path(protocol.__file__).resolve()
_BATCH = 256  # jobs per message; two in flight keep both processes busy
_MEMO_SIZE = 20_000  # outcomes kept: rules asking again about the same file hit; bulk runs pass by


class Status(enum.IntEnum):
    NO_MATCH = protocol.NO_MATCH
    MATCH = protocol.MATCH
    TIMEOUT = protocol.TIMEOUT
    ERROR = protocol.ERROR


_STATUSES = list(Status)
# The members as plain names: one looked up on its enum class costs several attribute
# lookups, and every job and every rule's compile check reads one.
_NO_MATCH, _MATCH, _TIMEOUT, _ERROR = Status.NO_MATCH, Status.MATCH, Status.TIMEOUT, Status.ERROR


class Job(NamedTuple):
    """One regex applied to one text the way lookups apply it."""

    pattern: str
    flags: int
    mode: str
    text: str


class Outcome(NamedTuple):
    """What running a job gave: a status, the time it took, an error message, where it matched."""

    status: Status
    seconds: float = 0.0
    error: str = ""
    start: int = -1  # where the match begins, if it matched
    end: int = -1  # and where it ends

    @property
    def matched(self) -> bool:
        return self.status is _MATCH

    @property
    def timed_out(self) -> bool:
        return self.status is _TIMEOUT

    @property
    def over_budget(self) -> bool:
        """A timeout of a run (not that of a job left unrun after its regex's strikes)."""
        return self.status is _TIMEOUT and self.error != protocol.NOT_RUN


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
        return Outcome(_ERROR, time.perf_counter() - start, f"{type(exc).__name__}: {exc}")
    if found is None:
        return Outcome(_NO_MATCH, time.perf_counter() - start)
    return Outcome(_MATCH, time.perf_counter() - start, start=found.start(), end=found.end())


_NOT_MATCHED = Outcome(_NO_MATCH)
_NOT_RUN = Outcome(_TIMEOUT, error=protocol.NOT_RUN)  # after STRIKES overruns: unknown, not a result
_COMPILES = Outcome(_MATCH)  # what `compile_check` says of a regex that compiles (one, shared: immutable)
# What `compile_check` says of a regex that counts more compile steps than the budget's
# microseconds, and what a job of it gets: not compiled, the same on every machine.
_TOO_COSTLY = Outcome(_TIMEOUT, error=protocol.COMPILE_TOO_COSTLY)


def provably_fast(job: Job) -> bool:
    """True if the job's worst case (compiling included) is small enough to run without a budget."""
    return job.mode != COMPILE and runs_within_limit(job.pattern, job.flags, job.text)


def provably_fast_each(pattern: str, flags: int, mode: str, texts: Sequence[str]) -> list[bool]:
    """`provably_fast` of the jobs of one regex on each of `texts` (memoised: the same texts,
    the probes, are asked about for every regex, and regexes written alike repeat)."""
    if mode == COMPILE:
        return [False] * len(texts)
    return list(_fast_on(pattern, flags, tuple(texts)))


@lru_cache(maxsize=1024)
def _fast_on(pattern: str, flags: int, texts: tuple[str, ...]) -> tuple[bool, ...]:
    return tuple(runs_within_limit_each(pattern, flags, texts))


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
        self.reader = framing.FrameReader(self.proc.stdout.fileno())
        if self.reader.frames(1, 30.0) != [framing.READY]:
            self.kill()
            raise RuntimeError("the regex worker process did not start")

    def send(self, budget: float, jobs: Sequence[Job], stop_at: float = 0.0, compile_budget: float | None = None) -> None:
        # Consecutive jobs of one regex travel as one run: (pattern, flags, mode, texts, stop_at).
        runs: list[tuple[str, int, str, list[str], float]] = []
        for pattern, flags, mode, text in jobs:
            if runs and runs[-1][0] is pattern and runs[-1][1] == flags and runs[-1][2] == mode:
                runs[-1][3].append(text)
            else:
                runs.append((pattern, flags, mode, [text], stop_at))
        compile_budget = budget * COMPILE_MARGIN if compile_budget is None else compile_budget
        payload = pickle.dumps((budget, compile_budget, runs), protocol=pickle.HIGHEST_PROTOCOL)
        assert self.proc.stdin is not None
        self.proc.stdin.write(framing.frame(payload))

    def receive(self, wanted: int, timeout: float) -> list[Outcome] | None:
        """Between 1 and `wanted` outcomes, as soon as any are complete; None if nothing
        complete came within `timeout` seconds (or the worker died)."""
        frames = self.reader.frames(wanted, timeout)
        if frames is None:
            return None
        unpack, size, statuses = protocol.RESULT.unpack_from, protocol.RESULT.size, _STATUSES
        out = []
        for data in frames:
            status, seconds, where, until = unpack(data)
            out.append(Outcome(statuses[status], seconds, data[size:].decode("utf-8", "replace"), where, until))
        return out

    def kill(self) -> None:
        kill_worker(self.proc)


def kill_worker(proc: subprocess.Popen[bytes]) -> None:
    """Stop a worker process started in its own session, and everything it started."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
    proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()


Strikes = dict[tuple[str, int, str], int]  # (pattern, flags, mode) -> overruns of the budget


class RegexRunner:
    """Runs batches of jobs under a per-match budget; remembers recent outcomes.

    Use one per process (`shared_runner`) or as a context manager.
    """

    def __init__(self, timeout_ms: float = DEFAULT_TIMEOUT_MS) -> None:
        if timeout_ms <= 0:
            raise ValueError("timeout_ms must be positive")
        self.budget = timeout_ms / 1000.0
        self.compile_steps_limit = compile_steps_limit(self.budget)
        self._worker: _Worker | None = None
        self._pid = os.getpid()
        self._memo: OrderedDict[Job, Outcome] = OrderedDict()
        self._checked: dict[tuple[str, int], Outcome] = {}  # compile checks made in-process
        self.restarts = 0

    def __enter__(self) -> RegexRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._worker is not None and self._pid == os.getpid():
            self._worker.kill()
        self._worker = None

    def run(
        self,
        jobs: Sequence[Job],
        remember: bool = True,
        fast: Sequence[bool] | None = None,
        strikes: Strikes | None = None,
    ) -> list[Outcome]:
        """Outcomes in the order of `jobs`; never raises for what a regex does.

        With `remember`, outcomes are kept (up to a bound) so that rules asking the
        same question again get the answer without a second run; bulk callers whose
        jobs will not come back (cross-matching a corpus) pass False. `fast` marks
        jobs known to be `provably_fast` (by their regex's `longest_fast_text`); the
        others are asked. A regex over the budget on `protocol.STRIKES` texts is not run
        on the rest of the jobs (its outcome: a timeout, `NOT_RUN`), counted in the
        jobs' order, whatever was remembered; `strikes` carries that count from call to
        call, for a caller that asks about one text at a time (`entrykit match` over a
        log's lines).
        """
        if not jobs:  # (rules ask with no texts to run often: each of them, for every entry)
            return []
        known: list[Outcome | None] = [None] * len(jobs)
        compiles: list[int] = []  # jobs that only compile: the worker's, all at once
        counts: list[int] = []  # matches to count: the worker's too, all at once
        memo = self._memo
        for index, job in enumerate(jobs):
            found = memo.get(job)
            if found is not None:
                memo.move_to_end(job)
                known[index] = found
            elif job.mode == COMPILE:
                compiles.append(index)
            elif (fast is not None and fast[index]) or provably_fast(job):
                known[index] = outcome = _run_here(job)
                if remember:
                    self._remember(job, outcome)
            elif self.too_costly_to_compile(job.pattern, job.flags):
                known[index] = _TOO_COSTLY
            else:
                checked = self.compile_check(job.pattern, job.flags)
                if checked.status is _MATCH:
                    counts.append(index)
                else:
                    known[index] = checked
        if strikes is None:
            strikes = {}
        if not compiles and not counts:  # every outcome known already: nothing for the worker
            return _struck(jobs, known, strikes)
        # A regex with a timeout already known (remembered, or from earlier calls) has its
        # matches counted one at a time, in order, where the strikes say: the worker, which
        # strikes a regex on its own after three timeouts in a row, does not know of those.
        struck = set(strikes)
        struck.update((j.pattern, j.flags, j.mode) for j, o in zip(jobs, known, strict=True) if o is not None and o.timed_out)
        later = [i for i in counts if (jobs[i].pattern, jobs[i].flags, jobs[i].mode) in struck]
        now = [i for i in counts if (jobs[i].pattern, jobs[i].flags, jobs[i].mode) not in struck]
        self._settle(jobs, known, self._remote(jobs, compiles, now), remember)

        def counted(place: int) -> Outcome:
            self._settle(jobs, known, self._remote(jobs, [], [place]), remember)
            outcome = known[place]
            assert outcome is not None
            return outcome

        return _struck(jobs, known, strikes, counted if later else None)

    def _settle(self, jobs: Sequence[Job], known: list[Outcome | None], found: list[tuple[int, Outcome]], remember: bool) -> None:
        """Put what the worker found in `known`, and remember it as `run` says."""
        for place, outcome in found:
            known[place] = outcome
            lasting = outcome.error not in (protocol.NOT_RUN, protocol.SKIPPED)  # else unknown, not a result
            if lasting and (remember or outcome.status is _TIMEOUT or jobs[place].mode == COMPILE):
                self._remember(jobs[place], outcome)  # timeouts always: never pay twice

    def _remote(self, jobs: Sequence[Job], compiles: list[int], counts: list[int]) -> list[tuple[int, Outcome]]:
        """(place, outcome) of the jobs at `compiles` (compiled under the time budget, a
        guard) and at `counts` (counted by the step model, then run in `re`, under a guard
        of their own), each sent to the worker in one go. A regex the worker finds over the
        budget on three texts in a row it does not run on the rest: the strikes `run`
        applies afterwards would leave them unrun in any case."""
        out: list[tuple[int, Outcome]] = []
        if compiles:
            out += zip(compiles, self._run_remote([jobs[i] for i in compiles]), strict=True)
        if counts:
            counting = [Job(jobs[i].pattern, jobs[i].flags, protocol.COUNT + jobs[i].mode, jobs[i].text) for i in counts]
            outcomes = self._run_remote(counting, budget=protocol.COUNT_GUARD)
            # the count is the answer, not how long it took
            out += ((i, o._replace(seconds=0.0)) for i, o in zip(counts, outcomes, strict=True))
        return out

    def run_one(self, pattern: str, flags: int, mode: str, text: str) -> Outcome:
        return self.run([Job(pattern, flags, mode, text)])[0]

    def run_series(self, pattern: str, flags: int, mode: str, texts: Sequence[str], stop_at: float) -> list[Outcome]:
        """Outcomes of `texts` (growing attacks) run in order, up to and including the first
        that times out or takes `stop_at` seconds or more; the texts after it are not run.

        One round trip to the worker instead of one per text: what a caller running the
        texts one by one until that point would see, at a fraction of the latency."""
        if not texts:
            return []
        out: list[Outcome] = []
        for outcome in self._run_remote([Job(pattern, flags, mode, text) for text in texts], stop_at):
            out.append(outcome)
            if outcome.status is Status.TIMEOUT or outcome.seconds >= stop_at:
                break
        return out

    def compile_check(self, pattern: str, flags: int) -> Outcome:
        """Does `pattern` compile, and within the budget? MATCH if it does (compiling it
        in-process is then safe), ERROR with `re`'s reason if it does not, TIMEOUT if
        compiling alone takes longer than the budget.

        Every regex rule asks first: the answer for a regex compiled in-process is kept (up
        to `_MEMO_SIZE` regexes); one compiled in the worker is kept with the jobs' outcomes."""
        known = self._checked.get((pattern, flags))
        if known is not None:
            return known
        if not cheap_to_compile(pattern, flags):
            if self.too_costly_to_compile(pattern, flags):
                return _TOO_COSTLY
            # Its count is within the budget: the worker compiles it under `COMPILE_MARGIN`
            # budgets, a guard against a count gone wrong that no machine's speed reaches.
            outcome = self.run([Job(pattern, flags, COMPILE, "")])[0]
            if outcome.status is _MATCH:
                return _COMPILES  # compiled in the worker: no need to here
            if outcome.status is not _ERROR:
                return outcome
            error = compile_error(pattern, flags)
            return Outcome(_ERROR, error=error) if error is not None else _COMPILES
        error = compile_error(pattern, flags)
        known = Outcome(_ERROR, error=error) if error is not None else _COMPILES
        checked = self._checked
        if len(checked) >= _MEMO_SIZE:
            del checked[next(iter(checked))]  # the oldest
        checked[(pattern, flags)] = known
        return known

    def too_costly_to_compile(self, pattern: str, flags: int) -> bool:
        """Whether `pattern` counts more compile steps than this budget's microseconds
        (`compiling.compile_steps`): it is not compiled, on any machine."""
        return not cheap_to_compile(pattern, flags) and compile_steps(pattern, flags, self.compile_steps_limit) > self.compile_steps_limit

    def compiles(self, pattern: str | None, flags: int) -> bool:
        """True if `pattern` is a regex that compiles within the budget."""
        return pattern is not None and self.compile_check(pattern, flags).status is _MATCH

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

    def _run_remote(self, jobs: Sequence[Job], stop_at: float = 0.0, budget: float | None = None) -> list[Outcome]:
        """Outcomes of `jobs` run in the worker, each under `budget` seconds of its CPU
        time (the runner's own budget by default)."""
        budget = self.budget if budget is None else budget
        results: list[Outcome | None] = [None] * len(jobs)
        # The worker stops each match at the budget (CPU time) and reports at least every
        # FLUSH_EVERY seconds; past this wait on the wall clock we stop the worker
        # ourselves. It is generous: on a loaded machine a match takes longer on the wall
        # than its CPU time, and only a worker that fails to stop itself should meet it.
        watchdog = self.budget * COMPILE_MARGIN + budget + protocol.FLUSH_EVERY + max(2.0, 4 * budget)
        # A regex that has overrun the budget STRIKES times is not run on the rest of
        # this call's texts (the worker does the same within each batch): a corpus of
        # catastrophic regexes then costs a few budgets per regex, not one per text.
        strikes: Strikes = {}
        todo: deque[int] = deque(range(len(jobs)))  # not sent yet, in order
        in_flight: deque[int] = deque()  # sent, in the order the worker answers
        one_by_one = False
        while todo or in_flight:
            worker = self._ensure_worker()
            batch = 1 if one_by_one else _BATCH
            # Two batches in flight: the worker matches one while we decode the other.
            while todo and len(in_flight) < 2 * batch:
                chunk: list[int] = []
                while todo and len(chunk) < batch:
                    index = todo.popleft()
                    job = jobs[index]
                    if strikes.get((job.pattern, job.flags, job.mode), 0) >= protocol.STRIKES:
                        results[index] = Outcome(Status.TIMEOUT, 0.0, protocol.NOT_RUN)
                    else:
                        chunk.append(index)
                if chunk:
                    worker.send(budget, [jobs[i] for i in chunk], stop_at, compile_budget=self.budget * COMPILE_MARGIN)
                    in_flight.extend(chunk)
            if not in_flight:
                break
            got = worker.receive(len(in_flight), watchdog)
            if got is None:
                worker.kill()
                self._worker = None
                self.restarts += 1
                if one_by_one:  # the job that hung is known exactly: the first unanswered
                    hung = in_flight.popleft()
                    results[hung] = Outcome(Status.TIMEOUT, watchdog)
                    job = jobs[hung]
                    strikes[(job.pattern, job.flags, job.mode)] = protocol.STRIKES
                # Results still buffered in the dead worker are lost; redo the rest one
                # job per batch so the job that hangs is known exactly.
                todo.extendleft(reversed(in_flight))
                in_flight.clear()
                one_by_one = True
                continue
            for outcome in got:
                index = in_flight.popleft()
                results[index] = outcome
                if outcome.status is Status.TIMEOUT:
                    job = jobs[index]
                    key = (job.pattern, job.flags, job.mode)
                    strikes[key] = strikes.get(key, 0) + 1
        return [r if r is not None else Outcome(Status.TIMEOUT, 0.0, protocol.NOT_RUN) for r in results]


def _struck(
    jobs: Sequence[Job],
    outcomes: Sequence[Outcome | None],
    strikes: Strikes,
    counted: Callable[[int], Outcome] | None = None,
) -> list[Outcome]:
    """`outcomes`, but after `protocol.STRIKES` timeouts of a regex's matches, its later
    matches unrun (`NOT_RUN`). The strikes see every match in order, an answer remembered
    from before included, so what a call says depends on its jobs alone. A match not
    known yet is counted (`counted`) when its turn comes, if it is not struck."""
    results: list[Outcome] = []
    for place, (job, outcome) in enumerate(zip(jobs, outcomes, strict=True)):
        if job.mode != COMPILE:
            key = (job.pattern, job.flags, job.mode)
            if strikes.get(key, 0) >= protocol.STRIKES:
                results.append(_NOT_RUN)
                continue
            if outcome is None:
                assert counted is not None
                outcome = counted(place)
            if outcome.status is _TIMEOUT:
                strikes[key] = strikes.get(key, 0) + 1
        assert outcome is not None
        results.append(outcome)
    return results


_SHARED: dict[tuple[int, int, float], RegexRunner] = {}
# This process's id, kept by a hook that runs in every child `os.fork` makes: asked for
# each rule on each entry, `os.getpid` would be a system call each time.
_PROCESS = [os.getpid()]


def _forked() -> None:
    _PROCESS[0] = os.getpid()


if hasattr(os, "register_at_fork"):  # (where there is none, there is no fork: Windows)
    os.register_at_fork(after_in_child=_forked)


def shared_runner(timeout_ms: float = DEFAULT_TIMEOUT_MS) -> RegexRunner:
    """This process's (and thread's) runner for a budget, created on first use and
    closed at exit; a runner talks to its worker over one pipe, so threads get their own."""
    key = (_PROCESS[0], threading.get_ident(), float(timeout_ms))
    runner = _SHARED.get(key)
    if runner is None:
        runner = _SHARED[key] = RegexRunner(timeout_ms)
    return runner


@atexit.register
def close_shared_runners() -> None:
    """Stop the regex workers of this process's shared runners (at exit; a forked child
    that leaves by `os._exit` calls it itself)."""
    for (pid, _, _), runner in list(_SHARED.items()):
        if pid == os.getpid():
            runner.close()


@dataclass(frozen=True)
class RegexSettings:
    """How lookups run entry regexes (the `[tool.entrykit.regex]` table), read once."""

    flags: int = 0
    mode: str = "search"
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    polynomial_degree: int = 3
    measure: bool = False  # also time ET205's attacks (opt-in: a clock, never the verdict)

    @classmethod
    def of(cls, section: Mapping[str, Any]) -> RegexSettings:
        # Every regex rule asks for every entry: the settings are read once per table's values.
        try:
            return _settings_of(_frozen(section)) if cls is RegexSettings else cls._read(section)
        except TypeError:  # a value that cannot be a key: read it each time
            return cls._read(section)

    @classmethod
    def _read(cls, section: Mapping[str, Any]) -> RegexSettings:
        return cls(
            flags=settings_flags(section),
            mode=str(section.get("mode", "search")),
            timeout_ms=max(1, int(section.get("timeout_ms", DEFAULT_TIMEOUT_MS))),
            polynomial_degree=int(section.get("polynomial_degree", 3)),
            measure=section.get("measure", False) is True,
        )

    def runner(self) -> RegexRunner:
        """This process's runner for the configured budget."""
        return shared_runner(self.timeout_ms)


def _frozen(section: Mapping[str, Any]) -> tuple[tuple[str, type, Any], ...]:
    """The table as a key: each item with its value's type (`1` is not `True`), lists as tuples."""
    items = ((key, type(value), tuple(value) if type(value) is list else value) for key, value in section.items())
    return tuple(sorted(items))


@lru_cache(maxsize=64)
def _settings_of(frozen: tuple[tuple[str, type, Any], ...]) -> RegexSettings:
    return RegexSettings._read({key: list(value) if kind is list else value for key, kind, value in frozen})
