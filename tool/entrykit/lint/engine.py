"""Run the rules over files: findings become diagnostics with places, filtered and sorted.

A run has three phases. Per file (`pipeline`): parse, entry rules on the files
reported on, and a summary of every file for corpus rules, reused from the cache
when the file has not changed and spread over a process pool when there are many.
Corpus rules then run once over the summaries; when only some files of the corpus
are reported on (a pre-commit run), they are asked for just the findings on those
files (`Corpus.focus`), so the run costs about the same in a large corpus as in a
small one. Last, findings become diagnostics: per-file ignores, suppressions,
unused suppressions, sorting.
"""

from __future__ import annotations

import hashlib
import logging
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from datetime import date
from functools import cached_property, lru_cache
from itertools import groupby
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import Any, NamedTuple, cast, overload

import entrykit.rules  # noqa: F401  (importing the rule families registers every rule)
from entrykit import registry
from entrykit.config import Config
from entrykit.corpus import Corpus
from entrykit.diagnostic import Diagnostic, Finding, Fix, Location, Related, Severity, Tally, by_place
from entrykit.entry import Entry
from entrykit.errors import ConfigError, EntrykitError, RuleCrashed
from entrykit.lint import collector, lanes
from entrykit.lint import suppressions as suppress
from entrykit.lint.cache import Store, environment_key
from entrykit.lint.cache import open_store as open_cache
from entrykit.lint.corpus_summary import shared, summarize, summary_entry
from entrykit.lint.pipeline import Checker, Checking, Task, file_stat, run_tasks
from entrykit.lint.records import (
    Dated,
    Failure,
    FileRecord,
    RelatedPlace,
    Rerun,
    StoredFinding,
    plain_findings,
    read_findings,
    shared_findings,
)
from entrykit.loader import LoadFailure, display_path, file_format, load
from entrykit.private_folder import Unusable, location
from entrykit.schema import fingerprint as schema_fingerprint
from entrykit.schema import load_schema
from entrykit.schema import regexes as schema_regexes
from entrykit.schema import validator as schema_validator
from entrykit.targets import Plan, plan, work_tree_top

log = logging.getLogger(__name__)

# Told (stage, done, total) as a run gets on: e.g. a progress bar at a terminal.
Progress = Callable[[str, int, int], None]
# Corpus-rule findings by record key, each as the cache keeps it (`StoredFinding.plain`).
CorpusFound = dict[str, list[tuple[Any, ...]]]


def _no_progress(stage: str, done: int, total: int) -> None:
    pass


@contextmanager
def _reading(settle: Callable[[], None] | None) -> Iterator[None]:
    """The cyclic garbage collector paused while a run reads what the cache holds, then
    `settle`: what the caller does with what was read (a command line freezes it, so that
    no collection walks it again: `gc.freeze`).

    A warm run over 10,000 files reads some hundreds of thousands of small containers,
    plain data that holds no cycle; each collection walked them all again (a quarter of
    the run). Nothing cyclic is made while reading, so pausing leaves no garbage behind."""
    with collector.paused():
        try:
            yield
        finally:
            if settle is not None:
                settle()


@dataclass
class LintResult:
    """Diagnostics of one run, and what was looked at.

    `entries` (the targets that parsed) are made on first use: a run over a large
    corpus that only reports need not build them."""

    diagnostics: Sequence[Diagnostic]  # a `Diagnostics` from a run: made as they are read
    files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the run could not do (the cache), for people
    _records: list[FileRecord] = field(default_factory=list, repr=False)
    _entries: list[Entry] | None = field(default=None, repr=False)

    @property
    def entries(self) -> list[Entry]:
        if self._entries is None:
            self._entries = [
                r.entry
                if r.entry is not None
                else summary_entry(r.shown, r.abspath, r.fmt, r.summary or {}, r.facts, r.text or "")
                for r in self._records
                if r.failure is None
            ]
        return self._entries

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)


# The most regexes (`pattern` values and `patternProperties` keys) a project's schema may hold:
# jsonschema tries every `patternProperties` key on every key of an entry it checks.
SCHEMA_REGEXES_LIMIT = 128


def _check_schema_size(path: Path) -> None:
    """ConfigError for a project's schema with more than `SCHEMA_REGEXES_LIMIT` regexes (checked
    before the schema is: the meta-schema's check compiles every one)."""
    count = len(set(schema_regexes(load_schema(path))))
    if count > SCHEMA_REGEXES_LIMIT:
        raise ConfigError(
            f"schema {path} holds {count:,} regexes (`pattern` values and `patternProperties` keys), "
            f"more than the {SCHEMA_REGEXES_LIMIT:,} entrykit runs: jsonschema tries each "
            "`patternProperties` key on every key of an entry"
        )


def _check_schema_patterns(path: Path) -> None:
    """ConfigError for a `pattern` of a project's schema that could run for long: jsonschema
    runs each with `re`, without a time limit, on every value it applies to, and a
    checkout's schema is the checkout's to write."""
    from entrykit.output_safety import escape
    from entrykit.regex.redos import slow_search  # (only a project's own schema is asked about)

    for pattern in sorted(set(schema_regexes(load_schema(path)))):
        why = slow_search(pattern)
        if why is not None:
            raise ConfigError(
                f"schema {path}: pattern `{escape(pattern)}` may not run on entries' text: {why}; "
                "write it so that it cannot backtrack (`entrykit explain ET205` says how)"
            )


def configured(config: Config) -> Config:
    """`config` checked against every rule (ConfigError for a code or rule table that names
    none) and its schema read and checked (ConfigError for one that cannot be used): the
    form every run uses."""
    config = config.with_rules(registry.all_rules())
    if config.enabled("ET101") and config.schema is not None:
        _check_schema_size(config.schema)
        schema_validator(config.schema)
        _check_schema_patterns(config.schema)
    else:
        # The bundled schema is entrykit's own, checked by its tests: a run that finds
        # every file in the cache never checks it against the meta-schema.
        load_schema(config.schema)
    return config


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of entrykit's own files: stricter than its version number, so an edited
    checkout (or an editable install) never reads results of other code from the cache."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.blake2b(digest_size=12)
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".json", ".txt", ".toml") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _project_folders(config: Config) -> list[Path]:
    """What a checkout controls: the corpus root and, with a configuration file, the project
    around it (up to the top of its git work tree)."""
    places = [config.root]
    if config.source is not None:
        places.append(work_tree_top(config.base) or config.base)
    return [Path(os.path.realpath(p)) for p in places]


def _inside(path: Path, folders: Sequence[Path]) -> Path | None:
    real = Path(os.path.realpath(path))
    for folder in folders:
        if real == folder or folder in real.parents:
            return folder
    return None


def cache_store(config: Config, cache_dir: Path | None = None) -> tuple[Store | None, str | None]:
    """The cache of the corpus root in this environment, and why there is none when there
    is none. The cache folder must lie outside the project, where no pull request can
    put files: ConfigError for a folder chosen inside it (`cache_dir`, `ENTRYKIT_CACHE_DIR`);
    the default folder inside it, or one that cannot be used, means no cache."""
    if not config.root.is_dir():
        return None, None
    where, chosen = location(cache_dir)
    project = _inside(where, _project_folders(config))
    if project is not None:
        why = f"cache folder `{where}` is inside the project (`{project}`), where a pull request could put files"
        if chosen:
            raise ConfigError(f"{why}; choose a folder outside it")
        return None, f"not using the {why}; pass --cache-dir with a folder outside it"
    env = environment_key([code_digest(), config.fingerprint(), schema_fingerprint(config.schema)])
    try:
        return open_cache(where, config.root, env, code_digest()), None
    except Unusable as exc:
        return None, f"running without the cache: cache folder `{where}` cannot be used: {exc}"


def open_store(config: Config, cache_dir: Path | None = None) -> Store | None:
    """The cache of the corpus root in this environment, or None (see `cache_store`)."""
    return cache_store(config, cache_dir)[0]


def _key(path: Path, root: Path) -> str | None:
    """The file's path below the corpus root (what the cache knows it by), if it is below."""
    if os.sep == "/" and path.is_absolute() and root.is_absolute():
        # the common case without pathlib's parsing: both are normalised absolute paths
        text, prefix = str(path), str(root).rstrip("/") + "/"
        return text[len(prefix) :] if text.startswith(prefix) and len(text) > len(prefix) else None
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


@dataclass
class Loaded:
    """The entries of a plan, parsed: the whole corpus, the targets among them, and failures."""

    entries: list[Entry]
    targets: list[Entry]
    failures: list[LoadFailure]
    files: Plan


def load_plan(
    paths: Sequence[Path] | None,
    config: Config,
    cwd: Path | None = None,
    texts: Mapping[Path, str] | None = None,
    progress: Progress | None = None,
    summaries: bool = False,
) -> Loaded:
    """Plan which files to read (see `plan`) and parse them; failures only for targets.

    `texts` maps absolute paths to content that stands in for those files; `progress`
    is told how many files have been read; `summaries` keeps of each entry only what
    corpus rules read (`corpus_summary.summarize`), without its text: all that
    near-duplicate detection needs, in a fraction of the memory of whole entries.
    """
    report = progress or _no_progress
    cwd = cwd or Path.cwd()
    texts = texts or {}
    files = plan(paths, config)
    target_set = set(files.targets)
    entries: list[Entry] = []
    targets: list[Entry] = []
    failures: list[LoadFailure] = []
    for number, path in enumerate(files.corpus, start=1):
        loaded = load(path, display_path(path, cwd), config.limits, texts.get(path), config.root)
        report("reading entries", number, len(files.corpus))
        if isinstance(loaded, LoadFailure):
            if path in target_set:
                failures.append(loaded)
            continue
        if summaries:
            loaded = summary_entry(loaded.path, loaded.abspath, loaded.fmt, summarize(loaded.data), {})
        entries.append(loaded)
        if path in target_set:
            targets.append(loaded)
    return Loaded(entries, targets, failures, files)


class _Pending(NamedTuple):
    """A file the run must check: its task, and what the cache held of it (completed by the check)."""

    task: Task
    old: FileRecord | None


class _Run:
    """One lint run's per-file phase: records from the cache where current, else checked."""

    def __init__(
        self,
        files: Plan,
        config: Config,
        today: date,
        cwd: Path,
        texts: Mapping[Path, str],
        store: Store | None,
        jobs: int,
        keep_entries: bool,
        progress: Progress = _no_progress,
        settle: Callable[[], None] | None = None,
    ) -> None:
        self.files, self.config, self.cwd, self.texts = files, config, cwd, texts
        self.store, self.jobs, self.progress, self.settle = store, jobs, progress, settle
        self.checked = 0  # files the run checks (none: every record from the cache)
        self.memo: registry.Known = store.memo() if store is not None else {}
        self.checker = Checker(config, today, self.memo, files.size, keep_entries)
        self.dated_active = self.checker.dated_active  # (asked of every file)
        self.day = today.isoformat()
        self._stand_ins = {str(path) for path in texts}
        self._keys: dict[str, str | None] = {}
        self._folders: dict[str, str] = {}  # how diagnostics name a folder outside the working directory
        # one copy of each text of the summaries kept (`shared`), for the length of a phase
        self._pool: dict[Any, Any] = {}
        # one copy of each finding of the records kept, likewise (checked, or read from the cache)
        self._found: dict[Any, Any] = {}
        # Below an absolute root (or working directory), a discovered path, absolute and
        # normalised, gives its key (or the name diagnostics show) by string slicing: a
        # pre-commit run over a large corpus does this for every file.
        root = config.root
        self._prefix = str(root).rstrip("/") + "/" if os.sep == "/" and root.is_absolute() else None
        self._here = str(cwd).rstrip("/") + "/" if os.sep == "/" and cwd.is_absolute() else None
        # Whether a file changed too recently to trust its stat is judged against the time
        # the run started: a file changed since then counts as changed just now too, and a
        # run over a large corpus asks it of every file.
        self._started = time.time_ns()

    @cached_property
    def wanted(self) -> set[str]:
        """The files reported on, as a set of their names: made when a run first asks
        whether a file is one (a run that finds every file in the cache never does)."""
        return set(self.files.names)

    def _stand_in(self, name: str) -> str | None:
        """Content that stands in for the file `name` (never from the cache), if any."""
        return self.texts.get(Path(name)) if name in self._stand_ins else None

    def _key(self, name: str) -> str | None:
        """The key in the cache of the file at the absolute path `name` (None without a
        cache, or outside the corpus root)."""
        if self.store is None:
            return None
        prefix = self._prefix  # (by slicing, every time: cheaper than a table keyed by names)
        if prefix is not None and name.startswith(prefix) and len(name) > len(prefix):
            return name[len(prefix) :]
        known = self._keys.get(name)
        if known is None and name not in self._keys:
            known = self._keys[name] = _key(Path(name), self.config.root)
        return known

    def _shown(self, name: str) -> str:
        """How diagnostics name the file at the absolute path `name`."""
        if self._here is None:
            return display_path(Path(name), self.cwd)
        if name.startswith(self._here):
            return name[len(self._here) :]
        # Not below the working directory: its folder's name (worked out once per folder) and
        # its own, as `display_path` would give them (`..` up, or absolute from `/`).
        folder, _, base = name.rpartition("/")
        if not folder or "/.." in name:  # (`..` in a path named as given: display_path resolves it)
            return display_path(Path(name), self.cwd)
        shown = self._folders.get(folder)
        if shown is None:
            shown = self._folders[folder] = display_path(Path(folder), self.cwd)
        return f"{shown}/{base}" if not shown.endswith("/") else display_path(Path(name), self.cwd)

    def _rerun(self, old: FileRecord | None, want: bool) -> Rerun:
        """The entry rules a file needs run again, given what the cache holds of it (`old`)."""
        if not want:
            return Rerun.NONE
        if old is None or (old.failure is None and old.results is None):
            return Rerun.ALL
        if old.failure is None and self.dated_active and (old.dated is None or old.dated.day != self.day):
            return Rerun.DATED
        return Rerun.NONE

    def _current(self, old: FileRecord, name: str, want: bool) -> bool:
        """Whether the cached record `old` serves as it is: nothing to run again, and the
        file's stat unchanged (only its stat tells that a file the run does not report on
        is unchanged: an edit in place leaves its directory's mtime alone)."""
        return (
            self._rerun(old, want) is Rerun.NONE and old.stat is not None and old.stat == file_stat(name, self._started)
        )

    def _plan(self, name: str, want: bool) -> FileRecord | _Pending:
        """The file's record from the cache when it is current, else the check it needs;
        `name` is its absolute path in text, `want` tells whether the run reports on it.

        A file the run does not report on is looked up in the cache's `files` table
        first (all such a file needs); its stored results only when that will not do."""
        text = self._stand_in(name) if self._stand_ins else None
        key = self._key(name)
        shown = self._shown(name)
        old: FileRecord | None = None
        if key is not None and text is None and self.store is not None:
            row = self.store.file_row(key) if not want else None
            light = FileRecord.from_row(key, shown, name, row) if row is not None else None
            if light is not None and self._current(light, name, want):
                return light
            data = self.store.result(key)
            # (None for a record this entrykit did not write, naming a rule it has not: checked again)
            old = FileRecord.from_data(key, shown, name, data, want, self._found) if data is not None else None
            if old is not None and self._current(old, name, want):
                return old
        path = Path(name)
        task = Task(
            path, shown, key or path.as_posix(), file_format(path), want,
            rerun=self._rerun(old, want), facts=old is None, cached_digest=old.digest if old else None, text=text,
            foreign=not _key(path, self.config.root),
        )
        return _Pending(task, old)

    def _plan_others(self, names: list[str]) -> list[FileRecord | _Pending]:
        """`_plan` of the files the run does not report on, named by their absolute paths in
        text: each served by its row in the cache's `files` table when its stat is the one
        stored, with no more work than that (a pre-commit run in a large corpus does this
        for every file: one loop, what it asks of the run looked up once)."""
        prefix, store = self._prefix, self.store
        if not names:  # (a run over the whole corpus: the `files` table is not read at all)
            return []
        if store is None or prefix is None:
            return [self._plan(name, name in self.wanted) for name in names]
        rows, cut, started, stand_ins = store.files(), len(prefix), self._started, self._stand_ins
        from_row, shown_of = FileRecord.from_row, self._shown
        out: list[FileRecord | _Pending] = []
        for name in names:
            if name.startswith(prefix) and name not in stand_ins:
                key = name[cut:]
                row = rows.get(key)
                # The stat as stored first (a row is a tuple, its stat one of ints): the record
                # is made only of a file that has not changed, which most have not.
                if type(row) is tuple and len(row) == 5 and row[1] is not None and row[1] == (now := file_stat(name, started)):
                    record = from_row(key, shown_of(name), name, row, now)
                    if record is not None:
                        out.append(record)
                        continue
            out.append(self._plan(name, name in self.wanted))
        return out

    def records(self) -> list[FileRecord]:
        """One record per corpus file, in order (the targets first); summaries only where
        a file was checked."""
        records: list[FileRecord | None] = []
        pending: list[tuple[int, FileRecord | None]] = []
        tasks: list[Task] = []
        targets = (self._plan(name, True) for name in self.files.names)
        with _reading(self.settle):
            planned_all = [*targets, *self._plan_others(self.files.others)]
        self.checked = sum(not isinstance(planned, FileRecord) for planned in planned_all)
        for planned in planned_all:
            if isinstance(planned, FileRecord):
                records.append(planned)
                continue
            pending.append((len(records), planned.old))
            tasks.append(planned.task)
            records.append(None)
        plain: dict[str, tuple[Any, Any]] = {}  # summaries and facts as `_run` rebuilt them (`_share`)
        for checked, ((place, old), fresh) in enumerate(zip(pending, self._run(tasks, plain), strict=True), start=1):
            record = fresh.merged_with(old) if old is not None and fresh.digest == old.digest else fresh
            records[place] = self._keep(record, plain)
            self.progress("checking files", checked, len(tasks))
        done = [r for r in records if r is not None]
        self._forget_gone(done)
        self._pool, self._found = {}, {}  # their texts live on in the records; their tables need not
        return done

    def _forget_gone(self, done: list[FileRecord]) -> None:
        """After a run over the whole corpus, drop what the cache holds of files that are gone."""
        store = self.store
        if store is None or not done or self.files.others:
            return
        if all(self._key(name) is not None for name in self.files.names):
            store.forget(store.known().difference(map(_key_of, done)))

    def _run(self, tasks: Sequence[Task], plain: dict[str, tuple[Any, Any]] | None = None) -> Iterator[FileRecord]:
        """The checked records of `tasks`, in order. With `plain`: each file's summary and facts
        as `_share` rebuilt them, by key, for `_keep`."""
        if not tasks:
            return  # no run at all: `run_tasks` would reset the checker's facts for zero files
        checked = run_tasks(tasks, self.checker, self.jobs, self.memo, self.files.size)
        for task, fresh in zip(tasks, checked, strict=True):
            if self.store is not None:
                self.store.remember(fresh.memo)
            fresh.memo = {}  # in the store's memo now (or, without a store, of no further use)
            # the run's own names of the file, not a worker's copies of them
            fresh.abspath, fresh.key, fresh.shown = task.abspath, task.key, task.shown
            self._share(fresh)
            if plain is not None and fresh.summary is not None:
                plain[fresh.key] = (fresh.summary, fresh.facts)
            yield fresh

    def _share(self, record: FileRecord) -> None:
        """Let the record's summary, facts and findings share equal texts with the other records'."""
        pool = self._pool
        if record.summary is not None:
            record.summary = shared(record.summary, pool)
            record.facts = shared(record.facts, pool)
        if record.results:
            record.results = shared_findings(record.results, self._found)
        if record.dated is not None:
            day = pool.setdefault(record.dated.day, record.dated.day)
            record.dated = Dated(day, shared_findings(record.dated.findings, self._found))

    def _keep(self, record: FileRecord, plain: dict[str, tuple[Any, Any]] | None = None) -> FileRecord:
        """The record, kept in the store; its summary and facts vouched plain (`Store.put`)
        when they are still those `_run` rebuilt (`plain`): `shared` makes every list and dict
        anew, and shares only texts and tuples of texts."""
        if self.store is not None and record.text is None and self._key(str(record.where)) is not None:
            rebuilt = plain.pop(record.key, None) if plain else None
            vouched = rebuilt is not None and rebuilt[0] is record.summary and rebuilt[1] is record.facts
            self.store.put(record.key, record.result_data(), record.index_data(), vouched)
        return record

    def summaries(self, records: list[FileRecord]) -> None:
        """Give every record its summary and facts: from the cache, else by checking the file."""
        missing: list[int] = []
        for number, record in enumerate(records):
            if record.failure is not None or record.summary is not None:
                continue
            if self.store is not None and record.add_index(self.store.index(record.key)):
                self._share(record)
                continue
            missing.append(number)
        tasks = [
            Task(
                old.abspath, old.shown, old.key, old.fmt, str(old.where) in self.wanted,
                cached_digest=old.digest, text=self._stand_in(str(old.where)),
            )
            for old in (records[n] for n in missing)
        ]
        for checked, (number, fresh) in enumerate(zip(missing, self._run(tasks), strict=True), start=1):
            old = records[number]
            records[number] = self._keep(fresh.merged_with(old) if fresh.digest == old.digest else fresh)
            self.progress("reading corpus", checked, len(tasks))
        self._pool, self._found = {}, {}


def _corpus_key(records: Sequence[FileRecord], cwd: Path) -> str:
    """What the corpus findings of a run depend on besides the environment: each file's
    name and summary (corpus rules see nothing else of it; an edit elsewhere in a file
    moves at most the places of its findings), in no particular order."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(os.fsencode(cwd))
    # (one text for all, hashed at once: the same digest as a part per file)
    digest.update(
        "".join(
            f"\0{r.key}\0{r.shown}\0{'' if r.failure is not None else r.sdigest or f'content:{r.digest}'}"
            for r in sorted(records, key=_key_of)
        ).encode("utf-8", "surrogatepass")
    )
    return digest.hexdigest()


_key_of = attrgetter("key")


class _Unplaceable(Exception):
    """A snapshot's finding whose place only its rule knows, in a file that changed."""


class _Relocate:
    """Places of pointers in files whose content changed since a snapshot, looked up again."""

    def __init__(self, by_key: Mapping[str, FileRecord], moved: set[str]) -> None:
        self.by_key, self.moved = by_key, moved
        self._files: dict[str, Entry] = {}

    def _locate(self, key: str, pointer: str, at_key: bool) -> tuple[int, int]:
        if key not in self._files:
            r = self.by_key[key]
            self._files[key] = summary_entry(r.shown, r.abspath, r.fmt, {}, {}, r.text or "")
        return self._files[key].locate(pointer, at_key=at_key)

    def finding(self, key: str, item: StoredFinding, at_key: bool | None) -> StoredFinding:
        """`item`, a finding on the file `key`, at its places in the files as they are now."""
        if key in self.moved:
            if at_key is None:  # a place the rule gave itself: only the rule knows it
                raise _Unplaceable(item.code)
            line, col = self._locate(key, item.pointer, bool(at_key))
            item = item._replace(line=line, col=col)
        return item._replace(related=tuple(self._related(r) for r in item.related))

    def _related(self, place: RelatedPlace) -> RelatedPlace:
        if place.key is None or place.key not in self.moved:
            return place
        line, col = self._locate(place.key, place.pointer, False)
        return place._replace(line=line, col=col)


def _reuse_corpus(
    store: Store, snapshot_key: str, records: Sequence[FileRecord], targets: Sequence[FileRecord]
) -> tuple[CorpusFound, dict[str, list[Any]], bool] | None:
    """The findings on `targets` of the last full run's corpus phase when its key is
    `snapshot_key` (its summaries are the current ones), with places looked up again in
    files whose content changed since; how each place was found (`_corpus_findings`); and
    whether any place was looked up again. Only the targets' findings are read, and the
    digests of the files they are on or point at. None if the last full run cannot serve."""
    head = store.corpus()
    if head.get("key") != snapshot_key:
        return None
    found: CorpusFound = {}
    places: dict[str, list[Any]] = {}
    pool: dict[Any, StoredFinding] = {}  # each equal finding read once (`read_findings`)
    try:
        for record in targets:
            part = store.corpus_part(record.key)
            if part is None:
                return None
            items, at = read_findings(part[0], pool), list(part[1])
            if len(items) != len(at):  # (a finding naming no rule of ours is refused as it is read)
                return None
            if items:  # read once: `Diagnostics` takes them as they are (`_stored`)
                found[record.key], places[record.key] = items, at  # type: ignore[assignment]
        moved = _moved(store, records, found if len(targets) < len(records) else None)
        if moved is None:
            return None
        if not moved:
            return found, places, False
        relocate = _Relocate({r.key: r for r in records}, moved)
        for key, kept in found.items():
            found[key] = plain_findings([
                relocate.finding(key, _stored(item), at_key) for item, at_key in zip(kept, places[key], strict=True)
            ])
    except (_Unplaceable, KeyError, TypeError, ValueError, AttributeError, OSError):
        return None
    return found, places, True


def _moved(store: Store, records: Sequence[FileRecord], found: CorpusFound | None) -> set[str] | None:
    """Of the files the findings `found` are on or point at (every file, without `found`),
    those whose content is not what it was in the last full run (their places are to be
    looked up again); None if that run's digest of one of them cannot be read. A
    pre-commit run in a large corpus reads a shard or two of digests, not every file's;
    a full run, which reads every shard anyway, does not walk every finding's places."""
    named: set[str] | None = None
    if found is not None:
        named = set(found)
        for items in found.values():
            for item in items:
                named.update(place.key for place in _stored(item).related if place.key is not None)
    moved = set()
    for record in records:
        key = record.key
        if (named is not None and key not in named) or record.failure is not None:
            continue  # (no place in it is looked up)
        then = store.corpus_digest(key)
        if then is None:
            return None
        if then != record.digest:
            moved.add(key)
    return moved


def _corpus_order(record: FileRecord) -> list[str]:
    """A record's place in corpus order: its absolute path's parts (paths sort by parts)."""
    return str(record.where).split(os.sep)


def _corpus_of(records: Sequence[FileRecord], targets: set[str], root: Path) -> Corpus:
    """The corpus index over the summaries of the records that loaded, in corpus order (by
    path, as discovery of the root sorts files, whatever the run named first or the folder
    it runs from); focused on `targets` when they are not all of them."""
    loaded = sorted((r for r in records if r.failure is None and r.summary is not None), key=_corpus_order)
    entries = [summary_entry(r.shown, r.abspath, r.fmt, r.summary or {}, r.facts, r.text or "") for r in loaded]
    focus = frozenset(n for n, e in enumerate(entries) if e.path in targets)
    return Corpus(entries, root if root.is_dir() else None, None if len(focus) == len(entries) else focus)


# A finding's fields in order, read in one call (made in C): see `_pooled`.
_FINDING_FIELDS = tuple(f.name for f in fields(Finding))
_finding_values = attrgetter(*_FINDING_FIELDS)
_MESSAGE, _RELATED = _FINDING_FIELDS.index("message"), _FINDING_FIELDS.index("related")


def _pooled(finding: Finding, message: str, related: tuple[Related, ...]) -> Finding:
    """`replace(finding, message=message, related=related)` at half its cost: of a large
    corpus of one template, nearly every corpus finding is rebuilt this way."""
    values = list(_finding_values(finding))
    values[_MESSAGE], values[_RELATED] = message, related
    return Finding(*values)


def _run_corpus_rule(
    rule: registry.Rule, corpus: Corpus, ctx: registry.Context, pool: dict[Any, Any] | None = None
) -> list[Finding]:
    """The rule's findings; with `pool`, each message and tuple of related places is the
    pool's one copy of an equal one (a corpus rule says one thing of many entries: of a
    large corpus of one template, nearly the same of every entry)."""
    assert rule.func is not None
    pool = {} if pool is None else pool
    found: list[Finding] = []
    try:
        for finding in rule.func(corpus, ctx):
            message = pool.setdefault(finding.message, finding.message)
            related = pool.setdefault(finding.related, finding.related)
            if message is not finding.message or related is not finding.related:
                finding = _pooled(finding, message, related)
            found.append(finding)
    except EntrykitError:  # the configuration, not the rule
        raise
    except Exception as exc:  # a bug in a rule, not in the data: name both
        raise RuleCrashed(rule.code, "the corpus", exc) from exc
    if any(finding.path is None for finding in found):
        raise RuleCrashed(rule.code, "the corpus", ValueError("finding without a path"))
    return found


def _want_related(
    related: tuple[Related, ...],
    by_path: Mapping[str, Entry],
    wanted: dict[str, set[tuple[str, bool]]],
    spots: dict[Any, Any],
) -> None:
    """Add the places of `related` in the corpus to those wanted of each file."""
    for other in related:
        if other.path in by_path:
            spot = (other.pointer, False)
            wanted.setdefault(other.path, set()).add(spots.setdefault(spot, spot))


class _SeverityOf(dict[Severity | None, str]):
    """The severity (its value) of a finding of one rule, by the severity the finding gave itself."""

    def __init__(self, config: Config, rule: registry.Rule) -> None:
        super().__init__()
        self._config, self._rule = config, rule

    def __missing__(self, found: Severity | None) -> str:
        value = self[found] = self._config.severity(self._rule, found).value
        return value


class _Resolved:
    """Related places as a stored finding holds them (`RelatedPlace`s, plain), each tuple of
    them resolved once: the pool gives the findings of a rule few tuples, each of many."""

    def __init__(
        self,
        by_path: Mapping[str, Entry],
        key_of: Mapping[str, str],
        where: Mapping[str, Mapping[tuple[str, bool], tuple[int, int]]],
    ) -> None:
        self._by_path, self._key_of, self._where = by_path, key_of, where
        # by identity, each with its tuple (kept, so that its id is not reused)
        self._done: dict[int, tuple[tuple[Related, ...], tuple[tuple[Any, ...], ...]]] = {}

    def of(self, related: tuple[Related, ...]) -> tuple[tuple[Any, ...], ...]:
        """The resolved places of `related` in the corpus, as plain tuples."""
        known = self._done.get(id(related))
        if known is not None and known[0] is related:
            return known[1]
        by_path, key_of, where = self._by_path, self._key_of, self._where
        places = tuple(
            (key_of[other.path], *where[other.path][(other.pointer, False)], other.pointer)
            for other in related
            if other.path in by_path
        )
        self._done[id(related)] = (related, places)
        return places


def _corpus_findings(
    records: Sequence[FileRecord],
    targets: set[str],
    config: Config,
    today: date,
    memo: registry.Known,
    places: dict[str, list[bool | None]] | None = None,
    progress: Progress = _no_progress,
    jobs: int = 1,
) -> CorpusFound:
    """Corpus-rule findings on the target files (by record key), places resolved, in the
    form the cache keeps them (`StoredFinding.plain`): a run over a large corpus holds them
    all, and writes them to the cache as they are.

    `places` gets, for each finding, how its place was found: `at_key`, or None when the
    rule gave the position itself. `jobs` processes may share the work (`lanes`)."""
    rules = [
        r for r in registry.all_rules() if r.func is not None and r.scope == "corpus" and config.enabled(r.code)
    ]
    out: CorpusFound = {}
    if not rules:
        return out
    progress("corpus rules", 0, len(rules))
    corpus = _corpus_of(records, targets, config.root)
    shared = registry.Memo(memo)
    lane = _CorpusLane(corpus, targets, {r.shown: r.key for r in records}, config, today, shared)
    ran = lanes.corpus_lanes(rules, lane.run, shared, corpus, config.settings.get("regex", {}), jobs)
    for number, stored in enumerate(ran, 1):
        for key, item, how in stored:
            out.setdefault(key, []).append(item)
            if places is not None:
                places.setdefault(key, []).append(how)
        progress("corpus rules", number, len(rules))
    shared.take_added()  # into `memo` (and so into the cache's memo, when there is a cache)
    return out


# A corpus finding as a lane gives it: its file's key, the finding as the cache keeps it,
# and how its place was found (`at_key`, or None when the rule gave the position itself).
_Stored = tuple[str, tuple[Any, ...], bool | None]


class _CorpusLane:
    """Corpus rules run over a corpus, their findings on the targets made what the cache
    keeps (places resolved): the work of one lane of `lanes.corpus_lanes`, in any process."""

    def __init__(
        self,
        corpus: Corpus,
        targets: set[str],
        key_of: Mapping[str, str],
        config: Config,
        today: date,
        memo: registry.Memo,
    ) -> None:
        self.corpus, self.targets, self.key_of = corpus, targets, key_of
        self.config, self.today, self.memo = config, today, memo

    def run(self, rules: Sequence[registry.Rule]) -> list[list[_Stored]]:
        """Each rule's findings on the targets, in the rules' order."""
        # One copy of each (pointer, at_key), place, message and stored finding: most files
        # share them, and a large corpus holds a few for every file until they are reported.
        spots: dict[Any, Any] = {}
        wanted: dict[str, set[tuple[str, bool]]] = {}  # path -> (pointer, at_key) whose places are needed
        # The pool's related places whose places are wanted already, by identity (each kept
        # here, so that its id is not reused): a corpus rule names the same few in many findings.
        asked: dict[int, tuple[Related, ...]] = {}
        found = [self._kept(rule, spots, wanted, asked) for rule in rules]
        # Each file's places at once: a summary's text is read and parsed once for all of them.
        where: dict[str, dict[tuple[str, bool], tuple[int, int]]] = {}
        for path in list(wanted):
            places_of = self.corpus.by_path[path].places(wanted.pop(path))
            where[path] = {spots.setdefault(k, k): spots.setdefault(v, v) for k, v in places_of.items()}
        resolved = _Resolved(self.corpus.by_path, self.key_of, where)
        return [self._stored(rule, kept, where, resolved, spots) for rule, kept in zip(rules, found, strict=True)]

    def _kept(
        self,
        rule: registry.Rule,
        spots: dict[Any, Any],
        wanted: dict[str, set[tuple[str, bool]]],
        asked: dict[int, tuple[Related, ...]],
    ) -> list[Finding]:
        """The rule's findings on the targets; the places they need added to `wanted`."""
        config, by_path, targets = self.config, self.corpus.by_path, self.targets
        ctx = registry.Context(
            today=self.today, options=config.options_for(rule), settings=config.settings, schema=config.schema,
            memo=self.memo,
        )
        kept: list[Finding] = []
        for finding in _run_corpus_rule(rule, self.corpus, ctx, spots):
            path = finding.path
            if path is None or path not in targets:
                continue
            kept.append(finding)
            if not finding.position:
                spot = (finding.pointer, finding.at_key)
                wanted.setdefault(path, set()).add(spots.setdefault(spot, spot))
            related = finding.related
            if related and asked.get(id(related)) is not related:
                asked[id(related)] = related
                _want_related(related, by_path, wanted, spots)
        return kept

    def _stored(
        self,
        rule: registry.Rule,
        kept: list[Finding],
        where: Mapping[str, Mapping[tuple[str, bool], tuple[int, int]]],
        resolved: _Resolved,
        spots: dict[Any, Any],
    ) -> list[_Stored]:
        """The rule's findings as the cache keeps them, each with its file's key."""
        code, severity_of, key_of = rule.code, _SeverityOf(self.config, rule), self.key_of
        out: list[_Stored] = []
        kept.reverse()  # taken from the end, in order: each finding let go once it is stored
        while kept:
            finding = kept.pop()
            path = finding.path or ""
            place = finding.position or where[path][(finding.pointer, finding.at_key)]
            item = StoredFinding.plain_of(
                code, finding, place, resolved.of(finding.related), severity_of[finding.severity]
            )
            how = None if finding.position else finding.at_key
            out.append((key_of[path], spots.setdefault(item, item) if finding.fix is None else item, how))
        return out


_SEVERITY = {s.value: s for s in Severity}
_severity_of = attrgetter("severity")  # (made in C: a report counts every diagnostic)
# A finding's fields by position: a corpus finding is kept in its plain form (a tuple), an
# entry rule's is a `StoredFinding`, and `Diagnostics` reads both alike.
_finding_severity = itemgetter(3)
# `by_place` without the path, for the findings of one file: line, col, code, message
_by_place_in_file = itemgetter(1, 2, 0, 4)
_path_of = itemgetter(0)  # (of a diagnostic)


def _diagnostics(
    record: FileRecord,
    findings: Sequence[_Found],
    shown_of: Mapping[str, str],
    name_of: Mapping[str, str],
    located: dict[tuple[RelatedPlace, ...], tuple[Location, ...]],
) -> list[Diagnostic]:
    """The diagnostics of findings kept of `record`'s file (read by position: plain or
    `StoredFinding` alike). `located` holds the related places of findings made before,
    resolved: a corpus rule names the same few places in the findings of many files."""
    shown = record.shown
    out = []
    # (fields by position, made as a tuple is, the severity by lookup: a warm run over a
    # large corpus makes every one of them)
    for code, line, col, severity, message, pointer, related, fix in findings:
        places: tuple[Location, ...] = ()
        if related:
            known = located.get(related)
            if known is not None:
                places = known
            else:
                places = tuple(
                    Location(shown_of.get(key, shown) if key is not None else shown, at_line, at_col, at_pointer)
                    for key, at_line, at_col, at_pointer in related
                )
                if all(r[0] in shown_of for r in related):  # (the same places wherever it is reported)
                    if len(located) >= _LOCATED:
                        located.clear()
                    located[related] = places
        out.append(_new_diagnostic(Diagnostic, (
            shown, line, col, code, name_of[code], _SEVERITY[severity], message, pointer, places,
            Fix(*fix) if fix is not None else None,
        )))
    return out


_new_diagnostic = tuple.__new__  # (`Diagnostic(...)` without its Python-level `__new__`)
_LOCATED = 4096  # related places a run keeps resolved (`_diagnostics`): a bound, whatever the corpus


def _load_failure(record: FileRecord, failure: Failure, config: Config) -> list[Diagnostic]:
    """ET001 for a file that did not load, unless it is off there."""
    rule = registry.get("ET001")
    if not config.enabled(rule.code) or config.ignored_in_file(record.abspath, rule.code):
        return []
    return [
        Diagnostic(
            path=record.shown, line=failure.line, col=failure.col, code=rule.code, name=rule.name,
            severity=config.severity(rule), message=failure.message,
        )
    ]


def _unused_suppressions(
    record: FileRecord, directives: suppress.Suppressions, config: Config, known: Sequence[str]
) -> list[Diagnostic]:
    """ET002 for each directive of the file that suppressed nothing (and names a rule that is on)."""
    rule = registry.get("ET002")
    if not record.directives or not config.enabled(rule.code) or config.ignored_in_file(record.abspath, rule.code):
        return []
    out = []
    for directive in directives.unused():
        if not any(code.startswith(directive.code) for code in known):
            message = f"suppression names `{directive.code}`, which is no rule code"
        elif not any(config.enabled(code) for code in known if code.startswith(directive.code)):
            continue  # the rule is off: whether it would fire is unknown
        else:
            message = f"suppression of `{directive.code}` matches no diagnostic"
        out.append(
            Diagnostic(
                path=record.shown, line=directive.line, col=directive.col, code=rule.code, name=rule.name,
                severity=config.severity(rule), message=message,
            )
        )
    return out


# A finding as `Diagnostics` reads it, by position: an entry rule's (`StoredFinding`), or a
# corpus rule's as `_corpus_findings` made it (`StoredFinding.plain`: its related places plain
# tuples too), or as the cache gave it (`StoredFinding`).
_Found = StoredFinding | tuple[Any, ...]


def _stored(item: tuple[Any, ...]) -> StoredFinding:
    """A corpus finding as `StoredFinding`: read from its plain form unless it was already."""
    return item if type(item) is StoredFinding else StoredFinding.read(item)


# What a file reports, in the order it is found: findings kept, with their record; or a
# diagnostic made on the spot (ET001, ET002).
_Reported = tuple[FileRecord, list[_Found]] | Diagnostic


class Diagnostics(Sequence[Diagnostic]):
    """The diagnostics on a run's targets, sorted: ET001, entry and corpus findings,
    suppressions, ET002. Made a file at a time each time they are read, from the records
    and corpus findings the run keeps anyway: a run over a large corpus (hundreds of
    thousands of diagnostics) never holds them all as objects at once. Reads as a list
    does: its length, an index, equality with a list."""

    def __init__(
        self,
        records: Sequence[FileRecord],
        targets: Sequence[FileRecord],
        corpus_found: Mapping[str, list[tuple[Any, ...]]],
        config: Config,
    ) -> None:
        self._shown_of = {r.key: r.shown for r in records}
        self._name_of = {r.code: r.name for r in registry.all_rules()}
        self._known = list(self._name_of)
        # Every diagnostic names its file first (`sort_key`): the files in order of their
        # names, each sorted, are the whole list sorted.
        by_file: dict[str, list[FileRecord]] = {}
        for record in targets:
            by_file.setdefault(record.shown, []).append(record)
        self._files = [by_file[shown] for shown in sorted(by_file)]
        self._found, self._config = corpus_found, config
        self._made: list[Diagnostic] | None = None  # made once an index asks for one
        self._located: dict[tuple[RelatedPlace, ...], tuple[Location, ...]] = {}
        # A diagnostic made of each finding that reads the same in every file (`by_file`), by
        # the finding's identity (the finding kept with it: its id is not reused meanwhile)
        self._likes: dict[int, tuple[_Found, Diagnostic]] = {}
        self._tally: Tally | None = None

    @property
    def tally(self) -> Tally:
        """How many there are of each severity, and on how many files: counted (once) from
        what each file reports, without making a diagnostic of it."""
        if self._tally is None:
            severities: Counter[str] = Counter()
            files = 0
            for records in self._files:
                counted = 0
                for item in self._reported(records):
                    if isinstance(item, Diagnostic):
                        severities[item.severity] += 1
                        counted += 1
                    else:
                        severities.update(map(_finding_severity, item[1]))
                        counted += len(item[1])
                files += counted > 0
            self._tally = Tally(Counter({_SEVERITY[s]: n for s, n in severities.items()}), files)
        return self._tally

    def _reported(self, records: list[FileRecord]) -> list[_Reported]:
        """What the records of one shown name report, in the order found: the findings that
        a file's ignores and suppressions leave, and ET001 and ET002. The one place those
        decisions are made, for counting and for making diagnostics alike."""
        config, out = self._config, list[_Reported]()
        for record in records:
            if record.failure is not None:
                out += _load_failure(record, record.failure, config)
                continue
            findings = cast("list[_Found]", record.findings())  # (a list of its own)
            found = self._found.get(record.key)
            if found:
                # as they are, read by position: made by this run (or read from the cache) already
                findings += found
            if not record.directives and not config.per_file_ignores:  # nothing to leave out
                out.append((record, findings))
                continue
            directives = suppress.Suppressions([suppress.Directive(*d) for d in record.directives])
            # (a file's ignores first: a directive is used only by what would be reported)
            kept = [
                item for item in findings
                if not config.ignored_in_file(record.abspath, item[0])
                and not directives.suppresses(item[1], item[0])
            ]
            out.append((record, kept))
            out += _unused_suppressions(record, directives, config, self._known)
        return out

    def _of_file(self, records: list[FileRecord], reported: list[_Reported] | None = None) -> list[Diagnostic]:
        """The diagnostics on the records of one shown name, sorted (of what they report, when
        that is known already)."""
        shown_of, name_of, located = self._shown_of, self._name_of, self._located
        out: list[Diagnostic] = []
        for item in self._reported(records) if reported is None else reported:
            if isinstance(item, Diagnostic):
                out.append(item)
            else:
                out += _diagnostics(item[0], item[1], shown_of, name_of, located)
        out.sort(key=by_place)
        return out

    def __iter__(self) -> Iterator[Diagnostic]:
        if self._made is not None:
            yield from self._made
            return
        if self._tally is not None:
            for records in self._files:
                yield from self._of_file(records)
            return
        # Counted as they are made: after a report has read them all, the exit status and
        # the summary line need no second pass (`tally`).
        severities: Counter[Severity] = Counter()
        files = 0
        for records in self._files:
            made = self._of_file(records)
            severities.update(map(_severity_of, made))
            files += bool(made)
            yield from made
        self._tally = Tally(severities, files)

    def by_file(self) -> Iterator[tuple[str, list[tuple[int, int, Diagnostic]]]]:
        """Each file's diagnostics in order, as its path and (line, col, like) of each:
        `like` a diagnostic equal to it from its code on, one object for the diagnostics of
        one finding in every file that reports it (a rule says the same of many files): a
        report encodes it once. Counted as `__iter__` counts, without making a diagnostic of
        each finding."""
        if self._made is not None:
            for path, of_path in groupby(self._made, key=_path_of):
                yield path, [(d[1], d[2], d) for d in of_path]
            return
        severities: Counter[str] = Counter()
        files = 0
        likes, like = self._likes, self._like
        for records in self._files:
            reported = self._reported(records)
            if len(reported) != 1 or isinstance(reported[0], Diagnostic):  # (ET001, ET002: made on the spot)
                made = self._of_file(records, reported)
                severities.update([d.severity.value for d in made])
                if made:
                    files += 1
                    yield made[0].path, [(d[1], d[2], d) for d in made]
                continue
            record, findings = reported[0]
            if not findings:
                continue
            # One file's: in the order of `by_place`, its path aside (the same for all)
            findings.sort(key=_by_place_in_file)
            severities.update(map(_finding_severity, findings))
            files += 1
            placed = []
            for finding in findings:
                known = likes.get(id(finding))  # (the finding kept with it: an id is not reused meanwhile)
                placed.append((
                    finding[1], finding[2], known[1] if known is not None and known[0] is finding else like(record, finding)
                ))
            yield record.shown, placed
        if self._tally is None:
            self._tally = Tally(Counter({_SEVERITY[s]: n for s, n in severities.items()}), files)

    def _like(self, record: FileRecord, finding: _Found) -> Diagnostic:
        """The diagnostic of `finding` in `record`'s file, not made before (`by_file` looks it
        up); remembered for every file when it reads the same in all: no fix, and no related
        place in the reporting file itself."""
        shown_of = self._shown_of
        (made,) = _diagnostics(record, [finding], shown_of, self._name_of, self._located)
        if finding[7] is None and all(place[0] in shown_of for place in finding[6]):
            if len(self._likes) >= _LOCATED:
                self._likes.clear()
            self._likes[id(finding)] = (finding, made)
        return made

    def __len__(self) -> int:
        return sum(self.tally.severities.values())

    @overload
    def __getitem__(self, index: int) -> Diagnostic: ...
    @overload
    def __getitem__(self, index: slice) -> list[Diagnostic]: ...
    def __getitem__(self, index: int | slice) -> Diagnostic | list[Diagnostic]:
        if self._made is None:
            self._made = list(self)
        return self._made[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    # equal to a list, which has no hash
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Diagnostics({list(self)!r})"


def _report(run: _Run, records: list[FileRecord], targets: list[FileRecord], today: date) -> Diagnostics:
    """Corpus phase (from the cache's last full run when the corpus is unchanged) and collection."""
    config, store = run.config, run.store
    corpus_found: CorpusFound | None = None
    snapshot_key = _corpus_key(records, run.cwd) if store is not None else ""
    full = len(targets) == len(records)
    if store is not None:
        # (settled only when nothing but reading happened since the records were read:
        # files checked in this process may have left cyclic garbage to collect)
        with _reading(run.settle if not run.checked else None):
            reused = _reuse_corpus(store, snapshot_key, records, targets)
        if reused is not None:
            corpus_found, places, moved = reused
            if moved and full:  # keep the places of this run, so the next one need not look again
                store.set_corpus(snapshot_key, _digests(records), corpus_found, places)
            store.save()  # the per-file results: written (and let go) before the diagnostics are made
    if corpus_found is None:
        corpus_found = _corpus_phase(run, records, targets, today, snapshot_key if full else None)
    return Diagnostics(records, targets, corpus_found, config)


def _corpus_phase(
    run: _Run, records: list[FileRecord], targets: list[FileRecord], today: date, snapshot_key: str | None
) -> CorpusFound:
    """Run the corpus rules (summaries first) and keep what the cache should: the per-file
    records (`_save_aside`), facts a corpus rule computed late (e.g. band keys) and, after a
    full run, the snapshot."""
    store = run.store
    run.summaries(records)
    written = _save_aside(store, run.jobs) if store is not None else _written_already
    facts_before = {r.key: len(r.facts) for r in records}
    places: dict[str, list[bool | None]] = {}
    shown = {r.shown for r in targets}
    try:
        # (the corpus rules make no reference cycles: each collection found nothing, and
        # walked the phase's indexes and results, a tenth of the phase at 25,000 entries)
        with collector.paused():
            found = _corpus_findings(records, shown, run.config, today, run.memo, places, run.progress, run.jobs)
    finally:
        written()  # (waited for, interrupted or not: what the files' checks found is kept)
    if store is None:
        return found
    for record in records:
        if len(record.facts) != facts_before[record.key] and record.text is None:
            store.put(record.key, None, record.index_data())
    if snapshot_key is not None:
        store.set_corpus(snapshot_key, _digests(records), found, places)
    store.save()  # now, so that the run does not hold what it wrote while it makes the diagnostics
    return found


def _save_aside(store: Store, jobs: int) -> Callable[[], None]:
    """Write what the run put in the cache (the per-file records), in a child forked for it
    when the run has processes to spare and records enough to pay for one (`lanes`): the
    corpus rules run meanwhile, on what this process keeps of the records. Else it is
    written here and now; either way before the corpus rules hold their own data too.
    Returns what waits for the child to end, and takes back what it said."""
    if jobs < 2 or store.records_to_write() < lanes.LANE_MIN_ENTRIES or not lanes.can_fork():
        store.save()
        return _written_already
    writing = lanes.Aside(_save_in_child, store)
    store.handed_over()

    def written() -> None:
        said = writing.result()
        store.taken_back(said[0] if said is not None else None, ended=said is not None)

    return written


def _written_already() -> None:
    pass


def _save_in_child(store: Store) -> tuple[str | None]:
    """`store.save()` in the child `_save_aside` forks, and why it did not write all it had
    to (if so). A Ctrl-C that stops the run does not stop this writing: the run waits for it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    store.save()
    return (store.unsaved,)


def _digests(records: Sequence[FileRecord]) -> dict[str, str]:
    return {r.key: r.digest for r in records}


def check(
    entries: list[Entry],
    targets: list[Entry],
    config: Config,
    today: date,
    failures: Sequence[LoadFailure] = (),
) -> list[Diagnostic]:
    """Run every enabled rule over entries already in memory; diagnostics on `targets`, sorted."""
    config = configured(config)
    checker = Checker(config, today, {}, len(entries))
    wanted = {id(e) for e in targets}
    checks = [
        Checking(
            FileRecord(entry.path, entry.path, entry.abspath, entry.fmt, text=entry.text),
            entry,
            Rerun.ALL if id(entry) in wanted else Rerun.NONE,
            True,
        )
        for entry in entries
    ]
    checker.check_entries(checks)
    records = [check.record for check in checks]
    failed = [
        FileRecord(f.path, f.path, f.abspath, file_format(f.abspath), failure=Failure(f.line, f.col, f.message))
        for f in failures
    ]
    target_records = [r for r, e in zip(records, entries, strict=True) if id(e) in wanted] + failed
    corpus_found = _corpus_findings(records, {r.shown for r in target_records}, config, today, {})
    return list(Diagnostics(records, target_records, corpus_found, config))


def lint(
    paths: Sequence[Path] | None,
    config: Config,
    today: date | None = None,
    cwd: Path | None = None,
    texts: Mapping[Path, str] | None = None,
    *,
    use_cache: bool = False,
    cache_dir: Path | None = None,
    jobs: int = 1,
    keep_entries: bool = False,
    progress: Progress | None = None,
    with_summaries: bool = False,
    settle: Callable[[], None] | None = None,
) -> LintResult:
    """Lint the given paths (or the corpus root) and return sorted diagnostics.

    `use_cache` reads and writes the cache (`lint.cache`) in `cache_dir`, else in the
    folder `ENTRYKIT_CACHE_DIR` names, else in the user's cache directory; `jobs`
    processes check files when there are many; `keep_entries` keeps the parsed
    target entries in the result (for fixes), which checks every target in this process;
    `progress` is told how far the run has got; `with_summaries` gives every target
    its summary (from the cache where it can), so that `entries` know their ids;
    `settle` is called each time the run has read a large part of what the cache holds,
    when nothing but reading happened since the last time (`_reading`).
    """
    config = configured(config)
    today = today or date.today()
    cwd = cwd or Path.cwd()
    texts = texts or {}
    files = plan(paths, config)
    store, note = cache_store(config, cache_dir) if use_cache and not keep_entries else (None, None)
    run = _Run(files, config, today, cwd, texts, store, jobs, keep_entries, progress or _no_progress, settle)
    records = run.records()
    targets = records[: len(files.names)]  # (records are in the plan's order: the targets first)
    diagnostics = _report(run, records, targets, today)
    if with_summaries:
        run.summaries(targets)
    notes = [note] if note else []
    if store is not None:
        store.save()
        if store.unsaved is not None:  # (a full disk, a folder made read-only: the lint itself is whole)
            notes.append(
                f"the cache in `{store.top.path}` was not saved in full ({store.unsaved}): "
                "the next run may check again what this one checked"
            )
    shown = [r.shown for r in targets] if len(targets) == len(files.names) else [
        display_path(p, cwd) for p in files.targets
    ]
    log.debug("linted %d files (%d in corpus)", len(files.names), files.size)
    return LintResult(diagnostics, shown, notes, targets)
