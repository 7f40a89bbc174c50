"""What near-duplicate search and the action rules leave out, or bound, changes no pair, score or finding."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

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
