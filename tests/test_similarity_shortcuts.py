"""What near-duplicate search and the action rules leave out, or bound, changes no pair, score or finding."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from entrykit.entry import Entry
from entrykit.similarity import near_duplicates as dupes

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import deadends  # noqa: E402
import generate  # noqa: E402


def _entry(data: dict[str, Any], number: int) -> Entry:
    name = f"{data.get('id') or number}.yaml"
    return Entry(name, Path("/corpus") / name, "yaml", data, "")


def _template_corpus(count: int, seed: int) -> list[Entry]:
    rng = random.Random(seed)
    return [_entry(generate.one_template_entry(n, rng), n) for n in range(count)]


def _diverse_corpus(count: int, seed: int) -> list[Entry]:
    return [_entry(data, n) for n, data in enumerate(generate.make_entries(count, seed=seed))]


def _pairs_and_counts(found: dupes.Duplicates) -> tuple[Any, ...]:
    closest = {k: [(p.a.path, p.b.path, p.score, p.reasons) for p in v] for k, v in found.closest.items()}
    return closest, found.counts


def _without_families_same_pairs(entries: list[Entry]) -> None:
    whole = dupes.find_duplicates(entries, matched=set())
    pairs_only = dupes.find_duplicates(entries, matched=set(), families=False)
    assert pairs_only.families == []
    assert _pairs_and_counts(pairs_only) == _pairs_and_counts(whole)


def test_pairs_without_families_are_the_pairs_with_them_on_generated_corpora() -> None:
    template = _template_corpus(300, seed=3)
    assert dupes.find_duplicates(template, matched=set()).families  # the corpus has families to leave out
    _without_families_same_pairs(template)
    _without_families_same_pairs(_diverse_corpus(300, seed=4))
    _without_families_same_pairs(_template_corpus(600, seed=5))  # above EXACT_LIMIT: banded candidates


def test_pairs_without_families_are_the_pairs_with_them_on_deadends(deadends_dir: Path) -> None:
    entries = [_entry(data, n) for n, data in enumerate(deadends.convert(deadends_dir))]
    _without_families_same_pairs(entries)


_SETS = st.lists(st.frozensets(st.sampled_from(["a", "b", "c", "d", "e", "a b", "id:x", "id:y"]), max_size=6), max_size=12)


@given(_SETS, st.sampled_from([0.0, 0.3, 0.5, 1.0]), st.one_of(st.none(), st.sets(st.integers(0, 12), max_size=4)))
def test_exact_pairs_are_every_pair_at_the_threshold_by_jaccard(
    sets: list[frozenset[str]], threshold: float, wanted: set[int] | None
) -> None:
    """The inlined Jaccard loop yields what comparing every pair with `_jaccard` yields, in order."""
    present = [i for i, shingles in enumerate(sets) if shingles]
    plain = [
        (i, j)
        for n, i in enumerate(present)
        for j in present[n + 1 :]
        if (wanted is None or i in wanted or j in wanted) and dupes._jaccard(sets[i], sets[j]) >= threshold
    ]
    assert list(dupes._exact_pairs(sets, present, threshold, wanted)) == plain


def test_scoring_skips_the_pairs_of_one_signature_or_one_id_as_before() -> None:
    """Entries sharing a signature, an id, an empty id or none: the pairs kept are those whose
    signatures differ and whose ids differ (or are missing), each scored as `score_pair` scores it."""
    base = {"domain": "cuda", "workarounds": [{"action": "Run it again"}]}
    made = [
        {"id": "cuda/a", "signature": "CUDA error: device-side assert triggered at kernel one"},
        {"id": "cuda/a", "signature": "CUDA error: device-side assert triggered at kernel two"},
        {"id": "cuda/b", "signature": "CUDA error: device-side assert triggered at kernel one"},
        {"signature": "CUDA error: device-side assert triggered at kernel three"},
        {"signature": "CUDA error: device-side assert triggered at kernel four"},
        {"id": "", "signature": "CUDA error: device-side assert triggered at kernel five"},
        {"id": "", "signature": "CUDA error: device-side assert triggered at kernel six"},
    ]
    entries = [Entry(f"{n}.yaml", Path(f"/corpus/{n}.yaml"), "yaml", {**base, **data}, "") for n, data in enumerate(made)]
    for same_id in (False, True):
        found = dupes.find_duplicates(entries, matched=set(), same_id=same_id, per_entry=10)
        scored = {(p.a.path, p.b.path) for pairs in found.neighbours.values() for _, p in pairs}
        for n, a in enumerate(entries):
            for b in entries[n + 1 :]:
                one = (a.id is not None and a.id == b.id) or dupes.normalize_signature(
                    a.str_field("signature") or ""
                ) == dupes.normalize_signature(b.str_field("signature") or "")
                if one:
                    assert (a.path, b.path) not in scored and (b.path, a.path) not in scored
        assert scored  # some pairs are scored at all
