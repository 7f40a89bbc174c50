"""How much a literal tells, in Latin letters' worth, whatever its writing system.

One character of a script says about log2(characters in common use) bits; dividing by
log2(26) (a Latin letter) gives a weight in *letters*, so one threshold is fair
across scripts: a CJK ideograph (about 3,500 in common use) weighs 2.5 letters, as
much as a short word; a Hangul syllable (the 2,350 of KS X 1001) 2.4; a kana (about
70 with the voiced forms) 1.3; a letter of an alphabet (Latin, Cyrillic, Greek,
Arabic ...) 1; a digit 0.7. Punctuation and symbols weigh 0.5 and whitespace 0.25:
they are frequent and follow from the words around them.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from entrykit.regex.literal_index import Query

# in hundredths of a letter: sums stay exact, so a threshold decides the same everywhere
IDEOGRAPH, HANGUL, KANA, LETTER, DIGIT, PUNCTUATION, SPACE = 250, 240, 130, 100, 70, 50, 25

# (first, last, weight): blocks whose characters carry more than a letter each
_BLOCKS = (
    (0x3040, 0x30FF, KANA),  # Hiragana, Katakana
    (0x31F0, 0x31FF, KANA),  # Katakana phonetic extensions
    (0xFF66, 0xFF9D, KANA),  # half-width Katakana
    (0x3400, 0x4DBF, IDEOGRAPH),  # CJK extension A
    (0x4E00, 0x9FFF, IDEOGRAPH),  # CJK unified ideographs
    (0xF900, 0xFAFF, IDEOGRAPH),  # CJK compatibility ideographs
    (0x20000, 0x3FFFF, IDEOGRAPH),  # CJK extensions B and later
    (0xAC00, 0xD7A3, HANGUL),  # Hangul syllables
)


@lru_cache(maxsize=4096)
def _hundredths(char: str) -> int:
    code = ord(char)
    for first, last, value in _BLOCKS:
        if first <= code <= last:
            return value
    category = unicodedata.category(char)
    if category[0] == "L":
        return LETTER
    if category == "Nd":
        return DIGIT
    if category[0] == "Z" or char.isspace():
        return SPACE
    return PUNCTUATION


def weight(char: str) -> float:
    """What one character tells, in Latin letters' worth."""
    return _hundredths(char) / 100


def information(text: str) -> float:
    """What `text` tells, in Latin letters' worth (the sum of its characters' weights)."""
    return sum(map(_hundredths, text)) / 100  # (the same sum: no generator frame per character)


def least_information(query: Query) -> tuple[float, str | None]:
    """What every match of a literal query is sure to contain: the weight of the most telling
    literal it must hold, in its least telling alternative, and that literal (None: none).

    Literals a match must hold together do not add up: `.*` between them lets each occur
    anywhere in a long log, so short ones meet by chance."""
    if query is None:
        return 0.0, None
    if isinstance(query, str):
        return information(query), query
    parts = [least_information(part) for part in query[1]]
    if query[0] == "and":
        return max(parts, key=lambda part: part[0])
    return min(parts, key=lambda part: part[0])
