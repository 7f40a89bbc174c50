"""Near-duplicate scoring compares two entries' workarounds in bounded work: at most
`OVERLAP_BUDGET` pairs of actions, each read up to `OVERLAP_CHARS` characters (two entries
of 2,000 workarounds each cost 4M comparisons, 16 s for a corpus of 4; two actions of 100 KB
a ratio over the product of their lengths). Within the budget the overlap is the former one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.entry import Entry
from entrykit.similarity import near_duplicates
from entrykit.similarity.near_duplicates import OVERLAP_BUDGET, OVERLAP_CHARS, workaround_overlap
from entrykit.similarity.phrases import phrase_similarity

_ACTIONS = st.lists(
    st.lists(st.sampled_from(["Install", "install", "the", "package", "pip", "-m", "venv", ".", " ", "Pip!"]), max_size=6).map(
        " ".join
    ),
    max_size=8,
)


def _entry(actions: list[str]) -> Entry:
    """An entry holding these workaround actions."""
    data = {"id": "a/x", "workarounds": [{"action": action, "success_rate": 0.5} for action in actions]}
    return Entry("x.yaml", Path("/nowhere/x.yaml"), "yaml", data, "")


def _overlap_as_before(a: list[str], b: list[str], threshold: float = 0.85) -> float:
    """`workaround_overlap` as it was: every pair compared, whole."""
    left, right = tuple(a), tuple(b)
    if not left or not right:
        return 0.0
    if len(left) > len(right):
        left, right = right, left
    return sum(1 for x in left if any(phrase_similarity(x, y) >= threshold for y in right)) / len(left)


@settings(max_examples=400, deadline=None)
@given(_ACTIONS, _ACTIONS)
@example(["Install the package"], ["install  the package."])
@example(["pip install venv"], ["pip install venvs", "x"])
def test_the_overlap_is_as_before(a: list[str], b: list[str]) -> None:
    assert len(a) * len(b) <= OVERLAP_BUDGET
    assert workaround_overlap(_entry(a), _entry(b)) == _overlap_as_before(a, b)


def _counted(monkeypatch: Any) -> list[int]:
    """The characters of each comparison `workaround_overlap` makes."""
    read: list[int] = []

    def counting(x: str, y: str) -> float:
        read.append(len(x) + len(y))
        return phrase_similarity(x, y)

    monkeypatch.setattr(near_duplicates, "phrase_similarity", counting)
    return read


def test_long_lists_cost_at_most_the_budget(monkeypatch: Any) -> None:
    read = _counted(monkeypatch)
    a = _entry([f"Do the thing number {n} now" for n in range(1_000)])
    b = _entry([f"Try {n} other ways first" for n in range(1_000)])
    assert workaround_overlap(a, b) == 0.0
    assert len(read) <= OVERLAP_BUDGET  # (1M comparisons before)


def test_long_actions_are_read_up_to_the_cap(monkeypatch: Any) -> None:
    read = _counted(monkeypatch)
    a = _entry(["alpha beta " * 10_000, "x"])
    b = _entry(["alpha beta gamma " * 7_000])
    assert workaround_overlap(a, b) == 0.0
    assert read and max(read) <= 2 * OVERLAP_CHARS  # (229,000 characters before)


def test_equal_wordings_count_past_the_budget(monkeypatch: Any) -> None:
    read = _counted(monkeypatch)
    actions = [f"Step {n}" for n in range(3 * OVERLAP_BUDGET)]
    assert workaround_overlap(_entry(actions), _entry([a.upper() + "." for a in reversed(actions)])) == 1.0
    assert not read
