"""The step bound that lets the regex runner match in-process without a budget.

`runner.step_bound` must bound the steps of a search on every text, for every regex it
gives a bound for: checked against the step-counting model of CPython's matcher
(`backtracking.Model`) on generated regexes and texts, and, when `../shared` is there,
on the deadends canons' regexes against their own signatures. Regexes that repeat a
group get no bound, and jobs past the limit still go to the worker.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from entrykit.regex import backtracking, syntax
from entrykit.regex.runner import Job, provably_fast, search_steps, step_bound
from tests.conftest import DEADENDS

ATOMS = st.sampled_from(["a", "b", "ab", ".", r"\d", r"\w", "[a-c]", "[^x]", r"\s", "^", "$", r"\b"])
SINGLE = st.sampled_from(["a", "b", ".", r"\d", "[ab]", "[^a]", r"\s"])
QUANTIFIERS = st.sampled_from(["*", "+", "?", "{2,}", "{1,3}", "*?", "+?", "*+", "{0,2}?"])


@st.composite
def patterns(draw: st.DrawFn, depth: int = 0) -> str:
    """Sequences of atoms, one-character repeats, optional groups, alternations and lookarounds."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 6 if depth < 2 else 1))
        if kind == 0:
            parts.append(draw(ATOMS))
        elif kind == 1:
            parts.append(draw(SINGLE) + draw(QUANTIFIERS))
        elif kind == 2:
            parts.append(f"(?:{draw(patterns(depth + 1))}|{draw(patterns(depth + 1))})")
        elif kind == 3:
            parts.append(f"({draw(patterns(depth + 1))})?")
        elif kind == 4:
            parts.append(f"(?={draw(patterns(depth + 1))})")
        elif kind == 5:
            parts.append(f"(?>{draw(patterns(depth + 1))})")
        else:
            parts.append(f"({draw(patterns(depth + 1))})")
    return "".join(parts)


def _model_steps(pattern: str, flags: int, text: str) -> int:
    run = backtracking.Model(syntax.parse(pattern, flags)).run(text, "search", steps=10**9)
    assert run.verdict is not backtracking.Verdict.OVER_BUDGET
    return run.steps


@settings(max_examples=400, deadline=None)
@given(patterns(), st.text(alphabet="ab x1\n", max_size=24), st.sampled_from([0, re.IGNORECASE]))
def test_the_bound_holds_for_every_text(pattern: str, text: str, flags: int) -> None:
    bound = step_bound(pattern, flags)
    assume(bound is not None)  # (past the degree the runner bothers with)
    assert _model_steps(pattern, flags, text) <= search_steps(bound, len(text))


@pytest.mark.parametrize("pattern", ["a.*b.*c", r"\s+x\d*y", "(foo|ba.*r)?-(?=q.*)z"])
def test_the_bound_holds_on_the_texts_that_cost_most(pattern: str) -> None:
    bound = step_bound(pattern, 0)
    assert bound is not None
    for size in (1, 10, 60):
        for text in ("a" * size, "ab" * size, " " * size + "x", "foo" + "-" * size, "a" * size + "b" * size):
            assert _model_steps(pattern, 0, text) <= search_steps(bound, len(text))


@pytest.mark.parametrize("pattern", ["(a+)+", "(?:ab)*c", "(a|b)*", r"(\w+\s?)*$", "(?:x.*){2}"])
def test_a_repeated_group_has_no_bound(pattern: str) -> None:
    assert step_bound(pattern, 0) is None
    assert not provably_fast(Job(pattern, 0, "search", "ab"))


def test_which_jobs_run_without_a_budget() -> None:
    assert provably_fast(Job("fatal: not a git repository", 0, "search", "x" * 1000))
    assert provably_fast(Job("(foo|bar)-(baz|qux)", 0, "search", "x" * 1000))
    assert provably_fast(Job("error.*not found", re.IGNORECASE, "search", "x" * 200))
    # the steps grow with the text: the same regex on a long text goes to the worker
    assert not provably_fast(Job("a.*b.*c.*d", 0, "search", "x" * 2000))
    assert not provably_fast(Job("(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)", 0, "search", "a" * 2000))
    assert not provably_fast(Job("a", 0, "compile", ""))


@pytest.mark.skipif(not DEADENDS.is_dir(), reason="the deadends canons are not here")
def test_the_bound_holds_for_the_canons_on_their_signatures() -> None:
    checked = 0
    for path in sorted(DEADENDS.rglob("*.json")):
        error = json.loads(path.read_text(encoding="utf-8")).get("error") or {}
        pattern, signature = error.get("regex"), error.get("signature")
        if not isinstance(pattern, str) or not isinstance(signature, str):
            continue
        for flags in (0, re.IGNORECASE):
            bound = step_bound(pattern, flags)
            if bound is None or not provably_fast(Job(pattern, flags, "search", signature)):
                continue
            assert _model_steps(pattern, flags, signature) <= search_steps(bound, len(signature)), path.name
            checked += 1
    assert checked > 1000
