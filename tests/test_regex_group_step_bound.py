"""Step bounds from one start: a repeated group that splits a text in one way only
(`(?:\\.\\d+)*`), and a one-character repeat bounded by its count (`x?`, `\\d{1,3}`).

A search's bound multiplies the bound from one start by the number of starts, which
leaves room for a bound from one start that is too low: the tests here hold the bound
from one start itself to the model (`match` mode), and the search's bound too.

`steps._group_loop` lets a greedy repetition of a literal character followed by a
one-character repetition that cannot match it have a bound, so that version patterns
(`\\d+(?:\\.\\d+)*`) run in-process on short texts. The bound must hold against the
step-counting model of CPython's matcher (`backtracking.Model`): checked on generated
regexes around such a group, on every short text over the characters that matter, and
on texts made to cost most. Shapes outside it keep no bound.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from entrykit.regex import backtracking, syntax
from entrykit.regex.runner import Job, provably_fast
from entrykit.regex.steps import search_steps, step_bound, text_steps
from tests.test_regex_step_bound import patterns

FIRSTS = st.sampled_from([r"\.", "-", ",", "x", "a", ":", " ", "1"])
LOOPED = st.sampled_from([r"\d", r"\w", "[a-c]", "[^.]", ".", "a", r"\s", "[0-9x]", r"\D"])
INNER = st.sampled_from(["+", "*", "{2,}", "{1,3}", "{0,2}"])
OUTER = st.sampled_from(["*", "+", "{0,3}", "{2,}", "{1,}", "{2}"])
TEXTS = st.text(alphabet="a1.-x ,:b\n", max_size=30)
FLAGS = st.sampled_from([0, re.IGNORECASE, re.DOTALL, re.IGNORECASE | re.MULTILINE])


def _model_steps(pattern: str, flags: int, text: str, mode: str = "search") -> int:
    run = backtracking.Model(syntax.parse(pattern, flags)).run(text, mode, steps=10**9)
    assert run.verdict is not backtracking.Verdict.OVER_BUDGET
    return run.steps


def _holds(pattern: str, flags: int, text: str) -> None:
    bound = step_bound(pattern, flags)
    assert bound is not None
    # from one start (the bound's own claim, tighter than a search's)
    per_start = sum(coefficient * len(text) ** power for power, coefficient in enumerate(bound))
    assert _model_steps(pattern, flags, text, "match") <= per_start, (pattern, text)
    taken = _model_steps(pattern, flags, text)
    assert taken <= search_steps(bound, len(text)), (pattern, text)
    for_text = text_steps(pattern, flags, text)
    assert for_text is None or taken <= for_text, (pattern, text)


@st.composite
def group_loops(draw: st.DrawFn) -> str:
    return f"(?:{draw(FIRSTS)}{draw(LOOPED)}{draw(INNER)}){draw(OUTER)}"


SHORT = st.sampled_from(["?", "??", "{1,3}", "{0,2}?", "{3}", "{2,5}", "{0,16}", "{17}", "{0,40}"])


@st.composite
def short_repeats(draw: st.DrawFn) -> str:
    """Sequences with one-character repeats of a few characters at most."""
    parts = []
    for _ in range(draw(st.integers(1, 5))):
        single = draw(st.sampled_from(["a", "1", ".", r"\d", "[a1]", "[^a]", r"\s", "x"]))
        parts.append(single + draw(SHORT) if draw(st.booleans()) else single)
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(st.one_of(short_repeats(), patterns()), st.one_of(st.just(""), short_repeats()), TEXTS, FLAGS)
def test_the_bound_from_one_start_holds(before: str, after: str, text: str, flags: int) -> None:
    pattern = before + after
    assume(step_bound(pattern, flags) is not None)
    _holds(pattern, flags, text)


@pytest.mark.parametrize("pattern", [r"a?1?", r"\d{1,3}x", r"a{0,2}?[a1]{3}.?", r"[^a]{2,5}\s?1"])
def test_a_short_repeat_is_bounded_by_its_count(pattern: str) -> None:
    bound = step_bound(pattern, 0)
    assert bound is not None and len(bound) == 1  # the same for every length
    for size in range(6):
        for chars in itertools.product("a1 x", repeat=size):
            _holds(pattern, 0, "".join(chars))


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.just(""), patterns()), group_loops(), st.one_of(st.just(""), patterns()), TEXTS, FLAGS)
def test_the_bound_holds_around_a_group_that_splits_one_way(
    before: str, loop: str, after: str, text: str, flags: int
) -> None:
    pattern = before + loop + after
    assume(step_bound(pattern, flags) is not None)
    _holds(pattern, flags, text)


@pytest.mark.parametrize(
    "pattern", [r"\d+(?:\.\d+)*", r"v\d+(?:\.\d+)*\.x", r"(?:-\w+)*$", r"(?:\.\d+)+(?:,\d*)*\d", r"a(?:,[^,]*){2,}b"]
)
def test_the_bound_holds_on_every_short_text(pattern: str) -> None:
    for size in range(7):
        for chars in itertools.product("1.,-a", repeat=size):
            _holds(pattern, 0, "".join(chars))


@pytest.mark.parametrize("pattern", [r"\d+(?:\.\d+)*\s", r"(?:\.\d+)*x", r"(?:\.\d*)*(?:\.\d*)*y"])
def test_the_bound_holds_on_the_texts_that_cost_most(pattern: str) -> None:
    for size in (1, 10, 60):
        for text in ("1" * size, ".1" * size, "1." * size, ".12345" * size + "!", "." * size, "1.2" * size + " z"):
            _holds(pattern, 0, text)


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [
        (r"(?:x.*)*", 0),  # `.` matches the x: two ways to split `xx`
        (r"(?:k\d+)*", re.IGNORECASE),  # a cased literal under IGNORECASE matches more than itself
        (r"(?:a[A-Z]+)*", re.IGNORECASE),
        (r"(?:\.\d+)*?", 0),  # lazy
        (r"(?:\.\d+?)*", 0),
        (r"(\.\d+)*", 0),  # a capturing group also saves its span each time
        (r"(?:\.\d+x)*", 0),
        (r"(?:.\d+)*", 0),
    ],
)
def test_other_repeated_groups_have_no_bound(pattern: str, flags: int) -> None:
    assert step_bound(pattern, flags) is None


def test_version_patterns_run_in_process_on_short_texts() -> None:
    pattern = r"go\ \d+(?:\.\d+)*:\ stale\ volume_agent\ handle"
    assert step_bound(pattern, 0) is not None
    assert provably_fast(Job(pattern, 0, "search", "go 1.21.3: stale volume_agent handle network_zone"))
    assert provably_fast(Job(pattern, 0, "search", "Traceback (most recent call last):"))
    # a repetition takes at most the longest run of what it accepts: 3,000 short numbers
    # in a row run in-process, within the bound
    dotted = "go " + "1." * 3000
    assert provably_fast(Job(pattern, 0, "search", dotted))
    counted = backtracking.Model(syntax.parse(pattern, 0)).run(dotted, "search", 10**8)
    assert counted.steps <= (text_steps(pattern, 0, dotted) or -1)
    # one number of 6,000 digits still goes to the worker
    assert not provably_fast(Job(pattern, 0, "search", "go " + "1" * 6000))
