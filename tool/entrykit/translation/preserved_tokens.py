"""Preserved tokens: the parts of a text that a translation must keep verbatim.

`extract(text)` finds them with the one grammar of message tokens
(`entrykit.message_tokens`): URLs, e-mail addresses, backticked code, quoted
literals, paths, git refs, variables, CLI flags, tensor shapes, hex ids,
addresses, versions, numbers, called and dotted identifiers, other identifiers
(snake case, letters with digits), class and exception names, and acronyms.
A quoted text is kept whole when it is a name or value without spaces; one with
spaces (or one capitalised word) holds words a translator may translate, so the
tokens inside it are read instead. `contains(translation, token)` tells whether a
translation kept one, reading full-width punctuation (`（`, `，`, `［`) as its
ASCII form and allowing spaces to move around punctuation; `lost(source,
translation)` lists those it did not keep. `has_words(text)` tells whether
anything besides tokens is left to translate.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

from entrykit import message_tokens as mt
from entrykit.frozen import made_frozen
from entrykit.similarity.phrases import folded

URL = mt.URL
EMAIL = mt.EMAIL
CODE = mt.CODE  # `backticked`
QUOTED = mt.QUOTED
PATH = mt.PATH
REF = mt.REF
VARIABLE = mt.VARIABLE
FLAG = mt.FLAG
SHAPE = mt.SHAPE
HEX = mt.HEX
ADDRESS = mt.ADDRESS
VERSION = mt.VERSION
POSITION = mt.POSITION
QUANTITY = mt.QUANTITY  # kept as its number: units are the translation's to write
NUMBER = mt.NUMBER
CALL = mt.CALL
DOTTED = mt.DOTTED
IDENTIFIER = mt.IDENTIFIER  # snake_case, letters with digits
CLASS = mt.CLASS  # classes and exceptions: RuntimeError
COMPOUND = mt.COMPOUND  # other CamelCase words: StateFile, PyTorch
ACRONYM = mt.ACRONYM
METAVAR = mt.METAVAR  # `-W PAGE_WIDTH`
PROGRAM = mt.PROGRAM  # `grep: `

KINDS: tuple[str, ...] = (
    URL, EMAIL, CODE, QUOTED, PATH, REF, VARIABLE, FLAG, SHAPE, HEX, ADDRESS, VERSION, POSITION,
    QUANTITY, NUMBER, CALL, DOTTED, IDENTIFIER, CLASS, COMPOUND, ACRONYM, METAVAR, PROGRAM,
)
# What a translation must keep unless configured otherwise: code and data. Words in
# capitals (`ID`, `EOF`, `CPU`), CamelCase words that name a concept (`StateFile`),
# a flag's placeholder (`PAGE_WIDTH`) and the `name: ` a message starts with (`bug: `,
# `completion: `) are words a translator may translate.
DEFAULT_KINDS: tuple[str, ...] = tuple(k for k in KINDS if k not in (COMPOUND, ACRONYM, METAVAR))
# Kinds whose digits may touch letters in a translation (`16GB`, `rank2`).
_NUMBERS = frozenset({NUMBER, QUANTITY})

SHOUTED_WORDS = mt.SHOUTED_WORDS


@dataclass(frozen=True)
class Token:
    """A preserved token: its kind, the text a translation must keep, its span in the source."""

    kind: str
    text: str
    start: int
    end: int


_NAME = re.compile(r"[A-Z][a-z]+")


def kept_whole(content: str) -> bool:
    """A quoted text a translation keeps as it is: a name or value with no space in it
    (`'gpg-agent'`, `'model.fc.weight'`, `` `main' ``), not one capitalised word. A
    quoted text with spaces holds words a translator may translate (`'help name'`),
    so what a translation must keep of it are the tokens inside."""
    # (`split` knows the spaces `isspace` knows: a text without any is its one piece)
    return content.split() == [content] and not _NAME.fullmatch(content)


def _read_inside(token: mt.Token) -> bool:
    return token.kind == QUOTED and not kept_whole(token.value)


# Kinds a translation keeps the value of (a quoted text's content, a quantity's number ...).
_VALUE_KINDS = frozenset({QUOTED, CODE, ACRONYM, QUANTITY, IDENTIFIER})


def _preserved(tokens: Iterable[mt.Token], out: list[Token]) -> None:
    """Add the preserved tokens of `tokens` to `out`, in order, a quoted text that holds
    words replaced by the tokens inside (as `message_tokens.walk` reads them)."""
    for token in tokens:
        kind = token.kind
        if token.quote and kind == QUOTED and not kept_whole(token.value):
            _preserved(token.inner, out)
            continue
        text = (token.value.strip() if kind == CODE else token.value) if kind in _VALUE_KINDS else token.text
        if text:
            out.append(_made_token(kind, text, token.start, token.end))


def _made_token(kind: str, text: str, start: int, end: int) -> Token:
    """`Token(kind, text, start, end)`, its fields set at once (every source of every
    translation is read for its tokens)."""
    return made_frozen(Token, {"kind": kind, "text": text, "start": start, "end": end})


def extract(text: str) -> list[Token]:
    """The preserved tokens of `text`, in order, without overlaps."""
    return list(_extract(text))


@lru_cache(maxsize=4096)
def _extract(text: str) -> tuple[Token, ...]:
    # Several rules ask for the tokens of the same source strings.
    out: list[Token] = []
    _preserved(mt.scan(text), out)
    return tuple(out)


fold = mt.fold


# ASCII word characters: a set, since every token's check asks about the characters around it.
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _is_word_char(char: str) -> bool:
    return char in _WORD_CHARS


@lru_cache(maxsize=4096)
def _matcher(kind: str, text: str) -> re.Pattern[str]:
    text = fold(text)
    pieces: list[str] = []
    for index, char in enumerate(text):
        if char.isspace():
            if not pieces or pieces[-1] != r"\s*":
                pieces.append(r"\s*")
            continue
        if index and not text[index - 1].isspace():
            before = text[index - 1]
            if not (_is_word_char(before) and _is_word_char(char)):
                pieces.append(r"\s*")  # `[100, 256]` == `[100,256]`, `f( x )` == `f(x)`
        pieces.append(re.escape(char))
    body = "".join(pieces)
    if kind in _NUMBERS and "," in text:
        # Digit grouping is the translation's to choose: 10,000 == 10000 == 10 000.
        body = r"[,.\s\u00a0'’]?".join(text.split(","))
    if kind in _NUMBERS or kind == POSITION:
        # Units and words may touch a number (`16GB`, `rank2`, `0:0x1f`); other digits may not.
        return re.compile(rf"(?<![0-9])(?<![0-9]\.){body}(?![0-9])(?!\.[0-9])")
    head = r"(?<![A-Za-z0-9_])" if _is_word_char(text[0]) else ""
    tail = r"(?![A-Za-z0-9_])" if _is_word_char(text[-1]) else ""
    if _plural_free(kind, text):
        tail = r"s?" + tail  # `APIs` keeps `API`
    return re.compile(head + body + tail)


def _plural_free(kind: str, text: str) -> bool:
    """A name in capitals may keep or lose the plural `s` (`APIs` -> `API`, `N_RBRACs`)."""
    return kind == ACRONYM or (kind == IDENTIFIER and text[-1:].isupper())


def contains(translation: str, token: Token) -> bool:
    """True if `translation` keeps `token` (full-width punctuation and spacing aside)."""
    return _kept(fold(translation), token)


# Small numbers a translation may write as Han numerals: `version 3` -> `第三版`.
_HAN_NUMERALS = {
    "0": "〇零", "1": "一", "2": "二两", "3": "三", "4": "四", "5": "五", "6": "六", "7": "七", "8": "八", "9": "九",
    "10": "十",
}


def _as_word(folded: str, token: Token) -> bool:
    return token.kind == NUMBER and any(n in folded for n in _HAN_NUMERALS.get(token.text, ""))


_WORD_RUN = re.compile(r"[^A-Za-z0-9_]+")


@lru_cache(maxsize=4096)
def _literal(text: str) -> tuple[str, tuple[str, ...], bool]:
    """The folded token, its runs of ASCII word characters (which any match spells
    verbatim), and whether it is one such run."""
    folded = text if text.isascii() else fold(text)  # (NFKC leaves ASCII as it is)
    runs = tuple(filter(None, _WORD_RUN.split(folded)))
    return folded, runs, len(runs) == 1 and runs[0] == folded


# A word boundary of the ASCII word characters (`_WORD_CHARS`).
_BOUNDARY = re.compile(r"\b", re.ASCII)


def _verbatim(haystack: str, needle: str) -> bool:
    """`needle` occurs in `haystack` where no word character continues a word it starts or ends.

    Both are searched with a marker at each word boundary (`_marked`): an occurrence of the
    marked needle is an occurrence whose ends fall where the needle's word characters need
    a boundary. One search, not one per occurrence of the needle (each compared whole:
    quadratic on a long token that occurs overlapping, `a1a1…` in `a1a1a1…`). The first
    occurrence is looked at first: it is the one found in most translations."""
    start = haystack.find(needle)
    if start < 0:
        return False
    end, words = start + len(needle), _WORD_CHARS
    if (needle[0] not in words or start == 0 or haystack[start - 1] not in words) and (
        needle[-1] not in words or end == len(haystack) or haystack[end] not in words
    ):
        return True  # no word character continues a word the first occurrence starts or ends
    marker, marked = _marked(haystack)
    return marker not in needle and _BOUNDARY.sub(marker, needle) in marked


@lru_cache(maxsize=16)  # (every token of a source is looked for in the same translation)
def _marked(haystack: str) -> tuple[str, str]:
    """A character `haystack` does not hold, and `haystack` with it at each word boundary."""
    held = set(haystack)
    # (of len(held) + 1 private-use characters, one is not held)
    marker = next(chr(0xE000 + n) for n in range(len(held) + 1) if chr(0xE000 + n) not in held)
    return marker, _BOUNDARY.sub(marker, haystack)


def _kept(folded: str, token: Token, budget: list[int] | None = None) -> bool:
    """`contains` for a translation already folded. The matcher is compiled only when
    plain substring checks cannot decide: every word run must occur (else no match),
    and a verbatim occurrence between word boundaries is a match. With `budget`, the
    checks that may compare the token at each place of the translation (the matcher's
    search, a number's occurrences) are paid from it; one it cannot pay counts as kept."""
    text, runs, one_word = _literal(token.text)
    if not text:
        return not _affordable(budget, token.text, folded) or _matcher(token.kind, token.text).search(folded) is not None
    for run in runs:
        if run not in folded:
            return False
    if token.kind not in _NUMBERS:
        if _verbatim(folded, text):
            return True
        if one_word and not _plural_free(token.kind, token.text):
            return False
    elif _NUMERAL.fullmatch(text):
        if not _affordable(budget, text, folded):
            return True
        if _number_verbatim(folded, text):
            return True
    return not _affordable(budget, token.text, folded) or _matcher(token.kind, token.text).search(folded) is not None


def _affordable(budget: list[int] | None, token: str, folded: str) -> bool:
    """Whether `budget` pays for comparing `token` at each place of `folded` (and pays it)."""
    if budget is None:
        return True
    budget[0] -= (len(token) + 1) * (len(folded) + 1)
    return budget[0] >= 0


_NUMERAL = re.compile(r"[0-9][0-9.,]*")


def _number_verbatim(haystack: str, needle: str) -> bool:
    """`needle` (digits, dots and commas) occurs in `haystack` where the number matcher
    takes it: no digit, nor a digit and a dot, on either side. Its pattern spells the
    number's characters with optional spaces or separators between them, so such an
    occurrence is a match, found without compiling the pattern."""
    start = haystack.find(needle)
    while start >= 0:
        end = start + len(needle)
        before, after = haystack[max(0, start - 2) : start], haystack[end : end + 2]
        if not (
            before[-1:].isdigit() and before[-1:].isascii()
            or (before[-1:] == "." and before[:1].isdigit() and before[:1].isascii())
            or (after[:1].isdigit() and after[:1].isascii())
            or (after[:1] == "." and after[1:2].isdigit() and after[1:2].isascii())
        ):
            return True
        start = haystack.find(needle, start + 1)
    return False


# What `missing` may spend on one translation: each token's substring checks cost the
# translation's length, and the checks that can compare the token at each place of it (the
# matcher's search, a number's occurrences) the token's length times the translation's.
# Thousands of long tokens against a long translation of near misses took minutes; the
# generated corpora would spend at most 15,000 even if every token were charged the product.
# A token whose check the budget cannot pay, and every token after it is spent, counts as kept.
CHECK_BUDGET = 1 << 28


def missing(tokens: Iterable[Token], translation: str) -> list[Token]:
    """The tokens `translation` does not keep, each text once, in order (within `CHECK_BUDGET`)."""
    seen: set[str] = set()
    out: list[Token] = []
    text = folded(translation)
    budget = [CHECK_BUDGET]
    for token in tokens:
        if token.text in seen:
            continue
        seen.add(token.text)
        budget[0] -= len(text) + 1  # (its substring checks: each reads the translation)
        if budget[0] < 0:
            break
        if not _kept(text, token, budget) and not _as_word(text, token):
            out.append(token)
    return out


def lost(source: str, translation: str, kinds: Collection[str] | None = None) -> list[Token]:
    """Tokens of `source` (of the given kinds, default all) that `translation` lost."""
    found = _extract(source)
    return missing(found if kinds is None else [t for t in found if t.kind in kinds], translation)


def strip(text: str, tokens: Iterable[Token] | None = None) -> str:
    """`text` with its tokens blanked out (each replaced by one space)."""
    return _stripped(text) if tokens is None else _strip(text, tokens)


@lru_cache(maxsize=4096)
def _stripped(text: str) -> str:
    # The translation rules ask several times per text (script, copy, letters, kana).
    return _strip(text, _extract(text))


def strip_outside_ascii(text: str) -> str:
    """A text whose characters outside ASCII are those of `strip(text)`, in order: `text`
    itself where no token of it can hold one (`message_tokens.ascii_tokens`). The checks
    of a translation's script and letters read no others, so most translations need no
    scan for them."""
    return text if mt.ascii_tokens(text) else _stripped(text)


_start = attrgetter("start")


def _strip(text: str, tokens: Iterable[Token]) -> str:
    pieces: list[str] = []
    position = 0
    for token in sorted(tokens, key=_start):
        if token.start < position:
            continue
        pieces.append(text[position : token.start])
        pieces.append(" ")
        position = token.end
    pieces.append(text[position:])
    return "".join(pieces)


_WORD = re.compile(r"[^\W\d_]{2,}|[^\W\d_A-Za-z]")


@lru_cache(maxsize=4096)
def has_words(text: str) -> bool:
    """True if `text` holds something to translate besides tokens: a word of two
    letters, or any letter outside ASCII (one Han character is a word)."""
    # What `strip(text)` leaves between the spaces it puts for tokens, read where it
    # lies in `text` (`_WORD` looks at nothing around a match), without making it.
    position = 0
    for token in _extract(text):  # (in order)
        if token.start < position:
            continue  # (as `strip` skips it)
        if _WORD.search(text, position, token.start) is not None:
            return True
        position = token.end
    return _WORD.search(text, position) is not None
