"""A row of literal characters added in place, its steps spent once the row is made, builds
what `concat` of each character's position builds: the same automaton, fragment and steps
left, and, under a budget too tight for it or past the position limit, the same reason to stop."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import redos, syntax
from entrykit.regex.budget import TooComplex

from .redos_builds import built

_PIECES = ["abc", "x", "hello world", "é", "K", "ß", r"\.", ".*", r"\d+", "[a-c]", "(?:de|f)", "(g|hi)", "j?", "(kl)*"]


class _OneByOne(redos._Builder):
    """The builder with every node of a row made by `node` and `concat`."""

    def seq(self, nodes: syntax.Seq, flags: int) -> redos._Frag:
        frag: redos._Frag = ({}, {}, 1)
        for node in nodes:
            frag = self.concat(frag, self.node(node, flags))
            if len(self.auto.follow) > redos._POSITION_LIMIT:
                raise TooComplex(f"its automaton needs more than {redos._POSITION_LIMIT:,} positions")
        return frag


_FLAGS = st.sampled_from([0, re.IGNORECASE, re.IGNORECASE | re.ASCII])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8), _FLAGS, st.integers(0, 3000))
def test_a_row_of_literals_builds_what_concat_builds_within_any_budget(pieces: list[str], flags: int, steps: int) -> None:
    pattern = "".join(pieces)
    whole = built(_OneByOne, pattern, flags, 10**9)
    assert built(redos._Builder, pattern, flags, 10**9) == whole
    needed = 10**9 - whole[-1]
    # every budget that runs out within the last few dozen steps (the last row's among them)
    for tight in {steps, *range(max(needed - 60, 0), needed + 1)}:
        assert built(redos._Builder, pattern, flags, tight) == built(_OneByOne, pattern, flags, tight), tight


@settings(max_examples=30, deadline=None)
@given(st.integers(redos._POSITION_LIMIT - 3, redos._POSITION_LIMIT + 3), st.sampled_from(["", "a.*", "(b|c)"]))
def test_a_row_of_literals_past_the_position_limit_stops_for_positions(length: int, before: str) -> None:
    pattern = before + "ab" * (length // 2) + "z" * (length % 2)
    for steps in (10**9, 5 * length):
        assert built(redos._Builder, pattern, 0, steps) == built(_OneByOne, pattern, 0, steps)
