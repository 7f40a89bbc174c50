"""JSON Pointer (RFC 6901) building, splitting and resolving."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def join(*tokens: str | int) -> str:
    """Build a pointer from path tokens: join("a", 0) == "/a/0"."""
    return "".join("/" + escape(t) for t in tokens)


def from_path(tokens: Iterable[str | int]) -> str:
    return join(*tokens)


def child(pointer: str, token: str | int) -> str:
    return pointer + "/" + escape(token)


def split(pointer: str) -> list[str]:
    if not pointer:
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [unescape(t) for t in pointer[1:].split("/")]


def parent(pointer: str) -> str:
    return pointer.rsplit("/", 1)[0] if pointer else ""


_MISSING = object()


def resolve(data: Any, pointer: str, default: Any = _MISSING) -> Any:
    """The value at `pointer` in `data`; `default` (or KeyError) when absent."""
    node = data
    for token in split(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            if default is _MISSING:
                raise KeyError(pointer)
            return default
    return node
