"""Merge version rows through the version algebra, so a merge never adds an ET401/ET404/ET405 finding.

Every row is read as ET401 reads it and written in canonical form with the package's
canonical name (`pytorch>=2.0` -> `torch>=2.0`; a spec whose canonical form would be a
guess, such as `torch 2.0`, stays as written). Rows with the same spec become one row,
field by field, unless they contradict each other: a row is one claim, and `status`
of one row beside `removed` of the other would be a claim neither input made (ET403).
A row of one input that another input's row covers, saying nothing that row does not
(`cuda>=12.0,<13.0` beside `cuda>=11.0`, `rustc>=1.60` beside `rust>=1.70,<2.0`), is
folded into it. Rows of different inputs that share versions but set a lifecycle field
differently are a `version` conflict. Rows of one input are never compared with each
other: what the input already says is not the merge's to change.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from entrykit import pointer as jp
from entrykit.authoring.merge_model import (
    KEEP_BOTH,
    SKIP,
    Conflict,
    Option,
    value_key,
)
from entrykit.versions.specifiers import normalize, parse
from entrykit.versions.table import Contradiction, Redundant, Row, compare, pairs, usable_rows

if TYPE_CHECKING:
    from entrykit.authoring.merge import Merger


@dataclass
class _Row:
    """A row of the merged table and the input rows it holds."""

    data: Any
    holders: list[tuple[int, int, Any]]  # (input, index, original row)

    @property
    def sides(self) -> set[int]:
        return {side for side, _, _ in self.holders}


def canonical_row(row: Any, merger: Merger) -> Any:
    """The row with its `version` in canonical form, when that form is no guess."""
    if not isinstance(row, dict) or not isinstance(row.get("version"), str):
        return row
    parsed = parse(row["version"], merger.naming)
    if parsed.unsatisfiable or parsed.guessed:
        return row
    canonical = normalize(row["version"], merger.naming)
    return row if canonical is None or canonical == row["version"] else {**row, "version": canonical}


def merge_versions(merger: Merger) -> None:
    merger.handled.add("versions")
    if not any("versions" in data for data in merger.inputs):
        return
    rows: list[_Row] = []
    alike: dict[str, list[int]] = {}  # a spec's key -> where the rows of that spec are in `rows`
    for side, label, data in merger.sides():
        for index, row in enumerate(data.get("versions") or []):
            written = canonical_row(row, merger)
            if written is not row:
                merger.drop(label, jp.join("versions", index, "version"), row["version"], f"written in canonical form: `{written['version']}`")
            key = _spec_key(written)
            places = alike.setdefault(key, []) if key is not None else []
            at = next(
                (at for at in places if side not in rows[at].sides and not _contradict(rows[at].data, written, merger)),
                None,
            )
            if at is None:
                places.append(len(rows))
                rows.append(_Row(written, [(side, index, row)]))
            else:
                same = rows[at]
                same.data = _merge_rows(merger, at, same, written, side)
                same.holders.append((side, index, row))
    _fold(merger, rows)
    merger.out["versions"] = [r.data for r in rows]
    _contradictions(merger, rows)
    _place_rows(merger, rows)


def _place_rows(merger: Merger, rows: list[_Row]) -> None:
    """Where each input's row went in the merged table, and what of it the merged row does not keep."""
    for at, merged in enumerate(rows):
        for position, (side, index, row) in enumerate(merged.holders):
            label = merger.labels[side]
            merger.place(label, "version", jp.join("versions", index), row, jp.join("versions", at), merged=position > 0)
            if value_key(row) != value_key(merged.data) and isinstance(row, dict):
                for key, value in row.items():
                    if key != "version" and value_key(merged.data.get(key, SKIP)) != value_key(value) and value not in (None, ""):
                        merger.drop(label, jp.join("versions", index, key), value, f"versions/{at} keeps another `{key}`")


def _spec_key(row: Any) -> str | None:
    """What rows written alike share: the `version` text of a row, the whole value of anything
    else; None for a row without a `version` text (alike with none)."""
    if isinstance(row, dict):
        version = row.get("version")
        return "version\0" + version if isinstance(version, str) else None
    return "value\0" + value_key(row)


def _contradict(kept: Any, row: Any, merger: Merger) -> bool:
    """Whether two rows of one spec set a lifecycle field or `status` differently: a `version`
    conflict between whole rows (`_contradictions`), not values to settle field by field."""
    if not isinstance(kept, dict) or not isinstance(row, dict):
        return False
    table = usable_rows([kept, row], merger.naming)
    return len(table) == 2 and isinstance(compare(*table), Contradiction)


def _merge_rows(merger: Merger, at: int, kept: _Row, row: Any, side: int) -> Any:
    if not isinstance(kept.data, dict) or not isinstance(row, dict):
        return kept.data
    merged = dict(kept.data)
    holder = merger.labels[min(kept.sides)]
    for key, value in row.items():
        merged[key] = merger.settle(jp.join("versions", at, key), [(holder, merged.get(key, SKIP)), (merger.labels[side], value)])[1]
    return merged


def _across_inputs(merger: Merger, rows: list[_Row]) -> Iterator[tuple[Row, Row, _Row, _Row]]:
    """Each pair of usable rows `version_table.pairs` gives (in table order) that no one input
    holds both of, with the rows of the merged table they stand for."""
    table = usable_rows([r.data for r in rows], merger.naming)
    for first, second in pairs(table):
        a, b = rows[first.index], rows[second.index]
        if not a.sides & b.sides:
            yield first, second, a, b


def _fold(merger: Merger, rows: list[_Row]) -> None:
    """Fold rows another input's row makes redundant. Pairs are visited once, in order: a fold
    changes no other pair's relation, so starting over after it would find the same folds."""
    folded: set[int] = set()  # id() of the rows folded away
    for first, second, a, b in _across_inputs(merger, rows):
        if id(a) in folded or id(b) in folded:
            continue
        relation = compare(first, second)
        if isinstance(relation, Redundant):
            narrow, wide = (a, b) if relation.narrow is first else (b, a)
            for side, index, row in narrow.holders:
                merger.drop(
                    merger.labels[side], jp.join("versions", index), row,
                    f"`{wide.data['version']}` ({merger.labels[min(wide.sides)]}) covers its versions and says all it says",
                )  # fmt: skip
            folded.add(id(narrow))
    rows[:] = [r for r in rows if id(r) not in folded]


def _contradictions(merger: Merger, rows: list[_Row]) -> None:
    for first, second, a, b in _across_inputs(merger, rows):
        relation = compare(first, second)
        if not isinstance(relation, Contradiction):
            continue
        pointer = jp.join("versions", second.index)
        about = (
            f"`{first.spec}` and `{second.spec}` disagree on `{relation.shared}`: keep the row of "
            "one input, or `both` (then make their ranges meet without overlapping)"
        )
        options = (
            Option(merger.labels[min(a.sides)], a.data, tuple(merger.labels[s] for s in sorted(a.sides))),
            Option(merger.labels[min(b.sides)], b.data, tuple(merger.labels[s] for s in sorted(b.sides))),
            Option(KEEP_BOTH, None),
        )
        merger.decide(Conflict(pointer, "version", options, about))
        merger.version_conflicts.append((pointer, first.index, second.index))


def apply_version_choices(merger: Merger) -> None:
    """Remove the row a version conflict's choice drops (after every pointer was named)."""
    removals: set[int] = set()
    for pointer, first, second in merger.version_conflicts:
        resolution = merger.report.resolutions.get(pointer)
        if resolution is None or resolution.choice in (KEEP_BOTH, "edit"):
            if resolution is not None and resolution.choice == "edit":
                merger.note(f"{pointer}: a version conflict cannot be edited; both rows are kept")
            continue
        rows = merger.out["versions"]
        keep = first if value_key(rows[first]) == value_key(resolution.value) else second
        removals.add(second if keep == first else first)
    for index in sorted(removals, reverse=True):
        merger.out["versions"].pop(index)
        merger.forget_item({"versions"}, index, "a version conflict kept the other row", lambda _: True)
