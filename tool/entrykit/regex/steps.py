"""How many steps `re` can take at most to search a text: the bound that lets a match run without a budget.

The bound holds for regexes whose only repetitions of more than one pass take one
character at a time (`a*`, `.+`, `[^/]{2,}`), which `re` runs as one counting loop: it
counts what it can take (at most n characters of a text of n, or of its count: `x{1,3}`),
then tries the rest of the pattern once for each length it can give back (at most n + 1). An alternation tries
each branch, each followed by the rest; an optional part is tried, then skipped; a
lookaround or atomic group runs its own match, then the rest once. Each instruction tried
is one step, counted as `backtracking.Model` counts them (the tests hold the bound to the
model's count). A repeated group may backtrack into itself: no bound, but for one shape
that version numbers take, `(?:\\.\\d+)*`: a literal character, then a one-character
repetition that cannot match it (`_group_loop`), which splits a text in one way only.

The same walk of the parsed pattern gives two bounds:
- `step_bound`: a polynomial in the text's length, worked out once per regex, so that
  `longest_fast_text` answers every job of it by the text's length alone;
- `text_steps`: the bound for one text, where a repetition followed by literal text
  (`.*not supported`, or one of a group's words: `.*(buy|sell)`) tries the rest beyond
  it only where the text holds that text, and elsewhere the rest fails within a few
  steps (`_first_literals`); a search's start likewise (where the text holds none of the
  words a match begins with, no start goes on, and the bound needs no walk of the rest:
  `_start_terms`); and a repetition takes at most
  the longest run of characters it accepts in the text (a `\\d+` at most the longest
  number, not the whole line).

A regex is asked about many texts (its own, the generic probes, other entries'), so the
walk runs over a plan of the pattern made once per regex (`_plan`): the nodes that are not
one step each, each with its kind and the literal characters after it, and between them
how many one-step nodes there are. A text then costs a few operations per repetition,
group or alternation rather than one per character of the pattern.
"""

from __future__ import annotations

import operator
import re
import sys
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar, cast

from entrykit.regex import syntax
from entrykit.regex.backtracking import CharOracle
from entrykit.regex.compiling import cheap_to_compile
from entrykit.regex.folding import fold

FAST_PATH_LIMIT = 500_000  # steps of a search run without a budget: about 5 ms at 10 ns a step
_MAX_DEGREE = 6  # past this, no text worth running in-process stays within the limit
_MAX_COEFFICIENT = 10**12  # nor past this
SHORT_REPEAT = 16  # a one-character repeat of at most this many: bounded by its count, not the length
WORD_CHARACTERS = 16  # a literal word is read up to this many characters (a longer one is where its start is)
COUNTED_WORDS = 16  # the most words looked for in a text at one place; of more, their first characters

Polynomial = tuple[int, ...]  # coefficients of n**0, n**1, ... (n: the text's length)
# What a match of some nodes must begin with (`_first_literals`): literal words, their
# first characters, the most steps an attempt takes where the text holds none of those
# characters, and where it holds none of the words.
Literals = tuple[tuple[str, ...], tuple[int, ...], int, int]
# What a repetition can take, one character at a time: a regex of one character node (or,
# for a group loop, of either of its two), and the flags that matter to it. A repetition
# never takes more than the longest run of such characters in the text.
Takes = tuple[str, int]
T = TypeVar("T")

_ONE_CHARACTER = (syntax.Char, syntax.NotChar, syntax.AnyChar, syntax.CharClass)
_ONE_STEP = (syntax.Char, syntax.NotChar, syntax.AnyChar, syntax.Anchor)


class _Arithmetic(Generic[T]):
    """How the bounds add up: as polynomials in the length, or as numbers for one text."""

    zero: T

    def plus(self, steps: int, value: T) -> T:
        raise NotImplementedError

    def add(self, left: T, right: T) -> T:
        raise NotImplementedError

    def loop(self, rest: T, after: Literals | None, most: int | None = None, takes: Takes | None = None) -> T:
        """A one-character repetition of at most `most` characters (None: unbounded)
        followed by `rest` (which begins with one of the literal words of `after`, when it
        must); `takes`: what the repetition can take, one character at a time."""
        raise NotImplementedError

    def group_loop(self, rest: T, takes: Takes | None = None) -> T:
        """A greedy repetition of a group that is a literal character then a one-character
        repetition that cannot match it (`_group_loop`), followed by `rest`; `takes`: the
        characters either accepts."""
        raise NotImplementedError

    def compare(self, rest: T) -> T:
        """A backreference (compares up to n characters), then `rest`."""
        raise NotImplementedError

    def too_large(self, value: T) -> bool:
        raise NotImplementedError


class _InLength(_Arithmetic[Polynomial]):
    zero: Polynomial = (0,)

    def plus(self, steps: int, value: Polynomial) -> Polynomial:
        return (value[0] + steps,) + value[1:]

    def add(self, left: Polynomial, right: Polynomial) -> Polynomial:
        if len(left) < len(right):
            left, right = right, left
        added = tuple(map(operator.add, left, right))  # (as far as the shorter goes)
        return added if len(left) == len(right) else added + left[len(right) :]

    def loop(
        self, rest: Polynomial, after: Literals | None, most: int | None = None, takes: Takes | None = None
    ) -> Polynomial:
        # counts what it can take (n + 2 steps at most), then per length it gives back
        # (n + 1): one step, and the rest; that is (2 + n) + (1 + n) * tried
        tried = (rest[0] + 1,) + rest[1:]
        if most is not None and most <= SHORT_REPEAT:  # `x?`, `x{1,3}`: most for n, whatever n
            return (tried[0] * (most + 1) + most + 2,) + tuple(c * (most + 1) for c in tried[1:])
        out = list(map(operator.add, tried + (0,), (0,) + tried))
        out[0] += 2
        out[1] += 1
        return tuple(out)

    def group_loop(self, rest: Polynomial, takes: Takes | None = None) -> Polynomial:
        # (4n + 5) + (n + 1) * (5 + rest): see `_group_loop`
        tried = (rest[0] + 5,) + rest[1:]
        out = list(map(operator.add, tried + (0,), (0,) + tried))
        out[0] += 5
        out[1] += 4
        return tuple(out)

    def compare(self, rest: Polynomial) -> Polynomial:
        return self.add((1, 1), rest)

    def too_large(self, value: Polynomial) -> bool:
        return len(value) > _MAX_DEGREE + 1 or value[-1] > _MAX_COEFFICIENT


class _InText(_Arithmetic[int]):
    zero = 0
    _minimum: Any = min  # (`_InTexts`: numpy's, element by element)

    def __init__(self, text: str) -> None:
        self.length: Any = len(text)
        self.text = text
        self.folded = fold(text)
        self.counts: dict[int, Any] = {}  # code -> `holding(code)`, counted when first asked
        self.texts_held: dict[str, Any] = {}  # literal -> `holding_text(literal)`, likewise
        self.runs: dict[Takes, Any] = {}  # -> `longest_run`, when first asked

    def plus(self, steps: int, value: int) -> int:
        return steps + value

    def add(self, left: int, right: int) -> int:
        return left + right

    def loop(self, rest: int, after: Literals | None, most: int | None = None, takes: Takes | None = None) -> int:
        n = self.length if takes is None else self.longest_run(takes)  # it takes at most n
        if most is not None:
            n = self._minimum(n, most)
        if after is None:
            return n + 2 + (n + 1) * (1 + rest)
        # per length given back, one step and the rest, which fails within a few steps
        # where the text holds none of the words it begins with
        return n + 2 + (n + 1) + self.attempts(after, n + 1, rest)

    def attempts(self, literals: Literals, tries: Any, rest: Any) -> Any:
        """The most steps `tries` attempts of something that begins with one of the words of
        `literals` take (each at most `rest`), at different places of the text: where it
        holds none of the words' first characters, each fails within the first count of
        steps; where it holds one but none of the words, within the second."""
        failing, going_on = self.attempt_terms(literals, tries)
        return failing + going_on * rest

    def attempt_terms(self, literals: Literals, tries: Any) -> tuple[Any, Any]:
        """`attempts` as (steps of the attempts that fail at the words, how many may go on
        past them): the most steps are the first plus the second times what one takes."""
        words, firsts, none_first, none_whole = literals
        minimum, holding = self._minimum, self.holding
        most = tries * none_first
        if none_whole == none_first and len(firsts) == 1:  # (one character: the commonest)
            return most, minimum(holding(firsts[0]), tries)
        if len(words) == 1:  # (a word: the next commonest)
            return most + minimum(holding(firsts[0]), tries) * (none_whole - none_first), minimum(self.holding_text(words[0]), tries)
        firsts_held = sum(holding(first) for first in firsts)
        if len(words) > COUNTED_WORDS:  # (each word a search of the text: where a first character is, the rest may go on)
            return most, minimum(firsts_held, tries)
        most = most + minimum(firsts_held, tries) * (none_whole - none_first)
        return most, minimum(sum(self.holding_text(word) for word in words), tries)

    def group_loop(self, rest: int, takes: Takes | None = None) -> int:
        # (every iteration, and every character the loop gives back, is within one run of
        # characters its literal or its repetition accepts)
        n = self.length if takes is None else self.longest_run(takes)
        return 4 * n + 5 + (n + 1) * (5 + rest)

    def compare(self, rest: int) -> int:
        return 1 + self.length + rest

    def longest_run(self, takes: Takes) -> int:
        """The most characters in a row of the text that `takes` accepts."""
        found = self.runs.get(takes)
        if found is None:
            found = self.runs[takes] = _longest_run(takes, self.text)
        return found

    def holding(self, code: int) -> int:
        """How many characters of the text `code` matches (under any case)."""
        found = self.counts.get(code)
        if found is None:  # (folding maps each character to one character)
            found = self.counts[code] = self.folded.count(fold(chr(code)))
        return found

    def holding_text(self, literal: str) -> Any:
        """At how many places the text holds `literal` (under any case). Where two places of
        it can overlap (an end of it is also its start), at most: `len(literal)` for each
        place `str.count` finds apart (an overlapping place starts within one of those), and
        never more than the places of its first character."""
        if len(literal) == 1:
            return self.holding(ord(literal))
        found = self.texts_held.get(literal)
        if found is None:
            word = fold(literal)
            found = self._count(word)
            if _overlaps(word):
                found = self._minimum(found * len(word), self.holding(ord(literal[0])))
            self.texts_held[literal] = found
        return found

    def _count(self, word: str) -> Any:
        """Places of the folded `word` in the folded text, apart (`str.count`)."""
        return self.folded.count(word)

    def too_large(self, value: int) -> bool:
        return value > FAST_PATH_LIMIT


class _InTexts(_InText):
    """`_InText` for many texts at once: each value a numpy array, one element per text.

    Where `_InText`'s walk gives up on a text (a value past the limit), this one marks the
    text (`over`) and goes on for the others, keeping that text's values at the limit + 1:
    every operation only adds, or multiplies by a count, so a value kept there is past the
    limit wherever the exact one is, and the values of the other texts are exact."""

    def __init__(self, texts: Sequence[str]) -> None:  # (not `_InText`'s: its state is one text's)
        import numpy as np

        self.np = np
        self._minimum = np.minimum
        self.length = np.array([len(text) for text in texts], dtype=np.int64)
        self.originals = texts
        self.texts = [fold(text) for text in texts]
        self.counts = {}
        self.texts_held = {}
        self.runs = {}
        self.over = np.zeros(len(texts), dtype=bool)

    def _kept(self, value: Any) -> Any:
        return self.np.minimum(value, _PAST_LIMIT)

    def plus(self, steps: int, value: Any) -> Any:
        return self._kept(value + steps)

    def add(self, left: Any, right: Any) -> Any:
        return self._kept(left + right)

    def loop(self, rest: Any, after: Literals | None, most: int | None = None, takes: Takes | None = None) -> Any:
        return self._kept(super().loop(rest, after, most, takes))

    def group_loop(self, rest: Any, takes: Takes | None = None) -> Any:
        return self._kept(super().group_loop(rest, takes))

    def longest_run(self, takes: Takes) -> Any:
        """The most characters in a row of each text that `takes` accepts."""
        found = self.runs.get(takes)
        if found is None:
            found = self.runs[takes] = self.np.array(_longest_runs(takes, self.originals), dtype=self.np.int64)
        return found

    def compare(self, rest: Any) -> Any:
        return self._kept(super().compare(rest))

    def holding(self, code: int) -> Any:
        """How many characters of each text `code` matches (under any case)."""
        found = self.counts.get(code)
        if found is None:
            char = fold(chr(code))
            found = self.counts[code] = self.np.array([text.count(char) for text in self.texts], dtype=self.np.int64)
        return found

    def _count(self, word: str) -> Any:
        return self.np.array([text.count(word) for text in self.texts], dtype=self.np.int64)

    def too_large(self, value: Any) -> bool:
        self.over |= value > FAST_PATH_LIMIT
        return False


_PAST_LIMIT = FAST_PATH_LIMIT + 1


@lru_cache(maxsize=4096)
def _overlaps(word: str) -> bool:
    """Whether two places of `word` in a text can overlap: some end of it is also its start."""
    return any(word.startswith(word[-size:]) for size in range(1, len(word)))


def _longest_run(takes: Takes, text: str) -> int:
    """The most characters in a row of `text` that `takes` accepts."""
    return max(map(len, _run_of(*takes).findall(text)), default=0)


# The longest runs of the texts asked about many at once, kept per kind of run (`Takes`)
# from one regex to the next while a cross-matching runs its regexes (`runs_remembered`):
# each regex without a cover is asked about every text of the corpus, and most regexes
# take the same kinds (`.`, `\d`, `[A-Z]`), so the runs of a text were worked out for the
# regex before. At most `RUN_KINDS_KEPT` kinds, each of at most `RUN_TEXTS_KEPT` texts (and
# those of the call that passes it); none kept outside such a block.
RUN_KINDS_KEPT = 4
RUN_TEXTS_KEPT = 1 << 17
_runs_kept: OrderedDict[Takes, dict[str, int]] | None = None


@contextmanager
def runs_remembered() -> Iterator[None]:
    """Within the block, the longest runs of the texts asked about many at once are kept for
    the next regex that asks (`_longest_runs`); let go when it ends."""
    global _runs_kept
    outer = _runs_kept
    _runs_kept = OrderedDict() if outer is None else outer
    try:
        yield
    finally:
        _runs_kept = outer


def _longest_runs(takes: Takes, texts: Sequence[str]) -> list[int]:
    """`_longest_run` of each of `texts`, the answers kept for the next regex that asks
    (within `runs_remembered`)."""
    kept = _runs_kept
    if kept is None:
        return [_longest_run(takes, text) for text in texts]
    known = kept.get(takes)
    if known is None:
        if len(kept) >= RUN_KINDS_KEPT:
            kept.popitem(last=False)  # the kind asked for longest ago
        known = kept[takes] = {}
    else:
        kept.move_to_end(takes)
        if len(known) >= RUN_TEXTS_KEPT:
            known.clear()
    get = known.get
    out = []
    for text in texts:
        run = get(text)
        if run is None:
            run = known[text] = _longest_run(takes, text)
        out.append(run)
    return out


@lru_cache(maxsize=4096)
def _run_of(source: str, flags: int) -> re.Pattern[str]:
    """Runs of the characters the one-character regex `source` matches (a repetition of one
    character: `re` finds them in one pass, whatever the text)."""
    return re.compile(f"(?:{source})+", flags)


# Texts of one regex from which `runs_within_limit_each` walks its plan once for all of
# them (`text_steps_each`): below, a walk per text costs less than numpy's setting up.
_MANY_TEXTS = 16
# Importing numpy costs about what 10,000 walks do: a run that has not imported it for
# something else (near-duplicate bands, in a corpus of more than a few hundred entries)
# walks per text below this many.
_IMPORT_PAYS = 10_000


def _walk_at_once(count: int) -> bool:
    return count >= _MANY_TEXTS and (count >= _IMPORT_PAYS or "numpy" in sys.modules)


# --- the walk, over a plan of the pattern made once per regex ----------------------------------

# A plan of a sequence: per node that is not one step, in the order the walk meets them
# (last node first), (one-step nodes met just before it, its plan, what the nodes after
# it begin with, for a one-character repetition: `_first_literals`), then the one-step
# nodes left at the front.
_SeqPlan = tuple[tuple[tuple[int, "_NodePlan", Literals | None], ...], int]
_LOOP, _ONCE, _UNBOUNDED, _BRANCHES, _GROUP, _OWN_MATCH, _CONDITIONAL, _COMPARE, _ONE, _GROUP_LOOP = range(10)
_NodePlan = tuple[Any, ...]  # (kind, the plans of its sequences ...)


def _plan_seq(nodes: syntax.Seq, flags: int) -> _SeqPlan:
    """`nodes` as the walk meets them, with what does not depend on the text worked out."""
    items: list[tuple[int, _NodePlan, Literals | None]] = []
    steps = 0
    for at in range(len(nodes) - 1, -1, -1):
        node = nodes[at]
        if isinstance(node, _ONE_STEP):
            steps += 1
            continue
        planned = _plan_node(node, flags)
        items.append((steps, planned, _first_literals(nodes, at + 1) if planned[0] == _LOOP else None))
        steps = 0
    return tuple(items), steps


def _plan_node(node: syntax.Node, flags: int) -> _NodePlan:  # noqa: PLR0911 - one case per kind of node
    if isinstance(node, syntax.Repeat):
        body = node.body[0] if len(node.body) == 1 else None
        if isinstance(body, _ONE_CHARACTER):
            return (_LOOP, node.high, (syntax.char_source(body), flags & syntax.CLASS_FLAGS))
        if node.high is not None and node.high <= 1:
            return (_ONCE, _plan_seq(node.body, flags), node.low == 0)
        if _group_loop(node, flags):
            first, loop = cast("tuple[syntax.Char, syntax.Repeat]", node.body)
            either = f"{syntax.char_source(first)}|{syntax.char_source(cast('syntax.CharNode', loop.body[0]))}"
            return (_GROUP_LOOP, (either, flags & syntax.CLASS_FLAGS))
        return (_UNBOUNDED,)
    if isinstance(node, syntax.Alternation):
        return (_BRANCHES, tuple(_plan_seq(branch, flags) for branch in node.branches))
    if isinstance(node, syntax.Group):
        return (_GROUP, _plan_seq(node.body, syntax.scoped_flags(node, flags)))
    if isinstance(node, (syntax.Atomic, syntax.Lookaround)):
        return (_OWN_MATCH, _plan_seq(node.body, flags))
    if isinstance(node, syntax.Conditional):
        return (_CONDITIONAL, _plan_seq(node.yes, flags), None if node.no is None else _plan_seq(node.no, flags))
    if isinstance(node, syntax.Backref):
        return (_COMPARE,)
    return (_ONE,)


def _group_loop(node: syntax.Repeat, flags: int) -> bool:
    """Whether `node` is a greedy repetition of a literal character C then a greedy
    one-character repetition L that cannot match C (`(?:\\.\\d+)*`, `(?:-[a-z]*){1,3}`).

    `re` runs it as a counting loop around the body (REPEAT ... MAX_UNTIL; the model's
    REP_INIT, REP, CHAR, ONE, JMP). Each iteration takes C and then L's run, so the text
    splits into iterations in one way only, each at least one character long. From a
    position with n characters left, the steps are at most
    - 1 to set up the loop; per iteration (I <= n of them) REP, C, L and the jump, 4
      steps plus the t characters L scans; the last attempt REP, C, a short L run and the
      backtrack, 4 steps plus what it scans: together at most 5 + 3I + n <= 5 + 4n;
    - the rest tried at the loop's exit (after the last attempt fails), where an
      iteration's choice to leave is taken back (1 step), and at each character L gives
      back (the backtrack, the jump, REP, C failing on a character of L's, the backtrack
      to leave: 5 steps): at most once per position, n + 1 tries of 5 steps and the rest.
    That is (4n + 5) + (n + 1) * (5 + rest); `tests/test_regex_group_step_bound.py` holds
    it to the model's count. A literal `re` compares by case (IGNORECASE, C cased) is left
    out: then C may match more than itself."""
    if node.kind != syntax.GREEDY or len(node.body) != 2:
        return False
    first, loop = node.body
    if type(first) is not syntax.Char or not isinstance(loop, syntax.Repeat) or loop.kind != syntax.GREEDY:
        return False
    if len(loop.body) != 1 or not isinstance(loop.body[0], _ONE_CHARACTER):
        return False
    if flags & syntax.IGNORECASE and syntax.re_is_cased(first.code):
        return False
    return not CharOracle().test(loop.body[0], flags)(chr(first.code))


def _seq_cost(plan: _SeqPlan, rest: T, arithmetic: _Arithmetic[T]) -> T | None:
    """Most steps matching the planned sequence and then the rest of the pattern (at most
    `rest` steps each time it is tried) takes from one position, or None without such a bound."""
    items, front = plan
    plus, too_large = arithmetic.plus, arithmetic.too_large
    for steps, node, after in items:  # (last node first: each costs what follows it)
        if steps:
            rest = plus(steps, rest)
        found = _node_cost(node, rest, after, arithmetic)
        if found is None or too_large(found):
            return None
        rest = found
    return plus(front, rest) if front else rest


def _node_cost(  # noqa: PLR0911 - one case per kind of node
    node: _NodePlan, rest: T, after: Literals | None, arithmetic: _Arithmetic[T]
) -> T | None:
    plus, add = arithmetic.plus, arithmetic.add
    kind = node[0]
    if kind == _ONE:  # a class (one-step nodes are counted in the sequence's runs)
        return plus(1, rest)
    if kind == _LOOP:
        return arithmetic.loop(rest, after, node[1], node[2])
    if kind == _GROUP:  # a capturing group marks where it starts and ends
        inner = _seq_cost(node[1], plus(1, rest), arithmetic)
        return None if inner is None else plus(1, inner)
    if kind == _BRANCHES:
        total = plus(1, arithmetic.zero)
        for branch in node[1]:  # each branch is tried, each followed by the rest
            cost = _seq_cost(branch, plus(1, rest), arithmetic)
            if cost is None:
                return None
            total = add(total, plus(1, cost))
        return total
    if kind == _ONCE:  # one pass (enter, body, loop back, leave), or none
        inner = _seq_cost(node[1], plus(3, rest), arithmetic)
        return None if inner is None else plus(3, add(inner, plus(2, rest)) if node[2] else inner)
    if kind == _OWN_MATCH:  # its own match, then the rest once
        inner = _seq_cost(node[1], plus(1, arithmetic.zero), arithmetic)
        return None if inner is None else plus(1, add(inner, rest))
    if kind == _CONDITIONAL:
        yes = _seq_cost(node[1], plus(1, rest), arithmetic)
        no = _seq_cost(node[2], rest, arithmetic) if node[2] is not None else rest
        return None if yes is None or no is None else plus(1, add(yes, no))
    if kind == _COMPARE:
        return arithmetic.compare(rest)
    if kind == _GROUP_LOOP:
        return arithmetic.group_loop(rest, node[1])
    return None  # _UNBOUNDED: a repeated group may backtrack into itself, no polynomial bound


@dataclass(frozen=True)
class _Plan:
    """What the bounds need of a regex, whatever the text."""

    seq: _SeqPlan
    first: Literals | None  # `_first_literals` of the whole pattern
    weight: int  # what a step may cost, in steps (`syntax.step_weight`): the bounds are scaled by it


@lru_cache(maxsize=4096)
def _plan(pattern: str, flags: int) -> _Plan | None:
    """The plan of `pattern`, None if it does not parse (or nests deeper than we recurse)."""
    try:
        parsed = syntax.parse(pattern, flags)
        nodes = parsed.nodes
        return _Plan(_plan_seq(nodes, parsed.flags), _first_literals(nodes), syntax.step_weight(parsed))
    except Exception:  # does not parse, or nests deeper than we recurse: unknown
        return None


@lru_cache(maxsize=65536)
def step_bound(pattern: str, flags: int) -> Polynomial | None:
    """Most steps a match of `pattern` takes from one start position, as a polynomial in
    the text's length, or None when there is no such bound (or it does not parse)."""
    plan = _plan(pattern, flags)
    if plan is None:
        return None
    try:  # (the rest after the whole pattern: the step that reports the match)
        bound = _seq_cost(plan.seq, (1,), _IN_LENGTH)
    except Exception:  # nests deeper than we recurse: unknown
        return None
    return bound if bound is None or plan.weight == 1 else tuple(plan.weight * c for c in bound)


def search_steps(bound: Polynomial, length: int) -> int:
    """The bound of a search of a text of `length` characters: one match per start position."""
    value = 0
    for coefficient in reversed(bound):
        value = value * length + coefficient
    return value * (length + 1)


@lru_cache(maxsize=4096)  # the same jobs come back: a probe of every regex written alike, a job run twice
def text_steps(pattern: str, flags: int, text: str) -> int | None:
    """Most steps a search of `pattern` takes on `text` (every start position), or None
    when there is no such bound or it is past `FAST_PATH_LIMIT`."""
    plan = _plan(pattern, flags)
    if plan is None:
        return None
    arithmetic = _InText(text)
    failing, going_on = _start_terms(plan, arithmetic)
    if going_on is not None and not going_on and step_bound(pattern, flags) is not None:
        total = plan.weight * failing  # no start goes on: what one would take is never spent
        return total if total <= FAST_PATH_LIMIT else None
    try:
        per_start = _seq_cost(plan.seq, 1, arithmetic)  # (1: the step that reports the match)
    except Exception:  # nests deeper than we recurse: unknown
        return None
    if per_start is None:
        return None
    total = plan.weight * _search_total(arithmetic, failing, going_on, per_start)
    return total if total <= FAST_PATH_LIMIT else None


def text_steps_each(pattern: str, flags: int, texts: Sequence[str]) -> list[int | None]:
    """`text_steps` of `pattern` on each of `texts`, the plan walked once for all of them
    (and not at all when no text has a start that goes on)."""
    none: list[int | None] = [None] * len(texts)
    plan = _plan(pattern, flags)
    if plan is None or not texts:
        return none
    arithmetic = _InTexts(texts)
    np = arithmetic.np
    shape = arithmetic.length.shape
    failing, going_on = _start_terms(plan, arithmetic)
    bounded = going_on is not None and step_bound(pattern, flags) is not None
    unopened = np.broadcast_to(going_on == 0, shape) if bounded else np.zeros(shape, dtype=bool)
    per_start = None
    if not unopened.all():
        try:
            per_start = _seq_cost(plan.seq, 1, arithmetic)
        except Exception:  # nests deeper than we recurse: unknown, but where no start goes on
            per_start = None
    if per_start is None:
        if not unopened.any():
            return none
        total = np.broadcast_to(plan.weight * failing, shape)
        within = unopened & (total <= FAST_PATH_LIMIT)
    else:
        total = np.broadcast_to(plan.weight * _search_total(arithmetic, failing, going_on, per_start), shape)
        within = (unopened | ~arithmetic.over) & (total <= FAST_PATH_LIMIT)
    return [steps if fine else None for steps, fine in zip(total.tolist(), within.tolist(), strict=True)]


def _start_terms(plan: _Plan, arithmetic: _InText) -> tuple[Any, Any]:
    """A search's attempts as `_InText.attempt_terms` gives them: the steps of those that
    fail at the words a match begins with, and how many may go on past them; (None, None)
    when a match begins with no known words. Where none goes on, the search's bound needs
    nothing of what one start may take: no walk of the plan, which on a long text may give
    up on a start that no attempt ever reaches."""
    if plan.first is None:
        return None, None
    return arithmetic.attempt_terms(plan.first, arithmetic.length + 1)


def _search_total(arithmetic: _InText, failing: Any, going_on: Any, per_start: Any) -> Any:
    """A search's bound (every start position) from one start's and `_start_terms`, for one
    text or, with `_InTexts`, for each of many: every start, where a match begins with no
    known words; else those that fail at the words, and those that go on."""
    if going_on is None:
        return (arithmetic.length + 1) * per_start
    return failing + going_on * per_start


def _first_literals(nodes: syntax.Seq, start: int = 0) -> Literals | None:
    """The literal words a match of `nodes` (from `start` on) must begin with (a word: the
    literal characters in a row that begin a branch), and the most steps an attempt takes
    to fail where the text holds none of their first characters, and where it holds none
    of the words (each of a word's characters one step); None if not known."""
    if start >= len(nodes):
        return None
    node = nodes[start]
    if isinstance(node, syntax.Char):
        end = start + 1
        while end < min(len(nodes), start + WORD_CHARACTERS) and type(nodes[end]) is syntax.Char:
            end += 1
        word = "".join(chr(char.code) for char in nodes[start:end])  # type: ignore[union-attr]
        return (word,), (node.code,), 1, end - start
    if isinstance(node, syntax.Group):
        inner = _first_literals(node.body)
        return None if inner is None else (inner[0], inner[1], inner[2] + 1, inner[3] + 1)
    if isinstance(node, syntax.Alternation):
        words: dict[str, None] = {}  # (in order, once each)
        firsts: dict[int, None] = {}
        none_first = none_whole = 1
        for branch in node.branches:
            inner = _first_literals(branch)
            if inner is None:
                return None
            words.update(dict.fromkeys(inner[0]))
            firsts.update(dict.fromkeys(inner[1]))
            none_first += inner[2] + 2  # a branch tried, and left
            none_whole += inner[3] + 2
        return tuple(words), tuple(firsts), none_first, none_whole
    return None


@lru_cache(maxsize=65536)  # asked for every job of a regex
def longest_fast_text(pattern: str, flags: int) -> int:
    """The longest text on which any search of `pattern` stays within `FAST_PATH_LIMIT`
    (-1: none, or compiling it may take long): its bound grows with the length, so one
    search per regex answers every job of it."""
    bound = step_bound(pattern, flags) if cheap_to_compile(pattern, flags) else None
    if bound is None or search_steps(bound, 0) > FAST_PATH_LIMIT:
        return -1
    low, high = 0, 1
    while search_steps(bound, high) <= FAST_PATH_LIMIT:
        low, high = high, high * 2
    while high - low > 1:  # search_steps(low) is within the limit, search_steps(high) is not
        middle = (low + high) // 2
        low, high = (middle, high) if search_steps(bound, middle) <= FAST_PATH_LIMIT else (low, middle)
    return low


def runs_within_limit(pattern: str, flags: int, text: str) -> bool:
    """Whether a search of `pattern` on `text` (compiling included) provably stays within
    `FAST_PATH_LIMIT` steps: by the text's length, else by where the text holds the
    characters that follow the repetitions."""
    longest = longest_fast_text(pattern, flags)
    if len(text) <= longest:
        return True
    return _bounded_by_text(pattern, flags) and text_steps(pattern, flags, text) is not None


def _bounded_by_text(pattern: str, flags: int) -> bool:
    """Whether a text's own bound (`text_steps`) may let a search run in-process."""
    return step_bound(pattern, flags) is not None and cheap_to_compile(pattern, flags)


def runs_within_limit_each(pattern: str, flags: int, texts: Sequence[str]) -> list[bool]:
    """`runs_within_limit` of `pattern` on each of `texts`, asking about the regex once
    (and, for many texts longer than its `longest_fast_text`, walking its plan once)."""
    longest = longest_fast_text(pattern, flags)
    out = [len(text) <= longest for text in texts]
    longer = [number for number, fine in enumerate(out) if not fine]
    if not longer:
        return out
    if not _walk_at_once(len(longer)):
        for number in longer:
            out[number] = runs_within_limit(pattern, flags, texts[number])
        return out
    if not _bounded_by_text(pattern, flags):
        return out
    steps = text_steps_each(pattern, flags, [texts[number] for number in longer])
    for number, found in zip(longer, steps, strict=True):
        out[number] = found is not None
    return out


_IN_LENGTH = _InLength()
