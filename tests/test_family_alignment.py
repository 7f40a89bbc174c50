"""The template-family alignment's shortcuts give what difflib and the plain checks give."""

from __future__ import annotations

from difflib import SequenceMatcher

from hypothesis import given
from hypothesis import strategies as st

from entrykit.similarity import families

# Few words, so that word lists repeat words and share many with each other.
_WORDS = st.lists(st.sampled_from("a b c d e f vnum x_y".split()), max_size=16)


def _plain_opcodes(a: list[str], b: list[str]) -> tuple[tuple[str, int, int, int, int], ...]:
    """difflib's opcodes of the lists' first `MAX_WORDS` words, without any shortcut."""
    limit = families.MAX_WORDS
    return tuple(SequenceMatcher(None, a[:limit], b[:limit], autojunk=False).get_opcodes())


def _plain_placeholder(words: set[str]) -> bool:
    """`families.placeholder` as it was written before its words were remembered."""
    def one(word: str) -> bool:
        if len(word) == 1 or word in families.PLACEHOLDER_WORDS:
            return True
        return any(
            word.startswith(p) and word[len(p) :] in families._PLACEHOLDER_NOUNS
            for p in ("some", "my", "your", "example")
        )

    return all(one(word) for word in words)


@given(_WORDS, _WORDS)
def test_opcodes_are_difflibs(a: list[str], b: list[str]) -> None:
    assert tuple(families._opcodes(a, b)) == _plain_opcodes(a, b)


@given(_WORDS, st.lists(st.text("pqr", min_size=1, max_size=3), min_size=1, max_size=3))
def test_one_template_with_other_slot_values_aligns_as_difflib_does(frame: list[str], values: list[str]) -> None:
    """Word lists of one frame with another value in a slot (what the alignment remembers)."""
    slot = len(frame) // 2
    a = [*frame[:slot], *values, *frame[slot:]]
    b = [*frame[:slot], "other", *frame[slot:]]
    assert tuple(families._opcodes(a, b)) == _plain_opcodes(a, b)
    assert tuple(families._opcodes(b, a)) == _plain_opcodes(b, a)


def test_opcodes_read_the_first_max_words_only() -> None:
    a = ["w"] * families.MAX_WORDS + ["a", "b"]
    b = ["w"] * (families.MAX_WORDS - 1) + ["c", "a", "d"]
    assert tuple(families._opcodes(a, b)) == _plain_opcodes(a, b)


@given(st.sets(st.sampled_from([
    "x", "filename", "somemodule", "my_model", "mymodel", "examplekey", "yourbranch", "vietnam", "nonetype", "some",
]), max_size=3))
def test_placeholder_is_the_plain_check(words: set[str]) -> None:
    assert families.placeholder(words) == _plain_placeholder(words)
