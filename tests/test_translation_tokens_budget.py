"""Whether a translation keeps its source's tokens is checked within a budget: each token's
checks read the translation, and a long token can be compared at each of its places, so
thousands of tokens, or one long token, against a long translation took minutes. Within the
budget the lost tokens are those of the plain loop; a check past it counts as kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.similarity.phrases import folded
from entrykit.translation import preserved_tokens as pt

from .conftest import lint_corpus
from .hostile import entry_text


def _missing_without_budget(tokens: list[pt.Token], translation: str) -> list[pt.Token]:
    """`missing` as it was: every token checked."""
    seen: set[str] = set()
    out: list[pt.Token] = []
    text = folded(translation)
    for token in tokens:
        if token.text not in seen:
            seen.add(token.text)
            if not pt._kept(text, token) and not pt._as_word(text, token):
                out.append(token)
    return out


_SOURCE = st.lists(st.sampled_from(["`x.y`", "'a b'", "ERR_42", "1,024", "3.2.1", "API", "path/to", "运行", " ", ": "]), max_size=10)
_TRANSLATION = st.lists(st.sampled_from(["x.y", "`x .y`", "a b", "ERR_42", "1024", "3.2.1", "APIs", "错误", " ", "："]), max_size=10)


@settings(max_examples=400, deadline=None)
@given(_SOURCE.map("".join), _TRANSLATION.map("".join))
def test_within_the_budget_the_lost_tokens_are_those_of_the_plain_loop(source: str, translation: str) -> None:
    assert pt.lost(source, translation) == _missing_without_budget(pt.extract(source), translation)


class _Spent:
    """What `missing` spends: the translation read by each token's checks, and each token
    compared at each place of it (the matcher's search, a number's occurrences)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads = 0
        self.compared = 0
        kept, matcher, number_verbatim = pt._kept, pt._matcher, pt._number_verbatim

        def counted_kept(text: str, token: pt.Token, *budget: Any) -> bool:
            self.reads += len(text) + 1
            return kept(text, token, *budget)

        def counted_matcher(kind: str, text: str) -> Any:
            pattern = matcher(kind, text)
            spent = self

            class _Searched:
                def search(self, folded: str) -> Any:
                    spent.compared += (len(text) + 1) * (len(folded) + 1)
                    return pattern.search(folded)

            return _Searched()

        def counted_number(haystack: str, needle: str) -> bool:
            self.compared += (len(needle) + 1) * (len(haystack) + 1)
            return number_verbatim(haystack, needle)

        monkeypatch.setattr(pt, "_kept", counted_kept)
        monkeypatch.setattr(pt, "_matcher", counted_matcher)
        monkeypatch.setattr(pt, "_number_verbatim", counted_number)


def test_a_long_token_against_long_near_misses_is_left_past_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    spent = _Spent(monkeypatch)
    k = 4_000  # the token's search compared it at each near miss: 12 KB x 48 KB
    assert pt.lost("ab." * k + "x", "模块 " + ("ab." * (k - 1) + "y ") * 4 + " x") == []
    assert spent.compared <= pt.CHECK_BUDGET
    # within the budget, the search still runs
    assert [t.text for t in pt.lost("ab." * 40 + "x", "模块 " + ("ab." * 39 + "y ") * 4 + " x")] == ["ab." * 40 + "x"]


def test_many_tokens_against_a_long_translation_stay_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    spent = _Spent(monkeypatch)
    source = "E: " + " ".join(f"'m{i}'" for i in range(20_000))
    lost = pt.lost(source, "E：" + "m" * 20_000)  # each name's check read the 20 KB translation
    assert spent.reads <= pt.CHECK_BUDGET and 0 < len(lost) < 20_000
    assert [t.text for t in lost] == [f"m{i}" for i in range(len(lost))]


def test_a_long_token_and_translation_go_through_lint(tmp_path: Path) -> None:
    k = 20_000
    entry = entry_text("pip/x", signature="ModuleNotFoundError: " + "ab." * k + "x", regex="ModuleNotFoundError", signature_zh="模块错误: " + ("ab." * (k - 1) + "y ") * 4 + " x")
    result = lint_corpus(tmp_path, {"pip/x.yaml": entry})
    assert [e.id for e in result.entries] == ["pip/x"]
