"""ET205's automata whose only cycles are self-loops: components and reaches worked out over literal runs.

The builder says when every cycle of an automaton is a self-loop (each loop repeats one
character), and where its literal runs are. `_Analysis` then takes its components from a
depth-first search that walks each run at once, and its reaches over the runs. Both are
compared here with Tarjan's components and the reaches worked out position by position,
on generated regexes and on every deadends canon's regex.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import redos, syntax
from entrykit.regex.budget import Budget, TooComplex

_PIECES = st.sampled_from(
    ["a", "b", "ab", "xyz", "Error: ", ".", ".*", ".+", "[^x]*", "[ab]+", "a*", "b+?", r"\d*", r"\w+", r"\s*", "a{2,}",
     "x?", "(?:ab)?", "(?:a|b)", "(a.*b|c.*d)", "(?:ab|a)", "[a-c]", "é", "K", "(?:x.*)?", "(?:ab){2}", "(?:a.*){1,3}",
     "(?:|)a", "(?:(?:|)a)*", "^", "$", r"\b", "(?=ab)", "(ab)*", "(?:a|ab)*", "(?:a?)*", "(?:a*)*", "(a*)+?", "(?:)*"]
)


def _analyses(pattern: str, flags: int, mode: str) -> list[redos._Analysis]:
    """The analysis of the regex and of each part analysed on its own."""
    try:
        parsed = syntax.parse(pattern, flags)
    except re.error:
        return []
    out = []
    pending = [(parsed.nodes, flags | parsed.flags, mode)]
    while pending:
        items, item_flags, item_mode = pending.pop()
        try:
            analysis, nested = redos._analysis_of(items, item_flags, item_mode, Budget(10**9, "test"))
        except TooComplex:
            continue
        out.append(analysis)
        pending += [(sub, f, "match") for sub, f, _ in nested]
    return out


def _by_positions(analysis: redos._Analysis) -> tuple[object, ...]:
    """Components, looping ones and reaches as Tarjan and the position-by-position walk give them."""
    follow = analysis.auto.follow
    components = redos._sccs(follow)
    plain = redos._Analysis.__new__(redos._Analysis)
    plain.__dict__.update(analysis.__dict__)
    plain.components = components
    plain.comp_of = [0] * plain.n
    for number, component in enumerate(components):
        for member in component:
            plain.comp_of[member] = number
    plain.looping = [c for c, comp in enumerate(components) if len(comp) > 1 or comp[0] in follow[comp[0]]]
    return components, plain.comp_of, plain.looping, plain._reach_by_components()


def _check(analysis: redos._Analysis) -> bool:
    """Whether the analysis took the acyclic way; asserts it agrees with the plain one."""
    follow = analysis.auto.follow
    components, comp_of, looping, reaches = _by_positions(analysis)
    if analysis.units is None:
        assert analysis.auto.cycles
        return False
    assert all(len(component) == 1 for component in components)  # the builder's word holds
    assert sorted(analysis.auto.self_loops) == [p for p in range(len(follow)) if p in follow[p]]
    assert (analysis.components, analysis.comp_of, analysis.looping) == (components, comp_of, looping)
    assert analysis._reach_by_units() == reaches
    for first, last in analysis.auto.runs.items():  # a run is entered at its first position alone
        for p, out in enumerate(follow):
            for q in out:
                assert not first < q <= last or p == q - 1
    return True


@settings(max_examples=400, deadline=None)
@given(
    st.lists(_PIECES, min_size=1, max_size=10),
    st.sampled_from([0, re.IGNORECASE]),
    st.sampled_from(["search", "match", "fullmatch"]),
)
def test_components_and_reaches_over_runs_are_those_of_every_position(pieces: list[str], flags: int, mode: str) -> None:
    for analysis in _analyses("".join(pieces), flags, mode):
        _check(analysis)


def test_which_automata_are_taken_as_acyclic() -> None:
    def acyclic(pattern: str) -> bool:
        return _check(_analyses(pattern, 0, "search")[0])

    assert acyclic(r"Error: .* not found \d+ times")
    assert acyclic(r"(?:a|b)*c{2,}(?:(?:|)a)*")  # loops of one position, one of them two ways round
    assert not acyclic(r"(ab)*")
    assert not acyclic(r"(?:a|ab)*")
    assert acyclic(r"(?:)*a")  # a loop with nothing in it makes no cycle


def test_deadends_regexes_get_the_same_components_and_reaches(deadends_dir: Path) -> None:
    patterns = set()
    for path in sorted(deadends_dir.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        error = data.get("error") if isinstance(data.get("error"), dict) else data
        if isinstance(error.get("regex"), str):
            patterns.add(error["regex"])
    assert len(patterns) > 1000
    taken = sum(_check(analysis) for pattern in sorted(patterns) for analysis in _analyses(pattern, re.IGNORECASE, "search"))
    assert taken > 1000
