"""Translation rules on corpora of real error text: correct translations pass, faulty ones are caught."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from entrykit.config import from_table
from entrykit.lint.engine import lint

from .conftest import FIXTURES, TODAY, lint_corpus

CORRECT = yaml.safe_load((FIXTURES / "translations" / "correct.yaml").read_text(encoding="utf-8"))
FAULTY = yaml.safe_load((FIXTURES / "translations" / "faulty.yaml").read_text(encoding="utf-8"))
CONTENT_RULES = {"ET302", "ET304", "ET305"}


def entry(field: str, source: str, translations: dict[str, str]) -> str:
    """An entry (JSON) holding `source` in `field` and its translations."""
    data: dict[str, Any] = {"id": "test/case"}
    if field in ("workarounds", "dead_ends"):
        data[field] = [{"action": source, "success_rate": 0.5}]
        data.update({f"{field}_{loc}": [text] for loc, text in translations.items()})
    else:
        data[field] = source
        data.update({f"{field}_{loc}": text for loc, text in translations.items()})
    return json.dumps(data, ensure_ascii=False, indent=2)


def test_the_correct_corpus_is_big_enough() -> None:
    strings = [(item[loc], loc) for item in CORRECT for loc in ("zh", "ja", "ko")]
    assert len(strings) >= 30
    assert {loc for _, loc in strings} == {"zh", "ja", "ko"}


def test_correct_translations_yield_nothing(tmp_path: Path) -> None:
    files = {
        f"test/case{index}.json": entry(item["field"], item["source"], {loc: item[loc] for loc in ("zh", "ja", "ko")})
        for index, item in enumerate(CORRECT)
    }
    result = lint_corpus(tmp_path, files, {"select": ["ET3"], "translation": {"required": ["zh", "ja", "ko"]}})
    found = [f"{d.path}:{d.line} {d.code} {d.message}" for d in result.diagnostics if d.code in CONTENT_RULES]
    assert found == []
    assert len(result.entries) == len(CORRECT)


@pytest.mark.parametrize("item", FAULTY, ids=lambda item: f"{item['locale']}-{item['text'][:30]}")
def test_faulty_translations_are_caught(tmp_path: Path, item: dict[str, Any]) -> None:
    files = {"test/case.json": entry(item["field"], item["source"], {item["locale"]: item["text"]})}
    result = lint_corpus(tmp_path, files, {"select": ["ET3"], "translation": {"required": []}})
    assert sorted({d.code for d in result.diagnostics}) == sorted(item["expect"])


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_seed_001_translations(fmt: str) -> None:
    root = FIXTURES / "seed001" / fmt
    result = lint(None, from_table({"root": str(root), "select": ["ET3"]}, root), TODAY, cwd=root)
    by_pointer = {(d.pointer, d.code) for d in result.diagnostics}
    assert by_pointer == {("/workarounds_zh/0", "ET302"), ("/workarounds_zh/1", "ET302")}
    for pointer in ("/signature_zh", "/root_cause_zh"):
        assert not any(p == pointer for p, _ in by_pointer)


def test_untranslated_real_corpus_only_misses_translations(tmp_path: Path, deadends_dir: Path) -> None:
    """deadends.dev entries carry no translations: every one lacks the three required
    zh fields (ET301) and nothing else in ET3xx fires."""
    files: dict[str, str] = {}
    for number, path in enumerate(sorted(deadends_dir.rglob("*.json"))[::10]):
        canon = json.loads(path.read_text(encoding="utf-8"))
        data = {
            "id": f"{canon['error']['domain']}/e{number}",
            "signature": canon["error"]["signature"],
            "root_cause": canon["verdict"]["summary"],
            "workarounds": [{"action": w["action"]} for w in canon["workarounds"]],
            "locale": "en",
        }
        files[f"{canon['error']['domain']}/e{number}.json"] = json.dumps(data, ensure_ascii=False)
    result = lint_corpus(tmp_path, files, {"select": ["ET3"]})
    with_workarounds = sum(1 for text in files.values() if json.loads(text)["workarounds"])
    assert {d.code for d in result.diagnostics} == {"ET301"}
    assert len(result.diagnostics) == 2 * len(files) + with_workarounds
