"""The shortcuts over re's parse tree give what the plain walks give: the records read each
SubPattern's list of items, and the compiler walks SubPatterns made to iterate as their lists."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import compiling, syntax
from tests.pattern_strategies import joined_patterns
from tests.test_regex_parse_once import FLAGS, TRICKY

WORDS = ["error", "Error", "a", "ß", "İ", "中文", "x_1", "", "K", r"\.", r"\d"]
JOINERS = [
    "", " ", ".*", r"\s+", "|", "?", "[a-z]", "(?:", ")", "(", "(?P<g>", "{1,3}", r"\w+", "(?i)", "(?=", "(?!",
    "(?<=ab)", "(?>", "*+", "+?", "(?(1)x|y)", "(?(1)z)", r"\1", "[^x]", "^", "$", "(?:\\.\\d+)*",
]  # fmt: skip
PATTERNS = joined_patterns(WORDS, JOINERS, 8)


def _plain_seq(items: Any) -> syntax.Seq:
    """The records' walk as it was: each sequence iterated as re's tree gives it."""
    literal, chars = syntax._c.LITERAL, syntax._CHARS
    return tuple([chars[av] if op is literal else syntax._node(op, av) for op, av in items])


def _plain_records(pattern: str, flags: int, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The records of a fresh parse of `pattern`, made by the plain walk (or what it raises)."""
    with monkeypatch.context() as patched:
        patched.setattr(syntax, "_seq", _plain_seq)  # (`_node` reaches it by the module's name)
        try:
            return _plain_seq(syntax._p.parse(pattern, flags & ~syntax._DEBUG).data)
        except Exception as exc:
            return (type(exc), str(exc))


def _records(pattern: str, flags: int) -> Any:
    syntax.clear_memo()
    try:
        return syntax._parse_now(pattern, flags).nodes
    except Exception as exc:
        return (type(exc), str(exc))


def _subpatterns(data: list[Any]) -> Iterator[Any]:
    """Every SubPattern nested in re's tree `data`, by re's own iteration."""
    for op, av in data:
        if op is syntax._c.BRANCH:
            subs = list(av[1])
        elif op is syntax._c.SUBPATTERN:
            subs = [av[3]]
        elif op in syntax._REPEATS:
            subs = [av[2]]
        elif op is syntax._c.ATOMIC_GROUP:
            subs = [av]
        elif op in (syntax._c.ASSERT, syntax._c.ASSERT_NOT):
            subs = [av[1]]
        elif op is syntax._c.GROUPREF_EXISTS:
            subs = [s for s in av[1:] if s is not None]
        else:
            subs = []
        for sub in subs:
            yield sub
            yield from _subpatterns(sub.data)


@pytest.mark.parametrize("flags", FLAGS)
def test_the_records_are_those_of_the_plain_walk(fresh: None, flags: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for pattern in TRICKY:
        assert _records(pattern, flags) == _plain_records(pattern, flags, monkeypatch), pattern


@settings(max_examples=400, deadline=None)
@given(pattern=PATTERNS, flags=st.sampled_from(FLAGS), compile_first=st.booleans())
def test_generated_records_and_code_are_those_of_the_plain_walks(pattern: str, flags: int, compile_first: bool) -> None:
    syntax.clear_memo()
    with pytest.MonkeyPatch.context() as monkeypatch:
        plain = _plain_records(pattern, flags, monkeypatch)
    if compile_first:  # the records made from a tree the compiler walked (its SubPatterns iterate as lists)
        try:
            assert syntax.compiled(pattern, flags) == re.compile(pattern, flags)
        except Exception as exc:
            assert isinstance(exc, (re.error, OverflowError, RecursionError, ValueError, TypeError))
    try:
        records: Any = syntax.parse(pattern, flags).nodes
    except Exception as exc:
        records = (type(exc), str(exc))
    assert records == plain
    syntax.clear_memo()


def test_every_nested_subpattern_iterates_as_its_list(fresh: None) -> None:
    for pattern in [*TRICKY, "(a(b|c(?=d(?!e(?<=e)f))(?>g)h{2}(?(1)i|j))+)*", "(x)(?(1)y)"]:
        try:
            tree, _ = syntax._parse_tree(pattern, 0)
        except Exception:
            continue
        expected = [list(sub) for sub in _subpatterns(tree.data)]
        syntax._iterated_as_lists(tree.data)
        subs = list(_subpatterns(tree.data))
        assert all(type(sub) is syntax._ListIterating for sub in subs), pattern
        assert [list(sub) for sub in subs] == expected == [sub.data for sub in subs], pattern


def test_deadends_records_are_those_of_the_plain_walk(
    deadends_regexes: list[str], fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    patterns = deadends_regexes
    assert len(patterns) > 1000
    for pattern in patterns:
        if compiling.cheap_to_compile(pattern, re.IGNORECASE):  # the records of a tree the compiler walked
            assert syntax.compiled(pattern, re.IGNORECASE) == re.compile(pattern, re.IGNORECASE)
        assert syntax.parse(pattern, re.IGNORECASE).nodes == _plain_records(pattern, re.IGNORECASE, monkeypatch)
