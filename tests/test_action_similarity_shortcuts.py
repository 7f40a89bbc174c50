"""Shortcuts of action similarity give what the plain computations give: `_opposed` answers
at once where one side names no contrast word, and `action_similarity` sorts the second
action's code once."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.similarity import actions
from entrykit.similarity.phrases import normalize_phrase

_SIDES = st.frozensets(st.tuples(st.integers(0, 3), st.integers(0, 1)), max_size=4)


def _opposed_by_every_contrast(a: frozenset[tuple[int, int]], b: frozenset[tuple[int, int]]) -> bool:
    for index in {i for i, _ in a | b}:
        for side in (0, 1):
            mine, theirs = (index, side), (index, 1 - side)
            if mine in a and theirs not in a and theirs in b and mine not in b:
                return True
    return False


@settings(max_examples=300, deadline=None)
@given(_SIDES, _SIDES)
def test_opposed_is_what_reading_every_contrast_gives(a: frozenset[tuple[int, int]], b: frozenset[tuple[int, int]]) -> None:
    assert actions._opposed(a, b) == _opposed_by_every_contrast(a, b)


def _similarity_as_it_was(a: str, b: str) -> float:
    """`action_similarity` with the second action's code sorted anew for each of the first's."""
    left, right = actions.action_tokens(a), actions.action_tokens(b)
    if left.anchors - right.anchors and right.anchors - left.anchors:
        return 0.0
    if _opposed_by_every_contrast(left.sides, right.sides):
        return 0.0
    theirs = dict(right.weights)
    if left.code and right.code:
        pairs = [(x, y) for x in sorted(left.code) for y in sorted(right.code) if actions._same_flag(x, y)]
        if not pairs:
            return 0.0
        for x, y in pairs:
            if x != y and y in theirs:
                theirs[x] = theirs.pop(y)
    mine = dict(left.weights)
    for name in left.anchors:
        mine.setdefault(name, actions.ANCHOR_WEIGHT)
    for name in right.anchors:
        theirs.setdefault(name, actions.ANCHOR_WEIGHT)
    if not mine or not theirs:
        return 1.0 if normalize_phrase(a) == normalize_phrase(b) else 0.0
    shared = sum(min(mine[k], theirs[k]) for k in mine.keys() & theirs.keys())
    total_a, total_b = sum(mine.values()), sum(theirs.values())
    score = (2 * shared / (total_a + total_b) + shared / min(total_a, total_b)) / 2
    if left.verb and right.verb and left.verb != right.verb and "use" not in (left.verb, right.verb):
        score *= actions.VERB_DISCOUNT
    return score


_ACTION_WORDS = st.sampled_from(
    ["Set", "use", "--force", "-f", "--fix", "A_B=1", "foo.bar()", "on", "all", "one", "blocks", "block", "not",
     "without", "Peru", "Chile", "3", "delete", "remove", "the", "cache", "random", "correct", "path", "to", ","]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_ACTION_WORDS, max_size=10).map(" ".join), st.lists(_ACTION_WORDS, max_size=10).map(" ".join))
@example("Set A_B=1 on all blocks", "Set A_B=1 on one block")
@example("use -f", "use --force and --fix")
def test_similarity_is_what_it_was(a: str, b: str) -> None:
    assert actions.action_similarity(a, b) == _similarity_as_it_was(a, b)
