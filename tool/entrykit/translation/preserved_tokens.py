"""Preserved tokens: the parts of a text that a translation must keep verbatim.

`extract(text)` finds them: URLs, backticked code, quoted literals, paths, CLI
flags, tensor shapes, called and dotted identifiers, other identifiers (snake
case, letters with digits), class and exception names, acronyms and numbers.
`contains(translation, token)` tells whether a translation kept one, reading
full-width punctuation (`（`, `，`, `［`) as its ASCII form and allowing spaces
to move around punctuation; `lost(source, translation)` lists those it did not
keep. `has_words(text)` tells whether anything besides tokens is left to
translate.

Tokens are ASCII (identifiers, numbers, paths): they are found in English and
in CJK text alike, where no space separates them from the words around them.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache

URL = "url"
CODE = "code"  # `backticked`
QUOTED = "quoted"
PATH = "path"
FLAG = "flag"
SHAPE = "shape"
CALL = "call"
DOTTED = "dotted"
IDENTIFIER = "identifier"  # snake_case, letters with digits
CLASS = "class"  # CamelCase: classes and exceptions
ACRONYM = "acronym"
NUMBER = "number"

KINDS: tuple[str, ...] = (
    URL, CODE, QUOTED, PATH, FLAG, SHAPE, CALL, DOTTED, IDENTIFIER, CLASS, ACRONYM, NUMBER
)


@dataclass(frozen=True)
class Token:
    """A preserved token: its kind, the text a translation must keep, its span in the source."""

    kind: str
    text: str
    start: int
    end: int


# Words written in capitals that are English, not names: a translation translates them.
SHOUTED_WORDS = frozenset(
    """
    ERROR ERRORS WARNING WARNINGS WARN FATAL INFO DEBUG NOTE HINT TIP CRITICAL FAILED FAIL
    FAILURE SUCCESS OK NOT AND OR NO YES IMPORTANT DEPRECATED DEPRECATION CAUTION DANGER
    ALL ANY NONE THE TO IN OF ON IS IT DO DONT NEVER ALWAYS MUST
    """.split()  # noqa: SIM905
)

_ASCII_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_URL_CHAR = r"(?:(?![<>\"'`])[\x21-\x7e])"
_TRAILING = ".,;:!?"


def _trim(text: str) -> str:
    """Drop sentence punctuation and unbalanced closing brackets from a token's end."""
    while text:
        last = text[-1]
        if last in _TRAILING or last in ")]}" and text.count(last) > text.count({")": "(", "]": "[", "}": "{"}[last]):
            text = text[:-1]
        else:
            break
    return text


_PHRASE = re.compile(r"[^\W\d_]+(?:[\s'’,/-]+[^\W\d_]+)+[.,!?;:]?")
_NAME = re.compile(r"[A-Z][a-z]+")


def _quoted(content: str) -> str | None:
    """A quoted literal is kept, unless it is prose: a phrase of plain words, or one
    capitalised word (`'Taiwan'`, `'Spanish'`), which translations translate."""
    if not content or content != content.strip():
        return None
    if _PHRASE.fullmatch(content) or _NAME.fullmatch(content):
        return None
    return content


def _relative_path(text: str) -> str | None:
    """`src/main.py`, `pytorch/fsdp-param-mismatch`, `dist-packages/torch`; not
    `and/or`, `input/output/error`, `EU/EEA/Swiss` or `24/7`: words and numbers."""
    text = _trim(text)
    segments = [s for s in text.split("/") if s]
    if len(segments) < 2 or all(s.isdigit() for s in segments):
        return None
    looks_like_file = bool(re.search(r"\.[A-Za-z0-9]{1,8}$", segments[-1]))
    marked = any(re.search(r"[._]", s) for s in segments)
    hyphenated = text == text.lower() and any("-" in s for s in segments)
    return text if looks_like_file or marked or hyphenated else None


def _call(text: str) -> str | None:
    return text


def _dotted(text: str) -> str | None:
    parts = text.split(".")
    if all(len(p) <= 1 for p in parts):  # e.g, i.e, a.m
        return None
    return text


def _identifier_kind(word: str) -> str | None:
    letters = [c for c in word if c.isalpha()]
    if not letters:
        return None
    if "_" in word.strip("_") or word.startswith("__"):
        return IDENTIFIER
    if any(c.isdigit() for c in word):
        return IDENTIFIER
    has_lower = any(c.islower() for c in letters)
    if has_lower and any(c.isupper() for c in word[1:]):
        return CLASS
    if not has_lower and len(letters) >= 2 and word.strip("_") not in SHOUTED_WORDS:
        return ACRONYM
    return None


@dataclass(frozen=True)
class _Pattern:
    kind: str
    regex: re.Pattern[str]
    accept: Callable[[re.Match[str]], tuple[str, str] | None]


def _simple(kind: str, group: int = 0, check: Callable[[str], str | None] | None = None) -> Callable[
    [re.Match[str]], tuple[str, str] | None
]:
    def accept(match: re.Match[str]) -> tuple[str, str] | None:
        text = match.group(group)
        if check is not None:
            checked = check(text)
            return (kind, checked) if checked else None
        return (kind, text)

    return accept


def _accept_quoted(match: re.Match[str]) -> tuple[str, str] | None:
    content = next(g for g in match.groups() if g is not None)
    kept = _quoted(content)
    return (QUOTED, kept) if kept else None


def _accept_call(match: re.Match[str]) -> tuple[str, str] | None:
    name, empty, args = match.group("name"), match.group("empty"), match.group("args")
    if args in ("(s)", "(es)"):  # parameter(s): English, not a call
        return None
    return (CALL, name + "()") if empty else (CALL, name)


def _accept_word(match: re.Match[str]) -> tuple[str, str] | None:
    word = match.group(0)
    if re.fullmatch(r"[A-Z]{2,}s", word):  # APIs, GPUs: the acronym, which has no plural in CJK
        return _accept_acronym(word[:-1])
    kind = _identifier_kind(word)
    return (kind, word) if kind else None


def _accept_acronym(word: str) -> tuple[str, str] | None:
    return (ACRONYM, word) if word not in SHOUTED_WORDS else None


def _accept_number(match: re.Match[str]) -> tuple[str, str] | None:
    if re.match(r"(?:st|nd|rd|th)\b", match.string[match.end() :], re.IGNORECASE):
        return None  # ordinals are words: 2nd -> 第二
    return (NUMBER, match.group(0))


_A = re.ASCII
_PATTERNS: tuple[_Pattern, ...] = (
    _Pattern(
        URL,
        re.compile(rf"(?<![\w.+-])[A-Za-z][A-Za-z0-9+.-]*://{_URL_CHAR}+", _A),
        _simple(URL, check=lambda t: _trim(t) or None),
    ),
    _Pattern(CODE, re.compile(r"`([^`\n]+)`"), _simple(CODE, 1, check=lambda t: t.strip() or None)),
    _Pattern(
        QUOTED,
        re.compile(
            r"(?<![\w'])'([^'\n]+?)'(?!\w)|(?<![\w\"])\"([^\"\n]+?)\"(?!\w)|‘([^’\n]+?)’|“([^”\n]+?)”"
        ),
        _accept_quoted,
    ),
    _Pattern(
        PATH,
        re.compile(r"(?<![\w/.~-])(?:~|\.{1,2})?/[\w.@%+=~-]+(?:/[\w.@%+=~-]*)*", _A),
        _simple(PATH, check=lambda t: _trim(t) if len(_trim(t)) > 1 else None),
    ),
    _Pattern(PATH, re.compile(r"(?<!\w)[A-Za-z]:\\[\w.@%+~\\-]+", _A), _simple(PATH, check=lambda t: _trim(t))),
    _Pattern(PATH, re.compile(r"(?<![\w/.~-])[\w.-]+(?:/[\w.-]+)+/?", _A), _simple(PATH, check=_relative_path)),
    _Pattern(PATH, re.compile(r"(?<![\w./~-])\.[A-Za-z_][\w.-]*", _A), _simple(PATH, check=lambda t: _trim(t))),
    _Pattern(
        FLAG,
        re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*(?:=[^\s,;'\"`)\]]+)?", _A),
        _simple(FLAG, check=lambda t: _trim(t)),
    ),
    _Pattern(
        SHAPE,
        re.compile(r"\[\s*-?\d+\s*(?:,\s*-?\d+\s*)*,?\s*\]|\(\s*-?\d+\s*(?:,\s*-?\d+\s*)+,?\s*\)", _A),
        _simple(SHAPE),
    ),
    _Pattern(
        CALL,
        re.compile(
            rf"(?<![\w.])(?P<name>{_ASCII_NAME}(?:\.{_ASCII_NAME})*)(?=\()"
            r"(?P<empty>\(\s*\))?(?P<args>\((?:s|es)\))?",
            _A,
        ),
        _accept_call,
    ),
    _Pattern(DOTTED, re.compile(rf"(?<![\w.]){_ASCII_NAME}(?:\.\w+)+", _A), _simple(DOTTED, check=_dotted)),
    _Pattern(IDENTIFIER, re.compile(rf"(?<![\w.]){_ASCII_NAME}(?![\w])", _A), _accept_word),
    _Pattern(
        NUMBER,
        re.compile(
            r"(?<![\w.])(?:0[xX][0-9A-Fa-f]+|\d{1,3}(?:,\d{3})+(?![\d,])|\d+(?:\.\d+)*)(?![\d])(?!\.\d)", _A
        ),
        _accept_number,
    ),
)


def extract(text: str) -> list[Token]:
    """The preserved tokens of `text`, in order, without overlaps (earlier kinds win)."""
    return list(_extract(text))


@lru_cache(maxsize=4096)
def _extract(text: str) -> tuple[Token, ...]:
    # Several rules ask for the tokens of the same source strings.
    starts: list[int] = []  # the spans taken so far: sorted, never overlapping
    ends: list[int] = []
    found: list[Token] = []
    for pattern in _PATTERNS:
        added: list[tuple[int, int]] = []  # one pattern's matches never overlap each other
        for match in pattern.regex.finditer(text):
            start, end = match.span()
            before = bisect.bisect_right(starts, start) - 1
            if before >= 0 and ends[before] > start:
                continue
            if before + 1 < len(starts) and starts[before + 1] < end:
                continue
            accepted = pattern.accept(match)
            if accepted is None:
                continue
            kind, token_text = accepted
            added.append((start, end))
            found.append(Token(kind, token_text, start, end))
        if added:
            spans = sorted([*zip(starts, ends), *added])
            starts = [s for s, _ in spans]
            ends = [e for _, e in spans]
    return tuple(sorted(found, key=lambda t: t.start))


def fold(text: str) -> str:
    """Full-width forms read as ASCII (`（FSDP）` -> `(FSDP)`), as a reader compares them."""
    return unicodedata.normalize("NFKC", text)


def _is_word_char(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


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
    if kind == NUMBER and "," in text:
        # Digit grouping is the translation's to choose: 10,000 == 10000 == 10 000.
        body = r"[,.\s\u00a0'’]?".join(text.split(","))
    if kind == NUMBER:
        # Units and words may touch a number (`16GB`, `rank2`); other digits may not.
        return re.compile(rf"(?<![0-9])(?<![0-9]\.){body}(?![0-9])(?!\.[0-9])")
    head = r"(?<![A-Za-z0-9_])" if _is_word_char(text[0]) else ""
    tail = r"(?![A-Za-z0-9_])" if _is_word_char(text[-1]) else ""
    if kind == ACRONYM:
        tail = r"s?" + tail  # `APIs` keeps `API`
    return re.compile(head + body + tail)


def contains(translation: str, token: Token) -> bool:
    """True if `translation` keeps `token` (full-width punctuation and spacing aside)."""
    return _kept(fold(translation), token)


_WORD_RUN = re.compile(r"[^A-Za-z0-9_]+")


@lru_cache(maxsize=4096)
def _literal(text: str) -> tuple[str, tuple[str, ...], bool]:
    """The folded token, its runs of ASCII word characters (which any match spells
    verbatim), and whether it is one such run."""
    folded = fold(text)
    runs = tuple(run for run in _WORD_RUN.split(folded) if run)
    return folded, runs, len(runs) == 1 and runs[0] == folded


def _verbatim(haystack: str, needle: str) -> bool:
    """`needle` occurs in `haystack` where no word character continues a word it starts or ends."""
    head, tail = _is_word_char(needle[0]), _is_word_char(needle[-1])
    start = haystack.find(needle)
    while start >= 0:
        end = start + len(needle)
        if (not head or start == 0 or not _is_word_char(haystack[start - 1])) and (
            not tail or end == len(haystack) or not _is_word_char(haystack[end])
        ):
            return True
        start = haystack.find(needle, start + 1)
    return False


def _kept(folded: str, token: Token) -> bool:
    """`contains` for a translation already folded. The matcher is compiled only when
    plain substring checks cannot decide: every word run must occur (else no match),
    and a verbatim occurrence between word boundaries is a match."""
    text, runs, one_word = _literal(token.text)
    if not text or any(run not in folded for run in runs):
        return False if text else _matcher(token.kind, token.text).search(folded) is not None
    if token.kind != NUMBER:
        if _verbatim(folded, text):
            return True
        if one_word and token.kind != ACRONYM:
            return False
    return _matcher(token.kind, token.text).search(folded) is not None


def missing(tokens: Iterable[Token], translation: str) -> list[Token]:
    """The tokens `translation` does not keep, each text once, in order."""
    seen: set[str] = set()
    out: list[Token] = []
    folded = fold(translation)
    for token in tokens:
        if token.text in seen:
            continue
        seen.add(token.text)
        if not _kept(folded, token):
            out.append(token)
    return out


def lost(source: str, translation: str, kinds: Collection[str] | None = None) -> list[Token]:
    """Tokens of `source` (of the given kinds, default all) that `translation` lost."""
    tokens = [t for t in extract(source) if kinds is None or t.kind in kinds]
    return missing(tokens, translation)


def strip(text: str, tokens: Iterable[Token] | None = None) -> str:
    """`text` with its tokens blanked out (each replaced by one space)."""
    pieces: list[str] = []
    position = 0
    for token in sorted(extract(text) if tokens is None else tokens, key=lambda t: t.start):
        if token.start < position:
            continue
        pieces.append(text[position : token.start])
        pieces.append(" ")
        position = token.end
    pieces.append(text[position:])
    return "".join(pieces)


_WORD = re.compile(r"[^\W\d_]{2,}|[^\W\d_A-Za-z]")


def has_words(text: str) -> bool:
    """True if `text` holds something to translate besides tokens: a word of two
    letters, or any letter outside ASCII (one Han character is a word)."""
    return _WORD.search(strip(text)) is not None
