"""A shape's last comma between blanks is read in linear time: `(?:\\s*,)?\\s*` where it was
`\\s*,?\\s*`, whose two runs split the blanks before a missing bracket every way (a message of
`[1,2` and 80 KB of spaces took 11 s to scan). The same matches as before, from every
position; a 100 KB run of such blanks goes through lint."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt
from entrykit.regex import syntax
from entrykit.regex.backtracking import Model, Verdict
from entrykit.regex.redos import slow_search

from .conftest import lint_corpus
from .hostile import entry_text

_SHAPE = next(p for p in mt._GRAMMAR if p.kind == mt.SHAPE).regex
_ITEM = r"-?\d+"
_SEP = r"\s*(?:,|[x×])\s*"
_OLD_SHAPE = re.compile(
    r"[\[(\d]"
    rf"(?:(?<=\[)\s*{_ITEM}(?:(?:{_SEP}{_ITEM})+\s*,?|\s*,)\s*\]"
    rf"|(?<=\()\s*{_ITEM}(?:(?:{_SEP}{_ITEM})+\s*,?|\s*,)\s*\)"
    r"|(?<=\d)(?<![\w.]\d)(?!(?<=0)[xX])\d*(?:[x×]\d+)+(?![\w.]))",
)
# The bracket's branch alone, without the lookbehinds that `slow_search` reads as always true.
_BRACKET = rf"\[\s*{_ITEM}(?:(?:{_SEP}{_ITEM})+(?:\s*,)?|\s*,)\s*\]"
_OLD_BRACKET = rf"\[\s*{_ITEM}(?:(?:{_SEP}{_ITEM})+\s*,?|\s*,)\s*\]"

_SHAPE_TEXTS = st.lists(
    st.sampled_from(["[", "]", "(", ")", "1", "-2", "0", ",", " ", "  ", "\t", "\n", "x", "×", "0x", "a", ".", "٣", "\u3000"]),
    max_size=18,
).map("".join)


def _span(match: re.Match[str] | None) -> tuple[int, int] | None:
    return None if match is None else match.span()


@settings(max_examples=2000, deadline=None)
@given(_SHAPE_TEXTS)
@example("[1, 2 , ]")
@example("(3 ,)")
@example("[1 x 2  ,  \t]")
@example("[1,2  ,  !")
@example("64x512 [٣, ٣ ]")
def test_the_shape_pattern_matches_as_before_from_every_position(text: str) -> None:
    for position in range(len(text) + 1):
        assert _span(_SHAPE.search(text, position)) == _span(_OLD_SHAPE.search(text, position)), position


def test_the_bracket_branch_is_linear_by_analysis() -> None:
    assert _BRACKET.replace(r"\[", r"(?<=\[)", 1) in _SHAPE.pattern
    assert slow_search(_BRACKET) is None and slow_search(_OLD_BRACKET) is not None


def test_blanks_before_a_missing_bracket_take_steps_in_proportion() -> None:
    model = Model(syntax.parse(_SHAPE.pattern, _SHAPE.flags))
    text = "[1,2" + " " * 2_000 + "!"  # the former tail: about 3,000 steps a blank (6M), its steps counted by the model of `re`
    run = model.run(text, "search", steps=1_000_000)
    assert run.verdict is Verdict.NO_MATCH
    assert run.steps <= 20 * len(text)


def test_a_long_run_of_blanks_in_a_shape_goes_through_lint(tmp_path: Path) -> None:
    signature = "[1,2" + " " * 100_000 + "!"  # 100 KB: the scan took minutes
    result = lint_corpus(tmp_path, {"pip/x.yaml": entry_text("pip/x", signature=signature, regex="x")})
    assert [e.id for e in result.entries] == ["pip/x"]
    assert [t.kind for t in mt.scan(signature)] == [mt.NUMBER, mt.NUMBER]
