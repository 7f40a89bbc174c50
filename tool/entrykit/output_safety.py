"""Output that entry text cannot steer: escape what a terminal or a CI log would obey.

Every piece of text that comes from entries, file names or configuration goes through
`escape` before it is printed in a human-readable format, and JSON documents are
encoded by `dumps` (or finished by `json_safe`). So entry text can never end a line of
entrykit's output and start another, never start a line with a GitHub Actions workflow
command (`::error …`, `::add-mask::…`, or the older `##[…]`), and never reach a
terminal as a raw escape sequence (ESC, OSC, C1 controls) or as a Unicode control that
reorders what is shown (bidirectional overrides).
"""

from __future__ import annotations

import json
import re
from typing import Any

# C0 controls but the tab (line breaks, ESC, BEL ...), DEL and the C1 controls (NEL,
# CSI, OSC, ST ...); the Unicode line and paragraph separators; every bidirectional
# control (Unicode's Bidi_Control: the embeddings, overrides and isolates, and the
# marks U+061C, U+200E, U+200F), which reorder how a line reads without changing its
# bytes. A tab is only white space, and code in entries (Makefile steps) holds them.
# And the surrogates, which no UTF-8 output can hold: a file name of bytes that are no
# UTF-8 reaches entrykit with one per such byte (Python's `surrogateescape`).
# JSON already escapes C0 controls inside strings; the others it leaves raw.
_UNSAFE_BEYOND_C0 = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_UNSAFE = re.compile(f"[\x00-\x08\x0a-\x1f{_UNSAFE_BEYOND_C0}]")
_UNSAFE_IN_JSON = re.compile(f"[{_UNSAFE_BEYOND_C0}]")
# How a runner recognises a workflow command: after leading white space, `::` (and the
# older `##[`). A colon at the start of a field is escaped too, so that a field followed
# by entrykit's own `:` (as `path:line:col`) cannot form one either.
_COMMAND_START = re.compile(r"\A(\s*)(:|##\[)")

_NAMED = {"\n": "\\n", "\r": "\\r"}


def _escaped(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # the byte a surrogate escape stands for
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape(text: str) -> str:
    """`text` safe to print on one line: controls and line breaks written as Python escapes
    (`\\n`, `\\x1b`, `\\u202e`), and a leading `:` or `##[` written as `\\x3a` / `\\x23`.

    Idempotent, and the identity on ordinary text (the common case costs one search).
    """
    if _UNSAFE.search(text) is not None:
        text = _UNSAFE.sub(lambda m: _escaped(m.group()), text)
    start = _COMMAND_START.match(text)
    if start is not None:
        marker = start.group(2)
        text = f"{start.group(1)}{_escaped(marker[0])}{marker[1:]}{text[start.end():]}"
    return text


def escape_lines(text: str) -> str:
    """Multi-line text entrykit composed with entry data inside: each line escaped on its
    own, the line breaks between them kept (a final newline too)."""
    ending = "\n" if text.endswith("\n") else ""
    body = text[: -1] if ending else text
    return "\n".join(escape(line) for line in body.split("\n")) + ending


def json_safe(encoded: str) -> str:
    """JSON text with the controls `json` leaves raw written as `\\u` escapes: the same
    document to a JSON reader, nothing a terminal obeys."""
    # (an ASCII text can hold only DEL of them: a report of megabytes is mostly ASCII,
    # which `isascii` and `in` tell many times faster than the regex's scan)
    if encoded.isascii():
        if "\x7f" not in encoded:
            return encoded
    elif _UNSAFE_IN_JSON.search(encoded) is None:
        return encoded
    return _UNSAFE_IN_JSON.sub(_json_escaped, encoded)


def _json_escaped(found: re.Match[str]) -> str:
    char = found.group()
    if "\ud800" <= char <= "\udfff":  # no code point: the text `escape` writes, as a JSON string holds it
        return "\\" + _escaped(char)
    return f"\\u{ord(char):04x}"


def dumps(data: Any, **options: Any) -> str:
    """`json.dumps` (UTF-8 text kept readable: `ensure_ascii=False`) made `json_safe`."""
    options.setdefault("ensure_ascii", False)
    return json_safe(json.dumps(data, **options))
