"""ET304 reads a translation once for its three checks (script, foreign letters, kana) and
gives the findings the three checks asked one by one give."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import registry
from entrykit.diagnostic import Finding
from entrykit.entry import Entry
from entrykit.rules import translation as rules
from entrykit.translation import locales
from entrykit.translation import preserved_tokens as pt
from entrykit.translation import translated_fields as tf

_PIECES = st.sampled_from(
    ["名前", "の", "モジュール", "们", "这", "ыі", "ёэ", "ђј", "한국어", "中文字", "エラー", " ", "：", "foo.py", "'numpy'",
     "'名前'", "「名前」", "`code`", "CUDA", "error", "the disk", "is full", "E0382", "--flag", "12", "", ".", "\n", "日本語",
     "漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字"]
)
_TEXTS = st.lists(_PIECES, max_size=10).map("".join)
_LOCALES = st.sampled_from(["zh", "zh_Hant", "ja", "ko", "ru", "uk", "sr", "bg", "en", "fr", "hi", "xx", "zh-CN"])


def _foreign_letters(pair: tf.Pair) -> list[str]:
    """`letters_not_written` of the pair's reading where it has characters of its script, as ET304 asked it."""
    found = tf._written(pair)
    return [] if found is None else tf.letters_not_written(found)


def _kana_free_han(pair: tf.Pair) -> int:
    """`han_without_kana` of the pair's reading where it has characters of its script, as ET304 asked it."""
    found = tf._written(pair)
    return 0 if found is None else tf.han_without_kana(found)


def _by_three_checks(entry: Entry, ctx: registry.Context) -> Iterator[Finding]:
    """ET304 as it was: `missing_script`, `_foreign_letters`, `_kana_free_han`, each asked of the pair."""
    for pair in rules._pairs(entry, ctx):
        code = tf.missing_script(pair)
        if code is not None:
            yield Finding(
                pair.pointer,
                f"{pair.label} `{rules._short(pair.text)}` has no {locales.script_name(code)} "
                f"(`{code}`) characters outside code and names",
            )
            continue
        foreign = _foreign_letters(pair)
        language = locales.language_name(pair.key.locale)
        if foreign:
            shown = ", ".join(f"`{c}`" for c in foreign[:5])
            yield Finding(pair.pointer, f"{pair.label} `{rules._short(pair.text)}` has letters {language} does not write: {shown}")
        elif han := _kana_free_han(pair):
            yield Finding(
                pair.pointer, f"{pair.label} `{rules._short(pair.text)}` has {han} Han characters and no kana, which {language} writes"
            )


@settings(max_examples=300, deadline=None)
@given(_LOCALES, _TEXTS, _TEXTS, st.lists(st.tuples(_TEXTS, _TEXTS), max_size=3))
@example("ja", "the disk is full", "漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字", [])
@example("zh", "the disk is full", "名前の", [])
@example("ru", "the disk is full", "CUDA", [("error is full", "ыі")])
def test_the_rule_finds_what_the_three_checks_find(
    locale: str, source: str, text: str, items: list[tuple[str, str]]
) -> None:
    data = {
        "signature": source,
        f"signature_{locale}": text,
        "workarounds": [{"action": s} for s, _ in items],
        f"workarounds_{locale}": [t for _, t in items],
    }
    entry = Entry("a.yaml", Path("/corpus/a.yaml"), "yaml", data, "")
    ctx = registry.Context(date(2026, 11, 30))
    assert list(rules.translation_wrong_script(entry, ctx)) == list(_by_three_checks(entry, ctx))


@settings(max_examples=300, deadline=None)
@given(_LOCALES, _TEXTS, _TEXTS)
@example("zh", "the disk is full", "The disk is full.")
@example("zh", "E0382", "E0382")
def test_a_reading_is_none_for_a_copy_as_is_copy_says(locale: str, source: str, text: str) -> None:
    """`_reading` tells a copy by the copy keys alone once `has_words(source)` holds."""
    found = tf._reading.__wrapped__(locale, source, text)
    if tf._target(locale) is None or tf.is_empty(text) or not pt.has_words(source):
        assert found is None
    else:
        assert (found is None) == tf.is_copy(source, text)
