"""Locale tags in babel form (`zh`, `zh_Hant_TW`, `pt_BR`): validity, suggestions, likely script."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from babel import Locale, localedata
from babel.core import (
    UnknownLocaleError,
    get_global,
    get_locale_identifier,
    parse_locale,
)

# Not real languages or regions, though babel has data for them.
_PSEUDO_LANGUAGES = frozenset({"root", "und"})
_PSEUDO_TERRITORIES = frozenset({"ZZ"})
_PSEUDO_SCRIPTS = frozenset({"Zzzz", "Zxxx", "Zyyy", "Zinh"})


@dataclass(frozen=True)
class Parts:
    """The subtags of a valid locale tag."""

    language: str
    script: str | None
    territory: str | None
    variant: str | None

    def __str__(self) -> str:
        return get_locale_identifier((self.language, self.territory, self.script, self.variant))


@lru_cache(maxsize=1)
def _english() -> Locale:
    return Locale("en")


def _split(tag: str) -> Parts | None:
    """The subtags of `tag` as babel parses them (case-insensitively), or None."""
    try:
        language, territory, script, variant, *_ = parse_locale(tag)
    except ValueError:
        return None
    return Parts(language, script, territory, variant)


def _known_parts(parts: Parts) -> bool:
    english = _english()
    if parts.language in _PSEUDO_LANGUAGES or not localedata.exists(parts.language):
        return False
    if parts.script and (parts.script not in english.scripts or parts.script in _PSEUDO_SCRIPTS):
        return False
    if parts.territory and (
        parts.territory not in english.territories or parts.territory in _PSEUDO_TERRITORIES
    ):
        return False
    try:
        Locale.parse(str(parts))
    except (ValueError, UnknownLocaleError):
        return False
    return True


@lru_cache(maxsize=512)
def parse(tag: str) -> Parts | None:
    """The parts of `tag` if it is a locale babel knows, written in babel's form; else None."""
    parts = _split(tag)
    if parts is None or str(parts) != tag or not _known_parts(parts):
        return None
    return parts


def is_valid(tag: str) -> bool:
    return parse(tag) is not None


@lru_cache(maxsize=512)
def maximize(tag: str) -> str | None:
    """`tag` with likely script and territory filled in (CLDR likely subtags): zh -> zh_Hans_CN."""
    parts = parse(tag)
    if parts is None:
        return None
    likely: Mapping[str, str] = get_global("likely_subtags")
    lang, script, region = parts.language, parts.script, parts.territory
    candidates = [
        f"{lang}_{script}_{region}" if script and region else None,
        f"{lang}_{region}" if region else None,
        f"{lang}_{script}" if script else None,
        lang,
    ]
    for key in candidates:
        if key and key in likely:
            found = _split(likely[key])
            if found is not None:
                return str(Parts(lang, script or found.script, region or found.territory, parts.variant))
    return str(parts)


@lru_cache(maxsize=512)
def script(tag: str) -> str | None:
    """The ISO 15924 script `tag` is written in: its own script subtag, else the likely one."""
    full = maximize(tag)
    if full is None:
        return None
    parts = _split(full)
    return parts.script if parts else None


# Babel's short names for these read oddly alone ("no Simplified characters").
_SCRIPT_NAMES = {"Hans": "Simplified Han", "Hant": "Traditional Han"}


def script_name(code: str) -> str:
    """English name of an ISO 15924 script code (`Cyrl` -> `Cyrillic`)."""
    return _SCRIPT_NAMES.get(code) or str(_english().scripts.get(code, code))


@lru_cache(maxsize=512)
def language_name(tag: str) -> str:
    """English name of the language of a valid tag (`uk_UA` -> `Ukrainian`)."""
    parts = parse(tag)
    language = parts.language if parts else tag
    return str(_english().languages.get(language, language))


def same_locale(first: str, second: str) -> bool:
    """True if two valid tags name the same locale once likely subtags are filled in."""
    if first == second:
        return True
    a, b = maximize(first), maximize(second)
    return a is not None and a == b


@lru_cache(maxsize=1)
def _names() -> dict[str, str]:
    """Language names (English and the language's own, case-folded) -> language code."""
    names: dict[str, str] = {}
    for code, name in _english().languages.items():
        if "_" not in code and localedata.exists(code) and code not in _PSEUDO_LANGUAGES:
            names.setdefault(name.casefold(), code)
            try:
                own = Locale.parse(code).get_display_name(code)
            except (ValueError, UnknownLocaleError):
                own = None
            if own:
                names.setdefault(own.casefold(), code)
    return names


@lru_cache(maxsize=1)
def _known_tags() -> tuple[str, ...]:
    return tuple(sorted(t for t in localedata.locale_identifiers() if is_valid(t)))


def _dedupe(values: list[str]) -> list[str]:
    seen: list[str] = []
    for value in values:
        if value and value not in seen:
            seen.append(value)
    return seen


def _with_full(tag: str) -> list[str]:
    full = maximize(tag)
    return [tag, full] if full and full != tag else [tag]


def suggest(tag: str, limit: int = 3) -> list[str]:
    """Valid tags a writer of `tag` probably meant, best first (`cn` -> `zh`, `zh_Hans_CN`)."""
    out: list[str] = []
    cleaned = tag.strip().replace("-", "_")
    parts = _split(cleaned)
    if parts is not None and _known_parts(parts):
        out += _with_full(str(parts))
    if parts is not None and parts.territory is None and parts.script is None:
        # A region code written as a language (`cn`, `jp`, `kr`): its most likely locale.
        likely: Mapping[str, str] = get_global("likely_subtags")
        full = likely.get(f"und_{cleaned.upper()}")
        found = _split(full) if full else None
        if found is not None:
            out += [found.language, str(found)]
    aliases: Mapping[str, str] = get_global("language_aliases")
    for code in (_names().get(cleaned.replace("_", " ").casefold()), aliases.get(cleaned.lower())):
        if code and is_valid(code):
            out += _with_full(code)
    if parts is not None and is_valid(parts.language):
        # A known language with an unknown script or region: the language alone.
        out += _with_full(parts.language)
    if not out and len(cleaned) > 3:
        # A misspelt language name (`chinses`).
        for name in difflib.get_close_matches(cleaned.casefold(), list(_names()), n=1, cutoff=0.8):
            out += _with_full(_names()[name])
    if not out and len(cleaned) > 2:
        out += difflib.get_close_matches(cleaned, _known_tags(), n=limit, cutoff=0.8)
    return [s for s in _dedupe(out) if s != tag][:limit]


def problem(tag: str) -> str | None:
    """Why `tag` is not a valid babel-form locale (a clause to follow the tag), or None."""
    if parse(tag) is not None:
        return None
    parts = _split(tag)
    if "-" in tag:
        return "is not in babel form (subtags are joined with `_`, not `-`)"
    if parts is not None and _known_parts(parts) and str(parts) != tag:
        return "is not in babel's spelling"
    return "is not a locale babel knows"


def problem_with_hint(value: object, with_hint: bool = True) -> str | None:
    """`problem(value)` followed (with `with_hint`) by the tags its writer probably meant (None
    for a valid locale or a value that is no string)."""
    if not isinstance(value, str):
        return None
    found = problem(value)
    if found is None or not with_hint:
        return found
    hint = [f"`{h}`" for h in suggest(value)]
    if not hint:
        return found
    options = hint[0] if len(hint) == 1 else ", ".join(hint[:-1]) + " or " + hint[-1]
    return f"{found}; did you mean {options}?"
