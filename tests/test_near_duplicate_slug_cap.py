"""Near-duplicate scoring compares two ids' slugs up to `SLUG_CHARS` characters: the Indel
ratio costs the product of their lengths (4 entries of one signature and 100 KB ids linted in
2.7 s, a 1 MB id minutes). Slugs within the cap score as before."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import rapidfuzz
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.entry import Entry
from entrykit.similarity import near_duplicates
from entrykit.similarity.near_duplicates import SLUG_CHARS, _id_similarity

_SLUGS = st.text(alphabet="abc-_.1", min_size=1, max_size=SLUG_CHARS)


def _entry(entry_id: str) -> Entry:
    return Entry("x.yaml", Path("/nowhere/x.yaml"), "yaml", {"id": entry_id}, "")


def _id_similarity_as_before(a: str, b: str) -> float:
    ids = rapidfuzz.fuzz.ratio(a.split("/")[-1], b.split("/")[-1]) / 100.0
    return ids if ids >= 0.5 else 0.0


@settings(max_examples=300, deadline=None)
@given(_SLUGS, _SLUGS)
def test_slugs_within_the_cap_score_as_before(a: str, b: str) -> None:
    assert _id_similarity(_entry(f"x/{a}"), _entry(f"y/{b}")) == _id_similarity_as_before(f"x/{a}", f"y/{b}")


def test_long_slugs_are_compared_up_to_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[int] = []

    def ratio(a: str, b: str) -> Any:
        read.append(len(a) + len(b))
        return rapidfuzz.fuzz.ratio(a, b)

    monkeypatch.setattr(near_duplicates, "rapidfuzz", SimpleNamespace(fuzz=SimpleNamespace(ratio=ratio)))
    long = "ab-c" * 25_000
    assert _id_similarity(_entry(f"x/{long}"), _entry(f"x/{long[::-1]}")) >= 0.0
    assert read == [2 * SLUG_CHARS]  # (200,000 characters before)
