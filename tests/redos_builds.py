"""What a ReDoS automaton builder makes of a pattern, for the tests that compare builders."""

from __future__ import annotations

from typing import Any

from entrykit.regex import redos, syntax
from entrykit.regex.budget import Budget, TooComplex


def built(builder_class: type[redos._Builder], pattern: str, flags: int, steps: int) -> Any:
    """The automaton and fragment `builder_class` makes of `pattern` within `steps`, and the
    steps left; or why it stopped."""
    parsed = syntax.parse(pattern, flags)
    budget = Budget(redos.STEP_BUDGET, "test")
    alphabet = redos._alphabet_for(parsed.nodes, budget)
    budget.left = steps  # the alphabet's steps aside: the builder's alone decide where it stops
    builder = builder_class(alphabet)
    try:
        first, last, nullable = builder.seq(parsed.nodes, flags | parsed.flags)
    except TooComplex as exc:
        return exc.reason
    auto = builder.auto
    return (auto.masks, auto.labels, auto.prefer, [list(out.items()) for out in auto.follow], auto.group_edges,
            list(first.items()), list(last.items()), nullable, budget.left)
