"""Compile entry regexes and run them the way lookups do (flags and match mode from config)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from entrykit.regex import syntax

FLAG_NAMES: dict[str, re.RegexFlag] = {
    "IGNORECASE": re.IGNORECASE,
    "MULTILINE": re.MULTILINE,
    "DOTALL": re.DOTALL,
    "VERBOSE": re.VERBOSE,
    "ASCII": re.ASCII,
}
MODES = ("search", "match", "fullmatch")


def flags_value(names: Iterable[str]) -> int:
    value = 0
    for name in names:
        value |= FLAG_NAMES[name.upper()]
    # A plain int: `re.RegexFlag` arithmetic and hashing run in Python (enum), and the
    # flags take part in every analysis step and every job's memo key.
    return int(value)


@lru_cache(maxsize=65536)
def compile_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """Compile once per (pattern, flags) per process; raises re.error and friends.

    Compiled from the parse `syntax.parse` reads too (`syntax.compiled`): the pattern is
    parsed once for running it and for analysing it."""
    return syntax.compiled(pattern, flags)


# CPython compiles a character-class range by visiting its code points (up to 65,536,
# and under IGNORECASE all of them): about 8 ms for `[Ā-￠]`, minutes for 100 KB of such
# classes. A short pattern compiles in-process when its wide ranges span at most
# `COMPILE_CODE_POINTS` code points in all: a count decides, not a clock, so no regex that
# clears it can meet the worker's time budget (narrow ranges are cheap however many).
CHEAP_COMPILE_LENGTH = 2000
NARROW_RANGE = 256
COMPILE_CODE_POINTS = 65_536
# ... and counts at most this many compile steps (`compile_steps`: about 10 ms).
CHEAP_COMPILE_STEPS = 10_000


@lru_cache(maxsize=65536)
def cheap_to_compile(pattern: str, flags: int = 0) -> bool:
    """True if compiling `pattern` in-process is known to be quick: at most
    `CHEAP_COMPILE_LENGTH` characters, parentheses at most `syntax.MAX_DEPTH` deep, its
    class ranges of `NARROW_RANGE` code points or more spanning at most
    `COMPILE_CODE_POINTS` in all, and at most `CHEAP_COMPILE_STEPS` compile steps.

    Anything else is counted in compile steps (`compile_steps`) and, when it counts few
    enough, compiled first by the regex worker under the time budget
    (`RegexRunner.compile_check`)."""
    if len(pattern) > CHEAP_COMPILE_LENGTH:
        return False
    if syntax.too_deep(pattern):
        return False  # re's compiler recurses per level: compiled where the stack depth is known
    ranges = _pattern_ranges(pattern, flags)
    if ranges is None:
        return True  # (it does not parse: it fails to compile as quickly as it is read)
    return _wide_code_points(ranges) <= COMPILE_CODE_POINTS and compile_steps(pattern, flags, CHEAP_COMPILE_STEPS) <= CHEAP_COMPILE_STEPS


def wide_range_code_points(nodes: syntax.Seq) -> int:
    """How many code points the class ranges of `NARROW_RANGE` or more in `nodes` span."""
    return _wide_code_points(class_ranges(nodes))


def _wide_code_points(ranges: Iterable[syntax.CharRange]) -> int:
    return sum(item.high - item.low + 1 for item in ranges if item.high - item.low >= NARROW_RANGE)


def class_ranges(nodes: syntax.Seq) -> Iterator[syntax.CharRange]:
    """Every range of every character class in `nodes`."""
    for node in syntax.nodes_of_type(nodes, syntax.CharClass):
        yield from (item for item in node.items if isinstance(item, syntax.CharRange))


def _pattern_ranges(pattern: str, flags: int) -> list[syntax.CharRange] | None:
    """The class ranges of `pattern`, or None when it does not parse (it then fails to
    compile as quickly as it is read)."""
    if "-" not in pattern:  # a class range is always spelled with a dash
        return []
    try:
        nodes = syntax.parse(pattern, flags).nodes
    except Exception:
        return None
    return list(class_ranges(nodes))


# What compiling a regex costs, counted, so that whether a long regex compiles within the
# time budget is decided the same on every machine. A step is about a microsecond of
# CPython 3.11's compiler or more, on the machines entrykit is measured on: compiles
# measured at 0.74 us a literal character, 3.7 a character of `(a)` groups, 2 to 3 of
# `\w+`, 2.2 to 4 of `a|` alternatives, 1 to 2 of `[ab]`; for a class range 20 us and
# 0.035 us a code point of the Basic Multilingual Plane (those beyond it are kept as a
# range), under IGNORECASE 125 us and 0.1 us (`[a-z]` under (?i): 104 us). This
# machine's own speed varies twofold from run to run; `benchmarks/compile_steps.py`
# compares the count with the least of five compiles of 42 shapes.
HALF_STEPS_PER_CHARACTER = 3  # (a step and a half)
STEPS_PER_ESCAPE, STEPS_PER_REPEAT, STEPS_PER_CLASS = 2, 3, 2  # each backslash; each `*`, `+`, `?`, `{`; each `[`
STEPS_PER_PARENTHESIS, STEPS_PER_ALTERNATIVE = 12, 6  # each `(`; each `|` (escaped ones too)
STEPS_PER_RANGE, STEPS_PER_RANGE_CASELESS = 20, 120
CODE_POINTS_PER_STEP, CODE_POINTS_PER_STEP_CASELESS = 25, 6  # (0.04 and about 0.17 steps each)
# A class of two or more characters, one of them (or of their other cases, under
# IGNORECASE) beyond the first 256 code points, costs `re` more: 6 to 23 us while they
# form at most two runs of consecutive code points, and 67 to 170 us when they form
# three or more, for which it builds a bitmap of each block of 256 they touch (`[aĀȀ]`
# 107 us, `(?i)[µĀ]` 110 us, `[一鿿Ā]` up to 170 us; `benchmarks/compile_steps.py`).
STEPS_PER_WIDE_CLASS, STEPS_PER_BITMAP_CLASS = 30, 250
# A regex is compiled (in the worker) only when its count is at most the budget's
# microseconds: one that counts more is ET206, the same on every machine. The compile
# runs under `COMPILE_MARGIN` times the budget, a guard against a count gone wrong that
# no machine's speed reaches.
COMPILE_MARGIN = 10


def compile_steps_limit(budget_seconds: float) -> int:
    """The most compile steps a regex may count and still be compiled under `budget_seconds`."""
    return int(budget_seconds * 1_000_000)


@lru_cache(maxsize=65536)
def compile_steps(pattern: str, flags: int = 0, limit: int | None = None) -> int:
    """How many steps compiling `pattern` takes, counted from its text and class ranges (see
    `HALF_STEPS_PER_CHARACTER`); the count from its text alone when that is past `limit`, and
    when it does not parse (it fails to compile as quickly as it is read)."""
    steps = (
        HALF_STEPS_PER_CHARACTER * len(pattern) // 2
        + STEPS_PER_ESCAPE * pattern.count("\\")
        + STEPS_PER_REPEAT * (pattern.count("*") + pattern.count("+") + pattern.count("?") + pattern.count("{"))
        + STEPS_PER_CLASS * pattern.count("[")
        + STEPS_PER_PARENTHESIS * pattern.count("(")
        + STEPS_PER_ALTERNATIVE * pattern.count("|")
    )
    if limit is not None and steps > limit:
        return steps
    caseless = bool(flags & re.IGNORECASE) or "(?" in pattern and "i" in pattern  # (inline flags, read widely)
    per_range, per_step = (STEPS_PER_RANGE_CASELESS, CODE_POINTS_PER_STEP_CASELESS) if caseless else (STEPS_PER_RANGE, CODE_POINTS_PER_STEP)
    classes = _pattern_classes(pattern, flags)
    if classes is None:  # not read by entrykit's parser (nested too deep): each class as the costliest
        widest = per_range + 0x10000 // per_step
        return steps + STEPS_PER_BITMAP_CLASS * pattern.count("[") + widest * pattern.count("-")
    for node in classes:
        for item in node.items:
            if isinstance(item, syntax.CharRange):
                steps += per_range + max(0, min(item.high, 0xFFFF) - item.low + 1) // per_step
        steps += _class_steps(node, caseless)
    return steps


def _pattern_classes(pattern: str, flags: int) -> list[syntax.CharClass] | None:
    """The character classes of `pattern`, those `re` makes of alternatives of one
    character (`a|b`) included: none when it does not compile, None when entrykit's
    parser does not read it (nested too deep)."""
    if "[" not in pattern and "|" not in pattern:
        return []
    try:
        nodes = syntax.parse(pattern, flags).nodes
    except (re.error, OverflowError, ValueError, TypeError):
        return []  # (it fails to compile as quickly as it is read)
    except Exception:
        return None
    return syntax.nodes_of_type(nodes, syntax.CharClass)


def _class_steps(node: syntax.CharClass, caseless: bool) -> int:
    """What a class that reaches beyond the first 256 code points adds to its compile
    (`STEPS_PER_WIDE_CLASS`, `STEPS_PER_BITMAP_CLASS`: three runs of consecutive code
    points or more), reading its characters as `re` does: each lowered under
    IGNORECASE, with the cases `re` adds (`syntax.caseless_codes`: the Kelvin sign for `k`,
    the long s for `s` ...), and its ranges as runs of their own (they are counted apart
    by their code points too). One character alone is a literal to `re`, not a class."""
    items = node.items
    if len(items) == 1 and isinstance(items[0], syntax.Char):
        return 0
    codes = {item.code for item in items if isinstance(item, syntax.Char)}
    ranges = [(item.low, item.high) for item in items if isinstance(item, syntax.CharRange)]
    steps = _runs_steps(codes, ranges)
    if caseless:  # (read both ways: `compile_steps` may only guess that the pattern is caseless)
        steps = max(steps, _runs_steps({lowered for code in codes for lowered in syntax.caseless_codes(code)}, ranges))
    return steps


def _runs_steps(codes: set[int], ranges: list[tuple[int, int]]) -> int:
    """`_class_steps` of a class of these code points and ranges, as `re` holds them."""
    spans = sorted([(code, code) for code in codes] + ranges)
    if not spans or max(high for _, high in spans) < 256 or (not codes and len(spans) == 1):
        return 0  # (a range alone `re` keeps as it is: its code points are its cost)
    runs, end = 0, -2
    for low, high in spans:
        if low > end + 1:
            runs += 1
        end = max(end, high)
    return STEPS_PER_BITMAP_CLASS if runs >= 3 else STEPS_PER_WIDE_CLASS



def compile_error(pattern: str, flags: int = 0) -> str | None:
    """Why `pattern` does not compile, or None if it does.

    Compiles in-process without a time budget: for a regex from entry data, use
    `RegexRunner.compile_check` (which calls this only once it is safe)."""
    try:
        compile_pattern(pattern, flags)
    except re.error as exc:
        where = f" at position {exc.pos}" if exc.pos is not None else ""
        return f"{exc.msg}{where}"
    except (OverflowError, RecursionError, ValueError, TypeError) as exc:
        return str(exc) or type(exc).__name__
    return None


def matches(compiled: re.Pattern[str], text: str, mode: str = "search") -> bool:
    """True if the regex matches `text` under the lookup's match mode."""
    if mode == "search":
        return compiled.search(text) is not None
    if mode == "match":
        return compiled.match(text) is not None
    return compiled.fullmatch(text) is not None


def settings_flags(settings: Mapping[str, Any]) -> int:
    return flags_value(settings.get("flags", []))
