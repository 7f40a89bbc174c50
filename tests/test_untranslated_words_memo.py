"""A pair's untranslated words (ET308), remembered by its locale, source and translation,
are those read afresh."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.similarity.phrases import folded
from entrykit.translation import translated_fields as tf


def _plain_untranslated_words(pair: tf.Pair) -> tuple[list[str], int] | None:
    """`untranslated_words` as it was: read afresh for every pair."""
    if tf._written(pair) is None:
        return None
    words = tf._ordinary_words(pair.source)
    if not words:
        return [], 0
    text = folded(pair.text)
    if "(" in text:
        text = tf._GLOSS.sub(" ", text)
    kept = set(" ".join(tf._ASCII_RUN.findall(text)).lower().split())
    return [w for w in words if w in kept], len(words)


_WORDS = st.sampled_from(
    ["the", "Disk", "is", "full", "unable", "to", "access", "model_signal", "'alpha'", "RuntimeError:", "42", "--force", "CPU"]
)
_PIECES = st.sampled_from(
    ["the", "DISK", "full", "access", "model_signal", "磁盘", "已满", "无法", "访问", "(disk)", "（full）", "ｔｈｅ", "ディスク", "диск", " ", "，", "42"]
)


def _pair(locale: str, source: str, text: str) -> tf.Pair:
    key = tf.Key(f"signature_{locale}", "signature", locale)
    return tf.Pair(key, None, key.pointer, "/signature", source, text)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(_WORDS, min_size=1, max_size=8).map(" ".join),
    st.lists(_PIECES, min_size=1, max_size=10).map("".join),
    st.lists(st.sampled_from(["zh", "ja", "ru", "fr", "zh_Hant"]), min_size=2, max_size=4),
)
def test_remembered_untranslated_words_are_those_read_afresh(source: str, text: str, locales: list[str]) -> None:
    # (the same source and translation in several locales, and asked again: a remembered
    # answer is never another locale's, and a caller changing its list changes no other's)
    for locale in locales + locales:
        pair = _pair(locale, source, text)
        found = tf.untranslated_words(pair)
        assert found == _plain_untranslated_words(pair), (locale, source, text)
        if found is not None:
            found[0].append("changed")
            assert tf.untranslated_words(pair) == _plain_untranslated_words(pair)


def test_a_half_translation_and_its_gloss() -> None:
    source = "fatal: unable to access the repository"
    pair = _pair("zh", source, "fatal: unable to 访问 the repository")
    assert tf.untranslated_words(pair) == (["fatal", "unable", "to", "the", "repository"], 6)
    glossed = _pair("zh", source, "fatal: 无法访问仓库(repository)")
    assert tf.untranslated_words(glossed) == (["fatal"], 6)
    assert tf.untranslated_words(_pair("fr", source, "fatal: unable to 访问 the repository")) is None
