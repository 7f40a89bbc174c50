"""Which characters of a text belong to a writing system (ISO 15924 script codes)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import regex

# ISO 15924 codes that name a mix of Unicode scripts, or a variant of one.
_COMPOSITE: dict[str, tuple[str, ...]] = {
    "Hans": ("Hani",),
    "Hant": ("Hani",),
    "Hanb": ("Hani", "Bopo"),
    "Jpan": ("Hani", "Hira", "Kana"),
    "Kore": ("Hang", "Hani"),
    "Jamo": ("Hang",),
    "Latf": ("Latn",),
    "Latg": ("Latn",),
}

# Where a script code's characters include another language's, the ones that show
# a text is written in it: modern Korean is written in Hangul (Han alone is
# Chinese or Japanese).
_DISTINCTIVE: dict[str, tuple[str, ...]] = {"Kore": ("Hang",)}

LATIN = "Latn"


def unicode_scripts(code: str) -> tuple[str, ...]:
    """The Unicode Script values an ISO 15924 code stands for (`Jpan` -> Hani, Hira, Kana)."""
    return _COMPOSITE.get(code, (code,))


def is_latin(code: str) -> bool:
    return unicode_scripts(code) == (LATIN,)


def distinctive_scripts(code: str) -> tuple[str, ...]:
    """The Unicode scripts whose characters show a text is written in `code`."""
    return _DISTINCTIVE.get(code) or unicode_scripts(code)


@lru_cache(maxsize=64)
def _pattern(code: str) -> regex.Pattern[str] | None:
    # The Script property, not Script_Extensions: CJK punctuation such as `，` is
    # Common, so a copied English sentence with Chinese commas has no Han in it.
    import regex  # imported on first use: a run whose cache answers everything never needs it

    classes = "".join(rf"\p{{sc={name}}}" for name in distinctive_scripts(code))
    try:
        return regex.compile(f"[{classes}]")
    except regex.error:
        return None


_ASCII = "".join(map(chr, range(128)))


@lru_cache(maxsize=64)
def outside_ascii(code: str) -> bool:
    """True if no ASCII character shows script `code` (of the scripts it knows, all but
    Common, `Zyyy`, and Latin)."""
    pattern = _pattern(code)
    return pattern is None or pattern.search(_ASCII) is None


def knows(code: str) -> bool:
    """True if characters of this script can be recognised."""
    return _pattern(code) is not None


def count(text: str, code: str) -> int:
    """How many characters of `text` show script `code` (0 if it is unknown)."""
    pattern = _pattern(code)
    return len(pattern.findall(text)) if pattern is not None else 0


def has_script(text: str, code: str) -> bool:
    """True if some character of `text` shows script `code`."""
    pattern = _pattern(code)
    return pattern is not None and pattern.search(text) is not None
