"""A clique's pair made without scoring (`same_signature_pair`) is the pair `score_pair` makes,
and each entry's clique count and closest pairs are those of the plain computation."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.entry import Entry
from entrykit.similarity import near_duplicates as dupes

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import deadends  # noqa: E402
import generate  # noqa: E402


def _entry(data: dict[str, Any], number: int) -> Entry:
    """An entry of `data` at a path of its own."""
    name = f"{data.get('id') or number}-{number}.yaml"
    return Entry(name, Path("/corpus") / name, "yaml", data, "")


def _plain_clique_pair(found: dupes.Duplicates, i: int, j: int) -> dupes.Pair:
    """`Duplicates.clique_pair` as it was: the two entries in key order, scored."""
    a, b = sorted((i, j), key=found.cliques.key)
    left, right = found.entries[a], found.entries[b]
    signals = dupes._Signals(same_id=found.cliques.same_id and bool(left.id) and left.id == right.id)
    return dupes.score_pair(left, right, signals, (dupes.Prepared.of(left), dupes.Prepared.of(right)))


def _plain_both(cliques: dupes._Cliques) -> Counter[tuple[str, str | None]]:
    """`_Cliques.both` as it was computed, from the entries' ids."""
    entries, normalized = cliques.entries, cliques.normalized
    return Counter((normalized[k], entries[k].id) for m in cliques.signatures.values() for k in m if entries[k].id)


def _plain_related(entries: list[Entry], i: int) -> set[int]:
    """The entries with another id that entry i lists as an alias, or that list i's id as one."""

    def aliases(entry: Entry) -> set[str]:
        return {a for a in entry.list_field("aliases") if isinstance(a, str)}

    own = entries[i].id
    return {
        k
        for k, other in enumerate(entries)
        if k != i and other.id != own and ((other.id in aliases(entries[i])) or (own and own in aliases(other)))
    }


def _plain_members(cliques: dupes._Cliques, i: int) -> list[int]:
    """The other entries of i's cliques by looking at every entry: one normalised signature
    (without i's id, unless `same_id`), or one id where `same_id`; none related."""
    entries, normalized, own = cliques.entries, cliques.normalized, cliques.entries[i].id
    related = _plain_related(list(entries), i)

    def joined(k: int) -> bool:
        other = entries[k].id
        one_signature = bool(normalized[i]) and normalized[k] == normalized[i]
        if cliques.same_id:
            return one_signature or (bool(own) and other == own)
        return one_signature and not (own and other == own)

    return sorted((k for k in range(len(entries)) if k != i and joined(k) and k not in related), key=cliques.key)


def _same_pair(got: dupes.Pair, want: dupes.Pair) -> None:
    assert (got.a, got.b, got.score, got.reasons) == (want.a, want.b, want.score, want.reasons)
    assert [type(x) for x in (got.score, *got.reasons)] == [type(x) for x in (want.score, *want.reasons)]


def _check_corpus(entries: list[Entry], same_id: bool) -> int:
    """Every clique pair, count and closest list of a search equals the plain one; how many pairs were compared."""
    found = dupes.find_duplicates(entries, matched=set(), same_id=same_id, per_entry=4, families=False)
    assert found.cliques.both == _plain_both(found.cliques)
    compared = 0
    step = 1 if len(entries) <= 600 else 7  # (the plain computations look at every entry)
    for i in range(0, len(entries), step):
        cliques = found.cliques
        plain_members = _plain_members(cliques, i)
        assert cliques.related(i) == _plain_related(entries, i)
        assert list(cliques.members(i)) == plain_members
        assert list(cliques.members(i, cliques.related(i))) == plain_members
        assert cliques.count(i, cliques.related(i)) == cliques.count(i) == len(plain_members)
        for k in plain_members[:6]:
            _same_pair(found.clique_pair(i, k), _plain_clique_pair(found, i, k))
            compared += 1
        shown = found.closest.get(i, [])
        want = [_plain_clique_pair(found, i, k) for k in plain_members[:4]]
        for got, expected in zip(shown, want, strict=False):
            _same_pair(got, expected)
    return compared


def test_clique_pairs_are_the_scored_pairs_on_a_template_corpus() -> None:
    rng = random.Random(11)
    entries = [_entry(generate.one_template_entry(n, rng), n) for n in range(500)]
    assert _check_corpus(entries, same_id=False) > 500
    assert _check_corpus(entries, same_id=True) > 500


def test_clique_pairs_are_the_scored_pairs_on_deadends(deadends_dir: Path) -> None:
    entries = [_entry(data, n) for n, data in enumerate(deadends.convert(deadends_dir))]
    assert _check_corpus(entries, same_id=False) > 0
    assert _check_corpus(entries, same_id=True) > 0


_IDS = st.sampled_from(["a/cuda-oom", "a/cuda-oom-2", "a/cuda-out-of-memory", "b/cuda-oom", "b/x", "a/zzzz", None])
_DOMAINS = st.sampled_from(["a", "b", "", None, 3])
_WORKAROUNDS = st.lists(st.sampled_from([{"action": "reduce batch size"}, {"action": "restart"}, "x"]), max_size=3)
_SIGNATURES = st.sampled_from([
    "CUDA out of memory. Tried to allocate 20.00 MiB",
    "error: file /tmp/x.txt not found at line 3",
    "KeyError: 'foo'",
])


@st.composite
def _pair_data(draw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two entries' data with one signature (so one normalised signature)."""
    signature = draw(_SIGNATURES)

    def one() -> dict[str, Any]:
        data: dict[str, Any] = {"signature": signature, "workarounds": draw(_WORKAROUNDS)}
        for key, value in (("id", draw(_IDS)), ("domain", draw(_DOMAINS))):
            if value is not None:
                data[key] = value
        return data

    return one(), one()


@settings(max_examples=300, deadline=None)
@given(_pair_data(), st.booleans())
def test_same_signature_pair_is_score_pair(data: tuple[dict[str, Any], dict[str, Any]], same_id: bool) -> None:
    a, b = _entry(data[0], 0), _entry(data[1], 1)
    same_id = same_id and bool(a.id) and a.id == b.id
    want = dupes.score_pair(a, b, dupes._Signals(same_id=same_id))
    _same_pair(dupes.same_signature_pair(a, b, same_id), want)


def test_clique_pairs_with_aliases_missing_and_repeated_ids() -> None:
    signature = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB"
    made = [
        {"id": "a/oom", "aliases": ["a/oom-old"]},
        {"id": "a/oom-old"},
        {"domain": "a"},
        {},
        {"id": "a/oom-twice", "domain": "a"},
        {"id": "a/oom-twice", "domain": "a"},
        {"id": "b/oom", "aliases": ["a/oom-twice", 3]},
        {"id": "b/other", "domain": "b"},
        {"id": "b/other", "domain": "b", "signature": "ValueError: bad value"},
        {"id": "c/apart", "signature": "KeyError: 'x'"},
        {"id": "c/apart", "signature": "KeyError: 'y'"},
    ]
    entries = [_entry({"signature": signature, **data}, n) for n, data in enumerate(made)]
    for same_id in (False, True):
        found = dupes.find_duplicates(entries, matched=set(), same_id=same_id, per_entry=10, families=False)
        assert set(found.cliques.both) == {(found.cliques.normalized[0], e.id) for e in entries[:8] if e.id}
        assert _check_corpus(entries, same_id) > 10
        for i in range(len(entries)):
            cliques = found.cliques
            members = [k for k in cliques.members(i)]
            assert found.counts.get(i, 0) == cliques.count(i) == len(members)
            assert [(p.a.path, p.b.path) for p in found.closest.get(i, [])] == [
                (x.a.path, x.b.path) for x in (_plain_clique_pair(found, i, k) for k in members)
            ]
