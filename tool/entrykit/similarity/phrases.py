"""Text normalisation shared by rules that compare human-written phrases."""

from __future__ import annotations

import re
import unicodedata

from rapidfuzz import fuzz

_SPACE = re.compile(r"\s+")
_TRAILING = re.compile(r"[\s.!?;:,。！？；：，]+$")


def normalize_phrase(text: str) -> str:
    """Compare phrases the way a reader would: width, case, spacing, final punctuation."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _TRAILING.sub("", _SPACE.sub(" ", text).strip())


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
    return fuzz.ratio(left, right) / 100.0
