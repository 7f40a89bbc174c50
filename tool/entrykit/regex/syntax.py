"""The one reader of Python regex syntax: a (pattern, flags) parsed once into typed nodes.

Every analysis of an entry regex (what compiling costs, the runner's fast path, the
literals a match needs, backtracking, portability) reads the records of this module.
They are what CPython's own parser (`re._parser`) makes of the pattern, so the
analyses see exactly the regex `re` runs: `(k|K)` is one class `[kK]`, `(?:a)` is
just `a`, inline flags are resolved. The private modules of `re` (its parser,
compiler, constants and case tables) are imported here and nowhere else in entrykit,
so a CPython release that moves them is one module to fix. `compiled` compiles a
pattern from the same parse (`re`'s compiler takes a parse tree), so a regex that is
both run and analysed is parsed once.

A pattern is a `Seq` (a tuple) of nodes:

| node | regex | fields |
|---|---|---|
| `Char` | `a`, `\\.` | `code` |
| `NotChar` | `[^a]` | `code` |
| `AnyChar` | `.` | |
| `CharClass` | `[a-z\\d]`, `\\w` | `negated`, `items` (`Char`, `CharRange`, `Category`) |
| `Anchor` | `^ $ \\A \\Z \\b \\B` | `kind` (that spelling) |
| `Group` | `(...)`, `(?P<n>...)`, `(?i:...)` | `index` (None: not capturing), `add_flags`, `del_flags`, `body` |
| `Alternation` | `a|b` | `branches` |
| `Repeat` | `* + ? {m,n}` and their lazy/possessive forms | `low`, `high` (None: unbounded), `body`, `kind` |
| `Atomic` | `(?>...)` | `body` |
| `Lookaround` | `(?=...) (?!...) (?<=...) (?<!...)` | `behind`, `negative`, `body` |
| `Backref` | `\\1`, `(?P=n)` | `group` |
| `Conditional` | `(?(1)yes|no)` | `group`, `yes`, `no` (None: empty) |

`walk(nodes, flags)` visits every node depth first, in pattern order, with the flags
in force at it; `node.children()` gives a node's own sequences.

What `re`'s parser says through `warnings` (a `[` first in a class, a doubled `-`, `&`,
`~` or `|` in one: syntax a later Python may read as nested sets or set operations) is
caught here and kept as `Parsed.warned`: it never reaches the caller's stderr, and
`-W error` does not turn it into an exception.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # CPython's matcher: its case table
import re
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from re import _compiler as _rc  # type: ignore[attr-defined]
from re import _constants as _c  # type: ignore[attr-defined]
from re import _parser as _p  # type: ignore[attr-defined]
from typing import Any, TypeVar

from entrykit.regex.budget import TooComplex

try:  # the extra IGNORECASE equivalences (i/ı, s/ſ, µ/μ, k/K (Kelvin) ...)
    from re._casefix import _EXTRA_CASES  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - every CPython 3.11+ has it
    _EXTRA_CASES = {}

GREEDY, LAZY, POSSESSIVE = "greedy", "lazy", "possessive"


class _Node:
    __slots__ = ()

    def children(self) -> tuple[Seq, ...]:
        """The node's own sequences (a repeat's body, an alternation's branches ...)."""
        return ()


@dataclass(frozen=True, slots=True)
class Char(_Node):
    """One literal character; also a single character inside a class."""

    code: int


@dataclass(frozen=True, slots=True)
class NotChar(_Node):
    """Any character but one (`[^a]`)."""

    code: int


@dataclass(frozen=True, slots=True)
class AnyChar(_Node):
    """`.`: any character (but a newline, without DOTALL)."""


@dataclass(frozen=True, slots=True)
class CharRange:
    """`a-z` inside a class, both ends included."""

    low: int
    high: int


@dataclass(frozen=True, slots=True)
class Category:
    """`\\d \\D \\s \\S \\w \\W`, spelled so."""

    escape: str


ClassItem = Char | CharRange | Category


@dataclass(frozen=True, slots=True)
class CharClass(_Node):
    """A character class, `[...]` or `\\d`-like, as a list of items."""

    negated: bool
    items: tuple[ClassItem, ...]


@dataclass(frozen=True, slots=True)
class Anchor(_Node):
    """A zero-width position test: `kind` is one of `^ $ \\A \\Z \\b \\B`."""

    kind: str


@dataclass(frozen=True, slots=True)
class Group(_Node):
    """A group `re` keeps: capturing (`index`), or scoping flags (`(?i:...)`)."""

    index: int | None
    add_flags: int
    del_flags: int
    body: Seq

    def children(self) -> tuple[Seq, ...]:
        return (self.body,)


@dataclass(frozen=True, slots=True)
class Alternation(_Node):
    branches: tuple[Seq, ...]

    def children(self) -> tuple[Seq, ...]:
        return self.branches


@dataclass(frozen=True, slots=True)
class Repeat(_Node):
    """`body{low,high}`; `kind` is GREEDY, LAZY (`*?`) or POSSESSIVE (`*+`)."""

    low: int
    high: int | None
    body: Seq
    kind: str = GREEDY

    def children(self) -> tuple[Seq, ...]:
        return (self.body,)


@dataclass(frozen=True, slots=True)
class Atomic(_Node):
    body: Seq

    def children(self) -> tuple[Seq, ...]:
        return (self.body,)


@dataclass(frozen=True, slots=True)
class Lookaround(_Node):
    """`width` is the fixed number of characters a lookbehind steps back (0 for a lookahead)."""

    behind: bool
    negative: bool
    body: Seq
    width: int = 0

    def children(self) -> tuple[Seq, ...]:
        return (self.body,)


@dataclass(frozen=True, slots=True)
class Backref(_Node):
    group: int


@dataclass(frozen=True, slots=True)
class Conditional(_Node):
    """`(?(group)yes|no)`."""

    group: int
    yes: Seq
    no: Seq | None

    def children(self) -> tuple[Seq, ...]:
        return (self.yes,) if self.no is None else (self.yes, self.no)


Node = (
    Char | NotChar | AnyChar | CharClass | Anchor | Group | Alternation | Repeat | Atomic | Lookaround | Backref
    | Conditional
)
Seq = tuple[Node, ...]
_N = TypeVar("_N", bound=_Node)
CHARACTER_NODES = (Char, NotChar, AnyChar, CharClass)  # the nodes that consume exactly one character


@dataclass(frozen=True)
class ReWarning:
    """A warning `re`'s parser gave for a pattern: `future` for a FutureWarning (the syntax
    may mean something else in a later Python), else a DeprecationWarning (it may stop
    compiling); `message` is re's own (`Possible set difference at position 18`)."""

    future: bool
    message: str


@dataclass(frozen=True)
class Parsed:
    """A pattern as `re` reads it under some flags.

    `flags` are the flags in force for the whole pattern: those given, the inline
    global ones (`(?i)` at the start), and UNICODE, which `re` adds for text patterns.
    """

    pattern: str
    flags: int
    nodes: Seq
    groups: int
    warned: tuple[ReWarning, ...] = ()  # what re's parser warned of, in pattern order

    @cached_property
    def walked(self) -> tuple[tuple[Node, int], ...]:
        """`walk(nodes, flags)` of the whole pattern, made once: many checks read every node."""
        return tuple(walk(self.nodes, self.flags))

    @cached_property
    def sequences(self) -> tuple[Seq, ...]:
        """The top sequence and every sequence nested in it, each after the one holding it
        (made once). The nodes of two sequences are not interleaved as the pattern spells
        them: for what comes in pattern order, see `places`."""
        return (self.nodes, *(child for node, _ in self.walked for child in node.children()))

    @cached_property
    def written_alternatives(self) -> tuple[tuple[str, ...], ...]:
        """`source_alternatives` of the pattern, made once: two checks read it."""
        return tuple(source_alternatives(self.pattern))


# --- from re's parse tree to records ---------------------------------------------------------

_ANCHORS = {
    _c.AT_BEGINNING: "^",
    _c.AT_END: "$",
    _c.AT_BEGINNING_STRING: "\\A",
    _c.AT_END_STRING: "\\Z",
    _c.AT_BOUNDARY: "\\b",
    _c.AT_NON_BOUNDARY: "\\B",
}
_CATEGORIES = {
    _c.CATEGORY_DIGIT: "\\d",
    _c.CATEGORY_NOT_DIGIT: "\\D",
    _c.CATEGORY_SPACE: "\\s",
    _c.CATEGORY_NOT_SPACE: "\\S",
    _c.CATEGORY_WORD: "\\w",
    _c.CATEGORY_NOT_WORD: "\\W",
}
_REPEAT_KINDS = {_c.MAX_REPEAT: GREEDY, _c.MIN_REPEAT: LAZY, _c.POSSESSIVE_REPEAT: POSSESSIVE}


class _Chars(dict[int, Char]):
    """One `Char` per code point (nodes are values: equal ones may be one object), for the
    first `KEPT` code points met; literal characters are most of every pattern."""

    KEPT = 4096

    def __missing__(self, code: int) -> Char:
        char = Char(code)
        if len(self) < self.KEPT:
            self[code] = char
        return char


_CHARS = _Chars()


_SUBPATTERN = _p.SubPattern


def _seq(items: Any) -> Seq:
    literal, chars = _c.LITERAL, _CHARS
    # a nested sequence is a SubPattern, which iterates by a Python `__getitem__` call per
    # item: its list of items is read instead
    data = items if type(items) is list else items.data
    return tuple([chars[av] if op is literal else _node(op, av) for op, av in data])


def _class_item(op: Any, av: Any) -> ClassItem:
    if op is _c.LITERAL:
        return _CHARS[av]
    if op is _c.RANGE:
        return CharRange(av[0], av[1])
    if op is _c.CATEGORY and av in _CATEGORIES:
        return Category(_CATEGORIES[av])
    raise re.error(f"entrykit does not know the class item {op}")


def _node(op: Any, av: Any) -> Node:
    if op is _c.LITERAL:
        return _CHARS[av]
    if op is _c.IN:
        negated = bool(av) and av[0][0] is _c.NEGATE
        return CharClass(negated, tuple(_class_item(*item) for item in av[1 if negated else 0 :]))
    if op is _c.SUBPATTERN:
        index, add, delete, body = av
        return Group(index, add, delete, _seq(body))
    if op in _REPEAT_KINDS:
        low, high, body = av
        return Repeat(low, None if high is _c.MAXREPEAT else high, _seq(body), _REPEAT_KINDS[op])
    if op is _c.BRANCH:
        return Alternation(tuple(_seq(branch) for branch in av[1]))
    if op is _c.AT and av in _ANCHORS:
        return Anchor(_ANCHORS[av])
    if op is _c.NOT_LITERAL:
        return NotChar(av)
    if op is _c.ANY:
        return AnyChar()
    if op is _c.ATOMIC_GROUP:
        return Atomic(_seq(av))
    if op is _c.ASSERT or op is _c.ASSERT_NOT:
        behind = av[0] < 0
        low, high = av[1].getwidth()
        if behind and low != high:  # as `re.compile` refuses it: the parser alone lets it through
            raise re.error("look-behind requires fixed-width pattern")
        return Lookaround(behind, op is _c.ASSERT_NOT, _seq(av[1]), low if behind else 0)
    if op is _c.GROUPREF:
        return Backref(av)
    if op is _c.GROUPREF_EXISTS:
        group, yes, no = av
        return Conditional(group, _seq(yes), None if no is None else _seq(no))
    raise re.error(f"entrykit does not know the regex construct {op}")


MAX_DEPTH = 64  # parentheses nested deeper make a regex too complex to analyse
# A longer regex is too complex to analyse: this bounds what reading one costs (re's parser
# takes time that grows with the square of some shapes' length: 8 s for a 490 KB regex of
# two branches with a long common prefix). Under the default budget, compiling a regex this
# long counts more steps than are compiled (ET206): `re` never runs it either.
MAX_PATTERN_CHARACTERS = 100_000


def _plain_characters(pattern: str, escapes: bool = False) -> Iterator[tuple[int, str]]:
    """Each character of `pattern` that is neither escaped nor inside a class, with its index;
    with `escapes`, also the `\\` of each escape outside a class."""
    at, size = 0, len(pattern)
    in_class = False
    while at < size:
        char = pattern[at]
        if char == "\\":
            if escapes and not in_class:
                yield at, char
            at += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            at += 1
            if at < size and pattern[at] == "^":
                at += 1
            if at < size and pattern[at] == "]":  # a `]` first in a class is a literal
                at += 1
            continue
        else:
            yield at, char
        at += 1


def nesting_depth(pattern: str) -> int:
    """How deep the parentheses of `pattern` nest (escapes and classes skipped), without
    parsing it: a bound on how deep every walk over its parse tree recurses."""
    depth = deepest = 0
    for _, char in _plain_characters(pattern):
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth = max(0, depth - 1)
    return deepest


def too_deep(pattern: str) -> bool:
    """Whether the parentheses of `pattern` nest more than `MAX_DEPTH` deep."""
    # each level opens with a "(": a pattern with few of them is not walked character by character
    return pattern.count("(") > MAX_DEPTH and nesting_depth(pattern) > MAX_DEPTH


def may_hold_any_character(pattern: str) -> bool:
    """False when `pattern` certainly spells no `.` as any character: without an escaped
    backslash, where every dot has a backslash before it, read by counting; with one, by
    `unescaped_dots`. The parsed tree need not be walked for its `AnyChar` nodes."""
    if "." not in pattern:
        return False
    if "\\\\" not in pattern:
        return pattern.count(".") != pattern.count("\\.")
    return bool(unescaped_dots(pattern))


def unescaped_dots(pattern: str) -> list[int]:
    """Where `pattern` spells `.` as any character (not escaped, not inside a class), in
    order: to edit a dot the parsed tree shows (it keeps no source positions)."""
    return [at for at, char in _plain_characters(pattern) if char == "."]


_DIGITS = "0123456789"
_OCTAL = "01234567"


def _backreference(pattern: str, at: int) -> tuple[int, int] | None:
    """The end and group number of the numbered backreference whose `\\` is at `at`, read
    as `re` reads it (`\\0` and three octal digits are a character); None if there is none."""
    digits = pattern[at + 1 : at + 4]
    if not digits[:1] or digits[0] not in _DIGITS[1:]:
        return None
    if len(digits) == 3 and all(d in _OCTAL for d in digits):
        return None
    size = 2 if len(digits) > 1 and digits[1] in _DIGITS else 1
    return at + 1 + size, int(digits[:size])


def _conditional(pattern: str, at: int) -> tuple[int, int, int] | None:
    """Where the group number of the conditional `(?(1)...)` opened at `at` is spelled, and
    the number; None if no conditional on a numbered group opens there."""
    if not pattern.startswith("(?(", at):
        return None
    close = pattern.find(")", at + 3)
    number = pattern[at + 3 : close]
    if close < 0 or not number or any(d not in _DIGITS for d in number):
        return None
    return at + 3, close, int(number)


def group_references(pattern: str) -> list[tuple[int, int, int, bool]]:
    """(start, end, group, is a backreference) of each place `pattern` refers to a group by
    number: a backreference (`\\1`) or a conditional's group (the `1` of `(?(1)a|b)`),
    in pattern order. Not for VERBOSE patterns (a `#` comment is read as pattern)."""
    found: list[tuple[int, int, int, bool]] = []
    for at, char in _plain_characters(pattern, escapes=True):
        if char == "\\" and (reference := _backreference(pattern, at)) is not None:
            found.append((at, reference[0], reference[1], True))
        elif char == "(" and (condition := _conditional(pattern, at)) is not None:
            found.append((*condition, False))
    return found


def renumbered(pattern: str, shift: int) -> str | None:
    """`pattern` with every group it refers to by number moved `shift` groups on (as if
    `shift` groups opened before it); None where a backreference cannot be spelled so
    (beyond group 99). A backreference followed by a digit is put in a group of its own:
    `\\2` then `7` is not read as `\\27`."""
    out: list[str] = []
    last = 0
    for start, end, group, backreference in group_references(pattern):
        number = group + shift
        if not backreference:
            out += [pattern[last:start], str(number)]
        elif number > 99:
            return None
        else:
            digit_next = pattern[end : end + 1] in tuple(_DIGITS)
            spelled = f"\\{number}"
            out += [pattern[last:start], f"(?:{spelled})" if digit_next else spelled]
        last = end
    return "".join(out) + pattern[last:]


_BODY_PREFIXES = ("?:", "?=", "?!", "?<=", "?<!", "?>")


def _group_body(pattern: str, at: int) -> tuple[int, bool] | None:
    """Where the body of the group opened at `at` begins, and whether it is a conditional
    (`(?(1)yes|no)`: its `|` is no alternation); None for a group without a body
    (`(?i)`, `(?P=name)`, `(?#...)`), which the caller skips to its `)`."""
    rest = pattern[at + 1 :]
    if not rest.startswith("?"):
        return at + 1, False
    for prefix in _BODY_PREFIXES:
        if rest.startswith(prefix):
            return at + 1 + len(prefix), False
    if rest.startswith("?P<"):
        close = pattern.find(">", at)
        return (close + 1, False) if close >= 0 else None
    if rest.startswith("?("):
        close = pattern.find(")", at + 3)
        return (close + 1, True) if close >= 0 else None
    if rest.startswith(("?P=", "?#")):
        return None
    index = at + 2  # inline flags: `(?i:` scopes a body, `(?i)` sets them for all
    while index < len(pattern) and (pattern[index].isalpha() or pattern[index] == "-"):
        index += 1
    if index < len(pattern) and pattern[index] == ":":
        return index + 1, False
    return None


def source_alternatives(pattern: str) -> list[tuple[str, ...]]:
    """The alternatives of each alternation as the pattern spells them, innermost group
    first: `re` factors common prefixes out of alternatives (`(open|opening)` becomes
    `open(|ing)`), so duplicates and empty alternatives are seen in the source only.
    Not for VERBOSE patterns (whitespace and comments are not read)."""
    return [branches for _, branches in _alternations(pattern)]


def top_alternatives(pattern: str) -> tuple[str, ...]:
    """The alternatives of the pattern's outermost level as it spells them (`a|b(c|d)`:
    `a`, `b(c|d)`), seen through a plain group around all of it (`(a|b)`: `a`, `b`); the
    whole pattern when it has no `|` there. Not for VERBOSE patterns."""
    for top, branches in _alternations(pattern):
        if top:
            return branches
    return (pattern,)


# the characters `_alternations` reads; it passes over the others, which change nothing there
_STRUCTURE = re.compile(r"[\\\[\]()|]")


def _alternations(pattern: str) -> list[tuple[bool, tuple[str, ...]]]:
    """`source_alternatives`, each marked True for the pattern's outermost level (or that of
    a plain group around all of it)."""
    found: list[tuple[bool, tuple[str, ...]]] = []
    frames: list[tuple[int, list[int], bool]] = [(0, [], False)]  # body start, `|` positions, conditional
    opened: list[int] = [0]  # where each frame's group opens
    at, size = 0, len(pattern)
    in_class = False
    structure = _STRUCTURE.search
    while at < size:
        mark = structure(pattern, at)
        if mark is None:
            break
        at = mark.start()
        char = pattern[at]
        if char == "\\":
            at += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            at += 1
            if at < size and pattern[at] == "^":
                at += 1
            if at < size and pattern[at] == "]":
                at += 1
            continue
        elif char == "(":
            body = _group_body(pattern, at)
            if body is None:
                close = pattern.find(")", at)
                at = size if close < 0 else close + 1
                continue
            frames.append((body[0], [], body[1]))
            opened.append(at)
            at = body[0]
            continue
        elif char == "|":
            frames[-1][1].append(at)
        elif char == ")" and len(frames) > 1:
            start = opened.pop()
            whole = len(frames) == 2 and start == 0 and at == size - 1 and _plain_opening(pattern[: frames[-1][0]])
            found.extend((whole, branches) for branches in _split(pattern, frames.pop(), at))
        at += 1
    # (groups left open by a pattern that does not parse: their `|` are no outermost level)
    found.extend((len(frames) == 1, branches) for branches in _split(pattern, frames[0], size))
    return found


def _plain_opening(opening: str) -> bool:
    """Whether a group so opened finds what its body finds: capturing or not, named or not."""
    return opening in ("(", "(?:") or (opening.startswith("(?P<") and opening.endswith(">"))


def _split(pattern: str, frame: tuple[int, list[int], bool], end: int) -> list[tuple[str, ...]]:
    start, bars, conditional = frame
    if not bars or conditional:
        return []
    edges = [start - 1, *bars, end]
    return [tuple(pattern[a + 1 : b] for a, b in pairwise(edges))]


_DEBUG = int(re.DEBUG)  # (a plain int: `flags & re.DEBUG` runs enum's `__and__`, in Python)


def _parse_now(pattern: str, flags: int) -> Parsed:
    """`pattern` parsed as records."""
    if len(pattern) > MAX_PATTERN_CHARACTERS:
        raise TooComplex(f"it is longer than {MAX_PATTERN_CHARACTERS:,} characters")
    # re's parser recurses once or twice per level, so how deep it may go depends on how
    # deep the caller already is; refusing deep patterns first keeps the verdict the same
    # from every caller (and bounds the analyses that recurse over the tree).
    if too_deep(pattern):
        raise TooComplex(f"its parentheses nest more than {MAX_DEPTH} deep")
    tree, warned = _tree(pattern, int(flags) & ~_DEBUG)
    return Parsed(pattern, int(tree.state.flags), _seq(tree.data), tree.state.groups - 1, warned)


def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """What `re.compile(pattern, flags)` gives (an equal pattern) or raises, made by `re`'s
    compiler from re's parse tree: the one `parse` left for it, else one parsed now and
    left for `parse`."""
    flags = int(flags)
    if flags & _DEBUG or not isinstance(pattern, str):  # (re prints as it parses; bytes: its way)
        return re.compile(pattern, flags)
    tree, _ = _tree(pattern, flags)
    _iterated_as_lists(tree.data)
    # re's compiler without its parsing step: its code for the tree, and the pattern object
    # made with the text (given a tree, `_compiler.compile` would leave the text out, and
    # the object would then take bytes as well as text)
    state = tree.state
    names: list[str | None] = [None] * state.groups
    for name, index in state.groupdict.items():
        names[index] = name
    return _sre.compile(
        pattern, flags | state.flags, _rc._code(tree, flags), state.groups - 1, state.groupdict, tuple(names)
    )


class _ListIterating(_p.SubPattern):
    """re's SubPattern, iterated as its list of items: re's compiler walks each nested one
    item by item, which a SubPattern answers with a Python `__getitem__` call per item."""

    def __iter__(self) -> Iterator[Any]:
        """The items, as the list holds them (what the `__getitem__` calls give)."""
        return iter(self.data)


_REPEATS = frozenset(_REPEAT_KINDS)


def _nested(op: Any, av: Any) -> tuple[Any, ...]:
    """The SubPatterns a node of re's tree holds (none for a leaf)."""
    if op is _c.SUBPATTERN:
        return (av[3],)
    if op in _REPEATS:
        return (av[2],)
    if op is _c.BRANCH:
        return tuple(av[1])
    if op is _c.ATOMIC_GROUP:
        return (av,)
    if op is _c.ASSERT or op is _c.ASSERT_NOT:
        return (av[1],)
    if op is _c.GROUPREF_EXISTS:
        return (av[1],) if av[2] is None else (av[1], av[2])
    return ()


_LEAF_OPS = frozenset((_c.LITERAL, _c.NOT_LITERAL, _c.ANY, _c.IN, _c.AT, _c.GROUPREF))


def _iterated_as_lists(data: list[Any]) -> None:
    """Make every SubPattern nested in `data` (re's tree) a `_ListIterating`: the same
    items, which re's compiler then walks without a call per item."""
    pending = [data]
    leaves = _LEAF_OPS
    while pending:
        for op, av in pending.pop():
            if op in leaves:
                continue
            for sub in _nested(op, av):
                if type(sub) is _SUBPATTERN:
                    sub.__class__ = _ListIterating
                pending.append(sub.data)


# --- one parse for the compiler and the records: re's tree handed from one to the other ---------

HANDOFF_ENTRIES = 64
HANDOFF_LONGEST = 2000  # longer patterns are not compiled in-process (`compiling.CHEAP_COMPILE_LENGTH`)


class _Handoff:
    """Trees one reader parsed (with re's warnings), for the other to take (each taken once);
    the oldest are dropped."""

    def __init__(self) -> None:
        self.trees: OrderedDict[tuple[str, int], tuple[Any, tuple[ReWarning, ...]]] = OrderedDict()
        self.lock = threading.Lock()

    def take(self, key: tuple[str, int]) -> tuple[Any, tuple[ReWarning, ...]] | None:
        with self.lock:
            return self.trees.pop(key, None)

    def leave(self, key: tuple[str, int], parsed: tuple[Any, tuple[ReWarning, ...]]) -> None:
        if len(key[0]) > HANDOFF_LONGEST:
            return
        with self.lock:
            self.trees[key] = parsed
            if len(self.trees) > HANDOFF_ENTRIES:
                self.trees.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.trees.clear()


_HANDOFF = _Handoff()


def _tree(pattern: str, flags: int) -> tuple[Any, tuple[ReWarning, ...]]:
    """re's parse tree of `pattern` and what re warned of (raises what re raises): the one
    the other reader left, else parsed now and left for it. Neither reader changes what a
    tree says."""
    key = (pattern, flags)
    parsed = _HANDOFF.take(key)
    if parsed is None:
        parsed = _parse_tree(pattern, flags)
        _HANDOFF.leave(key, parsed)
    return parsed


# re's parser warns only where a pattern holds one of these (inside a class; `(?(` for a
# conditional's group name): any other pattern is parsed without catching warnings.
_MAY_WARN = re.compile(r"\[\[|--|&&|~~|\|\||\(\?\(")
# `warnings.catch_warnings` swaps process-wide state: one thread of entrykit at a time.
_WARNINGS_LOCK = threading.Lock()
KEPT_WARNINGS = 16  # a pattern's first warnings kept (a pattern may hold one per two characters)


def _parse_tree(pattern: str, flags: int) -> tuple[Any, tuple[ReWarning, ...]]:
    if _MAY_WARN.search(pattern) is None:
        quick = _quick_tree(pattern, flags)
        return (quick if quick is not None else _p.parse(pattern, flags)), ()
    kept: list[ReWarning] = []

    def keep(message: Warning | str, category: type[Warning], *args: object, **kwargs: object) -> None:
        if len(kept) < KEPT_WARNINGS:
            kept.append(ReWarning(issubclass(category, FutureWarning), str(message)))

    with _WARNINGS_LOCK, warnings.catch_warnings():
        warnings.simplefilter("always")  # each one, whatever filters the caller has (`-W error`)
        warnings.showwarning = keep
        tree = _p.parse(pattern, flags)
    return tree, tuple(kept)


# --- re's parse tree of the common patterns, read without re's tokenizer -------------------------

_VERBOSE = int(re.VERBOSE)
_QUICK_DEPTH = 32  # groups nested deeper are left to re's parser (and its recursion limit)
_QUICK_REPEATS = {"*": (0, _c.MAXREPEAT), "+": (1, _c.MAXREPEAT), "?": (0, 1)}
_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_PLAIN_GROUP = (None, 0, 0)  # a SUBPATTERN's (group, add_flags, del_flags) that re unwraps
# characters re reads as themselves, and a backslash before anything but a letter or a digit
_LITERAL_RUN = re.compile(r"(?:[^.\\\[{()*+?^$|]|\\[^0-9A-Za-z])+")
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


class _LeftToRe(Exception):
    """The pattern holds what the quick reader leaves to re's parser."""


def _quick_tree(pattern: str, flags: int) -> Any | None:
    """What `re._parser.parse(pattern, flags)` gives, for a pattern of literals, escapes,
    `.`, `^`, `$`, `*`/`+`/`?` repeats (lazy or possessive), plain and `(?:` groups and `|`;
    None for anything else, or anything re would refuse (re's parser then reads it).

    re's parser takes a Python call or three per character (its tokenizer's): most entry
    regexes are a row of literals with a few of these, read here in one loop."""
    if flags & (_VERBOSE | _DEBUG):
        return None
    state = _p.State()
    state.flags = flags
    state.str = pattern
    try:
        tree, end = _quick_alternatives(pattern, 0, state, 0)
        if end != len(pattern):  # an unbalanced `)`
            return None
        state.flags = _p.fix_flags(pattern, state.flags)
    except (_LeftToRe, re.error, ValueError):
        return None
    return tree


def _quick_alternatives(pattern: str, at: int, state: Any, depth: int) -> tuple[Any, int]:
    """re's `_parse_sub` from `at`: the branches up to a `)` or the end, and where it stopped."""
    items = []
    while True:
        item, at = _quick_sequence(pattern, at, state, depth)
        items.append(item)
        if pattern.startswith("|", at):
            at += 1
            continue
        break
    if len(items) == 1:
        return items[0], at
    return _branches(items, state), at


def _branches(items: list[Any], state: Any) -> Any:
    """re's `_parse_sub` on branches read: their common first items moved out, then one class
    where each is one literal or class, else a BRANCH (the same steps as re's)."""
    subpattern = _SUBPATTERN(state)
    # The common first items are counted first, then cut from each branch at once: re's
    # loop cuts them one at a time from the front of every branch, quadratic in a long
    # common prefix (`a{L}b|a{L}c` written out: 7 s for L = 240,000). The same tree.
    branches = [item.data for item in items]
    first, others = branches[0], branches[1:]
    common, shortest = 0, min(map(len, branches))
    while common < shortest and all(other[common] == first[common] for other in others):
        common += 1
    if common:
        subpattern.data.extend(first[:common])
        for branch in branches:
            del branch[:common]
    members: list[Any] = []
    for item in items:
        if len(item) != 1:
            break
        op, av = item[0]
        if op is _c.LITERAL:
            members.append((op, av))
        elif op is _c.IN and av[0][0] is not _c.NEGATE:
            members.extend(av)
        else:
            break
    else:
        subpattern.append((_c.IN, list(dict.fromkeys(members))))
        return subpattern
    subpattern.append((_c.BRANCH, (None, items)))
    return subpattern


def _quick_sequence(pattern: str, at: int, state: Any, depth: int) -> tuple[Any, int]:
    """re's `_parse` from `at`: the items up to a `|`, a `)` or the end, and where it stopped."""
    subpattern = _SUBPATTERN(state)
    data = subpattern.data
    end = len(pattern)
    special = _p.SPECIAL_CHARS
    literal_run = _LITERAL_RUN.match
    plain_groups = False
    while at < end:
        char = pattern[at]
        if char == "|" or char == ")":
            break
        if char not in special or char == "\\":
            run = literal_run(pattern, at)
            if run is not None:
                data += _literals(run.group())
                at = run.end()
                continue
        at += 1
        if char == "\\":
            data.append(_quick_escape(pattern, at))
            at += 1
        elif char in _QUICK_REPEATS:
            at = _quick_repeat(pattern, at, char, subpattern)
        elif char == ".":
            data.append((_c.ANY, None))
        elif char == "(":
            at = _quick_group(pattern, at, state, depth, data)
            plain_groups = plain_groups or data[-1][1][0] is None
        elif char == "^":
            data.append((_c.AT, _c.AT_BEGINNING))
        elif char == "$":
            data.append((_c.AT, _c.AT_END))
        else:
            raise _LeftToRe(char)
    if plain_groups:
        _unwrap_plain_groups(data)
    return subpattern, at


def _literals(run: str) -> list[tuple[Any, int]]:
    """re's items for a run of literal characters and escaped punctuation (`_LITERAL_RUN`)."""
    if "\\" in run:
        run = _ESCAPED.sub(_escaped_character, run)
    literal = _c.LITERAL
    return [(literal, code) for code in map(ord, run)]


def _escaped_character(escape: re.Match[str]) -> str:
    return escape.group(1)


def _unwrap_plain_groups(data: list[Any]) -> None:
    """Put each plain group's items in its place, as re's `_parse` does before it returns."""
    for number in range(len(data) - 1, -1, -1):
        op, av = data[number]
        if op is _c.SUBPATTERN and av[:3] == _PLAIN_GROUP:
            data[number : number + 1] = av[3].data


def _quick_escape(pattern: str, at: int) -> tuple[Any, Any]:
    """re's item for the escape whose backslash is just before `at` (its letter at `at`)."""
    if at >= len(pattern):
        raise _LeftToRe("a lone backslash")
    escape = pattern[at - 1 : at + 1]
    code = _p.CATEGORIES.get(escape) or _p.ESCAPES.get(escape)
    if code is not None:
        return code  # (re's own tuple, as its parser gives)
    if pattern[at] in _ASCII_ALNUM:  # hex, octal, named, back-references, or an error
        raise _LeftToRe(escape)
    return (_c.LITERAL, ord(pattern[at]))


def _quick_repeat(pattern: str, at: int, char: str, subpattern: Any) -> int:
    """Make the last item of `subpattern` repeated by `char` (and a `?` or `+` at `at`); where
    the reading goes on."""
    data = subpattern.data
    if not data:
        raise _LeftToRe("nothing to repeat")
    last = data[-1]
    if last[0] is _c.AT or last[0] in _p._REPEATCODES:
        raise _LeftToRe("nothing to repeat, or a repeat repeated")
    if last[0] is _c.SUBPATTERN and last[1][:3] == _PLAIN_GROUP:
        item = last[1][3]  # a plain group repeated: its body is
    else:
        item = _SUBPATTERN(subpattern.state, data[-1:])
    kind = _c.MAX_REPEAT
    if pattern.startswith("?", at):
        kind, at = _c.MIN_REPEAT, at + 1
    elif pattern.startswith("+", at):
        kind, at = _c.POSSESSIVE_REPEAT, at + 1
    low, high = _QUICK_REPEATS[char]
    data[-1] = (kind, (low, high, item))
    return at


def _quick_group(pattern: str, at: int, state: Any, depth: int, data: list[Any]) -> int:
    """Read a capturing or `(?:` group whose `(` is just before `at` into `data`; where the
    reading goes on."""
    capture = True
    if pattern.startswith("?", at):
        if not pattern.startswith("?:", at):
            raise _LeftToRe("a group extension")
        capture, at = False, at + 2
    if depth >= _QUICK_DEPTH:
        raise _LeftToRe("deep")
    group = state.opengroup() if capture else None
    body, at = _quick_alternatives(pattern, at, state, depth + 1)
    if not pattern.startswith(")", at):
        raise _LeftToRe("an unterminated group")
    if group is not None:
        state.closegroup(group, body)
    data.append((_c.SUBPATTERN, (group, 0, 0, body)))
    return at + 1


# --- parsed once: a memo bounded in entries and in pattern characters ----------------------------

MEMO_ENTRIES = 8192
MEMO_CHARACTERS = 4_000_000  # of patterns kept; a parsed pattern takes a few times its length
# Longer patterns are not kept with the others (one would push out thousands of them): only the
# last one is, apart. The rules that read one entry's regex ask for it one after the other, so
# it is still parsed once per entry, not once per rule (9 times: 7 s for 800,000 characters).
_LONGEST_KEPT = 200_000

_Known = Parsed | tuple[type[BaseException], tuple[Any, ...]]


class _Memo:
    def __init__(self) -> None:
        self.items: OrderedDict[tuple[str, int], _Known] = OrderedDict()
        self.characters = 0
        self.last_long: tuple[tuple[str, int], _Known] | None = None
        self.lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> _Known | None:
        with self.lock:
            if len(key[0]) > _LONGEST_KEPT:
                long = self.last_long
                return long[1] if long is not None and long[0] == key else None
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: tuple[str, int], value: _Known) -> None:
        if len(key[0]) > _LONGEST_KEPT:
            with self.lock:
                self.last_long = (key, value)
            return
        with self.lock:
            if key in self.items:
                return
            self.items[key] = value
            self.characters += len(key[0])
            while len(self.items) > MEMO_ENTRIES or self.characters > MEMO_CHARACTERS:
                (pattern, _), _ = self.items.popitem(last=False)
                self.characters -= len(pattern)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.characters = 0
            self.last_long = None


_MEMO = _Memo()


def parse(pattern: str, flags: int = 0) -> Parsed:
    """`pattern` as `re` parses it under `flags`, parsed once per process (memoised).

    Raises what `re.compile` raises for a pattern that does not parse (`re.error`,
    `OverflowError` for huge repeat counts), each time it is asked, and `TooComplex`
    for a pattern nested more than `MAX_DEPTH` parentheses deep or longer than
    `MAX_PATTERN_CHARACTERS`.
    """
    key = (pattern, flags)
    known = _MEMO.get(key)
    if known is None:
        try:
            known = _parse_now(pattern, flags)
        except (re.error, TooComplex, RecursionError, OverflowError, ValueError, TypeError) as exc:
            known = (type(exc), exc.args if not isinstance(exc, re.error) else (exc.msg, exc.pattern, exc.pos))
        _MEMO.put(key, known)
    if isinstance(known, Parsed):
        return known
    kind, args = known
    raise kind(*args)  # a fresh exception each time: a kept one would collect tracebacks


def memo_size() -> tuple[int, int]:
    """(patterns, characters) the parse memo holds."""
    with _MEMO.lock:
        return len(_MEMO.items), _MEMO.characters


def clear_memo() -> None:
    _MEMO.clear()
    _HANDOFF.clear()


# --- walking -----------------------------------------------------------------------------------


def scoped_flags(node: Node, flags: int) -> int:
    """The flags in force inside `node` when `flags` are in force around it."""
    if isinstance(node, Group):
        return (flags | node.add_flags) & ~node.del_flags
    return flags


def walk(nodes: Seq, flags: int = 0) -> Iterator[tuple[Node, int]]:
    """Every node of `nodes` and of their children, depth first in pattern order (a node
    before its children, children before the next sibling), with the flags in force at it."""
    stack: list[tuple[Iterator[Node], int]] = [(iter(nodes), flags)]
    while stack:
        items, here = stack[-1]
        node = next(items, None)
        if node is None:
            stack.pop()
            continue
        yield node, here
        parts = node.children()
        if parts:
            inner = scoped_flags(node, here)
            for part in reversed(parts):
                stack.append((iter(part), inner))


def places(nodes: Seq, kind: type | tuple[type, ...] | None = None) -> Iterator[tuple[Seq, int]]:
    """Where each node of `nodes` and of their children (each of type `kind`, when given)
    is, as (its sequence, its index there), in pattern order as `walk` gives the nodes."""
    stack: list[tuple[Seq, int]] = [(nodes, 0)]
    while stack:
        seq, start = stack.pop()
        # a sequence's leaves in one loop, not a stack step each: most nodes are leaves
        for at in range(start, len(seq)):
            node = seq[at]
            if kind is None or isinstance(node, kind):
                yield seq, at
            if type(node) not in _LEAVES and (parts := node.children()):
                stack.append((seq, at + 1))
                stack.extend((part, 0) for part in reversed(parts))
                break


def count_nodes(nodes: Seq) -> int:
    """How many nodes `nodes` holds, nested ones included."""
    count = 0
    pending = [nodes]
    while pending:
        seq = pending.pop()
        count += len(seq)
        for node in seq:
            if type(node) not in _LEAVES:
                pending += node.children()
    return count


_ANY_CHAR: Seq = (AnyChar(),)


def dot_star_kind(node: Node) -> str | None:
    """The kind (GREEDY, LAZY, POSSESSIVE) of a `.*` (`.` repeated from none on, however
    spelt), or None for any other node."""
    if type(node) is Repeat and node.low == 0 and node.high is None and node.body == _ANY_CHAR:
        return node.kind
    return None


def nodes_of_type(nodes: Seq, kind: type[_N]) -> list[_N]:
    """Every node of `nodes` and of their children whose type is `kind` (exactly), in no
    particular order: a quarter of the time `walk` takes to give every node and its flags."""
    found: list[_N] = []
    pending = [nodes]
    while pending:
        seq = pending.pop()
        for node in seq:
            if type(node) is kind:
                found.append(node)
            if type(node) not in _LEAVES:
                pending += node.children()
    return found


_LEAVES = frozenset((Char, NotChar, AnyChar, CharClass, Anchor, Backref))


def find(nodes: Seq, test: Callable[[Node], bool]) -> bool:
    """True if some node (nested ones included) passes `test`."""
    return any(test(node) for node, _ in walk(nodes))


# --- characters as re compares them ----------------------------------------------------------

CharNode = Char | NotChar | AnyChar | CharClass
# The flags as plain numbers: `RegexFlag` arithmetic is an order of magnitude slower.
IGNORECASE, MULTILINE, DOTALL, VERBOSE, ASCII = (int(f) for f in (re.I, re.M, re.S, re.X, re.A))
CLASS_FLAGS = IGNORECASE | ASCII | DOTALL  # the flags that change what a character node matches


# What makes a step of `re`'s matcher cost more than a few ns, about a step for every 8:
# - the items of a class beyond the Basic Multilingual Plane (a code point or range past
#   U+FFFF): `re` looks a character up in a table for the others, but compares it with
#   each of these in turn, about 1.3 ns an item;
# - the capture groups: each pass of a repeated group (and each character a one-character
#   repeat inside it gives back) saves every group's place so far, about 0.9 ns a group,
#   and keeps the copy until the match ends; a group marked after a give-back or at a new
#   start clears the places of every group before it.
COSTLY_PARTS_PER_STEP = 8


def step_weight(parsed: Parsed) -> int:
    """How many steps of `re`'s matcher one step of `parsed` may cost at most: 1, or more
    for each `COSTLY_PARTS_PER_STEP` items beyond the Basic Multilingual Plane in one class,
    and as many capture groups."""
    astral = 0
    pattern = parsed.pattern
    # (only a character past U+FFFF, `\U` or `\N{...}` can write one: most patterns need no walk)
    if "\\U" in pattern or "\\N" in pattern or not (pattern.isascii() or max(pattern) <= "\uffff"):
        for node, _ in walk(parsed.nodes):
            if type(node) is CharClass:
                astral = max(astral, sum(map(_beyond_the_bmp, node.items)))
    return 1 + astral // COSTLY_PARTS_PER_STEP + parsed.groups // COSTLY_PARTS_PER_STEP


def _beyond_the_bmp(item: ClassItem) -> bool:
    if isinstance(item, CharRange):
        return item.high > 0xFFFF
    return isinstance(item, Char) and item.code > 0xFFFF


def char_label(node: CharNode) -> str:
    """The node as a person would write it (for messages)."""
    if isinstance(node, Char):
        return re.escape(chr(node.code))
    if isinstance(node, NotChar):
        return f"[^{re.escape(chr(node.code))}]"
    if isinstance(node, AnyChar):
        return "."
    parts = ["^"] if node.negated else []
    for item in node.items:
        if isinstance(item, Char):
            parts.append(re.escape(chr(item.code)))
        elif isinstance(item, CharRange):
            parts.append(f"{re.escape(chr(item.low))}-{re.escape(chr(item.high))}")
        else:
            parts.append(item.escape)
    if len(parts) == 1 and parts[0].startswith("\\") and len(parts[0]) == 2:
        return parts[0]
    return "[" + "".join(parts) + "]"


def char_source(node: CharNode, clip: Callable[[int, int], list[int]] | None = None, wide: int = 64) -> str:
    """The node as a regex of its own, to compile with the flags in force at it.

    With `clip`, each range at least `wide` code points wide becomes just the code
    points `clip(low, high)` keeps (compiling a wide range visits every code point)."""
    if isinstance(node, Char):
        return re.escape(chr(node.code))
    if isinstance(node, NotChar):
        return f"[^\\U{node.code:08x}]"
    if isinstance(node, AnyChar):
        return "."
    parts = []
    for item in node.items:
        if isinstance(item, Char):
            parts.append(f"\\U{item.code:08x}")
        elif isinstance(item, CharRange):
            low, high = item.low, item.high
            if clip is not None and high - low >= wide:
                parts += [f"\\U{code:08x}" for code in clip(low, high)]
            else:
                parts.append(f"\\U{low:08x}-\\U{high:08x}")
        else:
            parts.append(item.escape)
    if not parts:  # every range clipped away: no character kept is in it
        return "[^\\s\\S]" if not node.negated else "[\\s\\S]"
    return "[" + ("^" if node.negated else "") + "".join(parts) + "]"



re_lower: Callable[[int], int] = _sre.unicode_tolower
"""The lower case `re` compares a character by under IGNORECASE (one code point)."""
re_is_cased: Callable[[int], bool] = _sre.unicode_iscased
"""Whether `re` compares a literal character by its lower case under IGNORECASE."""
ascii_lower: Callable[[int], int] = _sre.ascii_tolower
"""The lower case `re` compares a character by under IGNORECASE and ASCII."""
ascii_is_cased: Callable[[int], bool] = _sre.ascii_iscased
"""Whether `re` compares a literal character by its lower case under IGNORECASE and ASCII."""


EXTRA_CASED = frozenset(_EXTRA_CASES)
"""The lower cases that `extra_cases` adds to (few: a set to test before asking it)."""


def extra_cases(lower: int) -> tuple[int, ...]:
    """Further lower cases `re` treats as equal to `lower` (`i`: the dotless `ı` ...)."""
    return tuple(_EXTRA_CASES.get(lower, ()))


def caseless_codes(code: int) -> tuple[int, ...]:
    """The code points `re` holds for `code` under IGNORECASE: its lower case, then the
    further lower cases it treats as equal to that one."""
    lower = re_lower(code)
    return (lower, *_EXTRA_CASES[lower]) if lower in EXTRA_CASED else (lower,)
