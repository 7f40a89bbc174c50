"""The step bounds that let the regex runner match in-process without a budget.

`steps.step_bound` (by the text's length) and `steps.text_steps` (for one text) must
bound the steps of a search, for every regex they give a bound for: checked against the step-counting model of CPython's matcher
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

from entrykit.regex import backtracking, steps, syntax
from entrykit.regex.runner import Job, provably_fast
from entrykit.regex.steps import search_steps, step_bound, text_steps
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
    taken = _model_steps(pattern, flags, text)
    assert taken <= search_steps(bound, len(text))
    for_text = text_steps(pattern, flags, text)
    assert for_text is None or taken <= for_text


WORDS = st.text(alphabet="ab", min_size=1, max_size=4)


@st.composite
def literal_text(draw: st.DrawFn) -> str:
    """What may follow a repetition or begin a search: a word, or a group of words (and a word)."""
    if draw(st.booleans()):
        return draw(WORDS)
    words = "|".join(draw(st.lists(WORDS, min_size=2, max_size=3)))
    return draw(st.sampled_from(["(?:{})", "({})"])).format(words) + draw(st.sampled_from(["", "b", "ab"]))


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from([".", "a", "b", "[ab]", r"\w"]), st.sampled_from(["*", "+", "*?", "{2,}"]), literal_text()), min_size=1, max_size=3),
    st.text(alphabet="aaab", max_size=30),
    st.sampled_from([0, re.IGNORECASE]),
)
def test_one_start_s_bound_holds_where_the_text_holds_part_of_the_words_after_a_repetition(
    parts: list[tuple[str, str, str]], text: str, flags: int
) -> None:
    # Words after repetitions, on texts of their letters: the first letter is almost
    # everywhere, a whole word in some places, a part of one in many. One start's bound is
    # held to a match from the text's start, where the length it assumes is the text's own:
    # a bound that left out the steps of a word's part fails this (a search's bound, summed
    # over every start, would hide it).
    pattern = "".join(atom + repeat + after for atom, repeat, after in parts)
    plan = steps._plan(pattern, flags)
    assert plan is not None
    bound = steps._seq_cost(plan.seq, 1, steps._InText(text))
    assume(bound is not None)
    run = backtracking.Model(syntax.parse(pattern, flags)).run(text, "match", steps=10**9)
    assert run.steps <= bound


@settings(max_examples=400, deadline=None)
@given(literal_text(), st.sampled_from(["", "c", ".*b", "a+"]), st.text(alphabet="aaabc", max_size=40), st.sampled_from([0, re.IGNORECASE]))
def test_a_search_s_bound_holds_where_the_text_holds_part_of_the_words_it_begins_with(
    begin: str, end: str, text: str, flags: int
) -> None:
    pattern = begin + end
    bound = text_steps(pattern, flags, text)
    assert bound is not None  # (short texts)
    assert _model_steps(pattern, flags, text) <= bound


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


@settings(max_examples=200, deadline=None)
@given(patterns(), st.integers(0, 5000), st.sampled_from("xab"))
def test_a_job_runs_in_process_exactly_when_a_bound_is_within_the_limit(pattern: str, length: int, char: str) -> None:
    text = char * length
    bound = step_bound(pattern, 0)
    expected = bound is not None and (
        search_steps(bound, length) <= steps.FAST_PATH_LIMIT or text_steps(pattern, 0, text) is not None
    )
    assert provably_fast(Job(pattern, 0, "search", text)) == expected


def test_the_text_decides_where_the_length_alone_does_not() -> None:
    # Two repetitions, each followed by a letter the text holds a few times, after a
    # letter it holds once: within the limit for this text, not for every text of its length.
    pattern = "lambda.*not supported.*api"
    text = "Lambda expressions are not supported at this API level " + "x" * 600
    assert search_steps(step_bound(pattern, re.IGNORECASE) or (0,), len(text)) > steps.FAST_PATH_LIMIT
    assert text_steps(pattern, re.IGNORECASE, text) is not None
    assert provably_fast(Job(pattern, re.IGNORECASE, "search", text))
    # where it begins often and holds the words after both repetitions often, it is not
    assert not provably_fast(Job(pattern, re.IGNORECASE, "search", "lambda " * 50 + "not supported " * 30 + "api" * 100))
    # but their first letters alone, however often, are no such place: there the rest fails
    # within the few steps of the word
    assert provably_fast(Job(pattern, re.IGNORECASE, "search", "lambda " * 50 + "n" * 300 + "a" * 300))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(literal_text(), min_size=2, max_size=7),
    st.text(alphabet="xyab ", min_size=30, max_size=400),
    st.sampled_from([0, re.IGNORECASE]),
)
def test_where_no_start_goes_on_the_bound_needs_no_walk(words: list[str], text: str, flags: int) -> None:
    # Words joined by `.*`, on texts long enough that one start's bound may be past the
    # limit: where the text holds none of the words a match begins with, the search's bound
    # is what the failing starts take, and holds.
    pattern = ".*".join(words)
    assume(step_bound(pattern, flags) is not None)
    bound = text_steps(pattern, flags, text)
    assert bound is None or _model_steps(pattern, flags, text) <= bound


def test_a_text_that_no_start_goes_on_in_is_bounded_where_one_start_is_not() -> None:
    # Five repetitions: one start may take past the limit on 2,000 characters of these; but
    # without an `e` no start goes past the first character.
    pattern = "e.*r.*r.*o.*r.*x"
    text = "a fatal failure happened at stage " * 60
    assert "e" in text and text_steps(pattern, 0, text) is None
    unopened = text.replace("e", "a")
    bound = text_steps(pattern, 0, unopened)
    assert bound is not None and _model_steps(pattern, 0, unopened) <= bound
    assert provably_fast(Job(pattern, 0, "search", unopened))


def test_which_jobs_run_without_a_budget() -> None:
    assert provably_fast(Job("fatal: not a git repository", 0, "search", "x" * 1000))
    assert provably_fast(Job("(foo|bar)-(baz|qux)", 0, "search", "x" * 1000))
    assert provably_fast(Job("error.*not found", re.IGNORECASE, "search", "x" * 200))
    # the steps grow with the text: the same regex on a long text goes to the worker
    assert not provably_fast(Job("a.*b.*c.*d", 0, "search", "a" * 2000))
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
            taken = _model_steps(pattern, flags, signature)
            assert taken <= search_steps(bound, len(signature)), path.name
            for_text = text_steps(pattern, flags, signature)
            assert for_text is None or taken <= for_text, path.name
            checked += 1
    assert checked > 1000


# --- many texts of one regex at once --------------------------------------------------------

TEXTS = st.lists(st.text(alphabet="ab x1.\nK", max_size=40) | st.sampled_from(["a" * 900, "ab " * 400, ""]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(patterns(), TEXTS, st.sampled_from([0, re.IGNORECASE]))
def test_the_bounds_of_many_texts_at_once_are_those_of_each(pattern: str, texts: list[str], flags: int) -> None:
    try:
        re.compile(pattern, flags)
    except re.error:
        assume(False)
    each = [text_steps(pattern, flags, t) for t in texts]
    assert steps.text_steps_each(pattern, flags, texts) == each
    assert steps.runs_within_limit_each(pattern, flags, texts) == [
        steps.runs_within_limit(pattern, flags, t) for t in texts
    ]
    with steps.runs_remembered():  # as a cross-matching asks: the second time, from the runs kept
        for _ in range(2):
            assert steps.text_steps_each(pattern, flags, texts) == each


def test_the_runs_kept_from_one_regex_to_the_next_are_each_text_s_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """`_longest_runs` answers as `_longest_run` does, whether it works a run out or finds it
    kept: for kinds that differ only in their flags, after a kind is let go (more kinds
    than are kept) and after its texts are (more texts than are kept). Nothing is kept
    outside `runs_remembered`, nor after it."""
    monkeypatch.setattr(steps, "RUN_KINDS_KEPT", 2)
    monkeypatch.setattr(steps, "RUN_TEXTS_KEPT", 3)
    kinds = [("[a-z]", 0), ("[a-z]", re.IGNORECASE), (".", 0), (r"[\d]", 0)]
    texts = ["ab 12", "x\nyyyy", "", "1234 5", "ABCDEF g", "ab 12"]
    assert steps._runs_kept is None
    with steps.runs_remembered():
        kept = steps._runs_kept
        assert kept is not None
        for start in range(3):
            for takes in kinds + kinds[::-1]:
                asked = texts[start:]
                assert steps._longest_runs(takes, asked) == [steps._longest_run(takes, text) for text in asked]
        assert len(kept) <= 2
        for number in range(5):  # texts asked in twos: what is kept stays within 3 and a call's two
            asked = [f"{number} a", f"{number} bb"]
            assert steps._longest_runs((".", 0), asked) == [steps._longest_run((".", 0), text) for text in asked]
            assert len(kept[(".", 0)]) <= 3 + 2
    assert steps._runs_kept is None
    assert steps._longest_runs((".", 0), texts) == [steps._longest_run((".", 0), text) for text in texts]
    assert steps._runs_kept is None


@pytest.mark.parametrize(
    ("pattern", "past_the_limit"),
    [
        ("lambda.*not supported.*api", True),
        ("a.*b.*c.*d", True),
        (r"\b\d+\.\d+\.\d+\.\d+\b", True),
        (r"(?:x.*y|[A-Z]{3}\d{5})", True),
        (r"k.*(?:\.\d+)*s", True),
        (r"[ab]{0,3}a.*y", True),  # a short repeat: its rest is tried at most 4 times, not once per `a`
    ],
)
def test_texts_past_the_limit_are_told_apart_from_the_others(pattern: str, past_the_limit: bool) -> None:
    # some texts of each kind, more than the walk per text is used for
    texts = ["lambda not supported api " * k + "x" * (40 * k) for k in range(1, 30)]
    texts += ["a" * 3000, "ab1.2.3.4 " * 300, "K.1.2 " * 200, "abcd" * 500, "XYZ12345 " + "x" * 2000, "1" * 3000]
    found: list[int | None] = []
    for flags in (0, re.IGNORECASE):
        each = steps.text_steps_each(pattern, flags, texts)
        assert each == [text_steps(pattern, flags, t) for t in texts]
        found += each
        assert steps.runs_within_limit_each(pattern, flags, texts) == [
            steps.runs_within_limit(pattern, flags, t) for t in texts
        ]
    assert (None in found) is past_the_limit and any(isinstance(n, int) for n in found)


def test_a_place_of_many_words_is_looked_for_by_their_first_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each word looked for is a search of the whole text: of more than `COUNTED_WORDS` at one
    # place, only their first characters are (499 words of a 2,000-character pattern, each
    # looked for in a text of 100,000 characters, took 130 ms).
    words = ["zz", *(f"a{x}{y}" for x in "abcdefghijklmnopqrstuvwxyz" for y in "abcdefghijklmnopqrstuvwxyz")][:499]
    pattern = f"x.*(?:{'|'.join(words)})"
    looked_for: list[str] = []
    holding_text = steps._InText.holding_text

    def counted(self: steps._InText, literal: str) -> int:
        looked_for.append(literal)
        return holding_text(self, literal)

    monkeypatch.setattr(steps._InText, "holding_text", counted)
    text = "x" + "ab" * 5 + "b" * 80  # (short: where no word is, 499 branches fail in some 1,500 steps)
    bound = text_steps(pattern, 0, text)
    assert looked_for == []  # not one of the 499 (the pattern's first, `x`, is one character)
    assert bound is not None and _model_steps(pattern, 0, text) <= bound
    looked_for.clear()
    assert text_steps(f"x.*(?:{'|'.join(words[:16])})", 0, text) is not None
    assert sorted(looked_for) == sorted(words[:16])
