"""ET302 and ET304 tell a copy without making the copy keys where a letter shows they differ."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.similarity.phrases import compact_phrase
from entrykit.translation import translated_fields as tf

# ASCII, the letters the shortcut reads, and characters that folding changes or drops
# (full-width forms, spaces, final punctuation, a combining mark, `ẞ` which casefolds to ASCII).
_ALPHABET = st.sampled_from(
    list("aZ9 _.,:!?'`-(")
    + ["中", "文", "々", "ぁ", "ゖ", "ァ", "ヺ", "가", "힣", "Ж", "ё", "Ѐ", "ӿ"]
    + ["：", "，", "。", "！", "（", "Ａ", "\u3000", "\u00a0", "\u0301", "\u3099", "ẞ", "ſ", "ｶ", "丽"]
)
_TEXTS = st.text(_ALPHABET, max_size=12)


def _kept_ranges() -> list[str]:
    spans = [(0x0400, 0x04FF), (0x3041, 0x3096), (0x30A1, 0x30FA), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3)]
    return [chr(c) for low, high in spans for c in range(low, high + 1)]


def test_every_letter_the_shortcut_reads_survives_in_the_copy_key() -> None:
    for char in _kept_ranges():
        assert tf._KEPT_OUTSIDE_ASCII.fullmatch(char)
        for text in (char, f"A {char}\u0301.", f"：{char}。"):
            assert not compact_phrase(text).isascii(), (hex(ord(char)), text)


@settings(max_examples=500, deadline=None)
@given(_TEXTS, _TEXTS)
@example("error: x", "错误：error: x")
@example("Fatal", "fatal。")
@example("strasse", "STRAẞE")
@example("ab", "ａｂ")
def test_same_copy_key_is_the_comparison_of_the_keys(source: str, text: str) -> None:
    assert tf._same_copy_key(source, text) == (compact_phrase(source) == compact_phrase(text))


@settings(max_examples=300, deadline=None)
@given(_TEXTS, _TEXTS)
def test_is_copy_is_the_plain_comparison(source: str, text: str) -> None:
    plain = compact_phrase(source) == compact_phrase(text) and tf.tokens.has_words(source)
    assert tf.is_copy(source, text) == plain
