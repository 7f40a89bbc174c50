"""ET502 names each other entry through one tuple of related places, shared by every
finding that names it, says each message through one text, shared by every finding that
says it, and tells each pair's reasons once for pairs that share them: its findings are
those the plain loop over the pairs makes."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import registry
from entrykit.corpus import Corpus
from entrykit.diagnostic import Finding, Related
from entrykit.entry import Entry
from entrykit.loader import discover, load
from entrykit.regex.runner import RegexSettings
from entrykit.rules import identity
from entrykit.similarity import near_duplicates as dupes

from .conftest import REPO, TODAY, make_config

sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402

ET502 = next(r for r in registry.all_rules() if r.code == "ET502")


def _entries(count: int, seed: int, templated: bool) -> list[Entry]:
    """Generated entries in memory: of one message template, or of many."""
    rng = random.Random(seed)
    make = generate.one_template_entry if templated else generate.make_entry
    data = [make(n, rng) for n in range(count)]
    return [Entry(f"e/{n:04d}.yaml", Path(f"/c/e/{n:04d}.yaml"), "yaml", d, "") for n, d in enumerate(data)]


def _context(max_pairs: int) -> registry.Context:
    config = make_config(Path("/nowhere"))
    return registry.Context(
        today=TODAY, options={"max_pairs": max_pairs}, settings=config.settings, schema=config.schema,
        memo=registry.Memo({}),
    )


def _plain(corpus: Corpus, ctx: registry.Context) -> list[Finding]:
    """ET502's findings made the plain way: a new tuple of related places for each finding."""
    regex = ctx.read("regex", RegexSettings.of)
    matched = dupes.regex_matches(corpus.entries, regex.flags, regex.mode, regex.runner(), corpus.memo, corpus.focus)
    limit = max(1, int(ctx.options.get("max_pairs", dupes.PER_ENTRY)))
    found = dupes.find_duplicates(
        corpus.entries, identity.duplicate_settings(ctx), matched=matched, focus=corpus.focus, per_entry=limit,
        families=False,
    )
    out: list[Finding] = []
    for number in sorted(found.closest):
        this = corpus.entries[number]
        more = found.more(number)
        for pair in found.closest[number]:
            other = pair.b if pair.a is this else pair.a
            why = ", ".join(r.text for r in pair.reasons)
            message = f"entry looks like a near-duplicate of `{other.id or other.path}` (score {pair.score:.2f}: {why})"
            out.append(Finding("/signature", message, path=this.path, related=(Related(other.path, "/signature"),)))
        if more > 0:
            s = "y" if more == 1 else "ies"
            message = f"entry looks like a near-duplicate of {more} more entr{s}; `entrykit dupes` lists them"
            out.append(Finding("/signature", message, path=this.path))
    return out


@settings(max_examples=6, deadline=None)
@given(st.integers(20, 160), st.integers(0, 10_000), st.booleans(), st.integers(1, 4))
def test_findings_are_the_plain_ones_with_one_tuple_per_entry_named(
    count: int, seed: int, templated: bool, max_pairs: int
) -> None:
    entries = _entries(count, seed, templated)
    assert ET502.func is not None
    got = list(ET502.func(Corpus(list(entries)), _context(max_pairs)))
    assert got == _plain(Corpus(list(entries)), _context(max_pairs))
    by_other: dict[Any, tuple[Related, ...]] = {}
    by_message: dict[str, str] = {}
    for finding in got:
        if finding.related:
            assert by_other.setdefault(finding.related, finding.related) is finding.related
        assert by_message.setdefault(finding.message, finding.message) is finding.message


def test_a_template_corpus_names_entries_through_shared_tuples() -> None:
    entries = _entries(150, 7, templated=True)
    assert ET502.func is not None
    got = list(ET502.func(Corpus(entries), _context(3)))
    named = [f.related for f in got if f.related]
    assert len(named) > len({id(r) for r in named}) > 0  # some entry is named by several findings
    said = [f.message for f in got]
    assert len(said) > len({id(m) for m in said}) == len(set(said))  # some message is said several times, through one text
    assert got == _plain(Corpus(entries), _context(3))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_corpus_of_planted_duplicates_gives_each_pair_its_own_reasons(tmp_path: Path, seed: int) -> None:
    out = tmp_path / "entries"
    generate.write_corpus(out, 120, "yaml", seed, 0.3, "mixed")
    entries = [load(path, str(path)) for path in discover([out])]
    assert ET502.func is not None
    got = list(ET502.func(Corpus(entries), _context(3)))
    assert len({f.message.split(" (score ")[-1] for f in got}) > 2  # pairs of several reasons
    assert got == _plain(Corpus(entries), _context(3))
