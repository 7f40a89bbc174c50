"""ET501's findings point at no more than `SHOWN_PLACES` places of each other entry they name:
entries repeating one alias thousands of times gave each of their findings every place of
every entry named (4 entries of 2,000 such aliases: 24M related places, 56 s). Below the cap
the findings are those of the former rule, compared here with it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.corpus import Corpus
from entrykit.diagnostic import Finding, Related
from entrykit.entry import Entry
from entrykit.registry import Context
from entrykit.rules import identity
from entrykit.rules.identity import SHOWN_HOLDERS, SHOWN_PLACES, duplicate_id

from .conftest import lint_corpus
from .hostile import entry_text

_IDS = st.sampled_from(["a/x", "a/y", "b/x", "a/z"])


def _entry(number: int, entry_id: str | None, aliases: list[str]) -> Entry:
    """An entry of a scratch corpus, numbered by its path."""
    data: dict[str, object] = {"aliases": aliases}
    if entry_id is not None:
        data["id"] = entry_id
    return Entry(f"e{number:02}.yaml", Path(f"/nowhere/e{number:02}.yaml"), "yaml", data, "")


def _as_before(corpus: Corpus) -> Iterator[Finding]:
    """ET501 as it was: each finding points at every place of each holder it names."""
    owners: dict[str, list[tuple[int, Entry, str]]] = {}
    for number, entry in enumerate(corpus):
        for where, claimed in identity._claims(entry):
            owners.setdefault(claimed, []).append((number, entry, where))
    for claimed, holders in owners.items():
        if len(holders) < 2:
            continue
        places: dict[str, list[str]] = {}
        for _, holder, where in sorted(holders, key=lambda item: (item[0], item[2])):
            places.setdefault(holder.path, []).append(where)
        paths = list(places)
        for _, entry, where in holders:
            if len(paths) == 1:
                if where != "/id" and claimed == entry.id:
                    yield Finding(where, f"alias `{claimed}` repeats the entry's own id", path=entry.path)
                continue
            shown = [p for p in paths[: SHOWN_HOLDERS + 1] if p != entry.path][:SHOWN_HOLDERS]
            more = len(paths) - 1 - len(shown)
            names = ", ".join(shown) + (f" and {more} more" if more > 0 else "")
            related = tuple(Related(p, w) for p in shown for w in places[p])
            yield Finding(where, f"id `{claimed}` is also claimed by {names}", path=entry.path, related=related)


def _capped(finding: Finding) -> Finding:
    """The finding with the first `SHOWN_PLACES` places of each entry it names."""
    kept: list[Related] = []
    for place in finding.related:
        if sum(1 for other in kept if other.path == place.path) < SHOWN_PLACES:
            kept.append(place)
    return Finding(finding.pointer, finding.message, path=finding.path, related=tuple(kept))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.none() | _IDS, st.lists(_IDS, max_size=12)), min_size=1, max_size=7))
def test_the_findings_are_the_former_ones_with_at_most_shown_places(specs: list[tuple[str | None, list[str]]]) -> None:
    corpus = Corpus([_entry(n, entry_id, aliases) for n, (entry_id, aliases) in enumerate(specs)])
    found = list(duplicate_id(corpus, Context(date(2026, 11, 30))))
    before = list(_as_before(corpus))
    assert found == [_capped(f) for f in before]
    if all(len(places) <= SHOWN_PLACES for f in before for places in _places_by_path(f).values()):
        assert found == before


def _places_by_path(finding: Finding) -> dict[str, list[str]]:
    """The places a finding points at, by path."""
    out: dict[str, list[str]] = {}
    for place in finding.related:
        out.setdefault(place.path, []).append(place.pointer)
    return out


def test_many_repeats_of_one_alias_give_findings_linear_in_them(tmp_path: Path) -> None:
    files = {f"a/e{n}.yaml": entry_text(f"a/e{n}", aliases=["a/shared"] * 300) for n in range(3)}
    result = lint_corpus(tmp_path, files)
    found = [d for d in result.diagnostics if d.code == "ET501"]
    assert len(found) == 900  # one a claim, as before
    assert all(len(d.related) == 2 * SHOWN_PLACES for d in found)  # (600 each before: 540,000 in all)
