"""A setting whose items are a set (locales, fields, engines, token kinds, allow globs) reads an
item given twice once: `translation.required` of 20,000 `"ko"` made 60,000 ET301 warnings
on one entry (3 now), and a corpus of such entries as many times more."""

from __future__ import annotations

from pathlib import Path

import entrykit.rules  # noqa: F401  (registers the rules)
from entrykit import registry
from entrykit.config import from_table
from entrykit.globs import GLOBS_LIMIT
from entrykit.registry import Option

from .conftest import lint_corpus
from .hostile import entry_text


def test_an_item_given_twice_is_read_once_in_its_first_place() -> None:
    option = Option([], "Locales.", kind=list, items=str, unique=True)
    assert option.check(["ko", "ja", "ko", "zh", "ja"], "`x`") == ["ko", "ja", "zh"]
    assert Option([], "Rates.", kind=list, items=float).check([0.5, 0.5], "`y`") == [0.5, 0.5]


def test_the_set_settings_are_read_once_each(tmp_path: Path) -> None:
    table = {
        "translation": {"required": ["ko", "ja", "ko"], "fields": ["signature", "signature"]},
        "regex": {"flags": ["IGNORECASE", "IGNORECASE"], "portable_to": ["re2", "re2"]},
        "dupes": {"allow": ["pip/*"] * (GLOBS_LIMIT + 1)},
        "rules": {"ET305": {"kinds": ["path", "path"]}},
    }
    config = from_table(table, tmp_path)
    assert config.settings["translation"]["required"] == ["ko", "ja"]
    assert config.settings["translation"]["fields"] == ["signature"]
    assert config.settings["regex"]["flags"] == ["IGNORECASE"]
    assert config.settings["regex"]["portable_to"] == ["re2"]
    assert config.settings["dupes"]["allow"] == ["pip/*"]  # (one pattern, under the limit)
    checked = config.with_rules(registry.all_rules())
    assert checked.rule_options["ET305"]["kinds"] == ["path"]


def test_a_required_locale_given_many_times_is_one_finding_per_field(tmp_path: Path) -> None:
    files = {"pip/x.yaml": entry_text("pip/x")}
    once = lint_corpus(tmp_path / "once", files, {"translation": {"required": ["ko"]}}).diagnostics
    many = lint_corpus(tmp_path / "many", files, {"translation": {"required": ["ko"] * 500}}).diagnostics
    assert [d.message for d in many if d.code == "ET301"] == [d.message for d in once if d.code == "ET301"]
    assert any(d.code == "ET301" for d in once)
