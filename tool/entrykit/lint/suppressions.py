"""Inline suppression directives in YAML comments, and which of them were used.

`# entrykit: disable=ET202,ET6` at the end of a line silences those codes on that
line; alone on a line it silences them on the next line that holds content.
`# entrykit: disable-file=ET301` alone on a line silences them in the whole file.
Codes may be prefixes. JSON has no comments: use `per-file-ignores` there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_DIRECTIVE = re.compile(
    r"(?:^|\s)#\s*entrykit:\s*(?P<kind>disable-file|disable)\s*=\s*(?P<codes>[A-Za-z0-9_, -]*)"
)


@dataclass
class Directive:
    """One code named by one directive, and whether any diagnostic used it."""

    line: int  # where the comment is (1-based)
    col: int
    target_line: int | None  # None for file-wide
    code: str
    used: bool = False


@dataclass
class Suppressions:
    directives: list[Directive] = field(default_factory=list)

    def suppresses(self, line: int, code: str) -> bool:
        """True (and marks the directive used) if a directive covers `code` at `line`."""
        hit = False
        for directive in self.directives:
            if code.startswith(directive.code) and directive.target_line in (None, line):
                directive.used = True
                hit = True
        return hit

    def unused(self) -> list[Directive]:
        return [d for d in self.directives if not d.used]


def parse(text: str) -> Suppressions:
    """Find every directive in a YAML text."""
    result = Suppressions()
    if "entrykit:" not in text:
        return result
    lines = text.splitlines()
    pending: list[Directive] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        match = _DIRECTIVE.search(line)
        comment_only = stripped.startswith("#")
        if pending and stripped and not comment_only:
            for directive in pending:
                directive.target_line = number
            pending = []
        if not match:
            continue
        col = match.start() + (1 if line[match.start()].isspace() else 0) + 1
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
