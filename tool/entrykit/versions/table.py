"""An entry's version rows as sets of versions: which rows parse, which add nothing, which contradict.

ET404 reports what `compare` finds; `merge` folds rows with it, so a merged entry never
carries a row ET404 would report. Both compare the pairs `pairs` gives: rows of one package,
up to `MOST_ROWS_COMPARED` of it, so that a table of thousands of rows costs no more than
thousands of rows (ET404 says which rows it left out: `uncompared`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from packaging.version import Version

from entrykit import pointer as jp
from entrykit.similarity.phrases import normalize_phrase
from entrykit.versions import specifiers
from entrykit.versions.package_names import Naming
from entrykit.versions.specifiers import Parsed, VersionSpec, parse, parse_version

LIFECYCLE = ("introduced", "deprecated", "removed")
# Rows of one package compared pairwise (2,016 pairs); the entries seen so far hold one a package.
MOST_ROWS_COMPARED = 64


def _set(row: dict[str, Any], name: str) -> str | None:
    value = row.get(name)
    return value.strip() if isinstance(value, str) and value.strip() else None


@dataclass(frozen=True)
class Row:
    """One version row whose spec parsed: where it is, its spec, its lifecycle versions."""

    index: int
    data: dict[str, Any]
    spec: VersionSpec
    package: str  # aliases resolved
    lifecycle: dict[str, str]  # set and valid lifecycle fields, canonical

    @property
    def pointer(self) -> str:
        return jp.join("versions", self.index, "version")

    def key(self, name: str) -> Version:
        return self.spec.scheme.key(self.lifecycle[name])


def parsed_rows(rows: Sequence[Any], names: Naming) -> Iterator[tuple[int, dict[str, Any], Parsed]]:
    """(index, row, what its `version` parses to) for every row that has a `version` text."""
    spots = ((index, row) for index, row in enumerate(rows) if isinstance(row, dict) and isinstance(row.get("version"), str))
    if len(rows) <= specifiers.SPECS_KEPT:
        # each spec of the table stays in `parse`'s cache from one rule's reading to the next
        for index, row in spots:
            yield index, row, parse(row["version"], names)
        return
    kept = list(spots)
    parsed = _parsed_texts(tuple(row["version"] for _, row in kept), names)
    for (index, row), spec in zip(kept, parsed, strict=True):
        yield index, row, spec


@lru_cache(maxsize=1)
def _parsed_texts(texts: tuple[str, ...], names: Naming) -> tuple[Parsed, ...]:
    """Each of a long table's version texts parsed. Every version rule reads the same table,
    one rule after the other: the last long table kept whole is parsed once however many rows
    it has (read row by row, a table longer than `parse` keeps would have each spec evicted
    before its next reading). One is kept, as `regex.syntax` keeps its last long pattern: a
    table of a 2 MiB file holds tens of thousands of parsed specs."""
    return tuple(parse(text, names) for text in texts)


def usable_rows(rows: Sequence[Any], names: Naming) -> list[Row]:
    """Rows with a usable spec: parsed, naming a package, satisfiable."""
    usable = []
    for index, data, parsed in parsed_rows(rows, names):
        spec = parsed.spec
        if spec is None or not spec.package or parsed.unsatisfiable:
            continue
        lifecycle = {}
        for name in LIFECYCLE:
            value = _set(data, name)
            if value is not None:
                canonical, _ = parse_version(value, spec.scheme)
                if canonical is not None:
                    lifecycle[name] = canonical
        usable.append(Row(index, data, spec, names.resolve(spec.package), lifecycle))
    return usable


def facts(row: Row) -> dict[str, Any]:
    """What a row says besides its versions: set lifecycle fields, status, behaviour note."""
    found: dict[str, Any] = {}
    for name in LIFECYCLE:
        if name in row.lifecycle:
            found[name] = row.key(name)
        elif _set(row.data, name):
            found[name] = _set(row.data, name)
    if _set(row.data, "status"):
        found["status"] = str(_set(row.data, "status")).lower()
    note = row.data.get("behavior_change")
    if isinstance(note, str) and normalize_phrase(note):
        found["behavior_change"] = normalize_phrase(note)
    return found


def lifecycle_text(row: Row) -> str:
    parts = [f"{name} {row.data[name]}" for name in (*LIFECYCLE, "status") if _set(row.data, name)]
    return ", ".join(parts) or "no lifecycle"


@dataclass(frozen=True)
class Redundant:
    """`narrow` adds nothing: `wide` covers its versions and says everything it says."""

    narrow: Row
    wide: Row


@dataclass(frozen=True)
class Contradiction:
    """Two rows share versions (`shared`, as a specifier) but set a lifecycle field differently."""

    first: Row
    second: Row
    shared: str


def compare(first: Row, second: Row) -> Redundant | Contradiction | None:
    """How two rows of one table relate, if it matters: one adds nothing, or they contradict.

    Rows of different packages, of different version schemes, without shared versions,
    or overlapping only partly without contradicting each other are left alone.
    """
    if first.package != second.package or type(first.spec.scheme) is not type(second.spec.scheme):
        return None
    a, b = first.spec.specifier_set, second.spec.specifier_set
    if a.is_disjoint(b):
        return None
    mine, theirs = facts(first), facts(second)
    conflict = [k for k in mine.keys() & theirs.keys() if k != "behavior_change" and mine[k] != theirs[k]]
    if conflict:
        return Contradiction(first, second, second.spec.describe(first.spec.range & second.spec.range))
    if b.is_subset(a) and theirs.items() <= mine.items():
        return Redundant(second, first)
    if a.is_subset(b) and mine.items() <= theirs.items():
        return Redundant(first, second)
    return None


def pairs(rows: Sequence[Row]) -> Iterator[tuple[Row, Row]]:
    """Each pair of rows `compare` relates, in table order: (first, second) of one package, the
    first before the second, both among the first `MOST_ROWS_COMPARED` rows of that package."""
    packages = _by_package(rows)
    place = {id(row): at for package in packages.values() for at, row in enumerate(package)}
    for row in rows:
        at = place[id(row)]
        if at < MOST_ROWS_COMPARED:
            for later in packages[row.package][at + 1 : MOST_ROWS_COMPARED]:
                yield row, later


def uncompared(rows: Sequence[Row]) -> Iterator[tuple[Row, int]]:
    """Of each package with more than `MOST_ROWS_COMPARED` rows: its first row left out of
    `pairs`, and how many rows the package has."""
    for package in _by_package(rows).values():
        if len(package) > MOST_ROWS_COMPARED:
            yield package[MOST_ROWS_COMPARED], len(package)


def _by_package(rows: Sequence[Row]) -> dict[str, list[Row]]:
    """The rows of each package, in table order."""
    packages: dict[str, list[Row]] = {}
    for row in rows:
        packages.setdefault(row.package, []).append(row)
    return packages
