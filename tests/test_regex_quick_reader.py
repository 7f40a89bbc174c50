"""The quick reader of the common regex shapes (`syntax._quick_tree`) gives what re's own
parser gives: the same tree (items, nested SubPatterns and their widths), the same parse
state, the same compiled code; and leaves to re's parser every pattern re would refuse."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import compiling, syntax
from tests.pattern_strategies import joined_patterns
from tests.test_regex_parse_once import FLAGS, TRICKY

from .conftest import generated_regexes

# the shapes the quick reader takes, and their edges (what it must leave to re's parser)
WORDS = ["error", "Error", "a", "ß", "İ", "中文", "x_1", "", "K", r"\.", r"\d", r"\ ", "]", "}", "\\", r"\é", r"\b"]
JOINERS = [
    "", " ", ".*", ".+?", r"\s+", "|", "?", "*", "+", "**", "*+", "+?", "??", "(?:", ")", "(", "((", "))", "^", "$",
    r"\w+", r"\\", r"\n", r"\e", r"\1", r"\x41", "(?:\\.\\d+)*", "(?:)", "()*", "|)", "(|", "^*", "[a-z]", "{2}", "(?i)",
]  # fmt: skip
PATTERNS = joined_patterns(WORDS, JOINERS, 8)
EDGES = [
    "", "|", "a|", "|a", "()", "(?:)", "(?:)*", "()+?", "(a)*+", "a|b|c", "a|b|(c)", "ab|ac|ad", "(?:ab|ac)x",
    "a|[bc]", "x*?+", "*a", "a)", "(a", "(?:a", "(?", "a\\", r"\d|\w", r"\.|\-", "^+", "$?", r"\b*", r"\A+",
    "((((a))))*", "(a|b)(c|d)", ".|a", r"\\|\t", "a" * 300,
    # branches with first items in common: cut from each, up to where one ends or differs
    "ab|ab", "ab|abc", "abc|ab", "a|a|a", "aab|aac|aad", "aab|aac|ab", "(?:xa|xb)|xc", "x(a)|x(a)", "(a)b|(a)c",
    "a" * 300 + "b|" + "a" * 300 + "c", r"\d+a|\d+b", "[ab]x|[ab]y|[ab]",
]  # fmt: skip


def _same(quick: Any, plain: Any, quick_state: Any, plain_state: Any) -> bool:
    """Whether two of re's trees (or parts of them) hold the same items, SubPatterns of the
    same class, widths and state object."""
    if isinstance(quick, syntax._SUBPATTERN) or isinstance(plain, syntax._SUBPATTERN):
        return (
            type(quick) is type(plain)
            and quick.width == plain.width
            and quick.state is quick_state
            and plain.state is plain_state
            and _same(quick.data, plain.data, quick_state, plain_state)
        )
    if isinstance(quick, (list, tuple)):
        return (
            type(quick) is type(plain)
            and len(quick) == len(plain)
            and all(_same(a, b, quick_state, plain_state) for a, b in zip(quick, plain, strict=True))
        )
    return type(quick) is type(plain) and quick == plain


def _state(tree: Any) -> tuple[Any, ...]:
    state = tree.state
    return (state.flags, state.groupdict, state.groupwidths, state.lookbehindgroups, state.grouprefpos, state.str)


def _check(pattern: str, flags: int) -> bool:
    """Assert the quick reader agrees with re's parser on `pattern`; whether it read it."""
    quick = syntax._quick_tree(pattern, flags)
    try:
        plain = syntax._p.parse(pattern, flags)
    except Exception:
        assert quick is None, pattern  # re refuses it: re's parser is to say why
        return False
    if quick is None:
        return False
    assert _same(quick, plain, quick.state, plain.state), pattern
    assert _state(quick) == _state(plain), pattern
    assert syntax._rc._code(quick, flags) == syntax._rc._code(plain, flags), pattern
    assert _same(quick, plain, quick.state, plain.state), pattern  # the widths the compiler worked out too
    return True


@pytest.mark.parametrize("flags", FLAGS)
def test_tricky_and_edge_patterns(flags: int) -> None:
    for pattern in [*TRICKY, *EDGES]:
        _check(pattern, flags)


@settings(max_examples=500, deadline=None)
@given(pattern=PATTERNS, flags=st.sampled_from(FLAGS))
def test_generated_patterns(pattern: str, flags: int) -> None:
    _check(pattern, flags)


def test_deadends_regexes(deadends_regexes: list[str]) -> None:
    patterns = deadends_regexes
    assert len(patterns) > 1000
    read = sum(_check(pattern, flags) for pattern in patterns for flags in (0, re.IGNORECASE))
    assert read > len(patterns)  # most of them: the shortcut is taken


@pytest.mark.parametrize("style", ["template", "mixed"])
def test_generated_corpus_regexes(style: str) -> None:
    patterns = generated_regexes(style)
    read = sum(_check(pattern, 0) for pattern in patterns)
    assert read >= 0.9 * len(patterns)


def test_parse_and_compile_read_quickly_as_re_does(fresh: None) -> None:
    for pattern in ["ERROR\\ \\[a_b\\]\\ took\\ \\d+(?:\\.\\d+)*\\ ms", "(fatal.*expected.*src/x\\.py|user.*job)"]:
        assert syntax._quick_tree(pattern, 0) is not None
        assert syntax.compiled(pattern, 0) == re.compile(pattern)
        syntax.clear_memo()
        assert syntax.parse(pattern, 0).nodes == syntax._seq(syntax._p.parse(pattern, 0).data)


def test_a_pattern_compiled_and_analysed_is_read_once(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each pattern is read once, by the quick reader or by re's parser, however it is asked for."""
    reads: list[str] = []
    quick, parse = syntax._quick_tree, syntax._p.parse

    def counted_quick(pattern: str, flags: int) -> Any:
        tree = quick(pattern, flags)
        if tree is not None:
            reads.append(pattern)
        return tree

    def counted_parse(pattern: str, flags: int = 0) -> Any:
        reads.append(pattern)
        return parse(pattern, flags)

    monkeypatch.setattr(syntax, "_quick_tree", counted_quick)
    monkeypatch.setattr(syntax._p, "parse", counted_parse)
    for number in range(100):  # more than the hand-off holds: each is taken while it is there
        pattern = f"(?P<n>entry {number}) (x|y)+"  # (a named group: re's parser)
        compiling.compile_pattern(pattern, re.IGNORECASE)
        syntax.parse(pattern, re.IGNORECASE)
        syntax.parse(f"analysed first {number}", 0)  # (the quick reader)
        compiling.compile_pattern(f"analysed first {number}", 0)
    assert len(reads) == 200 and len(set(reads)) == 200


class _CountedList(list[Any]):
    """A list that counts the items each deletion moves (those after what it deletes)."""

    moved = 0

    def __delitem__(self, index: Any) -> None:
        end = (index.stop if index.stop is not None else len(self)) if isinstance(index, slice) else index + 1
        _CountedList.moved += len(self) - min(end, len(self))
        super().__delitem__(index)


def test_a_long_common_prefix_is_cut_from_each_branch_in_one_pass(fresh: None) -> None:
    """Each branch's items move once however long their common prefix: re's own loop cuts the
    prefix one item at a time from the front of every branch (`a{L}b|a{L}c` written out took
    7 s at L = 240,000)."""
    length = 20_000
    state = syntax._p.State()
    literal = syntax._c.LITERAL
    branches = [
        syntax._SUBPATTERN(state, _CountedList([(literal, ord("a"))] * length + [(literal, ord(end))]))
        for end in "bcd"
    ]
    _CountedList.moved = 0
    tree = syntax._branches(branches, state)
    assert _CountedList.moved <= 3  # (the last item of each branch, moved to the front)
    assert tree.data[:length] == [(literal, ord("a"))] * length
    assert tree.data[length:] == [(syntax._c.IN, [(literal, ord(end)) for end in "bcd"])]
    pattern = "a" * length + "b|" + "a" * length + "c|" + "a" * length + "d"
    assert syntax.parse(pattern, 0).nodes == syntax._seq(tree.data)


def test_a_regex_longer_than_the_limit_is_too_complex_without_being_read(
    fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pattern past `MAX_PATTERN_CHARACTERS` is refused before either reader sees it: re's
    parser takes time that grows with the square of some shapes' length (a class at the end
    of each of two long branches leaves the pattern to it)."""
    half = syntax.MAX_PATTERN_CHARACTERS // 2
    longest = "a" * (half - 4) + "[bc]|" + "a" * (half - 5) + "[cd]"
    assert len(longest) == syntax.MAX_PATTERN_CHARACTERS
    assert syntax.parse(longest, 0).nodes  # (re's parser reads it: the quick reader leaves classes to it)
    syntax.clear_memo()

    def unread(*args: Any) -> Any:
        raise AssertionError("read")

    monkeypatch.setattr(syntax, "_quick_tree", unread)
    monkeypatch.setattr(syntax._p, "parse", unread)
    for _ in range(2):  # (the second time from the memo)
        with pytest.raises(syntax.TooComplex) as refused:
            syntax.parse(longest + "x", 0)
        assert "longer than 100,000 characters" in str(refused.value)  # (`match` would compile a regex)
