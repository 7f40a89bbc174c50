"""Locale tags through babel, and scripts through the Unicode Script property."""

from __future__ import annotations

from pathlib import Path

import pytest

from entrykit.errors import ConfigError
from entrykit.translation import locales
from entrykit.translation import writing_systems as scripts

from .conftest import make_config


@pytest.mark.parametrize("tag", ["en", "zh", "zh_CN", "zh_Hant", "zh_Hant_TW", "ja", "ko", "pt_BR", "sr_Latn", "es_419"])
def test_valid_tags(tag: str) -> None:
    assert locales.is_valid(tag) and locales.problem(tag) is None


@pytest.mark.parametrize(
    ("tag", "problem", "suggested"),
    [
        ("cn", "is not a locale babel knows", ["zh", "zh_Hans_CN"]),
        ("jp", "is not a locale babel knows", ["ja", "ja_Jpan_JP"]),
        ("chinese", "is not a locale babel knows", ["zh", "zh_Hans_CN"]),
        ("中文", "is not a locale babel knows", ["zh", "zh_Hans_CN"]),
        ("zh-CN", "is not in babel form", ["zh_CN", "zh_Hans_CN"]),
        ("zh_cn", "is not in babel's spelling", ["zh_CN", "zh_Hans_CN"]),
        ("eng", "is not a locale babel knows", ["en"]),
        ("en_ZZ", "is not a locale babel knows", ["en"]),
        ("japanse", "is not a locale babel knows", ["ja"]),
        ("und", "is not a locale babel knows", None),
        ("xx", "is not a locale babel knows", []),
    ],
)
def test_invalid_tags_with_suggestions(tag: str, problem: str, suggested: list[str] | None) -> None:
    assert not locales.is_valid(tag)
    assert (locales.problem(tag) or "").startswith(problem)
    hints = locales.suggest(tag)
    assert all(locales.is_valid(h) for h in hints)
    if suggested is not None:
        assert hints[: len(suggested)] == suggested


@pytest.mark.parametrize(
    ("tag", "script"),
    [("zh", "Hans"), ("zh_TW", "Hant"), ("zh_Hant", "Hant"), ("ja", "Jpan"), ("ko", "Kore"),
     ("ru", "Cyrl"), ("sr", "Cyrl"), ("sr_Latn", "Latn"), ("ar", "Arab"), ("de", "Latn")],
)
def test_script_from_likely_subtags(tag: str, script: str) -> None:
    assert locales.script(tag) == script


def test_same_locale_fills_in_likely_subtags() -> None:
    assert locales.same_locale("zh", "zh_CN") and locales.same_locale("zh", "zh_Hans")
    assert not locales.same_locale("zh", "zh_Hant")
    assert not locales.same_locale("zh", "cn")


@pytest.mark.parametrize(
    ("text", "script", "found"),
    [
        ("设备上没有剩余空间", "Hans", True),
        ("デバイス", "Jpan", True),
        ("不正記憶域参照", "Jpan", True),
        ("장치에 남은 공간", "Kore", True),
        ("記憶域", "Kore", False),  # Han alone is no Korean
        ("Драйвер", "Cyrl", True),
        ("No space left，device。", "Hans", False),  # CJK punctuation is no Han
        ("anything", "Qaaa", False),  # a private-use code: nothing is recognised
    ],
)
def test_has_script(text: str, script: str, found: bool) -> None:
    assert scripts.has_script(text, script) is found


def test_composite_codes_stand_for_unicode_scripts() -> None:
    assert scripts.unicode_scripts("Jpan") == ("Hani", "Hira", "Kana")
    assert scripts.is_latin("Latn") and scripts.is_latin("Latf") and not scripts.is_latin("Cyrl")
    assert scripts.count("RuntimeError: CUDA 内存不足", "Hans") == 4


def test_required_locales_are_checked_when_config_loads(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"'cn' is not a locale babel knows; did you mean `zh` or `zh_Hans_CN`"):
        make_config(tmp_path, {"translation": {"required": ["zh", "cn"]}})
    make_config(tmp_path, {"translation": {"required": ["zh", "ja", "pt_BR"], "track_source": True}})
