"""ET306 gives a "did you mean" to the first `HINTED_LOCALES` keys of an entry with an invalid
locale, and names the rest without one: each hint compares the locale with every locale babel
knows (about 5 ms), so an entry of thousands of such keys took minutes."""

from __future__ import annotations

from pathlib import Path

import pytest

from entrykit.rules import translation
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
    assert len(found) == 201 and len(asked) == translation.HINTED_LOCALES
    hinted = [d for d in found if "did you mean" in d.message]
    assert len(hinted) == translation.HINTED_LOCALES
    plain = next(d for d in found if "signature_chinses" in d.message)
    assert plain.message == "locale `chinses` of `signature_chinses` is not a locale babel knows"
    assert locales.problem_with_hint("chinses") == "is not a locale babel knows; did you mean `zh` or `zh_Hans_CN`?"
