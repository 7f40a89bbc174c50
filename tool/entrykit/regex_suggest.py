"""Derive a regex from an error message: literal text escaped, volatile tokens generalised."""

from __future__ import annotations

import re

# Volatile tokens, most specific first: (pattern over the message, regex that replaces it).
_VOLATILE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"'[^'\n]+'"), r"'[^']+'"),
    (re.compile(r'"[^"\n]+"'), r'"[^"]+"'),
    (re.compile(r"\[\d+(?:\s*,\s*\d+)*\]"), r"\[\d+(?:,\s*\d+)*\]"),
    (re.compile(r"0x[0-9a-fA-F]+"), r"0x[0-9a-fA-F]+"),
    (re.compile(r"\b\d+(?:\.\d+)*\b"), r"\d+(?:\.\d+)*"),
]


def suggest_regex(signature: str) -> str:
    """A regex that matches `signature` and the same message with other names and numbers."""
    out: list[str] = []
    pos = 0
    while pos < len(signature):
        for pattern, replacement in _VOLATILE:
            match = pattern.match(signature, pos)
            if match:
                out.append(replacement)
                pos = match.end()
                break
        else:
            char = signature[pos]
            out.append(char if char == " " else re.escape(char))
            pos += 1
    return "".join(out)
