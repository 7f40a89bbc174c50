"""fnmatch globs a pull request may write: spelt so fnmatch reads them in linear time, and matched as sets."""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

_WILDCARDS = re.compile(r"[*?\[]")
# The most globs one setting may hold (`per-file-ignores`, `dupes.allow`): a set's one regex
# tries each glob at each place of a path or id, and a mask tries each glob in Python once
# some glob matches, so a setting a pull request writes costs at most this many per file.
GLOBS_LIMIT = 1024


@lru_cache(maxsize=1024)
def linear_glob(pattern: str) -> str:
    """The same fnmatch glob with each `[` that fnmatch reads as a plain `[` written `[[]`.

    fnmatch looks for the `]` closing a `[` from the `[` to the end of the pattern, again for
    each `[` it finds unclosed: quadratic (a glob of 24,000 `[` took 16 s). `[[]` matches
    just what that `[` matched, and closes at once."""
    last_close = pattern.rfind("]")
    out: list[str] = []
    at = 0
    while at < len(pattern):
        bracket = pattern.find("[", at)
        if bracket < 0:
            out.append(pattern[at:])
            break
        out.append(pattern[at:bracket])
        first = _class_first_search(pattern, bracket + 1)
        if first > last_close:  # no `]` from there on: fnmatch reads a plain `[`
            out.append("[[]")
            at = bracket + 1
        else:
            close = pattern.index("]", first)
            out.append(pattern[bracket : close + 1])
            at = close + 1
    return "".join(out)


def _class_first_search(pattern: str, start: int) -> int:
    """Where fnmatch starts looking for a class's `]` (past a leading `!`, then a leading `]`)."""
    if start < len(pattern) and pattern[start] == "!":
        start += 1
    if start < len(pattern) and pattern[start] == "]":
        start += 1
    return start


class GlobSet:
    """Many globs matched as fnmatch matches each, compiled once for as long as the set lives.

    fnmatch compiles a glob again unless it is among the last 32,768 it compiled, so a
    configuration with more globs than that (from a pull request) made every match compile
    all of them anew: 40,000 per-file-ignores took a lint of 2,500 entries past five
    minutes. Here a glob without wildcards is looked up, and the others are tried first as
    one regex, at `re`'s speed: a text that no glob matches costs one match. `paths`
    compares as `fnmatch.fnmatch` does (`os.path.normcase` on both sides), else as
    `fnmatchcase`. Compiled when first asked, so a set that is copied or never asked costs
    only its globs."""

    def __init__(self, globs: Iterable[str], *, paths: bool = False) -> None:
        self.globs = tuple(globs)
        self.paths = paths
        self._exact: dict[str, list[int]] | None = None  # glob -> its indices
        self._wild: list[tuple[int, str]] = []  # (index, regex source) of each glob with wildcards
        self._any_wild: Callable[[str], Any] | None = None  # all of them as one regex
        self._each_wild: list[tuple[int, Callable[[str], Any]]] | None = None  # each alone
        self._masks: dict[str, int] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        return (GlobSet, (self.globs,), {"paths": self.paths})

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.paths = state["paths"]

    def matches_any(self, text: str) -> bool:
        """Whether some glob of the set matches `text`."""
        exact = self._compile()
        text = self._case(text)
        return text in exact or (self._any_wild is not None and self._any_wild(text) is not None)

    def mask(self, text: str) -> int:
        """The globs that match `text`, as bits (bit i: `globs[i]`), kept per text.

        For sets of at most `GLOBS_LIMIT` globs: a text matched by some glob with
        wildcards is tried against each of them."""
        known = self._masks.get(text)
        if known is None:
            known = self._masks[text] = self._mask(text)
        return known

    def _mask(self, text: str) -> int:
        exact = self._compile()
        text = self._case(text)
        bits = 0
        for index in exact.get(text, ()):
            bits |= 1 << index
        if self._any_wild is None or self._any_wild(text) is None:
            return bits
        if self._each_wild is None:  # (only once some text is matched by a glob with wildcards)
            self._each_wild = [(index, re.compile(source).match) for index, source in self._wild]
        for index, match in self._each_wild:
            if match(text) is not None:
                bits |= 1 << index
        return bits

    def _case(self, text: str) -> str:
        return os.path.normcase(text) if self.paths else text

    def _compile(self) -> dict[str, list[int]]:
        """The globs without wildcards, by text; the others compiled as one regex (once)."""
        if self._exact is None:
            exact: dict[str, list[int]] = {}
            for index, glob in enumerate(self.globs):
                glob = self._case(glob)
                if _WILDCARDS.search(glob) is None:
                    exact.setdefault(glob, []).append(index)
                else:
                    self._wild.append((index, fnmatch.translate(linear_glob(glob))))
            if self._wild:
                # (each source is whole, `(?s:...)\Z`: joined by `|`, the text matches one of them)
                self._any_wild = re.compile("|".join(source for _, source in self._wild)).match
            self._exact = exact
        return self._exact
