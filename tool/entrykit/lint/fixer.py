"""Apply the safe fixes rules propose: per file, through the round-trip editor, to a fixpoint.

Nothing here writes files: `fix` returns the new texts (the CLI writes them
with `writing.atomic_write`), a report of every change, a unified diff, and the
lint of the fixed texts. Fixes of one round that touch the same value are
applied one at a time: the next round lints the edited text again, until no
rule proposes a safe fix that changes anything.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from entrykit.config import Config
from entrykit.diagnostic import Diagnostic
from entrykit.entry import Entry
from entrykit.lint.engine import LintResult, lint
from entrykit.output_safety import escape
from entrykit.roundtrip import NotEditable, editable_document

MAX_ROUNDS = 10  # each round fixes at least one value; more means two rules disagree


@dataclass(frozen=True)
class AppliedFix:
    """One value a fix replaced, where the diagnostic that proposed it was."""

    path: str
    line: int
    col: int
    code: str
    pointer: str
    old: Any
    new: Any
    description: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.code} fixed: {self.description}"


@dataclass
class FixResult:
    """What `fix` did: new texts by file, the fixes, skipped files, and what remains."""

    remaining: LintResult
    originals: dict[Path, str] = field(default_factory=dict)
    texts: dict[Path, str] = field(default_factory=dict)
    shown: dict[Path, str] = field(default_factory=dict)
    applied: list[AppliedFix] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # shown path -> why

    @property
    def changed(self) -> list[Path]:
        """Files whose text the fixes change, in a stable order."""
        return sorted(p for p, text in self.texts.items() if text != self.originals[p])

    def diff(self) -> str:
        """A unified diff of every changed file (`a/` and `b/` prefixes, like git)."""
        parts: list[str] = []
        for path in self.changed:
            shown = self.shown[path]
            parts.extend(
                difflib.unified_diff(
                    self.originals[path].splitlines(keepends=True),
                    self.texts[path].splitlines(keepends=True),
                    fromfile=f"a/{escape(shown)}",  # a file's name can hold a line break
                    tofile=f"b/{escape(shown)}",
                )
            )
        return "".join(parts)


def _overlaps(pointer: str, other: str) -> bool:
    return pointer == other or pointer.startswith(other + "/") or other.startswith(pointer + "/")


def _apply(entry: Entry, diagnostics: Sequence[Diagnostic]) -> tuple[str, list[AppliedFix]] | str:
    """The entry's text with the fixes applied, or why the file cannot be fixed."""
    try:
        document = editable_document(entry.text, entry.fmt)
    except NotEditable as exc:
        return f"cannot be edited: {exc}"
    if document.dump() != entry.text:
        return "cannot be edited without reformatting it"
    taken: list[str] = []
    applied = []
    for diagnostic in sorted(diagnostics, key=lambda d: (d.code, d.line, d.col)):
        fix = diagnostic.fix
        assert fix is not None
        if any(_overlaps(fix.pointer, other) for other in taken):
            continue  # the next round sees the edited value
        try:
            current = document.get(fix.pointer)
        except KeyError:
            continue
        if current == fix.value:
            continue
        document.replace(fix.pointer, fix.value)
        taken.append(fix.pointer)
        applied.append(
            AppliedFix(
                entry.path, diagnostic.line, diagnostic.col, diagnostic.code,
                fix.pointer, current, fix.value, fix.description,
            )
        )
    return document.dump(), applied


def fix(
    paths: Sequence[Path] | None,
    config: Config,
    today: date | None = None,
    cwd: Path | None = None,
) -> FixResult:
    """Apply every safe fix to the given paths (or the corpus root), in memory."""
    texts: dict[Path, str] = {}
    outcome = FixResult(remaining=LintResult([]))
    for _ in range(MAX_ROUNDS):
        result = lint(paths, config, today, cwd, texts, keep_entries=True)
        outcome.remaining = result
        entries = {entry.path: entry for entry in result.entries}
        pending: dict[str, list[Diagnostic]] = defaultdict(list)
        for diagnostic in result.diagnostics:
            fixable = diagnostic.fix is not None and diagnostic.fix.safe and diagnostic.path in entries
            if fixable and diagnostic.path not in outcome.skipped:
                pending[diagnostic.path].append(diagnostic)
        progress = False
        for shown, diagnostics in pending.items():
            entry = entries[shown]
            applied = _apply(entry, diagnostics)
            if isinstance(applied, str):
                outcome.skipped[shown] = applied
                continue
            text, done = applied
            if done and text != entry.text:
                outcome.originals.setdefault(entry.abspath, entry.text)
                outcome.shown[entry.abspath] = shown
                texts[entry.abspath] = text
                outcome.applied.extend(done)
                progress = True
        if not progress:
            break
    else:
        outcome.remaining = lint(paths, config, today, cwd, texts, keep_entries=True)
    outcome.texts = {path: texts[path] for path in outcome.originals}
    return outcome
