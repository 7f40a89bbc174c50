"""A translated pair made with its fields set at once is the `Pair` its constructor makes."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.translation import translated_fields as tf

_TEXTS = st.text(max_size=12)


@settings(max_examples=200, deadline=None)
@given(_TEXTS, st.sampled_from(["zh", "ja", "zh_CN"]), st.none() | st.integers(0, 5), _TEXTS, _TEXTS, _TEXTS, _TEXTS)
def test_a_made_pair_is_the_constructed_pair(
    field: str, locale: str, index: int | None, pointer: str, source_pointer: str, source: str, text: str
) -> None:
    key = tf.Key(f"{field}_{locale}", field, locale)
    made = tf._made_pair(key, index, pointer, source_pointer, source, text)
    plain = tf.Pair(key, index, pointer, source_pointer, source, text)
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert dataclasses.astuple(made) == dataclasses.astuple(plain)
    assert (made.label, made.source_label) == (plain.label, plain.source_label)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.text = "changed"  # type: ignore[misc]


def test_the_pairs_of_an_entry_are_the_constructed_pairs() -> None:
    data = {
        "signature": "Error: disk full",
        "signature_zh": "错误：磁盘已满",
        "workarounds": [{"action": "Free space"}, {"how": "no action"}, {"action": "Retry"}],
        "workarounds_zh": ["释放空间", "无", 3],
    }
    plain = [
        tf.Pair(tf.Key("signature_zh", "signature", "zh"), None, "/signature_zh", "/signature", "Error: disk full", "错误：磁盘已满"),
        tf.Pair(tf.Key("workarounds_zh", "workarounds", "zh"), 0, "/workarounds_zh/0", "/workarounds/0/action", "Free space", "释放空间"),
    ]
    found = [p for name in ("signature_zh", "workarounds_zh") for p in tf.pairs(data, tf.Key(name, name[:-3], "zh"))]
    assert found == plain
    assert [vars(p) for p in found] == [vars(p) for p in plain]
