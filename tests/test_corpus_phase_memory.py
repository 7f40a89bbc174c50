"""What the corpus phase holds of a large corpus is compact, and compacting it changes no
finding: near-duplicate search keeps each entry's shingles and names as tuples (scores
and Jaccard reasons equal those of sets), and the cache lets go of the summaries it wrote
(read back equal)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit import registry
from entrykit.corpus import Corpus
from entrykit.lint import engine
from entrykit.lint.cache import index_shard_of
from entrykit.lint.corpus_summary import summary_entry
from entrykit.lint.engine import lint, open_store
from entrykit.similarity import near_duplicates as dupes

from .conftest import REPO, TODAY, make_config

sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402

words = st.sets(st.text("abcde ", min_size=1, max_size=3), max_size=12)


@given(words, words)
def test_jaccard_of_distinct_tuples_is_that_of_sets(a: set[str], b: set[str]) -> None:
    expected = dupes._jaccard(frozenset(a), frozenset(b))
    assert dupes._jaccard(tuple(sorted(a)), tuple(sorted(b))) == expected
    assert dupes._jaccard(tuple(sorted(a)), frozenset(b)) == expected


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """A mixed corpus above the LSH threshold with many planted near-duplicates."""
    base = tmp_path_factory.mktemp("generated")
    generate.write_corpus(base / "entries", dupes.EXACT_LIMIT + 150, "yaml", 3, 0.2, "mixed", 0.02)
    return base, make_config(base)


@pytest.mark.slow
def test_prepared_tuples_hold_the_shingles_and_names_and_score_as_sets(generated: tuple[Path, Any]) -> None:
    base, config = generated
    entries = Corpus(engine.load_plan(None, config, base).entries).entries
    found = dupes.find_duplicates(entries)
    assert len(found.pairs) > 20  # the planted near-duplicates are found
    for entry, one in zip(entries, found.prepared, strict=True):
        normalized, _, _, names = dupes.profile(entry)
        assert one.shingles == tuple(sorted(dupes.signature_shingles("", normalized)))
        assert one.names == tuple(sorted(set(names)))
    number = {id(e): n for n, e in enumerate(entries)}
    similar = 0
    for pair in found.pairs:
        left, right = (dupes.signature_shingles("", dupes.profile(e)[0]) for e in (pair.a, pair.b))
        for reason in pair.reasons:
            if reason.code == "similar-signature":  # the Jaccard told is that of the two sets
                similar += 1
                told = float(re.search(r"Jaccard ([0-9.]+)", reason.text).group(1))  # type: ignore[union-attr]
                assert told == round(dupes._jaccard(left, right), 2)
        a, b = number[id(pair.a)], number[id(pair.b)]
        assert dupes.score_pair(pair.a, pair.b, None, (found.prepared[a], found.prepared[b])).score >= 0
    assert similar  # some pairs were scored from their shingles, not from one signature


@pytest.mark.slow
def test_the_cache_reads_back_the_summaries_it_let_go_after_saving(generated: tuple[Path, Any], tmp_path: Path) -> None:
    base, config = generated
    lint(None, config, TODAY, cwd=base, use_cache=True, cache_dir=tmp_path, jobs=1)
    store = open_store(config, tmp_path)
    assert store is not None
    keys = sorted(store.known())
    indexes = {key: store.index(key) for key in keys}
    assert keys and all(isinstance(index, dict) and "s" in index for index in indexes.values())
    store.put(keys[0], None, dict(indexes[keys[0]], x={**indexes[keys[0]]["x"], "late": 1}))
    store.save()
    assert ("idx", index_shard_of(keys[0])) not in store._shards  # let go once written
    assert store.index(keys[0])["x"]["late"] == 1  # type: ignore[index]
    assert {key: store.index(key) for key in keys[1:]} == {key: indexes[key] for key in keys[1:]}


@pytest.mark.slow
def test_workarounds_reach_near_duplicate_scores_through_the_fact_alone(generated: tuple[Path, Any]) -> None:
    base, config = generated
    kept: list[Any] = []
    original = engine._corpus_of

    def corpus_of(records: Any, targets: Any, root: Path) -> Corpus:
        kept.extend(records)
        return original(records, targets, root)

    engine._corpus_of = corpus_of  # type: ignore[assignment]
    try:
        result = lint(None, config, TODAY, cwd=base, jobs=2)
    finally:
        engine._corpus_of = original  # type: ignore[assignment]
    loaded = engine.load_plan(None, config, base)
    by_path = {e.path: e for e in loaded.entries}
    summaries = [r for r in kept if r.summary is not None]
    assert summaries and not any("workarounds" in r.summary for r in summaries)  # left out of what is kept
    for record in summaries:  # ... and in the fact, as the entry has them
        actions = [w["action"] for w in by_path[record.shown].list_field("workarounds") if isinstance(w, dict)]
        assert list(record.facts["dupes"][5]) == actions
    told = [d.message for d in result.diagnostics if d.code == "ET502"]
    assert any("overlapping workarounds" in m for m in told)
    # ET502 over the summaries and their facts says what it says over the entries as read
    rule = registry.get("ET502")
    ctx = registry.Context(today=TODAY, options={}, settings=config.settings, schema=config.schema, memo=registry.Memo({}))
    light = [summary_entry(r.shown, r.abspath, r.fmt, r.summary, r.facts) for r in summaries]
    whole = [by_path[r.shown] for r in summaries]
    assert rule.func is not None
    seen = [(f.path, f.message) for f in rule.func(Corpus(light), ctx)]
    assert seen == [(f.path, f.message) for f in rule.func(Corpus(whole), ctx)]
    assert sum("overlapping workarounds" in m for _, m in seen) == sum("overlapping workarounds" in m for m in told)
