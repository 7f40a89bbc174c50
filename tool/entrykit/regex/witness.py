"""Texts a regex matches, spelled from its parsed tree: each repeat its fewest times, and each branch of each alternation and each kind of character of a class once.

A text for each branch and short form of a regex, which no message may hold: `manifest not
found` for `manifest (unknown|not found)`, `interfacenilnot` for `interface.*nil.*not`
(`benchmarks/merged_regexes.py` makes entries of them). They are candidates, spelled
without running anything: the caller runs the regex on them and keeps those it matches (an
anchor, a word boundary or an atomic group may reject one). Like messages, they show some
texts a regex finds, never all: a merge leaves out nothing on their word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from entrykit.regex import syntax
from entrykit.regex.backtracking import CharOracle
from entrykit.regex.budget import TooComplex

MOST_TEXTS = 256  # a regex that needs more is not spelled
LONGEST_TEXT = 2_000  # characters of one text: a longer one is not spelled

# The characters spelled for a class, a shorthand or `.`: its own (each class item's first),
# then each of these it matches, one of each kind a narrower class may leave out (`\d` and
# `\w` hold digits and letters of every script: `[0-9]` leaves out `٣`).
_FALLBACK_CHARS = "aZ0 _-.:/é٣"
_SHORTHAND_CHARS = {"\\d": "0", "\\w": "a", "\\s": " ", "\\D": "a", "\\W": " ", "\\S": "a"}


class _Unspellable(Exception):
    pass


def branch_texts(pattern: str, flags: int) -> list[str] | None:
    """Texts `pattern` may match: the first branch of every alternation, the first character
    of every class, each repeat its fewest times; then one text per other branch, per other
    character (of the class's own and of a letter, a capital, a digit, a space, some
    punctuation, and a letter and a digit beyond ASCII) and per repeat taken once more, each
    with the rest as in the first. None for a pattern with a lookaround, a backreference or
    a conditional (what matches there is not spelled), or past `MOST_TEXTS`/`LONGEST_TEXT`."""
    try:
        parsed = syntax.parse(pattern, flags)
    except (re.error, RecursionError, TooComplex, OverflowError, ValueError):
        return None
    try:
        texts = _seq(parsed.nodes, flags | parsed.flags)
    except _Unspellable:
        return None
    return list(dict.fromkeys(texts))


_ORACLE = CharOracle()


def _seq(nodes: syntax.Seq, flags: int) -> list[str]:
    """The sequence's texts, the first its shortest: each node's first, then each other
    text of one node with the others' first."""
    options = [_node(node, flags) for node in nodes]
    firsts = [texts[0] for texts in options]
    out = ["".join(firsts)]
    for at, texts in enumerate(options):
        before, after = "".join(firsts[:at]), "".join(firsts[at + 1 :])
        out += [before + text + after for text in texts[1:]]
    return _bounded(out)


def _node(node: syntax.Node, flags: int) -> list[str]:
    if isinstance(node, syntax.Char):
        return [chr(node.code)]
    if isinstance(node, (syntax.NotChar, syntax.AnyChar, syntax.CharClass)):
        return _chars(node, flags)
    if isinstance(node, syntax.Anchor):
        return [""]
    if isinstance(node, (syntax.Group, syntax.Atomic)):
        return _seq(node.body, syntax.scoped_flags(node, flags))
    if isinstance(node, syntax.Alternation):
        return _bounded([text for branch in node.branches for text in _seq(branch, flags)])
    if isinstance(node, syntax.Repeat):
        return _repeat(node, _seq(node.body, flags))
    raise _Unspellable  # lookarounds, backreferences, conditionals


def _repeat(node: syntax.Repeat, body: list[str]) -> list[str]:
    """The fewest repetitions; each other text of the body in one of them (each text of the
    body alone, when the fewest is none); one repetition more, if allowed."""
    first = body[0]
    if len(first) * node.low > LONGEST_TEXT:
        raise _Unspellable
    if not node.low:
        return _bounded(["", *body])
    fewest, rest = first * node.low, first * (node.low - 1)
    texts = [fewest, *(rest + text for text in body[1:])]
    if node.high is None or node.high > node.low:
        texts.append(fewest + first)
    return _bounded(texts)


def _chars(node: syntax.CharNode, flags: int) -> list[str]:
    """The node's own characters and the fallbacks that it matches, its own first."""
    test = _ORACLE.test(node, flags)
    found = [char for char in dict.fromkeys(_own_chars(node) + _FALLBACK_CHARS) if test(char)]
    if not found:
        raise _Unspellable
    return found


def _own_chars(node: syntax.CharNode) -> str:
    if isinstance(node, syntax.CharClass) and not node.negated:
        return "".join(_item_char(item) for item in node.items)
    return ""


def _item_char(item: syntax.ClassItem) -> str:
    if isinstance(item, syntax.Char):
        return chr(item.code)
    if isinstance(item, syntax.CharRange):
        return chr(item.low)
    return _SHORTHAND_CHARS.get(item.escape, "")


def _bounded(texts: Sequence[str]) -> list[str]:
    if len(texts) > MOST_TEXTS or any(len(text) > LONGEST_TEXT for text in texts):
        raise _Unspellable
    return list(texts)
