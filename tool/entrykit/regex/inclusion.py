"""A text one regex finds and other regexes do not, found in the product of their automata; or a proof that there is none.

A merge leaves out an absorbed regex's alternative only when the regexes it keeps are
proven to find all it finds; messages and spelled texts show that for some texts, not all:
`port \\d{1,2} is` finds `port 0 is` and `port 00 is`, which `port \\d+ is` spells, but
not `port 000 is`. Here both are read as automata over the classes of characters their
nodes tell apart (each class's exact set of code points, as `re` decides it under the
flags in force), and a breadth-first walk of their product looks for the shortest text the
one finds and the others do not, as the match mode finds: anywhere (`search`), at the
start (`match`), or whole (`fullmatch`).

The automata read a little more than `re` would: an anchor or a lookaround as nothing, an
atomic group or a possessive repeat as a plain one. So a text found here is a candidate
the caller runs through `re` before believing it, and finding none proves nothing: a
backreference or a conditional is not read at all, and a text `re` rejects (at a `\\b`)
may stand where one it accepts would have been found. Where the others are read exactly
(no anchor, lookaround, atomic group or possessive repeat) and the walk ends without a
text, they are proven to find every text the one finds (`others_find_all`). The walk is
bounded in states, classes and steps.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections import deque
from collections.abc import Sequence
from functools import lru_cache

from entrykit.regex import syntax
from entrykit.regex.budget import Budget, TooComplex

MOST_STATES = 4_000  # automaton states of all the regexes together
MOST_CLASSES = 64  # distinct character nodes
STEP_BUDGET = 200_000
_UNICODE_END = 0x110000


class _Unread(Exception):
    pass


# (states of the regex whose texts are looked for, states of the others), after some text
_Pair = tuple[frozenset[int], frozenset[int]]


def missed_text(pattern: str, others: Sequence[str], flags: int, mode: str, steps: int = STEP_BUDGET) -> str | None:
    """The shortest text `pattern` may find and none of `others` finds (as the automata read
    them), or None: there is none, one of the regexes is not read, or the walk ran past its
    bounds."""
    return _search(pattern, tuple(others), flags, mode, steps)[0]


def others_find_all(pattern: str, others: Sequence[str], flags: int, mode: str, steps: int = STEP_BUDGET) -> bool:
    """True when `others` together are proven to find every text `pattern` finds: the walk
    ends without a text, and the others are read exactly (no anchor, lookaround, atomic
    group or possessive repeat: `pattern` read as more than `re` finds proves as much)."""
    text, exact = _search(pattern, tuple(others), flags, mode, steps)
    return text is None and exact


@lru_cache(maxsize=256)  # (a merge asks both of one alternative)
def _search(pattern: str, others: tuple[str, ...], flags: int, mode: str, steps: int) -> tuple[str | None, bool]:
    """(the text `missed_text` gives, whether the walk ended and read `others` exactly)."""
    if not others:
        return None, False
    try:
        budget = Budget(steps, "the inclusion search")
        automata = _Automata(budget)
        wanted = automata.regex(pattern, flags)
        automata.exact = True
        covering = automata.union([automata.regex(other, flags) for other in others])
        return _walk(automata, wanted, covering, mode, budget), automata.exact
    except (_Unread, TooComplex, re.error, RecursionError, OverflowError, ValueError):
        return None, False


class _Automata:
    """Automata with empty moves, all in one table of states; a move on a character names
    one of the character classes, kept once each."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.empty: list[list[int]] = []
        self.moves: list[list[tuple[int, int]]] = []
        self.classes: dict[tuple[str, int], int] = {}
        self.exact = True  # nothing read as more than `re` finds since it was last set

    def state(self) -> int:
        if len(self.empty) >= MOST_STATES:
            raise _Unread
        self.empty.append([])
        self.moves.append([])
        return len(self.empty) - 1

    def regex(self, pattern: str, flags: int) -> tuple[int, int]:
        """(start, end) of the automaton of `pattern`."""
        parsed = syntax.parse(pattern, flags)
        start = self.state()
        return start, self._seq(parsed.nodes, flags | parsed.flags, start)

    def union(self, parts: Sequence[tuple[int, int]]) -> tuple[int, int]:
        start, end = self.state(), self.state()
        for first, last in parts:
            self.empty[start].append(first)
            self.empty[last].append(end)
        return start, end

    def _seq(self, nodes: syntax.Seq, flags: int, at: int) -> int:
        for node in nodes:
            at = self._node(node, flags, at)
        return at

    def _class(self, source: str, flags: int) -> int:
        number = self.classes.setdefault((source, flags & syntax.CLASS_FLAGS), len(self.classes))
        if len(self.classes) > MOST_CLASSES:
            raise _Unread
        return number

    def _node(self, node: syntax.Node, flags: int, at: int) -> int:
        self.budget.spend()  # (a repeat reads its body once per copy, states or none)
        if isinstance(node, syntax.CHARACTER_NODES):
            number = self._class(syntax.char_source(node), flags)
            after = self.state()
            self.moves[at].append((number, after))
            return after
        if isinstance(node, syntax.Anchor):
            # Read as nothing; the characters it tells apart (a word's from others, a line
            # break) are spelled apart, so some text found has what `re` asks there.
            self._class("\\w" if node.kind in ("\\b", "\\B") else "\\n", flags)
            self.exact = False
            return at
        if isinstance(node, syntax.Lookaround):
            self.exact = False
            return at  # (read as nothing: more texts than `re` finds)
        if isinstance(node, (syntax.Group, syntax.Atomic)):
            self.exact = self.exact and isinstance(node, syntax.Group)
            return self._seq(node.body, syntax.scoped_flags(node, flags), at)
        if isinstance(node, syntax.Alternation):
            end = self.state()
            for branch in node.branches:
                begin = self.state()
                self.empty[at].append(begin)
                self.empty[self._seq(branch, flags, begin)].append(end)
            return end
        if isinstance(node, syntax.Repeat):
            return self._repeat(node, flags, at)
        raise _Unread  # backreferences, conditionals

    def _repeat(self, node: syntax.Repeat, flags: int, at: int) -> int:
        self.exact = self.exact and node.kind != syntax.POSSESSIVE
        if node.low > MOST_STATES:
            raise _Unread
        for _ in range(node.low):
            at = self._seq(node.body, flags, at)
        if node.high is None:
            loop, begin = self.state(), self.state()
            self.empty[at].append(loop)
            self.empty[loop].append(begin)
            self.empty[self._seq(node.body, flags, begin)].append(loop)
            return loop
        if node.high - node.low > MOST_STATES:
            raise _Unread
        end = self.state()
        self.empty[at].append(end)
        for _ in range(node.high - node.low):
            begin = self.state()
            self.empty[at].append(begin)
            at = self._seq(node.body, flags, begin)
            self.empty[at].append(end)
        return end


def _walk(automata: _Automata, wanted: tuple[int, int], covering: tuple[int, int], mode: str, budget: Budget) -> str | None:
    atoms = _Atoms(list(automata.classes), budget)
    moves = [[(atoms.members[number], target) for number, target in out] for out in automata.moves]
    closures: dict[frozenset[int], frozenset[int]] = {}

    def closure(states: frozenset[int]) -> frozenset[int]:
        known = closures.get(states)
        if known is None:
            seen, stack = set(states), list(states)
            while stack:
                for nxt in automata.empty[stack.pop()]:
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
            budget.spend(len(seen))
            known = closures[states] = frozenset(seen)
        return known

    def step(states: frozenset[int], atom: int) -> frozenset[int]:
        budget.spend(len(states))
        return closure(frozenset(t for s in states for members, t in moves[s] if members >> atom & 1))

    anywhere, found_for_good = mode == "search", mode in ("search", "match")
    (w_start, w_end), (c_start, c_end) = wanted, covering
    restart = closure(frozenset((c_start,)))
    first = (closure(frozenset((w_start,))), restart)
    if found_for_good and c_end in restart:
        return None  # the others find the empty text, so every text
    parents: dict[_Pair, tuple[_Pair, int] | None] = {first: None}
    # The others' states only grow along a text (a state more finds more, never less), so a
    # pair whose others' states hold those of a pair already met with the same own states
    # leads to no text that pair does not lead to: it is not walked.
    fewest: dict[frozenset[int], list[frozenset[int]]] = {first[0]: [first[1]]}
    queue = deque([first])
    while queue:
        pair = queue.popleft()
        ours, theirs = pair
        if w_end in ours and c_end not in theirs:
            return atoms.spell(pair, parents)
        for atom in atoms.order:
            nxt_ours = step(ours, atom)
            if not nxt_ours:
                continue
            nxt_theirs = step(theirs, atom)
            if anywhere:
                nxt_theirs |= restart
            if found_for_good and c_end in nxt_theirs:
                continue
            met = fewest.setdefault(nxt_ours, [])
            budget.spend(len(met))
            if any(earlier <= nxt_theirs for earlier in met):
                continue
            met.append(nxt_theirs)
            nxt = (nxt_ours, nxt_theirs)
            parents[nxt] = (pair, atom)
            queue.append(nxt)
    return None


class _Atoms:
    """The coarsest split of all code points by the classes: an atom's code points are in
    the same classes; each atom has a character to spell it with."""

    def __init__(self, classes: Sequence[tuple[str, int]], budget: Budget) -> None:
        sets = [_code_points(source, flags) for source, flags in classes]
        bounds = sorted({0, _UNICODE_END, *(b for spans in sets for span in spans for b in span)})
        budget.spend(len(bounds) * (1 + len(sets)))
        starts = [[low for low, _ in spans] for spans in sets]
        by_signature: dict[int, int] = {}
        self.chars: list[str] = []
        self.members = [0] * len(sets)
        for low, high in itertools.pairwise(bounds):
            signature = 0
            for number, spans in enumerate(sets):
                at = bisect_right(starts[number], low) - 1
                if at >= 0 and low < spans[at][1]:
                    signature |= 1 << number
            if not signature:
                continue
            atom = by_signature.get(signature)
            char = _plainest(low, high)
            if atom is None:
                atom = by_signature[signature] = len(self.chars)
                self.chars.append(char)
                for number in range(len(sets)):
                    if signature >> number & 1:
                        self.members[number] |= 1 << atom
            elif _plainness(char) < _plainness(self.chars[atom]):
                self.chars[atom] = char
        # plain characters first, so the text found first reads like a message
        self.order = sorted(range(len(self.chars)), key=lambda atom: _plainness(self.chars[atom]))

    def spell(self, pair: _Pair, parents: dict[_Pair, tuple[_Pair, int] | None]) -> str:
        """The text of the atoms along the walk to `pair`."""
        out = []
        link = parents[pair]
        while link is not None:
            pair, atom = link
            out.append(self.chars[atom])
            link = parents[pair]
        return "".join(reversed(out))


def _plainness(char: str) -> tuple[int, int]:
    code = ord(char)
    if code < 128 and char.isalnum():
        return (0, code)
    if 32 <= code < 127:
        return (1, code)
    return (2 if char.isprintable() else 3, code)


def _plainest(low: int, high: int) -> str:
    """The plainest character of `low` to `high` (excluded), among its first ones (all of
    them in ASCII)."""
    candidates = range(low, min(high, low + (128 if low < 128 else 8)))
    return min(map(chr, candidates), key=_plainness)


@lru_cache(maxsize=1)
def _every_code_point() -> str:
    return "".join(map(chr, range(_UNICODE_END)))


@lru_cache(maxsize=512)
def _code_points(source: str, flags: int) -> tuple[tuple[int, int], ...]:
    """The code points a character node's source matches under `flags`, as (low, high) spans
    (high excluded), read off `re` itself."""
    runs = re.compile(f"(?:{source})+", flags).finditer(_every_code_point())
    return tuple(found.span() for found in runs)
