"""Run one match by the step-counting model, within the matching step budget: the same verdict on every machine.

A match whose steps cannot be bounded in advance (`regex.steps`) is not timed: it is
run by `backtracking.Model`, which counts `re`'s steps (and its own other work) and
stops at `MATCH_STEPS`. A match that needs more is over the budget (ET206) on every
machine, under any load; one that needs fewer never is. The regex worker calls this,
under a CPU-time guard and a memory limit, and takes the match itself from `re`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from entrykit.regex import syntax
from entrykit.regex.backtracking import Model, TooDeep, Verdict
from entrykit.regex.budget import TooComplex
from entrykit.regex.steps import FAST_PATH_LIMIT

# What a match may take: the limit under which the step bound lets a match run
# unwatched (`regex.steps`), so that a match is over it whichever way it is run.
MATCH_STEPS = FAST_PATH_LIMIT
OVER_BUDGET = f"the match took more than {MATCH_STEPS:,} steps"
# The most parts of a regex the model is built for (`model_parts`): building takes up to
# about 40 us a part (a class `re` compiles for its test), 0.2 s for this many.
MODEL_PARTS = 5_000


class Counted(NamedTuple):
    """A counted match: over the budget or not (the match itself is `re`'s to find);
    `reason` says why a regex the model cannot run counts as over the budget. `error` is
    set, and nothing else holds, where the model itself failed."""

    over: bool
    reason: str = OVER_BUDGET
    error: str = ""


def count_match(pattern: str, flags: int, mode: str, text: str) -> Counted:
    """Whether `re`'s match of `pattern` on `text` in `mode` (`search`, `match`,
    `fullmatch`) takes more than `MATCH_STEPS` steps, each step counted as the most
    it may cost (`syntax.step_weight`). The regex must compile."""
    made = _model(pattern, flags)
    if isinstance(made, str):
        return Counted(True, reason=made)
    model, weight = made
    try:
        run = model.run(text, mode, MATCH_STEPS // weight)
    except Exception as exc:  # a bug of the model: an outcome like an error `re` raises, not a crash
        return Counted(False, error=f"{type(exc).__name__}: {exc}")
    return Counted(run.verdict is Verdict.OVER_BUDGET)


# Models kept for the next texts of their regex: few, since each keeps up to
# `backtracking.KEPT_ANSWERS` answers (a count's jobs come grouped by regex).
@lru_cache(maxsize=32)
def _model(pattern: str, flags: int) -> tuple[Model, int] | str:
    """The regex compiled for the model, with the weight of its steps, or why the model
    cannot run it: such a regex is over the budget on every text it is not provably fast
    on, on every machine alike. One of more than `MODEL_PARTS` parts is not built: building
    it would take longer than its count."""
    try:
        parsed = syntax.parse(pattern, flags)
        parts = model_parts(parsed)
        if parts > MODEL_PARTS:
            return f"its steps cannot be counted: it has {parts:,} parts, more than {MODEL_PARTS:,}"
        return Model(parsed), syntax.step_weight(parsed)
    except TooDeep:
        return "its steps cannot be counted: sub-matches nested too deep"
    except TooComplex as exc:
        return f"its steps cannot be counted: {exc}"
    except (re.error, RecursionError, OverflowError, ValueError, TypeError) as exc:
        return f"its steps cannot be counted: {type(exc).__name__}"


def model_parts(parsed: syntax.Parsed) -> int:
    """What building the model of a regex costs, in parts: each node of its parse, but a
    literal character compared by case (the model reads a row of them as one text) and
    one compared without it that an equal one came before (its test is made once)."""
    parts = 0
    caseless: set[int] = set()
    for node, flags in syntax.walk(parsed.nodes, parsed.flags):
        if type(node) is not syntax.Char:
            parts += 1
        elif flags & syntax.IGNORECASE and node.code not in caseless:
            caseless.add(node.code)
            parts += 1
    return parts
