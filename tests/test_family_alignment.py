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


def _plain_siblings(a: list[str], a_names: set[str], b: list[str], b_names: set[str]) -> bool:
    """`families.siblings` without its shortcuts: every pair aligned by difflib."""
    if not a_names or not b_names or a == b:
        return False
    limit = families.MAX_WORDS
    codes = _plain_opcodes(a, b)
    frame = sum(i2 - i1 for tag, i1, i2, _, _ in codes if tag == "equal")
    if frame < families.MIN_FRAME or 2 * frame < max(len(a[:limit]), len(b[:limit])):
        return False
    for tag, i1, i2, j1, j2 in codes:
        if tag != "replace" or i1 == j1 == 0:
            continue
        left = {w for w in a[i1:i2] if w in a_names}
        right = {w for w in b[j1:j2] if w in b_names}
        if left and right and left != right and not (_plain_placeholder(left) or _plain_placeholder(right)):
            return True
    return False


_NAMED = st.lists(st.sampled_from("a b c d e vnum alpha beta gamma_x".split()), max_size=14)
_NAMES = st.sets(st.sampled_from("alpha beta gamma_x a".split()), max_size=3)


@given(_NAMED, _NAMES, _NAMED, _NAMES)
def test_siblings_is_the_plain_check(a: list[str], a_names: set[str], b: list[str], b_names: set[str]) -> None:
    """Pairs that share too few words for the frame are told so without an alignment."""
    assert families.siblings(a, a_names, b, b_names) == _plain_siblings(a, a_names, b, b_names)


@given(_NAMED, st.sampled_from(["alpha", "beta", "gamma_x"]), st.sampled_from(["alpha", "beta", "gamma_x"]))
def test_one_frame_with_two_names_is_the_plain_check(frame: list[str], one: str, other: str) -> None:
    """Siblings by construction (and, with one name twice, not): the answer the plain check gives."""
    slot = len(frame) // 2
    a = [*frame[:slot], one, *frame[slot:]]
    b = [*frame[:slot], other, *frame[slot:]]
    assert families.siblings(a, {one}, b, {other}) == _plain_siblings(a, {one}, b, {other})


def test_siblings_reads_the_first_max_words_only() -> None:
    frame = [f"w{n}" for n in range(families.MAX_WORDS)]
    a, b = [*frame, "alpha"], [*frame, "beta"]  # alike only past the words compared
    assert families.siblings(a, {"alpha"}, b, {"beta"}) is _plain_siblings(a, {"alpha"}, b, {"beta"}) is False
    a, b = ["alpha", *frame[1:]], ["beta", *frame[1:]]  # a slot at the start is a prefix, not a slot
    assert families.siblings(a, {"alpha"}, b, {"beta"}) is _plain_siblings(a, {"alpha"}, b, {"beta"}) is False
    a, b = [frame[0], "alpha", *frame[2:]], [frame[0], "beta", *frame[2:]]
    assert families.siblings(a, {"alpha"}, b, {"beta"}) is _plain_siblings(a, {"alpha"}, b, {"beta"}) is True
