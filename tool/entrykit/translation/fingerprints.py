"""Record in an entry's `translated_from` that its translations match the current sources.

`mark_current` computes the new file text (comments, order and quoting kept by
the round-trip loader); the caller writes it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from entrykit import pointer as jp
from entrykit.entry import Entry
from entrykit.roundtrip import load_document
from entrykit.translation import locales
from entrykit.translation import translated_fields as translated
from entrykit.translation.translated_fields import FINGERPRINTS, Settings


@dataclass(frozen=True)
class Marked:
    """The outcome for one file: its new text and which translations were marked."""

    path: str
    text: str
    changed: bool
    marked: tuple[str, ...] = ()
    skipped: tuple[tuple[str, str], ...] = field(default=())  # (key, why)


def _wanted(key: translated.Key, only: Collection[str] | None) -> bool:
    if not locales.is_valid(key.locale):
        return False
    return only is None or any(locales.same_locale(key.locale, loc) for loc in only if locales.is_valid(loc))


def _yaml_value(value: str | list[str]) -> Any:
    if isinstance(value, list):
        seq = CommentedSeq(value)
        seq.fa.set_flow_style()
        return seq
    return value


def mark_current(entry: Entry, settings: Settings, only: Collection[str] | None = None) -> Marked:
    """Set `translated_from[<key>]` to the fingerprint of each translation's current
    source (of the given locales, default all); drop fingerprints of translations
    the entry no longer has."""
    data = entry.data
    existing = data.get(FINGERPRINTS)
    if existing is not None and not isinstance(existing, dict):
        return Marked(entry.path, entry.text, False, skipped=((FINGERPRINTS, "is not a mapping"),))
    existing = existing or {}
    updates: dict[str, str | list[str]] = {}
    skipped: list[tuple[str, str]] = []
    present: set[str] = set()
    for key in translated.keys(data, settings):
        present.add(key.key)
        if not _wanted(key, only):
            continue
        value = translated.current_fingerprints(data, key)
        if value is None:
            lengths = translated.list_lengths(data, key)
            why = (
                f"has {lengths[0]} item{'' if lengths[0] == 1 else 's'} but `{key.field}` has {lengths[1]}"
                if lengths and lengths[0] != lengths[1]
                else f"does not match the shape of `{key.field}`"
            )
            skipped.append((key.key, why))
            continue
        if existing.get(key.key) != value:
            updates[key.key] = value
    orphans = [name for name in existing if name not in present]
    marked = tuple(sorted(updates))
    if not updates and not orphans:
        return Marked(entry.path, entry.text, False, marked, tuple(skipped))

    doc = load_document(entry.text, entry.fmt)
    convert = _yaml_value if entry.fmt == "yaml" else (lambda v: v)
    if FINGERPRINTS not in doc.data:
        table: Any = CommentedMap() if entry.fmt == "yaml" else {}
        doc.set(jp.join(FINGERPRINTS), table)
    table = doc.get(jp.join(FINGERPRINTS))
    for name in orphans:
        del table[name]
    for name, value in updates.items():
        table[name] = convert(value)
    if not table:
        del doc.data[FINGERPRINTS]
    text = doc.dump()
    if entry.text.endswith("\n") and not text.endswith("\n"):
        text += "\n"  # ruamel drops it with a deleted last key
    return Marked(entry.path, text, text != entry.text, marked, tuple(skipped))
