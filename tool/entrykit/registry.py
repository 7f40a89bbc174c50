"""The rule registry: the @rule decorator, rule records, option declarations, rule context.

The registry holds what the modules of `entrykit.rules` register when they are
imported; it imports none of them. Whoever runs or lists rules imports
`entrykit.rules` (the lint engine, `entrykit rules`), so reading a configuration or
formatting a file never loads the rule stack.
"""

from __future__ import annotations

import inspect
import json
import math
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from entrykit.diagnostic import Finding, Severity

if TYPE_CHECKING:
    from entrykit.corpus import Corpus
    from entrykit.entry import Entry

T = TypeVar("T")
S = TypeVar("S")

@dataclass(frozen=True)
class Option:
    """A typed option with a default: `kind` is its type, `items` the element type of a list option.

    `validate` checks what types cannot (a table of lists, say): it raises
    ValueError naming `where`.
    """

    default: Any
    doc: str
    kind: type = str
    items: type | None = None
    choices: tuple[Any, ...] | None = None
    validate: Callable[[Any, str], None] | None = None
    # The range of a number (or of each number in a list); every number must be finite
    # and, without a range of its own, within `LIMIT`.
    minimum: float | None = None
    maximum: float | None = None
    # A list whose items are a set (locales, fields, engines): an item given twice is read
    # once, in the place it was first given, and never makes a finding twice.
    unique: bool = False

    LIMIT: ClassVar[int] = 10**9

    def check(self, value: Any, where: str) -> Any:
        """Return `value` if it fits, else raise ValueError naming `where`."""
        expected = self.kind
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ValueError(f"{where} must be a {expected.__name__}, got {value!r}")
        if self.items is not None and isinstance(value, list):
            for item in value:
                if not isinstance(item, self.items):
                    raise ValueError(
                        f"{where} must hold {self.items.__name__} values, got {item!r}"
                    )
        for number in value if isinstance(value, list) else [value]:
            if isinstance(number, (int, float)) and not isinstance(number, bool):
                self._in_range(number, where)
        if self.choices is not None:
            values = value if isinstance(value, list) else [value]
            for item in values:
                if item not in self.choices:
                    allowed = ", ".join(repr(c) for c in self.choices)
                    raise ValueError(f"{where} must be one of {allowed}, got {item!r}")
        if self.unique and isinstance(value, list):
            value = list(dict.fromkeys(value))
        if self.validate is not None:
            self.validate(value, where.strip("`"))
        return value

    def _in_range(self, number: float, where: str) -> None:
        if not math.isfinite(number):
            raise ValueError(f"{where} must be a finite number, got {number!r}")
        low = self.minimum if self.minimum is not None else -self.LIMIT
        high = self.maximum if self.maximum is not None else self.LIMIT
        if not low <= number <= high:
            raise ValueError(f"{where} must be from {_number(low)} to {_number(high)}, got {_number(number)}")


def _number(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


class Known(Protocol):
    """Where a memo's earlier values come from: a dict, or the cache's (sharded) memo."""

    def get(self, key: str, default: Any = None) -> Any: ...


class Memo:
    """Results a rule keeps across files and runs, keyed by everything they depend on.

    Values are plain data (what JSON holds, plus tuples). The engine fills it from
    the cache and saves what was added; without a cache it lives for one run.
    """

    def __init__(self, known: Known | None = None) -> None:
        self._known: Known = known if known is not None else {}
        self._added: dict[str, Any] = {}

    def get(self, key: str) -> Any:
        found = self._added.get(key)
        return found if found is not None else self._known.get(key)

    def put(self, key: str, value: Any) -> None:
        self._added[key] = value

    def take_added(self) -> dict[str, Any]:
        """What was added since the last call (and forget it here: the caller keeps it)."""
        added, self._added = self._added, {}
        update = getattr(self._known, "update", None)  # a dict, or the cache's memo view
        if added and update is not None:
            update(added)
        return added


# The entries a `PerEntry` keeps values of: the pipeline checks this many files at most
# stage by stage (`lint.pipeline.BATCH_FILES`), each rule over all of them before the next
# rule asks about the first again.
ENTRIES_KEPT = 256


class PerEntry(Generic[S, T]):
    """What rules derive from one entry under one setting (`make(entry, setting)`), made once
    for the rules that ask about it in turn: the values of the last `ENTRIES_KEPT` entries
    asked about are kept, each with the setting it was made under, until `forget_entries`.
    Each entry is held, so no other entry takes its id meanwhile; the same settings object,
    the usual case, is equal without comparing its fields."""

    __slots__ = ("_make", "_kept", "__weakref__")

    def __init__(self, make: Callable[[Entry, S], T]) -> None:
        self._make = make
        self._kept: dict[int, tuple[Entry, Any, T]] = {}  # id(entry) -> (entry, setting, value), oldest first
        _PER_ENTRY.add(self)

    def get(self, entry: Entry, setting: S) -> T:
        kept = self._kept
        known = kept.get(id(entry))
        if known is not None and known[0] is entry and (known[1] is setting or known[1] == setting):
            return known[2]
        made = self._make(entry, setting)
        if known is None and len(kept) >= ENTRIES_KEPT:
            del kept[next(iter(kept))]  # the entry first asked about
        kept[id(entry)] = (entry, setting, made)
        return made

    def forget(self) -> None:
        self._kept.clear()


_PER_ENTRY: weakref.WeakSet[PerEntry[Any, Any]] = weakref.WeakSet()


def forget_entries() -> None:
    """Let go of the entries every `PerEntry` holds (the pipeline, after each batch: a
    process that checked files holds none of them after)."""
    for kept in _PER_ENTRY:
        kept.forget()


def memo_key(kind: str, *inputs: object) -> str:
    """The key of a memo value that `kind` (a rule code, an analysis) computed from `inputs`
    (a pattern, its flags, the match mode, a budget ...): one string whatever the inputs
    hold, so two different sets of inputs never share a key. entrykit's version is no
    part of it: the cache keeps one memo per version of entrykit's code."""
    return json.dumps([kind, *inputs], ensure_ascii=False, default=repr, separators=(",", ":"))


@dataclass(frozen=True)
class Context:
    """What a rule may know besides the entry: its options, shared settings, and today."""

    today: date
    options: Mapping[str, Any] = field(default_factory=dict)
    settings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    schema: Path | None = None  # None: the bundled schema
    memo: Memo = field(default_factory=Memo, compare=False, repr=False)
    _read: dict[tuple[str, Callable[[Mapping[str, Any]], Any]], Any] = field(
        default_factory=dict, compare=False, repr=False
    )

    def section(self, name: str) -> Mapping[str, Any]:
        return self.settings.get(name, {})

    def read(self, name: str, reader: Callable[[Mapping[str, Any]], T]) -> T:
        """The settings section `name` as `reader` makes it, made once per context: a rule
        asks for its settings on every entry, and the settings do not change during a run."""
        key = (name, reader)
        try:
            return self._read[key]  # (one lookup: a rule asks on every entry, the first time once)
        except KeyError:
            made = self._read[key] = reader(self.section(name))
            return made


EntryRule = Callable[["Entry", Context], Iterable[Finding]]
CorpusRule = Callable[["Corpus", Context], Iterable[Finding]]


@dataclass(frozen=True)
class Rule:
    """A registered rule: code, problem name, default severity, scope, options and docs."""

    code: str
    name: str
    severity: Severity
    scope: str  # "entry" | "corpus" | "builtin" (produced by the loader or engine)
    func: Callable[..., Iterable[Finding]] | None
    options: Mapping[str, Option]
    doc: str
    dated: bool = False  # reads `ctx.today`: its results are only reused on the same day
    # A corpus rule long enough, and sharing nothing with the others that is not made before
    # it starts, to run in a process of its own when the run has cores to spare (`lint.lanes`).
    apart: bool = False
    # A corpus rule that reads the regex cross matches: with cores to spare they are made
    # first, on every core (`lint.lanes`).
    cross_matches: bool = False

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0].strip() if self.doc.strip() else ""

    @property
    def family(self) -> str:
        return self.code[:3]


@dataclass(frozen=True)
class Section:
    """A shared settings table in config, e.g. [tool.entrykit.regex] (see `entrykit.settings`)."""

    name: str
    options: Mapping[str, Option]
    doc: str


_RULES: dict[str, Rule] = {}


def _register(rule_record: Rule) -> None:
    if not (len(rule_record.code) == 5 and rule_record.code.startswith("ET")):
        raise ValueError(f"rule code {rule_record.code!r} is not ET + three digits")
    for existing in _RULES.values():
        if existing.code == rule_record.code or existing.name == rule_record.name:
            raise ValueError(f"rule {rule_record.code} ({rule_record.name}) registered twice")
    _RULES[rule_record.code] = rule_record


def rule(
    code: str,
    name: str,
    *,
    severity: Severity = Severity.ERROR,
    scope: str = "entry",
    options: Mapping[str, Option] | None = None,
    dated: bool = False,
    apart: bool = False,
    cross_matches: bool = False,
) -> Callable[[Callable[..., Iterable[Finding]]], Callable[..., Iterable[Finding]]]:
    """Register an entry rule (`f(entry, ctx)`) or a corpus rule (`f(corpus, ctx)`).

    A rule that reads `ctx.today` says `dated=True`, so cached results of it are
    reused on the same day only. A corpus rule says `cross_matches=True` when it reads
    the regex cross matches, and `apart=True` when it may run in a process of its own
    (`lint.lanes`).
    """

    def decorate(func: Callable[..., Iterable[Finding]]) -> Callable[..., Iterable[Finding]]:
        _register(
            Rule(
                code, name, severity, scope, func, dict(options or {}), inspect.getdoc(func) or "", dated,
                apart, cross_matches,
            )
        )
        return func

    return decorate


@dataclass(frozen=True)
class Fact:
    """Something corpus rules compute from one entry alone, once per file, cached with it.

    `rules` are the codes that read it: it is computed only when one of them is on.
    `func(entry, ctx)` returns plain data (what JSON holds, plus tuples). An `on_demand`
    fact is one its rules compute themselves when an entry lacks it, so a run that checks
    only a few files may leave it to them (they may never need it). `prepare(ctx)`, when
    given, is called once before files are checked in a pool of processes: what it makes
    ready (an import, a table the corpus phase needs too) every process then shares.
    """

    name: str
    rules: tuple[str, ...]
    func: Callable[..., Any]
    on_demand: bool = False
    prepare: Callable[[Context], None] | None = None


_FACTS: dict[str, Fact] = {}


def fact(
    name: str,
    rules: Iterable[str],
    on_demand: bool = False,
    prepare: Callable[[Context], None] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a per-entry fact for corpus rules (see `Fact`)."""

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        if name in _FACTS:
            raise ValueError(f"fact {name!r} registered twice")
        _FACTS[name] = Fact(name, tuple(rules), func, on_demand, prepare)
        return func

    return decorate


def all_facts() -> list[Fact]:
    _require_rules()
    return [_FACTS[name] for name in sorted(_FACTS)]


def builtin(code: str, name: str, severity: Severity, doc: str) -> None:
    """Register a rule whose findings come from the loader or the engine, for its docs."""
    _register(Rule(code, name, severity, "builtin", None, {}, inspect.cleandoc(doc)))


def _require_rules() -> None:
    if not _RULES:
        raise RuntimeError("no rule is registered: import entrykit.rules before asking for rules")


def known(code: str) -> bool:
    """Whether `code` is the code of a registered rule."""
    return code in _RULES


def all_rules() -> list[Rule]:
    _require_rules()
    return sorted(_RULES.values(), key=lambda r: r.code)


def get(code_or_name: str) -> Rule:
    """Look a rule up by code (`ET202`, any case) or name (`regex-misses-signature`)."""
    _require_rules()
    key = code_or_name.strip()
    if key.upper() in _RULES:
        return _RULES[key.upper()]
    for candidate in _RULES.values():
        if candidate.name == key:
            return candidate
    raise KeyError(code_or_name)
