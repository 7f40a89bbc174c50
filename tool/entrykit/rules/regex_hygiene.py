"""ET211-ET219: regex mistakes a signature rarely shows (double escapes, anchors, ranges, dots,
alternatives, lazy ends, useless `.*`, syntax `re` warns about)."""

from __future__ import annotations

from collections.abc import Iterator

from entrykit.diagnostic import Finding, Fix, Severity
from entrykit.entry import Entry
from entrykit.regex import hygiene, syntax
from entrykit.regex.runner import RegexSettings
from entrykit.registry import Context, PerEntry, rule


def _parsed(entry: Entry, ctx: Context) -> syntax.Parsed | None:
    """The entry's regex as `re` reads it under the configured flags (None: it does not
    parse, or is too deep to read: ET201's and ET210's business)."""
    return _parsed_of.get(entry, ctx.read("regex", RegexSettings.of).flags)


def _read_parsed(entry: Entry, flags: int) -> syntax.Parsed | None:
    return _parse(entry.str_field("regex"), flags)


def _parse(pattern: str | None, flags: int) -> syntax.Parsed | None:
    if pattern is None:
        return None
    try:
        return syntax.parse(pattern, flags)
    except Exception:
        return None


# An entry's parsed regex, by flags: nine rules read it in turn.
_parsed_of = PerEntry(_read_parsed)


def _mode(ctx: Context) -> str:
    return ctx.read("regex", RegexSettings.of).mode


@rule("ET211", "double-escaped-shorthand")
def double_escaped_shorthand(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex spells a literal backslash before `s`, `d`, `w` ... where it meant `\\s`, `\\d`, `\\w`.

    Reported when the regex holds a literal backslash followed by the letter of a
    shorthand class (`\\\\s`, `\\\\d`, `\\\\w`, `\\\\b` and their capitals) and the
    entry's `signature` has no backslash at all, so the regex cannot have meant one.

    ## Why is this bad?
    In YAML double quotes or JSON, `"\\\\s"` is the two characters `\\s` and the regex
    means whitespace; one escape more (`"\\\\\\\\s"`) is a backslash and an `s`. The
    regex then matches neither the signature nor any log, and nothing else says why.

    ## Example
    ```yaml
    signature: "fatal: not a git repository"
    regex: 'fatal:\\\\snot a git repository'
    ```

    ## Use instead
    ```yaml
    signature: "fatal: not a git repository"
    regex: 'fatal:\\snot a git repository'
    ```
    """
    parsed = _parsed(entry, ctx)
    signature = entry.str_field("signature")
    if parsed is None or signature is None or "\\" in signature:
        return
    found = hygiene.double_escaped_shorthands(parsed)
    if found:
        spelled = ", ".join(f"`\\{s}`" for s in found)
        yield Finding(
            "/regex",
            f"regex matches a literal backslash before {spelled}, and the signature has no backslash: "
            f"remove one escape to mean {', '.join(f'`{s}`' for s in found)}",
        )


@rule("ET212", "anchor-in-multiline-text", severity=Severity.WARNING)
def anchor_in_multiline_text(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex uses `^` or `$` while lookups search a whole log without MULTILINE.

    In `search` mode (the default `regex.mode`) lookups look for the regex anywhere in
    the text a user pasted, usually many lines of a log. Without the MULTILINE flag
    (`regex.flags`, or `(?m)` in the regex) `^` holds only at the start of that whole
    text and `$` only at its end.

    ## Why is this bad?
    The regex matches the signature on its own, so ET202 stays silent, but it misses
    the same line inside a log: `^fatal: not a git repository$` finds nothing in
    `$ git status` followed by the error.

    ## Example
    ```yaml
    regex: '^fatal: not a git repository'
    ```

    ## Use instead
    ```yaml
    regex: 'fatal: not a git repository'
    ```
    or set `flags = ["MULTILINE"]` in `[tool.entrykit.regex]` (then `^` and `$` hold
    at every line), or write `(?m)` at the start of the regex.
    """
    if _mode(ctx) != "search":
        return
    parsed = _parsed(entry, ctx)
    if parsed is None:
        return
    found = hygiene.line_anchors(parsed)
    if found:
        which = " and ".join(f"`{a}`" for a in found)
        yield Finding(
            "/regex",
            f"{which} hold only at the start or end of the whole text a lookup searches, not of a line "
            "in a log (no MULTILINE)",
        )


@rule("ET213", "obscure-range", severity=Severity.WARNING)
def obscure_range(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Character class range spans more than letters or digits (`[A-z]`, `[+-.]`).

    A range between printable ASCII characters is reported unless both ends are
    digits, both capitals or both small letters. Ranges of control characters and of
    other scripts (`\\x00-\\x1f`, `가-힣`) are written so on purpose and are not.

    ## Why is this bad?
    `[A-z]` also holds `[`, `\\`, `]`, `^`, `_` and a backtick; `[+-.]` (meant as three
    characters) holds the comma too. The regex matches text it was not meant to.

    ## Example
    ```yaml
    regex: 'module [A-z]+ not found'
    ```

    ## Use instead
    ```yaml
    regex: 'module [A-Za-z]+ not found'
    ```
    Put `-` first or last in a class (`[+.-]`) when it stands for itself.
    """
    parsed = _parsed(entry, ctx)
    if parsed is None:
        return
    found = hygiene.obscure_ranges(parsed)
    if found:
        yield Finding("/regex", f"class range {', '.join(f'`{r}`' for r in found)} holds more than letters or digits")


@rule("ET214", "unescaped-literal-dot", severity=Severity.INFO)
def unescaped_literal_dot(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex has an unescaped `.` where the signature has a literal dot (`core.quotepath`).

    Reported for a `.` between literal text that, with a dot there, the `signature`
    holds: a dotted name, a version, a file name.

    ## Why is this bad?
    `.` matches any character, so `core.quotepath` also matches `core_quotepath` and
    `numpy.core` matches `numpy-core`. The harm is small, hence info, but the regex
    says something other than what was meant.

    ## Example
    ```yaml
    signature: "AttributeError: module 'numpy.core' has no attribute 'x'"
    regex: "module 'numpy.core' has no attribute"
    ```

    ## Use instead
    ```yaml
    regex: "module 'numpy\\\\.core' has no attribute"
    ```

    ## Fix
    Safe: each such dot is escaped (`\\.`).
    """
    parsed = _parsed(entry, ctx)
    signature = entry.str_field("signature")
    if parsed is None or signature is None:
        return
    dots = hygiene.literal_dots(parsed, signature)
    if dots is None:
        return
    fix = Fix("/regex", dots.escaped, "escape the dot: `\\.`") if dots.escaped is not None else None
    shown = ", ".join(f"`{c}`" for c in dots.contexts)
    yield Finding("/regex", f"unescaped `.` in {shown} matches any character where the signature has a dot", fix=fix)


@rule("ET215", "duplicate-alternative", severity=Severity.WARNING)
def duplicate_alternative(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """An alternative of a group repeats an earlier one exactly.

    Compared as `re` parses them, under the configured flags.

    ## Why is this bad?
    The second copy never matches anything the first did not; it is usually a copy
    that was meant to be edited into another message, which the regex now misses.

    ## Example
    ```yaml
    regex: '(ECONNREFUSED|ECONNRESET|ECONNREFUSED)'
    ```

    ## Use instead
    ```yaml
    regex: '(ECONNREFUSED|ECONNRESET|ETIMEDOUT)'
    ```
    """
    parsed = _parsed(entry, ctx)
    if parsed is None:
        return
    found = hygiene.duplicate_alternatives(parsed)
    if found:
        yield Finding("/regex", f"alternative {', '.join(f'`{b}`' for b in found)} repeats an earlier alternative")


@rule("ET216", "empty-alternative", severity=Severity.WARNING)
def empty_alternative(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """A group has an empty alternative (`(foo|)`, `a||b`, a trailing `|`).

    ## Why is this bad?
    The empty alternative matches everywhere, so the group becomes optional without
    saying so; at the top level (`foo|`) the whole regex matches every message. It is
    mostly a stray `|` left after an edit.

    ## Example
    ```yaml
    regex: 'connection (refused|reset|)'
    ```

    ## Use instead
    ```yaml
    regex: 'connection (refused|reset)'
    ```
    or, when the part is meant to be optional, say so: `connection( refused| reset)?`.
    """
    parsed = _parsed(entry, ctx)
    if parsed is None:
        return
    count = hygiene.empty_alternatives(parsed)
    if count:
        where = "a group" if count == 1 else f"{count} groups"
        yield Finding("/regex", f"{where} of the regex has an empty alternative, which matches everywhere")


@rule("ET217", "lazy-end", severity=Severity.WARNING)
def lazy_end(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex ends with a lazy quantifier, which then matches as little as it may.

    In `search` and `match` modes a match ends as soon as the regex is satisfied, so a
    lazy quantifier at the end takes its fewest repetitions: `.*?` none, `\\d+?` one.

    ## Why is this bad?
    The quantifier does nothing: `port \\d+?` is `port \\d`, `(expected .*?)` captures
    `expected `. It usually stands for a part of the message the author meant to match.

    ## Example
    ```yaml
    regex: 'listen EADDRINUSE: address already in use .*?'
    ```

    ## Use instead
    ```yaml
    regex: 'listen EADDRINUSE: address already in use'
    ```
    """
    parsed = _parsed(entry, ctx)
    if parsed is None:
        return
    found = hygiene.lazy_ends(parsed, _mode(ctx))
    if found:
        yield Finding(
            "/regex", f"regex ends with lazy {', '.join(f'`{q}`' for q in found)}, which matches as little as it may"
        )


@rule("ET218", "useless-dot-star", severity=Severity.INFO)
def useless_dot_star(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex starts (in `search` mode) or ends (in `search` and `match` modes) with `.*`.

    A lookup that searches finds the rest of the regex anywhere in the text, and a
    match may end anywhere, so such a `.*` changes no verdict.

    ## Why is this bad?
    It costs time: a leading `.*` under search tries every start and every length, and
    it makes the regex harder to read. ET205 may report it on long lines.

    ## Example
    ```yaml
    regex: '.*ModuleNotFoundError: No module named.*'
    ```

    ## Use instead
    ```yaml
    regex: 'ModuleNotFoundError: No module named'
    ```

    ## Fix
    Safe: the `.*` is removed.
    """
    parsed = _parsed(entry, ctx)
    if parsed is None:
        return
    found = hygiene.useless_dot_stars(parsed, _mode(ctx))
    if not found:
        return
    fixed: str | None = parsed.pattern
    for item in found:
        if item.trimmed is None or fixed is None:
            fixed = None
            break
        fixed = _trim(fixed, item.where)
    fix = Fix("/regex", fixed, "remove the `.*`") if fixed is not None else None
    which = " and ".join(item.where for item in found)
    yield Finding("/regex", f"{which} `.*` changes nothing in `{_mode(ctx)}` mode", fix=fix)


def _trim(pattern: str, where: str) -> str:
    if where == "leading":
        return pattern[3:] if pattern.startswith(".*?") else pattern[2:]
    return pattern[:-3] if pattern.endswith(".*?") else pattern[:-2]


@rule("ET219", "regex-future-syntax", severity=Severity.WARNING)
def regex_future_syntax(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex uses syntax Python's `re` warns about: a later Python may read it otherwise, or refuse it.

    Reported when `re`'s parser warns of the regex: a `[` first in a character class
    (`[[(]`: a nested set), a doubled `-`, `&`, `~` or `|` after a class's first item
    (`[a&&b]`, `[|||]`: set operations), or a conditional's group number written in
    digits other than ASCII. entrykit catches these warnings while it reads the regex,
    so they never show up as Python's own output, whatever the `-W` options.

    ## Why is this bad?
    Python has announced that a later version may read such classes as nested sets
    and set operations, and the regex would then match other text without a word;
    the group numbers are an error from Python 3.12 on. Other engines read some of
    them so today: Java takes `&&` in a class as an intersection, JavaScript's `v`
    flag takes `--` and `&&` as set operations.

    ## Example
    ```yaml
    signature: "unexpected token [ at line 3"
    regex: 'unexpected token [[{(] at line \\d+'
    ```

    ## Use instead
    ```yaml
    signature: "unexpected token [ at line 3"
    regex: 'unexpected token [\\[{(] at line \\d+'
    ```
    Escape a `[`, `-`, `&`, `~` or `|` that stands for itself inside a class.
    """
    parsed = _parsed(entry, ctx)
    if parsed is None or not parsed.warned:
        return
    first = parsed.warned[0]
    others = len(parsed.warned) - 1
    at_least = "at least " if len(parsed.warned) >= syntax.KEPT_WARNINGS else ""  # (the first ones are kept)
    more = f" (and {at_least}{others} more)" if others else ""
    if first.future:
        why = "a later Python may read it as a nested set or a set operation"
    else:
        why = "Python 3.12 and later refuse it"
    yield Finding("/regex", f"`re` warns: {first.message}{more}; {why}")
