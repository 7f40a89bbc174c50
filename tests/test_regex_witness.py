"""`witness.branch_texts`: texts spelled from a regex are texts it matches, one per branch and short form."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from entrykit.regex import syntax
from entrykit.regex.backtracking import Model, Verdict
from entrykit.regex.witness import LONGEST_TEXT, MOST_TEXTS, branch_texts

from .re_guard import counted_for_re

# No anchor and no atomic group: every text spelled from these is matched whole. (No repeated
# group around a repeat either: `(\S+)*` backtracks for ages where a fullmatch fails late.)
_ATOMS = st.sampled_from(
    ["a", "b", "ab", "x", " ", ".", ".*", ".+?", "[ab]", "[^a]", "[^\\s]", "\\d+", "\\w", "\\S+", "b?", "a{2,3}",
     "(?i:a)", "[A-Z]", "\\.", "-", "[^\\w]"]  # fmt: skip
)


def _regexes(depth: int) -> st.SearchStrategy[str]:
    seq = st.lists(_ATOMS, min_size=1, max_size=4).map("".join)
    if depth == 0:
        return seq
    branches = st.lists(_regexes(depth - 1), min_size=1, max_size=3).map("|".join)
    group = st.tuples(st.sampled_from(["(", "(?:", "(?s:"]), branches, st.sampled_from([")", ")?", "){2}"])).map(
        "".join
    )
    return st.lists(st.one_of(seq, group), min_size=1, max_size=3).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(_regexes(2), min_size=1, max_size=3).map("|".join), st.sampled_from([0, re.IGNORECASE, re.DOTALL]))
def test_every_text_spelled_from_a_regex_is_one_it_matches_whole(pattern: str, flags: int) -> None:
    texts = branch_texts(pattern, flags)
    assume(texts is not None)  # (past MOST_TEXTS: a pattern of many classes and repeats)
    assert texts
    assert len(texts) == len(set(texts)) <= MOST_TEXTS
    compiled = re.compile(pattern, flags)
    model = Model(syntax.parse(pattern, flags))
    for text in texts:
        # `re` is run only where its match is counted within a budget first: a regex these
        # make may backtrack for ages before it finds the match (`(.*.*){2}` and the like)
        counted = counted_for_re(model, text, "fullmatch")
        if counted is not None:
            assert counted.verdict is Verdict.MATCH, (pattern, text)
            assert compiled.fullmatch(text), (pattern, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["ab", "cd", "ef", "gh", "x y", "a.b"]), min_size=2, max_size=4, unique=True), st.sampled_from(["", "pre ", "(?i)"]))
def test_each_branch_of_an_alternation_is_spelled(words: list[str], before: str) -> None:
    texts = branch_texts(f"{before}({'|'.join(map(re.escape, words))})", 0) or []
    assert [text[len(before) if not before.startswith("(?") else 0 :] for text in texts] == words


@pytest.mark.parametrize(
    ("pattern", "flags", "texts"),
    [
        ("manifest (unknown|not found)", 0, ["manifest unknown", "manifest not found"]),
        ("interface.*nil", 0, ["interfacenil", *(f"interface{c}nil" for c in "aZ0 _-.:/é٣")]),
        ("Bind for .+?:\\d+ failed", 0, [*(f"Bind for {c}:0 failed" for c in "aZ0 _-.:/é٣"), "Bind for aa:0 failed", "Bind for a:٣ failed", "Bind for a:00 failed"]),
        ('quote [^"]+ end', 0, [*(f"quote {c} end" for c in "aZ0 _-.:/é٣"), "quote aa end"]),
        ("[^a]", 0, list("Z0 _-.:/é٣")),
        ("(?i)[^A]", 0, list("Z0 _-.:/é٣")),  # `a` is `A` under IGNORECASE
        ("[ab0-9]", 0, ["a", "b", "0"]),  # the class's own, each item's first
        ("\\d+ (x|yz)?", 0, ["0 ", "٣ ", "00 ", "0 x", "0 yz"]),  # `\\d` holds digits of every script
        ("a{3}(x|yz)?", 0, ["aaa", "aaax", "aaayz"]),
        ("\\bword\\b$", 0, ["word"]),  # anchors spell nothing
        ("(?>ab|a)c", 0, ["abc", "ac"]),
        ("x(?=y)", 0, None),  # a lookaround
        ("(a)\\1", 0, None),  # a backreference
        ("(a)?(?(1)b|c)", 0, None),  # a conditional
        (f"a{{{LONGEST_TEXT + 1}}}", 0, None),
        ("(a|b|c|d|e|f|g|h|i|j|kk){7}" * 7 + "(" + "|".join(f"w{n}" for n in range(MOST_TEXTS)) + ")", 0, None),
        ("(", 0, None),  # does not parse
    ],
)
def test_texts_spelled_from_a_regex(pattern: str, flags: int, texts: list[str] | None) -> None:
    assert branch_texts(pattern, flags) == texts
