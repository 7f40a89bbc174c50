"""`inclusion`: the shortest text one regex finds that others do not, and the proof that there is none, from their automata."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from entrykit.regex import inclusion
from entrykit.regex.inclusion import missed_text, others_find_all

FIND = {"search": re.search, "match": re.match, "fullmatch": re.fullmatch}


@pytest.mark.parametrize(
    ("pattern", "others", "flags", "mode", "first"),
    [
        ("port \\d+ is", ["port \\d{1,2} is"], 0, "search", "port 000 is"),  # a repeat's bound
        ("port \\d{1,2} is", ["port \\d+ is"], 0, "search", None),
        ("manifest (unknown|not found)", ["manifest unknown"], 0, "search", "manifest not found"),
        ("\\S+ failed", ["[a-z]+ failed"], 0, "search", "0 failed"),
        ("[a-z]+ failed", ["\\S+ failed"], 0, "search", None),
        ("\\d+", ["[0-9]+"], 0, "search", "\u0660"),  # `\d` holds the digits of every script
        ("[0-9]+", ["\\d+"], 0, "search", None),
        ("(?i)CUDA out of memory", ["cuda out of memory"], 0, "search", "CUDA OUT OF MEMORY"),
        ("CUDA out of memory", ["cuda out of memory"], re.IGNORECASE, "search", None),
        ("CUDA out of memory", ["cuda out of memory", "CUDA"], 0, "search", None),  # either finds it
        ("^error: (.*)$", ["error"], 0, "search", None),
        ("x?error", ["error"], 0, "search", None),  # found anywhere in the text
        ("x?error", ["error"], 0, "match", "xerror"),  # found at its start only
        ("error.*", ["error"], 0, "match", None),
        ("a{3}", ["a{2}"], 0, "fullmatch", "aaa"),
        ("a{3}", ["a{2}"], 0, "search", None),
        ("a|b", [""], 0, "search", None),  # the empty regex finds every text
        ("(a|b)\\1", ["aa"], 0, "search", None),  # a backreference is not read
        ("a{5000}", ["a"], 0, "fullmatch", None),  # past the states
        ("(?:(?:\\b){4000}){4000}x", ["y"], 0, "search", None),  # past the steps, without a state
    ],
)
def test_first_text_missed(pattern: str, others: list[str], flags: int, mode: str, first: str | None) -> None:
    assert missed_text(pattern, others, flags, mode) == first


def test_an_anchor_is_read_as_nothing_so_re_may_reject_the_text() -> None:
    """`error\\b.*failed` is read as `error.*failed`: `errorfailed` is a candidate `re` rejects."""
    found = missed_text("error\\b.*failed", ["error .*failed"], 0, "search")
    assert found == "errorfailed"
    assert not re.search("error\\b.*failed", found)


@pytest.mark.parametrize(
    ("pattern", "others", "flags", "mode", "proven"),
    [
        ("port \\d{1,2} is", ["port \\d+ is"], 0, "search", True),
        ("port \\d+ is", ["port \\d{1,2} is"], 0, "search", False),  # `port 000 is`
        ("request body too large", ["413|request.*too large"], re.IGNORECASE, "search", True),
        ("request body too large", ["413", "request.*too large"], 0, "search", True),  # together
        ("^request body too large$", ["request.*too large"], 0, "search", True),  # finds less than it is read as
        ("(?=r)request body", ["request"], 0, "search", True),
        ("a(?=b)bc", ["abbc"], 0, "search", False),  # a lookaround reads no character
        ("request body", ["\\brequest"], 0, "search", False),  # read as more than `re` finds: nothing proven
        ("request body", ["(?>request)"], 0, "search", False),
        ("request body", ["reques[t]++"], 0, "search", False),
        ("(a|b)\\1", ["a|b"], 0, "search", False),  # not read
    ],
)
def test_others_find_all(pattern: str, others: list[str], flags: int, mode: str, proven: bool) -> None:
    assert others_find_all(pattern, others, flags, mode) is proven


def test_the_walk_stops_at_its_budget() -> None:
    pattern, others = "[a-f]{8}x", ["[a-e]{8}x", "[b-f]{8}x"]
    assert missed_text(pattern, others, 0, "search") == "aaaaaaafx"
    assert missed_text(pattern, others, 0, "search", steps=50) is None
    assert others_find_all("[a-e]{8}x", others, 0, "search")
    assert not others_find_all("[a-e]{8}x", others, 0, "search", steps=50)


def test_too_many_classes_is_not_read() -> None:
    pattern = "".join(f"[{chr(97 + n % 26)}{n}]" for n in range(inclusion.MOST_CLASSES + 1))
    assert missed_text(pattern, ["zzz"], 0, "search") is None


# Regexes without anchors, lookarounds or backreferences: what the automata read exactly.
_PIECES = ["a", "b", "ab", "A", " ", "0", "\\d", "[0-9]", "[a-c]", "[B-C]", "\\w", "\\S", ".", "[^a]", "é"]
_REPEATS = ["", "", "+", "*", "?", "{1,2}", "{2}", "{0,3}"]


def _spelled(parts: list[tuple[str, str]]) -> str:
    return "".join((f"(?:{p})" if len(p) > 1 and not p.startswith(("[", "\\")) else p) + r for p, r in parts)


@st.composite
def _alike_regexes(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A regex and one or two others, each the same but for one piece or repeat (or a branch more)."""
    part = st.tuples(st.sampled_from(_PIECES), st.sampled_from(_REPEATS))
    parts = draw(st.lists(part, min_size=1, max_size=4))
    regexes = []
    for _ in range(draw(st.integers(2, 3))):
        changed = list(parts)
        changed[draw(st.integers(0, len(parts) - 1))] = draw(part)
        extra = draw(st.sampled_from(["", "", "|" + draw(st.sampled_from(_PIECES))]))
        regexes.append(_spelled(changed) + extra)
    return regexes[0], regexes[1:]


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_alike_regexes(), st.sampled_from(sorted(FIND)), st.sampled_from([0, re.IGNORECASE]), st.data())
def test_texts_found_are_real_and_finding_none_means_none_exist(
    regexes: tuple[str, list[str]], mode: str, flags: int, data: st.DataObject
) -> None:
    """A text found is one `re` finds with the pattern and with none of the others; when none
    is found, the others find every text the pattern finds (Hypothesis writes them)."""
    pattern, others = regexes
    find = FIND[mode]
    found = missed_text(pattern, others, flags, mode)
    if found is not None:
        assert find(pattern, found, flags), (pattern, found)
        assert not any(find(other, found, flags) for other in others), (pattern, others, found)
    else:
        texts = data.draw(st.lists(st.from_regex(re.compile(pattern, flags), fullmatch=mode != "search"), max_size=10))
        for text in texts:
            if find(pattern, text, flags):
                assert any(find(other, text, flags) for other in others), (pattern, others, mode, text)


_ASSERTIONS = ["\\b", "^", "$", "(?=a)", "(?!b)", "(?>a+)", "\\d++"]


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_alike_regexes(), st.sampled_from(_ASSERTIONS), st.integers(0, 8), st.sampled_from(sorted(FIND)), st.data())
def test_what_others_are_proven_to_find_all_of_they_find(
    regexes: tuple[str, list[str]], assertion: str, at: int, mode: str, data: st.DataObject
) -> None:
    """With anchors, lookarounds and atomic parts in the pattern (read as more than `re`
    finds), a proof still holds: the others find every text the pattern finds."""
    pattern, others = regexes
    pattern = pattern[: min(at, len(pattern))] + assertion + pattern[min(at, len(pattern)) :]
    try:
        re.compile(pattern)
    except re.error:
        return  # (the assertion split an escape or a class)
    if not others_find_all(pattern, others, 0, mode):
        return
    find = FIND[mode]
    texts = data.draw(st.lists(st.from_regex(re.compile(pattern), fullmatch=mode != "search"), max_size=6))
    for text in texts:
        if find(pattern, text):
            assert any(find(other, text) for other in others), (pattern, others, mode, text)
