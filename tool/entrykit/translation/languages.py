"""Which language a text is in, beyond its script: the letters a language never uses.

A script is shared by languages (Han by Chinese and Japanese; Cyrillic by
Russian, Ukrainian, Belarusian, Bulgarian, Serbian, Macedonian), and what tells
them apart is letters one of them writes and another never does:

- Japanese writes the Han characters of its national character set, JIS X 0213
  (Python's `euc_jis_2004` codec): a Han character outside it (`们`, `这`,
  `说`: simplified Chinese) is not Japanese. And Japanese writes kana: a text of
  `KANA_FREE_HAN_LIMIT` Han characters or more without one is Chinese (the
  longest without kana among the 3,827 messages of the Japanese catalogs of
  apt, dpkg, bash, grep, findutils, diffutils and binutils has 7).
- Chinese writes no kana: a hiragana or katakana letter is Japanese.
- A Cyrillic language writes the letters of its alphabet: CLDR's standard
  exemplar characters (the same as ICU 72's, `benchmarks/language_letters.py`),
  and for Bulgarian and Macedonian also `ѐ ѝ` from CLDR's auxiliary set, which
  real Bulgarian translations write. Not the whole auxiliary set: Ukrainian's
  lists `ъ ы э ё` for Russian names, the very letters that tell the two apart.
  So `і ї є ґ` are Ukrainian, not Russian; `ы э ё ъ` Russian, not Ukrainian;
  `ђ ј љ њ ћ џ` Serbian, not Bulgarian.

Other languages are not checked here: their script alone is (`writing_systems`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# The lowercase letters of each Cyrillic alphabet (see the module's docstring): a
# letter of the script outside it is another language's.
CYRILLIC_ALPHABETS: dict[str, str] = {
    "ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "uk": "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",
    "be": "абвгдеёжзійклмнопрстуўфхцчшыьэюя",
    "bg": "абвгдежзийклмнопрстуфхцчшщъьюяѐѝ",
    "sr": "абвгдђежзијклљмнњопрстћуфхцчџш",
    "mk": "абвгдѓежзѕијклљмнњопрстќуфхцчџшѐѝ",
}
# Languages whose Han characters are told by a national character set.
_HAN_CHARSETS = {"ja": "euc_jis_2004"}
# Languages written in Han without kana.
_NO_KANA = frozenset({"zh", "yue"})
# Languages written with kana, and from how many Han characters a text without it is not theirs.
_WITH_KANA = frozenset({"ja"})
KANA_FREE_HAN_LIMIT = 10
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _is_cyrillic(char: str) -> bool:
    return "\u0400" <= char <= "\u052f"


# Hiragana, katakana (and its phonetic extensions), half-width katakana.
_KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9d]")


def _is_kana(char: str) -> bool:
    return _KANA.match(char) is not None


def _is_han(char: str) -> bool:
    return unicodedata.name(char, "").startswith("CJK UNIFIED IDEOGRAPH")


@lru_cache(maxsize=8192)
def _outside_charset(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return True
    return False


def knows(language: str) -> bool:
    """True if the letters `language` never uses are known here."""
    return language in CYRILLIC_ALPHABETS or language in _HAN_CHARSETS or language in _NO_KANA


def lacks_kana(text: str, language: str) -> int:
    """How many Han characters `text` has without a kana, for a language written with
    kana, when that is `KANA_FREE_HAN_LIMIT` or more; else 0."""
    if language not in _WITH_KANA:
        return 0
    if _KANA.search(text):
        return 0
    count = sum(1 for c in _NON_ASCII.findall(text) if _is_han(c))  # no ASCII character is Han
    return count if count >= KANA_FREE_HAN_LIMIT else 0


def foreign_letters(text: str, language: str) -> list[str]:
    """The letters of `text` that `language` does not write, each once, in order."""
    found: list[str] = []
    alphabet = CYRILLIC_ALPHABETS.get(language)
    charset = _HAN_CHARSETS.get(language)
    if alphabet is None and charset is None:
        # Only kana can be foreign here (`_foreign`): one search finds it, not a test per letter.
        return list(dict.fromkeys(_KANA.findall(text))) if language in _NO_KANA else []
    # Each character once, in the order it first appears; no ASCII character is foreign.
    for char in dict.fromkeys(_NON_ASCII.findall(text)):
        if _foreign(char, language, alphabet, charset):
            found.append(char)
    return found


def _foreign(char: str, language: str, alphabet: str | None, charset: str | None) -> bool:
    if alphabet is not None and _is_cyrillic(char):
        return char.lower() not in alphabet
    if charset is not None and _is_han(char):
        return _outside_charset(char, charset)
    return language in _NO_KANA and _is_kana(char)
