"""Run the rules over files: findings become diagnostics with places, filtered and sorted."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from . import registry, suppress
from .config import Config
from .corpus import Corpus
from .diagnostic import Diagnostic, Finding, Location, Severity
from .entry import Entry
from .errors import RuleCrashed, UsageError
from .loader import LoadFailure, discover, display_path, load

log = logging.getLogger(__name__)


@dataclass
class LintResult:
    """Diagnostics of one run, and what was looked at."""

    diagnostics: list[Diagnostic]
    files: list[str] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)


@dataclass(frozen=True)
class Plan:
    """Which files are reported on (targets) and which the corpus rules see (corpus)."""

    targets: list[Path]
    corpus: list[Path]


def _under(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(folder)  # realpath: a link loop is no error
    except ValueError:
        return False
    return True


def plan(paths: Sequence[Path] | None, config: Config) -> Plan:
    """Targets are the given paths (or the corpus root); the corpus is the root when
    every target is inside it, so corpus rules see the whole corpus in pre-commit runs."""
    root = config.root
    if not paths:
        if not root.is_dir():
            raise UsageError(f"corpus root `{root}` is not a directory; pass paths or set `root`")
        targets = list(discover([root]))
        return Plan(targets, targets)
    for given in paths:
        if not given.exists() and not given.is_symlink():
            raise UsageError(f"`{given}` does not exist")
    targets = list(discover(paths))
    if root.is_dir() and targets and all(_under(t, root) for t in targets):
        known = set(targets)
        corpus = targets + [p for p in discover([root]) if p not in known]
        return Plan(targets, corpus)
    return Plan(targets, targets)


def _context(rule: registry.Rule, config: Config, today: date) -> registry.Context:
    return registry.Context(
        today=today, options=config.options_for(rule), settings=config.settings, schema=config.schema
    )


def _run(rule: registry.Rule, subject: Entry | Corpus, ctx: registry.Context, name: str) -> list[Finding]:
    assert rule.func is not None
    try:
        return list(rule.func(subject, ctx))
    except Exception as exc:  # a bug in a rule, not in the data: name both
        raise RuleCrashed(rule.code, name, exc) from exc


class _Collector:
    """Turns findings into diagnostics: places, severities, ignores and suppressions."""

    def __init__(self, config: Config, corpus: Corpus, targets: Iterable[Entry]) -> None:
        self.config = config
        self.corpus = corpus
        self.targets = {e.path: e for e in targets}
        self.suppressions: dict[str, suppress.Suppressions] = {}
        self.diagnostics: list[Diagnostic] = []

    def _suppressions(self, entry: Entry) -> suppress.Suppressions:
        if entry.path not in self.suppressions:
            parsed = suppress.parse(entry.text) if entry.fmt == "yaml" else suppress.Suppressions()
            self.suppressions[entry.path] = parsed
        return self.suppressions[entry.path]

    def add(self, rule: registry.Rule, entry: Entry, finding: Finding) -> None:
        if self.config.ignored_in_file(entry.abspath, rule.code):
            return
        line, col = finding.position or entry.locate(finding.pointer, at_key=finding.at_key)
        if self._suppressions(entry).suppresses(line, rule.code):
            return
        related = []
        for other in finding.related:
            target = self.corpus.by_path.get(other.path)
            if target is not None:
                r_line, r_col = target.locate(other.pointer)
                related.append(Location(other.path, r_line, r_col, other.pointer))
        severity = self.config.severities.get(rule.code) or finding.severity or rule.severity
        self.diagnostics.append(
            Diagnostic(
                path=entry.path,
                line=line,
                col=col,
                code=rule.code,
                name=rule.name,
                severity=severity,
                message=finding.message,
                pointer=finding.pointer,
                related=tuple(related),
                fix=finding.fix,
            )
        )

    def add_failure(self, failure: LoadFailure) -> None:
        rule = registry.get("ET001")
        if not self.config.enabled(rule.code) or self.config.ignored_in_file(failure.abspath, rule.code):
            return
        self.diagnostics.append(
            Diagnostic(
                path=failure.path,
                line=failure.line,
                col=failure.col,
                code=rule.code,
                name=rule.name,
                severity=self.config.severities.get(rule.code, rule.severity),
                message=failure.message,
            )
        )

    def add_unused_suppressions(self) -> None:
        rule = registry.get("ET002")
        if not self.config.enabled(rule.code):
            return
        known = {r.code for r in registry.all_rules()}
        for entry in self.targets.values():
            if entry.fmt != "yaml" or "entrykit:" not in entry.text:
                continue
            if self.config.ignored_in_file(entry.abspath, rule.code):
                continue
            for directive in self._suppressions(entry).unused():
                if not any(code.startswith(directive.code) for code in known):
                    message = f"suppression names `{directive.code}`, which is no rule code"
                elif not any(
                    self.config.enabled(code) for code in known if code.startswith(directive.code)
                ):
                    continue  # the rule is off: whether it would fire is unknown
                else:
                    message = f"suppression of `{directive.code}` matches no diagnostic"
                self.diagnostics.append(
                    Diagnostic(
                        path=entry.path,
                        line=directive.line,
                        col=directive.col,
                        code=rule.code,
                        name=rule.name,
                        severity=self.config.severities.get(rule.code, rule.severity),
                        message=message,
                    )
                )


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

    `texts` maps absolute paths to content that stands in for those files (the
    fixer lints its edits before, or instead of, writing them).
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


def check(
    entries: list[Entry],
    targets: list[Entry],
    config: Config,
    today: date,
    failures: Sequence[LoadFailure] = (),
) -> list[Diagnostic]:
    """Run every enabled rule over entries already in memory; diagnostics on `targets`, sorted."""
    corpus = Corpus(entries, config.root if config.root.is_dir() else None)
    collector = _Collector(config, corpus, targets)
    for failure in failures:
        collector.add_failure(failure)

    active = [r for r in registry.all_rules() if r.func is not None and config.enabled(r.code)]
    for rule in active:
        ctx = _context(rule, config, today)
        if rule.scope == "entry":
            for entry in targets:
                for finding in _run(rule, entry, ctx, entry.path):
                    collector.add(rule, entry, finding)
        elif rule.scope == "corpus":
            for finding in _run(rule, corpus, ctx, "the corpus"):
                if finding.path is None:
                    raise RuleCrashed(rule.code, "the corpus", ValueError("finding without a path"))
                if finding.path in collector.targets:
                    collector.add(rule, collector.targets[finding.path], finding)
    collector.add_unused_suppressions()
    return sorted(collector.diagnostics, key=Diagnostic.sort_key)


def lint(
    paths: Sequence[Path] | None,
    config: Config,
    today: date | None = None,
    cwd: Path | None = None,
    texts: Mapping[Path, str] | None = None,
) -> LintResult:
    """Lint the given paths (or the corpus root) and return sorted diagnostics."""
    today = today or date.today()
    cwd = cwd or Path.cwd()
    loaded = load_plan(paths, config, cwd, texts)
    diagnostics = check(loaded.entries, loaded.targets, config, today, loaded.failures)
    shown = [display_path(p, cwd) for p in loaded.files.targets]
    log.debug("linted %d files (%d in corpus)", len(loaded.files.targets), len(loaded.files.corpus))
    return LintResult(diagnostics, shown, loaded.targets)
