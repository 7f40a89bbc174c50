"""The records that flow from rules to reporters: Severity, Fix, Finding, Diagnostic."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, NamedTuple


class Severity(enum.StrEnum):
    """How bad a diagnostic is; errors fail a run, warnings fail it under --strict."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True, slots=True)
class Fix:
    """Replace the value at `pointer` with `value`; `safe` fixes are applied by --fix."""

    pointer: str
    value: Any
    description: str
    safe: bool = True


@dataclass(frozen=True, slots=True)
class Related:
    """A second place a corpus finding points at, before positions are resolved."""

    path: str
    pointer: str


@dataclass(frozen=True, slots=True)
class Finding:
    """What a rule yields: a JSON Pointer into an entry and one sentence.

    `path` is only set by corpus rules (entry rules report on the entry they
    were given). `severity` is only set by rules whose findings differ in
    weight (ET205 exponential vs polynomial); config overrides still win.
    `at_key` points at the mapping key instead of its value. `position` is only
    set where the pointer is ambiguous (the second of two equal keys).
    """

    pointer: str
    message: str
    path: str | None = None
    related: tuple[Related, ...] = ()
    severity: Severity | None = None
    fix: Fix | None = None
    at_key: bool = False
    position: tuple[int, int] | None = None


class Location(NamedTuple):
    """A resolved place: 1-based line and column in a file."""

    path: str
    line: int
    col: int
    pointer: str = ""


class Diagnostic(NamedTuple):
    """One problem at one place, ready for any reporter.

    Immutable and hashable as a tuple is, and made as cheaply: a run over a large corpus
    makes hundreds of thousands of them (and of their `Location`s), where a frozen
    dataclass sets each field through `object.__setattr__`."""

    path: str
    line: int
    col: int
    code: str
    name: str
    severity: Severity
    message: str
    pointer: str = ""
    related: tuple[Location, ...] = ()
    fix: Fix | None = None

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return by_place(self)


# The order of a report, as a key function made in C: sorting a large report calls it for every diagnostic.
by_place = itemgetter(*(Diagnostic._fields.index(name) for name in ("path", "line", "col", "code", "message")))


@dataclass(frozen=True)
class Tally:
    """How many diagnostics there are of each severity, and on how many files."""

    severities: Counter[Severity]
    files: int

    @classmethod
    def of(cls, diagnostics: Iterable[Diagnostic]) -> Tally:
        severities: Counter[Severity] = Counter()
        paths: set[str] = set()
        for d in diagnostics:
            severities[d.severity] += 1
            paths.add(d.path)
        return cls(severities, len(paths))


def tally(diagnostics: Iterable[Diagnostic]) -> Tally:
    """The diagnostics' `Tally`: the one they carry when they know it (a lint run's, counted
    as they were made), else counted in one pass."""
    known = getattr(diagnostics, "tally", None)
    return known if isinstance(known, Tally) else Tally.of(diagnostics)
