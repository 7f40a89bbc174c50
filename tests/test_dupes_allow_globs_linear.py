"""The near-duplicate allow list (`dupes.allow`) is matched with each glob as `linear_glob`
spells it: fnmatch looked for a `]` from each unclosed `[` to the end of the glob, so one
pattern of 24,000 `[` took 21 s. Every pattern allows the pairs fnmatch says it allows."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import globs
from entrykit.entry import Entry
from entrykit.globs import GlobSet, linear_glob
from entrykit.similarity import near_duplicates


def _entry(entry_id: str) -> Entry:
    return Entry("x.yaml", Path("/nowhere/x.yaml"), "yaml", {"id": entry_id}, "")


_GLOBS = st.text(st.sampled_from("[]!-ab*?/"), max_size=12)
_IDS = st.text(st.sampled_from("[]!-ab/"), min_size=1, max_size=6)


@settings(max_examples=800, deadline=None)
@given(st.lists(_GLOBS, max_size=3), _IDS, _IDS)
def test_a_pair_is_allowed_as_before(patterns: list[str], a: str, b: str) -> None:
    before = any(fnmatch.fnmatchcase(a, p) and fnmatch.fnmatchcase(b, p) for p in patterns)
    assert near_duplicates.allowed(_entry(a), _entry(b), GlobSet(patterns)) == before


def test_the_globs_matched_are_spelt_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[str] = []
    real = fnmatch.translate

    def recorded(pattern: str) -> str:
        handed.append(pattern)
        return real(pattern)

    monkeypatch.setattr(globs.fnmatch, "translate", recorded)
    pattern = "pip/" + "[" * 24_000
    assert not near_duplicates.allowed(_entry("pip/a"), _entry("pip/b"), GlobSet([pattern]))
    assert handed == [linear_glob(pattern)] and handed[0] == "pip/" + "[[]" * 24_000
