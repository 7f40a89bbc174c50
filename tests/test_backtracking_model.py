"""The step-counting model of CPython's matcher: the same matches as `re`, steps that grow as backtracking does."""

from __future__ import annotations

import re
import tracemalloc
from itertools import pairwise, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import syntax
from entrykit.regex.backtracking import (
    KEPT_ANSWERS,
    MAX_NESTING,
    WORK_FLOOR,
    WORK_PER_STEP,
    CharOracle,
    Model,
    TooDeep,
    Verdict,
)

from .re_guard import counted_for_re

_PIECES = st.sampled_from(
    ["a", "b", "A", "[ab]", "[^a]", ".", r"\d", r"\w", r"\s", "^", "$", r"\b", r"\B", r"\A", r"\Z", "(", ")", "(?:",
     "(?P<g>", "(?>", "(?=", "(?!", "(?<=a)", "(?<!b)", "(?<=ab|ba)", "|", "*", "+", "?", "*?", "+?", "??", "*+",
     "++", "{2}", "{1,3}", "{0,2}?", "{2,}+", r"\1", "(?(1)a|b)", "(?(1)x)", "(?i:", "(?-i:", "x", "\n", " "]
)
_TEXTS = st.text(alphabet="abAB1 \nx_\u017fK\u212a", max_size=14)
_FLAGS = st.sampled_from([0, re.I, re.M, re.S, re.I | re.M, re.A | re.I, re.I | re.S])


@settings(max_examples=1500, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=14), st.lists(_TEXTS, min_size=1, max_size=4), _FLAGS)
def test_the_model_finds_the_match_re_finds(pieces: list[str], texts: list[str], flags: int) -> None:
    pattern = "".join(pieces)
    try:
        compiled = re.compile(pattern, flags)
    except (re.error, OverflowError, RecursionError):
        return
    model = Model(syntax.parse(pattern, flags))
    for text in texts:
        for mode in ("search", "match", "fullmatch"):
            run = counted_for_re(model, text, mode)
            if run is None:
                continue
            found = getattr(compiled, mode)(text)
            assert (found.span() if found else None) == ((run.start, run.end) if run.verdict is Verdict.MATCH else None), (
                pattern, flags, text, mode,
            )


def test_steps_grow_as_backtracking_does() -> None:
    """2^n ways for the exponential regex; about n^3 for three loops that split one text."""
    exponential = Model(syntax.parse(r"(a+)+$"))
    steps = [exponential.run("a" * n + "!", "search", 10**9).steps for n in (10, 11, 12, 13)]
    ratios = [later / earlier for earlier, later in pairwise(steps)]
    assert all(1.8 < ratio < 2.2 for ratio in ratios), steps
    cubic = Model(syntax.parse(r"a.*b.*c"))
    small, large = (cubic.run("ab" * n + "!", "search", 10**9).steps for n in (40, 80))
    assert 6 < large / small < 10  # twice the text, about 2^3 the steps
    linear = Model(syntax.parse(r"^[ab]*!$"))
    small, large = (linear.run("ab" * n + "?", "search", 10**9).steps for n in (40, 80))
    assert large / small < 2.2


def test_a_budget_stops_it_at_the_same_step_every_time() -> None:
    model = Model(syntax.parse(r"(a+)+$"))
    runs = {model.run("a" * 40 + "!", "search", 50_000) for _ in range(3)}
    assert len(runs) == 1
    (run,) = runs
    assert run.verdict is Verdict.OVER_BUDGET and 50_000 <= run.steps <= 50_050


def test_a_long_text_needs_no_deep_stack() -> None:
    model = Model(syntax.parse(r"(?:a|b)*c"))
    run = model.run("ab" * 20_000 + "c", "match", 10**7)
    assert run.verdict is Verdict.MATCH and run.end == 40_001


def test_tables_of_a_long_text_stay_within_the_limit() -> None:
    """Each repeated class reached makes a table of the whole text, work no step counts:
    200 classes on 20,000 characters would make 4 million places. Past
    `WORK_PER_STEP` a step of the limit (or the floor), the run is over budget instead."""
    pattern = "".join(f"[{chr(0x4E00 + n)}a]*" for n in range(200)) + "!"
    model = Model(syntax.parse(pattern))
    tracemalloc.start()
    try:
        run = model.run("a" * 20_000, "search", 100_000)  # the first class scans 20,000 a's: within it
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert run.verdict is Verdict.OVER_BUDGET
    allowed = max(WORK_PER_STEP * 100_000, WORK_FLOOR)
    assert peak < 2 * 8 * allowed  # the places allowed, 8 bytes each, twice over
    short = model.run("a" * 20 + "!", "search", 10_000)  # few places: the same regex runs
    assert short.verdict is Verdict.MATCH


def test_what_a_model_keeps_between_runs_stays_bounded() -> None:
    """A model's tests keep their answers for the next run, up to `KEPT_ANSWERS` in all: a
    process that counts many texts of many distinct characters holds no more, and each run
    gives what a fresh model gives."""
    pattern = "(?:" + "|".join(f"[{chr(0x4E00 + 2 * n)}{chr(0x4E01 + 2 * n)}]x" for n in range(10)) + ")"
    parsed = syntax.parse(pattern)
    model = Model(parsed)
    texts = ["".join(chr(0x3400 + 5000 * n + i) for i in range(5000)) for n in range(20)]
    tracemalloc.start()
    try:
        for text in texts:
            model.run(text, "search", 500_000)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # 20 texts of 5,000 new characters, 10 tests: a million answers kept without the bound
    assert held < 250 * KEPT_ANSWERS
    for text in texts[:3]:
        assert model.run(text, "search", 500_000) == Model(parsed).run(text, "search", 500_000)


def _nested_lookaheads(depth: int) -> str:
    pattern = "x"
    for _ in range(depth):
        pattern = f"(?={pattern})"
    return pattern


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"\b(?:a+)+b", " " * 499_999),  # an attempt at every place, each failing at its first step
        (_nested_lookaheads(60) + "(?:a+)+b", "y" * 8_195),  # 60 sub-matches at every place
        # 49 tests asked about 20,000 characters each
        ("(?i)" + "".join(chr(0x3041 + n) + "*" for n in range(49)), "".join(chr(0x4E00 + n) for n in range(20_000))),
    ],
)
def test_work_besides_steps_counts_what_it_takes(pattern: str, text: str) -> None:
    """Setting up an attempt or a sub-match, and asking `re` whether a test accepts a
    character, take several times what a step takes (`UNITS_PER_CALL`,
    `UNITS_PER_ANSWER`): counted so, these runs are over the budget, where their steps
    alone are within it and would take most of a second."""
    assert Model(syntax.parse(pattern)).run(text, "search", 500_000).verdict is Verdict.OVER_BUDGET


def test_reading_the_text_is_work() -> None:
    """A run reads its text once (its distinct characters, the places to start at): a
    text longer than the work allowed is over the budget however few steps the regex
    takes on it."""
    allowed = max(WORK_PER_STEP * 500_000, WORK_FLOOR)
    model = Model(syntax.parse("x"))
    assert model.run("x" + "a" * allowed, "match", 500_000).verdict is Verdict.OVER_BUDGET
    assert model.run("x" + "a" * (allowed // 2), "match", 500_000).verdict is Verdict.MATCH


def _lookaheads(depth: int) -> syntax.Parsed:
    nodes: syntax.Seq = (syntax.Char(ord("a")),)
    for _ in range(depth):
        nodes = (syntax.Lookaround(False, False, nodes),)
    return syntax.Parsed("", 0, nodes, 0)


def test_sub_matches_nested_too_deep_are_refused() -> None:
    """Each atomic group or lookaround is a sub-match, run by a nested call: their depth is
    bounded (`syntax.parse` already refuses parentheses nested deeper than this)."""
    assert syntax.MAX_DEPTH <= MAX_NESTING
    with pytest.raises(TooDeep):
        Model(_lookaheads(MAX_NESTING + 1))
    assert Model(_lookaheads(MAX_NESTING)).run("a").verdict is Verdict.MATCH


# -- the fast paths count what one step at a time counts --------------------------------------


class _OneByOne(CharOracle):
    """`re`'s answers, asked character by character: no literal compared at once, no
    character searched for in the text."""

    exact = False


def _one_step_at_a_time(parsed: syntax.Parsed) -> Model:
    """The model with its fast paths off: each character of a literal a `CHAR` of its own
    and each repeat's scan read from a table, no failure remembered, every start run."""
    model = Model(parsed, _OneByOne())
    model._plain = False
    model.refused = lambda limit: None  # type: ignore[method-assign]
    return model


_CHAIN_PIECES = st.sampled_from(
    ["ab", "abc", "ba", "b", "a", "cab", "abab", ".*", ".*", ".+", ".*?", "[^b]*", "[^\n]*", "(?s:.*)", "a*", ".{0,3}",
     ".*abc", ".*ba", ".*a", ".{1,}bab", "(", ")", "|", "(?:", "|", "$", "^", r"\b", "(?i:ab)", "b+", "(?:ab)*", "(?=ab)",
     r"(a)\1", "x?", " "]
)
_UNITS = st.one_of(st.text(alphabet="abc_ \n", min_size=1, max_size=5), st.sampled_from(["ab", "abab", "aba", "abca", "ba"]))


@st.composite
def _attack_texts(draw: st.DrawFn) -> str:
    """Texts such as attacks are: a prefix, words pumped in turn, a suffix."""
    pumps = draw(st.lists(_UNITS, min_size=1, max_size=3))
    times = draw(st.integers(1, 6))
    return draw(st.text(alphabet="abc", max_size=3)) + "".join(p * times for p in pumps) + draw(st.sampled_from(["", "!", "\n", "a"]))


@settings(max_examples=500, deadline=None)
@given(
    st.lists(_CHAIN_PIECES, min_size=1, max_size=10),
    st.lists(_attack_texts(), min_size=1, max_size=3),
    st.sampled_from([0, re.I, re.S, re.M]),
    st.integers(0, 400),
)
def test_the_fast_paths_take_the_steps_of_one_step_at_a_time(pieces: list[str], texts: list[str], flags: int, tight: int) -> None:
    """Literals compared at once, scans and give-backs searched for, failures remembered,
    refused starts counted: the same verdict, span and steps, and out of steps at the same
    step, as running every instruction."""
    pattern = "".join(pieces)
    try:
        re.compile(pattern, flags)
        parsed = syntax.parse(pattern, flags)
    except (re.error, OverflowError, RecursionError):
        return
    fast, slow = Model(parsed), _one_step_at_a_time(parsed)
    for text in texts:
        for mode in ("search", "match", "fullmatch"):
            full = slow.run(text, mode, 10**7)
            for limit in {10**7, full.steps, max(full.steps - 1, 0), tight}:
                assert fast.run(text, mode, limit) == slow.run(text, mode, limit), (pattern, flags, text, mode, limit)


# Every short text of a small alphabet holds the places random texts can miss: a literal
# starting right at a repeat's end, at its least, one short of either, or nowhere.
_SHORT_TEXTS = [
    "".join(chars) for size in range(8) for chars in product("ab\n", repeat=size) if size < 6 or "\n" not in chars
]


@pytest.mark.parametrize(
    "pattern",
    [".*ab", ".+ab", "a.{2,}ab", ".*ba", ".*aba", ".*bab$", "[^b]*ab", "[^a]*ba", ".*a", ".{1,}b", "(?:.*ab)$", "^.*aab",
     "(?:ab|.*b)b", "(?:aa|b)+a", ".*?ab", "(?s:.*)ab", "(?:ab){2}.*a", "x?.*abab"],
)
def test_the_fast_paths_take_the_steps_of_one_step_at_a_time_on_every_short_text(pattern: str) -> None:
    """A repeat given back to a literal of one or more characters, or to one whose rest does
    not match; a scan to a refused character; a literal tried first in an alternation; a
    counted repeat: the same verdict, span and steps as running every instruction."""
    parsed = syntax.parse(pattern, 0)
    fast, slow = Model(parsed), _one_step_at_a_time(parsed)
    for text in _SHORT_TEXTS:
        for mode in ("search", "match", "fullmatch"):
            full = slow.run(text, mode, 10**6)
            for limit in {10**6, full.steps, max(full.steps - 1, 0), full.steps // 2}:
                assert fast.run(text, mode, limit) == slow.run(text, mode, limit), (pattern, text, mode, limit)
