"""Searches for literal texts joined by `.*` (`a.*b|c.*d.*e`): read from their shape.

This is the commonest shape of an error-message regex: 1,092 of the 1,739 deadends.dev
canons' regexes are alternatives of words joined by `.*`. The backtracking
analysis (`redos`) of such a search always comes to one candidate, which its shape
spells without an automaton, and whether such a regex finds a text is a search for its
words in order, which needs no matcher. `redos.analyse` takes both from here, within
caps under which its automaton would have been built well within its budget; the tests
compare the two ways on generated regexes and on the canons' regexes.
"""

from __future__ import annotations

import re

from entrykit.regex import syntax
from entrykit.regex.folding import fold

# The flags that leave such a regex matching as this module reads it: `.` refuses only a
# newline, a literal is itself (or its cases), and no anchor is there for MULTILINE to move.
_PLAIN_FLAGS = syntax.IGNORECASE | syntax.ASCII | syntax.MULTILINE | syntax.VERBOSE | re.UNICODE
MAX_LOOPS = 16  # `.*` in all alternatives together
MAX_POSITIONS = 256  # literal characters and `.*` in all alternatives together

Runs = tuple[str, ...]  # one alternative: its literal texts, in order, a `.*` between each two


def literal_runs(parsed: syntax.Parsed, flags: int, mode: str) -> tuple[Runs, ...] | None:
    """Each alternative's literal texts when `parsed` is a search for literal texts joined
    by greedy `.*` (alternatives of them, in one group at most), no literal holding a
    newline, within `MAX_LOOPS` and `MAX_POSITIONS` (what the alternatives share in front
    counted in each); None for anything else."""
    if mode != "search" or (flags | parsed.flags) & ~_PLAIN_FLAGS:
        return None
    nodes = parsed.nodes
    if len(nodes) == 1 and type(nodes[0]) is syntax.Group:
        group = nodes[0]
        if group.add_flags or group.del_flags:
            return None
        nodes = group.body
    # `re` takes the characters all alternatives begin with out in front of them (`ab.*c|ad.*e`
    # is read `a(?:b.*c|d.*e)`): each alternative is that front and one of what follows
    if nodes and type(nodes[-1]) is syntax.Alternation:
        front, branches = nodes[:-1], nodes[-1].branches
    else:
        front, branches = (), (nodes,)
    found: list[Runs] = []
    loops = positions = 0
    for branch in branches:
        # each node of such an alternative is one position: past the caps, it is not read
        # (nor joined to the front: a long front and many branches would cost their product)
        positions += len(front) + len(branch)
        if positions > MAX_POSITIONS:
            return None
        runs = _runs(front + branch)
        if runs is None:
            return None
        loops += len(runs) - 1
        if loops > MAX_LOOPS:
            return None
        found.append(runs)
    return tuple(found)


def _runs(nodes: syntax.Seq) -> Runs | None:
    """The literal texts of `literal (.* literal)*`, each at least one character; else None."""
    runs: list[str] = []
    codes: list[int] = []
    char = syntax.Char
    for node in nodes:
        if type(node) is char:
            codes.append(node.code)
        elif codes and syntax.dot_star_kind(node) == syntax.GREEDY:
            runs.append("".join(map(chr, codes)))
            codes = []
        else:
            return None
    if not codes:
        return None
    runs.append("".join(map(chr, codes)))
    if any("\n" in run for run in runs):
        return None
    return tuple(runs)


def finds(alternatives: tuple[Runs, ...], text: str, ignore_case: bool) -> bool | None:
    """Whether the regex of `alternatives` finds a match anywhere in `text`; None where
    this cannot tell as `re` would (IGNORECASE with a character beyond ASCII: `fold` reads
    its cases as IGNORECASE alone does, and with ASCII too `re` folds ASCII letters only;
    on ASCII text the two agree).

    An alternative matches where its texts come in order on one line (`.` refuses a
    newline, and no text holds one); the first place each can come is as good as any."""
    if ignore_case:
        if not text.isascii() or not all(run.isascii() for runs in alternatives for run in runs):
            return None
        text = fold(text)
        alternatives = tuple(tuple(fold(run) for run in runs) for runs in alternatives)
    lines = text.split("\n")
    for runs in alternatives:
        for line in lines:
            at = 0
            for run in runs:
                at = line.find(run, at)
                if at < 0:
                    break
                at += len(run)
            else:
                return True
    return False
