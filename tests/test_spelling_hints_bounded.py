"""A "did you mean" goes to the first `HINTED_PER_ENTRY` names of an entry, and the rest are named
without one. ET306 compares each invalid locale with every locale babel knows (about 5 ms), so an
entry of thousands of such keys took minutes; ET101 compares each unknown key with every field
the schema knows (about 0.25 ms: 133,000 unknown keys took 14 s)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from entrykit.rules import schema as schema_rules
from entrykit.spelling import HINTED_PER_ENTRY
from entrykit.translation import locales

from .conftest import lint_corpus
from .hostile import entry_text


def test_the_first_keys_get_a_hint_and_the_rest_are_named_without_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    suggest = locales.suggest

    def counted(tag: str, limit: int = 3) -> list[str]:
        asked.append(tag)
        return suggest(tag, limit)

    monkeypatch.setattr(locales, "suggest", counted)
    keys = {f"signature_chinse{n}": "x" for n in range(200)} | {"signature_chinses": "x"}
    result = lint_corpus(tmp_path, {"pip/x.yaml": entry_text("pip/x", **keys)})
    found = [d for d in result.diagnostics if d.code == "ET306"]
    assert len(found) == 201 and len(asked) == HINTED_PER_ENTRY
    hinted = [d for d in found if "did you mean" in d.message]
    assert len(hinted) == HINTED_PER_ENTRY
    plain = next(d for d in found if "signature_chinses" in d.message)
    assert plain.message == "locale `chinses` of `signature_chinses` is not a locale babel knows"
    assert locales.problem_with_hint("chinses") == "is not a locale babel knows; did you mean `zh` or `zh_Hans_CN`?"


def _unknown_key_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int) -> tuple[list[Any], list[str]]:
    asked: list[str] = []
    hint = schema_rules.did_you_mean

    def counted(name: str, known: Any) -> str:
        asked.append(name)
        return hint(name, known)

    monkeypatch.setattr(schema_rules, "did_you_mean", counted)
    keys = {f"rootcause{n}": "x" for n in range(count)}
    result = lint_corpus(tmp_path, {"pip/x.yaml": entry_text("pip/x", **keys)})
    return [d for d in result.diagnostics if d.code == "ET101" and "unknown key" in d.message], asked


def test_the_first_unknown_keys_get_a_hint_and_the_rest_are_named_without_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found, asked = _unknown_key_findings(tmp_path, monkeypatch, 100)
    assert len(found) == 100 and len(asked) == HINTED_PER_ENTRY
    hinted = [d for d in found if d.message.endswith("; did you mean `root_cause`?")]
    assert [d.message.split("`")[1] for d in hinted] == [f"rootcause{n}" for n in range(HINTED_PER_ENTRY)]
    assert next(d for d in found if "rootcause99" in d.message).message == "unknown key `rootcause99`"


def test_an_entry_of_a_few_unknown_keys_gets_a_hint_for_each(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found, asked = _unknown_key_findings(tmp_path, monkeypatch, 5)
    assert len(asked) == 5
    assert [d.message for d in found] == [f"unknown key `rootcause{n}`; did you mean `root_cause`?" for n in range(5)]
