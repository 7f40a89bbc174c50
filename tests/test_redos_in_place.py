"""The automaton builder's in-place paths give what the general way gives, position for position and step for step.

- a loop over one character (`X*`, `X+?`, `X{1,}` ...) added in place by `character_loop`
  makes the automaton, fragment and steps that `repeat` and `concat` make, and runs out
  of the budget or of positions with the same reason;
- a literal's mask spends what `re.escape` of it spells and equals under IGNORECASE what
  `re` lowers it to (and the extra cases of that);
- an alphabet holds the characters, in the same order, that spelling every case gives;
- `.` is masked by the flags alone: the mask and steps of compiling it;
- a state with one way around its own loop has no exponential ambiguity, found for the
  steps the search of the product automaton takes to find none;
- an alphabet's places and lower-case tables copied from the base alphabet's are those
  worked out from every character of it.
"""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import redos, syntax
from entrykit.regex.budget import Budget, TooComplex

from .redos_builds import built

_ATOMS = ["a", "b", "é", "K", "k", ".", r"\d", r"\w", r"\s", "[a-c]", "[^x]", "[^\\w]", "ß", "İ", r"\.", " ", "-"]
_LOOPS = ["*", "+", "*?", "+?", "{0,}", "{1,}", "{0,400}", "{1,301}", "{2,}", "?", "{0,3}", "*+"]


class _General(redos._Builder):
    """The builder with every loop made by `node` (`repeat`) and `concat`."""

    def character_loop(self, node: syntax.Repeat, before: redos._Frag, flags: int) -> redos._Frag:
        return self.concat(before, self.node(node, flags))


@st.composite
def _patterns(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["atom", "loop", "loop", "group", "alt"] if depth < 2 else ["atom", "loop"]))
        if kind == "loop":
            parts.append(draw(st.sampled_from(_ATOMS)) + draw(st.sampled_from(_LOOPS)))
        elif kind == "group":
            parts.append(f"(?:{draw(_patterns(depth + 1))})" + draw(st.sampled_from(["", "?", "*", "+"])))
        elif kind == "alt":
            parts.append(f"({draw(_patterns(depth + 1))}|{draw(_patterns(depth + 1))})")
        else:
            parts.append(draw(st.sampled_from(_ATOMS)))
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(_patterns(), st.sampled_from([0, re.IGNORECASE, re.IGNORECASE | re.ASCII, re.DOTALL]), st.integers(0, 400))
def test_a_loop_over_one_character_builds_what_repeat_and_concat_build(pattern: str, flags: int, tight: int) -> None:
    try:
        syntax.parse(pattern, flags)
    except re.error:
        return
    assert built(redos._Builder, pattern, flags, 10**9) == built(_General, pattern, flags, 10**9)
    # Out of steps part way: the same reason (the budget's, or the positions')
    assert built(redos._Builder, pattern, flags, tight) == built(_General, pattern, flags, tight)


def test_loops_over_one_character_past_the_position_limit_stop_for_positions() -> None:
    pattern = "a*" * (redos._POSITION_LIMIT + 1)
    assert built(redos._Builder, pattern, 0, 10**9) == built(_General, pattern, 0, 10**9)
    assert "positions" in built(redos._Builder, pattern, 0, 10**9)


def test_only_loops_over_one_character_node_are_added_in_place() -> None:
    def first_repeat(pattern: str) -> syntax.Repeat:
        node = syntax.parse(pattern, 0).nodes[0]
        assert isinstance(node, syntax.Repeat)
        return node

    for pattern in ("a*", ".+", "[ab]*?", r"\d{1,}", "x{0,301}", "(?:a)*"):
        assert redos._loops_over_one_character(first_repeat(pattern)), pattern
    for pattern in ("a{2,}", "a{0,300}", "a?", "a*+", "(?:ab)*", "(a)*", "(?:ab|c)+"):
        assert not redos._loops_over_one_character(first_repeat(pattern)), pattern


def test_escaped_characters_are_those_re_escape_spells_with_a_backslash() -> None:
    assert [code for code in range(sys.maxunicode + 1) if len(re.escape(chr(code))) == 2] == sorted(redos._ESCAPED)


def test_unicode_cases_are_re_lower_case_and_its_extra_cases() -> None:
    cases = redos._unicode_cases.__wrapped__
    for code in range(sys.maxunicode + 1):
        if syntax.re_is_cased(code):
            low = syntax.re_lower(code)
            assert cases(code) == (low, *syntax.extra_cases(low)), code
        else:
            assert cases(code) == (), code
    assert {low for low in range(sys.maxunicode + 1) if syntax.extra_cases(low)} == syntax.EXTRA_CASED


def test_the_case_table_spells_each_case_and_keeps_a_bounded_number() -> None:
    table = redos._Cases()
    for code in (0x61, 0xDF, 0x130, 0x1F600, 0x10FFFF):
        char = chr(code)
        assert table[code] == (char, char.lower(), char.upper(), char.swapcase())
    for code in range(redos._Cases.KEPT + 10):
        table[code]  # noqa: B018 - asked, to fill the table
    assert len(table) == redos._Cases.KEPT


def _alphabet_spelled_case_by_case(nodes: syntax.Seq) -> list[str]:
    """The alphabet as every case of every literal spells it, one call at a time."""
    spelled = _spelled_case_by_case(nodes)
    chars = [c for c in dict.fromkeys(spelled) if len(c) == 1]
    lowered = {syntax.re_lower(ord(ch)) for ch in chars}
    extra = [chr(c) for low in lowered for c in syntax.extra_cases(low)]
    return list(dict.fromkeys([*redos._BASE_ALPHABET, *chars, *extra]))


def _spelled_case_by_case(nodes: syntax.Seq) -> list[str]:
    """Every case of every literal (each time it comes), each class's characters and range ends."""
    spelled: list[str] = []
    for node, _ in syntax.walk(nodes):
        if isinstance(node, (syntax.Char, syntax.NotChar)):
            char = chr(node.code)
            spelled += [char, char.lower(), char.upper(), char.swapcase()]
        elif isinstance(node, syntax.CharClass):
            for item in node.items:
                if isinstance(item, syntax.Char):
                    char = chr(item.code)
                    spelled += [char, char.lower(), char.upper()]
                elif isinstance(item, syntax.CharRange):
                    spelled += [chr(item.low), chr(item.high)]
                    spelled += [chr(item.low - 1)] if item.low > 0 else []
                    spelled += [chr(item.high + 1)] if item.high < 0x10FFFF else []
    return spelled


@settings(max_examples=200, deadline=None)
@given(_patterns())
def test_an_alphabet_holds_what_spelling_every_case_gives(pattern: str) -> None:
    try:
        nodes = syntax.parse(pattern + "ſıK\u212aµ", 0).nodes  # characters with extra cases
    except re.error:
        return
    budget = Budget(10**9, "test")
    assert redos._alphabet_for(nodes, budget).chars == _alphabet_spelled_case_by_case(nodes)
    # a step for each character spelled, a literal's cases each time it comes, spelled or not
    assert budget.used == len(_spelled_case_by_case(nodes))


@pytest.mark.parametrize("flags", [0, re.IGNORECASE, re.DOTALL, re.DOTALL | re.IGNORECASE | re.ASCII])
def test_any_character_is_masked_as_compiling_it_masks(flags: int) -> None:
    nodes = syntax.parse("a\nb.é", 0).nodes
    by_flags = redos._alphabet_for(nodes, Budget(10**9, "test"))
    compiled = redos._alphabet_for(nodes, Budget(10**9, "test"))
    for dot in (syntax.AnyChar(), syntax.AnyChar()):
        assert by_flags.mask(dot, flags) == compiled._mask(dot, flags)
        assert by_flags.budget.left == compiled.budget.left  # spent once, when first compiled
    assert by_flags.mask(syntax.AnyChar(), flags) == int("".join(
        "1" if re.fullmatch(".", char, flags) else "0" for char in reversed(by_flags.chars)
    ), 2)


@settings(max_examples=300, deadline=None)
@given(_patterns(), st.sampled_from([0, re.IGNORECASE]), st.integers(0, 40))
def test_a_state_looping_once_on_itself_is_answered_as_the_search_answers(pattern: str, flags: int, tight: int) -> None:
    try:
        parsed = syntax.parse(pattern + "|(?:a|a)*|(?:a*)*", flags)  # with two ways around some loops
    except re.error:
        return
    analysis, _ = redos._analysis_of(parsed.nodes, flags | parsed.flags, "search", Budget(10**9, "test"))
    singles = 0
    for number in analysis.looping:
        singles += len(analysis.components[number]) == 1
        for limit in (10**9, tight):
            answers = []
            for how in (analysis.eda, analysis._eda_search):
                analysis.budget = Budget(limit, "test")
                try:
                    answers.append((how(number), analysis.budget.left))
                except TooComplex as exc:
                    answers.append((exc.reason, -1))
            assert answers[0] == answers[1], (pattern, number, limit)
    assert singles  # the search start, at least


@settings(max_examples=200, deadline=None)
@given(_patterns(), st.lists(st.sampled_from(["Error", "kéK", "ſtraße", "İi"]), max_size=3))
def test_an_alphabet_from_the_base_tables_is_the_one_worked_out_in_full(pattern: str, words: list[str]) -> None:
    try:
        parsed = syntax.parse(pattern + "".join(words), 0)
    except re.error:
        return
    alphabet = redos._alphabet_for(parsed.nodes, Budget(redos.STEP_BUDGET, "test"))
    assert alphabet.base is not None  # every analysis's alphabet starts with the base one
    index = dict(zip(alphabet.chars, range(len(alphabet.chars)), strict=True))
    assert list(alphabet.index.items()) == list(index.items())
    for ascii_only in (True, False):
        lower = syntax.ascii_lower if ascii_only else syntax.re_lower
        table: dict[int, int] = {}
        for number, char in enumerate(alphabet.chars):
            table[lower(ord(char))] = table.get(lower(ord(char)), 0) | 1 << number
        assert alphabet._lowered(ascii_only) == table
    # an alphabet that does not start with the base one works its tables out alone
    other = redos._Alphabet(["b", *alphabet.chars])
    assert other.base is None and other.index == dict(zip(other.chars, range(len(other.chars)), strict=True))
