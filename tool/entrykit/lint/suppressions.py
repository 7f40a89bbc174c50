"""Inline suppression directives in YAML comments, and which of them were used.

`# entrykit: disable=ET202,ET6` at the end of a line silences those codes on that
line; alone on a line it silences them on the next line that holds content.
`# entrykit: disable-file=ET301` alone on a line silences them in the whole file.
Codes may be prefixes. JSON has no comments: use `per-file-ignores` there.

Only a comment is a directive (`parsing.comments`): the same words inside a value (a
quoted string, a line of a block scalar) are text. Lines are counted as findings' lines
are (`parsing.line_spans`), so no character in a value (a U+2028, a form feed) moves a
directive onto another line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from entrykit.parsing import comments, line_spans

_DIRECTIVE = re.compile(
    r"(?:^|\s)(?P<hash>#)\s*entrykit:\s*(?P<kind>disable-file|disable)\s*=\s*(?P<codes>[A-Za-z0-9_, -]*)"
)


@dataclass
class Directive:
    """One code named by one directive, and whether any diagnostic used it."""

    line: int  # where the comment is (1-based)
    col: int
    target_line: int | None  # None for file-wide
    code: str
    used: bool = False


# A directive's place in `Suppressions` lookups: (target line, or None for file-wide; code).
_Slot = tuple[int | None, str]


@dataclass
class Suppressions:
    directives: list[Directive] = field(default_factory=list)
    # Made from `directives` at the first lookup (`parse` sets targets after it adds them):
    # a finding then costs a look-up per prefix of its code, never a pass over every
    # directive (a file of thousands of directives and findings took seconds).
    _slots: dict[_Slot, list[Directive]] | None = field(default=None, init=False, repr=False, compare=False)

    def suppresses(self, line: int, code: str) -> bool:
        """True (and marks the directive used) if a directive covers `code` at `line`."""
        if self._slots is None:
            self._slots = _slots_of(self.directives)
        hit = False
        for slot in _candidate_slots(line, code):
            covering = self._slots.get(slot)
            if covering is None:
                continue
            hit = True
            if covering:
                for directive in covering:
                    directive.used = True
                # (marked once: a slot every finding hits costs its directives once, not per finding)
                self._slots[slot] = []
        return hit

    def unused(self) -> list[Directive]:
        return [d for d in self.directives if not d.used]


def _slots_of(directives: list[Directive]) -> dict[_Slot, list[Directive]]:
    """The directives by (target line, code): those that cover each line and code prefix."""
    slots: dict[_Slot, list[Directive]] = {}
    for directive in directives:
        slots.setdefault((directive.target_line, directive.code), []).append(directive)
    return slots


def _candidate_slots(line: int, code: str) -> list[_Slot]:
    """Every slot a directive covering `code` at `line` sits in: each prefix of the code,
    on the line or file-wide."""
    prefixes = [code[:end] for end in range(1, len(code) + 1)]
    return [(target, prefix) for prefix in prefixes for target in (line, None)]


def is_directive(comment: str) -> bool:
    """Whether a comment's text (from its `#`) is a suppression directive of either kind."""
    return _DIRECTIVE.search(comment) is not None


def is_file_wide(comment: str) -> bool:
    """Whether a comment's text (from its `#`) is a `disable-file` directive."""
    match = _DIRECTIVE.search(comment)
    return match is not None and match.group("kind") == "disable-file"


def parse(text: str) -> Suppressions:
    """Find every directive in a YAML text (none in a text libyaml cannot read)."""
    result = Suppressions()
    if "entrykit:" not in text:
        return result
    found = comments(text)
    if not found:
        return result
    spans = list(line_spans(text))
    starts = [start for start, _ in spans]
    by_line = {bisect_right(starts, at): (at, comment) for at, comment in found}
    pending: list[Directive] = []
    for number, (start, end) in enumerate(spans, start=1):
        comment = by_line.get(number)
        before = text[start : comment[0]] if comment is not None else text[start:end]
        comment_only = comment is not None and not before.strip()
        if pending and before.strip():
            for directive in pending:
                directive.target_line = number
            pending = []
        match = _DIRECTIVE.search(comment[1]) if comment is not None else None
        if comment is None or match is None:
            continue
        col = comment[0] + match.start("hash") - start + 1
        codes = [c.strip().upper() for c in match.group("codes").split(",") if c.strip()]
        file_wide = match.group("kind") == "disable-file"
        for code in codes:
            directive = Directive(number, col, None if file_wide else number, code)
            result.directives.append(directive)
            if comment_only and not file_wide:
                pending.append(directive)
    # A directive alone on the last lines targets nothing.
    for directive in pending:
        directive.target_line = -1
    return result
