"""How phrases and actions are read before they are compared."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.similarity.phrases import compact_phrase, normalize_phrase, phrase_similarity

# The characters normalisation treats specially: whitespace of several kinds, final
# punctuation (ASCII and full width), and letters NFKC or casefolding change.
SPECIAL = list(" \t\n\x0b\x1c\x85\xa0\u1680\u2028\u202f\u3000.!?;:,。！？；：，aBß\uff21\u00c5\u212b")


def _by_regex(text: str) -> str:
    """The definition: NFKC, casefold, runs of `\\s` as one space, no final punctuation or space."""
    text = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).casefold()).strip()
    return re.sub(r"[\s.!?;:,。！？；：，]+$", "", text)


@settings(max_examples=3000)
@given(st.one_of(st.text(st.sampled_from(SPECIAL), max_size=14), st.text(max_size=14)))
def test_normalize_phrase_is_its_definition(text: str) -> None:
    assert normalize_phrase(text) == _by_regex(text)


@settings(max_examples=3000)
@given(st.one_of(st.text(st.sampled_from(SPECIAL), max_size=14), st.text(max_size=14)))
def test_a_compact_phrase_is_the_normal_phrase_without_its_spaces(text: str) -> None:
    assert compact_phrase(text) == "".join(normalize_phrase(text).split())


def test_phrases_that_read_the_same() -> None:
    assert normalize_phrase("  Restart   the SERVER！ ") == "restart the server"
    assert normalize_phrase("Ａ\u3000b.\n") == "a b"
    assert phrase_similarity("Restart the server.", "restart  the server") == 1.0
    assert phrase_similarity("", "x") == 0.0


# What actions' code spans were found by before they were made to skip the middle of words.
_CODE_BY_DEFINITION = re.compile(
    r"(?<![\w-])--?[A-Za-z][\w-]*(?:=\S+)?"
    r"|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\([^)\s]*\))?"
    r"|[A-Za-z_]\w*\([^)\s]*\)"
    r"|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+(?:=\S+)?"
    r"|\b\w+_\w+\b"
    r"|\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z]+[A-Z]\w*\b"
)


@settings(max_examples=5000)
@given(st.text(st.sampled_from(list("aZ_1é.()=- \tx")), max_size=16))
def test_action_code_spans_are_their_definition(text: str) -> None:
    from entrykit.similarity.actions import _CODE

    assert [m.span() for m in _CODE.finditer(text)] == [m.span() for m in _CODE_BY_DEFINITION.finditer(text)]
