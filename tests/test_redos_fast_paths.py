"""The backtracking analysis's fast paths give what the general way gives, word for word and step for step.

- `ida` between two loops of one state each searches the middle path alone; the
  search of the triple product it stands for finds the same word after the same steps,
  and runs out of a budget at the same step.
- a run of literal characters built as one chain is compared with `concat` of its
  characters in `test_cold_path.py`.
- Tarjan's components come out as they always did: a partition of the positions into
  strongly connected parts, in reverse topological order.
- the model of a regex asks only the first two characters of a literal for their answers
  (it compares the rest at once) and spends the steps of asking each all the same.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import backtracking, redos, syntax
from entrykit.regex.budget import Budget, TooComplex

_PIECES = st.sampled_from(
    ["a", "b", "ab", "xyz", ".", ".*", ".+", "[^x]*", "[ab]+", "a*", "b+?", r"\d*", r"\w+", r"\s*", "a{2,}", "x", " ",
     "(?:a|b)", "(a.*b|c.*d)", "(?:ab|a)", "[a-c]", "é", "K", "(?:x.*)?", "(ab)*", "(?:a|ab)*", "^", "$"]
)


def _analysis(pattern: str, flags: int) -> redos._Analysis | None:
    try:
        parsed = syntax.parse(pattern, flags)
    except (re.error, TooComplex):
        return None
    analysis, _ = redos._analysis_of(parsed.nodes, flags | parsed.flags, "search", Budget(10**9, "test"))
    return analysis


def _run(analysis: redos._Analysis, how: str, p: int, q: int, between: int, limit: int) -> tuple[object, int]:
    analysis.budget = Budget(limit, "test")
    try:
        found: object = getattr(analysis, how)(p, q, between)
    except TooComplex:
        found = "too complex"
    return found, analysis.budget.left


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=8), st.sampled_from([0, re.IGNORECASE]), st.integers(0, 60))
def test_ida_of_single_state_loops_is_the_triple_search(pieces: list[str], flags: int, tight: int) -> None:
    analysis = _analysis("".join(pieces), flags)
    if analysis is None:
        return
    forward, backward = analysis.reaches()
    singles = [c for c in analysis.looping if len(analysis.components[c]) == 1]
    for c1 in singles:
        for c2 in singles:
            if c1 == c2 or not forward[c1] >> analysis.components[c2][0] & 1:
                continue
            p, q = analysis.components[c1][0], analysis.components[c2][0]
            between = forward[c1] & backward[c2]
            full = _run(analysis, "_ida_triples", p, q, between, 10**9)
            assert _run(analysis, "_ida_single", p, q, between, 10**9) == full
            used = 10**9 - full[1]
            for limit in {used, max(used - 1, 0), tight}:  # at, just under and well under the steps it needs
                assert _run(analysis, "_ida_single", p, q, between, limit) == _run(
                    analysis, "_ida_triples", p, q, between, limit
                )


@settings(max_examples=500, deadline=None)
@given(st.integers(1, 25).flatmap(lambda n: st.lists(st.lists(st.integers(0, n - 1), max_size=4), min_size=n, max_size=n)))
def test_tarjan_gives_strongly_connected_parts_in_reverse_topological_order(edges: list[list[int]]) -> None:
    follow = [dict.fromkeys(out) for out in edges]
    components = redos._sccs(follow)
    members = sorted(member for component in components for member in component)
    assert members == list(range(len(follow)))
    number = {member: place for place, component in enumerate(components) for member in component}

    def reach(source: int) -> set[int]:
        seen, todo = {source}, [source]
        while todo:
            for nxt in follow[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reached = [reach(node) for node in range(len(follow))]
    for a in range(len(follow)):
        for b in reached[a]:
            assert number[b] <= number[a]  # what a position reaches comes out no later
            assert (number[a] == number[b]) == (a in reached[b])


class _OneByOneOracle(redos._AlphabetOracle):
    """The analysis's answers, each `Char` of a literal asked on its own."""

    exact = False


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=8), st.sampled_from([0, re.IGNORECASE]))
def test_the_model_of_a_literal_spends_what_asking_each_character_spends(pieces: list[str], flags: int) -> None:
    """Characters of a literal past its first two are not asked, their masks made all the same:
    the steps spent compiling the model (each mask, the first time) are those of asking each."""
    pattern = "(?=x.*é)" + "".join(pieces) + "(?<=ab)"  # characters only the model masks, too
    try:
        parsed = syntax.parse(pattern, flags)
    except (re.error, TooComplex):
        return
    spent = []
    for oracle in (redos._AlphabetOracle, _OneByOneOracle):
        alphabet = redos._alphabet_for(parsed.nodes, Budget(10**9, "test"))
        alphabet.budget = Budget(10**9, "test")
        backtracking.Model(parsed, oracle(alphabet))
        spent.append(alphabet.budget.used)
    assert spent[0] == spent[1] > 0
