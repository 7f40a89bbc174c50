"""What a merge reports: conflicts and their options, where each item went, what was
dropped and why, rates, regex coverage, differences; and the small value helpers the
merge's parts share."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

KEEP_BOTH = "both"  # the choice that keeps both sides of a role or version conflict
SKIP: Any = object()  # "no value": a key that is absent

# -- what a merge reports -------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One way to settle a conflict: `source` is what a choice names (an input's label, a
    list name for a role conflict, or `both`), `holders` the inputs that hold this value."""

    source: str
    value: Any
    holders: tuple[str, ...] = ()


@dataclass(frozen=True)
class Conflict:
    """A choice the inputs leave open, at a pointer into the merged entry.

    `kind` is `value` (the inputs disagree on a value), `condition` (on an item's
    condition), `role` (an action is a dead end in one input and a workaround in another)
    or `version` (version rows that contradict each other). Pointers are into the merged
    entry with every item kept, so a choice's key does not depend on other choices.
    """

    pointer: str
    kind: str
    options: tuple[Option, ...]
    about: str = ""
    follows: tuple[str, ...] = ()  # translations whose values go with the choice

    def option(self, source: str) -> Option | None:
        return next((o for o in self.options if o.source == source), None)


@dataclass(frozen=True)
class Resolution:
    """How a conflict was settled: an option's source, or `edit` with the value typed."""

    choice: str
    value: Any
    how: str  # "--prefer into", "chosen", "edited", "resolution file"


@dataclass(frozen=True)
class Placement:
    """Where one item or field of an input ended up in the merged entry."""

    side: str  # the input's label
    kind: str  # "dead end", "workaround", "source", "version", "tag", "example", "field", ...
    source: str  # pointer in its input
    value: Any
    target: str  # pointer in the merged entry
    merged: bool  # True: merged into the item at `target`, not copied there


@dataclass(frozen=True)
class Dropped:
    """A value of an input that is not in the merged entry, in full, and why."""

    side: str
    pointer: str
    value: Any
    why: str


@dataclass(frozen=True)
class RateReport:
    """A rate or confidence computed from several inputs: their values and the result."""

    pointer: str
    values: tuple[tuple[str, float], ...]
    result: float
    rule: str  # "lowest" | "highest"
    gap: bool  # the inputs differ by more than the configured gap


@dataclass(frozen=True)
class CoveredText:
    """A message of an input (signature or example) and which regexes match it."""

    text: str
    sources: tuple[str, ...]  # "<label> <pointer>" of every input that has it
    before: tuple[str, ...]  # labels of the inputs whose regex matched it
    after: bool


@dataclass
class RegexOutcome:
    """The merged regex and the coverage of every input message before and after."""

    pattern: str | None
    how: str
    texts: list[CoveredText] = field(default_factory=list)
    counterexamples: int = 0

    @property
    def lost(self) -> list[CoveredText]:
        """Messages some input's regex matched that the merged regex does not (never, when it worked)."""
        return [t for t in self.texts if t.before and not t.after]


@dataclass(frozen=True)
class Difference:
    """A path where an absorbed entry differs from the survivor (deepdiff), both values in full."""

    other: str
    pointer: str
    into: Any
    value: Any


@dataclass
class MergeReport:
    """Everything a reviewer needs to trust the merge."""

    survivor: str
    absorbed: list[str]
    conflicts: list[Conflict] = field(default_factory=list)
    resolutions: dict[str, Resolution] = field(default_factory=dict)
    ledger: list[Placement] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    rates: list[RateReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    regex: RegexOutcome | None = None
    differences: list[Difference] = field(default_factory=list)

    @property
    def unresolved(self) -> list[Conflict]:
        return [c for c in self.conflicts if c.pointer not in self.resolutions]


@dataclass
class MergeResult:
    """The merged entry's data, the report, and the inputs it was made from (plain data)."""

    data: dict[str, Any]
    report: MergeReport
    inputs: list[dict[str, Any]]
    labels: list[str]


# -- small helpers ----------------------------------------------------------------


def plain(value: Any) -> Any:
    """A plain copy (ruamel's commented containers become dicts and lists)."""
    return json.loads(json.dumps(value, default=str))


def missing(value: Any) -> bool:
    return value is SKIP or value is None or value == ""


def value_key(value: Any) -> str:
    if value is SKIP:
        return "\0absent"
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def is_rate(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def union(*lists: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    seen: set[str] = set()
    for items in lists:
        for item in items:
            key = value_key(item)
            if key not in seen:
                seen.add(key)
                out.append(item)
    return out


def labels_for(inputs: Sequence[Mapping[str, Any]]) -> list[str]:
    """A label per input: its id, made unique (`id#2`) when two inputs share one."""
    labels: list[str] = []
    for number, data in enumerate(inputs):
        label = str(data.get("id") or f"input {number + 1}")
        while label in labels:
            label = f"{label}#{number + 1}"
        labels.append(label)
    return labels


