"""`information` sums its characters' weights without a generator: the same sum as the
plain one, character by character."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import information as info

SAMPLES = ["", "a", "error: x", "中文エラー", "오류", "1.2.3", "  \t", "ß İ ı ſ K", "a" * 500]


def _plain(text: str) -> float:
    return sum(info._hundredths(char) for char in text) / 100


def test_samples() -> None:
    for text in SAMPLES:
        assert info.information(text) == _plain(text), text
    assert info.information("ab 中") == (100 + 100 + 25 + 250) / 100


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=80))
def test_any_text(text: str) -> None:
    assert info.information(text) == _plain(text)
