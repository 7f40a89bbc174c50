"""A merge looks for role conflicts (one action a dead end in one input, a workaround in
another) among at most `ROLE_VISITS` item pairs: every dead-end group was read against every
workaround group, the product of the lists (two entries of 2,000 of each: 16M pairs, 46 s for
`entrykit merge`). Below the cap the pairs found, and the budget spent, are the former ones."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.authoring import merge_items
from entrykit.authoring.merge_items import SAME_ACTION, Member, _alike, _condition, _roles
from entrykit.similarity.phrases import normalize_phrase

_ITEM = st.fixed_dictionaries(
    {"action": st.sampled_from(["Reinstall torch", "reinstall torch.", "Install torch", "Upgrade pip", "Restart"])},
    optional={"condition": st.sampled_from(["", "on Windows", "on windows.", "in CI"])},
)
_GROUPS = st.lists(st.lists(st.tuples(st.integers(0, 2), _ITEM), min_size=1, max_size=3), max_size=5)


def _roles_as_before(dead: list[list[Member]], work: list[list[Member]], budget: list[int]) -> list[tuple[int, int]]:
    """`merge_items._roles` without its cap: every pair of every two groups, and for each
    pair that scores, the other role's items of each side's own input."""
    scored: list[tuple[float, int, int]] = []
    for d, dead_members in enumerate(dead):
        for w, work_members in enumerate(work):
            best = 0.0
            for x in dead_members:
                for y in work_members:
                    if x.side == y.side or x.action is None or y.action is None:
                        continue
                    if _condition(x.item) and _condition(y.item) and _condition(x.item) != _condition(y.item):
                        continue
                    score = _alike(x.action, y.action, budget)
                    if score < SAME_ACTION or score <= best:
                        continue
                    if any(_alike(y.action, m.action, budget) >= score for m in work_members if m.side == x.side):
                        continue  # x's own input holds y's action as a workaround too
                    if any(_alike(x.action, m.action, budget) >= score for m in dead_members if m.side == y.side):
                        continue  # y's own input holds x's action as a dead end too
                    best = score
            if best >= SAME_ACTION:
                scored.append((best, d, w))
    pairs: list[tuple[int, int]] = []
    used_d: set[int] = set()
    used_w: set[int] = set()
    for _, d, w in sorted(scored, key=lambda t: (-t[0], t[1], t[2])):
        if d not in used_d and w not in used_w:
            used_d.add(d)
            used_w.add(w)
            pairs.append((d, w))
    return sorted(pairs)


def _members(groups: list[list[tuple[int, dict[str, str]]]]) -> list[list[Member]]:
    return [[Member(side, n, item) for n, (side, item) in enumerate(group)] for group in groups]


@settings(max_examples=500, deadline=None)
@given(_GROUPS, _GROUPS, st.integers(0, 30))
def test_the_role_pairs_and_the_budget_are_as_before(dead: Any, work: Any, budget: int) -> None:
    before, now = [budget], [budget]
    expected = _roles_as_before(_members(dead), _members(work), before)
    assert _roles(Any, _members(dead), _members(work), now) == expected
    assert now == before


def test_long_lists_look_at_no_more_than_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(merge_items, "ROLE_VISITS", 10_000, raising=False)
    read = [0]

    def counted(text: str) -> str:
        read[0] += 1
        return normalize_phrase(text)

    monkeypatch.setattr(merge_items, "normalize_phrase", counted)
    dead = [[Member(0, n, {"action": f"Try thing {n}"})] for n in range(1_000)]
    work = [[Member(1, n, {"action": f"Do other {n}"})] for n in range(1_000)]
    assert _roles(Any, dead, work, [0]) == []
    assert read[0] <= 4 * 10_000  # (2M before: two phrases for each of the 1M pairs)
