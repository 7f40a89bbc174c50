"""Text normalisation shared by rules that compare human-written phrases."""

from __future__ import annotations

from functools import lru_cache

from entrykit.deferred import deferred
from entrykit.message_tokens import fold

# (run on the first comparison: a warm lint compares no phrases, and needs none of it)
rapidfuzz = deferred("rapidfuzz")

_FINAL = " .!?;:,。！？；：，"  # (once spaces are single, the only space left to strip is " ")


@lru_cache(maxsize=4096)  # a translation is read folded by the copy check, ET305 and ET308
def folded(text: str) -> str:
    """`message_tokens.fold(text)`, remembered: full-width and other compatibility forms
    read as their plain forms."""
    return fold(text)


@lru_cache(maxsize=16384)  # the rules comparing phrases read each dead end and workaround many times
def normalize_phrase(text: str) -> str:
    """Compare phrases the way a reader would: width, case, spacing, final punctuation."""
    return " ".join(folded(text).casefold().split()).rstrip(_FINAL)


def compact_phrase(text: str) -> str:
    """`normalize_phrase(text)` without its spaces: full-width punctuation carries its own
    spacing (`checkpoint：torch`), so a copy is told by its characters alone."""
    # (the spaces `split` drops are those `normalize_phrase` makes single; with none left,
    # the final punctuation it strips is what `_FINAL` strips here)
    return "".join(folded(text).casefold().split()).rstrip(_FINAL)


def phrase_similarity(a: str, b: str) -> float:
    """How alike two phrases read, 0..1: the Indel ratio of their normalised forms.

    A character-level ratio (rapidfuzz `fuzz.ratio`, difflib's measure at C++
    speed), not a token-set score: a short phrase inside a long one does not score 1.
    """
    left, right = normalize_phrase(a), normalize_phrase(b)
    if left == right:
        return 1.0
    if not left or not right:
        return 0.0
    return rapidfuzz.fuzz.ratio(left, right) / 100.0
