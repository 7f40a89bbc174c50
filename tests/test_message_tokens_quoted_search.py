"""The quoted-text search of a scan (`message_tokens._QuotedSearch`) finds what `_QUOTES.search`
finds from any position, in any order of searches over one message, and reads a line of
openers that no closer follows once, not once per opener."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt

_PIECES = st.sampled_from(
    ["‘", "’", "“", "”", "„", "«", "»", "‹", "›", "「", "」", "『", "』", "'", '"', "`", "\n", "a", "é", " ", "x y",
     "it's", "名", "\\w", "``"]
)
_TEXTS = st.lists(_PIECES, max_size=24).map("".join)


def _same(found: object, plain: object) -> bool:
    if found is None or plain is None:
        return found is plain
    return (found.span(), found.groupdict(), found.lastgroup) == (plain.span(), plain.groupdict(), plain.lastgroup)  # type: ignore[attr-defined]


@settings(max_examples=1500, deadline=None)
@given(_TEXTS, st.lists(st.integers(0, 30), max_size=8))
@example("‘a‘b’", [0, 1, 2])
@example("‘a\n‘b’", [0, 2])
@example("„a“ «b\n»", [0, 3, 4])
def test_each_search_finds_what_the_regex_finds(text: str, positions: list[int]) -> None:
    quoted = mt._QuotedSearch()  # (one per message: what it learns holds for later searches)
    for pos in [0, *positions, *range(len(text) + 1)]:
        assert _same(quoted.search(text, pos), mt._QUOTES.search(text, pos)), (text, pos)


@settings(max_examples=500, deadline=None)
@given(_TEXTS)
def test_a_scan_gives_the_tokens_of_the_plain_search(text: str) -> None:
    mt._scan.cache_clear()
    found = mt.scan(text)
    quick = mt._QuotedSearch.search
    try:
        mt._QuotedSearch.search = lambda self, message, pos=0: mt._QUOTES.search(message, pos)  # type: ignore[method-assign]
        mt._scan.cache_clear()
        plain = mt.scan(text)
    finally:
        mt._QuotedSearch.search = quick  # type: ignore[method-assign]
        mt._scan.cache_clear()
    assert found == plain, text


def test_a_line_of_openers_without_a_closer_is_read_once() -> None:
    reads: list[int] = []
    stops = mt._OTHER_CLOSERS["‘"]

    class Counting:
        def search(self, message: str, pos: int = 0) -> object:
            reads.append(pos)
            return stops.search(message, pos)

    text = "‘a" * 500 + "\n‘b’"
    closers = dict(mt._OTHER_CLOSERS)
    try:
        mt._OTHER_CLOSERS["‘"] = Counting()  # type: ignore[assignment]
        match = mt._QuotedSearch().search(text)
    finally:
        mt._OTHER_CLOSERS.clear()
        mt._OTHER_CLOSERS.update(closers)
    assert match is not None and match.group("lsquo") == "b"
    assert len(reads) == 2  # (the first opener's line, then the opener after it)
