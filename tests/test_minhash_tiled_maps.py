"""MinHash through repeated hashes against tiled affine maps, and shingle hashes filled in where
the dict lacks them, give what the plain computation gives: every shingle hashed, an outer
product of the hashes with the maps, its minimum."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit.similarity import near_duplicates as dupes
from tests.test_near_duplicate_band_memo import _plain_hash

_WORDS = st.sampled_from(["cuda", "out", "of", "memory", "vnum", "中文", "é", "x", ""])
# lists, repeats and all (the bands fact hands a list with repeats), past the tiled bound
_SHINGLE_LISTS = st.lists(st.one_of(_WORDS, st.text(max_size=8)), max_size=150)


def _plain_minhash(shingles: list[str], num_perm: int, length: int) -> list[int]:
    """The first `length` values of the MinHash: the outer product of hashes and maps, its column minima."""
    a, b = dupes._permutations(num_perm)
    if not shingles:
        return [(1 << 32) - 1] * length
    hashes = np.array([_plain_hash(t) for t in shingles], dtype=np.uint64).reshape(-1, 1)
    images = (hashes * a.astype(np.uint64) + b.astype(np.uint64)) & np.uint64(0xFFFFFFFF)
    return [int(v) for v in images.min(axis=0)[:length]]


@given(_SHINGLE_LISTS, st.sampled_from([(128, 125), (128, 128), (64, 60)]))
def test_minhash_of_a_list_equals_the_outer_product(shingles: list[str], layout: tuple[int, int]) -> None:
    num_perm, length = layout
    ours = dupes._minhash(shingles, num_perm, length)
    assert ours.dtype == np.uint32
    assert ours.tolist() == _plain_minhash(shingles, num_perm, length)


@given(_SHINGLE_LISTS)
def test_minhash_past_a_small_tiled_bound_equals_the_outer_product(shingles: list[str]) -> None:
    # the tiles made for each call (counts past the bound) and those kept per count agree
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dupes, "TILED_MAX", 3)
        assert dupes._minhash(shingles, 128, 125).tolist() == _plain_minhash(shingles, 128, 125)


@given(_SHINGLE_LISTS, _SHINGLE_LISTS)
def test_shingle_hashes_with_repeated_new_texts_are_the_plain_hashes(first: list[str], second: list[str]) -> None:
    # a text new to the dict and repeated in one list is filled in at each of its places
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dupes, "_SHINGLE_HASHES", {})
        for shingles in (first + first, second + first, second):
            assert list(dupes._shingle_hashes(shingles)) == [_plain_hash(t) for t in shingles]
