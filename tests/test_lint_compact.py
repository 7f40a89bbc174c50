"""What a run keeps of a large corpus for its corpus phase and its report is compact, and
reads as the full form: diagnostics made as they are read equal the list, a summary
without its empty lists gives the corpus rules' findings of the whole entry, candidate
pairs kept as integer codes are the pairs, findings sharing their texts are equal."""

from __future__ import annotations

import io
import itertools
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit import registry
from entrykit.corpus import Corpus
from entrykit.diagnostic import Finding, Severity, Tally, tally
from entrykit.lint import engine
from entrykit.lint.corpus_summary import summarize, summary_entry
from entrykit.lint.records import StoredFinding, shared_findings
from entrykit.lint.reporters import REPORTERS, ReportOptions, summary_line, summary_style
from entrykit.similarity import near_duplicates as dupes

from .conftest import REPO, TODAY, make_config

sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """A mixed corpus above the LSH threshold, with planted near-duplicates and defects."""
    base = tmp_path_factory.mktemp("generated")
    root = base / "entries"
    generate.write_corpus(root, dupes.EXACT_LIMIT + 100, "yaml", 3, 0.05, "mixed", 0.02)
    first = sorted(root.rglob("*.yaml"))[0]
    (first.parent / f"{first.stem}-again.yaml").write_text(first.read_text())  # one id twice: ET501
    (first.parent / "broken.yaml").write_text("id: [unclosed\n")  # ET001
    return base, make_config(base)


@pytest.mark.slow
def test_diagnostics_made_as_they_are_read_are_the_sorted_list(generated: tuple[Path, Any], tmp_path: Path) -> None:
    base, config = generated
    result = engine.lint(None, config, TODAY, cwd=base, jobs=2)
    lazy = result.diagnostics
    assert isinstance(lazy, engine.Diagnostics)
    made = list(lazy)
    assert made and made == sorted(made, key=lambda d: d.sort_key())
    assert list(lazy) == made and len(lazy) == len(made)  # read again: the same
    assert lazy == made and made == lazy and lazy != made[:-1]
    assert {d.code for d in made} >= {"ET502", "ET001"}  # corpus findings and load failures merge in
    loaded = engine.load_plan(None, config, base)
    assert lazy == engine.check(loaded.entries, loaded.targets, config, TODAY, loaded.failures)
    for name, reporter in REPORTERS.items():  # every report of it is the report of the list
        options = ReportOptions(cwd=base, base=base)
        of_lazy, of_list = io.StringIO(), io.StringIO()
        reporter(lazy, registry.all_rules(), of_lazy, options)
        reporter(made, registry.all_rules(), of_list, options)
        assert of_lazy.getvalue() == of_list.getvalue(), name
    assert lazy[0] == made[0] and lazy[-3:] == made[-3:]
    # the counts a run's diagnostics carry are those of the list, and so is what reads them
    assert lazy.tally == Tally.of(made) and tally(lazy) == tally(made)
    assert len(lazy.tally.severities) >= 2 and lazy.tally.files > 1
    assert summary_line(lazy, 9) == summary_line(made, 9) and summary_style(lazy) == summary_style(made)


def test_a_run_without_diagnostics_reads_as_an_empty_list(tmp_path: Path) -> None:
    (tmp_path / "entries" / "git").mkdir(parents=True)
    clean = "git/ambiguous-argument.yaml"
    (tmp_path / "entries" / clean).write_text((REPO / "entries" / clean).read_text())
    result = engine.lint(None, make_config(tmp_path), TODAY, cwd=tmp_path)
    assert len(result.diagnostics) == 0 and not result.diagnostics and result.diagnostics == []
    out = io.StringIO()
    REPORTERS["json"](result.diagnostics, registry.all_rules(), out)
    assert out.getvalue() == "[]\n"


def _corpus_findings(entries: list[Any]) -> list[tuple[Any, ...]]:
    corpus = Corpus(entries)
    out = []
    for rule in registry.all_rules():
        if rule.scope != "corpus" or rule.func is None:
            continue
        ctx = registry.Context(today=date.fromisoformat("2026-11-30"), options={}, settings={}, memo=registry.Memo({}))
        for f in rule.func(corpus, ctx):
            out.append((rule.code, f.path, f.pointer, f.message, tuple((r.path, r.pointer) for r in f.related)))
    return sorted(out)


@pytest.mark.slow
def test_corpus_rules_find_the_same_in_compact_summaries_as_in_whole_entries(generated: tuple[Path, Any]) -> None:
    base, config = generated
    whole = engine.load_plan(None, config, base).entries
    # empty lists of every kind the summary leaves out, on some entries
    for entry in whole[::7]:
        entry.data.setdefault("aliases", [])
        entry.data.setdefault("examples", [])
        entry.data.setdefault("transition_graph", {"leads_to": [], "preceded_by": []})
    summaries = [summary_entry(e.path, e.abspath, e.fmt, summarize(e.data), {}, e.text) for e in whole]
    assert sum("transition_graph" not in s.data for s in summaries) > sum("transition_graph" not in e.data for e in whole)
    found = _corpus_findings(whole)
    assert {f[0] for f in found} >= {"ET501", "ET502"}
    assert _corpus_findings(summaries) == found


def test_a_summary_leaves_out_only_empty_lists() -> None:
    data = {
        "id": "a/b",
        "aliases": [],
        "examples": ["x"],
        "counterexamples": [],
        "signature": "s",
        "transition_graph": {"leads_to": [], "preceded_by": ["a/c"], "frequently_confused_with": []},
        "root_cause": "not read by corpus rules",
    }
    assert summarize(data) == {
        "id": "a/b", "examples": ["x"], "signature": "s", "transition_graph": {"preceded_by": ["a/c"]}
    }
    assert "transition_graph" not in summarize({"transition_graph": {"leads_to": [], "preceded_by": []}})
    assert summarize({"transition_graph": {}}) == {}
    # what is not a list of nothing stays as it is: a rule may have something to say of it
    odd = {"aliases": None, "transition_graph": {"leads_to": None}, "examples": {}}
    assert summarize(odd) == {"aliases": None, "transition_graph": {"leads_to": None}, "examples": {}}
    assert summarize({"transition_graph": "x/y"}) == {"transition_graph": "x/y"}


def _buckets(matrix: Any, present: list[int]) -> set[tuple[int, int]]:
    """The pairs sharing a band key, the long way: every bucket of every band."""
    pairs: set[tuple[int, int]] = set()
    for band in range(matrix.shape[1]):
        bucket: dict[int, list[int]] = {}
        for row, entry in enumerate(present):
            bucket.setdefault(int(matrix[row, band]), []).append(entry)
        for members in bucket.values():
            members.sort()
            if len(members) > dupes.BUCKET_LIMIT:
                pairs.update(itertools.pairwise(members))
            else:
                pairs.update(itertools.combinations(members, 2))
    return pairs


@given(
    st.lists(st.lists(st.integers(0, 3), min_size=3, max_size=3), min_size=0, max_size=40),
    st.integers(0, 5),
)
def test_candidate_codes_are_the_pairs_sharing_a_band(rows: list[list[int]], gap: int) -> None:
    numpy = pytest.importorskip("numpy")
    matrix = numpy.array(rows, dtype=numpy.uint64).reshape(len(rows), 3)
    present = [n * (gap + 1) for n in range(len(rows))]  # entries without shingles between them
    total = present[-1] + 1 if present else 1
    codes = dupes._band_codes(matrix, present, total).tolist()
    assert codes == sorted(set(codes))
    assert {divmod(code, total) for code in codes} == _buckets(matrix, present)


def test_candidate_codes_chain_a_bucket_past_its_limit() -> None:
    numpy = pytest.importorskip("numpy")
    size = dupes.BUCKET_LIMIT + 2
    matrix = numpy.zeros((size, 1), dtype=numpy.uint64)
    present = list(range(size))
    codes = dupes._band_codes(matrix, present, size).tolist()
    assert [divmod(code, size) for code in codes] == list(itertools.pairwise(present))


def test_findings_sharing_their_texts_are_the_findings() -> None:
    def made(n: int) -> StoredFinding:
        code, severity, pointer = ("ET" + str(300 + n % 2)), "warn" + "ing", "/work" + f"arounds/{n % 3}"
        return StoredFinding.of(code, Finding(pointer, f"message {n}"), (n, 1), (), Severity(severity))

    findings = [made(n) for n in range(12)]
    pool: dict[Any, Any] = {}
    kept = shared_findings(findings, pool)
    assert kept == findings
    assert len({id(f.code) for f in kept}) == 2 and len({id(f.pointer) for f in kept}) == 3
    assert len({id(f.severity) for f in kept}) == 1
    again = shared_findings([made(n) for n in range(12)], pool)  # said again of other files
    assert again == findings and all(a is b for a, b in zip(again, kept, strict=True))
