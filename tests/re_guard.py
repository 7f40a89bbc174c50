"""Running `re` on a regex a test generated: only where the model of its matcher counts the
run within a budget first. Some generated regexes backtrack in `re` for minutes (a CI run
once hung in one); the model stops at its budget."""

from __future__ import annotations

from entrykit.regex.backtracking import Model, Run, Verdict

RE_STEPS = 200_000  # a search or match `re` runs in well under a second


def counted_for_re(model: Model, text: str, mode: str = "search") -> Run | None:
    """The model's run of `text` in `mode`, or None where it counts more than `RE_STEPS`
    steps: a test runs `re` on that text only where this is not None."""
    run = model.run(text, mode, RE_STEPS)
    return None if run.verdict is Verdict.OVER_BUDGET else run
