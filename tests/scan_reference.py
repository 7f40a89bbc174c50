"""The message-token scan as a plain merge, the reference the scanner's tests compare it with."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from entrykit import message_tokens as mt


def plain_merge(
    message: str,
    regexes: Sequence[re.Pattern[str]],
    accepts: Sequence[Callable[[re.Match[str]], mt.Token | None]],
    searched: Sequence[bool],
) -> tuple[mt.Token, ...]:
    """Each pattern marked `searched` is searched; the leftmost next match (the grammar's
    first at a tie) is taken as a token or passed; the matches a token overlaps move past it."""
    found: list[mt.Token] = []
    nexts = [regex.search(message) if wanted else None for regex, wanted in zip(regexes, searched, strict=True)]
    while True:
        best, match = -1, None
        for index, candidate in enumerate(nexts):
            if candidate is not None and (match is None or candidate.start() < match.start()):
                best, match = index, candidate
        if match is None:
            break
        token = accepts[best](match)
        if token is None:
            nexts[best] = regexes[best].search(message, match.start() + 1)
            continue
        found.append(token)
        for index, other in enumerate(nexts):
            if other is not None and other.start() < token.end:
                nexts[index] = regexes[index].search(message, token.end)
    return tuple(found)
