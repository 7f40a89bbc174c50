"""Regex mistakes a contributor makes that a signature rarely shows (ET211-ET218).

Each check reads the regex as `re` parses it (`regex.syntax`) under the configured
flags and match mode, and returns what it found as plain values; the rules word them.
Modelled on eslint-plugin-regexp where its checks matter for looking a message up in a log.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from entrykit.regex import syntax
from entrykit.regex.literal_index import fold

SHORTHANDS = "dDsSwWbB"
_BACKSLASH = ord("\\")
# how a literal backslash is spelled: escaped (`\\\\`), or by its code (`\\x5c`, `\\u005c`,
# `\\U0000005c`, `\\N{REVERSE SOLIDUS}`, octal `\\134`); a pattern with none of these holds none
_BACKSLASH_SPELLING = re.compile(r"\\[\\xuUN0-7]")


def _first_char(node: syntax.Node) -> int | None:
    """The literal character `node` begins with, if it begins with one."""
    if isinstance(node, syntax.Char):
        return node.code
    if isinstance(node, syntax.Repeat) and node.low > 0 and node.body:
        return _first_char(node.body[0])
    return None


def double_escaped_shorthands(parsed: syntax.Parsed) -> list[str]:
    """`\\\\s`-like spellings: a literal backslash followed by a shorthand's letter (`\\s`,
    `\\d`, `\\w` ...), as a regex written with one escape too many reads."""
    if _BACKSLASH_SPELLING.search(parsed.pattern) is None:  # (no literal backslash: nothing to find)
        return []
    return _double_escaped_shorthands_walked(parsed)


def _double_escaped_shorthands_walked(parsed: syntax.Parsed) -> list[str]:
    """`double_escaped_shorthands`, every sequence of the regex read."""
    found: list[str] = []
    for seq in parsed.sequences:
        for here, after in pairwise(seq):
            if isinstance(here, syntax.Char) and here.code == _BACKSLASH:
                code = _first_char(after)
                if code is not None and chr(code) in SHORTHANDS and f"\\{chr(code)}" not in found:
                    found.append(f"\\{chr(code)}")
    return found


def line_anchors(parsed: syntax.Parsed) -> list[str]:
    """The `^` and `$` anchors that hold only at the very start or end of the whole text
    (MULTILINE is not in force at them)."""
    if "^" not in parsed.pattern and "$" not in parsed.pattern:  # (each is spelled so, and only so)
        return []
    return _line_anchors_walked(parsed)


def _line_anchors_walked(parsed: syntax.Parsed) -> list[str]:
    """`line_anchors`, every node of the regex read."""
    found: list[str] = []
    for node, flags in parsed.walked:
        anchor = isinstance(node, syntax.Anchor) and node.kind in ("^", "$")
        if anchor and not flags & syntax.MULTILINE and node.kind not in found:  # type: ignore[union-attr]
            found.append(node.kind)  # type: ignore[union-attr]
    return found


_ASCII_FAMILIES = (range(ord("0"), ord("9") + 1), range(ord("A"), ord("Z") + 1), range(ord("a"), ord("z") + 1))


def _family(code: int) -> int | None:
    for number, family in enumerate(_ASCII_FAMILIES):
        if code in family:
            return number
    return None


_PRINTABLE_LOW, _PRINTABLE_HIGH = 0x21, 0x7E  # printable ASCII but the space


def obscure_ranges(parsed: syntax.Parsed) -> list[str]:
    """Class ranges between printable ASCII characters that span more than one of `0-9`,
    `A-Z`, `a-z`, or start or end outside them (`[A-z]` holds `[\\]^_` and a backtick,
    `[+-.]` a comma)."""
    if "-" not in parsed.pattern:  # (a class range is always spelled with a dash)
        return []
    return _obscure_ranges_walked(parsed)


def _obscure_ranges_walked(parsed: syntax.Parsed) -> list[str]:
    """`obscure_ranges`, every node of the regex read."""
    found: list[str] = []
    for node, _ in parsed.walked:
        if not isinstance(node, syntax.CharClass):
            continue
        for item in node.items:
            if not isinstance(item, syntax.CharRange) or item.low == item.high:
                continue
            if not (_PRINTABLE_LOW <= item.low <= _PRINTABLE_HIGH and _PRINTABLE_LOW <= item.high <= _PRINTABLE_HIGH):
                continue  # control characters and other scripts (`\x00-\x1f`, `가-힣`) are written so on purpose
            low, high = _family(item.low), _family(item.high)
            if low is None or high is None or low != high:
                label = f"{chr(item.low)}-{chr(item.high)}"
                if label not in found:
                    found.append(label)
    return found


@dataclass(frozen=True)
class LiteralDots:
    """Dots that stand for a dot of the signature, and the regex with them escaped (None
    when the parsed tree and the source disagree on where the dots are)."""

    contexts: tuple[str, ...]
    escaped: str | None


def literal_dots(parsed: syntax.Parsed, signature: str) -> LiteralDots | None:
    """The unescaped `.` between literal text whose dotted form (`core.quotepath`) the
    signature holds: a regex meant a dot and matches any character there."""
    # (no character folds to a dot: a signature without one has no dotted form to hold)
    if parsed.flags & syntax.VERBOSE or "." not in signature or not syntax.may_hold_any_character(parsed.pattern):
        return None
    ignore_case = bool(parsed.flags & syntax.IGNORECASE)
    text = fold(signature) if ignore_case else signature
    dots: list[int] = []  # which AnyChar, counted in pattern order, is a literal dot
    contexts: list[str] = []
    # (in pattern order, as the source's dots are counted: `.*` in one branch comes before
    # the `.` of a later branch, whatever sequence holds each)
    every = list(syntax.places(parsed.nodes, syntax.AnyChar))
    for number, (seq, at) in enumerate(every):
        # (a letter or digit on each side, or no dotted form: `.*` and `(.)` are skipped at once)
        if not (_alnum_char(seq, at - 1) and _alnum_char(seq, at + 1)):
            continue
        before = _run(seq[:at][::-1])[::-1]
        after = _run(seq[at + 1 :])
        spelled = f"{before}.{after}"
        wanted = fold(spelled) if ignore_case else spelled
        if wanted in text:
            dots.append(number)
            contexts.append(spelled)
    if not dots:
        return None
    positions = syntax.unescaped_dots(parsed.pattern)
    escaped: str | None = None
    if len(positions) == len(every):
        chars = list(parsed.pattern)
        for index in reversed(dots):
            chars[positions[index]] = "\\."
        escaped = "".join(chars)
    return LiteralDots(tuple(contexts), escaped)


def _alnum_char(seq: syntax.Seq, at: int) -> bool:
    """Whether `seq[at]` is a literal letter or digit."""
    node = seq[at] if 0 <= at < len(seq) else None
    return isinstance(node, syntax.Char) and chr(node.code).isalnum()


def _run(nodes: syntax.Seq) -> str:
    """The literal characters `nodes` begin with."""
    out = []
    for node in nodes:
        if not isinstance(node, syntax.Char):
            break
        out.append(chr(node.code))
    return "".join(out)


def _spell(seq: syntax.Seq) -> str:
    return "".join(chr(n.code) if isinstance(n, syntax.Char) else "…" for n in seq)


def duplicate_alternatives(parsed: syntax.Parsed) -> list[str]:
    """Alternatives that repeat an earlier alternative of the same group as written (letter
    case aside under IGNORECASE)."""
    if parsed.flags & syntax.VERBOSE:
        return []
    same = fold if parsed.flags & syntax.IGNORECASE else str
    found: list[str] = []
    for branches in parsed.written_alternatives:
        seen: set[str] = set()
        for branch in branches:
            key = same(branch)
            if branch and key in seen and branch not in found:
                found.append(branch)
            seen.add(key)
    return found


def empty_alternatives(parsed: syntax.Parsed) -> int:
    """How many alternations have an empty alternative as written (`(foo|)`, `a||b`): it
    makes the group optional without saying so."""
    if parsed.flags & syntax.VERBOSE:
        return 0
    return sum(1 for branches in parsed.written_alternatives if "" in branches)


def _last_nodes(nodes: syntax.Seq) -> list[syntax.Node]:
    """The nodes a match may end with: the last node (inside a final group or alternation
    too), and the one before it while the last may match nothing (`(.+?)['"]?`)."""
    found: list[syntax.Node] = []
    for last in reversed(nodes):
        if isinstance(last, syntax.Group):
            found += _last_nodes(last.body)
        elif isinstance(last, syntax.Alternation):
            found += [end for branch in last.branches for end in _last_nodes(branch)]
        else:
            found.append(last)
        if not (isinstance(last, syntax.Repeat) and last.low == 0 and last.kind != syntax.LAZY):
            break
    return found


def lazy_ends(parsed: syntax.Parsed, mode: str) -> list[str]:
    """Lazy quantifiers a match ends with, in `search` or `match` mode: they take as few
    repetitions as they may (`.*?` none, `\\d+?` one), so the quantifier does nothing."""
    if mode == "fullmatch":
        return []
    return [
        _quantifier(node)
        for node in _last_nodes(parsed.nodes)
        if isinstance(node, syntax.Repeat) and node.kind == syntax.LAZY
    ]


def _quantifier(node: syntax.Repeat) -> str:
    body = _spell(node.body) if all(isinstance(n, syntax.Char) for n in node.body) else "…"
    if len(node.body) == 1 and isinstance(node.body[0], syntax.CHARACTER_NODES):
        body = syntax.char_label(node.body[0])
    high = "" if node.high is None else str(node.high)
    count = {(0, ""): "*", (1, ""): "+", (0, "1"): "?"}.get((node.low, high), f"{{{node.low},{high}}}")
    return f"{body}{count}?"


def _is_dot_star(node: syntax.Node) -> bool:
    return syntax.dot_star_kind(node) in (syntax.GREEDY, syntax.LAZY)


@dataclass(frozen=True)
class DotStar:
    """A leading or trailing `.*` that changes no verdict, and the regex without it."""

    where: str  # "leading" or "trailing"
    trimmed: str | None  # None when the source spells it otherwise (`.{0,}`)


def useless_dot_stars(parsed: syntax.Parsed, mode: str) -> list[DotStar]:
    """A `.*` the regex starts with (in `search` mode) or ends with (in `search` and `match`
    modes): searching finds a match with or without it."""
    found: list[DotStar] = []
    nodes, pattern = parsed.nodes, parsed.pattern
    if len(nodes) < 2 or mode == "fullmatch" or parsed.flags & syntax.VERBOSE:
        return found
    if mode == "search" and _is_dot_star(nodes[0]):
        spelled = next((s for s in (".*?", ".*") if pattern.startswith(s)), None)
        found.append(DotStar("leading", pattern[len(spelled):] if spelled else None))
    if _is_dot_star(nodes[-1]):
        spelled = next((s for s in (".*?", ".*") if pattern.endswith(s) and _unescaped_end(pattern, s)), None)
        found.append(DotStar("trailing", pattern[: -len(spelled)] if spelled else None))
    return found


def _unescaped_end(pattern: str, suffix: str) -> bool:
    """Whether `suffix` at the end of `pattern` is not preceded by an escaping backslash."""
    start = len(pattern) - len(suffix)
    backslashes = len(pattern[:start]) - len(pattern[:start].rstrip("\\"))
    return backslashes % 2 == 0
