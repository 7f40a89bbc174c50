"""An entry's translated fields: which keys, what they translate, and whether they really do.

Shared by the ET3xx rules and the `entrykit translations` report, so both judge a
translation the same way.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

from entrykit import message_tokens as mt
from entrykit import pointer as jp
from entrykit.frozen import made_frozen
from entrykit.similarity.phrases import compact_phrase, folded
from entrykit.translation import languages, locales
from entrykit.translation import preserved_tokens as tokens
from entrykit.translation import writing_systems as scripts

SOURCE_LOCALE = "en"
FINGERPRINTS = "translated_from"
# Fields whose translations the schema allows, besides any configured ones.
SCHEMA_FIELDS = ("signature", "root_cause", "workarounds", "dead_ends")
# Keys that look like `<field>_<locale>` but are fields of their own.
NOT_TRANSLATIONS = frozenset({"root_cause_type"})


@dataclass(frozen=True)
class Settings:
    """The `[tool.entrykit.translation]` section."""

    required: tuple[str, ...] = ("zh",)
    fields: tuple[str, ...] = ("signature", "root_cause", "workarounds")
    track_source: bool = False
    # locale -> term -> the translations of it a project accepts
    glossary: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = ()

    def __hash__(self) -> int:
        """The hash of the fields, as a frozen dataclass's, made once: settings are part of
        the key of caches every rule reads per entry and field, and a `required` of
        thousands of locales was hashed anew each time (quadratic)."""
        return self._fields_hash

    @cached_property
    def _fields_hash(self) -> int:
        """`hash` of the fields in order, as dataclasses make it."""
        return hash((self.required, self.fields, self.track_source, self.glossary))

    @classmethod
    def from_section(cls, section: Mapping[str, Any]) -> Settings:
        glossary = section.get("glossary") or {}
        return cls(
            required=tuple(section.get("required", cls.required)),
            fields=tuple(section.get("fields", cls.fields)),
            track_source=bool(section.get("track_source", cls.track_source)),
            glossary=tuple(
                (locale, tuple((term, (v,) if isinstance(v, str) else tuple(v)) for term, v in terms.items()))
                for locale, terms in glossary.items()
            ),
        )

    def accepted(self, locale: str, term: str) -> tuple[str, ...]:
        """The translations of `term` the glossary accepts in `locale` (or a locale that is
        the same once likely subtags are filled in, or its language)."""
        out: list[str] = []
        for glossary_locale, table in self._term_tables:
            if glossary_locale == locale or (
                locales.is_valid(glossary_locale)
                and locales.is_valid(locale)
                and (locales.same_locale(glossary_locale, locale) or glossary_locale == locale.split("_")[0])
            ):
                out += table.get(term, ())
        return tuple(out)

    @cached_property
    def _term_tables(self) -> tuple[tuple[str, Mapping[str, tuple[str, ...]]], ...]:
        """Each glossary locale with its terms by name (a term's translations looked up, not
        found by a pass over every term: thousands of terms and lost tokens took seconds)."""
        return tuple((glossary_locale, _by_term(terms)) for glossary_locale, terms in self.glossary)

    @cached_property
    def translatable(self) -> tuple[str, ...]:
        """Every field a `<field>_<locale>` key may translate, longest first."""
        names = set(self.fields) | set(SCHEMA_FIELDS)
        return tuple(sorted(names, key=lambda n: (-len(n), n)))

    @cached_property
    def key_pattern(self) -> re.Pattern[str]:
        """`(<field>)_(<locale>)`, the longest field first."""
        return _key_pattern(self.translatable)


def _by_term(terms: Sequence[tuple[str, tuple[str, ...]]]) -> dict[str, tuple[str, ...]]:
    """Every translation listed for each term, in the order listed."""
    table: dict[str, list[str]] = {}
    for name, translations in terms:
        table.setdefault(name, []).extend(translations)
    return {name: tuple(listed) for name, listed in table.items()}


@lru_cache(maxsize=16)
def _key_pattern(fields: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("(" + "|".join(re.escape(f) for f in fields) + r")_(.+)", re.S)


@dataclass(frozen=True)
class Key:
    """A translated key `<field>_<locale>` of an entry (the locale may be invalid)."""

    key: str
    field: str
    locale: str

    @property
    def pointer(self) -> str:
        return _pointer(self.key)


def source_locale(data: Mapping[str, Any]) -> str:
    value = data.get("locale")
    return value if isinstance(value, str) and value else SOURCE_LOCALE


def split_key(key: str, settings: Settings) -> Key | None:
    """`signature_zh` -> Key(field `signature`, locale `zh`); None for other keys."""
    if "_" not in key or key in NOT_TRANSLATIONS:
        return None
    return _split_key(key, settings.key_pattern)


@lru_cache(maxsize=4096)  # every translation rule reads every key of every entry: they repeat
def _split_key(key: str, pattern: re.Pattern[str]) -> Key | None:
    match = pattern.fullmatch(key)
    return Key(key, match.group(1), match.group(2)) if match else None


def keys(data: Mapping[str, Any], settings: Settings) -> Iterator[Key]:
    """Every translated key of an entry, in file order."""
    return iter(_keys(tuple(data), settings))


@lru_cache(maxsize=1024)  # every translation rule asks; entries share their lists of fields
def _keys(names: tuple[Any, ...], settings: Settings) -> tuple[Key, ...]:
    return tuple(found for name in names if isinstance(name, str) and (found := split_key(name, settings)) is not None)


def key_for(data: Mapping[str, Any], field: str, locale: str, settings: Settings) -> Key | None:
    """The key holding `field` in `locale`: `<field>_<locale>` itself, else a key whose
    locale is the same once likely subtags are filled in (`zh_CN` for `zh`)."""
    exact = f"{field}_{locale}"
    if exact in data:
        return Key(exact, field, locale)
    for found in keys(data, settings):
        if found.field == field and locales.is_valid(found.locale) and locales.same_locale(found.locale, locale):
            return found
    return None


def has_key_for(data: Mapping[str, Any], field: str, locale: str, settings: Settings) -> bool:
    """True if `key_for` finds a key (without making the Key of `<field>_<locale>` itself)."""
    return f"{field}_{locale}" in data or key_for(data, field, locale, settings) is not None


def is_list_field(data: Mapping[str, Any], field: str) -> bool:
    return isinstance(data.get(field), list)


def source_items(data: Mapping[str, Any], field: str) -> list[tuple[str, str | None]]:
    """(pointer, text) of what `field` holds to translate: the string itself, or each
    list item's `action` (None where an item has none)."""
    value = data.get(field)
    if isinstance(value, str):
        return [(_pointer(field), value)]
    if isinstance(value, list):
        out: list[tuple[str, str | None]] = []
        for index, item in enumerate(value):
            action = item.get("action") if isinstance(item, dict) else None
            out.append((_pointer(field, index, "action"), action if isinstance(action, str) else None))
        return out
    return []


@lru_cache(maxsize=4096)  # the same few keys, fields and item numbers, asked by every rule for every entry
def _pointer(*tokens: str | int) -> str:
    return jp.join(*tokens)


def has_source(data: Mapping[str, Any], field: str) -> bool:
    """True if `field` holds text to translate (a non-empty string or list)."""
    value = data.get(field)
    return bool(value.strip()) if isinstance(value, str) else bool(isinstance(value, list) and value)


@dataclass(frozen=True)
class Pair:
    """One translated string and the source text it translates."""

    key: Key
    index: int | None  # the list item, or None for a string field
    pointer: str
    source_pointer: str
    source: str
    text: str

    @property
    def label(self) -> str:
        """How messages name it: `signature_zh`, `workarounds_zh` item 2."""
        return f"`{self.key.key}`" if self.index is None else f"`{self.key.key}` item {self.index + 1}"

    @property
    def source_label(self) -> str:
        """How messages name the source: `signature`, `workarounds` item 2."""
        return f"`{self.key.field}`" if self.index is None else f"`{self.key.field}` item {self.index + 1}"


def list_lengths(data: Mapping[str, Any], key: Key) -> tuple[int, int] | None:
    """(translated, source) lengths of a list translation, or None if either is no list."""
    value, source = data.get(key.key), data.get(key.field)
    if isinstance(value, list) and isinstance(source, list):
        return len(value), len(source)
    return None


def pairs(data: Mapping[str, Any], key: Key) -> Iterator[Pair]:
    """The (translation, source) strings of a key; a list whose length differs from its
    source yields nothing, since which item translates which is unknown."""
    value = data.get(key.key)
    sources = source_items(data, key.field)
    if isinstance(value, str) and isinstance(data.get(key.field), str):
        source_pointer, source = sources[0]
        if source is not None:
            yield _made_pair(key, None, key.pointer, source_pointer, source, value)
        return
    lengths = list_lengths(data, key)
    if lengths is None or lengths[0] != lengths[1] or not isinstance(value, list):
        return
    for index, (item, (source_pointer, source)) in enumerate(zip(value, sources, strict=True)):
        if isinstance(item, str) and source is not None:
            yield _made_pair(key, index, _pointer(key.key, index), source_pointer, source, item)


def _made_pair(key: Key, index: int | None, pointer: str, source_pointer: str, source: str, text: str) -> Pair:
    """`Pair(key, index, pointer, source_pointer, source, text)`, its fields set at once
    (every translated string of every entry makes a pair)."""
    fields = {
        "key": key, "index": index, "pointer": pointer, "source_pointer": source_pointer, "source": source, "text": text
    }
    return made_frozen(Pair, fields)


def is_empty(text: str) -> bool:
    return not text.strip()


@lru_cache(maxsize=4096)
def _copy_key(text: str) -> str:
    return compact_phrase(text)


def is_copy(source: str, text: str) -> bool:
    """True if `text` is `source` again (width, case, spacing and final punctuation
    aside) although `source` holds words to translate."""
    return _same_copy_key(source, text) and tokens.has_words(source)


# Letters that width folding, case folding, spacing and final punctuation all leave as
# they are, and outside ASCII: Cyrillic, hiragana, katakana, Han, Hangul syllables.
_KEPT_OUTSIDE_ASCII = re.compile("[\u0400-\u04ff\u3041-\u3096\u30a1-\u30fa\u4e00-\u9fff\uac00-\ud7a3]")


def _same_copy_key(source: str, text: str) -> bool:
    """`_copy_key(source) == _copy_key(text)`, without making the keys where they cannot be
    equal: an ASCII source's key is ASCII, a text with such a letter's key is not."""
    if source.isascii() and _KEPT_OUTSIDE_ASCII.search(text) is not None:
        return False
    return _copy_key(source) == _copy_key(text)


class Reading(NamedTuple):
    """What the checks of a translation's script and letters read of it: its language and
    script, the text without its tokens (of which they read only the characters outside
    ASCII), and whether a character of the script is left there."""

    language: str
    script: str
    kept: str
    has_script: bool


def reading(pair: Pair) -> Reading | None:
    """The reading of a translation to a non-Latin script entrykit can recognise, where
    the text holds something to translate and is no copy; None elsewhere."""
    return _reading(pair.key.locale, pair.source, pair.text)


# ET304's script, letter and kana checks and ET308 each ask about one pair: read once.
@lru_cache(maxsize=4096)
def _reading(locale: str, source: str, text: str) -> Reading | None:
    target = _target(locale)
    if target is None:
        return None
    # (`has_words(source)` holds past its own test: the copy check needs only the copy keys)
    if is_empty(text) or not tokens.has_words(source) or _same_copy_key(source, text):
        return None
    language, code = target
    kept = tokens.strip_outside_ascii(text) if scripts.outside_ascii(code) else tokens.strip(text)
    return Reading(language, code, kept, scripts.has_script(kept, code))


@lru_cache(maxsize=512)
def _target(locale: str) -> tuple[str, str] | None:
    """The language and script of a locale whose script entrykit can recognise and is not
    Latin; None for any other locale."""
    parts = locales.parse(locale)
    code = locales.script(locale) if parts is not None else None
    if parts is None or code is None or scripts.is_latin(code) or not scripts.knows(code):
        return None
    return parts.language, code


def missing_script(pair: Pair) -> str | None:
    """The ISO 15924 script the translation should be written in but has no character
    of outside its tokens; None when it has some, or the check does not apply (Latin
    script, unknown locale, a source with nothing to translate, or a plain copy)."""
    found = _reading(pair.key.locale, pair.source, pair.text)
    return found.script if found is not None and not found.has_script else None


def _written(pair: Pair) -> Reading | None:
    """The reading of a translation the letter and word checks judge: one that has
    characters of its script (else it is `missing_script`'s)."""
    found = _reading(pair.key.locale, pair.source, pair.text)
    return found if found is not None and found.has_script else None


# Characters of a translation read while looking for the glossary's translations of its lost
# tokens (a read of the text per accepted translation, about a second's worth): a glossary
# and an entry a pull request writes could otherwise make their sizes' product (40,000
# translations of one term and a 1.8 MB translation: 21 s). Past it, a token whose
# translations were not all looked for counts as lost. 4,000 glossary terms lost from a
# translation of 24,000 characters read half of it.
GLOSSARY_READ_BUDGET = 200_000_000


def lost_tokens(pair: Pair, kinds: Collection[str] | None = None, settings: Settings | None = None) -> list[tokens.Token]:
    """The source's tokens (of `kinds`) the translation lost, where no translation the
    glossary accepts for it stands instead (looked for within `GLOSSARY_READ_BUDGET`)."""
    if is_empty(pair.text):
        return []
    lost = tokens.lost(pair.source, pair.text, kinds)
    if settings is None or not settings.glossary:
        return lost
    text = folded(pair.text).casefold()
    left = GLOSSARY_READ_BUDGET
    still: list[tokens.Token] = []
    for token in lost:
        for accepted in settings.accepted(pair.key.locale, token.text):
            left -= len(text)
            if left < 0:
                still.append(token)
                break
            if tokens.fold(accepted).casefold() in text:
                break
        else:
            still.append(token)
    return still


def han_without_kana(found: Reading) -> int:
    """How many Han characters a Japanese translation (a reading that has characters of its
    script) has without any kana, when so many that it is Chinese (see
    `languages.lacks_kana`); else 0."""
    # (`kept` holds the text's characters outside ASCII outside tokens: all it reads)
    return languages.lacks_kana(found.kept, found.language)


def letters_not_written(found: Reading) -> list[str]:
    """Letters of a translation (a reading that has characters of its script; outside its
    tokens) that its language does not write: kana in Chinese, simplified Chinese in
    Japanese, `і` in Russian; empty when the check does not apply or finds none."""
    if not languages.knows(found.language):
        return []
    return languages.foreign_letters(found.kept, found.language)  # (it reads no ASCII)


_ASCII_WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]{2,}(?![A-Za-z0-9_])")
_ASCII_RUN = re.compile(r"[A-Za-z0-9_]+")
_GLOSS = re.compile(r"(?<=\S)\([A-Za-z][A-Za-z ]*\)")
# A half-translation is judged on sources with at least this many ordinary words.
HALF_MINIMUM_WORDS = 3


def ordinary_words(text: str) -> list[str]:
    """The English words of `text` outside every message token (names, flags, paths,
    quoted text ...), casefolded, each once."""
    return list(_ordinary_words(text))


@lru_cache(maxsize=4096)
def _ordinary_words(text: str) -> tuple[str, ...]:
    tokens_found = mt.scan(text)  # in order, without overlaps
    words: list[str] = []
    position = 0
    for token in tokens_found:
        if token.start > position:
            if text[token.start - 1] in _ASCII_LETTERS:
                # A word may run on into the token: read the whole text the long way.
                return _ordinary_words_between(text, tokens_found)
            # A word starting between two tokens ends before the next one (a letter would
            # precede it): `findall` up to there reads it as the whole text does, and its
            # look-behind reads the character before `position`.
            words += _ASCII_WORD.findall(text, position, token.start)
        position = max(position, token.end)
    words += _ASCII_WORD.findall(text, position)
    # (ASCII letters casefold as they lower; each word once, in order)
    return tuple(dict.fromkeys(" ".join(words).lower().split()))


_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _ordinary_words_between(text: str, tokens_found: Sequence[mt.Token]) -> tuple[str, ...]:
    """The words of `text` that start outside every token of `tokens_found`, casefolded,
    each once, in order."""
    starts = [t.start for t in tokens_found]
    out: dict[str, None] = {}
    for match in _ASCII_WORD.finditer(text):
        start = match.start()
        at = bisect_right(starts, start) - 1
        if at >= 0 and start < tokens_found[at].end:
            continue  # inside the last token starting at or before it
        out[match.group().casefold()] = None
    return tuple(out)


def untranslated_words(pair: Pair) -> tuple[list[str], int] | None:
    """The source's ordinary words that reappear in a translation to a non-Latin script,
    and how many ordinary words the source has; None where the check does not apply
    (Latin script, a copy, a text without its script's letters: ET302 and ET304)."""
    found = _untranslated_words(pair.key.locale, pair.source, pair.text)
    return None if found is None else (list(found[0]), found[1])


# A translation shared by many entries (one root cause, its one translation) is read once.
@lru_cache(maxsize=4096)
def _untranslated_words(locale: str, source: str, text: str) -> tuple[tuple[str, ...], int] | None:
    """`untranslated_words` of a pair's locale, source and translation, remembered."""
    found = _reading(locale, source, text)
    if found is None or not found.has_script:
        return None
    words = _ordinary_words(source)
    return _words_kept(text, words), len(words)


def _words_kept(translation: str, words: tuple[str, ...]) -> tuple[str, ...]:
    """The `words` (ASCII, casefolded) that are a run of ASCII word characters of the
    translation once folded and lowered, outside glosses."""
    if not words:
        return ()
    text = folded(translation)
    # An English word in parentheses next to its translation is a gloss: `用户ID(uid)`.
    if "(" in text:  # (a gloss opens with one)
        text = _GLOSS.sub(" ", text)
    kept = set(" ".join(_ASCII_RUN.findall(text)).lower().split())  # (ASCII: casefold is lower)
    return tuple(w for w in words if w in kept)


def fingerprint(source: str) -> str:
    """8 hex digits of the SHA-256 of the source text, its width and spacing normalised."""
    normal = " ".join(tokens.fold(source).split())
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:8]


def recorded_fingerprint(data: Mapping[str, Any], pair: Pair) -> str | None:
    """The fingerprint recorded for this translation in `translated_from`, if any."""
    table = data.get(FINGERPRINTS)
    if not isinstance(table, dict):
        return None
    value = table.get(pair.key.key)
    if pair.index is None:
        return value if isinstance(value, str) else None
    if isinstance(value, list) and pair.index < len(value) and isinstance(value[pair.index], str):
        return str(value[pair.index])
    return None


def is_stale(data: Mapping[str, Any], pair: Pair) -> bool:
    """True unless the recorded fingerprint matches the current source text."""
    return recorded_fingerprint(data, pair) != fingerprint(pair.source)


def current_fingerprints(data: Mapping[str, Any], key: Key) -> str | list[str] | None:
    """What `translated_from[key]` should hold now; None where the key cannot be marked."""
    found = list(pairs(data, key))
    if isinstance(data.get(key.key), str):
        return fingerprint(found[0].source) if found else None
    lengths = list_lengths(data, key)
    if lengths is None or lengths[0] != lengths[1] or len(found) != lengths[0]:
        return None
    return [fingerprint(p.source) for p in found]
