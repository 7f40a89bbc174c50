"""Text normalisation shared by rules that compare human-written phrases."""

from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"\s+")
_TRAILING = re.compile(r"[\s.!?;:,。！？；：，]+$")


def normalize_phrase(text: str) -> str:
    """Compare phrases the way a reader would: width, case, spacing, final punctuation."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _TRAILING.sub("", _SPACE.sub(" ", text).strip())
