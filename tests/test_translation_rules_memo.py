"""The translation rules read an entry's keys and pairs once for all of them: what one
entry's check keeps is never read for another, nor under other settings."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from entrykit import registry
from entrykit.entry import Entry
from entrykit.rules import translation as rules

TODAY = date(2026, 11, 30)


def _entry(name: str, data: dict[str, Any]) -> Entry:
    return Entry(name, Path("/corpus") / name, "yaml", data, "")


def _findings(entry: Entry, settings: dict[str, Any]) -> list[tuple[str, str, str]]:
    out = []
    for check in (rules.missing_translation, rules.translation_list_mismatch, rules.invalid_locale, rules.untranslated_text):
        rule = registry.get(check.__name__.replace("_", "-"))
        ctx = registry.Context(TODAY, {}, {"translation": settings})
        out += [(rule.code, f.pointer, f.message) for f in check(entry, ctx)]
    return out


def test_each_entry_and_each_setting_is_read_for_itself() -> None:
    first = _entry("a.yaml", {"signature": "Error: disk full", "signature_zh": "Error: disk full", "signature_cn": "x"})
    second = _entry(
        "b.yaml",
        {"signature": "Error: disk full", "workarounds": [{"action": "Free space"}], "workarounds_ja": ["a", "b"]},
    )
    fresh: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for entry in (first, second):
        for settings in ({}, {"required": ["ja"]}):
            rules._keys_of.forget()
            rules._pairs_of.forget()
            fresh[entry.path, str(settings)] = _findings(entry, settings)
    assert fresh["a.yaml", "{}"] != fresh["b.yaml", "{}"]
    assert fresh["a.yaml", "{}"] != fresh["a.yaml", "{'required': ['ja']}"]
    for entry, settings in [(first, {}), (second, {}), (first, {"required": ["ja"]}), (first, {}), (second, {"required": ["ja"]})]:
        assert _findings(entry, settings) == fresh[entry.path, str(settings)]
