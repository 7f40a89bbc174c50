"""The cheaper ways near-duplicate search and the action rules compute things give what the plain ways give."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from entrykit.entry import Entry
from entrykit.similarity import near_duplicates as dupes

# Words of a few letters, some shared, some not ASCII: shingle sets that overlap as a corpus's do.
_WORDS = st.sampled_from(["cuda", "out", "of", "memory", "vnum", "vpath", "中文", "é", "x", "error", "alpha_beta", ""])
_SHINGLES = st.frozensets(st.one_of(_WORDS, st.text(max_size=12)), max_size=60)


def _plain_minhash(shingles: Iterable[str], num_perm: int) -> Any:
    """MinHash as datasketch computes it: every shingle hashed, sorted, all `num_perm` maps."""
    values = np.full(num_perm, (1 << 32) - 1, dtype=np.uint32)
    hashed = [int.from_bytes(hashlib.sha1(t.encode("utf-8")).digest()[:4], "little") for t in sorted(shingles)]
    if not hashed:
        return values
    hv = np.array(hashed, dtype=np.uint32).reshape(-1, 1)
    hv = hv ^ (hv >> np.uint32(16))
    hv = hv * np.uint32(0x85EBCA6B)
    hv = hv ^ (hv >> np.uint32(13))
    hv = hv * np.uint32(0xC2B2AE35)
    hv = hv ^ (hv >> np.uint32(16))
    a, b = dupes._permutations(num_perm)
    return np.minimum(values, (hv * a + b).min(axis=0))


def _plain_band_keys(shingles: Iterable[str], threshold: float, num_perm: int) -> tuple[int, ...]:
    """Band keys from the whole MinHash: each band's rows times the mix, summed with wrapping."""
    bands, rows = dupes.band_layout(threshold, num_perm)
    block = np.asarray(_plain_minhash(shingles, num_perm), dtype=np.uint64)[: bands * rows].reshape(bands, rows)
    with np.errstate(over="ignore"):
        keys = (block * dupes._band_mix(rows)).sum(axis=1)
    return tuple(int(k) for k in keys)


@given(_SHINGLES, st.sampled_from([64, 128]))
def test_minhash_equals_the_plain_computation(shingles: frozenset[str], num_perm: int) -> None:
    ours = dupes.minhash(shingles, num_perm)
    assert ours.dtype == np.uint32
    assert ours.tolist() == _plain_minhash(shingles, num_perm).tolist()


@given(_SHINGLES, st.sampled_from([0.3, 0.5, 0.85]), st.sampled_from([64, 128]))
def test_band_keys_equal_the_plain_computation(shingles: frozenset[str], threshold: float, num_perm: int) -> None:
    assert dupes.band_keys(shingles, threshold, num_perm) == _plain_band_keys(shingles, threshold, num_perm)


@given(st.text(max_size=200), st.text(max_size=40))
def test_entry_band_keys_and_blob_are_the_plain_keys(signature: str, slug: str) -> None:
    entry = Entry(path="a.yaml", abspath=Path("a.yaml"), fmt="yaml", data={"id": f"d/{slug}", "signature": signature}, text="")
    expected = _plain_band_keys(dupes.entry_shingles(entry), 0.5, dupes.NUM_PERM)
    blob = dupes.entry_band_blob(entry, 0.5)
    assert blob == b"".join(k.to_bytes(8, "little") for k in expected)
    assert dupes.entry_band_keys(entry, 0.5) == expected
    assert entry.facts["bands"] == (dupes.PROFILE_VERSION, 0.5, dupes.NUM_PERM, blob)
