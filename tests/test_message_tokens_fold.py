"""`message_tokens.fold` replaces full-width forms itself where that gives the NFKC normal
form: it gives `unicodedata.normalize("NFKC", text)` for every text."""

from __future__ import annotations

import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt

_WIDE = [chr(c) for c in range(0xFF01, 0xFF5F)] + ["\u3000"]


def test_each_full_width_form_becomes_its_nfkc_form() -> None:
    for char in _WIDE:
        assert mt._WIDE.fullmatch(char) is not None
        assert mt._WIDE.sub(mt._narrow, char) == unicodedata.normalize("NFKC", char), hex(ord(char))
    assert mt._WIDE.search("\uff00\uff5f\uff60｡ \u00a0") is None


# Full-width forms with what may compose with them or around them once narrowed (combining
# marks, Hangul jamo), other compatibility forms (ligatures, NBSP, half-width katakana,
# circled digits), and text of other scripts.
_PIECES = st.one_of(
    st.sampled_from(_WIDE),
    st.sampled_from(
        ["错误", "：", "e", "a", "\u0301", "\u0308", "\u0327", "\u1100", "\u1161", "\u11a8", "ﬁ", "\u00a0", "ｶ", "ﾞ", "①",
         "…", "Å", "\u212b", "名前", "x", " ", "\n", "Ω", "\u2126", "ё", "\u0435\u0308", "ｈ\u0303"]
    ),
    st.text(max_size=3),
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(_PIECES, max_size=12).map("".join))
@example("ｅ\u0301")
@example("\uff41\u0308：")
@example("错误：RuntimeError（ＦＳＤＰ）\u3000x")
def test_fold_is_the_nfkc_normal_form(text: str) -> None:
    assert mt.fold(text) == unicodedata.normalize("NFKC", text), ascii(text)
