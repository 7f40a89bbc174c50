"""`--add-suppressions` places a file's suppressions line by line (each trial parses the
whole file) only within a budget of characters parsed (`TRIAL_BUDGET`): a file of 1,600
findings inside multi-line values took 35 s CPU (quadratic; 400: 2.9 s). Past the budget,
the file's remaining lines are skipped, and named; below it, nothing changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.diagnostic import Diagnostic, Severity
from entrykit.lint import suppression_edits
from entrykit.lint.suppression_edits import OVER_BUDGET, TRIAL_BUDGET, plan_suppressions
from entrykit.parsing import parse_yaml

_SHOWN = "entries/pip/x.yaml"


def _entry(count: int) -> str:
    """An entry with `count` examples, each a quoted string over two lines."""
    items = "".join(f'  - "nomatch {n}\n    more"\n' for n in range(count))
    return f'id: pip/x\nsignature: "ERROR: boom"\nexamples:\n{items}'


def _findings(count: int) -> list[Diagnostic]:
    """A finding on the first line of each example."""
    return [Diagnostic(_SHOWN, 4 + 2 * n, 5, "ET203", "name", Severity.ERROR, "message") for n in range(count)]


def _planned(text: str, findings: list[Diagnostic]) -> suppression_edits.SuppressionEdits:
    return plan_suppressions(findings, {_SHOWN: (Path("/c") / _SHOWN, text)})


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 12), st.lists(st.integers(0, 11), max_size=12))
def test_below_the_budget_nothing_changes(count: int, chosen: list[int]) -> None:
    findings = [f for n, f in enumerate(_findings(count)) if n in chosen] or _findings(count)
    text = _entry(count)
    with_budget = _planned(text, findings)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(suppression_edits, "TRIAL_BUDGET", 1 << 62)
        without = _planned(text, findings)
    assert (with_budget.texts, with_budget.added, with_budget.skipped) == (without.texts, without.added, without.skipped)
    assert with_budget.added and not with_budget.skipped


def test_the_characters_parsed_are_bounded(monkeypatch: Any) -> None:
    parsed: list[int] = []
    real = suppression_edits._same_data

    def counted(text: str, original: object) -> bool:
        parsed.append(len(text))
        return real(text, original)

    monkeypatch.setattr(suppression_edits, "_same_data", counted)
    count = 3_000
    text = _entry(count)
    edits = _planned(text, _findings(count))
    # (line by line, every trial parsed the file: 6,000 parses of 100 KB)
    assert sum(parsed) <= TRIAL_BUDGET + 4 * max(parsed)
    over = [line for _, line, why in edits.skipped if why == OVER_BUDGET]
    assert over and len(over) + len(edits.added) == count
    assert parse_yaml(edits.texts[Path("/c") / _SHOWN]).data == parse_yaml(text).data
