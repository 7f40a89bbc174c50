"""What a lint run keeps of a large corpus is compact, and compacting it changes nothing:
shared summaries equal the originals, the cache reads back what it let go, and a run
over a generated corpus reports the same whether its records come from worker
processes, from the cache, or from entries in memory."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit.corpus import Corpus
from entrykit.lint import engine
from entrykit.lint.cache import decode, encode, encoded, shard_of
from entrykit.lint.corpus_summary import shared
from entrykit.lint.engine import check, lint, open_store
from entrykit.similarity import near_duplicates as dupes

from .conftest import REPO, TODAY, make_config

sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402

pytestmark = pytest.mark.slow

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False), st.text(max_size=4), st.binary(max_size=3)
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=3), inner, max_size=4),
    ),
    max_leaves=30,
)


def _shape(value: Any) -> Any:
    """The value with every type spelled out: equal shapes are indistinguishable values."""
    if isinstance(value, dict):
        return ("dict", [(_shape(k), _shape(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_shape(v) for v in value])
    return (type(value).__name__, repr(value))


@given(st.lists(values, min_size=1, max_size=6))
def test_shared_values_are_the_originals_in_every_type(items: list[Any]) -> None:
    pool: dict[Any, Any] = {}
    for item in items:
        assert _shape(shared(item, pool)) == _shape(item)  # not `1` for `True`, nor a tuple for a list


def test_shared_values_share_equal_texts_and_never_a_list() -> None:
    pool: dict[Any, Any] = {}
    one = shared({"id": "a/b", "aliases": [], "facts": (1, True, ("x", ("y", None)))}, pool)
    two = shared({"id": "a/" + "b", "aliases": [], "facts": (1, 1, ("x", ("y", None)))}, pool)
    assert one["id"] is two["id"] and next(iter(one)) is next(iter(two))
    assert one["facts"][2] is two["facts"][2]  # a tuple of texts: shared
    assert one["facts"] is not two["facts"] and one["facts"][1] is True and two["facts"][1] == 1
    assert one["aliases"] is not two["aliases"]  # lists are never shared: a reader could change one


@given(values)
def test_a_cache_file_written_in_pieces_is_the_file_written_whole(value: Any) -> None:
    key = b"k" * 32
    try:
        whole = encode({"v": value}, key, "env/x")
    except (TypeError, ValueError):
        return
    assert b"".join(encoded({"v": value}, key, "env/x")) == whole
    assert decode(whole, key, "env/x") == {"v": value}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """A mixed corpus above the LSH threshold, with planted near-duplicates and defects."""
    base = tmp_path_factory.mktemp("generated")
    generate.write_corpus(base / "entries", dupes.EXACT_LIMIT + 150, "yaml", 1, 0.05, "mixed", 0.02)
    return base, make_config(base)


def test_a_run_reports_the_same_from_workers_from_the_cache_and_from_memory(
    generated: tuple[Path, Any], tmp_path: Path
) -> None:
    base, config = generated
    cold = lint(None, config, TODAY, cwd=base, use_cache=True, cache_dir=tmp_path, jobs=2)
    warm = lint(None, config, TODAY, cwd=base, use_cache=True, cache_dir=tmp_path, jobs=2)
    alone = lint(None, config, TODAY, cwd=base, jobs=1)
    loaded = engine.load_plan(None, config, base)
    in_memory = check(loaded.entries, loaded.targets, config, TODAY, loaded.failures)
    codes = {d.code for d in cold.diagnostics}
    assert "ET502" in codes  # the corpus rules found something to compare
    assert cold.diagnostics == warm.diagnostics == alone.diagnostics == in_memory


def test_the_cache_reads_back_the_results_it_let_go_after_saving(generated: tuple[Path, Any], tmp_path: Path) -> None:
    base, config = generated
    lint(None, config, TODAY, cwd=base, use_cache=True, cache_dir=tmp_path, jobs=1)
    store = open_store(config, tmp_path)
    assert store is not None
    keys = sorted(store.known())
    results = {key: store.result(key) for key in keys}
    head = store.corpus()
    parts = {key: store.corpus_part(key) for key in keys}
    assert keys and any(found for found, _ in parts.values())
    store.put(keys[0], results[keys[0]], None)
    digests = {key: store.corpus_digest(key) for key in keys}
    assert all(isinstance(digest, str) for digest in digests.values())
    store.set_corpus(head["key"], digests, {k: p[0] for k, p in parts.items()}, {k: p[1] for k, p in parts.items()})
    store.save()
    assert ("res", shard_of(keys[0])) not in store._shards and not store._corpus_parts  # let go once written
    assert store.corpus()["key"] == head["key"] and {key: store.corpus_digest(key) for key in keys} == digests
    assert {key: store.corpus_part(key) for key in keys} == parts
    assert {key: store.result(key) for key in keys} == results


def test_candidate_pairs_from_kept_band_keys_equal_those_from_shingles(generated: tuple[Path, Any]) -> None:
    base, _ = generated
    corpus = Corpus(engine.load_plan(None, make_config(base), base).entries)
    entries = corpus.entries
    shingled = dupes._Shingled(entries, lambda *_: None)
    settings = dupes.Settings()
    from_keys = dupes._candidates(entries, shingled.normalized, settings, [], None, lambda *_: None)
    from_sets = set(dupes.lsh_candidates([dupes.entry_shingles(e) for e in entries], settings.candidate))
    assert len(entries) > dupes.EXACT_LIMIT and from_sets and set(from_keys) >= from_sets
    variants = set(dupes._variant_pairs(entries, dupes.VARIANT_GROUP_LIMIT))
    assert set(from_keys) == from_sets | variants
    # entries of one signature share what scoring reads of them, down to each word
    prepared = list(shingled)
    by_signature: dict[str, dupes.Prepared] = {}
    for one in prepared:
        assert by_signature.setdefault(one.normalized, one).shingles == one.shingles
    words = [w for one in prepared for w in one.words]
    assert len({id(w) for w in words}) == len(set(words))
