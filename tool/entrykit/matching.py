"""Compile entry regexes and run them the way lookups do (flags and match mode from config)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

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
    return value


@lru_cache(maxsize=65536)
def compile_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """Compile once per (pattern, flags) per process; raises re.error and friends."""
    return re.compile(pattern, flags)


def compile_error(pattern: str, flags: int = 0) -> str | None:
    """Why `pattern` does not compile, or None if it does."""
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
