"""ET205 reads a search for literal texts joined by `.*` from its shape (`regex.literal_chains`).

`redos.analyse` takes such a regex's candidate from its shape instead of the automaton,
and its attack without the model where no alternative finds it. That must give what
the automaton and the model give (`analyse` with a budget a step short of the full one
takes the long way): on generated regexes of that shape, under the flags a corpus
uses, and on the deadends canons' regexes (`test_redos_same_results.py`). Within the
shape's caps the long way fits its budget with room for every attack's run, so no
verdict of ET210 depends on which way was taken.
"""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.regex import literal_chains, redos, syntax
from entrykit.regex.budget import Budget, TooComplex

# Pieces of literal text: repeated and overlapping letters (so that one alternative can
# find another's attack), cases `re` folds by its own tables (Kelvin sign, long s, dotted
# capital I), other scripts, and characters a regex must escape.
_PIECES = ["a", "b", "ab", "ba", "K", "k", "\u212a", "s", "\u017f", "I", "\u0130", "é", "中", " ", ".", "!", "_", "0", "\u2028"]
_FLAGS = (0, re.IGNORECASE, re.IGNORECASE | re.ASCII, re.MULTILINE)


@st.composite
def _texts(draw: st.DrawFn) -> str:
    return "".join(draw(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=3)))


@st.composite
def _chain_regexes(draw: st.DrawFn) -> str:
    """Alternatives of literal texts joined by `.*`, in a group or not; often all begin
    alike, which `re` takes out in front of them."""
    front = draw(st.sampled_from(["", "", "ab", "ab.*", "K.*s"]))
    alternatives = [
        front + ".*".join(re.escape(text) for text in draw(st.lists(_texts(), min_size=1, max_size=4)))
        for _ in range(draw(st.integers(1, 4)))
    ]
    pattern = "|".join(alternatives)
    return draw(st.sampled_from([pattern, f"({pattern})", f"(?:{pattern})"]))


def _results(pattern: str, flags: int, report_from_degree: int | None, steps: int) -> object:
    try:
        return [r.to_data() for r in redos.analyse(pattern, flags, "search", report_from_degree=report_from_degree, steps=steps)]
    except TooComplex as exc:
        return "too complex: " + exc.reason


@settings(max_examples=400, deadline=None)
@given(_chain_regexes(), st.sampled_from(_FLAGS), st.sampled_from([3, 2, None]))
def test_the_shape_gives_what_the_automaton_and_the_model_give(pattern: str, flags: int, report_from_degree: int | None) -> None:
    short = _results(pattern, flags, report_from_degree, redos.STEP_BUDGET)
    long_way = _results(pattern, flags, report_from_degree, redos.STEP_BUDGET - 1)
    assert short == long_way


def test_the_generated_regexes_are_mostly_read_from_their_shape() -> None:
    """The property above is about the shortcut: most of what it draws must take it."""
    taken = total = 0

    @settings(max_examples=200, deadline=None, database=None)
    @given(_chain_regexes(), st.sampled_from(_FLAGS))
    def count(pattern: str, flags: int) -> None:
        nonlocal taken, total
        total += 1
        taken += literal_chains.literal_runs(syntax.parse(pattern, flags), flags, "search") is not None

    count()
    assert taken > total // 2


@settings(max_examples=400, deadline=None)
@given(_chain_regexes(), st.lists(_texts(), max_size=6), st.sampled_from(["", "\n", "!"]), st.sampled_from(_FLAGS))
@example("\u017f.*b", ["s", "b"], "", re.IGNORECASE)  # the long s is an `s` to `re`, not to `str.lower`
@example("\u0130", ["i"], "", re.IGNORECASE)  # `str.lower` makes two characters of it
def test_finds_says_what_re_finds(pattern: str, words: list[str], joint: str, flags: int) -> None:
    runs = literal_chains.literal_runs(syntax.parse(pattern, flags), flags, "search")
    if runs is None:
        return
    text = joint.join(words)
    found = literal_chains.finds(runs, text, bool(flags & re.IGNORECASE))
    assert found is None or found == bool(re.search(pattern, text, flags))


@pytest.mark.parametrize(
    ("pattern", "flags", "runs"),
    [
        ("(a.*b.*c|d.*e)", 0, (("a", "b", "c"), ("d", "e"))),
        ("(?:x.*y)", re.IGNORECASE, (("x", "y"),)),
        (r"table metadata.*corrupt|iceberg\.error", 0, (("table metadata", "corrupt"), ("iceberg.error",))),
        ("plain words", 0, (("plain words",),)),
        ("(ab.*c|ad.*e)", 0, (("ab", "c"), ("ad", "e"))),  # read `a(?:b.*c|d.*e)` by `re`
        ("(x.*y.*z|x.*w)", 0, (("x", "y", "z"), ("x", "w"))),  # read `x(?:.*y.*z|.*w)`
        ("(a.*b|a.*b.*c)", 0, (("a", "b"), ("a", "b", "c"))),
    ],
)
def test_the_shape_is_read(pattern: str, flags: int, runs: tuple[tuple[str, ...], ...]) -> None:
    assert literal_chains.literal_runs(syntax.parse(pattern, flags), flags, "search") == runs


@pytest.mark.parametrize(
    ("pattern", "flags", "mode"),
    [
        ("a.*b", 0, "match"),  # no retried start
        ("a.*b", re.DOTALL, "search"),  # `.` takes a newline
        ("^a.*b", 0, "search"),  # an anchor
        ("a.*?b", 0, "search"),  # lazy
        ("a.+b", 0, "search"),
        (".*a", 0, "search"),  # a loop first
        ("a.*", 0, "search"),  # a loop last
        ("a.*.*b", 0, "search"),  # two loops in a row
        (r"a\d.*b", 0, "search"),  # a class
        ("(?i:a.*b)", 0, "search"),  # a group of its own flags
        ("(a.*b)(c.*d)", 0, "search"),  # two groups
        ("(ab.*c|ad.*e)f", 0, "search"),  # something after the alternatives
        ("(a|b)", 0, "search"),  # read `[ab]` by `re`: a class
        ("a\n.*b", 0, "search"),  # a newline in a text
        ("(a.*b|)", 0, "search"),  # an empty alternative
    ],
)
def test_other_shapes_take_the_long_way(pattern: str, flags: int, mode: str) -> None:
    assert literal_chains.literal_runs(syntax.parse(pattern, flags), flags, mode) is None


def test_the_shape_needs_no_automaton_and_an_unfound_attack_no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("the long way was taken")

    monkeypatch.setattr(redos, "_structural", refuse)
    monkeypatch.setattr(redos, "_model", refuse)
    (result,) = redos.analyse("(timeout.*connect.*refused|dns.*lookup)", 0, "search", report_from_degree=3)
    assert result.finding.degree == 3
    assert result.finding.attack == redos.Attack("", ("timeouta", "connecta"), "!")
    assert result.finding.where == "(every start)`, `.`, `."


def test_an_attack_another_alternative_finds_is_run_in_the_model() -> None:
    # The first alternative's attack, `aa` * 3 + `ba` * 3 + `!`, is found by `b.*a`: the
    # model decides whether it is rejected, as before.
    pattern = "(a.*b.*c|b.*a)"
    runs = literal_chains.literal_runs(syntax.parse(pattern, 0), 0, "search")
    assert runs == (("a", "b", "c"), ("b", "a"))
    assert literal_chains.finds(runs, redos.Attack("", ("aa", "ba"), "!").build(redos.ATTACK_PUMPS), False) is True
    assert _results(pattern, 0, None, redos.STEP_BUDGET) == _results(pattern, 0, None, redos.STEP_BUDGET - 1)


def _widest(alternatives: int, chars: list[str]) -> str:
    """A regex at both caps: `MAX_LOOPS` loops shared out among `alternatives`, and
    `MAX_POSITIONS` positions, every literal character a different one of `chars`."""
    loops = literal_chains.MAX_LOOPS // alternatives
    texts_each = loops + 1
    width = (literal_chains.MAX_POSITIONS - literal_chains.MAX_LOOPS) // (alternatives * texts_each)
    spelled = iter(chars)
    return "|".join(
        ".*".join(re.escape("".join(next(spelled) for _ in range(width))) for _ in range(texts_each))
        for _ in range(alternatives)
    )


_DISTINCT = [chr(c) for c in range(0x4E00, 0x4E00 + 300)]  # more than any regex at the caps needs


@pytest.mark.parametrize("alternatives", [1, 2, 4, 8, 16])
@pytest.mark.parametrize("chars", [_DISTINCT, list(string.ascii_lowercase) * 12], ids=["distinct", "ascii"])
@pytest.mark.parametrize("flags", [0, re.IGNORECASE])
def test_at_the_caps_the_long_way_leaves_room_for_every_attack(alternatives: int, chars: list[str], flags: int) -> None:
    pattern = _widest(alternatives, chars)
    parsed = syntax.parse(pattern, flags)
    runs = literal_chains.literal_runs(parsed, flags, "search")
    assert runs is not None
    assert sum(len(r) - 1 for r in runs) == literal_chains.MAX_LOOPS - literal_chains.MAX_LOOPS % alternatives
    budget = Budget(redos.STEP_BUDGET, "test")
    alphabets: dict[int, object] = {}
    redos._structural(parsed, flags, "search", budget, alphabets)  # type: ignore[arg-type]
    redos._model(parsed, budget, alphabets)  # type: ignore[arg-type]
    # every suffix's run at its most, and as much again to spare
    assert budget.left > 2 * len(redos.SUFFIXES) * redos.ATTACK_STEPS
    assert _results(pattern, flags, 3, redos.STEP_BUDGET) == _results(pattern, flags, 3, redos.STEP_BUDGET - 1)


def test_past_the_caps_the_long_way_is_taken() -> None:
    loops = "|".join(f"w{n}.*x{n}" for n in range(literal_chains.MAX_LOOPS + 1))
    assert literal_chains.literal_runs(syntax.parse(loops, 0), 0, "search") is None
    positions = "a.*" + "b" * literal_chains.MAX_POSITIONS
    assert literal_chains.literal_runs(syntax.parse(positions, 0), 0, "search") is None


def test_a_long_front_before_many_alternatives_is_given_up_within_the_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    # `x` * 1,000 in front of 5,000 alternatives: joining the front to each would cost their
    # product; the caps stop the reading before any is joined.
    read: list[int] = []
    runs = literal_chains._runs
    monkeypatch.setattr(literal_chains, "_runs", lambda nodes: read.append(len(nodes)) or runs(nodes))
    pattern = "x" * 1000 + "(?:" + "|".join(f"b{n}c" for n in range(5000)) + ")"
    parsed = syntax.parse(pattern, 0)
    # (`re` also takes the `b` every alternative begins with into the front)
    assert len(parsed.nodes) == 1002 and type(parsed.nodes[-1]) is syntax.Alternation
    assert literal_chains.literal_runs(parsed, 0, "search") is None
    assert sum(read) <= literal_chains.MAX_POSITIONS

