"""The bands fact's shortcuts (shingle hashes kept in a dict, band keys remembered per signature
and id words) give what the plain computation gives."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit.entry import Entry
from entrykit.similarity import near_duplicates as dupes

_WORDS = st.sampled_from(["cuda", "out", "of", "memory", "vnum", "vpath", "中文", "é", "x", "error", "alpha_beta", ""])
_TEXTS = st.lists(st.one_of(_WORDS, st.text(max_size=12)), max_size=40)


def _plain_hash(text: str) -> int:
    """datasketch's hash of one shingle: SHA-1's first four bytes, little-endian, then MurmurHash3's finalizer."""
    h = int.from_bytes(hashlib.sha1(text.encode("utf-8")).digest()[:4], "little")
    for shift, factor in ((16, 0x85EBCA6B), (13, 0xC2B2AE35)):
        h = ((h ^ (h >> shift)) * factor) & 0xFFFFFFFF
    return h ^ (h >> 16)


def _entry(signature: str, entry_id: str) -> Entry:
    return Entry(path="a.yaml", abspath=Path("a.yaml"), fmt="yaml", data={"id": entry_id, "signature": signature}, text="")


@given(_TEXTS, _TEXTS)
def test_shingle_hashes_are_the_plain_hashes(first: list[str], second: list[str]) -> None:
    # the second list repeats some texts of the first: those are read from the dict
    for shingles in (first, second + first[:3], first):
        assert list(dupes._shingle_hashes(shingles)) == [_plain_hash(t) for t in shingles]


@given(_TEXTS, _TEXTS)
def test_shingle_hashes_past_the_bound_are_the_plain_hashes(first: list[str], second: list[str]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dupes, "SHINGLE_HASHES_KEPT", 5)
        patch.setattr(dupes, "_SHINGLE_HASHES", {})
        for shingles in (first, second, first + second):
            before = len(dupes._SHINGLE_HASHES)
            assert list(dupes._shingle_hashes(shingles)) == [_plain_hash(t) for t in shingles]
            # the dict grows past the bound only by one call's shingles, all of them new then
            assert len(dupes._SHINGLE_HASHES) <= max(before, 5, len(set(shingles)))


@given(st.text(max_size=120), st.text(max_size=20), st.text(max_size=20), st.sampled_from([0.3, 0.5]))
def test_band_blobs_of_entries_sharing_words_are_each_their_plain_blob(
    signature: str, slug: str, other_slug: str, threshold: float
) -> None:
    # one template's entries: the same signature and id words, the blob remembered for the second
    for entry in (_entry(signature, f"d/{slug}"), _entry(signature, f"d/{slug}-7"), _entry(signature, f"d/{other_slug}")):
        keys = dupes.band_keys(sorted(dupes.entry_shingles(entry)), threshold)
        assert dupes.entry_band_blob(entry, threshold) == b"".join(k.to_bytes(8, "little") for k in keys)
        assert dupes.band_keys(list(dupes.entry_shingles(entry)), threshold) == keys
