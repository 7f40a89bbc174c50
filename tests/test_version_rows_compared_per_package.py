"""Version rows are compared per package, at most 64 rows of a package (ET404 and `merge`), so a
table of thousands of rows costs no more than thousands of rows: every row was compared with
every later row (27 s for 2,000 rows), and `merge` started its pairs over after each fold.
Below the limit, ET404's findings and a merge's table, drops and conflicts are as before."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import pointer as jp
from entrykit.authoring import merge, merge_versions
from entrykit.authoring.merge_model import value_key
from entrykit.authoring.merge_versions import _Row, canonical_row
from entrykit.versions import specifiers, table
from entrykit.versions.package_names import default_naming
from entrykit.versions.table import MOST_ROWS_COMPARED, Redundant, Row, compare, usable_rows

from .conftest import lint_corpus
from .hostile import entry_text

_SPECS = [
    "git>=2.30", "git>=2.40", "git>=2.40,<3", "git 2.x", "git>=2.20,<2.45", "python>=3.11", "cpython>=3.9",
    "python>=3.9,<3.13", "torch>=2.0", "pytorch>=2.1", "torch>=1.12,<2.3", "torch>=2.0", "not a spec !",
]  # fmt: skip
_ROW = st.fixed_dictionaries(
    {"version": st.sampled_from(_SPECS)},
    optional={
        "status": st.sampled_from(["active", "deprecated", "removed"]),
        "deprecated": st.sampled_from(["2.35", "3.10", "2.1"]),
        "behavior_change": st.sampled_from(["prints more", ""]),
    },
)
_TABLE = st.lists(_ROW, max_size=14)


def _every_pair(rows: list[Row]) -> Iterator[tuple[Row, Row]]:
    """The pairs ET404 and merge compared: every row with every later row (of any package)."""
    return ((a, b) for i, a in enumerate(rows) for b in rows[i + 1 :])


def _all_pairs_of_one_package(rows: list[Row]) -> list[tuple[Row, Row]]:
    """Of those, the pairs `compare` may relate: rows of one package."""
    return [(a, b) for a, b in _every_pair(rows) if a.package == b.package]


@settings(max_examples=500, deadline=None)
@given(_TABLE)
def test_below_the_limit_the_pairs_are_every_pair_of_one_package_in_table_order(rows: list[dict[str, Any]]) -> None:
    usable = usable_rows(rows, default_naming())
    assert list(table.pairs(usable)) == _all_pairs_of_one_package(usable)
    assert list(table.uncompared(usable)) == []


def test_past_the_limit_only_the_first_rows_of_a_package_are_paired() -> None:
    rows = [{"version": f"git>={n}.0"} for n in range(MOST_ROWS_COMPARED + 6)] + [{"version": "torch>=2.0"}, {"version": "torch>=1.0"}]
    usable = usable_rows(rows, default_naming())
    paired = list(table.pairs(usable))
    assert len(paired) == MOST_ROWS_COMPARED * (MOST_ROWS_COMPARED - 1) // 2 + 1
    assert max(b.index for _, b in paired if b.package == "git") == MOST_ROWS_COMPARED - 1
    assert [(row.index, count) for row, count in table.uncompared(usable)] == [(MOST_ROWS_COMPARED, MOST_ROWS_COMPARED + 6)]


def _counted_compares(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[int]:
    """One item for each `compare` the module makes."""
    calls: list[int] = []

    def counted(first: Row, second: Row) -> Any:
        calls.append(1)
        return compare(first, second)

    monkeypatch.setattr(module, "compare", counted)
    return calls


def test_each_pair_is_compared_once_in_a_long_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counted_compares(monkeypatch, table)
    rows = [{"version": "python>=3.6", "status": "active"} for _ in range(2_000)]
    result = lint_corpus(tmp_path, {"python/x.yaml": entry_text("python/x", versions=rows)})
    assert len(calls) == MOST_ROWS_COMPARED * (MOST_ROWS_COMPARED - 1) // 2
    found = [d for d in result.diagnostics if d.code == "ET404"]
    assert len(found) == MOST_ROWS_COMPARED  # 63 rows adding nothing, and the rows left out
    assert found[-1].message == (
        f"`python` has 2,000 version rows; only the first {MOST_ROWS_COMPARED} rows of a package are compared, "
        f"so this row and the {2_000 - MOST_ROWS_COMPARED - 1:,} after it were not checked for overlaps"
    )


def test_a_table_longer_than_the_spec_cache_is_parsed_once_per_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every version rule reads the table: read row by row through `parse`'s cache of recent
    specs, a table longer than the cache was parsed again by each rule (4,096 specs kept; here
    the cache is made 16 long, the table 200)."""
    parses: Counter[str] = Counter()
    uncached = specifiers._parse.__wrapped__

    def counted(text: str, naming: Any) -> Any:
        parses[text] += 1
        return uncached(text, naming)

    monkeypatch.setattr(specifiers, "_parse", lru_cache(maxsize=16)(counted))
    monkeypatch.setattr(specifiers, "SPECS_KEPT", 16)
    table._parsed_texts.cache_clear()
    rows = [{"version": f"python>={i}.0,<{i}.5", "status": "active"} for i in range(200)]
    result = lint_corpus(tmp_path, {"python/x.yaml": entry_text("python/x", versions=rows)})
    assert len(result.files) == 1 and not [d for d in result.diagnostics if d.code == "ET001"]
    assert len(parses) == 200 and max(parses.values()) == 1


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(_ROW, st.none(), st.just({"status": "active"}), st.just({"version": 3})), max_size=12),
    st.sampled_from([0, 3, 4096]),
)
def test_the_parsed_rows_are_each_row_parsed_alone(rows: list[Any], kept: int) -> None:
    """Short tables are read row by row, long ones whole (`kept`: the longest read row by row)."""
    names = default_naming()
    specifiers.SPECS_KEPT, former = kept, specifiers.SPECS_KEPT
    expected = [(i, row, specifiers.parse(row["version"], names)) for i, row in enumerate(rows)
                if isinstance(row, dict) and isinstance(row.get("version"), str)]
    try:
        assert list(table.parsed_rows(rows, names)) == expected
    finally:
        specifiers.SPECS_KEPT = former


# -- merge: the table, its drops and its conflicts as the former folding made them ---------------


def _former_merge_versions(merger: merge.Merger) -> None:
    """`merge_versions.merge_versions` as it was: rows written alike (that do not contradict each
    other, as now) found by a scan, the pairs
    started over after each fold (and, with `pairs` as `_every_pair`, every pair compared)."""
    merger.handled.add("versions")
    if not any("versions" in data for data in merger.inputs):
        return
    rows: list[_Row] = []
    for side, label, data in merger.sides():
        for index, row in enumerate(data.get("versions") or []):
            written = canonical_row(row, merger)
            if written is not row:
                merger.drop(label, jp.join("versions", index, "version"), row["version"], f"written in canonical form: `{written['version']}`")
            same = next(
                (
                    r for r in rows
                    if _former_same_spec(r.data, written) and side not in r.sides
                    and not merge_versions._contradict(r.data, written, merger)
                ),
                None,
            )  # fmt: skip
            if same is None:
                rows.append(_Row(written, [(side, index, row)]))
            else:
                same.data = merge_versions._merge_rows(merger, rows.index(same), same, written, side)
                same.holders.append((side, index, row))
    _former_fold(merger, rows)
    merger.out["versions"] = [r.data for r in rows]
    merge_versions._contradictions(merger, rows)
    merge_versions._place_rows(merger, rows)


def _former_fold(merger: merge.Merger, rows: list[_Row]) -> None:
    changed = True
    while changed:
        changed = False
        for first, second, a, b in merge_versions._across_inputs(merger, rows):
            relation = compare(first, second)
            if isinstance(relation, Redundant):
                narrow, wide = (a, b) if relation.narrow is first else (b, a)
                for side, index, row in narrow.holders:
                    merger.drop(
                        merger.labels[side], jp.join("versions", index), row,
                        f"`{wide.data['version']}` ({merger.labels[min(wide.sides)]}) covers its versions and says all it says",
                    )  # fmt: skip
                rows.remove(narrow)
                changed = True
                break


def _former_same_spec(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return isinstance(a.get("version"), str) and a.get("version") == b.get("version")
    return value_key(a) == value_key(b)


def _merged(tables: list[list[dict[str, Any]]]) -> tuple[Any, ...]:
    inputs = [{"id": f"git/e{n}", "signature": "fatal: x", "regex": "fatal", "versions": rows} for n, rows in enumerate(tables)]
    result = merge.merge_entries(inputs[0], inputs[1:])
    report = result.report
    return result.data.get("versions"), report.dropped, report.conflicts, report.ledger, report.notes


@settings(max_examples=300, deadline=None)
@given(st.lists(_TABLE, min_size=2, max_size=3))
def test_a_merge_of_short_tables_is_as_before(tables: list[list[dict[str, Any]]]) -> None:
    now = _merged(tables)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(merge_versions, "merge_versions", _former_merge_versions)
        patch.setattr(merge_versions, "pairs", _every_pair)
        before = _merged(tables)
    assert now == before


def test_a_merge_of_long_tables_compares_each_pair_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counted_compares(monkeypatch, merge_versions)
    wide = [{"version": f"git>={n}.0"} for n in range(40)]
    narrow = [{"version": f"git>={n}.0,<{n}.5"} for n in range(1_000)]
    versions, dropped, conflicts, *_ = _merged([wide, narrow])
    # the first 64 rows of git: the 40 wide ones and 24 narrow ones, which `git>=0.0` covers
    assert versions == wide + narrow[MOST_ROWS_COMPARED - 40 :] and not conflicts
    assert sorted(d.pointer for d in dropped) == sorted(jp.join("versions", n) for n in range(MOST_ROWS_COMPARED - 40))
    assert len(calls) == 24 + 40 * 24  # the folds, then the contradictions among the rows left
