"""Diagnostics as a report makes them from the records a run keeps: immutable and
hashable, sorted by place, and each finding's related places resolved as its own (however
many findings name the same places, and whichever file reports them)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit.diagnostic import Diagnostic, Finding, Fix, Location, Related, Severity, by_place
from entrykit.lint import engine
from entrykit.lint.records import FileRecord, RelatedPlace, StoredFinding

texts = st.text(max_size=8)
numbers = st.integers(min_value=1, max_value=50)
diagnostics = st.builds(
    Diagnostic,
    path=texts,
    line=numbers,
    col=numbers,
    code=st.sampled_from(["ET101", "ET502", "ET209"]),
    name=texts,
    severity=st.sampled_from(list(Severity)),
    message=texts,
    pointer=texts,
    related=st.lists(st.builds(Location, texts, numbers, numbers, texts), max_size=2).map(tuple),
    fix=st.none(),
)


@given(st.lists(diagnostics, max_size=8))
def test_sorting_by_place_is_sorting_by_the_sort_key(found: list[Diagnostic]) -> None:
    assert [by_place(d) for d in found] == [d.sort_key() for d in found]
    assert sorted(found, key=by_place) == sorted(found, key=Diagnostic.sort_key)


def test_a_diagnostic_is_immutable_and_hashable() -> None:
    d = Diagnostic("a.yaml", 1, 2, "ET101", "schema", Severity.ERROR, "m", "/id", (Location("b.yaml", 3, 4),))
    with pytest.raises(AttributeError):
        d.line = 5  # type: ignore[misc]
    assert {d, d._replace(related=(Location("b.yaml", 3, 4),))} == {d}
    assert d != d._replace(line=2) and hash(d) == hash(d._replace())


def _record(key: str) -> FileRecord:
    return FileRecord(key, f"shown/{key}", Path("/corpus", key), "yaml")


def _finding(*related: RelatedPlace) -> StoredFinding:
    return StoredFinding("ET502", 2, 12, "warning", "near-duplicate", "/signature", related, None)


NAMES = {"ET502": "near-duplicate-entries"}


def test_related_places_are_resolved_as_each_finding_names_them() -> None:
    """Equal related places of two files' findings: the same places when they name other
    files; the reporting file's own name when they name the file itself (key None)."""
    a, b = _record("a.yaml"), _record("b.yaml")
    shown_of = {r.key: r.shown for r in (a, b, _record("c.yaml"))}
    located: dict[tuple[RelatedPlace, ...], tuple[Location, ...]] = {}
    others = (RelatedPlace("c.yaml", 2, 12, "/signature"), RelatedPlace("b.yaml", 4, 8, "/regex"))
    own = (RelatedPlace(None, 7, 3, "/id"),)
    unknown = (RelatedPlace("gone.yaml", 1, 1, "/id"),)
    findings = [_finding(*places) for places in (others, own, unknown)]
    first = engine._diagnostics(a, findings, shown_of, NAMES, located)
    second = engine._diagnostics(b, findings, shown_of, NAMES, located)
    assert first[0].related == second[0].related == (
        Location("shown/c.yaml", 2, 12, "/signature"), Location("shown/b.yaml", 4, 8, "/regex")
    )
    assert first[0].related is second[0].related  # resolved once
    assert first[1].related == (Location("shown/a.yaml", 7, 3, "/id"),)
    assert second[1].related == (Location("shown/b.yaml", 7, 3, "/id"),)
    # a key no record has: named as the reporting file, as before there was a table
    assert first[2].related == (Location("shown/a.yaml", 1, 1, "/id"),)
    assert second[2].related == (Location("shown/b.yaml", 1, 1, "/id"),)


def test_the_table_of_resolved_places_stays_within_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "_LOCATED", 8)
    a = _record("a.yaml")
    shown_of = {"a.yaml": a.shown, "b.yaml": "shown/b.yaml"}
    located: dict[tuple[RelatedPlace, ...], tuple[Location, ...]] = {}
    for line in range(1, 30):
        (d,) = engine._diagnostics(a, [_finding(RelatedPlace("b.yaml", line, 1, "/id"))], shown_of, NAMES, located)
        assert d.related == (Location("shown/b.yaml", line, 1, "/id"),)
        assert 0 < len(located) <= 8


findings = st.builds(
    Finding,
    pointer=texts,
    message=texts,
    path=st.none() | texts,
    related=st.lists(st.builds(Related, texts, texts), max_size=2).map(tuple),
    severity=st.none() | st.sampled_from(list(Severity)),
    fix=st.none() | st.builds(Fix, texts, st.integers(), texts, st.booleans()),
    at_key=st.booleans(),
    position=st.none() | st.tuples(numbers, numbers),
)


@given(findings, texts, st.lists(st.builds(Related, texts, texts), max_size=2).map(tuple))
def test_a_pooled_corpus_finding_is_the_finding_with_the_pooled_message_and_places(
    finding: Finding, message: str, related: tuple[Related, ...]
) -> None:
    pooled = engine._pooled(finding, message, related)
    assert pooled == replace(finding, message=message, related=related)
    assert pooled.message is message and pooled.related is related
