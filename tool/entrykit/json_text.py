"""Indented JSON text, byte for byte as `json.dumps(data, indent=2, ensure_ascii=False)` writes it, made faster.

The standard library writes indented JSON with its Python encoder (its C encoder only
writes without `indent`), a generator call per value: most of the time of a large SARIF
report. Here the same text is built by one walk that encodes strings with the C string
encoder. Only what reports hold is walked (dicts with string keys, lists, strings,
ints, bools, None); anything else goes to `json.dumps` whole, so the text is always
what `json.dumps` gives."""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

_CONSTANTS = {None: "null", True: "true", False: "false"}


class _Other(Exception):
    """A value `_walk` does not write: `json.dumps` writes the document."""


def indented(data: Any) -> str:
    """`json.dumps(data, indent=2, ensure_ascii=False)`."""
    parts: list[str] = []
    try:
        _walk(data, "\n", parts)
    except (_Other, RecursionError):
        return json.dumps(data, indent=2, ensure_ascii=False)
    return "".join(parts)


def _walk(value: Any, newline: str, parts: list[str]) -> None:
    """Append `value`'s text at the indentation `newline` ends with."""
    kind = type(value)
    if kind is str:
        parts.append(encode_basestring(value))
    elif kind is dict:
        if not value:
            parts.append("{}")
            return
        inner = newline + "  "
        separator = "{" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _Other  # (json writes other keys as strings of its own making)
            parts.append(separator + encode_basestring(key) + ": ")
            _walk(item, inner, parts)
            separator = "," + inner
        parts.append(newline + "}")
    elif kind is list:
        if not value:
            parts.append("[]")
            return
        inner = newline + "  "
        separator = "[" + inner
        for item in value:
            parts.append(separator)
            _walk(item, inner, parts)
            separator = "," + inner
        parts.append(newline + "]")
    elif kind is int:
        parts.append(int.__repr__(value))
    elif value is None or kind is bool:
        parts.append(_CONSTANTS[value])
    else:
        raise _Other
