"""Find catastrophic backtracking in a regex as CPython's `re` parses and runs it.

The regex is read as `re` parses it (`regex.syntax`) under the lookup's flags and turned into a
position automaton (Glushkov) whose edges keep their multiplicity, so that
`(a*)*` has two ways from `a` back to `a`, just like the backtracking matcher.
`search` mode adds a looping start state: `_sre` retries every start position.

- **Exponential**: some state can return to itself along two different paths
  reading the same word (found in the product automaton of one strongly
  connected component with itself).
- **Polynomial of degree d**: a chain of d looping states where each hands the
  same word to the next while both keep looping (found in the triple product).

Each finding carries an attack string `prefix + pump * n + suffix`; the suffix is
chosen by running the regex (through the time-budgeted runner) so that the attack
does not match. Atomic groups and possessive quantifiers never give back what they
took, so each counts as one step of the outer automaton; their contents, and
those of lookarounds, are analysed on their own. Backreferences count as one step
that may match anything. Bounded repeats are expanded up to `_EXPAND_LIMIT`
positions and treated as unbounded past it.
"""

from __future__ import annotations

import bisect
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from entrykit.regex import syntax
from entrykit.regex.syntax import (
    AnyChar,
    CharClass,
    CharRange,
    Seq,
)

_EXPAND_LIMIT = 300  # positions a bounded repeat may expand into
_WIDE_RANGE = 64  # class ranges at least this wide are clipped to the alphabet before compiling
_WORK_LIMIT = 400_000  # product states visited per regex before giving up
_ALPHABET_LIMIT = 4096  # distinct characters a regex may spell before it is too complex to analyse
_BASE_ALPHABET = "a0 A_!-.:/\n\t\x00é\u00a0\u4e2d\u2028zZ9,;'\"()[]{}@#=+<>?|\\"
_CLASS_FLAGS = re.IGNORECASE | re.ASCII | re.DOTALL
_ANCHORS_AT_START = {"^", "\\A"}
CharNode = syntax.Char | syntax.NotChar | AnyChar | CharClass


class AnalysisTooComplex(Exception):
    """The automaton is too large to analyse within the work limit."""


@dataclass(frozen=True)
class Attack:
    """A string that makes the regex backtrack: `prefix + pump * n + suffix`.

    Polynomial attacks pump several words in turn (`pumps`), each `n` times.
    """

    prefix: str
    pumps: tuple[str, ...]
    suffix: str

    def build(self, n: int) -> str:
        return self.prefix + "".join(p * n for p in self.pumps) + self.suffix

    def describe(self) -> str:
        parts = [repr(self.prefix)] if self.prefix else []
        parts += [f"{p!r} * n" for p in self.pumps]
        if self.suffix:
            parts.append(repr(self.suffix))
        return " + ".join(parts)


@dataclass(frozen=True)
class Finding:
    """One catastrophic-backtracking finding: its class, degree, where, and an attack."""

    kind: str  # "exponential" | "polynomial"
    degree: int  # 0 for exponential
    attack: Attack
    where: str  # the construct responsible, as text
    group_repeat: bool = True  # a repeated group (not a single-character repeat) loops

    @property
    def label(self) -> str:
        return "exponential" if self.kind == "exponential" else f"polynomial (degree {self.degree})"


# --- character classes over a small alphabet of representative characters ---------------


def _class_label(node: CharNode) -> str:
    """The class as a person would write it (for messages)."""
    if isinstance(node, syntax.Char):
        return re.escape(chr(node.code))
    if isinstance(node, syntax.NotChar):
        return f"[^{re.escape(chr(node.code))}]"
    if isinstance(node, AnyChar):
        return "."
    parts = ["^"] if node.negated else []
    for item in node.items:
        if isinstance(item, syntax.Char):
            parts.append(re.escape(chr(item.code)))
        elif isinstance(item, CharRange):
            parts.append(f"{re.escape(chr(item.low))}-{re.escape(chr(item.high))}")
        else:
            parts.append(item.escape)
    if len(parts) == 1 and parts[0].startswith("\\") and len(parts[0]) == 2:
        return parts[0]
    return "[" + "".join(parts) + "]"


def _class_source(node: CharNode, clip: Callable[[int, int], list[int]] | None = None) -> str:
    """The class as a regex of its own; with `clip`, each wide range becomes just the
    code points `clip(low, high)` keeps (compiling a wide range visits every code point)."""
    if isinstance(node, syntax.Char):
        return re.escape(chr(node.code))
    if isinstance(node, syntax.NotChar):
        return f"[^\\U{node.code:08x}]"
    if isinstance(node, AnyChar):
        return "."
    parts = []
    for item in node.items:
        if isinstance(item, syntax.Char):
            parts.append(f"\\U{item.code:08x}")
        elif isinstance(item, CharRange):
            low, high = item.low, item.high
            if clip is not None and high - low >= _WIDE_RANGE:
                parts += [f"\\U{code:08x}" for code in clip(low, high)]
            else:
                parts.append(f"\\U{low:08x}-\\U{high:08x}")
        else:
            parts.append(item.escape)
    if not parts:  # every range clipped away: no character of the alphabet is in it
        return "[^\\s\\S]" if not node.negated else "[\\s\\S]"
    return "[" + ("^" if node.negated else "") + "".join(parts) + "]"


@lru_cache(maxsize=4096)
def _class_regex(source: str, flags: int) -> re.Pattern[str]:
    return re.compile(source, flags & _CLASS_FLAGS)


@lru_cache(maxsize=1)
def _lower_preimages() -> dict[int, tuple[int, ...]]:
    """Code point -> the other code points whose lower case (as `re` lowers) it is."""
    table: dict[int, list[int]] = {}
    for code in range(sys.maxunicode + 1):
        low = syntax.re_lower(code)
        if low != code:
            table.setdefault(low, []).append(code)
    return {low: tuple(codes) for low, codes in table.items()}


class _Alphabet:
    """Representative characters; a class is the bitmask of those it matches."""

    def __init__(self, chars: Iterable[str]) -> None:
        seen: dict[str, None] = {}
        for char in chars:
            seen.setdefault(char, None)
        self.chars = list(seen)
        self.text = "".join(self.chars)
        self.index = {char: number for number, char in enumerate(self.chars)}
        self.all = (1 << len(self.chars)) - 1
        self._variants: list[int] | None = None
        self._masks: dict[tuple[str, int], int] = {}

    def variants(self) -> list[int]:
        """Every code point a character of the alphabet can equal under IGNORECASE
        (same lower case, or lower cases `re` treats as equal), sorted."""
        if self._variants is None:
            preimages = _lower_preimages()
            codes: set[int] = set()
            for char in self.chars:
                low = syntax.re_lower(ord(char))
                for target in (low, *syntax.extra_cases(low)):
                    codes.add(target)
                    codes.update(preimages.get(target, ()))
                codes.add(ord(char))
            self._variants = sorted(codes)
        return self._variants

    def clip(self, low: int, high: int) -> list[int]:
        """The code points in low..high that can decide whether a character of the alphabet matches."""
        codes = self.variants()
        return codes[bisect.bisect_left(codes, low) : bisect.bisect_right(codes, high)]

    def mask(self, node: CharNode, flags: int) -> int:
        # A class matches a character exactly when one of the class's code points equals
        # it under the flags; only the alphabet's variants can, so the rest of a wide range
        # is dropped before compiling (the same verdicts, milliseconds instead of minutes).
        # Under ASCII and IGNORECASE together, `re` compares a range that leaves the BMP
        # with Unicode case rules after all; such classes are compiled whole.
        quirk = flags & re.ASCII and flags & re.IGNORECASE
        clip = None if quirk and isinstance(node, CharClass) and any(
            isinstance(item, CharRange) and item.high > 0xFFFF for item in node.items
        ) else self.clip
        source = _class_source(node, clip)
        known = self._masks.get((source, flags))
        if known is not None:
            return known
        value = 0
        for found in _class_regex(source, flags).finditer(self.text):  # one character at a time
            value |= 1 << found.start()
        self._masks[(source, flags)] = value
        return value

    def pick(self, mask: int, prefer: str = "") -> str:
        """A character of `mask`: `prefer` if it is one (the literal the regex spells)."""
        if prefer and prefer in self.index and mask >> self.index[prefer] & 1:
            return prefer
        low = mask & -mask
        return self.chars[low.bit_length() - 1]


def _collect_chars(nodes: Seq, out: list[str]) -> None:
    for node, _ in syntax.walk(nodes):
        if isinstance(node, (syntax.Char, syntax.NotChar)):
            char = chr(node.code)
            out += [char, char.lower(), char.upper(), char.swapcase()]
        elif isinstance(node, CharClass):
            for item in node.items:
                if isinstance(item, syntax.Char):
                    char = chr(item.code)
                    out += [char, char.lower(), char.upper()]
                elif isinstance(item, CharRange):
                    low, high = item.low, item.high
                    out += [chr(low), chr(high)]
                    if low > 0:
                        out.append(chr(low - 1))
                    if high < 0x10FFFF:
                        out.append(chr(high + 1))


# --- the position automaton ----------------------------------------------------------


# Multisets of positions are dicts position -> number of ways (capped at 2), in the
# order positions were first added: the order the analysis later walks them in.
Ways = dict[int, int]


@dataclass
class _Frag:
    first: Ways
    last: Ways
    nullable: int  # number of empty paths, capped at 2


def _plus(left: Ways, right: Ways, factor: int = 1) -> Ways:
    """`left + right * factor`, each count capped at 2."""
    out = {k: v if v < 2 else 2 for k, v in left.items()}
    if factor:
        for k, v in right.items():
            out[k] = min(2, out.get(k, 0) + v * factor)
    return out


@dataclass
class _Automaton:
    masks: list[int] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    prefer: list[str] = field(default_factory=list)  # the literal character, for attacks
    follow: list[Ways] = field(default_factory=list)
    group_edges: set[tuple[int, int]] = field(default_factory=set)
    initial: Ways = field(default_factory=dict)
    start: int | None = None  # the looping start state of search mode

    def add(self, mask: int, label: str, prefer: str = "") -> int:
        self.masks.append(mask)
        self.labels.append(label)
        self.prefer.append(prefer)
        self.follow.append({})
        return len(self.masks) - 1

    def link(self, last: Ways, first: Ways, group: bool) -> None:
        for p, mp in last.items():
            out = self.follow[p]
            for q, mq in first.items():
                out[q] = min(2, out.get(q, 0) + mp * mq)
                if group:
                    self.group_edges.add((p, q))


class _Builder:
    """Walks a parsed regex into an `_Automaton`, collecting nested sub-regexes."""

    def __init__(self, alphabet: _Alphabet) -> None:
        self.alphabet = alphabet
        self.auto = _Automaton()
        self.nested: list[tuple[Seq, int, str]] = []  # (nodes, flags, why) analysed on their own

    def position(self, mask: int, label: str, prefer: str = "") -> _Frag:
        pos = self.auto.add(mask, label, prefer)
        return _Frag({pos: 1}, {pos: 1}, 0)

    def seq(self, nodes: Seq, flags: int) -> _Frag:
        frag = _Frag({}, {}, 1)
        for node in nodes:
            frag = self.concat(frag, self.node(node, flags))
            if len(self.auto.masks) > 4 * _EXPAND_LIMIT:
                raise AnalysisTooComplex()
        return frag

    def concat(self, left: _Frag, right: _Frag) -> _Frag:
        self.auto.link(left.last, right.first, group=False)
        first = _plus(left.first, right.first, left.nullable)
        last = _plus(right.last, left.last, right.nullable)
        return _Frag(first, last, min(2, left.nullable * right.nullable))

    def alt(self, frags: Sequence[_Frag]) -> _Frag:
        first: Ways = {}
        last: Ways = {}
        nullable = 0
        for frag in frags:
            first = _plus(first, frag.first)
            last = _plus(last, frag.last)
            nullable += frag.nullable
        return _Frag(first, last, min(2, nullable))

    def node(self, node: syntax.Node, flags: int) -> _Frag:
        if isinstance(node, syntax.CHARACTER_NODES):
            mask = self.alphabet.mask(node, flags)
            return self.position(mask, _class_label(node), chr(node.code) if isinstance(node, syntax.Char) else "")
        if isinstance(node, syntax.Group):
            return self.seq(node.body, syntax.scoped_flags(node, flags))
        if isinstance(node, syntax.Alternation):
            return self.alt([self.seq(branch, flags) for branch in node.branches])
        if isinstance(node, syntax.Conditional):
            no = self.seq(node.no, flags) if node.no is not None else _Frag({}, {}, 1)
            return self.alt([self.seq(node.yes, flags), no])
        if isinstance(node, syntax.Repeat) and node.kind != syntax.POSSESSIVE:
            return self.repeat(node, flags)
        if isinstance(node, (syntax.Repeat, syntax.Atomic)):
            if isinstance(node, syntax.Repeat):
                items: Seq = (syntax.Repeat(node.low, node.high, node.body),)
                low = node.low
            else:
                items, low = node.body, 1
            self.nested.append((items, flags, "atomic"))
            # One committed step: whatever it consumes, it cannot give any of it back.
            step = self.position(self.alphabet.all, "(?>...)")
            return _Frag(step.first, step.last, 1 if low == 0 or _nullable(items) else 0)
        if isinstance(node, syntax.Lookaround):
            self.nested.append((node.body, flags, "lookaround"))
            return _Frag({}, {}, 1)
        if isinstance(node, syntax.Backref):
            step = self.position(self.alphabet.all, f"\\{node.group}")
            return _Frag(step.first, step.last, 1)
        return _Frag({}, {}, 1)  # Anchor: zero-width

    def repeat(self, node: syntax.Repeat, flags: int) -> _Frag:
        low, high, items = node.low, node.high, node.body
        size = _size(items)
        unbounded = high is None or high * max(size, 1) > _EXPAND_LIMIT
        copies = min(low, max(1, _EXPAND_LIMIT // max(size, 1)))
        frag = _Frag({}, {}, 1)
        for _ in range(max(copies - (1 if unbounded and copies else 0), 0)):
            frag = self.concat(frag, self.seq(items, flags))
        if unbounded:
            body = self.seq(items, flags)
            group = len(body.first) + len(body.last) > 2 or _size(items) > 1
            self.auto.link(body.last, body.first, group=group)
            loop = _Frag(body.first, body.last, 1 if copies == 0 else body.nullable)
            return self.concat(frag, loop)
        assert high is not None
        optional: _Frag = _Frag({}, {}, 1)
        for _ in range(high - copies):  # X(X(X)?)? nested, so the parse stays unique
            body = self.seq(items, flags)
            inner = self.concat(body, optional)
            optional = _Frag(inner.first, inner.last, 1)
        return self.concat(frag, optional)


def _size(nodes: Seq) -> int:
    return syntax.count_nodes(nodes)


def _nullable(nodes: Seq) -> bool:
    for node in nodes:
        if isinstance(node, syntax.CHARACTER_NODES):
            return False
        if isinstance(node, syntax.Repeat):
            if node.low > 0 and not _nullable(node.body):
                return False
        elif isinstance(node, (syntax.Group, syntax.Atomic)) and not _nullable(node.body):
            return False
        elif isinstance(node, syntax.Alternation) and not any(_nullable(b) for b in node.branches):
            return False
    return True


def _anchored_at_start(nodes: Seq) -> bool:
    for node in nodes:
        if isinstance(node, syntax.Anchor):
            if node.kind in _ANCHORS_AT_START:
                return True
            continue
        if isinstance(node, (syntax.Group, syntax.Atomic)):
            return _anchored_at_start(node.body)
        if isinstance(node, syntax.Alternation):
            return all(_anchored_at_start(b) for b in node.branches)
        return False
    return False


# --- graph algorithms ------------------------------------------------------------------


def _sccs(nodes: int, succ: Callable[[int], Iterable[int]]) -> list[list[int]]:
    """Tarjan's algorithm, iterative; components in reverse topological order."""
    index = [0] * nodes
    low = [0] * nodes
    on_stack = [False] * nodes
    seen = [False] * nodes
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 1
    for root in range(nodes):
        if seen[root]:
            continue
        work = [(root, iter(succ(root)))]
        seen[root] = True
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if not seen[child]:
                    seen[child] = True
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack[child] = True
                    work.append((child, iter(succ(child))))
                    advanced = True
                    break
                if on_stack[child]:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component.append(member)
                    if member == node:
                        break
                out.append(component)
    return out


class _Analysis:
    def __init__(self, auto: _Automaton, alphabet: _Alphabet) -> None:
        self.auto = auto
        self.alphabet = alphabet
        self.n = len(auto.masks)
        self.work = 0
        self._preds: list[list[int]] | None = None
        self.comp_of = [0] * self.n
        self.components = _sccs(self.n, lambda p: auto.follow[p].keys())
        for number, component in enumerate(self.components):
            for member in component:
                self.comp_of[member] = number
        self.looping = [
            number
            for number, component in enumerate(self.components)
            if len(component) > 1 or component[0] in auto.follow[component[0]]
        ]

    def _tick(self) -> None:
        self.work += 1
        if self.work > _WORK_LIMIT:
            raise AnalysisTooComplex()

    def prefix_to(self, target: int) -> str | None:
        """A shortest word that leads from the initial states to `target`."""
        auto = self.auto
        parents: dict[int, int | None] = {}
        queue: deque[int] = deque()
        for pos in auto.initial:
            if pos != auto.start and pos not in parents:
                parents[pos] = None
                queue.append(pos)
        while queue:
            pos = queue.popleft()
            if pos == target:
                word = []
                at: int | None = pos
                while at is not None:
                    word.append(self.alphabet.pick(auto.masks[at], auto.prefer[at]))
                    at = parents[at]
                return "".join(reversed(word))
            for nxt in auto.follow[pos]:
                if nxt not in parents and nxt != auto.start:
                    parents[nxt] = pos
                    queue.append(nxt)
        return None

    def eda(self, number: int) -> tuple[int, str] | None:
        """(state, word) with two distinct paths state -> state reading word, if any."""
        members = set(self.components[number])
        follow = self.auto.follow
        masks = self.auto.masks
        for p in self.components[number]:
            start = (p, p, False)
            parents: dict[tuple[int, int, bool], tuple[tuple[int, int, bool], str] | None] = {start: None}
            queue = deque([start])
            while queue:
                a, b, diverged = node = queue.popleft()
                self._tick()
                for a2, ma in follow[a].items():
                    if a2 not in members:
                        continue
                    for b2, mb in follow[b].items():
                        if b2 not in members:
                            continue
                        common = masks[a2] & masks[b2]
                        if not common:
                            continue
                        split = diverged or a2 != b2 or (a == b and ma > 1)
                        nxt = (a2, b2, split)
                        if nxt in parents:
                            continue
                        parents[nxt] = (node, self.alphabet.pick(common, self.auto.prefer[a2]))
                        if a2 == b2 == p and split:
                            return p, _unwind(parents, nxt)
                        queue.append(nxt)
        return None

    def ida(self, p: int, q: int, between: set[int]) -> str | None:
        """A word w with p -w-> p, p -w-> q and q -w-> q, if any."""
        follow = self.auto.follow
        masks = self.auto.masks
        comp_p = set(self.components[self.comp_of[p]])
        comp_q = set(self.components[self.comp_of[q]])
        start = (p, p, q)
        target = (p, q, q)
        parents: dict[tuple[int, int, int], tuple[tuple[int, int, int], str] | None] = {start: None}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            x, y, z = node
            self._tick()
            for x2 in follow[x]:
                if x2 not in comp_p:
                    continue
                for y2 in follow[y]:
                    if y2 not in between:
                        continue
                    common_xy = masks[x2] & masks[y2]
                    if not common_xy:
                        continue
                    for z2 in follow[z]:
                        if z2 not in comp_q:
                            continue
                        common = common_xy & masks[z2]
                        if not common:
                            continue
                        nxt = (x2, y2, z2)
                        if nxt in parents:
                            continue
                        parents[nxt] = (node, self.alphabet.pick(common, self.auto.prefer[y2]))
                        if nxt == target:
                            return _unwind(parents, nxt)
                        queue.append(nxt)
        return None

    def reach(self, sources: Iterable[int], reverse: bool = False) -> set[int]:
        if reverse:
            if self._preds is None:
                self._preds = [[] for _ in range(self.n)]
                for p in range(self.n):
                    for q in self.auto.follow[p]:
                        self._preds[q].append(p)
            edges: Sequence[Iterable[int]] = self._preds
        else:
            edges = self.auto.follow
        seen = set(sources)
        queue = deque(seen)
        while queue:
            for nxt in edges[queue.popleft()]:
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return seen

    def group_looped(self, number: int) -> bool:
        members = set(self.components[number])
        return any(p in members and q in members for p, q in self.auto.group_edges)


def _unwind(parents: dict[Any, Any], node: Any) -> str:
    word = []
    while parents[node] is not None:
        node, char = parents[node]
        word.append(char)
    return "".join(reversed(word))


# --- the analysis ----------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A structural finding before its attack suffix is chosen."""

    kind: str
    degree: int
    prefix: str
    pumps: tuple[str, ...]
    where: str
    group_repeat: bool


def _describe(auto: _Automaton, members: Iterable[int]) -> str:
    labels = []
    for member in sorted(members):
        if member != auto.start and auto.labels[member] not in labels:
            labels.append(auto.labels[member])
    return "".join(labels[:8]) or "."


def _alphabet_for(nodes: Seq) -> _Alphabet:
    chars: list[str] = []
    _collect_chars(nodes, chars)
    lowered = {syntax.re_lower(ord(ch)) for ch in chars if len(ch) == 1}  # as `re` lowers
    extra = [chr(c) for low in lowered for c in syntax.extra_cases(low)]
    alphabet = _Alphabet([c for c in _BASE_ALPHABET] + [c for c in chars + extra if len(c) == 1])
    if len(alphabet.chars) > _ALPHABET_LIMIT:
        raise AnalysisTooComplex()
    return alphabet


def _analyse_items(items: Seq, flags: int, mode: str) -> tuple[list[Candidate], list[tuple[Seq, int, str]]]:
    alphabet = _alphabet_for(items)
    builder = _Builder(alphabet)
    frag = builder.seq(items, flags)
    auto = builder.auto
    initial = dict(frag.first)
    if mode == "search" and not _anchored_at_start(items):
        start = auto.add(alphabet.all, "(search)")
        auto.start = start
        auto.follow[start][start] = 1
        for pos in frag.first:
            auto.follow[start][pos] = 1
        initial[start] = 1
    auto.initial = initial
    analysis = _Analysis(auto, alphabet)
    found: list[Candidate] = []
    for number in analysis.looping:
        hit = analysis.eda(number)
        if hit is None:
            continue
        state, word = hit
        prefix = analysis.prefix_to(state) if state != auto.start else ""
        if prefix is None:
            continue
        where = _describe(auto, analysis.components[number])
        found.append(Candidate("exponential", 0, prefix, (word,), where, True))
    if found:
        return found, builder.nested
    chain = _longest_chain(analysis)
    if chain is not None:
        found.append(chain)
    return found, builder.nested


def _longest_chain(analysis: _Analysis) -> Candidate | None:
    """The longest chain of looping states that hand the same word on (degree = length)."""
    auto = analysis.auto
    looping = analysis.looping
    if len(looping) < 2:
        return None
    forward = {c: analysis.reach(analysis.components[c]) for c in looping}
    backward = {c: analysis.reach(analysis.components[c], reverse=True) for c in looping}
    # edges[c1] = [(c2, p, q, word)]; components come out of Tarjan in reverse topological order
    edges: dict[int, list[tuple[int, int, int, str]]] = {c: [] for c in looping}
    for c1 in looping:
        for c2 in looping:
            if c1 == c2 or not (set(analysis.components[c2]) & forward[c1]):
                continue
            between = forward[c1] & backward[c2]
            found = None
            for p in analysis.components[c1]:
                for q in analysis.components[c2]:
                    word = analysis.ida(p, q, between)
                    if word is not None:
                        found = (c2, p, q, word)
                        break
                if found:
                    break
            if found:
                edges[c1].append(found)
    best: dict[int, list[tuple[int, int, int, str]]] = {}

    def longest(c: int) -> list[tuple[int, int, int, str]]:
        if c not in best:
            options = [[edge, *longest(edge[0])] for edge in edges[c]]
            best[c] = max(options, key=len) if options else []
        return best[c]

    chains = [(c, longest(c)) for c in looping]
    head, steps = max(chains, key=lambda item: (len(item[1]), item[0] == analysis.comp_of[auto.start or 0]))
    if not steps:
        return None
    first_state = steps[0][1]
    prefix = "" if first_state == auto.start else analysis.prefix_to(first_state)
    if prefix is None:
        return None
    pumps = []
    at = first_state
    for _, p, q, word in steps:
        if p != at:
            bridge = _bridge(analysis, at, p)
            if bridge is None:
                return None
            pumps.append(bridge)
        pumps.append(word)
        at = q
    loops = [analysis.comp_of[first_state]] + [analysis.comp_of[q] for _, _, q, _ in steps]
    where = "`, `".join(
        "(every start)" if auto.start in analysis.components[c] else _describe(auto, analysis.components[c])
        for c in loops
    )
    group = any(analysis.group_looped(c) for c in loops[1:])
    return Candidate("polynomial", len(steps) + 1, prefix, tuple(pumps), where, group)


def _bridge(analysis: _Analysis, source: int, target: int) -> str | None:
    parents: dict[int, tuple[int, str] | None] = {source: None}
    queue = deque([source])
    while queue:
        pos = queue.popleft()
        if pos == target:
            return _unwind(parents, pos)
        for nxt in analysis.auto.follow[pos]:
            if nxt not in parents:
                parents[nxt] = (pos, analysis.alphabet.pick(analysis.auto.masks[nxt], analysis.auto.prefer[nxt]))
                queue.append(nxt)
    return None


def structural(pattern: str, flags: int = 0, mode: str = "search") -> list[Candidate]:
    """Exponential and polynomial structures of `pattern`, worst first (no regex is run).

    Raises `re.error` if it does not parse and `AnalysisTooComplex` past the work limit.
    """
    parsed = syntax.parse(pattern, flags)
    flags |= parsed.flags
    pending: list[tuple[Seq, int, str]] = [(parsed.nodes, flags, mode)]
    out: list[Candidate] = []
    seen = 0
    while pending and seen < 32:
        items, item_flags, item_mode = pending.pop(0)
        seen += 1
        found, nested = _analyse_items(items, item_flags, item_mode)
        out += found
        pending += [(sub, f, "match") for sub, f, _ in nested]
    out.sort(key=lambda c: (c.kind != "exponential", -c.degree))
    return out


SUFFIXES = ("!", "\x00", "\n", " ", "", "!\n", "0", "a", "_", ".", "\u2028")


def candidates_suffix(candidate: Candidate) -> list[Attack]:
    """Attacks to try, one per suffix; the caller keeps one the regex does not match."""
    return [Attack(candidate.prefix, candidate.pumps, suffix) for suffix in SUFFIXES]


def pump_count(attack: Attack, length: int) -> int:
    """How many repetitions make the attack about `length` characters long."""
    per = sum(len(p) for p in attack.pumps) or 1
    return max(1, (length - len(attack.prefix) - len(attack.suffix)) // per)


# --- attacks and their confirmation ------------------------------------------------------


@dataclass(frozen=True)
class Measurement:
    """Attack lengths tried and seconds taken (None: stopped at the budget), and the verdict.

    `predicted` is the attack length that should exceed the budget, extrapolated from
    the last two runs once they show the growth (`growth`: the exponent for
    polynomial findings, the factor per `step` characters for exponential ones).
    """

    runs: tuple[tuple[int, float | None], ...]
    kind: str
    degree: int
    predicted: int | None = None
    growth: float = 0.0
    step: int = 0

    @property
    def confirmed(self) -> bool:
        return self.predicted is not None or any(seconds is None for _, seconds in self.runs)

    def describe(self, budget_ms: float) -> str:
        timed = [(length, s) for length, s in self.runs if s is not None]
        over = [length for length, s in self.runs if s is None]
        if self.predicted is not None and len(timed) >= 2:
            (l1, t1), (l2, t2) = timed[-2], timed[-1]
            if self.kind == "exponential":
                how = f"x{self.growth:.0f} for {self.step:,} more characters"
            else:
                how = f"growing as n^{self.growth:.1f}"
            return (
                f"{l1:,} characters took {_seconds(t1)} and {l2:,} took {_seconds(t2)} ({how}), "
                f"so about {self.predicted:,} would exceed the {budget_ms:g} ms budget"
            )
        parts = []
        if timed:
            length, seconds = timed[-1]
            parts.append(f"{length:,} characters took {_seconds(seconds)}")
        if over:
            parts.append(f"{over[0]:,} exceeded the {budget_ms:g} ms budget")
        else:
            parts.append(f"which stays under the {budget_ms:g} ms budget and does not confirm it")
        return " and ".join(parts) if over else ", ".join(parts)

    def to_data(self) -> tuple[Any, ...]:
        return (self.runs, self.kind, self.degree, self.predicted, self.growth, self.step)

    @classmethod
    def from_data(cls, data: Any) -> Measurement:
        runs, kind, degree, predicted, growth, step = data
        return cls(
            tuple((int(n), None if t is None else float(t)) for n, t in runs),
            str(kind), int(degree), None if predicted is None else int(predicted), float(growth), int(step),
        )


def _seconds(value: float) -> str:
    if value < 1:
        return f"{value * 1000:.1f} ms"
    if value < 120:
        return f"{value:.0f} s"
    return f"{value / 60:.0f} min"


@dataclass(frozen=True)
class Result:
    """A finding with its attack (suffix chosen) and what running it measured."""

    finding: Finding
    measurement: Measurement | None

    def to_data(self) -> tuple[Any, ...]:
        """Plain data (tuples, strings, numbers) that `from_data` turns back into the result."""
        f, a = self.finding, self.finding.attack
        return (
            (f.kind, f.degree, (a.prefix, a.pumps, a.suffix), f.where, f.group_repeat),
            self.measurement.to_data() if self.measurement is not None else None,
        )

    @classmethod
    def from_data(cls, data: Any) -> Result:
        (kind, degree, (prefix, pumps, suffix), where, group_repeat), measured = data
        attack = Attack(str(prefix), tuple(str(p) for p in pumps), str(suffix))
        finding = Finding(str(kind), int(degree), attack, str(where), bool(group_repeat))
        return cls(finding, Measurement.from_data(measured) if measured is not None else None)


_EXPONENTIAL_STEPS = (6, 10, 14, 18, 22, 26, 30, 34, 38)
_POLYNOMIAL_LENGTHS = tuple(64 * 2**k for k in range(11))  # 64 .. 65,536 characters
_PREDICT_FROM = 0.03  # a step this share of the budget long is measured well enough to extrapolate
_MIN_EXPONENT = 1.5  # growth below this (about linear) is no backtracking to report
_MIN_FACTOR = 3.0  # an exponential attack grows at least this much per step


def choose_attack(pattern: str, flags: int, mode: str, candidate: Candidate, runner: Any) -> Attack | None:
    """The first attack (by suffix) that the regex does not match, if any."""
    from entrykit.regex.runner import Job, Status

    attacks = candidates_suffix(candidate)
    outcomes = runner.run([Job(pattern, flags, mode, a.build(3)) for a in attacks])
    for attack, outcome in zip(attacks, outcomes):
        if outcome.status in (Status.NO_MATCH, Status.TIMEOUT):
            return attack
        # A match that starts past the pumped part means every earlier start failed first.
        if outcome.status is Status.MATCH and outcome.start >= len(attack.build(3)) - len(attack.suffix):
            return attack
    return None


def measure(pattern: str, flags: int, mode: str, finding: Finding, runner: Any) -> Measurement:
    """Run the attack at growing sizes until its growth is established or it exceeds the budget.

    Sizes grow (doubling for polynomial findings, four more pumps for exponential
    ones) until a run takes `_PREDICT_FROM` of the budget. That run and the one
    before give the growth; if it is superlinear (exponent `_MIN_EXPONENT` or more,
    or `_MIN_FACTOR` per exponential step) the length that would exceed the budget is
    extrapolated from them, and the finding is confirmed if that length is within the
    sizes tried (65,536 characters). The extrapolation is what makes this cheap: the
    run that exceeds the budget costs the budget, and more than all runs before it.
    A run that exceeds the budget on its own confirms the finding too.
    """
    import math

    runs: list[tuple[int, float | None]] = []
    budget = runner.budget
    limit = _POLYNOMIAL_LENGTHS[-1]
    # Every size up to the first run that takes `_PREDICT_FROM` of the budget is only a
    # step on the way, so the sizes still to come go to the worker as one series that
    # stops there (one round trip); the loops below then read the runs in order.
    if finding.kind == "exponential":
        texts = [finding.attack.build(n) for n in _EXPONENTIAL_STEPS]
    else:
        texts = [finding.attack.build(pump_count(finding.attack, n)) for n in _POLYNOMIAL_LENGTHS]
    ahead: deque[Any] = deque()
    sent = 0

    def run(text: str) -> bool:
        nonlocal sent
        if not ahead:  # `text` is one of `texts`, asked for in order
            start = texts.index(text, sent)
            ahead.extend(runner.run_series(pattern, flags, mode, texts[start:], _PREDICT_FROM * budget))
            sent = start + len(ahead)
        outcome = ahead.popleft()
        runs.append((len(text), None if outcome.timed_out else outcome.seconds))
        return bool(outcome.timed_out)

    def done(**found: Any) -> Measurement:
        return Measurement(tuple(runs), finding.kind, finding.degree, **found)

    if finding.kind == "exponential":
        for previous, n in zip((None, *_EXPONENTIAL_STEPS), _EXPONENTIAL_STEPS):
            if run(finding.attack.build(n)):
                break
            (l2, t2), before = runs[-1], runs[-2] if len(runs) > 1 else None
            if previous is None or before is None or t2 is None or t2 < _PREDICT_FROM * budget:
                continue
            l1, t1 = before
            if not t1 or t2 / t1 < _MIN_FACTOR:
                continue
            factor = t2 / t1
            steps = math.log(budget / t2) / math.log(factor)
            predicted = len(finding.attack.build(n + max(1, math.ceil(steps * (n - previous)))))
            if predicted <= limit:
                return done(predicted=predicted, growth=factor, step=l2 - l1)
        return done()
    length = _POLYNOMIAL_LENGTHS[0]
    while length <= limit:
        if run(finding.attack.build(pump_count(finding.attack, length))):
            break
        (l2, t2) = runs[-1]
        if t2 is not None and t2 >= _PREDICT_FROM * budget and len(runs) > 1 and runs[-2][1]:
            l1, t1 = runs[-2]
            assert t1 is not None
            exponent = math.log(t2 / t1) / math.log(l2 / l1) if l2 > l1 else 0.0
            if exponent >= _MIN_EXPONENT:
                predicted = int(l2 * (budget / t2) ** (1 / exponent)) + 1
                if predicted <= limit:
                    return done(predicted=predicted, growth=exponent)
            elif l2 * budget / t2 > limit:
                break  # about linear: no size we would try exceeds the budget
        length *= 2
    return done()


def analyse(
    pattern: str, flags: int, mode: str, runner: Any, confirm_from_degree: int = 3
) -> list[Result]:
    """Findings for `pattern`, worst first, each with an attack the regex does not match.

    Exponential findings and polynomial ones of degree >= `confirm_from_degree` are run
    at growing sizes under the runner's budget, and the measurement is attached.
    """
    results = []
    for candidate in structural(pattern, flags, mode):
        attack = choose_attack(pattern, flags, mode, candidate, runner)
        if attack is None:
            continue  # every attack matches: the backtracking never has to happen
        finding = Finding(candidate.kind, candidate.degree, attack, candidate.where, candidate.group_repeat)
        needs = candidate.kind == "exponential" or candidate.degree >= confirm_from_degree
        results.append(Result(finding, measure(pattern, flags, mode, finding, runner) if needs else None))
        break  # the worst finding is the one to fix first; one per regex
    return results
