"""Which regexes match which texts, without trying every regex on every text.

From each regex (as `re` parses it, `regex.syntax`) we extract an AND/OR query of literals
that any match must contain: per alternation branch, nothing required through
optional or zero-repeat parts. Literals and texts are case-folded the way `re`'s
IGNORECASE compares characters (its simple lower-case mapping plus the extra
equivalences `re` knows: dotless i, long s, the Kelvin sign, ...), so a
folded literal occurs in a folded text whenever the regex could match it.

Each regex gets a *cover*: a set of literals (of at least `MIN_LITERAL`
characters) one of which every match contains, chosen by how rare the literals
are in the indexed texts. One Aho-Corasick automaton over all literals finds the
literals of every text in one pass; the real regex then runs (through the
time-budgeted runner) only on the texts holding one of its cover literals.
Regexes without a cover fall back to running on every text (in a corpus's
cross-matching, the first `UNCOVERED_LIMIT` of them: the rest are left
unchecked, so that the runs stay linear in the corpus). Regexes written
alike (one template's) run once and share their result (`Row`), so a corpus whose
every regex matches every text costs runs and memory linear in it.
"""

from __future__ import annotations

import bisect
import itertools
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Protocol, TypeVar, overload

import ahocorasick

from entrykit.regex import syntax
from entrykit.regex.budget import Budget, TooComplex
from entrykit.regex.compiling import compile_pattern
from entrykit.regex.folding import TABLE as _TABLE
from entrykit.regex.folding import fold
from entrykit.regex.runner import Job, Outcome, RegexRunner, Status, Strikes
from entrykit.regex.steps import longest_fast_text, runs_remembered, runs_within_limit_each

MIN_LITERAL = 2  # shortest literal the index uses (CJK words are often two characters)
# Distinct regexes without a cover that a corpus's cross-matching runs (each on every text of
# the corpus): the first this many, by their entries' paths. More would cost the square of the corpus.
UNCOVERED_LIMIT = 16
_EXACT_LIMIT = 16  # strings an exact set may hold before it turns into a query
_LITERAL_LIMIT = 4096  # characters a fixed repeat may spell out as a literal

# A query: a literal, ("and", parts), ("or", parts), or None for "anything".
Query = str | tuple[str, tuple["Query", ...]] | None


# --- required literals ---------------------------------------------------------------------


# What a node (or a sequence) requires: (exact, query). `exact` is the set of (folded) strings
# the node matches exactly one of, or None; then `query` is what any match contains. (A plain
# tuple: one is made for every node walked, and a NamedTuple's constructor is a Python call.)
_Info = tuple[frozenset[str] | None, Query]

_NOTHING: frozenset[str] = frozenset({""})  # the empty string alone: what an empty sequence matches
_EMPTY: _Info = (_NOTHING, None)
_ANY: _Info = (None, None)


def _and(parts: Iterable[Query], budget: Budget) -> Query:
    flat: list[Query] = []
    for part in parts:
        if part is None:
            continue
        budget.spend(1 + len(flat))
        if type(part) is tuple and part[0] == "and":
            flat.extend(part[1])
        elif part not in flat:
            flat.append(part)
    if not flat:
        return None
    return flat[0] if len(flat) == 1 else ("and", tuple(flat))


def _or(parts: Iterable[Query], budget: Budget) -> Query:
    flat: list[Query] = []
    for part in parts:
        if part is None:
            return None
        budget.spend(1 + len(flat))
        if type(part) is tuple and part[0] == "or":
            flat.extend(part[1])
        elif part not in flat:
            flat.append(part)
    if not flat:
        return None
    return flat[0] if len(flat) == 1 else ("or", tuple(flat))


def _exact_query(strings: frozenset[str], budget: Budget) -> Query:
    if "" in strings:
        return None
    if len(strings) == 1:  # what `_or` makes of one string, and spends on it
        budget.spend(1)
        return next(iter(strings))
    return _or(sorted(strings), budget)


def _query(info: _Info, budget: Budget) -> Query:
    return _exact_query(info[0], budget) if info[0] is not None else info[1]


def _appended(exact: frozenset[str], tail: str, budget: Budget) -> frozenset[str]:
    """Every string of `exact` followed by `tail`."""
    if len(exact) == 1:
        (only,) = exact
        budget.spend(len(tail) + len(only))
        return frozenset((only + tail,))
    budget.spend(len(exact) * (len(tail) + max(map(len, exact))))
    return frozenset([a + tail for a in exact])


_CHAR = syntax.Char
_REPEAT = syntax.Repeat
_GROUPS = (syntax.Group, syntax.Atomic)  # what a group requires is what its body does
_UNKNOWN = (syntax.AnyChar, syntax.NotChar, syntax.Backref)  # nothing known of what they match


def _seq(nodes: syntax.Seq, budget: Budget) -> _Info:
    # each node's character, "" for a node that is no literal character (and once more at the
    # end): one pass finds where the literal runs end and spells them out
    chars = [chr(node.code) if type(node) is _CHAR else "" for node in nodes]
    chars.append("")
    size = len(nodes)
    at = chars.index("")
    if at == size:  # literal characters alone (most alternation branches): one folded string
        if not nodes:
            return _EMPTY
        text = fold("".join(chars[:size]))
        budget.spend(size + len(text))  # a step per node, and the run appended to ""
        return (frozenset((text,)), None)
    # the strings the nodes so far match exactly one of: while that is one string, it is `one`
    # and `exact` is None (no set is made for it)
    exact: frozenset[str] | None = None
    one = ""
    parts: list[Query] = []
    exact_only = True
    start = 0  # where the literal run not yet appended to every string of `exact` begins
    while at < size:
        node = nodes[at]
        if type(node) is _REPEAT and len(node.body) == 1 and type(node.body[0]) in _UNKNOWN:
            # `.*`, `.{0,30}`, `[^x]+` (as `_repeat` reads them): nothing required, for the one
            # step `_seq` takes on the body
            budget.spend(1)
            more: frozenset[str] | None = None
            query: Query = None
        else:
            more, query = _NODES[type(node)](node, budget)
        if at > start:
            tail = fold("".join(chars[start:at]))
            if exact is None:
                budget.spend(len(tail) + len(one))
                one += tail
            else:
                exact = _appended(exact, tail, budget)
        if more is not None and len(more) * (1 if exact is None else len(exact)) <= _EXACT_LIMIT:
            exact, one = _followed(exact, one, more, budget)
        else:
            exact_only = False
            _add_exact(exact, one, parts, budget)
            if more is not None:
                exact = more
            else:
                if query is not None:
                    parts.append(query)
                exact, one = None, ""
        start = at + 1
        at = chars.index("", start)
    budget.spend(size)
    if start < size:
        exact, one = _followed(exact, one, frozenset((fold("".join(chars[start:size])),)), budget)
    if exact_only:
        return (frozenset((one,)) if exact is None else exact, None)
    _add_exact(exact, one, parts, budget)
    return (None, _and(parts, budget))


def _followed(
    exact: frozenset[str] | None, one: str, more: frozenset[str], budget: Budget
) -> tuple[frozenset[str] | None, str]:
    """`_seq`'s strings (`exact`, or `one` alone) each followed by each of `more`: one string
    when both are one."""
    if exact is None and len(more) == 1:
        (after,) = more
        budget.spend(len(one) + len(after))
        return None, one + after
    strings = exact if exact is not None else frozenset((one,))
    budget.spend(len(strings) * len(more) * (max(map(len, strings)) + max(map(len, more))))
    return frozenset([a + b for a in strings for b in more]), ""


def _add_exact(exact: frozenset[str] | None, one: str, parts: list[Query], budget: Budget) -> None:
    """Add what `_seq`'s strings (`exact`, or `one` alone) require to its parts."""
    if exact is not None:
        parts.append(_exact_query(exact, budget))
    elif one:  # (what `_exact_query` makes of one string, and spends on it)
        budget.spend(1)
        parts.append(one)


def _class_chars(node: syntax.CharClass) -> frozenset[str] | None:
    if node.negated:
        return None
    chars: set[str] = set()
    for item in node.items:
        if isinstance(item, syntax.Char):
            chars.add(chr(_TABLE[item.code]))
        elif isinstance(item, syntax.CharRange) and item.high - item.low < 8:
            chars.update(chr(_TABLE[c]) for c in range(item.low, item.high + 1))
        else:  # categories, wide ranges
            return None
    return frozenset(chars) if 0 < len(chars) <= 4 else None


def _char(node: syntax.Char, budget: Budget) -> _Info:
    return (frozenset({chr(_TABLE[node.code])}), None)


def _char_class(node: syntax.CharClass, budget: Budget) -> _Info:
    chars = _class_chars(node)
    return (chars, None) if chars is not None else _ANY


def _group(node: syntax.Group | syntax.Atomic, budget: Budget) -> _Info:
    return _seq(node.body, budget)


def _conditional(node: syntax.Conditional, budget: Budget) -> _Info:
    yes = _seq(node.yes, budget)
    no = _seq(node.no, budget) if node.no is not None else _EMPTY
    return (None, _or([_query(yes, budget), _query(no, budget)], budget))


def _lookaround(node: syntax.Lookaround, budget: Budget) -> _Info:
    if node.negative:
        return _EMPTY
    # a positive lookaround's text is part of the searched text too
    return (None, _query(_seq(node.body, budget), budget))


def _anchor(node: syntax.Anchor, budget: Budget) -> _Info:
    return _EMPTY


def _alternation(node: syntax.Alternation, budget: Budget) -> _Info:
    """The branches' exact strings while they are few, else a query that one branch holds."""
    infos = [_seq(branch, budget) for branch in node.branches]
    exacts = [info[0] for info in infos if info[0] is not None]
    if len(exacts) == len(infos):
        union = frozenset().union(*exacts)
        if len(union) <= _EXACT_LIMIT:
            return (union, None)
    return (None, _or((_query(i, budget) for i in infos), budget))


def _repeat(node: syntax.Repeat, budget: Budget) -> _Info:
    """A fixed repeat of few exact strings spelt out; an optional one keeps its strings
    (and the empty one); otherwise what one pass of the body requires."""
    low, high = node.low, node.high
    inner, query = _seq(node.body, budget)
    if low == 0:  # nothing required; an optional exact part keeps literal runs going
        if high == 1 and inner is not None and len(inner) < _EXACT_LIMIT:
            return (inner | {""}, None)
        return _ANY
    if (
        low == high
        and inner is not None
        and len(inner) ** low <= _EXACT_LIMIT
        and low * max(map(len, inner)) <= _LITERAL_LIMIT  # `(?:a{65535}){65535}` is no literal
    ):
        exact = frozenset({""})
        for _ in range(low):
            budget.spend(len(exact) * len(inner) * (max(map(len, exact)) + max(map(len, inner))))
            exact = frozenset(a + b for a in exact for b in inner)
        return (exact, None)
    return (None, _exact_query(inner, budget) if inner is not None else query)


def _nothing_known(node: syntax.Node, budget: Budget) -> _Info:
    return _ANY  # AnyChar, NotChar, Backref


# what each kind of node requires, by its type (the node records have no subclasses)
_NODES: dict[type, Callable[[Any, Budget], _Info]] = {
    syntax.Char: _char,
    syntax.NotChar: _nothing_known,
    syntax.AnyChar: _nothing_known,
    syntax.Backref: _nothing_known,
    syntax.CharClass: _char_class,
    syntax.Group: _group,
    syntax.Atomic: _group,
    syntax.Alternation: _alternation,
    syntax.Conditional: _conditional,
    syntax.Repeat: _repeat,
    syntax.Lookaround: _lookaround,
    syntax.Anchor: _anchor,
}


def _node(node: syntax.Node, budget: Budget) -> _Info:
    return _NODES[type(node)](node, budget)


LITERAL_BUDGET = 500_000  # steps of one regex's literal query; the deadends.dev regexes need at most 1,213


def required(pattern: str, flags: int = 0) -> Query:
    """The query of folded literals every match of `pattern` contains (None: nothing).

    Raises `TooComplex` past `LITERAL_BUDGET` steps (and what `re` raises for a
    regex that does not parse). Both answers are remembered: ET208, ET209 and ET210
    ask about the same regex, and a regex past the budget costs the budget once."""
    found = _required(pattern, flags)
    if isinstance(found, TooComplex):
        raise TooComplex(found.reason)
    return found


@lru_cache(maxsize=65536)
def _required(pattern: str, flags: int) -> Query | TooComplex:
    budget = Budget(LITERAL_BUDGET, "the literal analysis")
    try:
        return _query(_seq(syntax.parse(pattern, flags).nodes, budget), budget)
    except TooComplex as exc:
        return exc


def literals_of(query: Query) -> list[str]:
    if query is None:
        return []
    if isinstance(query, str):
        return [query]
    return [lit for part in query[1] for lit in literals_of(part)]


def cover(query: Query, df: dict[str, int] | None = None, min_len: int = MIN_LITERAL) -> frozenset[str] | None:
    """Literals one of which every match contains, the rarest choice; None if there is none."""
    return _cover(query, df or {}, min_len)


def _covered_parts(query: Query, df: dict[str, int]) -> tuple[list[tuple[Query, frozenset[str]]], frozenset[str] | None, Query]:
    """The parts of `query` a text must hold one of (the branches of an "or", else the
    query itself) that have a cover (`cover`), each with it; the query's cover, theirs
    together (None where some part has none); and, where it has none, what the parts
    without one require (one of them, or their "or").

    A text that holds the query holds a part; where it holds a covered part, it holds one
    of that part's cover literals. So where a text holds a cover literal, only the parts
    it covers need checking, not the whole query (most of whose branches a text does not
    hold); and only the parts without a cover need checking on every text."""
    parts = query[1] if type(query) is tuple and query[0] == "or" else (query,)
    covered: list[tuple[Query, frozenset[str]]] = []
    uncovered: list[Query] = []
    for part in parts:
        chosen = _cover(part, df, MIN_LITERAL)
        if chosen is None:
            uncovered.append(part)
        else:
            covered.append((part, chosen))
    if uncovered:
        return covered, None, uncovered[0] if len(uncovered) == 1 else ("or", tuple(uncovered))
    return covered, covered[0][1] if len(covered) == 1 else frozenset().union(*[c for _, c in covered]), None


# (the recursive walks below are module functions: a nested function that calls itself is a
# reference cycle, left for the cycle collector by every call)
def _cover(query: Query, df: dict[str, int], min_len: int) -> frozenset[str] | None:
    if query is None:
        return None
    if isinstance(query, str):
        return frozenset((query,)) if len(query) >= min_len else None
    if query[0] == "or":  # a literal of every branch
        literals: list[str] = []
        options: list[frozenset[str]] = []
        for part in query[1]:
            if isinstance(part, str):
                if len(part) < min_len:
                    return None
                literals.append(part)
                continue
            option = _cover(part, df, min_len)
            if option is None:
                return None
            options.append(option)
        return frozenset(literals).union(*options)
    # the cheapest cover of one part (the first of the cheapest); a literal is made a set only if chosen
    best: str | frozenset[str] | None = None
    lowest: tuple[int, int] = (0, 0)
    for part in query[1]:
        if isinstance(part, str):
            if len(part) < min_len:
                continue
            cost = (df.get(part, 0), -len(part))
            if best is None or cost < lowest:
                best, lowest = part, cost
            continue
        option = _cover(part, df, min_len)
        if option is not None:
            cost = _cover_cost(option, df)
            if best is None or cost < lowest:
                best, lowest = option, cost
    return frozenset((best,)) if isinstance(best, str) else best


def _cover_cost(lits: frozenset[str], df: dict[str, int]) -> tuple[int, int]:
    return (sum(map(df.get, lits, itertools.repeat(0))), -min(map(len, lits)))


def satisfied(query: Query, present: Collection[str], folded: str) -> bool:
    """Whether a text could match: every required literal is there (`present` holds the
    text's indexed literals; shorter ones are looked up in the folded text itself)."""
    if query is None:
        return True
    if isinstance(query, str):
        return query in present if len(query) >= MIN_LITERAL else query in folded
    wanted = query[0] == "and"  # every part holds, or (an "or") one of them
    for part in query[1]:
        if isinstance(part, str):  # (most parts: tested here, not in a call of their own)
            holds = part in present if len(part) >= MIN_LITERAL else part in folded
        else:
            holds = satisfied(part, present, folded)
        if holds is not wanted:
            return holds
    return wanted


def may_match(query: Query, text: str) -> bool:
    """Whether `text` holds every literal `query` requires (so a regex with that query may
    match it); `text` is folded here."""
    folded = fold(text)
    return satisfied(query, _present(query, folded), folded)


def may_match_each(query: Query, folded_texts: Sequence[str] | JoinedTexts) -> int:
    """`may_match` of `query` on many texts at once, as a bitmask: bit i is set when
    `folded_texts[i]` (folded already) holds every literal the query requires.

    The query is walked once, and each distinct literal looked for once per text, where
    `may_match` walks it (and lists its literals) again for every text. Texts asked
    about again and again (the probes) are best passed joined once (`JoinedTexts`)."""
    joined = folded_texts if isinstance(folded_texts, JoinedTexts) else JoinedTexts(folded_texts)
    return _holding_all(query, joined, (1 << len(joined.texts)) - 1)


def _holding_all(part: Query, joined: JoinedTexts, everything: int) -> int:
    """`may_match_each`'s walk: the mask of the texts that hold what `part` requires."""
    if part is None:
        return everything
    if isinstance(part, str):
        return joined.holding(part)
    known = joined.known
    # (the literal parts, most of them, looked up here: not in a call of their own)
    if part[0] == "and":
        out = everything
        for item in part[1]:
            if type(item) is str:
                found = known.get(item)
                out &= found if found is not None else joined.holding(item)
            else:
                out &= _holding_all(item, joined, everything)
            if not out:  # no text holds them all: the other parts change nothing
                break
        return out
    out = 0
    for item in part[1]:
        if type(item) is str:
            found = known.get(item)
            out |= found if found is not None else joined.holding(item)
        else:
            out |= _holding_all(item, joined, everything)
        if out == everything:
            break
    return out


class JoinedTexts:
    """Texts joined by NUL, so that one `str.find` pass tells which of them hold a literal.

    Once `INDEX_AFTER` literals have been searched for so, the texts' character triples are
    indexed: a literal of three characters or more is then searched for only in the texts
    holding its triples (most literals are in no text, where `str.find` reads every text to
    tell). Building the index for the probes and probe messages costs as much as ~2,700
    searches: a run over few regexes (300 entries' make under 1,000 searches) never builds
    it, one over many (the deadends canons' 6,000) gains most of it back."""

    KEPT = 4096  # literals whose answer is kept (the same words come back in regex after regex)
    INDEX_AFTER = 1024
    GRAM = 3

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = texts
        self.joined = "\0".join(texts)
        self.starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
        self.known: dict[str, int] = {}  # literal -> `holding(literal)`, for the last literals asked
        self._searched = 0  # literals searched for in `joined`
        self._grams: dict[str, int] | None = None  # triple -> the texts holding it (bit i: text i)

    def holding(self, literal: str) -> int:
        """Bit i set when `texts[i]` holds `literal`."""
        known = self.known.get(literal)
        if known is None:
            if len(self.known) >= self.KEPT:
                self.known.clear()
            known = self.known[literal] = self._holding(literal)
        return known

    def _holding(self, literal: str) -> int:
        if not literal or "\0" in literal:  # (a NUL would match across two texts)
            return sum(1 << i for i, text in enumerate(self.texts) if literal in text)
        if len(literal) >= self.GRAM:
            if self._grams is not None:
                return self._holding_by_grams(literal, self._grams)
            self._searched += 1
            if self._searched > self.INDEX_AFTER:
                return self._holding_by_grams(literal, self._index())
        mask, at = 0, self.joined.find(literal)
        while at >= 0:
            number = bisect.bisect_right(self.starts, at) - 1
            mask |= 1 << number
            following = number + 1
            if following >= len(self.starts):
                break
            at = self.joined.find(literal, self.starts[following])
        return mask

    def _holding_by_grams(self, literal: str, grams: dict[str, int]) -> int:
        """A text holding `literal` holds each of its triples: only the texts holding a triple
        every GRAM characters (and the last) are searched."""
        gram, last = self.GRAM, len(literal) - self.GRAM
        maybe = grams.get(literal[last:], 0)
        for at in range(0, last, gram):
            if not maybe:
                return 0
            maybe &= grams.get(literal[at : at + gram], 0)
        texts = self.texts
        return sum(1 << number for number in set_bits(maybe) if literal in texts[number])

    def _index(self) -> dict[str, int]:
        grams: dict[str, int] = {}
        gram = self.GRAM
        for number, text in enumerate(self.texts):
            bit = 1 << number
            for triple in {text[at : at + gram] for at in range(len(text) - gram + 1)}:
                grams[triple] = grams.get(triple, 0) | bit
        self._grams = grams
        return grams


def set_bits(mask: int) -> Iterator[int]:
    """The numbers of the bits set in `mask` (a `holding` answer), lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def longest_literal(query: Query) -> int:
    """Length of the longest literal every match must contain (0 if none)."""
    if query is None:
        return 0
    if isinstance(query, str):
        return len(query)
    lengths = [longest_literal(part) for part in query[1]]
    return max(lengths) if query[0] == "and" else min(lengths)


# --- the index -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)  # (a corpus phase keeps one per signature and example)
class Text:
    """A text to match against: who it belongs to and which field it is."""

    owner: int
    pointer: str
    text: str


@dataclass
class RegexIndex:
    """Regexes (by position in `patterns`) indexed by their cover literals.

    `df_texts` are the texts whose literal frequencies decide which literals are
    rare (usually the corpus's signatures); they are not stored.
    """

    patterns: Sequence[str | None]
    flags: int = 0
    mode: str = "search"
    df_texts: Iterable[str] = ()
    known_queries: Sequence[Query] | None = field(default=None, repr=False)
    covers: list[frozenset[str] | None] = field(init=False)
    queries: list[Query] = field(init=False)
    # literals of each df text (a tuple, not a set: a corpus has one for every signature and example)
    df_literals: list[tuple[str, ...]] = field(init=False, repr=False)
    _df_folded: list[str] = field(init=False, repr=False)
    _postings: dict[str, list[int]] | None = field(init=False, default=None, repr=False)
    _automaton: Any = field(init=False, repr=False)
    _keys: _Keys = field(init=False, repr=False)
    # cover literal -> the regexes it covers, each with the part of its query to check when a
    # text holds the literal (a flat list: number, part, number, part ...; no pair objects)
    _users: dict[str, list[Any]] = field(init=False, repr=False)
    # each regex without a cover, in order, with the parts of its query that have none,
    # checked on every text (its covered parts are in `_users`)
    _unindexed: list[tuple[int, Query]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.queries = []
        literals: set[str] = set()
        for number, pattern in enumerate(self.patterns):
            if self.known_queries is not None:
                query = self.known_queries[number] if pattern is not None else None
            else:
                query = _safe_required(pattern, self.flags)
            self.queries.append(query)
            literals.update(lit for lit in literals_of(query) if len(lit) >= MIN_LITERAL)
        self._keys = _Keys.of(literals)
        self._automaton = _automaton(self._keys.by_key)
        df: dict[str, int] = defaultdict(int)
        self.df_literals = []
        self._df_folded = []
        for text in self.df_texts:
            self._df_folded.append(fold(text))
            found = self.literals_in(text)
            self.df_literals.append(tuple(found))
            for lit in found:
                df[lit] += 1
        self.covers = []
        self._unindexed = []
        self._users = defaultdict(list)
        for number, (pattern, query) in enumerate(zip(self.patterns, self.queries, strict=True)):
            if pattern is None:
                self.covers.append(None)
                continue
            covered, chosen_cover, rest = _covered_parts(query, df)
            for part, chosen in covered:
                for lit in chosen:
                    self._users[lit] += (number, part)
            self.covers.append(chosen_cover)
            if chosen_cover is None:
                self._unindexed.append((number, rest))

    @property
    def fallback(self) -> list[int]:
        """The regexes without a cover, which are checked on every text."""
        return [number for number, _ in self._unindexed]

    def texts_for(self, number: int) -> list[int]:
        """Indices of the `df_texts` that regex `number` may match (its literal query holds)."""
        query = self.queries[number]
        chosen = self.covers[number]
        if chosen is None:
            pool: Iterable[int] = range(len(self.df_literals))
        else:
            if self._postings is None:
                postings: dict[str, list[int]] = defaultdict(list)
                for position, found in enumerate(self.df_literals):
                    for lit in found:
                        postings[lit].append(position)
                self._postings = postings
            pool = sorted({t for lit in chosen for t in self._postings.get(lit, ())})
        return [t for t in pool if satisfied(query, self.df_literals[t], self._df_folded[t])]

    def literals_in(self, text: str) -> set[str]:
        """The indexed literals that occur in `text` (after folding)."""
        if self._automaton is None:
            return set()
        folded = fold(text)
        keys = {key for _, key in self._automaton.iter(folded)}
        return self._keys.literals(keys, folded) if self._keys.longer else keys

    def candidates(self, text: str, literals: set[str] | None = None) -> set[int]:
        """Regexes that may match `text`: those whose literal query holds there, as one of its
        parts does (`_covered_parts`). A part with a cover is checked only where the text
        holds one of its literals; the parts without one, of a regex without a cover, on
        every text."""
        present = self.literals_in(text) if literals is None else literals
        folded = fold(text)
        # no cover, but single characters the parts without one need may still rule the text out
        found = {n for n, uncovered in self._unindexed if satisfied(uncovered, present, folded)}
        for lit in present:
            users = self._users.get(lit)
            if users is None:
                continue
            pairs = iter(users)
            for number, part in zip(pairs, pairs, strict=True):  # (number, part) in turn
                if number not in found and satisfied(part, present, folded):
                    found.add(number)
        return found

    def match(self, text: str, runner: RegexRunner, strikes: Strikes | None = None) -> dict[int, Outcome]:
        """Outcomes of the candidate regexes on `text` (others cannot match it); `strikes`
        as `RegexRunner.run` takes them."""
        numbers = sorted(self.candidates(text))
        jobs = [Job(self.patterns[n] or "", self.flags, self.mode, text) for n in numbers]
        return dict(zip(numbers, runner.run(jobs, strikes=strikes), strict=True))


def _safe_required(pattern: str | None, flags: int) -> Query:
    if pattern is None:
        return None
    try:
        return required(pattern, flags)
    except Exception:  # does not parse: ET201's business; never a candidate anyway
        return None


# Characters of a literal the automaton holds: pyahocorasick reports a position's matches by
# walking its state's whole chain of failure links, as long as the state is deep, so a long
# literal that repeats itself (`a a a ...`) against a text that does cost the product of
# their lengths. A key of at most this many characters bounds that walk; a longer literal is
# looked for in the text itself (`str.find`, linear) once its key is found there. The
# corpora's longest literals have about 150 characters, few more than this.
KEY_LENGTH = 64


@dataclass(frozen=True, slots=True)
class _Keys:
    """The literals of an index by the key the automaton holds of each: its first
    `KEY_LENGTH` characters."""

    by_key: dict[str, tuple[str, ...]]  # key -> the literals it begins (itself, if one)
    longer: frozenset[str]  # the keys that begin a literal longer than themselves

    @classmethod
    def of(cls, literals: Iterable[str]) -> _Keys:
        """The keys of some literals."""
        by_key: dict[str, list[str]] = defaultdict(list)
        for lit in literals:
            by_key[lit[:KEY_LENGTH]].append(lit)
        longer = frozenset(key for key, lits in by_key.items() if any(len(lit) > KEY_LENGTH for lit in lits))
        return cls({key: tuple(lits) for key, lits in by_key.items()}, longer)

    def literals(self, keys: set[str], folded: str) -> set[str]:
        """The literals `folded` holds, of those whose key it holds (`keys`): a key that begins
        no longer literal is a literal itself, and is held."""
        begun = keys & self.longer
        found = keys - begun
        for key in begun:
            for lit in self.by_key[key]:
                if len(lit) <= KEY_LENGTH or lit in folded:
                    found.add(lit)
        return found


def _automaton(keys: Iterable[str]) -> Any:
    """An Aho-Corasick automaton reporting each of `keys` (its value) where it occurs."""
    automaton = ahocorasick.Automaton()
    count = 0
    for key in keys:
        automaton.add_word(key, key)
        count += 1
    if not count:
        return None
    automaton.make_automaton()
    return automaton


class _Matched:
    """The texts one pattern matches, in text order, shared by every regex written alike
    (`regexes` of them)."""

    __slots__ = ("texts", "regexes", "_owners", "_window")

    def __init__(self, texts: list[Text], regexes: int = 1) -> None:
        self.texts = texts
        self.regexes = regexes
        self._owners: dict[int, int] | None = None
        self._window: tuple[int, dict[int, Text]] | None = None  # (among, `first_texts(among)`)

    def owners(self) -> dict[int, int]:
        """Texts matched per owner (counted once)."""
        if self._owners is None:
            counts: dict[int, int] = {}
            for text in self.texts:
                counts[text.owner] = counts.get(text.owner, 0) + 1
            self._owners = counts
        return self._owners

    def first_texts(self, among: int, skip: int | None = None) -> dict[int, Text]:
        """Each owner's first text (its signature, once seen, over its examples), owners in
        text order, `skip`'s texts left out, until more than `among` owners are held."""
        first: dict[int, Text] = {}
        for text in self.texts:
            if text.owner == skip:
                continue
            if text.owner not in first or text.pointer == "/signature":
                first[text.owner] = text
            if len(first) > among:
                break
        return first

    def window(self, among: int) -> dict[int, Text]:
        """`first_texts(among)` skipping no owner, worked out once: also what skipping an
        owner that holds none of its texts gives (the walk stops at the same text)."""
        if self._window is None or self._window[0] != among:
            self._window = (among, self.first_texts(among))
        return self._window[1]


class Row(Sequence[Text]):
    """The texts of other entries one regex matches, in text order.

    A view of what its pattern matches without the regex's own texts: regexes
    written alike (one template's) share one list, so a corpus whose every regex
    matches every text keeps its pairs in memory linear in the corpus.
    """

    __slots__ = ("_matched", "_owner")

    def __init__(self, matched: _Matched, owner: int) -> None:
        self._matched = matched
        self._owner = owner

    def __len__(self) -> int:
        return len(self._matched.texts) - self._matched.owners().get(self._owner, 0)

    def __iter__(self) -> Iterator[Text]:
        owner = self._owner
        return (text for text in self._matched.texts if text.owner != owner)

    @overload
    def __getitem__(self, index: int) -> Text: ...
    @overload
    def __getitem__(self, index: slice) -> list[Text]: ...
    def __getitem__(self, index: int | slice) -> Text | list[Text]:
        return list(self)[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Row({list(self)!r})"

    def owner_count(self) -> int:
        """How many other entries own a matched text."""
        owners = self._matched.owners()
        return len(owners) - (self._owner in owners)

    def matches_owner(self, owner: int) -> bool:
        """Whether a text of entry `owner` (another entry) is matched."""
        return owner != self._owner and owner in self._matched.owners()

    def all_owners(self) -> dict[int, int]:
        """Texts matched per owner, the regex's own entry included (its regexes written alike
        match its texts): `matches_owner(o)` is `o` being another entry and in it. Shared by
        every regex written alike; not to be changed."""
        return self._matched.owners()

    def first_texts(self, among: int) -> dict[int, Text]:
        """Each other entry's first matched text (its signature, once seen, over its examples),
        entries in text order, until more than `among` entries are held."""
        return self._matched.first_texts(among, self._owner)

    def shared_first_texts(self, among: int) -> dict[int, Text] | None:
        """`first_texts(among)` as one dict shared by the regexes written alike whose own
        texts it does not hold (not to be changed); None when this regex is alone, or its
        own texts are among those first ones."""
        if self._matched.regexes < 2:
            return None
        window = self._matched.window(among)
        return None if self._owner in window else window


@dataclass(frozen=True)
class CrossMatches:
    """Every (regex, text) pair that matched, and those that timed out or failed."""

    pairs: dict[int, Row]  # regex number -> texts (of other owners) it matches
    timeouts: dict[int, list[Text]]
    errors: dict[int, list[tuple[Text, str]]]
    tried: int  # regex runs actually made
    fallback: int  # regexes that had to run on every text
    # regexes (by number) without a cover that were not run on other entries' texts at all:
    # past the first `UNCOVERED_LIMIT` of the corpus (`corpus_cross_matches`)
    unchecked: frozenset[int] = frozenset()


def _alike(patterns: Sequence[str | None], numbers: Iterable[int] | None = None) -> list[list[int]]:
    """Regex numbers grouped by pattern, in order: regexes written alike run once."""
    groups: dict[str, list[int]] = {}
    for number in range(len(patterns)) if numbers is None else numbers:
        pattern = patterns[number]
        if pattern is not None:
            groups.setdefault(pattern, []).append(number)
    return list(groups.values())


Ran = tuple[dict[int, list[Text]], dict[int, list[Text]], dict[int, list[tuple[Text, str]]]]
Rows = tuple[dict[int, Row], dict[int, list[Text]], dict[int, list[tuple[Text, str]]]]
Groups = Sequence[tuple[int, Sequence[Text]]]  # regex number (of a group written alike) -> its texts to run on
Found = tuple[dict[int, list[Text]], dict[int, list[Text]], dict[int, list[tuple[Text, str]]], int]
# Of one group, run in another process: the places in its texts of those matched, timed out, failed (with why).
Placed = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, str], ...]]
S = TypeVar("S")
R = TypeVar("R")


class Spread(Protocol):
    """Runs a function over shares of work, each maybe in another process (`lint.lanes.Lanes`)."""

    ways: int

    def map(self, func: Callable[[S], R], shares: Sequence[S]) -> list[R]: ...


def _rows(
    groups: Sequence[list[int]], ran: Ran, asked: Callable[[int], Callable[[Text], bool] | None] = lambda n: None
) -> Rows:
    """Per regex number, what its group of regexes written alike (`groups[key]`, run once as
    `key`) found, without the regex's own texts; `asked(number)`, when not None, keeps only
    the texts that regex was to be tried on."""
    matched, timeouts, errors = ran
    rows: dict[int, Row] = {}
    slow: dict[int, list[Text]] = {}
    failed: dict[int, list[tuple[Text, str]]] = {}
    for key, members in enumerate(groups):
        shared = _Matched(matched[key], len(members)) if key in matched else None
        # (most groups have no texts that timed out or failed: nothing to sort out per member)
        group_late, group_bad = timeouts.get(key), errors.get(key)
        for number in members:
            keep = asked(number)
            if shared is not None:
                row = Row(shared if keep is None else _Matched([t for t in shared.texts if keep(t)]), number)
                if len(row):
                    rows[number] = row
            if group_late:
                late = [t for t in group_late if t.owner != number and (keep is None or keep(t))]
                if late:
                    slow[number] = late
            if group_bad:
                bad = [(t, e) for t, e in group_bad if t.owner != number and (keep is None or keep(t))]
                if bad:
                    failed[number] = bad
    return dict(sorted(rows.items())), dict(sorted(slow.items())), dict(sorted(failed.items()))


def cross_matches(
    patterns: Sequence[str | None],
    texts: Sequence[Text],
    flags: int,
    mode: str,
    runner: RegexRunner,
    queries: Sequence[Query] | None = None,
    longest: Sequence[int] | None = None,
    spread: Spread | None = None,
) -> CrossMatches:
    """All pairs (regex i, text t) with t.owner != i where regex i matches t.

    Exactly the pairs a naive all-pairs run finds; see the module docstring for how.
    `queries` are the patterns' literal queries when already known (`regex_fact`), and
    `longest` their `longest_fast_text` (`fast_length`). With `spread`, the regexes run
    in its processes when there are runs enough to pay for them (`_spread_groups`).
    """
    # Regexes written alike (one template's) run once; each sees the result without its own texts.
    alike = _alike(patterns)
    unique: list[str | None] = [patterns[members[0]] for members in alike]
    known = [queries[members[0]] for members in alike] if queries is not None else None
    fast = [longest[members[0]] for members in alike] if longest is not None else None
    index = RegexIndex(unique, flags, mode, (t.text for t in texts), known)
    by_pattern: dict[int, list[Text]] = defaultdict(list)
    for item, literals in zip(texts, index.df_literals, strict=True):
        for key in index.candidates(item.text, set(literals)):
            if alike[key] != [item.owner]:  # a regex alone never runs on its own texts
                by_pattern[key].append(item)
    fallback = len(index.fallback)
    del index  # its automaton and each text's literals: not held while the regexes run
    # pattern by pattern, so the worker compiles each once and runs it over its texts (each
    # pattern's texts let go once run)
    groups = ((k, by_pattern.pop(k)) for k in sorted(by_pattern))
    if spread is not None and spread.ways > 1 and _work(by_pattern.items()) >= SPREAD_MIN_RUNS:
        matched, timeouts, errors, tried = _spread_groups(list(groups), unique, flags, mode, runner, fast, spread)
    else:
        matched, timeouts, errors, tried = _run_groups(groups, unique, flags, mode, runner, fast)
    pairs, slow, failed = _rows(alike, (matched, timeouts, errors))
    return CrossMatches(pairs, slow, failed, tried, fallback)


RUN_CHUNK = 20_000  # jobs handed to the runner at once: memory stays flat however many pairs
SPREAD_MIN_RUNS = 4_000  # fewer regex runs than this take less time than forking a process
SHARE_MIN_RUNS = 2_000  # nor is a process forked for fewer runs than this (many cores, few runs)
# A regex's first run, which compiles it and works out its step bound, takes about as long
# as this many more runs (the deadends canons: 0.25 ms against 20 us): a corpus of many
# regexes with a few texts each is worth spreading too.
REGEX_RUNS = 10


def _spread_groups(
    groups: Groups,
    patterns: Sequence[str | None],
    flags: int,
    mode: str,
    runner: RegexRunner,
    longest: Sequence[int] | None,
    spread: Spread,
) -> Found:
    """What `_run_groups` finds, the groups shared among `spread`'s processes (about as
    many runs in each), each sending back places in its groups' texts, merged in order."""

    def run_share(share: Groups) -> list[Placed]:
        """Each group's outcomes, as places in its texts."""
        return _placed(share, _run_groups(share, patterns, flags, mode, runner, longest))

    pairs: dict[int, list[Text]] = {}
    timeouts: dict[int, list[Text]] = {}
    errors: dict[int, list[tuple[Text, str]]] = {}
    runs = sum(len(items) for _, items in groups)
    shares = _shares(groups, min(spread.ways, max(1, _work(groups) // SHARE_MIN_RUNS)))
    for share, placed in zip(shares, spread.map(run_share, shares), strict=True):
        for (number, items), (hit, late, bad) in zip(share, placed, strict=True):
            if hit:
                pairs[number] = [items[p] for p in hit]
            if late:
                timeouts[number] = [items[p] for p in late]
            if bad:
                errors[number] = [(items[p], reason) for p, reason in bad]
    return pairs, timeouts, errors, runs


def _work(groups: Iterable[tuple[int, Sequence[Text]]]) -> int:
    """What running `groups` costs, in runs: each text one, and each regex `REGEX_RUNS` more."""
    return sum(len(items) + REGEX_RUNS for _, items in groups)


def _shares(groups: Groups, ways: int) -> list[Groups]:
    """`groups` cut in up to `ways` runs of groups in order, each with about as much `_work`."""
    total = _work(groups)
    shares: list[Groups] = []
    start = done = 0
    for end, group in enumerate(groups, 1):
        done += _work((group,))
        if done * ways >= total * (len(shares) + 1) and len(shares) < ways - 1:
            shares.append(groups[start:end])
            start = end
    if start < len(groups):
        shares.append(groups[start:])
    return shares


def _placed(groups: Groups, found: Found) -> list[Placed]:
    """Of each group, the places in its texts of those `_run_groups` matched, timed out or failed."""
    matched, timeouts, errors, _ = found
    out: list[Placed] = []
    for number, items in groups:
        bad = errors.get(number, [])
        places = _places_of(items, [item for item, _ in bad])
        out.append(
            (
                _places_of(items, matched.get(number, [])),
                _places_of(items, timeouts.get(number, [])),
                tuple(zip(places, (reason for _, reason in bad), strict=True)),
            )
        )
    return out


def _places_of(items: Sequence[Text], chosen: Sequence[Text]) -> tuple[int, ...]:
    """The places in `items` of `chosen`, some of them (the same objects) in their order."""
    out = []
    at = 0
    for item in chosen:
        while items[at] is not item:
            at += 1
        out.append(at)
        at += 1
    return tuple(out)


def _run_groups(
    groups: Iterable[tuple[int, Sequence[Text]]],
    patterns: Sequence[str | None],
    flags: int,
    mode: str,
    runner: RegexRunner,
    longest: Sequence[int] | None = None,
) -> tuple[dict[int, list[Text]], dict[int, list[Text]], dict[int, list[tuple[Text, str]]], int]:
    """Run each regex on its texts: (matched, timed out, failed, runs made). With
    `longest` (each regex's `longest_fast_text`), a text no longer than its regex's
    runs without the runner working that out again.

    Jobs go to the runner a few regexes at a time, never splitting one regex's texts
    (the runner stops a regex that keeps overrunning within one call), so the pairs of
    a large corpus are never all in memory at once."""
    pairs: dict[int, list[Text]] = {}
    timeouts: dict[int, list[Text]] = defaultdict(list)
    errors: dict[int, list[tuple[Text, str]]] = defaultdict(list)
    tried = 0
    chunk: list[tuple[int, Sequence[Text]]] = []
    size = 0

    def flush() -> None:
        jobs = [Job(patterns[n] or "", flags, mode, item.text) for n, items in chunk for item in items]
        fast = None
        if longest is not None:
            fast = []
            for n, items in chunk:
                marks = [len(item.text) <= longest[n] for item in items]
                longer = [place for place, fine in enumerate(marks) if not fine]
                pattern = patterns[n]
                if len(longer) > 1 and pattern is not None:  # (one text: the runner asks as cheaply)
                    # all at once: a regex without a cover has every text of the corpus
                    proved = runs_within_limit_each(pattern, flags, [items[p].text for p in longer])
                    for place, fine in zip(longer, proved, strict=True):
                        marks[place] = fine
                fast += marks
        outcomes = iter(runner.run(jobs, remember=False, fast=fast))
        for number, items in chunk:
            matched = []
            for item in items:
                outcome = next(outcomes)
                if outcome.status is Status.MATCH:
                    matched.append(item)
                elif outcome.over_budget:  # (a text not run after three is not known to be one)
                    timeouts[number].append(item)
                elif outcome.status is Status.ERROR:
                    errors[number].append((item, outcome.error))
            if matched:
                pairs[number] = matched
        chunk.clear()

    with runs_remembered():  # (the regexes without a cover ask about the same texts, one after another)
        for number, items in groups:
            chunk.append((number, items))
            size += len(items)
            tried += len(items)
            if size >= RUN_CHUNK:
                flush()
                size = 0
        if chunk:
            flush()
    return pairs, dict(timeouts), dict(errors), tried


def naive_cross_matches(
    patterns: Sequence[str | None], texts: Sequence[Text], flags: int, mode: str
) -> dict[int, list[Text]]:
    """The reference every regex on every text, in-process and without a budget.

    For tests and benchmarks on trusted corpora only: a catastrophic regex hangs it.
    """
    pairs: dict[int, list[Text]] = defaultdict(list)
    for number, pattern in enumerate(patterns):
        if pattern is None:
            continue
        compiled = compile_pattern(pattern, flags)
        run = getattr(compiled, mode)
        for item in texts:
            if item.owner != number and run(item.text) is not None:
                pairs[number].append(item)
    return dict(pairs)


def regex_fact(entry: Any, flags: int, runner: RegexRunner) -> tuple[bool, Query, frozenset[str] | None]:
    """Whether the entry's regex compiles under `flags` (within `runner`'s budget), the
    literal query every match satisfies, and a cover of it chosen without frequencies
    (see `cover`).

    Kept in `entry.facts` (a per-file fact, cached with the file) with the regex's
    `longest_fast_text` (`fast_length`): corpus runs read it instead of parsing every
    regex again.
    """
    known = known_regex_fact(entry, flags)
    if known is not None:
        return bool(known[1]), known[2], frozenset(known[3]) if known[3] is not None else None
    pattern = entry.str_field("regex")
    ok, query, chosen, longest = False, None, None, -1
    if pattern is not None:
        ok = runner.compiles(pattern, flags)
        if ok:
            query, chosen = _query_and_cover(pattern, flags)
            longest = longest_fast_text(pattern, flags)
    entry.facts["regex"] = (flags, ok, query, tuple(sorted(chosen)) if chosen is not None else None, longest)
    return ok, query, chosen


def fast_length(entry: Any, flags: int, runner: RegexRunner) -> int:
    """`longest_fast_text` of the entry's regex under `flags` (-1 when it does not compile),
    from its regex fact: a worker that checked the file worked it out already."""
    regex_fact(entry, flags, runner)
    return _fact_length(entry)


def _fact_length(entry: Any) -> int:
    """The longest fast text of the entry's regex fact, made already (-1 when it has none)."""
    longest = entry.facts["regex"][4]
    return longest if type(longest) is int else -1


def known_regex_fact(entry: Any, flags: int) -> tuple[Any, ...] | None:
    """The entry's regex fact as made for `flags`, or None when it has none such (yet)."""
    known = entry.facts.get("regex")
    if isinstance(known, (list, tuple)) and len(known) == 5 and known[0] == flags:
        return tuple(known)
    return None


@lru_cache(maxsize=4096)  # (regexes written alike: one template's)
def _query_and_cover(pattern: str, flags: int) -> tuple[Query, frozenset[str] | None]:
    query = _safe_required(pattern, flags)
    return query, cover(query)


def _present(query: Query, folded: str) -> set[str]:
    return {lit for lit in literals_of(query) if len(lit) >= MIN_LITERAL and lit in folded}


def focused_cross_matches(
    patterns: Sequence[str | None],
    queries: Sequence[Query],
    covers: Sequence[frozenset[str] | None],
    texts: Sequence[Text],
    focus: Iterable[int],
    flags: int,
    mode: str,
    runner: RegexRunner,
) -> CrossMatches:
    """The pairs of `cross_matches` in which the regex or the text belongs to an entry
    of `focus`: exactly those, found without an index over the whole corpus.

    Each focus regex is tried on the texts holding one of its cover literals; each
    focus text is tried with the regexes one of whose cover literals it holds. Cost
    grows with the corpus only by substring tests, so a pre-commit run over a few
    files stays cheap in a large corpus.
    """
    wanted = set(focus)
    folded = [fold(t.text) for t in texts]
    candidates: dict[int, set[int]] = defaultdict(set)  # regex -> text positions
    _focus_regex_candidates(patterns, queries, covers, texts, folded, wanted, candidates)
    fallback = _focus_text_candidates(patterns, queries, covers, texts, folded, wanted, candidates)
    # regexes written alike run once, on the texts any of them is to be tried on
    alike = _alike(patterns, sorted(candidates))
    union = [sorted(set().union(*(candidates[n] for n in members))) for members in alike]
    unique: list[str | None] = [patterns[members[0]] for members in alike]
    groups = ((k, [texts[p] for p in union[k]]) for k in range(len(alike)))
    matched, timeouts, errors, tried = _run_groups(groups, unique, flags, mode, runner)
    place = {id(t): p for p, t in enumerate(texts)}

    def asked(number: int) -> Callable[[Text], bool]:
        return lambda text: place[id(text)] in candidates[number]

    pairs, slow, failed = _rows(alike, (matched, timeouts, errors), asked)
    return CrossMatches(pairs, slow, failed, tried, len(fallback))


def _focus_regex_candidates(
    patterns: Sequence[str | None],
    queries: Sequence[Query],
    covers: Sequence[frozenset[str] | None],
    texts: Sequence[Text],
    folded: Sequence[str],
    wanted: set[int],
    candidates: dict[int, set[int]],
) -> None:
    """Add to `candidates` the texts each focus regex is to be tried on: another entry's
    texts holding one of its cover literals and satisfying its query."""
    for number in sorted(wanted):
        if number >= len(patterns) or patterns[number] is None:
            continue
        query, chosen = queries[number], covers[number]
        for position, item in enumerate(texts):
            if item.owner == number:
                continue
            text = folded[position]
            if chosen is not None and not any(lit in text for lit in chosen):
                continue
            if satisfied(query, _present(query, text), text):
                candidates[number].add(position)


def _focus_text_candidates(
    patterns: Sequence[str | None],
    queries: Sequence[Query],
    covers: Sequence[frozenset[str] | None],
    texts: Sequence[Text],
    folded: Sequence[str],
    wanted: set[int],
    candidates: dict[int, set[int]],
) -> list[int]:
    """Add to `candidates` each focus text for the other regexes to be tried on it: those
    with a cover literal it holds and those without a cover (returned: they see every text)."""
    users: dict[str, list[int]] = defaultdict(list)
    fallback: list[int] = []
    for number, (pattern, chosen) in enumerate(zip(patterns, covers, strict=True)):
        if pattern is None or number in wanted:
            continue
        if chosen is None:
            fallback.append(number)
        else:
            for lit in chosen:
                users[lit].append(number)
    for position, item in enumerate(texts):
        if item.owner not in wanted:
            continue
        text = folded[position]
        maybe = set(fallback)
        for lit, numbers in users.items():
            if lit in text:
                maybe.update(numbers)
        for number in maybe:
            if number != item.owner and satisfied(queries[number], _present(queries[number], text), text):
                candidates[number].add(position)
    return fallback


def _past_uncovered_limit(patterns: Sequence[str | None], uncovered: Sequence[int]) -> frozenset[int]:
    """The regexes (by number) without a cover past the first `UNCOVERED_LIMIT` distinct
    ones of `uncovered` (in the order of their entries' paths). Each regex without a cover
    runs on every text: a corpus where some share of the regexes has none would cost the
    square of its size. Which ones are past the limit depends on the corpus alone, so a
    focused run leaves out the same."""
    seen: set[str] = set()
    past: set[int] = set()
    for number in uncovered:
        pattern = patterns[number]
        assert pattern is not None
        if pattern not in seen and len(seen) < UNCOVERED_LIMIT:
            seen.add(pattern)
        if pattern not in seen:
            past.add(number)
    return frozenset(past)


def corpus_cross_matches(
    entries: Sequence[Any],
    flags: int,
    mode: str,
    runner: RegexRunner,
    memo: dict[Any, Any] | None = None,
    focus: Iterable[int] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    spread: Spread | None = None,
) -> tuple[CrossMatches, list[Text]]:
    """Cross-matches of a corpus: entry i's regex against every other entry's signature
    and examples. Entries are `entrykit.entry.Entry`s; regexes that do not compile count
    as absent. With `memo` (e.g. `Corpus.memo`) the result is computed once per corpus.

    With `focus` (entry numbers), only the pairs that involve one of those entries,
    as regex or as text (see `focused_cross_matches`). `progress` is told how many
    entries' regexes have been read; `spread`, processes the regexes may run in.

    Of the regexes without a cover, only the first `UNCOVERED_LIMIT` distinct ones (by
    their entries' paths) run on other entries' texts; the others are in the result's
    `unchecked`.
    """
    wanted = frozenset(focus) if focus is not None else None
    key = ("regex-cross-matches", flags, mode, runner.budget, wanted)
    if memo is not None and key in memo:
        return memo[key]
    patterns: list[str | None] = []
    queries: list[Query] = []
    longest: list[int] = []
    covers: list[frozenset[str] | None] = []
    uncovered: list[int] = []
    texts: list[Text] = []
    pointers: dict[int, str] = {}  # one copy of each `/examples/<index>`
    for number, entry in enumerate(entries):
        ok, query, chosen = regex_fact(entry, flags, runner)
        if progress is not None:
            progress("reading regexes", number + 1, len(entries))
        patterns.append(entry.str_field("regex") if ok else None)
        if ok and chosen is None:  # (a cover chosen by frequencies exists exactly when this one does)
            uncovered.append(number)
        queries.append(query)
        longest.append(_fact_length(entry))  # (`fast_length`: the fact is there, for these flags)
        covers.append(chosen if wanted is not None else None)  # (only a focused run reads them)
        signature = entry.str_field("signature")
        if signature is not None:
            texts.append(Text(number, "/signature", signature))
        for index, example in enumerate(entry.list_field("examples")):
            if isinstance(example, str):
                pointer = pointers.get(index) or pointers.setdefault(index, f"/examples/{index}")
                texts.append(Text(number, pointer, example))
    # (`uncovered` is in corpus order, by path: how the engine numbers a corpus's entries)
    unchecked = _past_uncovered_limit(patterns, uncovered)
    for number in unchecked:
        patterns[number] = None  # (its texts are still matched by the other regexes)
    if wanted is None:
        cross = cross_matches(patterns, texts, flags, mode, runner, queries=queries, longest=longest, spread=spread)
    else:
        cross = focused_cross_matches(patterns, queries, covers, texts, wanted, flags, mode, runner)
    cross = replace(cross, unchecked=unchecked)
    result = (cross, texts)
    if memo is not None:
        memo[key] = result
    return result
