"""A merge groups dead ends and workarounds in work linear in the lists once the comparison
budget is spent: each group's wordings are read once as members join, and past the budget an
item finds the groups sharing its wording by lookup, not by asking every group in turn (two
entries of 2,000 workarounds each: 8M group reads, 20.7 s for `entrykit merge`). The groups,
and the budget spent, are those of the former grouping (hypothesis, budgets of every size)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.authoring import merge_items
from entrykit.authoring.merge_items import SAME_ACTION, SAME_ACTION_IN_ENTRY, Member, _group
from entrykit.similarity.actions import action_similarity
from entrykit.similarity.phrases import normalize_phrase

_ACTION = st.one_of(
    st.none(),
    st.sampled_from(
        ["Reinstall torch", "reinstall torch.", "Reinstall Torch!", "Install torch", "Upgrade pip", "upgrade pip",
         "Use a virtualenv", "Remove the cache", "delete the cache", "Run pip install torch", "Restart"]
    ),
)  # fmt: skip
_ITEMS = st.lists(_ACTION.map(lambda a: {"action": a} if a is not None else {"why_fails": "x"}), max_size=7)


def _best_as_before(action: str, members: list[Member], budget: list[int]) -> float:
    best = 0.0
    for member in members:
        other = member.action
        if other is None:
            continue
        if normalize_phrase(other) == normalize_phrase(action):
            return 1.0
        if budget[0] <= 0:
            continue
        budget[0] -= 1
        best = max(best, action_similarity(other, action))
    return best


def _own_groups_as_before(side: int, items: list[Any], budget: list[int]) -> list[list[Member]]:
    groups: list[list[Member]] = []
    for j, item in enumerate(items):
        member = Member(side, j, item)
        action = member.action
        home = None if action is None else next((g for g in groups if _best_as_before(action, g, budget) >= SAME_ACTION_IN_ENTRY), None)
        if home is None:
            groups.append([member])
        else:
            home.append(member)
    return groups


def _group_as_before(inputs: list[list[Any]], budget: list[int]) -> list[list[Member]]:
    """`merge_items._group` as it was: every group asked in turn, every member read each time."""
    groups = _own_groups_as_before(0, inputs[0], budget)
    for side in range(1, len(inputs)):
        own = _own_groups_as_before(side, inputs[side], budget)
        scored: list[tuple[float, int, int]] = []
        for j, local in enumerate(own):
            for g, members in enumerate(groups):
                score = max((_best_as_before(m.action, members, budget) for m in local if m.action is not None), default=0.0)
                if score >= SAME_ACTION:
                    scored.append((score, g, j))
        taken_groups: set[int] = set()
        placed: dict[int, int] = {}
        for _, g, j in sorted(scored, key=lambda t: (-t[0], t[1], t[2])):
            if g not in taken_groups and j not in placed:
                taken_groups.add(g)
                placed[j] = g
        for j, local in enumerate(own):
            if j in placed:
                groups[placed[j]].extend(local)
            else:
                groups.append(local)
    return groups


def _merger(inputs: list[list[Any]]) -> Any:
    """What `_group` reads of a merger."""
    data = [{"workarounds": items} for items in inputs]
    return SimpleNamespace(inputs=data, survivor=data[0])


def _shape(groups: list[list[Member]] | None) -> list[list[tuple[int, int]]]:
    return [[(m.side, m.index) for m in members] for members in groups or []]


@settings(max_examples=600, deadline=None)
@given(st.lists(_ITEMS, min_size=1, max_size=3), st.integers(0, 40))
@example([[{"action": "Upgrade pip"}, {"action": "Install torch"}], [{"action": "upgrade pip"}]], 1)
@example([[{"action": "Restart"}, {"action": "Reinstall torch"}, {"action": "reinstall torch."}], [{"action": "Reinstall Torch!"}]], 2)
def test_the_groups_and_the_budget_are_as_before(inputs: list[list[Any]], budget: int) -> None:
    before, now = [budget], [budget]
    expected = _group_as_before(inputs, before)
    assert _shape(_group(_merger(inputs), "workarounds", now)) == _shape(expected)
    assert now == before


def test_long_lists_read_linear_in_them_past_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    count = 2_000
    survivor = [{"action": f"Do thing {n} now"} for n in range(count)]
    other = [{"action": f"do thing {n} now."} for n in reversed(range(count))]  # (equal wordings, other order)
    read = [0]

    def counted(text: str) -> str:
        read[0] += 1
        return normalize_phrase(text)

    monkeypatch.setattr(merge_items, "normalize_phrase", counted)
    groups = _group(_merger([survivor, other]), "workarounds", [100])
    assert _shape(groups) == [[(0, n), (1, count - 1 - n)] for n in range(count)]
    assert read[0] <= 20 * count  # (about 8M before: each item read every group's members)
