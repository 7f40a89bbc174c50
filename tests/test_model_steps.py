"""The model of CPython's matcher counts the same steps however it finds them.

`golden/model_steps.json` holds 1,500 runs of generated regexes (greedy and lazy repeats
of one character followed by literals, groups, alternations, anchors, lookarounds,
backreferences) on generated texts, each at its full step count and at limits just
below it, with the verdict, steps and span the model gave when it scanned and gave
back one character at a time. It must give them still: a repeat's scan and give-back
found at once in a table spend the steps of every character they pass over, and a
limit stops them at the same step.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import syntax
from entrykit.regex.backtracking import Model, Verdict

GOLDEN = json.loads((Path(__file__).resolve().parent / "golden" / "model_steps.json").read_text(encoding="utf-8"))


def test_the_golden_runs_cover_every_verdict_and_limits_below_the_full_count() -> None:
    assert len(GOLDEN) >= 1500
    assert {case["expected"][0] for case in GOLDEN} == {verdict.value for verdict in Verdict}
    assert sum(1 for case in GOLDEN if case["expected"][0] == "over budget" and case["steps"] > 20) > 100


def test_the_model_runs_to_the_recorded_verdict_span_and_steps() -> None:
    for case in GOLDEN:
        run = Model(syntax.parse(case["regex"], case["flags"])).run(case["text"], case["mode"], case["steps"])
        assert [run.verdict.value, run.steps, run.start, run.end] == case["expected"], case


_PIECES = st.sampled_from(
    ["a", "b", "ab", "abc", ".", ".*", ".+?", "[^x]*", "[ab]+", "a*", "b{2,}", r"\w*", "x", "(", ")", "(?:", "|", "*", "?",
     "^", "$", r"\b", "(?=a)", r"\1"]
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(_PIECES, min_size=1, max_size=10),
    st.text(alphabet="abx K.!\n", max_size=20),
    st.sampled_from(["search", "match", "fullmatch"]),
    st.sampled_from([0, re.IGNORECASE]),
    st.integers(0, 400),
)
def test_a_limit_changes_nothing_but_where_the_run_stops(
    pieces: list[str], text: str, mode: str, flags: int, limit: int
) -> None:
    """Within its limit a run ends as it does without one; past it, it stops just past the limit."""
    try:
        parsed = syntax.parse("".join(pieces), flags)
    except (re.error, RecursionError):
        return
    full = Model(parsed).run(text, mode, 10**7)
    limited = Model(parsed).run(text, mode, limit)
    if full.steps <= limit:
        assert limited == full
    elif limited.verdict is not Verdict.OVER_BUDGET:
        assert (limited.verdict, limited.start, limited.end) == (full.verdict, full.start, full.end)
    else:
        assert limit < limited.steps <= full.steps
