"""Per-file work of a lint run: read, hash, parse, run the entry rules, summarise for corpus rules.

Each `Task` becomes a `FileRecord` (`lint.records`): its content digest, its load
failure or its summary (`corpus_summary.summarize`) and facts (`registry.Fact`), and,
for files being reported on, the findings of the entry rules the task asks for
(`Rerun`) with their places resolved. Files are checked in batches, stage by stage
(`Checker.check_files`), in a process pool when there are enough of them; records
come back in the order of the files.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import stat
import time
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import date
from operator import attrgetter
from pathlib import Path
from typing import Any

import entrykit.rules  # noqa: F401  (a spawned worker registers every rule, too)
from entrykit import registry
from entrykit.config import Config
from entrykit.deferred import load_deferred
from entrykit.diagnostic import Finding
from entrykit.entry import PLACES, Entry, pack_places
from entrykit.errors import EntrykitError, RuleCrashed
from entrykit.lint import collector
from entrykit.lint import suppressions as suppress
from entrykit.lint.cache import content_digest
from entrykit.lint.corpus_summary import summarize, summary_entry, without_fact_fields
from entrykit.lint.records import (
    Dated,
    Failure,
    FileRecord,
    RelatedPlace,
    Rerun,
    Stat,
    StoredFinding,
)
from entrykit.loader import LoadFailure, load, read_entry_bytes

POOL_MIN_FILES = 48  # below this many files to check, a pool costs more than it saves
# Files checked at once, stage by stage (`Checker.check_files`): each fact over all of
# them in turn, then each rule, rather than every step of one file before the next file's.
# A step's code, its regexes and what it keeps stay in the processor's caches from one file
# to the next: the same work takes a fifth or more less CPU time on the generated
# 10,000-entry corpora (`benchmarks/batches.py`). A `PerEntry` value shared by several rules
# is kept for as many entries.
BATCH_FILES = registry.ENTRIES_KEPT
# ... and at most this many characters of them (a file with more is checked alone): a batch
# holds its files parsed at once, and a pull request may add files of `max_file_bytes` each.
BATCH_CHARACTERS = 1 << 20
MAX_CHUNK = BATCH_FILES  # the most files a pool worker is sent at once: one batch
# New objects a process checking files (a pool worker; this one, checking them itself) makes
# before its collector first looks at them. What survives a file is what the memos keep
# (parsed regexes, message tokens, readings) and, until its batch is checked, its entry:
# acyclic. At 50,000 (the command's) each collection walked them anew: 4% of a worker's time
# on a diverse 10k corpus and on 100k, and a tenth of a `--jobs 1` lint's once files were
# checked in batches, for no garbage (a lint makes cycles only at import, and hostile entries
# add a few dozen objects in all). At this many, each worker of a diverse 100k lint collects
# once (in 50,000 files); the garbage a file could leave in cycles is still collected, only later.
CHECKING_YOUNG_OBJECTS = 1_000_000
RACY_NS = 2_000_000_000  # a file changed this recently may change again within its mtime tick


def summary_digest(summary: dict[str, Any]) -> str:
    """A digest of a summary's values: equal for equal summaries, whatever objects hold them.
    (`repr` rather than JSON: summaries may hold what YAML makes of a date, or non-string keys.)"""
    return content_digest(repr(summary).encode("utf-8", "surrogatepass"))


def file_stat(path: Path | str, now: int | None = None) -> Stat | None:
    """The file's `Stat` (through a link, and the link's own change time), or None when it
    changed too recently to trust it: within `RACY_NS` before `now` (the time it is asked,
    unless given: a time before it only counts more files as changed) or after it."""
    try:
        link = os.lstat(path)
        st = os.stat(path) if stat.S_ISLNK(link.st_mode) else link  # (a second call for a link only)
    except OSError:
        return None
    return trusted_stat(st, now, link)


def trusted_stat(st: os.stat_result, now: int | None = None, link: os.stat_result | None = None) -> Stat | None:
    """`file_stat` of what `os.stat` (and `os.lstat`: `link`) said of a file."""
    linked = link.st_ctime_ns if link is not None and stat.S_ISLNK(link.st_mode) else 0
    latest = max(st.st_mtime_ns, st.st_ctime_ns, linked)
    if (time.time_ns() if now is None else now) - latest < RACY_NS:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns, linked)


@dataclass(frozen=True, slots=True)
class Task:
    """One file to check, and what to compute of it if its content is the cached one
    (`cached_digest`); a file whose content changed is checked in full."""

    abspath: Path
    shown: str
    key: str
    fmt: str
    want: bool  # the file is reported on
    rerun: Rerun = Rerun.NONE  # the entry rules to run again on unchanged content
    facts: bool = True  # compute the summary and facts
    cached_digest: str | None = None
    text: str | None = None  # content that stands in for the file
    foreign: bool = False  # named outside the corpus root: it must look like an entry


class Checker:
    """Runs the enabled entry rules and facts on one entry at a time, for one config and day."""

    def __init__(
        self,
        config: Config,
        today: date,
        memo: registry.Known | None = None,
        corpus_size: int = 0,
        keep_entries: bool = False,
    ) -> None:
        self.config = config
        self.today = today
        self.keep_entries = keep_entries
        self.memo = registry.Memo(memo if memo is not None else {})
        self.rules: list[tuple[registry.Rule, registry.Context]] = []
        for rule in registry.all_rules():
            if rule.func is None or rule.scope != "entry" or not config.enabled(rule.code):
                continue
            ctx = registry.Context(
                today=today,
                options=config.options_for(rule),
                settings=config.settings,
                schema=config.schema,
                memo=self.memo,
            )
            self.rules.append((rule, ctx))
        self._runs: list[RuleRun] = []
        self._runs_of: list[tuple[registry.Rule, registry.Context]] | None = None  # the rules they were read from
        self.facts = [f for f in registry.all_facts() if any(config.enabled(c) for c in f.rules)]
        self.all_facts = self.facts
        self.fact_context = registry.Context(
            today=today,
            options={"corpus_size": corpus_size},
            settings=config.settings,
            schema=config.schema,
            memo=self.memo,
        )

    @property
    def dated_active(self) -> bool:
        return any(rule.dated for rule, _ in self.rules)

    def fact_names(self) -> set[str]:
        return {f.name for f in self.facts}

    def findings(self, checks: Sequence[tuple[Entry, Rerun]]) -> list[tuple[list[StoredFinding], list[StoredFinding]]]:
        """(undated, dated) findings of the entry rules each (entry, rerun) asks for, places
        resolved: each rule over every entry in turn, an entry's findings in the rules' order."""
        if self._runs_of is not self.rules:  # (read again where the rules were replaced: benchmarks/cold_costs.py)
            self._runs, self._runs_of = _rule_runs(self.rules), self.rules
        found_of: list[tuple[list[StoredFinding], list[StoredFinding]]] = [([], []) for _ in checks]
        for rule, func, ctx, is_dated in self._runs:
            for (entry, rerun), (undated, dated) in zip(checks, found_of, strict=True):
                if not asks_rule(rerun, is_dated):
                    continue
                try:
                    found = list(func(entry, ctx))
                except EntrykitError:  # the configuration (a schema that cannot be read), not the rule
                    raise
                except Exception as exc:  # a bug in a rule, not in the data: name both
                    raise RuleCrashed(rule.code, entry.path, exc) from exc
                if found:
                    out = dated if is_dated else undated
                    for finding in found:
                        out.append(self._store(rule, entry, finding))
        return found_of

    def _store(self, rule: registry.Rule, entry: Entry, finding: Finding) -> StoredFinding:
        place = finding.position or entry.locate(finding.pointer, at_key=finding.at_key)
        related = tuple(
            RelatedPlace(None, *entry.locate(other.pointer), other.pointer)
            for other in finding.related
            if other.path == entry.path  # entry rules can only point into their own file
        ) if finding.related else ()
        return StoredFinding.of(rule.code, finding, place, related, self.config.severity(rule, finding.severity))

    def summarize(self, checks: Sequence[tuple[FileRecord, Entry]]) -> None:
        """Fill each record's summary and facts from its parsed entry: each fact over every entry in turn."""
        summaries: list[dict[str, Any]] = []
        lights: list[Entry] = []
        for record, entry in checks:
            summary = summarize(entry.data)
            record.sdigest = summary_digest(summary)
            summaries.append(summary)
            lights.append(summary_entry(entry.path, entry.abspath, entry.fmt, summary, {}, entry.text))
        for item in self.facts:
            func, name = item.func, item.name
            for light in lights:
                light.facts[name] = func(light, self.fact_context)
        for (record, entry), summary, light in zip(checks, summaries, lights, strict=True):
            record.summary = without_fact_fields(summary)
            # Where a corpus finding may point in the summary kept, found now while the file is
            # parsed: the corpus phase, which runs alone after every file, need not parse it again.
            light.facts[PLACES] = pack_places(entry, record.summary)
            record.facts = light.facts

    def check_entries(self, checks: Sequence[Checking]) -> None:
        """Fill each record from its parsed entry: summary and facts (where `facts`), findings
        of the rules its `rerun` asks for; stage by stage over a batch of `BATCH_FILES` of
        them at a time (`_check_batch`)."""
        for start in range(0, len(checks), BATCH_FILES):
            self._check_batch(checks[start : start + BATCH_FILES])

    def _check_batch(self, checks: Sequence[Checking]) -> None:
        """`check_entries` of one batch, facts first. What its checks added to the memo goes
        with its last record; what rules derived of its entries (`registry.PerEntry`) is let
        go at the end."""
        # Facts first: the regex fact runs all of an entry's own regex work in one round trip
        # to the regex worker, whose outcomes the regex rules then reuse.
        self.summarize([(c.record, c.entry) for c in checks if c.facts])
        ruled = [c for c in checks if c.rerun is not Rerun.NONE]
        day = self.today.isoformat()
        for check, (undated, dated) in zip(ruled, self.findings([(c.entry, c.rerun) for c in ruled]), strict=True):
            record, entry = check.record, check.entry
            if check.rerun is Rerun.ALL:
                record.results = undated
            record.dated = Dated(day, dated)
            if check.rerun is Rerun.ALL and entry.fmt == "yaml" and "entrykit:" in entry.text:
                record.directives = [
                    (d.line, d.col, d.target_line, d.code) for d in suppress.parse(entry.text).directives
                ]
        if self.keep_entries:
            for check in checks:
                check.record.entry = check.entry
        if checks:
            checks[-1].record.memo = self.memo.take_added()
        registry.forget_entries()

    def check_files(self, tasks: Sequence[Task]) -> list[FileRecord]:
        """Read, hash and check some files, the parsed ones stage by stage (`check_entries`),
        as many at once as `BATCH_CHARACTERS` allows. A record with
        `summary` None and no failure means: unchanged since `task.cached_digest`, nothing
        asked was missing."""
        records: list[FileRecord] = []
        checks: list[Checking] = []
        held = 0  # characters of the parsed files not checked yet
        for task in tasks:
            record, check = self._read(task)
            records.append(record)
            if check is None:
                continue
            size = len(check.entry.text)
            if checks and held + size > BATCH_CHARACTERS:
                self.check_entries(checks)
                checks, held = [], 0
            checks.append(check)
            held += size
        self.check_entries(checks)
        return records

    def check_file(self, task: Task) -> FileRecord:
        """`check_files` of one file."""
        return self.check_files([task])[0]

    def _read(self, task: Task) -> tuple[FileRecord, Checking | None]:
        """The file's record so far, and its check: None when its content is unchanged and
        nothing asked is missing, or it does not load (its failure is in the record)."""
        record = FileRecord(task.key, task.shown, task.abspath, task.fmt)
        limits = self.config.limits
        raw: bytes | None = None
        if task.text is not None:
            record.text = task.text
            record.digest = content_digest(task.text.encode("utf-8", "surrogatepass"))
        else:
            info: os.stat_result | None = None
            link: os.stat_result | None = None
            try:  # (one stat for the record and the read; a second for a link only)
                link = os.lstat(task.abspath)
                info = os.stat(task.abspath) if stat.S_ISLNK(link.st_mode) else link
            except OSError:  # (the read says why)
                info = link = None
            record.stat = trusted_stat(info, None, link) if info is not None else None
            got = read_entry_bytes(task.abspath, limits.file_bytes, self.config.root, info, link)
            if isinstance(got, bytes):
                raw = got
                record.digest = content_digest(raw)
        rerun, facts = task.rerun, task.facts
        if not record.digest or record.digest != task.cached_digest:
            rerun, facts = (Rerun.ALL if task.want else Rerun.NONE), True
        elif rerun is Rerun.NONE and not facts:
            return record, None
        loaded = load(
            task.abspath, task.shown, limits, task.text, self.config.root, raw, entries_only=task.foreign, keep_nodes=True
        )
        if isinstance(loaded, LoadFailure):
            record.failure = Failure(loaded.line, loaded.col, loaded.message)
            return record, None
        return record, Checking(record, loaded, rerun, facts)


@dataclass(frozen=True, slots=True)
class Checking:
    """A parsed entry to check, its record, the rules to run on it and whether to make its summary and facts."""

    record: FileRecord
    entry: Entry
    rerun: Rerun
    facts: bool


RuleRun = tuple[registry.Rule, registry.EntryRule, registry.Context, bool]


def _rule_runs(rules: Sequence[tuple[registry.Rule, registry.Context]]) -> list[RuleRun]:
    """(rule, function, context, dated) of each entry rule, in order: read once per checker
    rather than once per rule and file."""
    return [(rule, rule.func, ctx, rule.dated) for rule, ctx in rules if rule.func is not None]


def asks_rule(rerun: Rerun, dated: bool) -> bool:
    """Whether a file whose check is `rerun` runs a rule that reads today (`dated`) or not."""
    return rerun is Rerun.ALL or (rerun is Rerun.DATED and dated)


_WORKER: dict[str, Any] = {}


def few_files(checker: Checker, count: int) -> None:
    """Leave on-demand facts to their rules when only `count` files are checked (a pre-commit
    run): the corpus phase may not run at all, and one file's MinHash would cost the
    import of numpy alone."""
    few = count < POOL_MIN_FILES
    checker.facts = [f for f in checker.all_facts if not (few and f.on_demand)]


def _init_worker(
    config: Config, today: date, memo: registry.Known, corpus_size: int, tasks: Sequence[Task] = ()
) -> None:
    # The parent decides when the pool stops: a Ctrl-C (sent to the whole process group)
    # is its to handle, and a SIGTERM from it ends a worker at once. A worker writes
    # nothing to the caller's output, so it keeps no pipe of the caller's open either.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        os.close(quiet)
    except OSError:  # pragma: no cover - no /dev/null
        pass
    _WORKER["checker"] = Checker(config, today, memo, corpus_size)
    _WORKER["tasks"] = tasks  # (a forked worker has them already: the parent sends their numbers)
    # What the worker holds before its first file (what the parent loaded since it last froze,
    # its checker) lives as long as the worker: no collection need walk it, file after file.
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(CHECKING_YOUNG_OBJECTS, older, oldest)


def _check_chunk(chunk: Sequence[Task | int]) -> list[tuple[Any, ...]]:
    """The records of a chunk's tasks (or of the tasks of those numbers), in order, as `_lean` sends them."""
    tasks = _WORKER["tasks"]
    checked = _WORKER["checker"].check_files([tasks[task] if type(task) is int else task for task in chunk])
    return [_lean(record) for record in checked]


# What the parent takes of a worker's record: its names and format are the task's own.
_SENT = tuple(name for name in FileRecord.__slots__ if name not in ("key", "shown", "where", "fmt"))
_sent_values = attrgetter(*_SENT)


def _lean(record: FileRecord) -> tuple[Any, ...]:
    """A worker's record without what the parent knows already (its task's names, whose
    `Path` costs more to unpickle than the rest of most records), as a plain tuple (a
    dataclass unpickles through a call per field)."""
    return _sent_values(record)


def _full(task: Task, sent: tuple[Any, ...]) -> FileRecord:
    """The record `_lean` sent, named as its task."""
    return FileRecord(task.key, task.shown, task.abspath, task.fmt, *sent)


def run_tasks(
    tasks: Sequence[Task],
    checker: Checker,
    jobs: int,
    memo: registry.Known,
    corpus_size: int,
) -> Iterator[FileRecord]:
    """Check every task, in a pool of `jobs` processes when there are enough; in order."""
    few_files(checker, len(tasks))
    if jobs <= 1 or len(tasks) < POOL_MIN_FILES or checker.keep_entries:
        with collector.young_threshold(CHECKING_YOUNG_OBJECTS):
            for start in range(0, len(tasks), BATCH_FILES):
                yield from checker.check_files(tasks[start : start + BATCH_FILES])
        return
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods:  # what the facts make ready here, the forked workers share
        load_deferred()  # (and the analyses the rules load on first use)
        for item in checker.facts:
            if item.prepare is not None:
                item.prepare(checker.fact_context)
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    workers = min(jobs, max(1, len(tasks) // (POOL_MIN_FILES // 2)))
    forked = context.get_start_method() == "fork"
    # A forked worker inherits the tasks (initargs are not pickled then): each is sent as its
    # number. A spawned worker is sent each task.
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_init_worker,
        initargs=(checker.config, checker.today, memo, corpus_size, tasks if forked else ()),
    )
    items: Sequence[Task | int] = range(len(tasks)) if forked else tasks
    try:
        # Chunks submitted one by one, not `pool.map`: map's results, when a Ctrl-C or a
        # SIGTERM stops the wait, cancel every queued chunk from this thread, while the
        # pool's manager thread still holds them; once the workers are gone, that thread
        # (Python 3.11) then fails on a cancelled one and prints its traceback.
        chunks = deque(pool.submit(_check_chunk, items[start:end]) for start, end in chunk_bounds(len(items), workers))
        number = 0
        while chunks:  # (in order: one result per task; a chunk's results let go once read)
            for values in chunks.popleft().result():
                yield _full(tasks[number], values)
                number += 1
    except BaseException:  # interrupted, stopped, or a worker failed: the pool stops now
        _stop(pool)
        raise
    pool.shutdown()


def chunk_bounds(count: int, workers: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each chunk of `count` tasks shared by `workers`: large while much is
    left (each chunk is a round trip through the pool's queues, whose handling in this
    process takes a core's time from the workers), smaller towards the end (where one
    worker would wait alone for the other's last chunk). A chunk holds a quarter of an
    even share of what is left, from 1 to `MAX_CHUNK` tasks."""
    start = 0
    while start < count:
        end = start + max(1, min(MAX_CHUNK, (count - start) // (workers * 4)))
        yield start, end
        start = end


def _stop(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers at once, with what they are doing (`shutdown` would wait for
    every file still queued)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    # (read before `shutdown`, which forgets the processes, the manager thread and the result queue)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError):  # already gone
            process.terminate()
    for process in processes:
        process.join(5)
    # A worker stopped while it was sending a result leaves half a message in the result
    # pipe: the pool's manager thread would wait for the rest for ever, and the interpreter
    # waits for that thread at exit. With every worker gone, closing this process's own
    # end for writing ends that read (EOF: the pool counts as broken, and its thread ends).
    if writer is not None:
        with contextlib.suppress(OSError):
            writer.close()
    # Let that thread finish now: at exit, Python wakes every pool's thread without the
    # pool's lock (Python 3.11), and a wake-up racing the thread's own closing of its
    # pipe prints an OSError (bad file descriptor) after our last line.
    if manager is not None:
        manager.join(5)
