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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

import entrykit.rules  # noqa: F401  (importing the rule families registers every rule)
from entrykit import registry
from entrykit.config import Config
from entrykit.corpus import Corpus
from entrykit.diagnostic import Diagnostic, Fix, Location, Severity
from entrykit.entry import Entry
from entrykit.errors import RuleCrashed, UsageError
from entrykit.lint import suppressions as suppress
from entrykit.lint.cache import Store, environment_key
from entrykit.lint.corpus_summary import summary_entry
from entrykit.lint.pipeline import (
    Checker,
    FileRecord,
    Stored,
    Task,
    file_stat,
    run_tasks,
    stored_findings,
)
from entrykit.loader import LoadFailure, discover, display_path, file_format, load
from entrykit.schema import fingerprint as schema_fingerprint
from entrykit.targets import Plan, plan

log = logging.getLogger(__name__)


@dataclass
class LintResult:
    """Diagnostics of one run, and what was looked at.

    `entries` (the targets that parsed) are made on first use: a run over a large
    corpus that only reports need not build them."""

    diagnostics: list[Diagnostic]
    files: list[str] = field(default_factory=list)
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


def configured(config: Config) -> Config:
    """`config` checked against every rule (ConfigError for a code or rule table that names
    none): the form every run uses."""
    return config.with_rules(registry.all_rules())


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


def open_store(config: Config) -> Store | None:
    """The cache of the corpus root in this environment, or None if there is no root."""
    if not config.root.is_dir():
        return None
    env = environment_key([code_digest(), config.fingerprint(), schema_fingerprint(config.schema)])
    return Store(config.root, env, code_digest())


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
) -> Loaded:
    """Plan which files to read (see `plan`) and parse them; failures only for targets.

    `texts` maps absolute paths to content that stands in for those files.
    """
    cwd = cwd or Path.cwd()
    texts = texts or {}
    files = plan(paths, config)
    target_set = set(files.targets)
    entries: list[Entry] = []
    targets: list[Entry] = []
    failures: list[LoadFailure] = []
    for path in files.corpus:
        loaded = load(path, display_path(path, cwd), config.limits, texts.get(path), config.root)
        if isinstance(loaded, LoadFailure):
            if path in target_set:
                failures.append(loaded)
            continue
        entries.append(loaded)
        if path in target_set:
            targets.append(loaded)
    return Loaded(entries, targets, failures, files)


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
    ) -> None:
        self.files, self.config, self.cwd, self.texts = files, config, cwd, texts
        self.store, self.jobs = store, jobs
        self.memo: registry.Known = store.memo() if store is not None else {}
        self.checker = Checker(config, today, self.memo, len(files.corpus), keep_entries)
        self.day = today.isoformat()
        self.targets = set(files.targets)
        self._keys: dict[Path, str | None] = {}
        root = config.root
        # below an absolute root, a discovered (absolute, normalised) path's key is a slice
        self._prefix = str(root).rstrip("/") + "/" if os.sep == "/" and root.is_absolute() else None

    def _key(self, path: Path) -> str | None:
        if self.store is None:
            return None
        known = self._keys.get(path)
        if known is None and path not in self._keys:
            text = str(path)
            if self._prefix is not None and text.startswith(self._prefix) and len(text) > len(self._prefix):
                known = text[len(self._prefix) :]
            else:
                known = _key(path, self.config.root)
            self._keys[path] = known
        return known

    def records(self) -> list[FileRecord]:
        """One record per corpus file, in order; summaries only where a file was checked."""
        store = self.store
        records: list[FileRecord | None] = []
        cached: dict[int, FileRecord] = {}
        tasks: list[Task] = []
        places: list[int] = []
        # every file is stat-ed: only its stat tells that a file the run does not report
        # on is unchanged (an edit in place leaves its directory's mtime alone)
        here = str(self.cwd).rstrip("/") + "/" if os.sep == "/" and self.cwd.is_absolute() else None
        for path in self.files.corpus:
            want = path in self.targets
            override = self.texts.get(path)
            if not want and override is None and store is not None and self._prefix is not None:
                # a file only the corpus rules see: its row in the files table will do
                # (the common case of a pre-commit run, kept to string slicing and one stat)
                text = str(path)
                if text.startswith(self._prefix) and len(text) > len(self._prefix):
                    key = text[len(self._prefix) :]
                    row = store.file_row(key)
                    if row is not None and row[1] is not None:
                        shown = text[len(here) :] if here is not None and text.startswith(here) else display_path(path, self.cwd)
                        light = FileRecord.from_row(key, shown, path, row)
                        if light is not None and light.stat is not None and light.stat == file_stat(path):
                            records.append(light)
                            continue
            shown = display_path(path, self.cwd)
            key = self._key(path)
            old: FileRecord | None = None
            if not want and key is not None and override is None and store is not None:
                row = store.file_row(key)
                light = FileRecord.from_row(key, shown, path, row) if row is not None else None
                if light is not None and light.stat is not None and light.stat == file_stat(path):
                    records.append(light)
                    continue
            if key is not None and override is None and store is not None:
                data = store.result(key)
                old = FileRecord.from_data(key, shown, path, data, want) if data is not None else None
            run = "all" if want else "none"
            if old is not None:
                run = "none"
                if want and old.failure is None:
                    if old.results is None:
                        run = "all"
                    elif self.checker.dated_active and (old.dated is None or old.dated[0] != self.day):
                        run = "dated"
                if run == "none" and old.stat is not None and old.stat == file_stat(path):
                    records.append(old)
                    continue
                cached[len(records)] = old
            places.append(len(records))
            records.append(None)
            tasks.append(
                Task(path, shown, key or path.as_posix(), file_format(path), want, run, old is None,
                     old.digest if old is not None else None, override)
            )
        for place, fresh in zip(places, self._run(tasks)):
            old = cached.get(place)
            if old is not None and fresh.digest == old.digest:
                fresh = _merge(old, fresh)
            self._keep(fresh)
            records[place] = fresh
        done = [r for r in records if r is not None]
        if store is not None and done and len(self.files.targets) == len(self.files.corpus):
            if all(self._key(p) is not None for p in self.files.corpus):
                store.forget(store.known() - {r.key for r in done})
        return done

    def _run(self, tasks: Sequence[Task]) -> Iterator[FileRecord]:
        for fresh in run_tasks(tasks, self.checker, self.jobs, self.memo, len(self.files.corpus)):
            if self.store is not None:
                self.store.remember(fresh.memo)
            fresh.memo = {}  # in the store's memo now (or, without a store, of no further use)
            yield fresh

    def _keep(self, record: FileRecord) -> None:
        if self.store is not None and record.text is None and self._key(record.abspath) is not None:
            self.store.put(record.key, record.result_data(), record.index_data())

    def summaries(self, records: list[FileRecord]) -> None:
        """Give every record its summary and facts: from the cache, else by checking the file."""
        missing: list[int] = []
        for number, record in enumerate(records):
            if record.failure is not None or record.summary is not None:
                continue
            if self.store is not None and record.add_index(self.store.index(record.key)):
                continue
            missing.append(number)
        tasks = [
            Task(records[n].abspath, records[n].shown, records[n].key, records[n].fmt,
                 records[n].abspath in self.targets, "none", True, records[n].digest, self.texts.get(records[n].abspath))
            for n in missing
        ]
        for number, fresh in zip(missing, self._run(tasks)):
            old = records[number]
            records[number] = _merge(old, fresh) if fresh.digest == old.digest else fresh
            self._keep(records[number])


def _merge(old: FileRecord, fresh: FileRecord) -> FileRecord:
    """A record of unchanged content: what the check did not redo comes from the old one."""
    if fresh.failure is None and old.failure is not None:
        fresh.failure = old.failure
    if fresh.failure is None and fresh.summary is None and old.summary is not None:
        fresh.summary, fresh.facts = old.summary, old.facts
    if fresh.failure is None and not fresh.sdigest:
        fresh.sdigest = old.sdigest
    if fresh.failure is None and fresh.results is None:
        fresh.results, fresh.directives = old.results, old.directives
        if fresh.dated is None:
            fresh.dated = old.dated
    return fresh


def _corpus_key(records: Sequence[FileRecord], cwd: Path) -> str:
    """What the corpus findings of a run depend on besides the environment: each file's
    name and summary (corpus rules see nothing else of it; an edit elsewhere in a file
    moves at most the places of its findings), in no particular order."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(str(cwd).encode())
    for record in sorted(records, key=lambda r: r.key):
        seen = "" if record.failure is not None else record.sdigest or f"content:{record.digest}"
        digest.update(f"\0{record.key}\0{record.shown}\0{seen}".encode())
    return digest.hexdigest()


def _reuse_corpus(
    snapshot: Mapping[str, Any], records: Sequence[FileRecord], targets: Sequence[FileRecord]
) -> tuple[dict[str, list[Stored]], bool] | None:
    """The findings on `targets` of the last full run's corpus phase (its summaries are
    the current ones), with places looked up again in files whose content changed since;
    and whether any place was. None if the snapshot cannot serve."""
    try:
        digests, places = snapshot["digests"], snapshot["places"]
        found = {k: stored_findings(v) for k, v in snapshot["findings"].items() if isinstance(k, str)}
        by_key = {r.key: r for r in records}
        moved = {k for k, r in by_key.items() if r.failure is None and digests.get(k) != r.digest}
        if not moved:
            return found, False
        files: dict[str, Entry] = {}

        def locate(key: str, pointer: str, at_key: bool) -> tuple[int, int]:
            if key not in files:
                r = by_key[key]
                files[key] = summary_entry(r.shown, r.abspath, r.fmt, {}, {}, r.text or "")
            return files[key].locate(pointer, at_key=at_key)

        for record in targets:
            items = found.get(record.key)
            if not items:
                continue
            fresh = []
            for item, at_key in zip(items, places[record.key], strict=True):
                code, line, col, severity, message, pointer, related, fix = item
                if record.key in moved:
                    if at_key is None:  # a place the rule gave itself: only the rule knows it
                        return None
                    line, col = locate(record.key, pointer, bool(at_key))
                related = tuple(
                    (k, *locate(k, p, False), p) if k in moved else (k, r_line, r_col, p)
                    for k, r_line, r_col, p in related
                )
                fresh.append((code, line, col, severity, message, pointer, related, fix))
            found[record.key] = fresh
    except (KeyError, TypeError, ValueError, AttributeError, OSError):
        return None
    return found, True


def _corpus_findings(
    records: Sequence[FileRecord],
    targets: set[str],
    config: Config,
    today: date,
    memo: registry.Known,
    places: dict[str, list[bool | None]] | None = None,
) -> dict[str, list[Stored]]:
    """Corpus-rule findings on the target files (by record key), places resolved.

    `places` gets, for each finding, how its place was found: `at_key`, or None when the
    rule gave the position itself."""
    rules = [
        r for r in registry.all_rules() if r.func is not None and r.scope == "corpus" and config.enabled(r.code)
    ]
    out: dict[str, list[Stored]] = {}
    if not rules:
        return out
    entries: list[Entry] = []
    for record in records:
        if record.failure is None and record.summary is not None:
            entries.append(
                summary_entry(record.shown, record.abspath, record.fmt, record.summary, record.facts, record.text or "")
            )
    focus = frozenset(n for n, e in enumerate(entries) if e.path in targets)
    corpus = Corpus(entries, config.root if config.root.is_dir() else None, None if len(focus) == len(entries) else focus)
    key_of = {r.shown: r.key for r in records}
    shared = registry.Memo(memo)
    for rule in rules:
        assert rule.func is not None
        ctx = registry.Context(
            today=today, options=config.options_for(rule), settings=config.settings, schema=config.schema, memo=shared
        )
        try:
            found = list(rule.func(corpus, ctx))
        except Exception as exc:  # a bug in a rule, not in the data: name both
            raise RuleCrashed(rule.code, "the corpus", exc) from exc
        for finding in found:
            if finding.path is None:
                raise RuleCrashed(rule.code, "the corpus", ValueError("finding without a path"))
            if finding.path not in targets:
                continue
            entry = corpus.by_path[finding.path]
            line, col = finding.position or entry.locate(finding.pointer, at_key=finding.at_key)
            related = []
            for other in finding.related:
                place = corpus.by_path.get(other.path)
                if place is not None:
                    r_line, r_col = place.locate(other.pointer)
                    related.append((key_of[other.path], r_line, r_col, other.pointer))
            severity = config.severities.get(rule.code) or finding.severity or rule.severity
            out.setdefault(key_of[finding.path], []).append(
                (rule.code, line, col, severity.value, finding.message, finding.pointer, tuple(related), None)
            )
            if places is not None:
                places.setdefault(key_of[finding.path], []).append(
                    None if finding.position else finding.at_key
                )
    shared.take_added()  # into `memo` (and so into the cache's memo, when there is a cache)
    return out


def _diagnostics(
    records: Sequence[FileRecord],
    targets: Sequence[FileRecord],
    corpus_found: Mapping[str, list[Stored]],
    config: Config,
) -> list[Diagnostic]:
    """Diagnostics on the targets: ET001, entry and corpus findings, suppressions, ET002; sorted."""
    shown_of = {r.key: r.shown for r in records}
    known = [r.code for r in registry.all_rules()]
    out: list[Diagnostic] = []
    failure_rule = registry.get("ET001")
    unused_rule = registry.get("ET002")
    for record in targets:
        if record.failure is not None:
            if config.enabled(failure_rule.code) and not config.ignored_in_file(record.abspath, failure_rule.code):
                line, col, message = record.failure
                out.append(
                    Diagnostic(
                        path=record.shown, line=line, col=col, code=failure_rule.code, name=failure_rule.name,
                        severity=config.severities.get(failure_rule.code, failure_rule.severity), message=message,
                    )
                )
            continue
        directives = suppress.Suppressions([suppress.Directive(*d) for d in record.directives])
        found = [*(record.results or []), *(record.dated[1] if record.dated else []), *corpus_found.get(record.key, [])]
        for code, line, col, severity, message, pointer, related, fix in found:
            if config.ignored_in_file(record.abspath, code):
                continue
            if directives.suppresses(line, code):
                continue
            out.append(
                Diagnostic(
                    path=record.shown,
                    line=line,
                    col=col,
                    code=code,
                    name=registry.get(code).name,
                    severity=Severity(severity),
                    message=message,
                    pointer=pointer,
                    related=tuple(
                        Location(shown_of.get(k, record.shown) if k is not None else record.shown, r_line, r_col, r_pointer)
                        for k, r_line, r_col, r_pointer in related
                    ),
                    fix=Fix(*fix) if fix is not None else None,
                )
            )
        if not record.directives or not config.enabled(unused_rule.code):
            continue
        if config.ignored_in_file(record.abspath, unused_rule.code):
            continue
        for directive in directives.unused():
            if not any(code.startswith(directive.code) for code in known):
                message = f"suppression names `{directive.code}`, which is no rule code"
            elif not any(config.enabled(code) for code in known if code.startswith(directive.code)):
                continue  # the rule is off: whether it would fire is unknown
            else:
                message = f"suppression of `{directive.code}` matches no diagnostic"
            out.append(
                Diagnostic(
                    path=record.shown, line=directive.line, col=directive.col, code=unused_rule.code,
                    name=unused_rule.name, severity=config.severities.get(unused_rule.code, unused_rule.severity),
                    message=message,
                )
            )
    return sorted(out, key=Diagnostic.sort_key)


def _report(run: _Run, records: list[FileRecord], targets: list[FileRecord], today: date) -> list[Diagnostic]:
    """Corpus phase (from the cache's last full run when the corpus is unchanged) and collection."""
    config, store = run.config, run.store
    target_shown = {r.shown for r in targets}
    corpus_found: dict[str, list[Stored]] | None = None
    snapshot_key = _corpus_key(records, run.cwd) if store is not None else ""
    full = len(targets) == len(records)
    places: dict[str, list[bool | None]] = {}
    if store is not None:
        snapshot = store.corpus()
        reused = _reuse_corpus(snapshot, records, targets) if snapshot.get("key") == snapshot_key else None
        if reused is not None:
            corpus_found, moved = reused
            if moved and full:  # keep the places of this run, so the next one need not look again
                store.set_corpus({**snapshot, "findings": corpus_found, "digests": _digests(records)})
    if corpus_found is None:
        run.summaries(records)
        facts_before = {r.key: len(r.facts) for r in records}
        corpus_found = _corpus_findings(records, target_shown, config, today, run.memo, places)
        if store is not None:
            for record in records:  # facts a corpus rule computed late (e.g. band keys) are kept
                if len(record.facts) != facts_before[record.key] and record.text is None:
                    store.put(record.key, None, record.index_data())
            if full:
                store.set_corpus(
                    {"key": snapshot_key, "findings": corpus_found, "places": places, "digests": _digests(records)}
                )
    return _diagnostics(records, targets, corpus_found, config)


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
    records = []
    for entry in entries:
        record = FileRecord(entry.path, entry.path, entry.abspath, entry.fmt, text=entry.text)
        records.append(checker.check_entry(record, entry, "all" if id(entry) in wanted else "none", True))
    failed = [
        FileRecord(f.path, f.path, f.abspath, file_format(f.abspath), failure=(f.line, f.col, f.message))
        for f in failures
    ]
    target_records = [r for r, e in zip(records, entries) if id(e) in wanted] + failed
    corpus_found = _corpus_findings(records, {r.shown for r in target_records}, config, today, {})
    return _diagnostics(records, target_records, corpus_found, config)


def lint(
    paths: Sequence[Path] | None,
    config: Config,
    today: date | None = None,
    cwd: Path | None = None,
    texts: Mapping[Path, str] | None = None,
    *,
    use_cache: bool = False,
    jobs: int = 1,
    keep_entries: bool = False,
) -> LintResult:
    """Lint the given paths (or the corpus root) and return sorted diagnostics.

    `use_cache` reads and writes `.entrykit_cache/` in the corpus root; `jobs`
    processes check files when there are many; `keep_entries` keeps the parsed
    target entries in the result (for fixes), which checks every target in this process.
    """
    config = configured(config)
    today = today or date.today()
    cwd = cwd or Path.cwd()
    texts = texts or {}
    files = plan(paths, config)
    store = open_store(config) if use_cache and not keep_entries else None
    run = _Run(files, config, today, cwd, texts, store, jobs, keep_entries)
    records = run.records()
    target_set = set(files.targets)
    targets = [r for r in records if r.abspath in target_set]
    diagnostics = _report(run, records, targets, today)
    if store is not None:
        store.save()
    shown = [r.shown for r in targets] if len(targets) == len(files.targets) else [
        display_path(p, cwd) for p in files.targets
    ]
    log.debug("linted %d files (%d in corpus)", len(files.targets), len(files.corpus))
    return LintResult(diagnostics, shown, targets)
