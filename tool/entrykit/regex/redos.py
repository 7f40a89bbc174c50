"""Find catastrophic backtracking in a regex as CPython's `re` parses and runs it, by analysis alone.

The regex is read as `re` parses it (`regex.syntax`) under the lookup's flags and turned into a
position automaton (Glushkov) whose edges keep their multiplicity, so that
`(a*)*` has two ways from `a` back to `a`, just like the backtracking matcher.
`search` mode adds a looping start state: `_sre` retries every start position.

- **Exponential**: some state can return to itself along two different paths
  reading the same word (found in the product automaton of one strongly
  connected component with itself). A backtracking matcher then tries 2^n ways
  to split n repetitions of that word.
- **Polynomial of degree d**: a chain of d looping states where each hands the
  same word to the next while both keep looping (found in the triple product):
  about n^d ways to split the word's repetitions between the loops.

Each finding carries an attack string `prefix + pump * n + suffix`. Ambiguity only
costs time when the matcher must try every way, that is when the attack is
rejected: the suffix is chosen by running the whole regex on the attack (with 3
pumps) in `regex.backtracking`, a step-counting model of CPython's matcher, and
kept only if the model rejects it (or needs more than `ATTACK_STEPS` steps to
decide, which a short attack would not unless it is catastrophic already). A
candidate no suffix makes fail is no finding (`(a+)+` matches at once).

Atomic groups and possessive quantifiers never give back what they took, so each
counts as one step of the outer automaton; their contents, and those of
lookarounds, are analysed on their own. Backreferences count as one step that may
match anything. Bounded repeats are expanded up to `_EXPAND_LIMIT` positions and
treated as unbounded past it.

Nothing here reads a clock: every part of the analysis spends steps from one
`Budget` (`STEP_BUDGET`), and a regex that needs more is `TooComplex`, the same on
any machine. Timing an attack in the regex worker is an opt-in extra
(`regex.measure`), never the verdict.
"""

from __future__ import annotations

import bisect
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from entrykit.regex import literal_chains, syntax
from entrykit.regex.backtracking import Answers, CharOracle, Model, TooDeep, Verdict
from entrykit.regex.budget import Budget, TooComplex
from entrykit.regex.syntax import (
    CharClass,
    CharRange,
    Seq,
)

_EXPAND_LIMIT = 300  # positions a bounded repeat may expand into
_POSITION_LIMIT = 4 * _EXPAND_LIMIT  # positions of one automaton
_WIDE_RANGE = 64  # class ranges at least this wide are clipped to the alphabet before compiling
STEP_BUDGET = 1_000_000  # steps of the whole analysis of one regex: the deadends.dev regexes need at most 26,034
ATTACK_STEPS = 20_000  # model steps that decide whether a short attack is rejected
ATTACK_PUMPS = 3
_NESTED_LIMIT = 32  # atomic groups and lookarounds analysed on their own, per regex
_ALPHABET_LIMIT = 4096  # distinct characters a regex may spell before it is too complex to analyse
_BASE_ALPHABET = "a0 A_!-.:/\n\t\x00é\u00a0\u4e2d\u2028zZ9,;'\"()[]{}@#=+<>?|\\"
_CLASS_FLAGS = syntax.CLASS_FLAGS
_ANCHORS_AT_START = {"^", "\\A"}
_CHARACTER_TYPES = frozenset(syntax.CHARACTER_NODES)
CharNode = syntax.CharNode

if TYPE_CHECKING:
    from entrykit.regex.measure import Measurement


AnalysisTooComplex = TooComplex  # the name callers know


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


_class_label = syntax.char_label


def _class_source(node: CharNode, clip: Callable[[int, int], list[int]] | None = None) -> str:
    return syntax.char_source(node, clip, _WIDE_RANGE)


@lru_cache(maxsize=4096)
def _class_regex(source: str, flags: int) -> re.Pattern[str]:
    return re.compile(source, flags & _CLASS_FLAGS)


_ESCAPED = frozenset(b"()[]{}?*+-|^$\\.&~# \t\n\r\v\f")  # the characters `re.escape` escapes


@lru_cache(maxsize=4096)
def _unicode_cases(code: int) -> tuple[int, ...]:
    """The lower cases a literal `code` equals under IGNORECASE (`re`'s lower case, then the
    extra ones `re` adds to it); () when `re` compares it as it is (not cased)."""
    return syntax.caseless_codes(code) if syntax.re_is_cased(code) else ()


_BLOCK = 256


@lru_cache(maxsize=1)
def _lower_preimages() -> dict[int, tuple[int, ...]]:
    """Code point -> the other code points whose lower case (as `re` lowers) it is.

    A code point `re` lowers to another one is changed by `str.lower` too (its full
    mapping starts with that one), so a block of code points that `str.lower` leaves
    alone holds none: only the few blocks with cased letters are looked at one by one."""
    table: dict[int, list[int]] = {}
    text = _every_code_point()
    for base in range(0, len(text), _BLOCK):
        block = text[base : base + _BLOCK]
        if block.lower() == block:
            continue
        for code in range(base, base + len(block)):
            low = syntax.re_lower(code)
            if low != code:
                table.setdefault(low, []).append(code)
    return {low: tuple(codes) for low, codes in table.items()}


def _every_code_point() -> str:
    """Every code point, in order (surrogates included), as one string: its UTF-32 bytes
    written a byte plane at a time (a few times faster than from a million ints)."""
    highs = (sys.maxunicode + 1) // 256  # code point = high * 256 + low
    utf32 = bytearray(4 * 256 * highs)  # little-endian: the low byte first, the fourth 0
    utf32[0::4] = bytes(range(256)) * highs
    utf32[1::4] = b"".join(bytes((high & 0xFF,)) * 256 for high in range(highs))
    utf32[2::4] = b"".join(bytes((high >> 8,)) * 256 for high in range(highs))
    return utf32.decode("utf-32-le", "surrogatepass")


class _Alphabet:
    """Representative characters; a class is the bitmask of those it matches."""

    def __init__(self, chars: Iterable[str], budget: Budget | None = None) -> None:
        self.budget = budget or Budget(STEP_BUDGET, "the backtracking analysis")
        self.chars = list(dict.fromkeys(chars))  # once each, in the order first given
        self.text = "".join(self.chars)
        # Every alphabet of an analysis starts with the base alphabet: what is known of it,
        # worked out once per process, is copied (`_BaseTables`).
        self.base = _BASE_TABLES if self.text.startswith(_BASE_TABLES.text) else None
        if self.base is not None:
            self.index = self.base.index.copy()
            self.index.update(zip(self.chars[self.base.size :], range(self.base.size, len(self.chars)), strict=True))
        else:
            self.index = dict(zip(self.chars, range(len(self.chars)), strict=True))
        self.all = (1 << len(self.chars)) - 1
        self._variants: list[int] | None = None
        self._codes: list[int] | None = None
        self._masks: dict[tuple[str, int], int] = {}
        self._node_masks: dict[tuple[int, int], tuple[int, CharNode]] = {}  # the same, by node
        self.char_masks: dict[int, int] = {}  # the same for `Char` nodes, by code point and flags
        self._by_lower: dict[bool, dict[int, int]] = {}

    def variants(self) -> list[int]:
        """Every code point a character of the alphabet can equal under IGNORECASE
        (same lower case, or lower cases `re` treats as equal), sorted."""
        if self._variants is None:
            preimages = _lower_preimages()
            codes: set[int] = set()
            for char in self.chars:
                for target in syntax.caseless_codes(ord(char)):
                    codes.add(target)
                    codes.update(preimages.get(target, ()))
                codes.add(ord(char))
            self._variants = sorted(codes)
        return self._variants

    def clip(self, low: int, high: int) -> list[int]:
        """The code points in low..high that can decide whether a character of the alphabet
        matches under IGNORECASE."""
        codes = self.variants()
        return codes[bisect.bisect_left(codes, low) : bisect.bisect_right(codes, high)]

    def clip_exact(self, low: int, high: int) -> list[int]:
        """The code points in low..high that can decide whether a character of the alphabet
        matches when case matters: the alphabet's own."""
        if self._codes is None:
            self._codes = sorted(ord(char) for char in self.chars)
        codes = self._codes
        return codes[bisect.bisect_left(codes, low) : bisect.bisect_right(codes, high)]

    def mask(self, node: CharNode, flags: int) -> int:
        if type(node) is syntax.Char:  # the commonest node: by its code point
            key = node.code | flags << 21
            known = self.char_masks.get(key)
            if known is None:
                known = self.char_masks[key] = self._literal_mask(node.code, flags)
            return known
        if type(node) is syntax.AnyChar:  # every `.` is spelled the same: by the flags alone
            known = self._masks.get((".", flags))
            return known if known is not None else self._mask(node, flags)
        # Other nodes by the object: hashing a class by value costs more than its mask.
        # The entry holds the node, so its id is not reused while the entry lives.
        found = self._node_masks.get((id(node), flags))
        if found is None:
            value = self._mask(node, flags)
            self._node_masks[(id(node), flags)] = (value, node)
            return value
        return found[0]

    def _literal_mask(self, code: int, flags: int) -> int:
        """What `re.compile(re.escape(chr(code)), flags)` matches of the alphabet, as `re`
        compiles a literal: itself only, or, under IGNORECASE when it is cased, every
        character of the same lower case (and of the lower cases `re` adds to it); the same
        steps as compiling it (no other node's source is a literal's)."""
        self.budget.spend(len(self.chars) + (2 if code in _ESCAPED else 1))  # as long as `re.escape` spells it
        if flags & syntax.IGNORECASE:
            if flags & syntax.ASCII:
                if syntax.ascii_is_cased(code):
                    return self._lowered(True).get(syntax.ascii_lower(code), 0)
            else:
                cases = _unicode_cases(code)
                if cases:
                    table = self._lowered(False)
                    value = 0
                    for case in cases:
                        value |= table.get(case, 0)
                    return value
        place = self.index.get(chr(code))
        return 0 if place is None else 1 << place

    def _lowered(self, ascii_only: bool) -> dict[int, int]:
        """Lower case (as `re` lowers, ASCII only or not) -> the alphabet's characters with it."""
        table = self._by_lower.get(ascii_only)
        if table is None:
            if self.base is not None:
                table = self.base.lowered(ascii_only).copy()
                chars, start = self.chars[self.base.size :], self.base.size
            else:
                table, chars, start = {}, self.chars, 0
            self._by_lower[ascii_only] = table
            lower = syntax.ascii_lower if ascii_only else syntax.re_lower
            for number, low in enumerate(map(lower, map(ord, chars)), start):
                table[low] = table.get(low, 0) | 1 << number
        return table

    def _mask(self, node: CharNode, flags: int) -> int:
        # A class matches a character exactly when one of the class's code points equals
        # it under the flags; only the alphabet's variants can, so the rest of a wide range
        # is dropped before compiling (the same verdicts, milliseconds instead of minutes).
        # Under ASCII and IGNORECASE together, `re` compares a range that leaves the BMP
        # with Unicode case rules after all; such classes are compiled whole.
        ignore_case = flags & syntax.IGNORECASE
        quirk = flags & syntax.ASCII and ignore_case
        clip = None if quirk and isinstance(node, CharClass) and any(
            isinstance(item, CharRange) and item.high > 0xFFFF for item in node.items
        ) else self.clip if ignore_case else self.clip_exact
        source = _class_source(node, clip)
        known = self._masks.get((source, flags))
        if known is not None:
            return known
        self.budget.spend(len(self.chars) + len(source))
        if clip is None and isinstance(node, CharClass):  # compiled whole: `re` visits every code point
            self.budget.spend(sum(i.high - i.low for i in node.items if isinstance(i, CharRange)) // 16)
        value = 0
        index = self.index
        for char in _class_regex(source, flags).findall(self.text):  # each match one character of it
            value |= 1 << index[char]
        self._masks[(source, flags)] = value
        return value

    def pick(self, mask: int, prefer: str = "") -> str:
        """A character of `mask`: `prefer` if it is one (the literal the regex spells)."""
        if prefer:
            place = self.index.get(prefer)
            if place is not None and mask >> place & 1:
                return prefer
        return self.chars[(mask & -mask).bit_length() - 1]


class _BaseTables:
    """What an alphabet knows of `_BASE_ALPHABET`, its first characters: their places, and
    their lower cases' bitmasks (the same as an alphabet works out for its own)."""

    def __init__(self) -> None:
        chars = list(dict.fromkeys(_BASE_ALPHABET))
        self.text = "".join(chars)
        self.size = len(chars)
        self.index = dict(zip(chars, range(self.size), strict=True))
        self._lowered: dict[bool, dict[int, int]] = {}

    def lowered(self, ascii_only: bool) -> dict[int, int]:
        table = self._lowered.get(ascii_only)
        if table is None:
            lower = syntax.ascii_lower if ascii_only else syntax.re_lower
            table = self._lowered[ascii_only] = {}
            for number, low in enumerate(map(lower, map(ord, self.text))):
                table[low] = table.get(low, 0) | 1 << number
        return table


_BASE_TABLES = _BaseTables()


def _collect_chars(nodes: Seq, out: list[str], seen: set[int]) -> int:
    """The characters `nodes` spell, in pattern order: each literal with its cases, each
    class range's ends and their neighbours. A literal's cases are spelled the first time
    its code point comes (`seen`) alone: spelling them again adds no character. Returns
    how many literals came again."""
    again = 0
    for node in nodes:
        kind = type(node)
        if kind is syntax.Char or kind is syntax.NotChar:
            code = node.code  # type: ignore[union-attr]
            if code in seen:
                again += 1
            else:
                seen.add(code)
                out += _CASES[code]
        elif kind is CharClass:
            for item in node.items:  # type: ignore[union-attr]
                if type(item) is syntax.Char:
                    out += _CASES[item.code][:3]
                elif type(item) is CharRange:
                    low, high = item.low, item.high
                    out += [chr(low), chr(high)]
                    if low > 0:
                        out.append(chr(low - 1))
                    if high < 0x10FFFF:
                        out.append(chr(high + 1))
        else:
            for part in node.children():
                again += _collect_chars(part, out, seen)
    return again


class _Cases(dict[int, tuple[str, str, str, str]]):
    """Code point -> the character, its lower, upper and swapped case; kept for the first
    `KEPT` code points asked (a lookup costs less than a call)."""

    KEPT = 4096

    def __missing__(self, code: int) -> tuple[str, str, str, str]:
        char = chr(code)
        cases = char, char.lower(), char.upper(), char.swapcase()
        if len(self) < self.KEPT:
            self[code] = cases
        return cases


_CASES = _Cases()


# --- the position automaton ----------------------------------------------------------


# Multisets of positions are dicts position -> number of ways (capped at 2), in the
# order positions were first added: the order the analysis later walks them in.
Ways = dict[int, int]


# A fragment of the automaton: (first, last, nullable), its positions a path may start and
# end at with the ways to do so, and its number of empty paths (capped at 2). A plain
# tuple: fragments are made by the thousand.
_Frag = tuple[Ways, Ways, int]


def _add(into: Ways, more: Ways) -> None:
    """`into += more`, each count capped at 2 (`into` is a multiset still being made)."""
    for k, v in more.items():
        ways = into.get(k, 0) + v
        into[k] = ways if ways < 2 else 2


def _plus(left: Ways, right: Ways, factor: int = 1) -> Ways:
    """`left + right * factor`, each count capped at 2."""
    if not factor or not right:
        return left  # a fragment's multisets are never changed once made: shared, not copied
    out = dict(left)  # the ways of a fragment are 1 or 2 already
    for k, v in right.items():
        ways = out.get(k, 0) + v * factor
        out[k] = ways if ways < 2 else 2
    return out


@dataclass
class _Automaton:
    masks: list[int] = field(default_factory=list)
    spelled: list[CharNode | str] = field(default_factory=list)  # the node, or the label, of each position
    prefer: list[str] = field(default_factory=list)  # the literal character, for attacks
    follow: list[Ways] = field(default_factory=list)
    group_edges: set[tuple[int, int]] = field(default_factory=set)
    initial: Ways = field(default_factory=dict)
    start: int | None = None  # the looping start state of search mode
    # What `_Analysis` reads its components from when the only cycles are self-loops:
    runs: dict[int, int] = field(default_factory=dict)  # a literal run's first position -> its last
    self_loops: set[int] = field(default_factory=set)  # the positions that loop on themselves
    cycles: bool = False  # some cycle passes through more than one position

    def add(self, mask: int, label: CharNode | str, prefer: str = "") -> int:
        self.masks.append(mask)
        self.spelled.append(label)
        self.prefer.append(prefer)
        self.follow.append({})
        return len(self.masks) - 1

    def label(self, pos: int) -> str:
        """How a person writes the position (labels are only read for the few positions
        a finding names, so they are made then)."""
        spelled = self.spelled[pos]
        return spelled if isinstance(spelled, str) else _class_label(spelled)

    @property
    def labels(self) -> list[str]:
        return [self.label(pos) for pos in range(len(self.masks))]

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
        self.budget = alphabet.budget
        self.auto = _Automaton()
        self.nested: list[tuple[Seq, int, str]] = []  # (nodes, flags, why) analysed on their own

    def position(self, mask: int, label: CharNode | str, prefer: str = "") -> _Frag:
        self.budget.spend()
        pos = self.auto.add(mask, label, prefer)
        return {pos: 1}, {pos: 1}, 0

    def seq(self, nodes: Seq, flags: int) -> _Frag:
        """The fragment of `nodes` in a row: `concat` of each node's fragment in turn. A
        character node is added in place, without building the fragment of its one
        position: the same automaton, fragment and steps, for the commonest case (a regex
        is mostly literal characters)."""
        auto = self.auto
        follow, masks, spelled, prefer = auto.follow, auto.masks, auto.spelled, auto.prefer
        mask_of = self.alphabet.mask
        char_masks, by_flags = self.alphabet.char_masks, flags << 21
        budget = self.budget
        char_type, limit = syntax.Char, _POSITION_LIMIT
        first: Ways = {}
        last: Ways = {}
        nullable = 1
        at, count = 0, len(nodes)
        while at < count:
            node = nodes[at]
            at += 1
            kind = type(node)
            if kind in _CHARACTER_TYPES:
                if kind is syntax.Char:
                    mask = char_masks.get(node.code | by_flags)  # type: ignore[union-attr]
                    if mask is None:
                        mask = mask_of(node, flags)  # type: ignore[arg-type]
                    prefer.append(chr(node.code))  # type: ignore[union-attr]
                else:
                    mask = mask_of(node, flags)  # type: ignore[arg-type]
                    prefer.append("")
                budget.left -= 3 + len(first) + 2 * len(last)  # what `position` and `concat` spend
                if budget.left < 0:
                    budget.spend(0)  # past the budget: raises
                pos = len(follow)
                masks.append(mask)
                spelled.append(node)  # type: ignore[arg-type]
                follow.append({})
                for p, ways in last.items():  # a new position: no way to it yet
                    follow[p][pos] = ways
                if nullable:  # fragments' multisets are never changed once made: a copy
                    first = dict(first)
                    first[pos] = nullable
                    nullable = 0
                # The literal characters that follow: a chain, each position reached from
                # the one before alone (the same positions, edges and steps one by one; the
                # steps spent once the chain is made: a budget run out mid-chain is still
                # run out at its end, and nothing reads it in between but to spend more).
                first_of_run = pos
                tail = follow[pos]
                while at < count and pos < limit:
                    node = nodes[at]
                    if type(node) is not char_type:
                        break
                    at += 1
                    code = node.code
                    mask = char_masks.get(code | by_flags)
                    if mask is None:
                        mask = mask_of(node, flags)
                    prefer.append(chr(code))
                    pos += 1
                    tail[pos] = 1
                    tail = {}
                    follow.append(tail)
                    masks.append(mask)
                    spelled.append(node)
                if pos > first_of_run:
                    budget.left -= (5 + len(first)) * (pos - first_of_run)
                    if budget.left < 0:
                        budget.spend(0)  # past the budget: raises
                    auto.runs[first_of_run] = pos
                last = {pos: 1}
            elif kind is syntax.Repeat and _loops_over_one_character(node):  # type: ignore[arg-type]
                first, last, nullable = self.character_loop(node, (first, last, nullable), flags)  # type: ignore[arg-type]
            else:
                first, last, nullable = self.concat((first, last, nullable), self.node(node, flags))
            if len(follow) > _POSITION_LIMIT:
                raise TooComplex(f"its automaton needs more than {_POSITION_LIMIT:,} positions")
        return first, last, nullable

    def character_loop(self, node: syntax.Repeat, before: _Frag, flags: int) -> _Frag:
        """`concat(before, node(node))` for `X*` or `X+` of one character node `X`: one position
        that loops on itself, added in place (the same position, edges, order and steps as
        `repeat` and `concat` make of it)."""
        first, last, nullable = before
        budget = self.budget
        auto = self.auto
        char = node.body[0]
        auto.prefer.append(chr(char.code) if type(char) is syntax.Char else "")
        mask = self.alphabet.mask(char, flags)  # type: ignore[arg-type]
        budget.spend(3)  # the position, and its fragment made (`seq` of the body)
        pos = len(auto.follow)
        auto.masks.append(mask)
        auto.spelled.append(char)  # type: ignore[arg-type]
        auto.follow.append({pos: 1})  # its loop
        auto.self_loops.add(pos)
        if len(auto.follow) > _POSITION_LIMIT:
            raise TooComplex(f"its automaton needs more than {_POSITION_LIMIT:,} positions")
        budget.spend(5 + len(first) + 2 * len(last))  # the loop linked, then two concats
        follow = auto.follow
        for p, ways in last.items():  # a new position: no way to it yet
            follow[p][pos] = ways
        if nullable:
            first = dict(first)  # fragments' multisets are never changed once made: a copy
            first[pos] = nullable
        if node.low:
            return first, {pos: 1}, 0
        return first, {pos: 1, **last}, nullable

    def link(self, last: Ways, first: Ways, group: bool) -> None:
        self.budget.spend(len(last) * len(first))
        self.auto.link(last, first, group)

    def concat(self, left: _Frag, right: _Frag) -> _Frag:
        left_first, left_last, left_nullable = left
        right_first, right_last, right_nullable = right
        self.budget.spend(len(left_first) + len(left_last) + len(right_first) + len(right_last))
        self.link(left_last, right_first, group=False)
        first = _plus(left_first, right_first, left_nullable)
        last = _plus(right_last, left_last, right_nullable)
        return first, last, min(2, left_nullable * right_nullable)

    def alt(self, frags: Sequence[_Frag]) -> _Frag:
        first: Ways = {}
        last: Ways = {}
        nullable = 0
        for frag_first, frag_last, frag_nullable in frags:
            self.budget.spend(len(first) + len(last) + len(frag_first) + len(frag_last))
            _add(first, frag_first)  # `_plus` of each branch in turn, into one new multiset
            _add(last, frag_last)
            nullable += frag_nullable
        return first, last, min(2, nullable)

    def node(self, node: syntax.Node, flags: int) -> _Frag:
        if isinstance(node, syntax.CHARACTER_NODES):
            mask = self.alphabet.mask(node, flags)
            return self.position(mask, node, chr(node.code) if isinstance(node, syntax.Char) else "")
        if isinstance(node, syntax.Group):
            return self.seq(node.body, syntax.scoped_flags(node, flags))
        if isinstance(node, syntax.Alternation):
            return self.alt([self.seq(branch, flags) for branch in node.branches])
        if isinstance(node, syntax.Conditional):
            no = self.seq(node.no, flags) if node.no is not None else ({}, {}, 1)
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
            first, last, _ = self.position(self.alphabet.all, "(?>...)")
            return first, last, 1 if low == 0 or _nullable(items) else 0
        if isinstance(node, syntax.Lookaround):
            self.nested.append((node.body, flags, "lookaround"))
            return {}, {}, 1
        if isinstance(node, syntax.Backref):
            first, last, _ = self.position(self.alphabet.all, f"\\{node.group}")
            return first, last, 1
        return {}, {}, 1  # Anchor: zero-width

    def repeat(self, node: syntax.Repeat, flags: int) -> _Frag:
        low, high, items = node.low, node.high, node.body
        size = _size(items)
        unbounded = high is None or high * max(size, 1) > _EXPAND_LIMIT
        copies = min(low, max(1, _EXPAND_LIMIT // max(size, 1)))
        frag: _Frag = ({}, {}, 1)
        for _ in range(max(copies - (1 if unbounded and copies else 0), 0)):
            frag = self.concat(frag, self.seq(items, flags))
        if unbounded:
            first, last, nullable = self.seq(items, flags)
            group = len(first) + len(last) > 2 or size > 1
            self.link(last, first, group=group)
            if len(first) == 1 and first.keys() == last.keys():
                self.auto.self_loops.update(first)  # once, if it looped already (`(a*)*`)
            elif first and last:
                self.auto.cycles = True
            return self.concat(frag, (first, last, 1 if copies == 0 else nullable))
        assert high is not None
        optional: _Frag = ({}, {}, 1)
        for _ in range(high - copies):  # X(X(X)?)? nested, so the parse stays unique
            first, last, _ = self.concat(self.seq(items, flags), optional)
            optional = (first, last, 1)
        return self.concat(frag, optional)


def _loops_over_one_character(node: syntax.Repeat) -> bool:
    """`X*` or `X+` (lazy or greedy, or a bound past `_EXPAND_LIMIT`) of one character node."""
    return (
        node.low <= 1
        and (node.high is None or node.high > _EXPAND_LIMIT)
        and node.kind != syntax.POSSESSIVE
        and len(node.body) == 1
        and type(node.body[0]) in _CHARACTER_TYPES
    )


def _size(nodes: Seq) -> int:
    return syntax.count_nodes(nodes)


def _nullable(nodes: Seq) -> bool:
    for node in nodes:
        if isinstance(node, syntax.CHARACTER_NODES):
            return False
        if isinstance(node, syntax.Repeat):
            if node.low > 0 and not _nullable(node.body):
                return False
        elif isinstance(node, (syntax.Group, syntax.Atomic)):
            if not _nullable(node.body):
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


def _sccs(follow: Sequence[Iterable[int]]) -> list[list[int]]:
    """Tarjan's algorithm, iterative; components in reverse topological order, each
    component's members in the order they leave Tarjan's stack."""
    nodes = len(follow)
    index = [0] * nodes  # 0: not visited yet; `done` once the node's component is out
    low = [0] * nodes
    done = 2 * nodes + 2  # above every index: a node out of the stack never lowers another
    stack: list[int] = []
    push = stack.append
    out: list[list[int]] = []
    counter = 1
    for root in range(nodes):
        if index[root]:
            continue
        index[root] = low[root] = counter
        counter += 1
        push(root)
        work = [(root, iter(follow[root]))]
        while work:
            node, children = work[-1]
            for child in children:
                seen = index[child]
                if not seen:
                    index[child] = low[child] = counter
                    counter += 1
                    push(child)
                    work.append((child, iter(follow[child])))
                    break
                if seen < low[node]:  # on the stack (a node out of it has index `done`)
                    low[node] = seen
            else:  # every child seen: the node is done
                work.pop()
                reached = low[node]
                if work:
                    parent = work[-1][0]
                    if reached < low[parent]:
                        low[parent] = reached
                if reached == index[node]:
                    if stack[-1] == node:  # the commonest component: one position
                        stack.pop()
                        index[node] = done
                        out.append([node])
                        continue
                    component = []
                    while True:
                        member = stack.pop()
                        index[member] = done
                        component.append(member)
                        if member == node:
                            break
                    out.append(component)
    return out


def _postorder(follow: Sequence[Iterable[int]], runs: dict[int, int]) -> tuple[list[int], list[tuple[int, int]]]:
    """The positions of an automaton whose only cycles are self-loops in the order Tarjan's
    search (`_sccs`) gives them as components of one: the order a depth-first search from
    each unvisited position in turn finishes them. A literal run (`runs`: first -> last
    position; only its first is reached from outside it, only its last leads out) is one
    step of the search, finished last position first. Also the runs and lone positions
    ("units", (first, last)) in the order they finish."""
    seen = bytearray(len(follow))
    order: list[int] = []
    units: list[tuple[int, int]] = []
    root = 0 if follow else -1
    while root >= 0:
        last = runs.get(root, root)
        seen[root : last + 1] = b"\1" * (last + 1 - root)
        work = [(root, last, iter(follow[last]))]
        while work:
            first, last, children = work[-1]
            for child in children:
                if not seen[child]:
                    end = runs.get(child, child)
                    seen[child : end + 1] = b"\1" * (end + 1 - child)
                    work.append((child, end, iter(follow[end])))
                    break
            else:
                work.pop()
                order.extend(range(last, first - 1, -1))
                units.append((first, last))
        root = seen.find(0, root + 1)
    return order, units


def _weigher(weights: Sequence[int]) -> Callable[[int], int]:
    """The sum of `weights` over a set of positions given as a bitset: `sum(weights[p] for p
    in the set)`, from one population count per binary digit of the weights."""
    planes = []
    top = max(weights, default=0)
    # Each digit's plane read at once from the weights as bytes, last position first
    # (the highest binary digit of the plane), each byte made the character of its digit.
    spelled = bytes(reversed(weights)) if top < 256 else None
    for digit in range(top.bit_length()):
        if spelled is not None:
            plane = int(spelled.translate(_DIGIT_OF_BYTE[digit]) or b"0", 2)
        else:
            plane = 0
            for pos, weight in enumerate(weights):
                if weight >> digit & 1:
                    plane |= 1 << pos
        planes.append((digit, plane))

    def weigh(members: int) -> int:
        total = 0
        for digit, plane in planes:
            total += (members & plane).bit_count() << digit
        return total

    return weigh


_DIGIT_OF_BYTE = [bytes(48 + (value >> digit & 1) for value in range(256)) for digit in range(8)]


class _Analysis:
    def __init__(self, auto: _Automaton, alphabet: _Alphabet) -> None:
        self.auto = auto
        self.alphabet = alphabet
        self.budget = alphabet.budget
        follow = auto.follow
        self.n = len(follow)
        self.degree = list(map(len, follow))
        self.edges = sum(self.degree)
        self.budget.spend(self.n + self.edges)
        self.units: list[tuple[int, int]] | None = None  # with no cycle but self-loops: see `_acyclic`
        if auto.cycles:
            self.components = _sccs(follow)
            self.comp_of = comp_of = [0] * self.n
            for number, component in enumerate(self.components):
                for member in component:
                    comp_of[member] = number
            self.looping = [
                number
                for number, component in enumerate(self.components)
                if len(component) > 1 or component[0] in follow[component[0]]
            ]
        else:
            self._acyclic()
        self.looped = [False] * len(self.components)
        for number in self.looping:
            self.looped[number] = True
        self._inner: list[list[tuple[int, int]]] | None = None
        self._reads: dict[tuple[int, int], bool] = {}  # see `_run_reads`

    def _acyclic(self) -> None:
        """The components, as `_sccs` gives them, of an automaton whose only cycles are
        self-loops: each position alone, in the order a depth-first search finishes them;
        the search walks each literal run at once (`_postorder`)."""
        order, self.units = _postorder(self.auto.follow, self.auto.runs)
        self.components = [[member] for member in order]
        # `order` is a permutation of the positions: sorting the positions by it inverts it.
        self.comp_of = comp_of = sorted(range(self.n), key=order.__getitem__)
        self.looping = sorted(map(comp_of.__getitem__, self.auto.self_loops))

    @property
    def inner(self) -> list[list[tuple[int, int]]]:
        """Each position's (successor, ways) in its own component, in the automaton's order."""
        if self._inner is None:
            comp_of, follow = self.comp_of, self.auto.follow
            nowhere: list[tuple[int, int]] = []  # shared by every position outside a loop: never changed
            inner = self._inner = [nowhere] * self.n
            for number in self.looping:
                for p in self.components[number]:
                    inner[p] = [(q, ways) for q, ways in follow[p].items() if comp_of[q] == number]
        return self._inner

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
            self.budget.spend(1 + len(auto.follow[pos]))
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
        component = self.components[number]
        if len(component) == 1 and self.auto.follow[component[0]][component[0]] == 1:
            # One state with one way around its loop (`a*`): two paths around it are the same
            # path, so the search finds none; these are the steps it takes to find none.
            self.budget.spend(1)
            self.budget.spend(1 + self.degree[component[0]] ** 2)
            return None
        return self._eda_search(number)

    def _eda_search(self, number: int) -> tuple[int, str] | None:
        """`eda` by a search of the product of the component with itself."""
        component = self.components[number]
        degree = self.degree
        spend = self.budget.spend
        masks = self.auto.masks
        prefer = self.auto.prefer
        pick = self.alphabet.pick
        inner = self.inner
        spend(len(component))
        for p in component:
            start = (p, p, False)
            parents: dict[tuple[int, int, bool], tuple[tuple[int, int, bool], int] | None] = {start: None}
            queue = deque([start])
            while queue:
                a, b, diverged = node = queue.popleft()
                spend(1 + degree[a] * degree[b])
                b_next = inner[b]
                for a2, ma in inner[a]:
                    for b2, _ in b_next:
                        common = masks[a2] & masks[b2]
                        if not common:
                            continue
                        split = diverged or a2 != b2 or (a == b and ma > 1)
                        nxt = (a2, b2, split)
                        if nxt in parents:
                            continue
                        parents[nxt] = (node, common)
                        if a2 == b2 == p and split:
                            return p, _spell(parents, nxt, lambda at, common: pick(common, prefer[at[0]]))
                        queue.append(nxt)
        return None

    def ida(self, p: int, q: int, between: int) -> str | None:
        """A word w with p -w-> p, p -w-> q and q -w-> q, if any (`between`: a bitset of
        the positions the middle path may go through)."""
        found = self.ida_found(p, q, between)
        return None if found is None else found()

    def ida_found(self, p: int, q: int, between: int) -> Callable[[], str] | None:
        """`ida`, the same steps spent, its word spelled only when called for (of the words
        found, a chain's pumps use a few)."""
        if len(self.components[self.comp_of[p]]) == 1 and len(self.components[self.comp_of[q]]) == 1:
            return self._ida_single_found(p, q, between)
        word = self._ida_triples(p, q, between)
        return None if word is None else partial(str, word)

    def _ida_triples(self, p: int, q: int, between: int) -> str | None:
        """`ida` by a search of the triple product: three paths at once."""
        follow = self.auto.follow
        degree = self.degree
        masks = self.auto.masks
        prefer = self.auto.prefer
        pick = self.alphabet.pick
        inner = self.inner
        spend = self.budget.spend
        spend(len(self.components[self.comp_of[p]]) + len(self.components[self.comp_of[q]]))
        start = (p, p, q)
        target = (p, q, q)
        parents: dict[tuple[int, int, int], tuple[tuple[int, int, int], int] | None] = {start: None}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            x, y, z = node
            spend(1 + degree[x] * degree[y])
            x_next = inner[x]
            if not x_next:
                continue
            y_next = [y2 for y2 in follow[y] if between >> y2 & 1]
            z_next = inner[z]
            for x2, _ in x_next:
                mask_x = masks[x2]
                for y2 in y_next:
                    common_xy = mask_x & masks[y2]
                    if not common_xy:
                        continue
                    spend(degree[z])
                    for z2, _ in z_next:
                        common = common_xy & masks[z2]
                        if not common:
                            continue
                        nxt = (x2, y2, z2)
                        if nxt in parents:
                            continue
                        parents[nxt] = (node, common)
                        if nxt == target:
                            return _spell(parents, nxt, lambda at, common: pick(common, prefer[at[1]]))
                        queue.append(nxt)
        return None

    def _ida_single(self, p: int, q: int, between: int) -> str | None:
        """`ida` where `p` and `q` each loop alone: the first and last of the three paths
        stay where they are, so the search is the middle path's alone, from `p` to `q`
        on characters both loops read; the same order, word and steps."""
        found = self._ida_single_found(p, q, between)
        return None if found is None else found()

    def _ida_single_found(self, p: int, q: int, between: int) -> Callable[[], str] | None:
        """`_ida_single`, its word spelled when called for. Where the search's queue holds
        nothing but the first position of a literal run (`_Automaton.runs`), the search goes
        along the run, and nothing else, until its last: one position at a time, each handing
        on to the next alone, the same steps each (`_run_reads` says whether every one reads
        a character both loops read), counted at once while within the budget."""
        follow = self.auto.follow
        degree = self.degree
        masks = self.auto.masks
        runs = self.auto.runs
        budget = self.budget
        mask_p, degree_p, degree_q = masks[p], degree[p], degree[q]
        along = 1 + degree_p + degree_q  # what each position of a run takes, with its edge
        both = mask_p & masks[q]
        left = budget.left - 2  # the budget's steps, counted here and handed back
        parents: dict[int, tuple[int, int] | None] = {p: None}
        queue = deque([p])
        while queue and left >= 0:
            y = queue.popleft()
            if not queue and y in runs:
                last = runs[y]
                if (last - y) * along <= left and self._run_reads(y, last, both):
                    left -= (last - y) * along
                    parents[last] = (y, 0)  # 0: along the run
                    queue.append(last)
                    continue
            left -= 1 + degree_p * degree[y]
            if left < 0:
                break
            for y2 in follow[y]:
                here = masks[y2]
                if not here & mask_p or not between >> y2 & 1:
                    continue
                left -= degree_q
                if left < 0:
                    break
                common = here & both
                if not common or y2 in parents:
                    continue
                parents[y2] = (y, common)
                if y2 == q:
                    budget.left = left
                    return partial(self._spell_path, parents, p, q, both)
                queue.append(y2)
        budget.left = left
        budget.spend(0)  # raises if past the budget
        return None

    def _run_reads(self, first: int, last: int, both: int) -> bool:
        """Whether each position of the literal run `first`..`last` after its first reads a
        character of `both`."""
        key = (first, both)
        known = self._reads.get(key)
        if known is None:
            masks = self.auto.masks
            known = self._reads[key] = all(masks[k] & both for k in range(first + 1, last + 1))
        return known

    def _spell_path(self, parents: dict[int, tuple[int, int] | None], p: int, q: int, both: int) -> str:
        """The word along the path `_ida_single_found` found from `p` to `q`."""
        masks = self.auto.masks
        prefer = self.auto.prefer
        pick = self.alphabet.pick
        word = []
        at = q
        while at != p:
            before, common = parents[at]  # type: ignore[misc]
            if common:
                word.append(pick(common, prefer[at]))
            else:  # along a literal run, from its last position back
                word += [pick(masks[k] & both, prefer[k]) for k in range(at, before, -1)]
            at = before
        return "".join(reversed(word))

    def reaches(self) -> tuple[dict[int, int], dict[int, int]]:
        """For each looping component, the positions reachable from it and those it is
        reachable from, as bitsets; the steps spent are a search's from each component
        (one per position reached and one per edge followed from it)."""
        forward, backward, in_degree = self._reach_by_units() if self.units is not None else self._reach_by_components()
        spend = self.budget.spend
        out_weight = _weigher([1 + d for d in self.degree])
        for number in self.looping:
            spend(out_weight(forward[number]))
        spend(self.n + self.edges)  # the edges reversed
        in_weight = _weigher(in_degree)
        for number in self.looping:
            spend(in_weight(backward[number]))
        return forward, backward

    def _reach_by_units(self) -> tuple[dict[int, int], dict[int, int], list[int]]:
        """`_reach_by_components` where every component is one position (`_acyclic`): the
        reaches of the looping ones, worked out over literal runs (a run's positions reach
        what its last one reaches and are reached from what reaches its first)."""
        follow = self.auto.follow
        units = self.units
        assert units is not None
        in_degree = [1] * self.n
        forward: dict[int, int] = {}  # by a unit's first position
        for first, last in units:  # what a unit reaches comes out before it
            reach = ((2 << (last - first)) - 1) << first
            for nxt in follow[last]:
                in_degree[nxt] += 1
                if nxt != first:
                    reach |= forward[nxt]
            forward[first] = reach
            if last > first:
                in_degree[first + 1 : last + 1] = [2] * (last - first)
        backward = {first: ((2 << (last - first)) - 1) << first for first, last in units}
        for first, last in reversed(units):
            reach = backward[first]
            for nxt in follow[last]:
                if nxt != first:
                    backward[nxt] |= reach
        components = self.components
        looping_forward = {number: forward[components[number][0]] for number in self.looping}
        looping_backward = {number: backward[components[number][0]] for number in self.looping}
        return looping_forward, looping_backward, in_degree

    def _reach_by_components(self) -> tuple[dict[int, int], dict[int, int], list[int]]:
        """The looping components' reaches (forward, backward), from every component's, and
        each position's in-degree plus one."""
        follow = self.auto.follow
        comp_of = self.comp_of
        components = self.components
        count = len(components)
        # Components come out of Tarjan in reverse topological order: those a component
        # reaches are numbered below it, those that reach it above.
        own = [0] * count
        forward = [0] * count
        in_degree = [1] * self.n
        for number, component in enumerate(components):
            bits = 0
            for member in component:
                bits |= 1 << member
            own[number] = reach = bits
            for member in component:
                for nxt in follow[member]:
                    in_degree[nxt] += 1
                    other = comp_of[nxt]
                    if other != number:
                        reach |= forward[other]
            forward[number] = reach
        backward = own
        for number in range(count - 1, -1, -1):
            reach = backward[number]
            for member in components[number]:
                for nxt in follow[member]:
                    other = comp_of[nxt]
                    if other != number:
                        backward[other] |= reach
        looping = self.looping
        return {c: forward[c] for c in looping}, {c: backward[c] for c in looping}, in_degree

    def group_looped(self, number: int) -> bool:
        members = set(self.components[number])
        self.budget.spend(len(members) + len(self.auto.group_edges))
        return any(p in members and q in members for p, q in self.auto.group_edges)


def _spell(parents: dict[Any, Any], node: Any, char_of: Callable[[Any, int], str]) -> str:
    """The word along the path to `node`, each step's character picked (only now, for the
    path's steps alone) from the characters it may read."""
    word = []
    while parents[node] is not None:
        before, common = parents[node]
        word.append(char_of(node, common))
        node = before
    return "".join(reversed(word))


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


def reported(found: Finding | Candidate, from_degree: int) -> bool:
    """Whether ET205 reports a finding of this class: exponential, polynomial of degree
    `from_degree` or more, or quadratic and worse through a repeated group."""
    return found.kind != "polynomial" or found.degree >= from_degree or found.group_repeat


# A regex whose every unbounded repeat loops over one character, with at most `loops` of
# them along any one path, has no automaton state with two ways back to itself and no
# repeated group, and its worst polynomial chain holds those loops plus search mode's
# start loop: a degree the analysis would find no higher than that. Up to these sizes
# the analysis it stands for stays far within `STEP_BUDGET` (it grows with the square
# of the positions: about 260,000 steps at the limits, `tests/test_redos_shortcut.py`),
# so answering without it changes no verdict, ET210's included.
_SHORTCUT_POSITIONS = 200
_SHORTCUT_CLASS_ITEMS = 200


def provably_unreported(parsed: syntax.Parsed, mode: str, from_degree: int) -> bool:
    """True when `analyse` with `report_from_degree=from_degree` certainly returns [] for
    `parsed`, decided from its shape alone: no automaton is built."""
    most_loops = max(from_degree, 2) - 1 - (1 if mode == "search" else 0)
    shape = _loop_shape(parsed.nodes, (most_loops, _SHORTCUT_POSITIONS, _SHORTCUT_CLASS_ITEMS))
    if shape is None:
        return False
    loops, positions, items = shape
    if positions > _SHORTCUT_POSITIONS or items > _SHORTCUT_CLASS_ITEMS:
        return False
    return loops <= most_loops


_ONE_POSITION = frozenset((syntax.Char, syntax.AnyChar, syntax.NotChar))

# The most (loops along one path, positions, class items) a shape may reach and still be
# provably unreported; None where nothing is past them yet (inside `X{0}`, see `_node_shape`).
_ShapeCaps = tuple[int, int, int] | None


def _loop_shape(nodes: Seq, caps: _ShapeCaps = None) -> tuple[int, int, int] | None:
    """(most loops along one path, positions, class items) of a regex whose loops each
    repeat one character; None for any other shape (nested loops, looping groups,
    lookarounds, atomic groups, backreferences, conditionals, astral class ranges), and,
    as soon as part of it is past `caps`, for a shape that would be past them whole."""
    loops = positions = items = 0
    for node in nodes:
        if type(node) in _ONE_POSITION:  # the commonest
            positions += 1
            continue
        shape = _node_shape(node, caps)
        if shape is None:
            return None
        loops, positions, items = loops + shape[0], positions + shape[1], items + shape[2]
        # Every count only grows from a part to the whole (but inside `X{0}`, never capped):
        # a part past the caps is a whole past them, whatever the rest holds.
        if caps is not None and (loops > caps[0] or positions > caps[1] or items > caps[2]):
            return None
    return loops, positions, items


def _node_shape(node: syntax.Node, caps: _ShapeCaps) -> tuple[int, int, int] | None:
    if isinstance(node, syntax.CHARACTER_NODES):
        if isinstance(node, CharClass):
            if any(isinstance(i, CharRange) and i.high > 0xFFFF for i in node.items):
                return None  # compiled whole under ASCII and IGNORECASE: costly masks
            return 0, 1, len(node.items)
        return 0, 1, 0
    if isinstance(node, syntax.Anchor):
        return 0, 0, 0
    if isinstance(node, syntax.Group):
        return _loop_shape(node.body, caps)
    if isinstance(node, syntax.Alternation):
        return _alternation_shape(node, caps)
    if isinstance(node, syntax.Repeat) and node.kind != syntax.POSSESSIVE:
        high = node.high
        if high is None or high * max(_size(node.body), 1) > _EXPAND_LIMIT:  # the builder's loop
            if len(node.body) != 1 or not isinstance(node.body[0], syntax.CHARACTER_NODES):
                return None
            body = _loop_shape(node.body, caps)
            return None if body is None else (1, node.low + 1, body[2])
        # `X{0}` counts none of its loops and positions: past the caps inside, not outside.
        body = _loop_shape(node.body, caps if high else None)
        return None if body is None else (body[0] * high, body[1] * high, body[2])
    return None


def _alternation_shape(node: syntax.Alternation, caps: _ShapeCaps) -> tuple[int, int, int] | None:
    """The shape of an alternation: its branches' most loops, and their positions and
    class items summed; None from the first branch that is None."""
    loops = positions = items = 0
    for branch in node.branches:
        shape = _loop_shape(branch, caps)
        if shape is None:
            return None
        loops, positions, items = max(loops, shape[0]), positions + shape[1], items + shape[2]
    return loops, positions, items


def _describe(auto: _Automaton, members: Iterable[int]) -> str:
    labels = []
    for member in sorted(members):
        if member != auto.start:
            label = auto.label(member)
            if label not in labels:
                labels.append(label)
    return "".join(labels[:8]) or "."


_Alphabets = dict[int, tuple[Seq, "_Alphabet"]]  # by the id of the nodes, which each entry keeps alive


def _alphabet_for(nodes: Seq, budget: Budget, known: _Alphabets | None = None) -> _Alphabet:
    """The alphabet of `nodes`; `known` keeps those of one analysis, so that the model
    tests characters with the masks the automaton was built from."""
    if known is not None and id(nodes) in known:
        return known[id(nodes)][1]
    spelled: list[str] = []
    again = _collect_chars(nodes, spelled, set())
    budget.spend(len(spelled) + 4 * again)  # as if each literal's four cases were spelled each time
    # Once each, in the order first spelled: the same set of lower cases, built in the same
    # order (adding one again changes no set), so the extra cases come in the same order.
    chars = [c for c in dict.fromkeys(spelled) if len(c) == 1]
    lowered = set(map(syntax.re_lower, map(ord, chars)))  # as `re` lowers
    extra = [chr(c) for low in lowered if low in syntax.EXTRA_CASED for c in syntax.extra_cases(low)]
    alphabet = _Alphabet([*_BASE_ALPHABET, *chars, *extra], budget)
    if len(alphabet.chars) > _ALPHABET_LIMIT:
        raise TooComplex(f"it spells more than {_ALPHABET_LIMIT:,} distinct characters")
    if known is not None:
        known[id(nodes)] = (nodes, alphabet)  # an id is only its nodes' while they live
    return alphabet


def _analysis_of(
    items: Seq, flags: int, mode: str, budget: Budget, alphabets: _Alphabets | None = None
) -> tuple[_Analysis, list[tuple[Seq, int, str]]]:
    """The automaton of `items` (with search mode's looping start) ready to analyse, and
    the nested parts to analyse on their own."""
    alphabet = _alphabet_for(items, budget, alphabets)
    builder = _Builder(alphabet)
    first, _, _ = builder.seq(items, flags)
    auto = builder.auto
    initial = dict(first)
    if mode == "search" and not _anchored_at_start(items):
        start = auto.add(alphabet.all, "(search)")
        auto.start = start
        auto.follow[start][start] = 1
        auto.self_loops.add(start)
        for pos in first:
            auto.follow[start][pos] = 1
        initial[start] = 1
    auto.initial = initial
    return _Analysis(auto, alphabet), builder.nested


def _analyse_items(
    items: Seq, flags: int, mode: str, budget: Budget, alphabets: _Alphabets | None = None
) -> tuple[list[Candidate], list[tuple[Seq, int, str]]]:
    analysis, nested = _analysis_of(items, flags, mode, budget, alphabets)
    auto = analysis.auto
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
        return found, nested
    chain = _longest_chain(analysis)
    if chain is not None:
        found.append(chain)
    return found, nested


# A step from one looping component to a later one: (target component, state left in the
# source, state reached in the target, the word that loops in both).
_Step = tuple[int, int, int, Callable[[], str]]  # the word spelled when called for


def _longest_from(c: int, edges: dict[int, list[_Step]], best: dict[int, list[_Step]]) -> list[_Step]:
    """The longest chain of steps from looping component `c` (`best`: those found so far).
    A module function: a nested function that calls itself is a reference cycle."""
    if c not in best:
        options = [[edge, *_longest_from(edge[0], edges, best)] for edge in edges[c]]
        best[c] = max(options, key=len) if options else []
    return best[c]


def _longest_chain(analysis: _Analysis) -> Candidate | None:
    """The longest chain of looping states that hand the same word on (degree = length)."""
    auto = analysis.auto
    looping = analysis.looping
    if len(looping) < 2:
        return None
    edges = _chain_edges(analysis)
    best: dict[int, list[_Step]] = {}
    chains = [(c, _longest_from(c, edges, best)) for c in looping]
    head, steps = max(chains, key=lambda item: (len(item[1]), item[0] == analysis.comp_of[auto.start or 0]))
    if not steps:
        return None
    first_state = steps[0][1]
    prefix = "" if first_state == auto.start else analysis.prefix_to(first_state)
    if prefix is None:
        return None
    pumps = _chain_pumps(analysis, first_state, steps)
    if pumps is None:
        return None
    loops = [analysis.comp_of[first_state]] + [analysis.comp_of[q] for _, _, q, _ in steps]
    where = "`, `".join(
        "(every start)" if auto.start in analysis.components[c] else _describe(auto, analysis.components[c])
        for c in loops
    )
    group = any(analysis.group_looped(c) for c in loops[1:])
    return Candidate("polynomial", len(steps) + 1, prefix, tuple(pumps), where, group)


def _chain_edges(analysis: _Analysis) -> dict[int, list[_Step]]:
    """For each looping component, the later ones it hands a word on to."""
    looping = analysis.looping
    components = analysis.components
    forward, backward = analysis.reaches()
    bits = {c: sum(1 << member for member in components[c]) for c in looping}
    sizes = {c: (forward[c].bit_count(), backward[c].bit_count()) for c in looping}
    edges: dict[int, list[_Step]] = {c: [] for c in looping}
    spend = analysis.budget.spend
    # what looking at each pair costs, whether or not the pair hands a word on
    per_source = sum(1 + len(components[c2]) for c2 in looping)
    for c1 in looping:
        spend(per_source)
        reach = forward[c1]
        for c2 in looping:
            if c1 == c2 or not bits[c2] & reach:
                continue
            spend(min(sizes[c1][0], sizes[c2][1]))
            step = _hand_on(analysis, c1, c2, reach & backward[c2])
            if step is not None:
                edges[c1].append(step)
    return edges


def _hand_on(analysis: _Analysis, c1: int, c2: int, between: int) -> _Step | None:
    """The first pair of states of `c1` and `c2` that one word loops through, through `between`."""
    for p in analysis.components[c1]:
        for q in analysis.components[c2]:
            word = analysis.ida_found(p, q, between)
            if word is not None:
                return (c2, p, q, word)
    return None


def _chain_pumps(analysis: _Analysis, first_state: int, steps: list[_Step]) -> list[str] | None:
    """The words that pump a chain: each step's loop word, with a bridge between steps
    where one step ends in another state than the next starts from; None if none bridges."""
    pumps = []
    at = first_state
    for _, p, q, word in steps:
        if p != at:
            bridge = _bridge(analysis, at, p)
            if bridge is None:
                return None
            pumps.append(bridge)
        pumps.append(word())
        at = q
    return pumps


def _bridge(analysis: _Analysis, source: int, target: int) -> str | None:
    parents: dict[int, tuple[int, str] | None] = {source: None}
    queue = deque([source])
    while queue:
        pos = queue.popleft()
        analysis.budget.spend(1 + len(analysis.auto.follow[pos]))
        if pos == target:
            return _unwind(parents, pos)
        for nxt in analysis.auto.follow[pos]:
            if nxt not in parents:
                parents[nxt] = (pos, analysis.alphabet.pick(analysis.auto.masks[nxt], analysis.auto.prefer[nxt]))
                queue.append(nxt)
    return None


def structural(pattern: str, flags: int = 0, mode: str = "search", budget: Budget | None = None) -> list[Candidate]:
    """Exponential and polynomial structures of `pattern`, worst first (no regex is run).

    Raises `re.error` if it does not parse and `TooComplex` past the budget.
    """
    return _structural(syntax.parse(pattern, flags), flags, mode, budget or Budget(STEP_BUDGET, _WHAT))


_WHAT = "the backtracking analysis"


def _structural(
    parsed: syntax.Parsed, flags: int, mode: str, budget: Budget, alphabets: _Alphabets | None = None
) -> list[Candidate]:
    flags |= parsed.flags
    pending: list[tuple[Seq, int, str]] = [(parsed.nodes, flags, mode)]
    out: list[Candidate] = []
    seen = 0
    while pending and seen < _NESTED_LIMIT:
        items, item_flags, item_mode = pending.pop(0)
        seen += 1
        found, nested = _analyse_items(items, item_flags, item_mode, budget, alphabets)
        out += found
        pending += [(sub, f, "match") for sub, f, _ in nested]
    out.sort(key=lambda c: (c.kind != "exponential", -c.degree))
    return out


SUFFIXES = ("!", "\x00", "\n", " ", "", "!\n", "0", "a", "_", ".", "\u2028")


def pump_count(attack: Attack, length: int) -> int:
    """How many repetitions make the attack about `length` characters long."""
    per = sum(len(p) for p in attack.pumps) or 1
    return max(1, (length - len(attack.prefix) - len(attack.suffix)) // per)


# --- attacks the model rejects ------------------------------------------------------------


class _AlphabetOracle(CharOracle):
    """Character tests from the alphabet's masks: what `re` says, with wide ranges clipped,
    and with the steps spent on the analysis's budget."""

    def __init__(self, alphabet: _Alphabet) -> None:
        self.alphabet = alphabet

    def answers(self, node: CharNode, flags: int) -> Answers:
        return _MaskAnswers(self.alphabet.mask(node, flags), self.alphabet.index, node, flags)

    def prepare(self, node: CharNode, flags: int) -> None:
        self.alphabet.mask(node, flags)  # the steps its mask spends, the first time


class _MaskAnswers(dict[str, bool]):
    """A node's answers read from its mask over the alphabet, each when first asked; a
    character outside the alphabet is asked of `re`."""

    __slots__ = ("mask", "index", "node", "flags")

    def __init__(self, mask: int, index: dict[str, int], node: CharNode, flags: int) -> None:
        self.mask, self.index, self.node, self.flags = mask, index, node, flags

    def __missing__(self, char: str) -> bool:
        place = self.index.get(char)
        if place is not None:
            known = self[char] = bool(self.mask >> place & 1)
        else:
            known = self[char] = CharOracle().test(self.node, self.flags)(char)
        return known


def choose_attack(
    parsed: syntax.Parsed, mode: str, candidate: Candidate, budget: Budget, model: Model | None = None
) -> Attack | None:
    """The first attack (by suffix) the model of CPython's matcher rejects, if any.

    Each attack runs with `ATTACK_PUMPS` pumps. One the model needs more than
    `ATTACK_STEPS` steps to decide counts as rejected: a matcher that works that
    hard on a short attack has to try the ways the analysis found.
    """
    if model is None:
        model = _model(parsed, budget)
    for suffix in SUFFIXES:  # each attack made when its turn comes: the first usually serves
        attack = Attack(candidate.prefix, candidate.pumps, suffix)
        text = attack.build(ATTACK_PUMPS)
        run = model.run(text, mode, min(ATTACK_STEPS, budget.left + 1))
        budget.spend(run.steps)
        if run.verdict is Verdict.MATCH and run.start < len(text) - len(attack.suffix):
            continue  # it matches before the end: the backtracking never has to happen
        # No match, a match that starts past the pumped part (every earlier start failed
        # first), or a long search: the matcher tries every way.
        return attack
    return None


def _chain_candidates(alternatives: tuple[literal_chains.Runs, ...]) -> list[Candidate]:
    """What `_structural` finds in a search for literal texts joined by `.*`: the retried
    start hands the first text and a character `.` takes on to the first `.*` of the
    alternative with the most (the first such), and each `.*` the next text on to the next
    `.*`; one `.*` more is one degree more. Without any, nothing loops but the start."""
    longest = max(alternatives, key=len)
    loops = len(longest) - 1
    if loops == 0:
        return []
    # `.` takes the alphabet's first character, as `_Alphabet.pick` spells a word through it
    pumps = tuple(run + _BASE_ALPHABET[0] for run in longest[:-1])
    where = "`, `".join(("(every start)", *[_class_label(syntax.AnyChar())] * loops))
    return [Candidate("polynomial", loops + 1, "", pumps, where, False)]


def _unmatched_chain_attack(alternatives: tuple[literal_chains.Runs, ...], candidate: Candidate, flags: int) -> Attack | None:
    """`choose_attack`'s answer without the model, where the first suffix's attack is
    found by no alternative: the model then rejects it as `re` does, or runs past its
    steps on it, and either way it is the attack. None where that cannot be told."""
    attack = Attack(candidate.prefix, candidate.pumps, SUFFIXES[0])
    if literal_chains.finds(alternatives, attack.build(ATTACK_PUMPS), bool(flags & syntax.IGNORECASE)) is False:
        return attack
    return None


def _model(parsed: syntax.Parsed, budget: Budget, alphabets: _Alphabets | None = None) -> Model:
    """The regex compiled for the model, its characters tested on the alphabet every
    attack is spelled in (the alphabets of nested parts are parts of it)."""
    budget.spend(syntax.count_nodes(parsed.nodes))
    try:
        return Model(parsed, _AlphabetOracle(_alphabet_for(parsed.nodes, budget, alphabets)))
    except TooDeep:
        raise TooComplex("it nests atomic groups and lookarounds too deep") from None


@dataclass(frozen=True)
class Result:
    """A finding with the attack the model rejects, and, when asked for, what timing it measured."""

    finding: Finding
    measurement: Measurement | None = None  # only with `regex.measure` on

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
        if measured is None:
            return cls(finding)
        from entrykit.regex.measure import Measurement

        return cls(finding, Measurement.from_data(measured))


def analyse(
    pattern: str,
    flags: int = 0,
    mode: str = "search",
    runner: Any = None,
    confirm_from_degree: int = 3,
    *,
    measure: bool = False,
    steps: int = STEP_BUDGET,
    report_from_degree: int | None = None,
) -> list[Result]:
    """The worst finding for `pattern` (a list of at most one), with an attack the model
    of CPython's matcher rejects. Decided by analysis alone, within `steps`.

    With `report_from_degree`, a caller that reports only what `reported` says (ET205)
    gets [] without any attack being looked for when no candidate is such a one:
    whichever of them the attacks settled on, it would not be reported.

    With `measure` (and the `runner`), exponential findings and polynomial ones of
    degree >= `confirm_from_degree` are also timed at growing sizes in the regex
    worker (`regex.measure`): an opt-in report of what this machine takes, never
    part of the verdict. Raises `re.error` for a regex that does not parse and
    `TooComplex` (alias `AnalysisTooComplex`) past the budget.
    """
    budget = Budget(steps, _WHAT)
    parsed = syntax.parse(pattern, flags)
    if report_from_degree is not None and steps >= STEP_BUDGET and provably_unreported(parsed, mode, report_from_degree):
        return []
    model = None
    alphabets: _Alphabets = {}  # the top-level alphabet serves the model too
    # Literal texts joined by `.*`: their candidate read from their shape, within caps under
    # which the automaton's analysis leaves room for every attack's run twice over (so no
    # verdict of ET210 changes); steps a caller narrows are spent the long way.
    chains = literal_chains.literal_runs(parsed, flags, mode) if steps >= STEP_BUDGET else None
    candidates = _chain_candidates(chains) if chains is not None else _structural(parsed, flags, mode, budget, alphabets)
    if report_from_degree is not None and not any(reported(c, report_from_degree) for c in candidates):
        return []
    for candidate in candidates:
        attack = _unmatched_chain_attack(chains, candidate, flags | parsed.flags) if chains is not None else None
        if attack is None:
            model = model or _model(parsed, budget, alphabets)
            attack = choose_attack(parsed, mode, candidate, budget, model)
        if attack is None:
            continue  # every attack matches: the backtracking never has to happen
        finding = Finding(candidate.kind, candidate.degree, attack, candidate.where, candidate.group_repeat)
        measured = None
        if measure and runner is not None and (candidate.kind == "exponential" or candidate.degree >= confirm_from_degree):
            from entrykit.regex.measure import measure as time_attack

            measured = time_attack(pattern, flags, mode, finding, runner)
        return [Result(finding, measured)]  # the worst finding is the one to fix first
    return []


@lru_cache(maxsize=256)
def slow_search(pattern: str, flags: int = 0) -> str | None:
    """Why `re.search` of `pattern` could take more than linear time on some text, or None
    when the analysis finds no way: for a regex that runs on untrusted text without a time
    limit. Its worst finding, polynomial of any degree included, with an attack; else a
    structure that backtracks once each counted repeat of more than one pass is read as
    unbounded (`(a{1,30}){1,30}` is `(a+)+` for any text shorter than 900 characters)."""
    try:
        found = analyse(pattern, flags, "search", report_from_degree=2)
        if found:
            finding = found[0].finding
            return f"it backtracks {_how(finding)} on `{finding.attack.describe()}`"
        parsed = syntax.parse(pattern, flags)
        unbounded = replace(parsed, nodes=_unbounded(parsed.nodes))
        if unbounded.nodes != parsed.nodes:
            budget = Budget(STEP_BUDGET, _WHAT)
            candidates = [c for c in _structural(unbounded, flags, "search", budget) if reported(c, 2)]
            if candidates:
                return f"it may backtrack {_how(candidates[0])} where its counted repeats run long (around `{candidates[0].where}`)"
    except TooComplex as exc:
        return f"it is too complex to analyse ({exc.reason})"
    except (re.error, RecursionError, OverflowError):
        return None  # (it does not compile: where it is used, that is said)
    return None


def _how(found: Finding | Candidate) -> str:
    return "exponentially" if found.kind == "exponential" else f"polynomially, degree {found.degree},"


def _unbounded(nodes: Seq) -> Seq:
    """`nodes` with each counted repeat of more than one pass (`x{2,30}`, `(...){30}`) made
    unbounded: a bound limits how long a backtracking run lasts, not whether it can."""
    return tuple(_unbound(node) for node in nodes)


def _unbound(node: syntax.Node) -> syntax.Node:
    if isinstance(node, syntax.Repeat):
        high = node.high if node.high is not None and node.high <= 1 else None
        return replace(node, high=high, body=_unbounded(node.body))
    if isinstance(node, (syntax.Group, syntax.Atomic, syntax.Lookaround)):
        return replace(node, body=_unbounded(node.body))
    if isinstance(node, syntax.Alternation):
        return replace(node, branches=tuple(_unbounded(branch) for branch in node.branches))
    if isinstance(node, syntax.Conditional):
        return replace(node, yes=_unbounded(node.yes), no=_unbounded(node.no) if node.no is not None else None)
    return node
