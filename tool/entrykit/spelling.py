"""A "did you mean" hint for a name that is none of the known names (entry keys, settings)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

# Names of one entry that get a "did you mean" (unknown keys for ET101, invalid locales for
# ET306): each hint compares the name with every name it could mean, so an entry of thousands
# of unknown names paid that thousands of times; the names after these are reported without one.
HINTED_PER_ENTRY = 32

# difflib's ratio: `firstseen`/`first_seen` 0.95, `verison`/`version` 0.86, `since`/`introduced` 0.53;
# below 0.75 a suggestion is more often wrong than helpful.
_CUTOFF = 0.75


def _folded(name: str) -> str:
    """Case and `-`/`_`/space differences do not count against a name."""
    return name.casefold().replace("-", "_").replace(" ", "_")


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name `name` most likely misspells, or None when none is close.

    Deterministic: difflib's ratio, ties broken by the name's order in sorted `known`.
    """
    by_folded: dict[str, str] = {}
    for candidate in sorted(set(known)):
        by_folded.setdefault(_folded(candidate), candidate)
    wanted = _folded(name)
    if wanted in by_folded:
        return by_folded[wanted]
    found = difflib.get_close_matches(wanted, list(by_folded), n=1, cutoff=_CUTOFF)
    return by_folded[found[0]] if found else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`; did you mean `x`?` to append to a message, or "" when no known name is close."""
    found = closest(name, known)
    return f"; did you mean `{found}`?" if found is not None and found != name else ""
