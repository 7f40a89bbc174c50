"""Work of the corpus phase spread over forked processes, with the same result as in one.

`Lanes.map` runs a function over shares of work: the first share here, each other in a
child `os.fork` makes, which sends its result back pickled through a pipe. Where there is
no fork, with one job, or when a child fails in any way (killed, raising, sending
something unreadable), this process computes that share itself: the result never depends
on a child's fate, only the time it takes does.

`corpus_lanes` runs the corpus rules this way: the rules the registry names as worth a
process of their own (`apart=True`) each in a child, the others here, each rule's
findings (as the cache keeps them: plain tuples) given back in the rules' order, with what
the child added to the memo and to the entries' facts (kept by the cache) added here.

`Aside` computes one function in a child while this process goes on: the engine writes
the cache's per-file records that way during the corpus phase.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from entrykit import registry
from entrykit.corpus import Corpus
from entrykit.entry import Entry
from entrykit.lint import collector
from entrykit.regex import runner as regex_runner
from entrykit.regex.literal_index import corpus_cross_matches
from entrykit.regex.runner import RegexSettings

T = TypeVar("T")
R = TypeVar("R")

# Below this many entries, a corpus rule takes less time than forking a process for it
# (generated corpora of 400 to 1,200 entries take as long either way; the corpus phase of
# the 1,739 deadends canons, whose regexes each run on a few other entries' texts, takes a
# quarter less in lanes).
LANE_MIN_ENTRIES = 1_000

_UNSET = object()


class Lanes:
    """Up to `ways` processes for one piece of work: this one and `ways - 1` forked children."""

    def __init__(self, jobs: int) -> None:
        self.ways = max(1, jobs) if can_fork() else 1

    def map(self, func: Callable[[T], R], shares: Sequence[T]) -> list[R]:
        """`[func(share) for share in shares]`: the first share here, the others (up to
        `ways - 1` of them) in forked children, each computed here instead if its child fails."""
        if self.ways < 2 or len(shares) < 2:
            return [func(share) for share in shares]
        waiting = [_start(func, share) for share in shares[1 : self.ways]]
        sent = []
        try:
            out = [func(shares[0])]
            while waiting:
                sent.append(_result_of(waiting[0]))
                del waiting[0]
        except BaseException:  # (interrupted, or a failure here: the children are not waited for)
            for child in waiting:
                _abandon(child)
            raise
        out += [func(share) if got is _UNSET else got for share, got in zip(shares[1:], sent, strict=False)]
        out += [func(share) for share in shares[1 + len(sent) :]]
        return out


class Aside:
    """`func(arg)` computed in a child `os.fork` makes, while this process goes on; where
    there is no fork, computed here at once. `result()` gives it (None when the child
    failed in any way)."""

    def __init__(self, func: Callable[[T], R], arg: T) -> None:
        self._child: tuple[int, int] | None = None
        self._value: Any = None
        if can_fork():
            self._child = _start(func, arg)
        else:
            self._value = func(arg)

    def result(self) -> Any:
        """What `func(arg)` gave, once the child has ended; None if it failed. Interrupted
        while it waits, the child is stopped."""
        if self._child is None:
            return self._value
        child, self._child = self._child, None
        try:
            got = _result_of(child)
        except BaseException:
            _abandon(child)
            raise
        self._value = None if got is _UNSET else got
        return self._value


def can_fork() -> bool:
    """Whether this platform forks (the lint's process pool forks alike, threads or not)."""
    return hasattr(os, "fork")


def _start(func: Callable[[T], Any], share: T) -> tuple[int, int]:
    """Fork a child that sends `func(share)` pickled through a pipe: (its pid, the pipe's end to read)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # (the child: it never returns)
        os.close(read)
        _child(func, share, write)
    os.close(write)
    return pid, read


def _child(func: Callable[[T], Any], share: T, write: int) -> None:
    """Send `func(share)` through `write` and leave: without the parent's exit handlers,
    its regex workers closed (each child starts its own when it needs one)."""
    status = 1
    try:
        # A short life: no collection walks (and so copies) the parent's objects.
        gc.disable()
        data = pickle.dumps(func(share), pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
        status = 0
    except BaseException:  # the parent computes the share itself
        pass
    finally:
        regex_runner.close_shared_runners()  # (the parent's are its own, left to it)
        os._exit(status)


def _result_of(child: tuple[int, int]) -> Any:
    """What the child sent, once it has ended; `_UNSET` when it failed in any way."""
    pid, read = child
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if status != 0 or not data:
        return _UNSET
    try:
        with collector.paused():  # (each collection would walk every object of the corpus phase)
            return pickle.loads(data)
    except Exception:  # a child killed while it wrote
        return _UNSET


def _abandon(child: tuple[int, int]) -> None:
    """Stop a child whose result is no longer wanted, and reap it."""
    pid, read = child
    with contextlib.suppress(OSError):  # (closed already when reading it was interrupted)
        os.close(read)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def corpus_lanes(
    rules: Sequence[registry.Rule],
    lane: Callable[[Sequence[registry.Rule]], list[R]],
    memo: registry.Memo,
    corpus: Corpus,
    regex_section: Mapping[str, Any],
    jobs: int,
) -> Iterator[R]:
    """What `lane(rules)` gives of each rule, in order (plain data, made alike in any
    process). With jobs to spare and entries enough to pay for them, the regex cross
    matches are made first on every core, then the rules registered `apart` run
    each in a lane of its own, in a child, the others in one lane here."""
    entries = corpus.entries
    lanes = Lanes(jobs if len(entries) >= LANE_MIN_ENTRIES else 1)
    if lanes.ways > 1 and any(r.cross_matches for r in rules):
        _share_cross_matches(corpus, regex_section, lanes)
    apart = [[r] for r in rules if r.apart] if lanes.ways > 1 else []
    if not apart:
        return iter(lane(rules))
    together = [r for r in rules if not r.apart]

    def run(share: list[registry.Rule]) -> Any:
        """The lane of `share`; in a child, with what it added to the memo and facts."""
        return lane(share) if share is together else _run_apart(share, lane, memo, entries)

    found = lanes.map(run, [together, *apart])
    done = dict(zip((r.code for r in together), found[0], strict=True))
    for share, sent in zip(apart, found[1:], strict=True):
        done.update(zip((r.code for r in share), _taken_back(sent, memo, entries), strict=True))
    return (done.pop(rule.code) for rule in rules)


def _share_cross_matches(corpus: Corpus, regex_section: Mapping[str, Any], lanes: Lanes) -> None:
    """Make the regex cross matches, in `corpus.memo` where the rules that read them find
    them, their regexes run in `lanes`."""
    settings = RegexSettings.of(regex_section)
    try:
        corpus_cross_matches(
            corpus.entries, settings.flags, settings.mode, settings.runner(), corpus.memo, corpus.focus, spread=lanes
        )
    except Exception:  # a bug: the first rule that reads them meets it again, and names itself
        return


def _run_apart(
    share: Sequence[registry.Rule],
    lane: Callable[[Sequence[registry.Rule]], list[Any]],
    memo: registry.Memo,
    entries: Sequence[Entry],
) -> tuple[list[Any], dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """The lane of `share`, with the memo's additions and the facts it gave entries (by
    entry number): what a child sends back."""
    before = [dict(entry.facts) for entry in entries]
    found = lane(share)
    return found, memo.take_added(), _facts_added(entries, before)


def _facts_added(entries: Sequence[Entry], before: Sequence[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """The facts each entry holds now that it did not hold (as they are) in `before`."""
    out = []
    for number, entry in enumerate(entries):
        then = before[number]
        added = {name: value for name, value in entry.facts.items() if then.get(name, _UNSET) is not value}
        if added:
            out.append((number, added))
    return out


def _taken_back(sent: Any, memo: registry.Memo, entries: Sequence[Entry]) -> list[Any]:
    """The lane's results from what a child sent (or `_run_apart` made here), its memo
    values and facts added here."""
    found, added, facts = sent
    for key, value in added.items():
        memo.put(key, value)
    for number, given in facts:
        entries[number].facts.update(given)
    return list(found)
