"""The regexes the regex fixes write mean what the original meant, but for what the finding
names: ET214's (`hygiene.literal_dots`) turns the dots it names, and nothing else, into
literal dots; ET218's (`hygiene.useless_dot_stars`) drops the `.*` it names, and nothing else."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import hygiene, syntax
from entrykit.rules.regex_hygiene import _trim  # (how the rule applies each one)

_WORDS = ("ab", "x1", "pm2", "log", "5")
# (and spellings where a `.` is no wildcard, or a wildcard after a backslash)
_ATOMS = st.sampled_from(
    [*_WORDS, ".", ".*", ".+?", ".?", ".{2}", "\\.", "[.]", " ", "[]a.]", "[^].]", "(?#.)", "\\\\.", "\\x2e"]
)


def _pieces(depth: int) -> st.SearchStrategy[str]:
    if depth == 0:
        return st.lists(_ATOMS, min_size=1, max_size=5).map("".join)
    branches = st.lists(_pieces(depth - 1), min_size=1, max_size=3).map("|".join)
    group = st.tuples(st.sampled_from(["(", "(?:"]), branches, st.sampled_from([")", ")?", ")*"])).map("".join)
    return st.lists(st.one_of(_ATOMS, group), min_size=1, max_size=5).map("".join)


_REGEXES = st.lists(_pieces(2), min_size=1, max_size=3).map("|".join)
# every dotted pair of words, so that most regexes have a dot to escape; or a few words
_EVERY_PAIR = " ".join(f"{a}.{b}" for a in _WORDS for b in _WORDS)
_SIGNATURES = st.one_of(
    st.just(_EVERY_PAIR), st.lists(st.sampled_from([*_WORDS, ".", " "]), min_size=1, max_size=12).map("".join)
)


def _shape(node: syntax.Node) -> object:
    """A node without its children (the walk compares those one by one)."""
    return type(node).__name__ if node.children() else node


@settings(max_examples=400, deadline=None)
@given(_REGEXES, _SIGNATURES, st.booleans())
def test_the_escaped_regex_differs_only_in_the_dots_named(regex: str, signature: str, ignore_case: bool) -> None:
    flags = re.IGNORECASE if ignore_case else 0
    try:
        parsed = syntax.parse(regex, flags)
    except re.error:
        return
    found = hygiene.literal_dots(parsed, signature)
    if found is None or found.escaped is None:
        return
    before = [_shape(node) for node, _ in parsed.walked]
    after = [_shape(node) for node, _ in syntax.parse(found.escaped, flags).walked]
    assert len(before) == len(after), found.escaped
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert changed and all(a == syntax.AnyChar() and b == syntax.Char(ord(".")) for a, b in changed), found.escaped
    assert len(changed) == len(found.contexts)
    # and the dots escaped are the ones named: each stands alone, none is repeated (`.*`)
    for at in _escaped_at(regex, found.escaped):
        assert regex[at + 1 : at + 2] not in ("*", "+", "?", "{"), (regex, found.escaped)


def _escaped_at(regex: str, escaped: str) -> list[int]:
    """Where in `regex` a `.` became `\\.` in `escaped` (which only adds backslashes)."""
    out, shift = [], 0
    for at, char in enumerate(regex):
        if escaped[at + shift] != char:
            assert escaped[at + shift : at + shift + 2] == "\\." and char == "."
            out.append(at)
            shift += 1
    assert len(escaped) == len(regex) + shift
    return out


def test_a_dot_after_repeats_in_earlier_branches_is_the_one_escaped() -> None:
    parsed = syntax.parse("(india.*diwali|delhi.*pm2.5)", re.IGNORECASE)
    found = hygiene.literal_dots(parsed, "post-Diwali air in Delhi (PM2.5 spikes)")
    assert found is not None and found.contexts == ("pm2.5",)
    assert found.escaped == "(india.*diwali|delhi.*pm2\\.5)"


_MODES = st.sampled_from(["search", "match", "fullmatch"])


@settings(max_examples=400, deadline=None)
@given(st.tuples(st.sampled_from(["", ".*", ".*?"]), _REGEXES, st.sampled_from(["", ".*", ".*?", "\\\\.*", "\\.*"])), _MODES)
def test_the_trimmed_regex_lacks_only_the_dot_stars_named(parts: tuple[str, str, str], mode: str) -> None:
    lead, middle, trail = parts
    regex = f"{lead}(?:{middle}){trail}" if "|" in middle else f"{lead}{middle}{trail}"
    try:
        parsed = syntax.parse(regex)
    except re.error:
        return
    found = hygiene.useless_dot_stars(parsed, mode)
    if not found or any(item.trimmed is None for item in found):
        return
    trimmed = regex
    for item in found:  # (as the rule applies them: the leading one first)
        trimmed = _trim(trimmed, item.where)
    nodes = parsed.nodes
    if any(item.where == "leading" for item in found):
        nodes = nodes[1:]
    if any(item.where == "trailing" for item in found):
        nodes = nodes[:-1]
    assert syntax.parse(trimmed).nodes == nodes, (regex, trimmed)
