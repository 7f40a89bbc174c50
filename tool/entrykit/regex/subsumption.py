"""Whether one regex provably finds every text another finds, for the case merges meet: literal text.

A search for `blocked by CORS` finds every text that a search for `has been blocked by
CORS policy` finds, because every match of the second holds the first. That is proven
from the parsed patterns (`regex.syntax`): the texts the general regex matches exactly,
spelled in full (a literal, an alternation or class of literals), against the runs of
literal characters every match of the specific one holds; or an alternative both have.
Under IGNORECASE (over the whole of both patterns) texts are compared case-folded as `re`
compares characters (`regex.folding`). Anything else (other match modes, case folded in
part, anchors, repeats in the general regex) is not proven, never guessed.
"""

from __future__ import annotations

import re
from itertools import product

from entrykit.regex import syntax
from entrykit.regex.budget import TooComplex
from entrykit.regex.folding import fold

_EXACT_LIMIT = 64  # strings an exact set may hold: past it, nothing is proven


def finds_all(general: str, specific: str, flags: int, mode: str) -> bool:
    """True when, searched for in `search` mode, `general` is proven to find every text
    `specific` finds: each alternative of `specific` is one of `general`'s, or holds, in
    every match, a text that `general` matches exactly. False when that is not proven."""
    if mode != "search":
        return False
    try:
        wide, narrow = syntax.parse(general, flags), syntax.parse(specific, flags)
    except (re.error, RecursionError, TooComplex, OverflowError, ValueError):
        return False
    folds = _folds_case(wide)
    if folds is None or folds != _folds_case(narrow):
        return False
    seen = fold if folds else str
    found, same = {seen(text) for text in _found_by(wide.nodes)}, set(_alternatives(wide.nodes))
    return all(
        branch in same or any(text in seen(run) for text in found for run in _literal_runs(branch))
        for branch in _alternatives(narrow.nodes)
    )


def _folds_case(parsed: syntax.Parsed) -> bool | None:
    """True if the whole pattern is read under IGNORECASE, False if none of it is, None if
    part of it is, or case is folded as `folding.fold` does not (ASCII, LOCALE)."""
    cases = {bool(flags & re.IGNORECASE) for _, flags in parsed.walked} | {bool(parsed.flags & re.IGNORECASE)}
    if len(cases) > 1:
        return None
    folds = cases.pop()
    narrowed = any(flags & (re.ASCII | re.LOCALE) for _, flags in parsed.walked) or parsed.flags & (re.ASCII | re.LOCALE)
    return None if folds and narrowed else folds


def _alternatives(nodes: syntax.Seq) -> tuple[syntax.Seq, ...]:
    """The outermost alternatives of a pattern, through a group around all of it that sets no flags."""
    if len(nodes) == 1 and isinstance(nodes[0], syntax.Group) and not (nodes[0].add_flags or nodes[0].del_flags):
        return _alternatives(nodes[0].body)
    if len(nodes) == 1 and isinstance(nodes[0], syntax.Alternation):
        return nodes[0].branches
    return (nodes,)


def _found_by(nodes: syntax.Seq) -> set[str]:
    """Texts any text holding one of them is found by (a search for) the pattern."""
    found: set[str] = set()
    for branch in _alternatives(nodes):
        exact = _exact(branch)
        if exact is not None:
            found |= exact
    return found


def _exact(nodes: syntax.Seq) -> set[str] | None:
    """The strings the sequence matches, one of them exactly, or None if not so few and plain."""
    parts: list[set[str]] = []
    count = 1  # (the strings the parts spell out; each is joined once, at the end)
    for node in nodes:
        one = _exact_node(node)
        if one is None:
            return None
        count *= len(one)
        if count > _EXACT_LIMIT:
            return None
        parts.append(one)
    return {"".join(spelled) for spelled in product(*parts)}


def _exact_node(node: syntax.Node) -> set[str] | None:
    if isinstance(node, syntax.Char):
        return {chr(node.code)}
    if isinstance(node, syntax.CharClass):
        if node.negated or not all(isinstance(item, syntax.Char) for item in node.items):
            return None
        return {chr(item.code) for item in node.items if isinstance(item, syntax.Char)}
    if isinstance(node, syntax.Group):
        return _exact(node.body)
    if isinstance(node, syntax.Alternation):
        strings: set[str] = set()
        for branch in node.branches:
            one = _exact(branch)
            if one is None or len(strings | one) > _EXACT_LIMIT:
                return None
            strings |= one
        return strings
    return None


def _literal_runs(nodes: syntax.Seq) -> list[str]:
    """Texts every match of the sequence holds: its runs of parts that each match one string."""
    runs: list[str] = []
    run = ""
    for node in nodes:
        one = _exact_node(node)
        if one is not None and len(one) == 1:
            run += next(iter(one))
            continue
        if run:
            runs.append(run)
        run = ""
    if run:
        runs.append(run)
    return runs
