"""The volatile tokens of error messages: one grammar, each token typed by class with its span.

`scan(message)` reads a message left to right. At each place, the first class
below (in this order) whose pattern matches there and whose check accepts the
match takes the span; the scan goes on after it. Consumers pick the classes
they care about: the regex suggester generalises some, near-duplicate
detection turns some into placeholder words, translations must keep some.

| class | what it is | examples |
|---|---|---|
| `url` | a URL with a scheme | `https://pypi.org/simple/`, `unix:///var/run/docker.sock` |
| `email` | a `user@host` address | `git@github.com`, `root@localhost` |
| `quoted` | quoted text, in the styles tools print (`'x'`, `"x"`, GNU `` `x' ``, `‘x’`, `“x”`, `„x“`, `«x»`, `「x」`, `『x』`); its content is scanned too | `'model.fc.weight'`, `` `main' `` |
| `code` | backticked code; its content is scanned too | `` `pip install -U pip` `` |
| `hex` | a hex address, id or UUID | `0x7ffd5e8c`, `4AEE18F83AFDEB23`, `a1b2c3d` |
| `path` | a file path: absolute, home, relative with a separator and a sign of a file, a dotfile, a file name with a known extension | `/usr/lib/libc.so.6`, `~/.cache/pip`, `C:\\x.txt`, `src/main.rs`, `.git`, `main.o` |
| `ref` | a git ref | `refs/heads/main`, `origin/main`, `HEAD~2` |
| `variable` | an environment variable reference | `$HOME`, `${PATH}`, `%APPDATA%` |
| `flag` | a command-line option, its own letters only (`--width` of `--width=NUM`) | `-rf`, `--no-cache-dir`, `-Wall` |
| `shape` | a bracketed list of two or more integers, a one-element tuple, sizes joined by `x` | `[100, 256]`, `(3,)`, `(2 x 3)`, `64x512` |
| `address` | an IPv4 address, with its port | `127.0.0.1:5432` |
| `version` | a version: three or more dotted numbers, or `v` and two or more | `1.26.4`, `v1.2.3`, `2.0.0rc1` |
| `position` | numbers joined by colons: `line:column`, a clock time | `3:10`, `12:34:56` |
| `quantity` | a number with a unit written against it | `16GB`, `100ms` |
| `number` | an integer or decimal, digit grouping included | `2`, `0.5`, `10,000` |
| `call` | a called name (with `()` when called with nothing) | `torch.distributed.barrier()`, `MyModel` |
| `dotted` | a dotted name: modules, attributes, hosts | `torch.cuda.OutOfMemoryError`, `model.fc` |
| `identifier` | snake case, dunder, a leading underscore, letters with digits | `map_location`, `__init__`, `_start`, `E0382`, `1f4z` |
| `class` | a CamelCase name of a class or exception (by its ending, or as a message's prefix) | `RuntimeError`, `NullPointerException`, `SystemExit` |
| `compound` | another CamelCase word: a product or a concept | `PyTorch`, `StateFile`, `GitHub` |
| `acronym` | a word in capitals that is no English word shouted | `FSDP`, `ENOENT`, `APIs` |
| `metavar` | a word in capitals that stands for a flag's value, or in angle brackets | `PAGE_WIDTH` of `-W PAGE_WIDTH`, `WHEN` of `--color[=WHEN]`, `<FILE>` |
| `program` | the program or function a message starts with, as `name: ` | `grep` of `grep: x: No such file`, `cd` of `bash: cd: ...` |

Everything else is prose. Tokens are ASCII (but for what quotes hold, and a shape's
digits and spaces of other scripts: `ascii_tokens` tells a message without them apart,
without a scan): they are found in English and in CJK text alike, where no space
separates them from the words around them. The scan
is linear in the message: every pattern starts only where a run of its own
characters starts.

Also here: `fold`, the one width normalisation (full-width forms read as ASCII)
that every comparison of message text starts from.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from heapq import heapify, heappop, heapreplace
from itertools import pairwise

URL = "url"
EMAIL = "email"
QUOTED = "quoted"
CODE = "code"
HEX = "hex"
PATH = "path"
REF = "ref"
VARIABLE = "variable"
FLAG = "flag"
SHAPE = "shape"
ADDRESS = "address"
VERSION = "version"
POSITION = "position"
QUANTITY = "quantity"
NUMBER = "number"
CALL = "call"
DOTTED = "dotted"
IDENTIFIER = "identifier"
CLASS = "class"
COMPOUND = "compound"
ACRONYM = "acronym"
METAVAR = "metavar"
PROGRAM = "program"

KINDS: tuple[str, ...] = (
    URL, EMAIL, QUOTED, CODE, HEX, PATH, REF, VARIABLE, FLAG, SHAPE, ADDRESS, VERSION, POSITION,
    QUANTITY, NUMBER, CALL, DOTTED, IDENTIFIER, CLASS, COMPOUND, ACRONYM, METAVAR, PROGRAM,
)


@dataclass(frozen=True)
class Token:
    """One token of a message: its class, its span, and what it stands for.

    `text` is `message[start:end]`. `value` is the token without its wrapping:
    the content between the quotes, an acronym without its plural `s`, a
    number without its unit; otherwise the text. `quote` and `closing` are the
    opening and closing quotes of a quoted or backticked token (empty for
    others), and `inner` the tokens of its content, with spans in the message.
    """

    kind: str
    start: int
    end: int
    text: str
    value: str
    quote: str = ""
    closing: str = ""
    inner: tuple[Token, ...] = ()


_new = object.__new__
_set = object.__setattr__


def _make(
    kind: str, start: int, end: int, text: str, value: str, quote: str = "", closing: str = "", inner: tuple[Token, ...] = ()
) -> Token:
    """`Token(...)`, the same token, at under half the cost: a frozen dataclass's
    `__init__` sets each field through `object.__setattr__`; this sets its `__dict__` once."""
    token: Token = _new(Token)
    _set(token, "__dict__", {
        "kind": kind, "start": start, "end": end, "text": text, "value": value, "quote": quote, "closing": closing,
        "inner": inner,
    })
    return token


def fold(text: str) -> str:
    """Full-width forms read as ASCII (`（FSDP）` -> `(FSDP)`), as a reader compares them:
    the text's NFKC normal form."""
    if unicodedata.is_normalized("NFKC", text):
        return text
    narrow, replaced = _WIDE.subn(_narrow, text)
    # NFKC decomposes each of them to the one character `_narrow` makes of it, so a text
    # normal once they are replaced is the normal form of the whole: most translations
    # (`错误：`, `（FSDP）`) need no composition, which costs NFKC twice as much.
    if replaced and unicodedata.is_normalized("NFKC", narrow):
        return narrow
    return unicodedata.normalize("NFKC", text)


# The full-width forms of ASCII characters and the ideographic space.
_WIDE = re.compile("[\uff01-\uff5e\u3000]")
_WIDE_OFFSET = 0xFF01 - 0x21


def _narrow(match: re.Match[str]) -> str:
    """The ASCII character that is a full-width form's (or the ideographic space's) NFKC form."""
    char = match.group()
    return " " if char == "\u3000" else chr(ord(char) - _WIDE_OFFSET)


# Words written in capitals that are English, not names.
SHOUTED_WORDS = frozenset(
    """
    ERROR ERRORS WARNING WARNINGS WARN FATAL INFO DEBUG NOTE HINT TIP CRITICAL FAILED FAIL
    FAILURE SUCCESS OK NOT AND OR NO YES IMPORTANT DEPRECATED DEPRECATION CAUTION DANGER
    ALL ANY NONE THE TO IN OF ON IS IT DO DONT NEVER ALWAYS MUST
    """.split()  # noqa: SIM905
)

# Units written in mixed case, which are no class names.
UNITS = frozenset("KiB MiB GiB TiB PiB EiB kB kHz MHz GHz mAh".split())  # noqa: SIM905

# File name extensions that make `name.ext` a file rather than a dotted name.
FILE_EXTENSIONS = frozenset(
    """
    py js ts go rs java c cc cpp h rb php yaml yml json toml cfg ini txt so dll log
    o md html sh lock whl jar exe mjs cjs tsx jsx hpp kt pem
    """.split()  # noqa: SIM905
)

_TRAILING = ".,;:!?"
_BRACKETS = {")": "(", "]": "[", "}": "{"}


def _trim(text: str) -> str:
    """Drop sentence punctuation and unbalanced closing brackets from a token's end."""
    # (the end moves back, and each closer is counted once, its surplus kept as it is dropped:
    # a copy and a count for each character dropped was quadratic in a run of them)
    end = len(text)
    surplus: dict[str, int] = {}  # a closer -> how many more of it than of its opener text[:end] holds
    while end:
        last = text[end - 1]
        if last in _BRACKETS:
            if last not in surplus:
                surplus[last] = text.count(last, 0, end) - text.count(_BRACKETS[last], 0, end)
            if surplus[last] <= 0:
                break
            surplus[last] -= 1
        elif last not in _TRAILING:
            break
        end -= 1
    return text[:end]


Accept = Callable[[re.Match[str]], "Token | None"]


@dataclass(frozen=True)
class _Pattern:
    kind: str
    regex: re.Pattern[str]
    accept: Accept
    needs: str = ""  # characters of which a message must hold one for the pattern to give a token
    # What every match the pattern accepts holds, sharper than `needs` (`://` of a URL):
    # a message it is not found in is not searched for the pattern at all.
    gate: re.Pattern[str] | None = None


def _token(kind: str, match: re.Match[str], text: str | None = None, value: str | None = None) -> Token | None:
    """A token at the match's start spanning `text` (default the match)."""
    text = match.group(0) if text is None else text
    if not text:
        return None
    start = match.start()
    return _make(kind, start, start + len(text), text, text if value is None else value)


def _plain(kind: str, check: Callable[[str], bool] | None = None, trim: bool = False) -> Accept:
    def accept(match: re.Match[str]) -> Token | None:
        text = _trim(match.group(0)) if trim else match.group(0)
        if check is not None and not check(text):
            return None
        return _token(kind, match, text)

    return accept


# ---- quoted text ------------------------------------------------------------------------

# Named groups of the quote styles, and the quote each opens with.
_QUOTE_GROUPS = {"gnu": "`", "code": "`", "single": "'", "double": '"', "lsquo": "‘", "ldquo": "“", "low": "„",
                 "guillemet": "«", "angle": "‹", "corner": "「", "white_corner": "『"}
_QUOTES = re.compile(
    # GNU's `name': a backtick closed by an apostrophe that no letter follows (`it's` is code).
    # Each style starts with its quote and looks behind it after (`(?<![\w`]`)` is
    # `(?<![\w`])` before the backtick), so that `re` skips to the quotes.
    r"`(?<![\w`]`)(?P<gnu>[^`'\n]+)'(?!\w)"
    r"|`(?<!``)(?P<code>[^`\n]+)`(?!`)"
    r"|'(?<![\w']')(?P<single>[^'\n]*)'(?![\w'])"
    r"|\"(?<![\w\"]\")(?P<double>[^\"\n]*)\"(?![\w\"])"
    r"|‘(?P<lsquo>[^’\n]*)’|“(?P<ldquo>[^”\n]*)”|„(?P<low>[^“”\n]*)[“”]"
    r"|«(?P<guillemet>[^»\n]*)»|‹(?P<angle>[^›\n]*)›|「(?P<corner>[^」\n]*)」|『(?P<white_corner>[^』\n]*)』"
)


# The styles closed by another character than their opener. From a line of such openers with
# no closer, `_QUOTES.search` would read on to the line's end from each of them: quadratic.
_OTHER_CLOSERS = {
    opener: re.compile(f"[{closers}\n]")
    for opener, closers in (("‘", "’"), ("“", "”"), ("„", "“”"), ("«", "»"), ("‹", "›"), ("「", "」"), ("『", "』"))
}
_ANY_OPENER = re.compile("[`'\"‘“„«‹「『]")
_OTHER_OPENER = re.compile(f"[{''.join(_OTHER_CLOSERS)}]")


class _QuotedSearch:
    """`_QUOTES.search` over one message in linear time: an opener closed by another
    character matches only if that closer comes before the line ends (`_QUOTES` then
    matches there), and the openers of its style up to a line end with no closer before it
    are passed over at once, in this search and the later ones of the same message."""

    def __init__(self) -> None:
        # an opener -> the stretch of the message in which its style matches nowhere
        self.hopeless: dict[str, tuple[int, int]] = {}

    def search(self, message: str, pos: int = 0) -> re.Match[str] | None:
        """What `_QUOTES.search(message, pos)` gives."""
        hopeless = self.hopeless
        for opener in _ANY_OPENER.finditer(message, pos):
            at = opener.start()
            char = message[at]
            stops = _OTHER_CLOSERS.get(char)
            if stops is not None:
                low, high = hopeless.get(char, (0, 0))
                if low <= at < high:
                    continue
                stop = stops.search(message, at + 1)
                if stop is None or message[stop.start()] == "\n":
                    hopeless[char] = (at, len(message) if stop is None else stop.start())
                    continue
            match = _QUOTES.match(message, at)
            if match is not None:
                return match
        return None


def _accept_quoted(match: re.Match[str]) -> Token | None:
    group = match.lastgroup
    assert group is not None
    content = match.group(group)
    start = match.start(group)
    kind = CODE if group == "code" else QUOTED
    if kind == CODE and not content.strip():
        return None
    text = match.group(0)
    closing = text[match.end(group) - match.start() :]
    return _make(kind, match.start(), match.end(), text, content, _QUOTE_GROUPS[group], closing, _shift(scan(content), start))


def _shift(tokens: tuple[Token, ...], offset: int) -> tuple[Token, ...]:
    return tuple(
        _make(t.kind, t.start + offset, t.end + offset, t.text, t.value, t.quote, t.closing, _shift(t.inner, offset))
        for t in tokens
    )


# ---- paths and refs -----------------------------------------------------------------------


def _absolute_path(text: str) -> bool:
    return len(text) > 1


_EXTENSION_END = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")
_MARK = re.compile(r"[._]")
_LETTER = re.compile(r"[A-Za-z]")


def _relative_path(text: str) -> bool:
    """`src/main.py`, `pytorch/fsdp-param-mismatch`, `dist-packages/torch`; not
    `and/or`, `input/output/error`, `EU/EEA/Swiss`, `24/7`, `HTTP/1.1` or
    `non-2xx/3xx`: words and numbers."""
    segments = [s for s in text.split("/") if s]
    if len(segments) < 2 or all(s.isdigit() for s in segments):
        return False
    looks_like_file = bool(_EXTENSION_END.search(segments[-1]))
    marked = any(_MARK.search(s) and _LETTER.search(s) for s in segments)
    hyphenated = (
        text == text.lower() and any("-" in s for s in segments) and all(s[0].isalpha() for s in segments)
    )
    return looks_like_file or marked or hyphenated


def _file_name(text: str) -> bool:
    """`main.py`, `libfoo.so.6`, `Cargo.toml`: a name, then a known extension, then
    at most version numbers."""
    parts = text.split(".")
    for index in range(len(parts) - 1, 0, -1):
        if parts[index].lower() in FILE_EXTENSIONS:
            return all(p.isdigit() for p in parts[index + 1 :])
    return False


# ---- numbers ------------------------------------------------------------------------------

_IPV4 = re.compile(r"(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?::\d{1,5})?")
_VERSION_SUFFIX = re.compile(r"(?:[-.]?(?:rc|alpha|beta|pre|dev|post|a|b)\d*)+(?:\+[A-Za-z0-9.]+)?|\+[A-Za-z0-9.]+")
_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b", re.IGNORECASE)
_UNIT = re.compile(r"[A-Za-z]+")
_NAME_RUN = re.compile(r"[A-Za-z0-9_]+")


def _accept_number(match: re.Match[str]) -> Token | None:
    # What follows is read where it is, never copied: a copy per number was quadratic.
    text, message, end = match.group(0), match.string, match.end()
    dots = text.count(".")
    if _IPV4.fullmatch(text):
        return _token(ADDRESS, match)
    if ":" in text:
        return _token(POSITION, match)
    if dots >= 2 and "," not in text:
        suffix = _VERSION_SUFFIX.match(message, end)
        full = text + (suffix.group(0) if suffix else "")
        if re.match(r"\w", message[match.start() + len(full) : match.start() + len(full) + 1], re.ASCII):
            return None
        return _token(VERSION, match, full)
    unit = _UNIT.match(message, end)
    if unit:
        if _ORDINAL.match(message, end):
            return None  # ordinals are words: 2nd -> 第二
        after = message[unit.end() : unit.end() + 1]
        if after.isascii() and (after.isalnum() or after == "_"):
            # Digits, letters, digits: no English word. A hex value (`1f4a`) or a name (`3des0`).
            run = _NAME_RUN.match(match.string, match.start())
            assert run is not None
            kind = HEX if re.fullmatch(r"[0-9a-f]+|[0-9A-F]+", run.group()) else IDENTIFIER
            return _token(kind, match, run.group())
        return _token(QUANTITY, match, text + unit.group(0), text)
    return _token(NUMBER, match)  # digit grouping (10,000) included


def _accept_v_version(match: re.Match[str]) -> Token | None:
    suffix = _VERSION_SUFFIX.match(match.string, match.end())
    text = match.group(0) + (suffix.group(0) if suffix else "")
    following = match.string[match.start() + len(text) : match.start() + len(text) + 1]
    if following.isascii() and (following.isalnum() or following == "_"):
        return None
    return _token(VERSION, match, text)


def _transitions(text: str) -> int:
    return sum(1 for a, b in pairwise(text) if a.isdigit() != b.isdigit())


def _hex_id(text: str) -> bool:
    """A hex id has digits and letters; a short one (under 12) mixes them more than
    once, so that `ed25519`, `dec2014` or `cafe123` stay words."""
    if not any(c.isdigit() for c in text) or text.isdigit():
        return False
    return len(text) >= 12 or _transitions(text) >= 2


# ---- names --------------------------------------------------------------------------------


def _accept_call(match: re.Match[str]) -> Token | None:
    name, empty, args = match.group("name"), match.group("empty"), match.group("args")
    if args:  # parameter(s): English, not a call
        return None
    return _token(CALL, match, name + empty if empty else name)


def _dotted(text: str) -> bool:
    return not all(len(p) <= 1 for p in text.split("."))  # e.g, i.e, a.m


# Endings that make a CamelCase name a class or exception name.
_CLASS_ENDINGS = re.compile(r"(?:Error|Exception|Warning|Exit|Interrupt|Iteration|Fault|Failure|Throwable)s?$")


def word_kind(word: str) -> str | None:
    """The class of one ASCII word: identifier, class, compound or acronym; None for a plain word."""
    if word.isalpha():
        if word[1:].islower() or len(word) == 1:
            return None  # a word, or a capitalised one
        if word.isupper():
            return ACRONYM if word not in SHOUTED_WORDS else None
        if word in UNITS:
            return None
        return CLASS if _CLASS_ENDINGS.search(word) else COMPOUND
    if not any(c.isalpha() for c in word):
        return None
    if "_" in word.rstrip("_") or any(c.isdigit() for c in word):
        return IDENTIFIER  # snake_case, __dunder__, _private, letters with digits
    core = word.strip("_")
    if core.isupper():
        return ACRONYM if len(core) >= 2 and core not in SHOUTED_WORDS else None
    return CLASS if any(c.isupper() for c in core[1:]) else None


def _ascii_word_kind(word: str) -> str | None:
    """`word_kind` of a word of ASCII letters, digits and `_`, by a few string methods
    rather than a loop over its characters."""
    if word.isalpha():
        return word_kind(word)
    if not word.strip("_0123456789"):
        return None  # no letter
    if "_" in word.rstrip("_") or not word.replace("_", "").isalpha():
        return IDENTIFIER  # snake_case, __dunder__, _private, letters with digits
    core = word.strip("_")  # letters only
    if core.isupper():
        return ACRONYM if len(core) >= 2 and core not in SHOUTED_WORDS else None
    return CLASS if len(core) > 1 and not core[1:].islower() else None


# What comes before a flag's value: the flag and a space, `=` or `[=`.
_BEFORE_VALUE = re.compile(r"(?:^|[\s\[(,])--?[A-Za-z][\w-]*(?: |=|\[=)$", re.ASCII)


def _metavariable(match: re.Match[str]) -> bool:
    """A word in capitals that names a flag's value (`-W PAGE_WIDTH`, `--color[=WHEN]`) or
    stands in angle brackets (`<FILE>`): a placeholder a translator may translate."""
    word, text, start = match.group(0), match.string, match.start()
    if not (word[0].isalpha() and word.isupper()):  # (`_` and `-` are no cased characters)
        return False
    if text[start - 1 : start] == "<" and text[match.end() : match.end() + 1] == ">":
        return True
    return _BEFORE_VALUE.search(text[max(0, start - 64) : start]) is not None


# Words a message starts with before `: ` that are English labels, not program names.
_LABELS = frozenset({
    "error", "errors", "warning", "warnings", "fatal", "note", "hint", "usage", "info", "debug", "notice",
    "caution", "critical", "e", "w", "n", "i", "reason", "cause", "details", "detail", "example", "line", "bug",
})
# The `name: ` prefixes a message starts with: `grep: `, `bash: cd: `, `malloc: `.
_PREFIXES = re.compile(r"(?:[a-z_][a-z0-9_+-]*: )+", re.ASCII)


def _accept_program(match: re.Match[str]) -> Token | None:
    """A small-letter name the message starts with as `name: ` (after other such names):
    the program or function that speaks, in the GNU way (`grep: `, `bash: cd: `)."""
    prefixes = _PREFIXES.match(match.string)
    return _program_within(0 if prefixes is None else prefixes.end(), match)


def _program_within(prefixes_end: int, match: re.Match[str]) -> Token | None:
    """`_accept_program(match)`, the message's `name: ` prefixes known to end at `prefixes_end`."""
    name = match.group(0)
    if name in _LABELS or any(word_kind(part) == IDENTIFIER for part in name.split("-")):
        return None  # an English label; or a name that is an identifier (`_start: `, `python3-pip: `)
    return _token(PROGRAM, match) if match.end() < prefixes_end else None


_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,}s")
_PLURAL_NAME = re.compile(r"[A-Z0-9_]*[A-Z]s")


def _accept_word(match: re.Match[str]) -> Token | None:
    # The word is the whole match, never empty; a plural ends in `s`.
    word = match.group(0)
    start, end = match.span()
    # `_metavariable`'s first test, before its call: most words are not in capitals.
    if word[0].isalpha() and word.isupper() and _metavariable(match):
        return _make(METAVAR, start, end, word, word)
    plural = word[-1] == "s"
    if plural and _PLURAL_ACRONYM.fullmatch(word) and word[:-1] not in SHOUTED_WORDS:
        return _make(ACRONYM, start, end, word, word[:-1])  # APIs, GPUs: the acronym's plural
    kind = _ascii_word_kind(word)
    if kind is None:
        return None
    if kind == COMPOUND and start == 0 and match.string[end : end + 1] == ":":
        kind = CLASS  # `HttpClientTimeout: ...`: an exception named first
    if kind == IDENTIFIER and plural and _PLURAL_NAME.fullmatch(word):
        return _make(kind, start, end, word, word[:-1])  # N_RBRACs: the plural of N_RBRAC
    return _make(kind, start, end, word, word)


# ---- the grammar --------------------------------------------------------------------------

_A = re.ASCII


def _gate(pattern: str, flags: int = _A) -> re.Pattern[str]:
    return re.compile(pattern, flags)


_URL_CHAR = r"(?:(?![<>\"'`])[\x21-\x7e])"
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SHAPE_ITEM = r"-?\d+"
_SHAPE_SEP = r"\s*(?:,|[x×])\s*"

# A pattern whose first character is of a small set says so first, and looks behind
# that character after it (`\$(?<![\w$]\$)` for `(?<![\w$])\$`: the same test, as the `$`
# is read): `re` then skips to the characters a match may start with, where a leading
# lookbehind has it try every place. Patterns that start with a letter keep the
# lookbehind first: letters are most places, and it fails there sooner; one that looks
# behind for a word character (`(?<![\w.])` before a letter) starts with `\b(?<!\.)`, the
# same test, which `re` makes without a lookbehind inside words, where it fails.
# A run is possessive (`*+`, `++`) where what follows it cannot begin with a character it holds:
# when what follows fails, `re` gives up at once rather than retry the run one character shorter
# at a time, over every word of the message (the same matches, and the same tokens).
_GRAMMAR: tuple[_Pattern, ...] = (
    # The message's `name: ` prefixes hold every program it names (`_accept_program`).
    _Pattern(
        PROGRAM, re.compile(r"\b(?<![.+-])[a-z_][a-z0-9_+-]*+(?=: )", _A), _accept_program, ":", _gate(rf"\A{_PREFIXES.pattern}")
    ),
    _Pattern(
        URL, re.compile(rf"(?<![\w.+-])[A-Za-z][A-Za-z0-9+.-]*://{_URL_CHAR}+", _A), _plain(URL, trim=True), ":", _gate("://")
    ),
    _Pattern(
        EMAIL,
        # The host has a dot, or is localhost: `react-dom@latest` is a package at a tag.
        re.compile(r"(?<![\w.+%-])[A-Za-z0-9][\w.+%-]*@(?:[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)+|localhost\b)", _A),
        _plain(EMAIL, trim=True),
        "@",
    ),
    _Pattern(QUOTED, _QUOTES, _accept_quoted, "'\"`‘“„«‹「『"),
    _Pattern(
        HEX,
        re.compile(r"(?<![\w-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\w-])", _A),
        _plain(HEX),
        "-",
        _gate(r"-[0-9a-fA-F]{4}-"),
    ),
    _Pattern(
        PATH,
        # No letter of any script before it: `名刺/meishi` is two words, like `and/or`.
        # `(?<![\w/.~-])(?a:(?:~[\w.-]*|\.{1,2})?/[\w.@%+=~-]+(?:/[\w.@%+=~-]*)*)`, its first character read first.
        re.compile(r"[~./](?<![\w/.~-][~./])(?a:(?:(?<=~)[\w.-]*/|(?<=\.)\.?/|(?<=/))[\w.@%+=~-]+(?:/[\w.@%+=~-]*)*)"),
        _plain(PATH, _absolute_path, trim=True),
        "/",
    ),
    _Pattern(PATH, re.compile(r"(?<!\w)[A-Za-z]:\\[\w.@%+~\\-]+", _A), _plain(PATH, trim=True), "\\", _gate(r":\\")),
    _Pattern(
        REF,
        re.compile(
            r"(?<![\w/.~@-])(?:refs/[\w.-]+(?:/[\w.-]+)+|(?:origin|upstream)/[\w.-]+(?:/[\w.-]+)*)"
            r"|(?<![\w.])HEAD(?:[~^]\d*)+|(?<![\w.])HEAD@\{\d+\}",
            _A,
        ),
        _plain(REF, trim=True),
        "/~^@",
        _gate("refs/|origin/|upstream/|HEAD[~^@]"),
    ),
    _Pattern(PATH, re.compile(r"(?<![\w/.~-])[\w.-]+(?:/[\w.-]+)+/?", _A), _plain(PATH, _relative_path, trim=True), "/"),
    # A dotfile starts with a small letter: `.git`, `.bashrc`; not `.NET` or a template's `.Foo`.
    _Pattern(PATH, re.compile(r"\.(?<![\w./~-]\.)[a-z_][\w.-]*", _A), _plain(PATH, trim=True), ".", _gate(r"\.[a-z_]")),
    # A file name's extension follows a dot and ends its part, and no letter or digit follows it.
    _Pattern(
        PATH,
        re.compile(r"(?<![\w.-])[\w-]+(?:\.[\w-]+)+(?![\w(])", _A),
        _plain(PATH, _file_name),
        ".",
        _gate(rf"\.(?:{'|'.join(sorted(FILE_EXTENSIONS))})(?!\w)", _A | re.IGNORECASE),
    ),
    _Pattern(
        VARIABLE,
        re.compile(rf"\$(?<![\w$]\$)(?:\{{{_NAME}\}}|{_NAME})|%(?<![\w%]%){_NAME}%(?!\w)", _A),
        _plain(VARIABLE),
        "$%",
    ),
    _Pattern(
        FLAG,
        re.compile(r"-(?<![\w%/.@+~$-]-)-?[A-Za-z][\w-]*", _A),
        _plain(FLAG, lambda t: t[-1] != "-"),
        "-",
        _gate("-[-A-Za-z]"),
    ),
    _Pattern(
        SHAPE,
        re.compile(
            # One number in brackets is a number (`index out of range [5]`); a shape has two
            # or more, or the trailing comma of a one-element tuple.
            # Its first character is read before the branch it opens. A last comma between
            # blanks is `(?:\s*,)?\s*`, not `\s*,?\s*`: with no comma, those two runs split the
            # blanks before a missing bracket every way, quadratic in a long run of them.
            r"[\[(\d]"
            rf"(?:(?<=\[)\s*{_SHAPE_ITEM}(?:(?:{_SHAPE_SEP}{_SHAPE_ITEM})+(?:\s*,)?|\s*,)\s*\]"
            rf"|(?<=\()\s*{_SHAPE_ITEM}(?:(?:{_SHAPE_SEP}{_SHAPE_ITEM})+(?:\s*,)?|\s*,)\s*\)"
            # 64x512, 1920x1080: `(?<![\w.])(?!0[xX])\d+(?:[x×]\d+)+(?![\w.])`
            r"|(?<=\d)(?<![\w.]\d)(?!(?<=0)[xX])\d*(?:[x×]\d+)+(?![\w.]))",
        ),
        _plain(SHAPE),
        "[(x×",
        _gate(r"\[|\(|×|x(?<=\dx)\d", 0),  # \d of any script, as the pattern's
    ),
    _Pattern(HEX, re.compile(r"0(?<![\w.]0)[xX][0-9A-Fa-f]+(?![\w])", _A), _plain(HEX), "xX", _gate("0[xX]")),
    _Pattern(
        HEX,
        # `(?<![\w-])(?:[0-9a-f]{7,}|[0-9A-F]{8,})(?![\w-])`, its first character read first.
        re.compile(r"[0-9a-fA-F](?<![\w-][0-9a-fA-F])(?:(?<=[0-9a-f])[0-9a-f]{6,}+|(?<=[0-9A-F])[0-9A-F]{7,}+)(?![\w-])", _A),
        _plain(HEX, _hex_id),
        "0123456789",
        # `_hex_id` takes digits and letters: somewhere in the id a digit and a letter touch.
        _gate(r"\d(?:[a-fA-F]|(?<=[a-fA-F]\d))"),
    ),
    _Pattern(VERSION, re.compile(r"[vV](?<![\w.][vV])\d+(?:\.\d+)+", _A), _accept_v_version, "0123456789", _gate(r"[vV]\d")),
    _Pattern(
        NUMBER,
        # `(?<![\w.])(?:\d{1,3}(?:,\d{3})+(?![\d,])|\d+(?:[.:]\d+)*)(?![\d])(?!\.\d)`, its first digit read first.
        # At most 32 groups of thousands (a 99-digit figure): each digit after a comma starts a
        # search that reads the groups after it, so a long run of them took quadratic time.
        re.compile(r"\d(?<![\w.]\d)(?:\d{0,2}(?:,\d{3}){1,32}(?![\d,])|\d*(?:[.:]\d+)*)(?![\d])(?!\.\d)", _A),
        _accept_number,
        "0123456789",
    ),
    _Pattern(
        CALL,
        re.compile(
            rf"(?<![\w.])(?P<name>{_NAME}(?:\.{_NAME})*)(?=\()(?P<empty>\(\s*\))?(?P<args>\((?:s|es)\))?", _A
        ),
        _accept_call,
        "(",
        _gate(r"\w\("),
    ),
    _Pattern(DOTTED, re.compile(r"\b(?<!\.)[A-Za-z_][A-Za-z0-9_]*+(?:\.\w++)+", _A), _plain(DOTTED, _dotted), ".", _gate(r"\.\w")),
    _Pattern(DOTTED, re.compile(r"[A-Z](?<![\w\\][A-Z])\w*(?:\\[A-Z]\w*)+", _A), _plain(DOTTED), "\\"),  # PHP's App\Models\User
    # A hyphenated name with a part that is a name itself: `python3-pip`, `x86-64`,
    # `lib_foo-dev`; not `node-18` or `utf-8`, a word and a number.
    _Pattern(
        IDENTIFIER,
        re.compile(r"\b(?<![.-])[A-Za-z_][A-Za-z0-9_]*+(?:-[A-Za-z0-9_]+)+(?![\w-])", _A),
        _plain(IDENTIFIER, lambda t: any(word_kind(part) == IDENTIFIER for part in t.split("-"))),
        "-",
        _gate(r"-\w"),
    ),
    # Plain and capitalised words are prose: skipped by the pattern itself, for speed.
    # `(?<![\w.])(?![a-z]+(?!\w))(?![A-Z][a-z]+(?!\w))[A-Za-z_]\w*`: a word led by small letters
    # that are followed by more of it, by a capital that is not followed by small letters that
    # end it, or by `_`; then the rest of the word.
    _Pattern(
        IDENTIFIER,
        re.compile(r"\b(?<!\.)(?:[a-z]++(?=\w)|[A-Z](?:[a-z]++(?=\w)|(?![a-z]))|_)\w*+", _A),
        _accept_word,
    ),
)


# Every class's pattern reads ASCII characters only but two. Quoted text and code hold
# anything between their quotes, on one line: a token of them lies between an opener
# (the quoted class's `needs`) and a closer of `_QUOTES` on its line. A shape's `\d` and
# `\s` read digits and spaces of any script, and it reads `×`; it is found only in a
# message its gate is found in.
_QUOTE_OPENERS = "".join(p.needs for p in _GRAMMAR if p.kind == QUOTED)
_QUOTE_CLOSERS = "'\"`’”“»›」』"
_SHAPE_GATE = next(p.gate.search for p in _GRAMMAR if p.kind == SHAPE and p.gate is not None)
# A digit, space or `×` outside ASCII: the character first, so that `re` skips to those
# its class takes (ASCII spaces and digits among them) and looks behind only there.
_SHAPE_NON_ASCII = re.compile(r"[\d\s×](?<![\x00-\x7f])")
_OPENER = re.compile(f"[{re.escape(_QUOTE_OPENERS)}]")


def ascii_tokens(message: str) -> bool:
    """True if every token `scan(message)` finds (inner ones too) is ASCII, known without
    a scan: where a shape may be (its gate is found), the message holds no digit, space or
    `×` outside ASCII, which a shape may read; and on each line, what lies from the first
    quote that opens a quoted text or code to the last quote that closes one is ASCII."""
    if message.isascii():
        return True
    if _SHAPE_GATE(message) is not None and _SHAPE_NON_ASCII.search(message) is not None:
        return False
    if _OPENER.search(message) is None:
        return True
    # (line by line, with string methods: one regex for "an opener, then a character outside
    # ASCII, then a closer, on one line" backtracks in cubic time on a line of openers)
    return all(_quotable(line).isascii() for line in message.split("\n") if not line.isascii())


def _quotable(line: str) -> str:
    """The part of `line` a quoted or code token may span: its first opener to its last closer."""
    first = _OPENER.search(line)
    return line[first.start() : max(map(line.rfind, _QUOTE_CLOSERS)) + 1] if first is not None else ""


def scan(message: str) -> tuple[Token, ...]:
    """The tokens of `message`, in order, without overlaps."""
    return _scan(message)


# Every character some pattern needs; the digits stand for each other (`0` for all ten),
# so that which patterns a message may hold is known from a few set operations.
_DIGITS = frozenset("0123456789")
_ZERO = frozenset("0")
_NEEDED = frozenset("".join(p.needs for p in _GRAMMAR)) - _DIGITS


# Per place in the grammar: its gate's search (None without a gate), its regex's search
# and its check, bound once rather than looked up for every search.
_GATES = tuple(None if p.gate is None else p.gate.search for p in _GRAMMAR)
_SEARCHES = tuple(p.regex.search for p in _GRAMMAR)
_ACCEPTS = tuple(p.accept for p in _GRAMMAR)
_QUOTED_PLACE = next(i for i, p in enumerate(_GRAMMAR) if p.regex is _QUOTES)
_PROGRAM_PLACE = next(i for i, p in enumerate(_GRAMMAR) if p.accept is _accept_program)


def _with_prefixes_end(prefixes_end: int) -> tuple[Accept, ...]:
    """The checks of the grammar, the program's told where the message's prefixes end."""
    return (*_ACCEPTS[:_PROGRAM_PLACE], partial(_program_within, prefixes_end), *_ACCEPTS[_PROGRAM_PLACE + 1 :])


@lru_cache(maxsize=1024)
def _candidates(present: frozenset[str]) -> tuple[int, ...]:
    """The patterns (by place in the grammar) whose needed characters `present` holds."""
    return tuple(i for i, p in enumerate(_GRAMMAR) if not p.needs or not present.isdisjoint(p.needs))


# An ASCII message's needed characters, digits read as `0`, are what one `bytes.translate`
# keeps of it: a set of its characters would hash each of them.
_ZERO_FOR_DIGITS = bytes.maketrans(b"0123456789", b"0000000000")
_UNNEEDED = bytes(b for b in range(256) if chr(b) not in _NEEDED and chr(b) not in _DIGITS)


def _candidates_for(message: str) -> tuple[int, ...]:
    """The patterns (by place in the grammar) whose needed characters `message` holds."""
    if message.isascii():
        return _ascii_candidates(message.encode().translate(_ZERO_FOR_DIGITS, _UNNEEDED))
    present = _NEEDED.intersection(message)
    if not _DIGITS.isdisjoint(message):
        present |= _ZERO
    return _candidates(present)


@lru_cache(maxsize=1024)
def _ascii_candidates(needed: bytes) -> tuple[int, ...]:
    """`_candidates` of the characters `needed` holds (an ASCII message's, as `_candidates_for` keeps them)."""
    return _candidates(frozenset(needed.decode()))


@lru_cache(maxsize=4096)
def _scan(message: str) -> tuple[Token, ...]:
    # Many rules and consumers ask for the tokens of the same strings. Each pattern's
    # next match waits in a heap ordered by (start, place in the grammar): the top is the
    # leftmost match, and of matches at one place the grammar's first, as the grammar says.
    waiting: list[tuple[int, int, re.Match[str]]] = []
    searches: tuple[Callable[..., re.Match[str] | None], ...] = _SEARCHES
    # (quoted text by `_QuotedSearch` where a quote is closed by another character: linear
    # in time where the regex's own search is quadratic on a line of such quotes)
    if not message.isascii() and _OTHER_OPENER.search(message) is not None:
        searches = (*_SEARCHES[:_QUOTED_PLACE], _QuotedSearch().search, *_SEARCHES[_QUOTED_PLACE + 1 :])
    accepts = _ACCEPTS
    for index in _candidates_for(message):
        gate = _GATES[index]
        if gate is not None:
            opened = gate(message)
            if opened is None:
                continue
            if index == _PROGRAM_PLACE:
                # (the program's gate reads where the prefixes end: its check, asking again
                # for every name, read them all again each time, quadratic in their number)
                accepts = _with_prefixes_end(opened.end())
        match = searches[index](message)
        if match is not None:
            waiting.append((match.start(), index, match))
    if not waiting:
        return ()
    heapify(waiting)
    found: list[Token] = []
    while waiting:
        start, index, match = waiting[0]
        token = accepts[index](match)
        if token is None:
            # The pattern's next match, after the one its check turned down.
            after = searches[index](message, start + 1)
            if after is None:
                heappop(waiting)
            else:
                heapreplace(waiting, (after.start(), index, after))
            continue
        found.append(token)
        end = token.end
        while waiting and waiting[0][0] < end:
            # A match the token overlaps gives way to its pattern's next match after the token.
            index = waiting[0][1]
            after = searches[index](message, end)
            if after is None:
                heappop(waiting)
            else:
                heapreplace(waiting, (after.start(), index, after))
    return tuple(found)


def walk(tokens: Iterable[Token], descend: Callable[[Token], bool]) -> Iterator[Token]:
    """The tokens, each quoted or backticked token for which `descend` is true replaced
    by the tokens of its content (themselves walked the same way)."""
    for token in tokens:
        if token.quote and descend(token):
            yield from walk(token.inner, descend)
        else:
            yield token


def replace(message: str, tokens: Iterable[Token], render: Callable[[Token], str], between: Callable[[str], str] = str) -> str:
    """`message` with each of `tokens` (in order, not overlapping) replaced by
    `render(token)` and the text between them by `between(text)`."""
    pieces: list[str] = []
    position = 0
    for token in tokens:
        if token.start < position:
            continue
        pieces.append(between(message[position : token.start]))
        pieces.append(render(token))
        position = token.end
    pieces.append(between(message[position:]))
    return "".join(pieces)
