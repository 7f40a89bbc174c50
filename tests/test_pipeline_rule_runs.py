"""The entry rules' runs are read once per checker (`pipeline._rule_runs`), a finding's
related places walked only when it has some, and a settings section read with one lookup
(`Context.read`): the findings and settings are what the plain loop and lookups gave."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from entrykit import loader
from entrykit.config import load_config
from entrykit.entry import Entry
from entrykit.lint import engine, pipeline
from entrykit.lint.records import RelatedPlace, Rerun, StoredFinding
from entrykit.registry import Context

REPO = Path(__file__).resolve().parent.parent
DAY = date(2026, 12, 5)

# An entry with findings of dated and undated rules, of a key (unknown keys) and with a related place.
_FLAWED = """id: demo/flawed
signature: "Error 7: something failed"
regex: "Error \\\\d+: something failed"
examples:
  - "Error 7: something failed"
  - "Error 7: something failed"
domain: demo
category: runtime_error
root_cause: A cause.
colour: blue
first_seen: "2030-01-01"
last_confirmed: "2020-01-01"
last_updated: "2019-01-01"
dead_ends:
  - action: Restart it
    why_fails: It comes back.
workarounds:
  - action: Restart it
    success_rate: 0.5
  - action: Restart it
    success_rate: 0.5
confidence: 1.5
"""


def _corpus(tmp_path: Path) -> Path:
    """The repository's entries and one flawed entry, copied into a corpus of their own."""
    root = tmp_path / "corpus"
    shutil.copytree(REPO / "entries", root / "entries")
    (root / "entries" / "flawed.yaml").write_text(_FLAWED, encoding="utf-8")
    return root


def _entries(root: Path) -> list[Entry]:
    config = engine.configured(load_config(root))
    out = []
    for path in sorted(root.rglob("*.yaml")):
        got = loader.load(path, str(path), config.limits, None, config.root, None, keep_nodes=True)
        assert isinstance(got, Entry)
        out.append(got)
    return out


def _plain_store(checker: pipeline.Checker, rule: Any, entry: Entry, finding: Any) -> StoredFinding:
    """`Checker._store` without its shortcut: the related places always walked."""
    place = finding.position or entry.locate(finding.pointer, at_key=finding.at_key)
    related = tuple(
        RelatedPlace(None, *entry.locate(other.pointer), other.pointer)
        for other in finding.related
        if other.path == entry.path
    )
    return StoredFinding.of(rule.code, finding, place, related, checker.config.severity(rule, finding.severity))


def _plain_findings(
    checker: pipeline.Checker, entry: Entry, rerun: Rerun
) -> tuple[list[StoredFinding], list[StoredFinding]]:
    """`Checker.findings` as it was written before its rule runs were read once: each rule
    of `checker.rules` asked of the run, one by one."""
    undated: list[StoredFinding] = []
    dated: list[StoredFinding] = []
    for rule, ctx in checker.rules:
        if rerun is Rerun.NONE or (rerun is Rerun.DATED and not rule.dated):
            continue
        assert rule.func is not None
        out = dated if rule.dated else undated
        for finding in list(rule.func(entry, ctx)):
            out.append(_plain_store(checker, rule, entry, finding))
    return undated, dated


@pytest.mark.parametrize("rerun", list(Rerun))
def test_findings_equal_the_plain_loop_over_every_rule(tmp_path: Path, rerun: Rerun) -> None:
    root = _corpus(tmp_path)
    config = engine.configured(load_config(root))
    checker = pipeline.Checker(config, DAY)
    plain = pipeline.Checker(config, DAY)
    firsts, seconds = _entries(root), _entries(root)
    got = checker.findings([(entry, rerun) for entry in firsts])
    assert got == [_plain_findings(plain, same, rerun) for same in seconds]
    kinds = {(bool(f.related), dated) for pair in got for dated, found in enumerate(pair) for f in found}
    if rerun is Rerun.ALL:  # (the corpus holds findings of every kind the loop tells apart)
        assert {(False, 0), (False, 1), (True, 0)} <= kinds
    if rerun is Rerun.NONE:
        assert not kinds


@pytest.mark.parametrize("shift", range(len(Rerun)))
def test_each_rule_over_a_batch_of_entries_asked_for_different_rules_gives_each_its_own(
    tmp_path: Path, shift: int
) -> None:
    """A batch whose entries ask for all rules, the dated ones or none (each entry each of
    them, over the shifts): each rule runs over every entry in turn, and each entry gets
    the findings the plain loop gives it alone."""
    root = _corpus(tmp_path)
    config = engine.configured(load_config(root))
    checker = pipeline.Checker(config, DAY)
    plain = pipeline.Checker(config, DAY)
    firsts, seconds = _entries(root), _entries(root)
    kinds = list(Rerun)
    reruns = [kinds[(n + shift) % len(kinds)] for n in range(len(firsts))]
    got = checker.findings(list(zip(firsts, reruns, strict=True)))
    assert got == [_plain_findings(plain, same, rerun) for same, rerun in zip(seconds, reruns, strict=True)]
    assert any(undated or dated for undated, dated in got)


def test_a_settings_section_is_read_once_and_as_the_reader_makes_it() -> None:
    calls: list[str] = []

    def reader(section: Any) -> tuple[str, ...]:
        calls.append("read")
        return tuple(sorted(section))

    def other(section: Any) -> int:
        return len(section)

    ctx = Context(today=DAY, settings={"a": {"x": 1, "y": 2}, "b": {}})
    for _ in range(3):
        assert ctx.read("a", reader) == ("x", "y")
        assert ctx.read("a", other) == 2
        assert ctx.read("b", reader) == ()
    assert calls == ["read", "read"]  # once per (section, reader)


