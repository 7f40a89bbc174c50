"""`_corpus_findings` makes each stored finding as its plain tuple at once, resolves each
pooled tuple of related places once, and decides each rule's severities once: what it
returns is what the plain computation gives (`StoredFinding.of(...).plain()` of every
finding, its related places looked up one by one)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from entrykit import registry
from entrykit.config import Config
from entrykit.diagnostic import Finding, Fix, Related, Severity
from entrykit.lint import engine
from entrykit.lint.records import FileRecord, RelatedPlace, StoredFinding

from .conftest import TODAY, make_config

_FILES = 4
_POINTERS = ["/id", "/signature", "/regex", "/aliases/0"]


def _text(number: int) -> str:
    return (
        f"id: d/e{number}\nsignature: 'Error {number}: it broke'\n"
        f"regex: 'Error \\d+: it broke'\naliases:\n  - d/alias{number}\n"
    )


def _records() -> list[FileRecord]:
    """Entries in memory, their places read from their text."""
    out = []
    for number in range(_FILES):
        text = _text(number)
        summary = {"id": f"d/e{number}", "signature": f"Error {number}: it broke", "regex": "Error \\d+: it broke",
                   "aliases": [f"d/alias{number}"]}
        key = f"d/e{number}.yaml"
        out.append(FileRecord(key, f"entries/{key}", Path(f"/corpus/{key}"), "yaml", summary=summary, text=text))
    return out


_related_one = st.builds(
    Related, st.sampled_from([f"entries/d/e{n}.yaml" for n in range(_FILES)] + ["elsewhere.yaml"]),
    st.sampled_from(_POINTERS),
)
_finding_plan = st.fixed_dictionaries({
    "file": st.integers(0, _FILES - 1),
    "pointer": st.sampled_from(_POINTERS),
    "related": st.one_of(st.integers(0, 2), st.lists(_related_one, max_size=3).map(tuple)),
    "severity": st.one_of(st.none(), st.sampled_from(list(Severity))),
    "fix": st.one_of(st.none(), st.builds(Fix, st.sampled_from(_POINTERS), st.integers(), st.text(max_size=3), st.booleans())),
    "at_key": st.booleans(),
    "position": st.one_of(st.none(), st.tuples(st.integers(1, 9), st.integers(1, 9))),
})


def _findings(plans: list[dict[str, Any]], shared: list[tuple[Related, ...]]) -> list[Finding]:
    """The findings the plans describe: a related number names one of `shared` (the same
    tuple in many findings), a tuple stands for itself (equal ones alike, or not)."""
    out = []
    for plan in plans:
        related = plan["related"]
        out.append(Finding(
            plan["pointer"], f"said of {plan['file']}", f"entries/d/e{plan['file']}.yaml",
            shared[related] if isinstance(related, int) else related,
            plan["severity"], plan["fix"], plan["at_key"], plan["position"],
        ))
    return out


def _rule(code: str, findings: list[Finding]) -> registry.Rule:
    def func(corpus: Any, ctx: Any) -> list[Finding]:
        return list(findings)

    return registry.Rule(code, code.lower(), Severity.WARNING, "corpus", func, {}, "")


def _plain_corpus_findings(
    records: list[FileRecord], rules: list[registry.Rule], config: Config
) -> tuple[dict[str, list[tuple[Any, ...]]], dict[str, list[bool | None]]]:
    """The findings as the plain computation stores them: each made a `StoredFinding` and
    read back plain, each related place looked up on its own."""
    targets = {r.shown for r in records}
    corpus = engine._corpus_of(records, targets, config.root)
    key_of = {r.shown: r.key for r in records}
    out: dict[str, list[tuple[Any, ...]]] = {}
    places: dict[str, list[bool | None]] = {}
    for rule in rules:
        assert rule.func is not None
        for finding in rule.func(corpus, None):
            entry = corpus.by_path[finding.path or ""]
            place = finding.position or entry.places([(finding.pointer, finding.at_key)])[(finding.pointer, finding.at_key)]
            related = tuple(
                RelatedPlace(key_of[o.path], *corpus.by_path[o.path].places([(o.pointer, False)])[(o.pointer, False)], o.pointer)
                for o in finding.related
                if o.path in corpus.by_path
            )
            severity = config.severity(rule, finding.severity)
            key = key_of[finding.path or ""]
            out.setdefault(key, []).append(StoredFinding.of(rule.code, finding, place, related, severity).plain())
            places.setdefault(key, []).append(None if finding.position else finding.at_key)
    return out, places


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    base = tmp_path_factory.mktemp("corpus")
    return replace(make_config(base), severities={"ET501": Severity.ERROR})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(_finding_plan, max_size=8),
    st.lists(_finding_plan, max_size=8),
    st.lists(st.lists(_related_one, min_size=1, max_size=3).map(tuple), min_size=3, max_size=3),
)
def test_corpus_findings_are_the_plain_computation(
    config: Config, monkeypatch: pytest.MonkeyPatch, first: list[dict[str, Any]], second: list[dict[str, Any]],
    shared: list[tuple[Related, ...]],
) -> None:
    records = _records()
    # two rules, one with a configured severity, naming the same related tuples
    rules = [_rule("ET209", _findings(first, shared)), _rule("ET501", _findings(second, shared))]
    monkeypatch.setattr(registry, "all_rules", lambda: rules)
    places: dict[str, list[bool | None]] = {}
    found = engine._corpus_findings(records, {r.shown for r in records}, config, TODAY, {}, places)
    expected, expected_places = _plain_corpus_findings(records, rules, config)
    assert found == expected
    assert repr(found) == repr(expected)  # plain tuples all the way down, as the cache writes them
    assert places == expected_places


def test_the_same_related_tuple_is_resolved_once_and_told_apart_from_an_equal_one(config: Config) -> None:
    records = _records()
    corpus = engine._corpus_of(records, {r.shown for r in records}, config.root)
    key_of = {r.shown: r.key for r in records}
    where = {"entries/d/e1.yaml": {("/id", False): (1, 5)}, "entries/d/e2.yaml": {("/id", False): (1, 5)}}
    resolved = engine._Resolved(corpus.by_path, key_of, where)
    one = (Related("entries/d/e1.yaml", "/id"),)
    assert resolved.of(one) == (("d/e1.yaml", 1, 5, "/id"),)
    assert resolved.of(one) is resolved.of(one)
    other = (Related("entries/d/e2.yaml", "/id"), Related("outside.yaml", "/id"))
    assert resolved.of(other) == (("d/e2.yaml", 1, 5, "/id"),)


def test_severities_are_decided_per_rule_and_per_finding(config: Config) -> None:
    plain = _rule("ET209", [])
    overridden = _rule("ET501", [])
    of_plain, of_overridden = engine._SeverityOf(config, plain), engine._SeverityOf(config, overridden)
    for found in [None, *Severity]:
        assert of_plain[found] == config.severity(plain, found).value
        assert of_overridden[found] == config.severity(overridden, found).value
    assert of_overridden[Severity.INFO] == "error" and of_plain[Severity.INFO] == "info"
