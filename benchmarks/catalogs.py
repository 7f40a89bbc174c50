"""Real human translations of CLI error messages, from the system's gettext catalogs, and their mutants.

For benchmarks and tests only: nothing here is copied into the project, the
catalogs (`/usr/share/locale/<lang>/LC_MESSAGES/<domain>.mo`, found with
`gettext.find`, read with babel's `read_mo`) are read at run time.

A message is taken when its msgid is one error-like line (an error word, 12 to
200 characters, no tab) whose printf conversions this module can fill, and its
translation uses the same arguments. Every conversion is filled with the same
value on both sides, chosen from a fixed pool by a hash of the message (so the
same message always gets the same values). `mutants` derives, from each real
translation, the faults a translation rule must catch.
"""

from __future__ import annotations

import gettext
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from babel.messages.mofile import read_mo

LOCALEDIR = "/usr/share/locale"
# Tools measured (and tuned on), by gettext domain; apt's messages live in two catalogs.
TOOLS: dict[str, tuple[str, ...]] = {
    "apt": ("apt", "libapt-pkg6.0"),
    "dpkg": ("dpkg",),
    "bash": ("bash",),
    "grep": ("grep",),
    "findutils": ("findutils",),
    "diffutils": ("diffutils",),
    "binutils": ("binutils",),
}
# Kept apart for an independent check: never used to choose anything.
HELD_OUT: dict[str, tuple[str, ...]] = {"git": ("git",), "coreutils": ("coreutils",), "gnupg2": ("gnupg2",)}
LOCALES = ("zh_CN", "ja", "ko", "ru")
# Other languages of the same scripts, for telling languages apart.
LANGUAGE_LOCALES = ("uk", "sr", "bg")

_ERROR = re.compile(
    r"\b(?:error|errors|cannot|can't|could not|couldn't|unable|failed|failure|invalid|illegal|bad|unknown"
    r"|unrecogni[sz]ed|not found|no such|missing|denied|refused|too (?:many|long|large|few|big|short)|out of"
    r"|overflow|exceed(?:s|ed)?|unexpected|not (?:a|an|allowed|supported|permitted|set|defined|available"
    r"|installed|enough|found)|conflict|broken|corrupt|mismatch|wrong|fatal|abort|ambiguous|unsupported"
    r"|unterminated|unmatched|unbalanced|no (?:space|more|current)|does not|doesn't|isn't|is not|warning)\b",
    re.IGNORECASE,
)
_CONVERSION = re.compile(
    r"%(?:(?P<position>\d+)\$)?[-+ #0']*(?P<width>\d+|\*)?(?:\.(?P<precision>\d+|\*))?"
    r"(?:hh|h|ll|l|L|q|j|z|t)?(?P<type>[diouxXeEfgGcsp%])"
)
_VALUES: dict[str, tuple[str, ...]] = {
    # What these tools substitute for %s: paths and file names above all, packages,
    # users, options, sections, symbols, URLs, versions, addresses.
    "s": (
        "/etc/apt/sources.list", "/var/lib/dpkg/status", "/usr/bin/ld", "src/main.c", "./build/out.o",
        "libfoo.so.6", "main.o", "build.log", "python3-pip", "libssl3:amd64", "nginx", "www-data",
        "--force-depends", ".debug_info", "_start", "http://deb.debian.org/debian", "2.36-9+deb12u4", "0x4005d0",
    ),
    "d": ("2", "3", "17", "42", "128", "4096"),
    "x": ("1f4a", "7ffd5e8c"),
    "o": ("755",),
    "c": ("q", "@"),
    "f": ("0.5", "1.25"),
    "p": ("0x55d0c8a0",),
}
_TYPE = {"i": "d", "u": "d", "X": "x", "e": "f", "E": "f", "g": "f", "G": "f"}


@dataclass(frozen=True)
class Message:
    """One error message and its translation, placeholders filled alike."""

    tool: str
    locale: str
    msgid: str
    source: str
    text: str
    values: tuple[str, ...]  # the filled values, by argument


def _pick(key: str, pool: tuple[str, ...]) -> str:
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return pool[int.from_bytes(digest[:4], "big") % len(pool)]


def _arguments(text: str) -> dict[int, str] | None:
    """Argument number -> conversion type of a printf format; None if it cannot be filled."""
    out: dict[int, str] = {}
    sequential = 0
    for match in _CONVERSION.finditer(text):
        kind = match.group("type")
        if kind == "%":
            continue
        if "*" in (match.group("width") or "") or "*" in (match.group("precision") or ""):
            return None
        if match.group("position"):
            number = int(match.group("position"))
        else:
            sequential += 1
            number = sequential
        out[number] = _TYPE.get(kind, kind)
    if "%" in _CONVERSION.sub("", text):
        return None  # a conversion this module does not know
    return out


def _hex_strings(text: str) -> set[int]:
    """The arguments printed after `0x`, which the tool fills with hex digits."""
    out: set[int] = set()
    sequential = 0
    for match in _CONVERSION.finditer(text):
        if match.group("type") == "%":
            continue
        number = int(match.group("position")) if match.group("position") else (sequential := sequential + 1)
        if text[max(0, match.start() - 2) : match.start()] in ("0x", "0X"):
            out.add(number)
    return out


def _fill(text: str, values: dict[int, str]) -> str:
    counter = iter(range(1, 1000))

    def value(match: re.Match[str]) -> str:
        if match.group("type") == "%":
            return "%"
        number = int(match.group("position")) if match.group("position") else next(counter)
        return values[number]

    return _CONVERSION.sub(value, text)


def error_like(msgid: str) -> bool:
    line = msgid.removesuffix("\n")
    if "\n" in line or "\t" in line or not 12 <= len(line) <= 200:
        return False
    return _ERROR.search(line) is not None and len(re.findall(r"[A-Za-z]{2,}", _CONVERSION.sub(" ", line))) >= 2


@lru_cache(maxsize=64)
def _catalog(domain: str, locale: str) -> tuple[tuple[str, str], ...]:
    path = gettext.find(domain, LOCALEDIR, [locale])
    if path is None:
        return ()
    with open(path, "rb") as handle:
        catalog = read_mo(handle)
    return tuple(
        (m.id, m.string)
        for m in catalog
        if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string and not m.context
    )


def available(tools: dict[str, tuple[str, ...]] = TOOLS, locales: tuple[str, ...] = LOCALES) -> bool:
    """True if at least one catalog of these tools and locales is installed."""
    return any(gettext.find(d, LOCALEDIR, [loc]) for domains in tools.values() for d in domains for loc in locales)


def messages(tools: dict[str, tuple[str, ...]] = TOOLS, locales: tuple[str, ...] = LOCALES) -> list[Message]:
    """The error-like messages of these tools' catalogs with their translations, in catalog order."""
    out: list[Message] = []
    for tool, domains in tools.items():
        for locale in locales:
            seen: set[str] = set()
            for domain in domains:
                for msgid, msgstr in _catalog(domain, locale):
                    if msgid in seen or not error_like(msgid):
                        continue
                    arguments, translated = _arguments(msgid), _arguments(msgstr)
                    if arguments is None or translated is None or set(arguments) != set(translated):
                        continue
                    seen.add(msgid)
                    hex_strings = _hex_strings(msgid)
                    values = {
                        n: _pick(f"{tool}\0{msgid}\0{n}", _VALUES["x" if n in hex_strings else kind] if kind in _VALUES or n in hex_strings else _VALUES["s"])
                        for n, kind in arguments.items()
                    }
                    source, text = _fill(msgid, values).rstrip("\n"), _fill(msgstr, values).rstrip("\n")
                    out.append(Message(tool, locale, msgid, source, text, tuple(values[n] for n in sorted(values))))
    return out


# ---- mutants -----------------------------------------------------------------------------

COPY = "English copy"
OTHER_SCRIPT = "other script"
OTHER_LANGUAGE = "same script, other language"
DROPPED = "dropped value"
HALF = "half-translated"
MUTANTS = (COPY, OTHER_SCRIPT, OTHER_LANGUAGE, DROPPED, HALF)

# Where a translation in another script, or another language of the same script, comes from.
OTHER_SCRIPT_DONOR = {"zh_CN": "ko", "ja": "ko", "ko": "ja", "ru": "zh_CN", "uk": "zh_CN", "sr": "ja", "bg": "ko"}
OTHER_LANGUAGE_DONOR = {"zh_CN": "ja", "ja": "zh_CN", "ru": "uk", "uk": "ru", "sr": "bg", "bg": "sr"}

_TRANSLATED_WORD = {
    "Cyrillic": re.compile(r"[\u0400-\u04ff]{3,}"),
    "CJK": re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2,4}"),
}
_ENGLISH_WORD = re.compile(r"(?<![\w%/.'-])[a-z]{2,}(?![\w/.'-])")
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`'\n]*'|`[^`\n]*`")


@dataclass(frozen=True)
class Mutant:
    kind: str
    message: Message
    text: str


def _translated_words(message: Message) -> list[str]:
    script = "Cyrillic" if message.locale in ("ru", "uk", "sr", "bg") else "CJK"
    return _TRANSLATED_WORD[script].findall(message.text)


def _ordinary_words(message: Message) -> list[re.Match[str]]:
    """Small-letter English words of the source outside quotes and filled values (defined
    here, not by entrykit, so that mutants do not depend on the code they test)."""
    source = message.source
    spans = [(m.start(), m.end()) for m in _QUOTED.finditer(source)]
    for value in message.values:
        start = source.find(value)
        while start >= 0:
            spans.append((start, start + len(value)))
            start = source.find(value, start + 1)
    return [m for m in _ENGLISH_WORD.finditer(source) if not any(s <= m.start() < e for s, e in spans)]


def mutants(found: list[Message]) -> Iterator[Mutant]:
    """For each real translation, the faults that can be made of it, each kind once."""
    by_key = {(m.tool, m.msgid, m.locale): m for m in found}
    for message in found:
        yield Mutant(COPY, message, message.source)
        for kind, donors in ((OTHER_SCRIPT, OTHER_SCRIPT_DONOR), (OTHER_LANGUAGE, OTHER_LANGUAGE_DONOR)):
            donor = by_key.get((message.tool, message.msgid, donors.get(message.locale, "")))
            if donor is not None and donor.text != message.text:
                yield Mutant(kind, message, donor.text)
        kept = [v for v in message.values if v in message.text]
        if kept:
            dropped = " ".join(message.text.replace(kept[0], "").split())  # every occurrence
            if dropped != message.text:
                yield Mutant(DROPPED, message, dropped)
        words = _ordinary_words(message)
        replacements = _translated_words(message)
        count = 1 if len(words) <= 4 else 2
        if len(words) >= 3 and len(replacements) >= count:
            chosen = sorted(sorted(words, key=lambda m: -len(m.group()))[:count], key=lambda m: m.start())
            pieces, position = [], 0
            for match, replacement in zip(chosen, replacements, strict=False):
                pieces += [message.source[position : match.start()], replacement]
                position = match.end()
            yield Mutant(HALF, message, "".join(pieces) + message.source[position:])
