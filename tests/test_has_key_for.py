"""ET301 asks `has_key_for`, which tells what `key_for` finds without making the exact key."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.translation import translated_fields as tf

_KEYS = st.sampled_from(
    ["signature", "signature_zh", "signature_zh_CN", "signature_zh_Hant", "root_cause_zh_Hans_CN", "root_cause_ja",
     "workarounds_zh", "workarounds_cn", "dead_ends_zh", "root_cause_type", "signature_", "locale", "signature_xx"]
)
_LOCALES = st.sampled_from(["zh", "zh_CN", "zh_Hant", "ja", "cn", "xx", "en"])
_FIELDS = st.sampled_from(["signature", "root_cause", "workarounds", "dead_ends", "notes"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_KEYS, max_size=8), _FIELDS, _LOCALES)
@example(["signature_zh"], "signature", "zh")
@example(["signature_zh_CN"], "signature", "zh")
@example(["root_cause_ja"], "signature", "ja")
def test_has_key_for_is_whether_key_for_finds_one(names: list[str], field: str, locale: str) -> None:
    data = dict.fromkeys(names, "x")
    assert tf.has_key_for(data, field, locale, tf.Settings()) == (tf.key_for(data, field, locale, tf.Settings()) is not None)
