"""`message_tokens.ascii_tokens` looks for a shape's digits and spaces of other scripts only
where a shape may be, with the class read first: it gives what the search of every character
gave, is still right about the tokens a scan finds, and reads a message in linear time."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt
from entrykit.regex.redos import slow_search

# The checks as they were before one search each replaced them.
_SHAPE_BY_LOOKAHEAD = re.compile(r"(?![\x00-\x7f])[\d\s×]")
_OPENER = re.compile(f"[{re.escape(mt._QUOTE_OPENERS)}]")


def _quotable(line: str) -> str:
    first = _OPENER.search(line)
    return line[first.start() : max(map(line.rfind, mt._QUOTE_CLOSERS)) + 1] if first is not None else ""


def _quotes_hold_non_ascii_by_line(message: str) -> bool:
    return any(not _quotable(line).isascii() for line in message.split("\n") if not line.isascii())


def _ascii_tokens_by_line(message: str) -> bool:
    """`ascii_tokens` as it was: any digit, space or `×` outside ASCII, then the quotes line by line."""
    if message.isascii():
        return True
    if _SHAPE_BY_LOOKAHEAD.search(message):
        return False
    return not _quotes_hold_non_ascii_by_line(message)


def _all_tokens(tokens: tuple[mt.Token, ...]) -> list[mt.Token]:
    return [t for token in tokens for t in (token, *_all_tokens(token.inner))]


_PIECES = st.sampled_from(
    ["名前", "の", "ыі", "한국어", "عربي", " ", "：", "，", "foo.py", "'numpy'", "'名前'", "「名前」", "『x』", "«ы»",
     "‘a’", "“b c”", "„d“", "‹e›", "`code`", "`名 前'", '"x"', "[1, 2]", "[١, ٢]", "[१,\u3000२]", "٣x٤", "３×４",
     "2x3", "1x", "x2", "१", "٣", "\u3000", "\u00a0", "\u2028", "\x85", "×", "E0382", "(", ")", "[", "]", "\n", "'",
     '"', "`", "「", "」", "’", "”", "“", "»", "›", "』", "‘", "„", "«", "‹", "『", "it's", "a'b", "x", "7"]
)
_TEXTS = st.lists(_PIECES, max_size=16).map("".join)


def test_each_search_of_a_whole_message_runs_in_linear_time() -> None:
    # (a message is entry text, of any length: one search per message must not backtrack)
    searches = [mt._SHAPE_GATE.__self__, mt._SHAPE_NON_ASCII, mt._OPENER]  # type: ignore[attr-defined]
    assert [p.pattern for p in searches if slow_search(p.pattern, p.flags) is not None] == []


def test_a_line_of_openers_and_other_scripts_is_read_as_the_lines_one_by_one() -> None:
    line = "‘é" * 300  # (one regex for "opener, other script, closer" took cubic time on such a line)
    assert mt.ascii_tokens(line) and mt.ascii_tokens(line + "\n’") and not mt.ascii_tokens(line + "’")


@settings(max_examples=1000, deadline=None)
@given(_TEXTS)
def test_the_shape_search_finds_what_the_lookahead_at_every_character_finds(text: str) -> None:
    assert (mt._SHAPE_NON_ASCII.search(text) is not None) == (_SHAPE_BY_LOOKAHEAD.search(text) is not None), text


@settings(max_examples=1000, deadline=None)
@given(_TEXTS)
@example("名 ٣ 'x'")
@example("[١, ٢]")
def test_ascii_tokens_is_the_old_reading_but_where_no_shape_can_be(text: str) -> None:
    if mt._SHAPE_GATE(text) is not None:
        assert mt.ascii_tokens(text) == _ascii_tokens_by_line(text), text
    else:
        assert mt.ascii_tokens(text) == (text.isascii() or not _quotes_hold_non_ascii_by_line(text)), text
        assert not any(t.kind == mt.SHAPE for t in _all_tokens(mt.scan(text))), text
    if mt.ascii_tokens(text):
        assert all(t.text.isascii() for t in _all_tokens(mt.scan(text))), text


def test_a_digit_or_space_of_another_script_without_a_shape_gate_needs_no_scan() -> None:
    assert mt.ascii_tokens("名前 ٣ の\u3000値 7")
    assert not _ascii_tokens_by_line("名前 ٣ の\u3000値 7")
    assert not mt.ascii_tokens("名前 [٣, ٤]")
