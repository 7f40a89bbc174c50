"""Per-file work of a lint run: read, hash, parse, run the entry rules, summarise for corpus rules.

Each file becomes a `FileRecord`: its content digest, its load failure or its
summary (`summary.summarize`) and facts (`registry.Fact`), and, for files being
reported on, the findings of the entry rules with their places resolved. A record
depends only on the file's content, its path, and the run's environment (entrykit
version, config, schema; and for rules that read today, the day), so it is what the
cache keeps. Files are checked in a process pool when there are enough of them;
records come back in the order of the files.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple

import entrykit.rules  # noqa: F401  (a spawned worker registers every rule, too)
from entrykit import registry
from entrykit.config import Config
from entrykit.diagnostic import Finding, Severity
from entrykit.entry import Entry
from entrykit.errors import RuleCrashed
from entrykit.lint import suppressions as suppress
from entrykit.lint.cache import content_digest
from entrykit.lint.corpus_summary import summarize, summary_entry
from entrykit.loader import LoadFailure, load, read_entry_bytes

POOL_MIN_FILES = 48  # below this many files to check, a pool costs more than it saves
RACY_NS = 2_000_000_000  # a file changed this recently may change again within its mtime tick

# A finding as records keep it: (code, line, col, severity, message, pointer,
# related, fix). `related` holds (key, line, col, pointer) with key None for the
# file itself; `fix` is None or (pointer, value, description, safe).
Stored = tuple[Any, ...]


@dataclass
class FileRecord:
    """Everything a run needs of one file (see the module docstring)."""

    key: str  # path below the corpus root: what the cache files it under
    shown: str  # how diagnostics name it
    abspath: Path
    fmt: str
    digest: str = ""
    stat: tuple[int, int, int] | None = None  # (mtime_ns, size, inode) when not racy
    sdigest: str = ""  # digest of the summary: what corpus rules see of the file
    failure: tuple[int, int, str] | None = None
    summary: dict[str, Any] | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    results: list[Stored] | None = None  # entry rules that do not read today; None: not run
    dated: tuple[str, list[Stored]] | None = None  # (day, findings of rules that read today)
    directives: list[tuple[int, int, int | None, str]] = field(default_factory=list)
    memo: dict[str, Any] = field(default_factory=dict)  # memo items added while checking it
    entry: Entry | None = None  # the parsed entry, when the caller keeps entries
    text: str | None = None  # content that stands in for the file (fixer, merge)

    def result_data(self) -> dict[str, Any]:
        """What the cache keeps of the file's results."""
        return {
            "d": self.digest,
            "st": self.stat,
            "sd": self.sdigest,
            "fmt": self.fmt,
            "f": self.failure,
            "r": self.results,
            "dr": self.dated,
            "sup": self.directives,
        }

    def index_data(self) -> dict[str, Any] | None:
        """What the cache keeps of the file's summary and facts (None for a failure)."""
        if self.failure is not None or self.summary is None:
            return None
        return {"d": self.digest, "s": self.summary, "x": self.facts}

    @classmethod
    def from_data(
        cls, key: str, shown: str, abspath: Path, data: dict[str, Any], with_results: bool = True
    ) -> FileRecord | None:
        """A record (without its summary) from the cache, or None if the data are not a record's.

        Without `with_results` the findings are left out (a file not reported on)."""
        try:
            record = cls(key, shown, abspath, str(data["fmt"]), str(data["d"]))
            stat = data["st"]
            record.stat = (int(stat[0]), int(stat[1]), int(stat[2])) if stat is not None else None
            record.sdigest = str(data.get("sd") or "")
            failure = data["f"]
            record.failure = (int(failure[0]), int(failure[1]), str(failure[2])) if failure is not None else None
            if with_results:
                record.results = stored_findings(data["r"]) if data["r"] is not None else None
                dated = data["dr"]
                record.dated = (str(dated[0]), stored_findings(dated[1])) if dated is not None else None
            record.directives = [(int(a), int(b), c if c is None else int(c), str(d)) for a, b, c, d in data["sup"]]
        except (KeyError, TypeError, ValueError, IndexError):
            return None
        return record

    @classmethod
    def from_row(cls, key: str, shown: str, abspath: Path, row: Any) -> FileRecord | None:
        """A record without results or summary from the cache's `files` table (`cache.row_of`),
        or None if the row is not one."""
        try:
            digest, stat, sdigest, fmt, failure = row
            if not isinstance(digest, str) or not isinstance(fmt, str):
                return None
            record = cls(key, shown, abspath, fmt, digest)
            record.stat = (int(stat[0]), int(stat[1]), int(stat[2])) if stat is not None else None
            record.sdigest = str(sdigest or "")
            record.failure = (int(failure[0]), int(failure[1]), str(failure[2])) if failure is not None else None
        except (TypeError, ValueError, IndexError):
            return None
        return record

    def add_index(self, data: dict[str, Any] | None) -> bool:
        """Take the summary and facts from the cache if they are of this content; False if not."""
        if not isinstance(data, dict) or data.get("d") != self.digest:
            return False
        summary, facts = data.get("s"), data.get("x")
        if not isinstance(summary, dict) or not isinstance(facts, dict):
            return False
        self.summary, self.facts = summary, dict(facts)
        return True


def summary_digest(summary: dict[str, Any]) -> str:
    """A digest of a summary's values: equal for equal summaries, whatever objects hold them.
    (`repr` rather than JSON: summaries may hold what YAML makes of a date, or non-string keys.)"""
    return content_digest(repr(summary).encode("utf-8", "surrogatepass"))


def stored_findings(items: Any) -> list[Stored]:
    """Findings as records keep them, checked to be of that shape (ValueError, TypeError if not)."""
    out = []
    for item in items:
        code, line, col, severity, message, pointer, related, fix = item
        Severity(severity)
        out.append((str(code), int(line), int(col), severity, str(message), str(pointer), tuple(related), fix))
    return out


def file_stat(path: Path) -> tuple[int, int, int] | None:
    """(mtime_ns, size, inode), or None when the file changed too recently to trust it."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if time.time_ns() - st.st_mtime_ns < RACY_NS:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class Task(NamedTuple):
    """One file to check: `run` says which entry rules ("all", "dated", "none")."""

    abspath: Path
    shown: str
    key: str
    fmt: str
    want: bool  # the file is reported on
    run: str
    facts: bool  # compute the summary and facts
    cached_digest: str | None
    text: str | None


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

    def findings(self, entry: Entry, run: str) -> tuple[list[Stored], list[Stored]]:
        """(undated, dated) findings of the entry rules `run` asks for, places resolved."""
        undated: list[Stored] = []
        dated: list[Stored] = []
        for rule, ctx in self.rules:
            if run == "dated" and not rule.dated:
                continue
            assert rule.func is not None
            try:
                found = list(rule.func(entry, ctx))
            except Exception as exc:  # a bug in a rule, not in the data: name both
                raise RuleCrashed(rule.code, entry.path, exc) from exc
            out = dated if rule.dated else undated
            for finding in found:
                out.append(self._store(rule, entry, finding))
        return undated, dated

    def _store(self, rule: registry.Rule, entry: Entry, finding: Finding) -> Stored:
        line, col = finding.position or entry.locate(finding.pointer, at_key=finding.at_key)
        related = []
        for other in finding.related:
            if other.path == entry.path:  # entry rules can only point into their own file
                r_line, r_col = entry.locate(other.pointer)
                related.append((None, r_line, r_col, other.pointer))
        severity = self.config.severities.get(rule.code) or finding.severity or rule.severity
        fix = finding.fix
        stored_fix = (fix.pointer, fix.value, fix.description, fix.safe) if fix is not None else None
        return (
            rule.code, line, col, severity.value, finding.message, finding.pointer, tuple(related), stored_fix,
        )

    def summarize(self, record: FileRecord, entry: Entry) -> None:
        """Fill the record's summary and facts from a parsed entry."""
        record.summary = summarize(entry.data)
        record.sdigest = summary_digest(record.summary)
        light = summary_entry(entry.path, entry.abspath, entry.fmt, record.summary, {}, entry.text)
        for item in self.facts:
            light.facts[item.name] = item.func(light, self.fact_context)
        record.facts = light.facts

    def check_entry(self, record: FileRecord, entry: Entry, run: str, facts: bool) -> FileRecord:
        """Fill `record` from a parsed entry: findings of the rules `run` asks for, summary, facts."""
        if run != "none":
            undated, dated = self.findings(entry, run)
            if run == "all":
                record.results = undated
            record.dated = (self.today.isoformat(), dated)
            if run == "all" and entry.fmt == "yaml" and "entrykit:" in entry.text:
                record.directives = [
                    (d.line, d.col, d.target_line, d.code) for d in suppress.parse(entry.text).directives
                ]
        if facts:
            self.summarize(record, entry)
        record.memo = self.memo.take_added()
        if self.keep_entries:
            record.entry = entry
        return record

    def check_file(self, task: Task) -> FileRecord:
        """Read, hash and check one file. A record with `summary` None and no failure
        means: unchanged since `task.cached_digest`, nothing asked was missing."""
        record = FileRecord(task.key, task.shown, task.abspath, task.fmt)
        limits = self.config.limits
        raw: bytes | None = None
        if task.text is not None:
            record.text = task.text
            record.digest = content_digest(task.text.encode("utf-8", "surrogatepass"))
        else:
            record.stat = file_stat(task.abspath)
            got = read_entry_bytes(task.abspath, limits.file_bytes, self.config.root)
            if isinstance(got, bytes):
                raw = got
                record.digest = content_digest(raw)
        run, facts = task.run, task.facts
        if not record.digest or record.digest != task.cached_digest:
            run, facts = ("all" if task.want else "none"), True
        elif run == "none" and not facts:
            return record
        loaded = load(task.abspath, task.shown, limits, task.text, self.config.root, raw)
        if isinstance(loaded, LoadFailure):
            record.failure = (loaded.line, loaded.col, loaded.message)
            record.memo = self.memo.take_added()
            return record
        return self.check_entry(record, loaded, run, facts)


_WORKER: dict[str, Checker] = {}


def few_files(checker: Checker, count: int) -> None:
    """Leave on-demand facts to their rules when only `count` files are checked (a pre-commit
    run): the corpus phase may not run at all, and one file's MinHash would cost the
    import of numpy alone."""
    few = count < POOL_MIN_FILES
    checker.facts = [f for f in checker.all_facts if not (few and f.on_demand)]


def _init_worker(config: Config, today: date, memo: registry.Known, corpus_size: int) -> None:
    _WORKER["checker"] = Checker(config, today, memo, corpus_size)


def _check_in_worker(task: Task) -> FileRecord:
    return _WORKER["checker"].check_file(task)


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
        for task in tasks:
            yield checker.check_file(task)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    workers = min(jobs, max(1, len(tasks) // (POOL_MIN_FILES // 2)))
    chunk = max(1, min(32, len(tasks) // (workers * 8)))
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_init_worker,
        initargs=(checker.config, checker.today, memo, corpus_size),
    ) as pool:
        yield from pool.map(_check_in_worker, tasks, chunksize=chunk)
