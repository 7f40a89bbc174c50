"""A number in a message is read in linear time: its pattern reads at most 32 groups of
thousands (it read every group after each digit that follows a comma), and its check reads
what follows it in place (it copied the rest of the message once a number). Same tokens
as before below 33 groups; a 100 KB run of such groups goes through lint."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt

from .conftest import lint_corpus
from .hostile import entry_text

_NUMBER = next(p for p in mt._GRAMMAR if p.accept is mt._accept_number).regex
_OLD_NUMBER = re.compile(r"\d(?<![\w.]\d)(?:\d{0,2}(?:,\d{3})+(?![\d,])|\d*(?:[.:]\d+)*)(?![\d])(?!\.\d)", re.ASCII)

_GROUPED = st.lists(st.sampled_from(["0", "12", "345", ",", ",000", ".", ":", " ", "a", "-", "_"]), max_size=24).map("".join)


def _same_match(found: re.Match[str] | None, plain: re.Match[str] | None) -> bool:
    if found is None or plain is None:
        return found is plain
    return found.span() == plain.span()


@settings(max_examples=1500, deadline=None)
@given(_GROUPED)
@example("1" + ",000" * 32 + " ")
@example("1" + ",000" * 32 + ",0")
@example("12,345,678.9 and 1,000,00")
def test_the_number_pattern_finds_what_it_found_below_33_groups(text: str) -> None:
    for position in range(len(text) + 1):
        assert _same_match(_NUMBER.search(text, position), _OLD_NUMBER.search(text, position)), position


def _accepted_after_a_copy(match: re.Match[str]) -> mt.Token | None:
    """`_accept_number` as it was: what follows the number read from a copy of the rest."""
    text, rest = match.group(0), match.string[match.end() :]
    if mt._IPV4.fullmatch(text):
        return mt._token(mt.ADDRESS, match)
    if ":" in text:
        return mt._token(mt.POSITION, match)
    if text.count(".") >= 2 and "," not in text:
        suffix = mt._VERSION_SUFFIX.match(rest)
        full = text + (suffix.group(0) if suffix else "")
        if re.match(r"\w", match.string[match.start() + len(full) : match.start() + len(full) + 1], re.ASCII):
            return None
        return mt._token(mt.VERSION, match, full)
    unit = mt._UNIT.match(rest)
    if unit:
        if mt._ORDINAL.match(rest):
            return None
        after = match.string[match.end() + unit.end() : match.end() + unit.end() + 1]
        if after.isascii() and (after.isalnum() or after == "_"):
            run = mt._NAME_RUN.match(match.string, match.start())
            assert run is not None
            kind = mt.HEX if re.fullmatch(r"[0-9a-f]+|[0-9A-F]+", run.group()) else mt.IDENTIFIER
            return mt._token(kind, match, run.group())
        return mt._token(mt.QUANTITY, match, text + unit.group(0), text)
    return mt._token(mt.NUMBER, match)


_FOLLOWED = st.lists(
    st.sampled_from(["1", "2.0", ".3", ":4", ",000", " ", "st", "nd", "TH", "rc1", "-beta", "+b.1", "a", "f", "MB", "_", "é", "x1"]),
    max_size=16,
).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_FOLLOWED)
@example("1.2.3rc1 2nd 3MB 4f2a 5kb_ 1.2.3a")
def test_a_number_is_taken_as_before(text: str) -> None:
    for position in range(len(text) + 1):
        match = _NUMBER.search(text, position)
        if match is not None:
            assert mt._accept_number(match) == _accepted_after_a_copy(match), position


def test_a_long_run_of_thousands_goes_through_lint(tmp_path: Path) -> None:
    signature = "00,0" * 25_000  # 100 KB: each number read the groups after it (minutes)
    result = lint_corpus(tmp_path, {"pip/x.yaml": entry_text("pip/x", signature=signature, regex="00,0")})
    assert [e.id for e in result.entries] == ["pip/x"]
    tokens = mt.scan(signature)
    assert [t.text for t in tokens[:3]] == ["00", "000", "000"] and {t.kind for t in tokens} == {mt.NUMBER}
