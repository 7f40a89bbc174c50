"""The regex syntax layer: what `re` parses, as records; parsed once; the only reader of `re`'s internals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.regex import syntax
from entrykit.regex.backtracking import Model
from entrykit.regex.syntax import (
    GREEDY,
    LAZY,
    POSSESSIVE,
    Alternation,
    Anchor,
    AnyChar,
    Atomic,
    Backref,
    Category,
    Char,
    CharClass,
    CharRange,
    Conditional,
    Group,
    Lookaround,
    NotChar,
    Repeat,
)

from .re_guard import counted_for_re

a, b, c = Char(ord("a")), Char(ord("b")), Char(ord("c"))

CONSTRUCTS = [
    ("ab", (a, b)),
    (r"\.", (Char(ord(".")),)),
    ("[^a]", (NotChar(ord("a")),)),
    (".", (AnyChar(),)),
    (r"[a-c\d_]", (CharClass(False, (CharRange(97, 99), Category("\\d"), Char(ord("_")))),)),
    (r"[^\s]", (CharClass(True, (Category("\\s"),)),)),
    (r"\W", (CharClass(False, (Category("\\W"),)),)),
    ("(a|A)", (Group(1, 0, 0, (CharClass(False, (Char(97), Char(65))),)),)),  # re merges one-letter branches
    (r"^\A$\Z\b\B", tuple(Anchor(kind) for kind in ("^", "\\A", "$", "\\Z", "\\b", "\\B"))),
    ("(?:ab)", (a, b)),  # a plain non-capturing group is no node
    ("(?P<x>a)(?i:b)", (Group(1, 0, 0, (a,)), Group(None, re.IGNORECASE, 0, (b,)))),
    ("ab|c", (Alternation(((a, b), (c,))),)),
    ("a*b+?c{2,5}+", (Repeat(0, None, (a,), GREEDY), Repeat(1, None, (b,), LAZY), Repeat(2, 5, (c,), POSSESSIVE))),
    ("a{3}", (Repeat(3, 3, (a,)),)),
    ("(?>ab)", (Atomic((a, b)),)),
    ("(?=a)(?!b)(?<=c)(?<!a)", (
        Lookaround(False, False, (a,)), Lookaround(False, True, (b,)),
        Lookaround(True, False, (c,), 1), Lookaround(True, True, (a,), 1),
    )),
    (r"(a)\1", (Group(1, 0, 0, (a,)), Backref(1))),
    ("(?P<x>a)(?P=x)", (Group(1, 0, 0, (a,)), Backref(1))),
    ("(a)?(?(1)b|c)(?(1)b)", (
        Repeat(0, 1, (Group(1, 0, 0, (a,)),)), Conditional(1, (b,), (c,)), Conditional(1, (b,), None),
    )),
]


@pytest.mark.parametrize(("pattern", "nodes"), CONSTRUCTS, ids=[p for p, _ in CONSTRUCTS])
def test_each_construct_becomes_its_record(pattern: str, nodes: syntax.Seq) -> None:
    assert syntax.parse(pattern).nodes == nodes


def test_the_flags_in_force_are_the_given_ones_the_inline_ones_and_unicode() -> None:
    parsed = syntax.parse("(?m)a", re.IGNORECASE)
    assert parsed.flags == re.IGNORECASE | re.MULTILINE | re.UNICODE
    assert type(parsed.flags) is int  # a plain number: it goes into cache keys
    assert syntax.parse("a", re.ASCII).flags == re.ASCII
    assert syntax.parse("a", re.DEBUG).flags == re.UNICODE  # DEBUG would print the tree


def test_walk_visits_in_pattern_order_with_the_flags_of_each_scope() -> None:
    parsed = syntax.parse("(?i:x(?-i:y)|z)w")
    seen = [(node, flags & re.IGNORECASE) for node, flags in syntax.walk(parsed.nodes, parsed.flags)
            if isinstance(node, Char)]
    assert seen == [(Char(120), re.IGNORECASE), (Char(121), 0), (Char(122), re.IGNORECASE), (Char(119), 0)]


def _reference_order(nodes: syntax.Seq) -> list[syntax.Node]:
    out: list[syntax.Node] = []
    for node in nodes:
        out.append(node)
        for part in node.children():
            out += _reference_order(part)
    return out


_PIECES = st.sampled_from(
    ["a", "b", "[ab]", "[^a]", ".", r"\d", "^", "$", r"\b", "(", ")", "(?:", "(?P<g>", "(?>", "(?=", "(?<!",
     "|", "*", "+", "?", "*?", "++", "{2}", "{1,3}", r"\1", "(?(1)", "(?i:", "x"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=14))
def test_parse_agrees_with_re_and_walk_and_places_with_a_recursive_reading(pieces: list[str]) -> None:
    pattern = "".join(pieces)
    try:
        compiled = re.compile(pattern)
    except (re.error, OverflowError, RecursionError):
        with pytest.raises(re.error):
            syntax.parse(pattern)
        return
    parsed = syntax.parse(pattern)
    assert parsed.groups == compiled.groups
    assert [node for node, _ in syntax.walk(parsed.nodes)] == _reference_order(parsed.nodes)
    assert syntax.count_nodes(parsed.nodes) == len(_reference_order(parsed.nodes))
    assert [seq[at] for seq, at in syntax.places(parsed.nodes)] == _reference_order(parsed.nodes)
    dots = [node for node in _reference_order(parsed.nodes) if isinstance(node, syntax.AnyChar)]
    assert [seq[at] for seq, at in syntax.places(parsed.nodes, syntax.AnyChar)] == dots
    for kind in (syntax.AnyChar, syntax.CharClass, syntax.Repeat):
        every = [node for node in _reference_order(parsed.nodes) if type(node) is kind]
        assert sorted(map(id, syntax.nodes_of_type(parsed.nodes, kind))) == sorted(map(id, every))


_DOT_PIECES = st.sampled_from(
    ["a", ".", "\\", "\\\\", "\\.", "[.]", "[\\.]", "[", "]", "^", "(?:", ")", "*", "(?#.)", "\\N{FULL STOP}", "(?x)", "#", "\n", " "]
)


@settings(max_examples=1000, deadline=None)
@given(st.lists(_DOT_PIECES, max_size=12))
def test_a_pattern_said_to_hold_no_any_character_holds_none(pieces: list[str]) -> None:
    pattern = "".join(pieces)
    try:
        parsed = syntax.parse(pattern)
    except re.error:
        return
    if not syntax.may_hold_any_character(pattern):
        assert not list(syntax.places(parsed.nodes, syntax.AnyChar))
        assert not syntax.unescaped_dots(pattern)


@pytest.mark.parametrize(
    ("pattern", "may"),
    [(r"a\.b", False), (r"\\\.", False), (r"\N{FULL STOP}", False), ("abc", False),
     ("a.b", True), (r"a\\.b", True), ("[.]", True)],
)
def test_an_escaped_dot_is_no_any_character(pattern: str, may: bool) -> None:
    assert syntax.may_hold_any_character(pattern) is may


@pytest.mark.parametrize("pattern", ["a|b.|c", "(x.|y.)+|z(?:.|..)", "(a)(?(1)b.|c.)d."])
def test_places_are_in_pattern_order_and_pick_a_kind(pattern: str) -> None:
    parsed = syntax.parse(pattern)
    everything = _reference_order(parsed.nodes)
    assert [seq[at] for seq, at in syntax.places(parsed.nodes)] == everything
    dots = [seq[at] for seq, at in syntax.places(parsed.nodes, syntax.AnyChar)]
    assert dots == [node for node in everything if isinstance(node, syntax.AnyChar)] and dots


@pytest.mark.parametrize("pattern", ["(?<!a|)", "(?<=a*)", "x(?<=ab?)"])
def test_a_lookbehind_of_varying_width_fails_as_re_compile_fails(pattern: str) -> None:
    """`re`'s parser accepts these and its compiler refuses them (hypothesis found the first)."""
    with pytest.raises(re.error):
        re.compile(pattern)
    with pytest.raises(re.error, match="fixed-width"):
        syntax.parse(pattern)


def test_a_pattern_is_parsed_once_and_a_bad_one_fails_afresh_each_time() -> None:
    pattern = "parsed once: (a|b)+c"
    assert syntax.parse(pattern, 0) is syntax.parse(pattern, 0)
    assert syntax.parse(pattern, re.IGNORECASE) is not syntax.parse(pattern, 0)
    errors = []
    for _ in range(2):
        with pytest.raises(re.error) as caught:
            syntax.parse("bad (regex", 0)
        errors.append(caught.value)
    assert errors[0] is not errors[1]  # a kept exception would grow a traceback per raise
    assert errors[0].msg == errors[1].msg == "missing ), unterminated subpattern" and errors[1].pos == 4


def test_the_memo_stays_within_its_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(syntax, "MEMO_ENTRIES", 50)
    monkeypatch.setattr(syntax, "MEMO_CHARACTERS", 2_000)
    syntax.clear_memo()
    try:
        for number in range(200):
            syntax.parse(f"entry {number} (x|y)+")
            assert syntax.memo_size()[0] <= 50
        for number in range(20):
            syntax.parse(f"{number}" + "z" * 300)
            assert syntax.memo_size()[1] <= 2_000
        syntax.parse("q" * 90_000)  # longer than any pattern worth keeping
        assert syntax.memo_size()[1] <= 2_000
        with pytest.raises(syntax.TooComplex):  # too long to read: its refusal is kept no more
            syntax.parse("q" * 300_000)
        assert syntax.memo_size()[1] <= 2_000
    finally:
        syntax.clear_memo()


def test_a_pattern_too_long_to_keep_with_the_others_is_parsed_once_while_it_is_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules reading one entry's regex ask for its parse one after the other: a pattern past
    `_LONGEST_KEPT` was parsed again for each of them (9 times in a lint)."""
    parses: list[str] = []
    parse_now = syntax._parse_now

    def counted(pattern: str, flags: int) -> syntax.Parsed:
        parses.append(pattern)
        return parse_now(pattern, flags)

    monkeypatch.setattr(syntax, "_parse_now", counted)
    monkeypatch.setattr(syntax, "_LONGEST_KEPT", 20)
    syntax.clear_memo()
    try:
        long, other = "a" * 30 + "(b|c)+", "d" * 30
        first = syntax.parse(long)
        assert syntax.parse(long) is first and syntax.parse("x") is syntax.parse("x")
        assert parses == [long, "x"]
        assert syntax.memo_size() == (1, 1)  # the long one is not among the others
        syntax.parse(other)
        syntax.parse(long)  # the last long pattern only is kept
        assert parses == [long, "x", other, long]
        with pytest.raises(re.error):
            syntax.parse("(" * 25)
        with pytest.raises(re.error):
            syntax.parse("(" * 25)  # a refusal is kept too, and raised anew
        assert parses[-1] == "(" * 25 and len(parses) == 5
    finally:
        syntax.clear_memo()


def test_case_tables_are_re_s() -> None:
    assert syntax.re_lower(ord("K")) == ord("k")
    assert syntax.re_lower(0x212A) == ord("k")  # the Kelvin sign
    assert 0x131 in syntax.extra_cases(ord("i"))  # dotless i compares equal to i under IGNORECASE
    assert re.fullmatch("\u0131", "i", re.IGNORECASE)


def test_only_the_syntax_module_reads_re_internals() -> None:
    package = Path(syntax.__file__).resolve().parents[1]
    readers = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if re.search(r"re\._parser|re\._constants|_casefix|\bsre_parse\b|\bsre_constants\b|import _sre|"
                     r"from re import _", path.read_text(encoding="utf-8"))
    )
    assert readers == ["regex/syntax.py"]


# -- the outermost alternatives as the pattern spells them ----------------------------------

# atoms that hold a `|` that is no alternation (escaped, in a class, in a comment), or none
_ALT_ATOMS = st.sampled_from(["a", "b", "ab", "\\|", "[|]", "[]|]", "(?#x|y)", ".", "\\d", "x*", " "])


def _alt_pieces(depth: int) -> st.SearchStrategy[str]:
    if depth == 0:
        return st.lists(_ALT_ATOMS, min_size=0, max_size=4).map("".join)
    inner = st.lists(_alt_pieces(depth - 1), min_size=1, max_size=3).map("|".join)
    group = st.tuples(st.sampled_from(["(", "(?:", "(?=", "(?P<g>"]), inner, st.sampled_from([")", ")?", ")*"]))
    return st.lists(st.one_of(_ALT_ATOMS, group.map("".join)), min_size=0, max_size=4).map("".join)


_ALT_TEXTS = st.lists(st.sampled_from(["a", "b", "|", "]", "1", " ", "x"]), max_size=8).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(_alt_pieces(2), min_size=1, max_size=4).map("|".join), st.lists(_ALT_TEXTS, max_size=6))
@example(pattern="(?:(?:a|a|a)*|(?:a|a|a)*|(?:a|a|a)*)*\\d", texts=["aaaaaaaa", "a1"])  # counted, not run, on the first
def test_the_outermost_alternatives_spell_the_pattern_and_match_what_it_matches(pattern: str, texts: list[str]) -> None:
    """Joined by `|` they are the pattern (or a plain group around all of it); each alone is a
    regex; a text the pattern finds is found by one of them, and only then."""
    if pattern.count("(?P<g>") > 1:
        pattern = pattern.replace("(?P<g>", "(", pattern.count("(?P<g>") - 1)  # a name defined once
    branches = syntax.top_alternatives(pattern)
    joined = "|".join(branches)
    # the pattern, or a plain group around all of it
    assert joined == pattern or any(pattern == f"{opening}{joined})" for opening in ("(", "(?:", "(?P<g>"))
    whole = re.compile(pattern)
    alone = [re.compile(branch) for branch in branches]
    # `re` is run only where every search is counted within a budget first: a repeated group of
    # repeated alternatives backtracks for ages on a text of eight characters it does not find
    # (the example's first text: a minute a search)
    models = [Model(syntax.parse(p)) for p in (pattern, *branches)]
    for text in texts:
        if any(counted_for_re(m, text) is None for m in models):
            continue
        assert bool(whole.search(text)) == any(b.search(text) for b in alone), (pattern, text)


@pytest.mark.parametrize(
    ("pattern", "branches"),
    [
        ("a|b(c|d)", ("a", "b(c|d)")),
        ("(a|b)", ("a", "b")),  # through a group around all of it
        ("(?:a|(b|c))", ("a", "(b|c)")),
        ("(?P<n>a|b)", ("a", "b")),
        ("(a|b)+", ("(a|b)+",)),
        ("(a|b)(c|d)", ("(a|b)(c|d)",)),
        ("(?=a|b)", ("(?=a|b)",)),
        ("plain", ("plain",)),
        ("x\\|y|[|]|(?#p|q)z", ("x\\|y", "[|]", "(?#p|q)z")),
        ("(?(1)a|b)", ("(?(1)a|b)",)),
        ("|a|", ("", "a", "")),
    ],
)
def test_top_alternatives(pattern: str, branches: tuple[str, ...]) -> None:
    assert syntax.top_alternatives(pattern) == branches
