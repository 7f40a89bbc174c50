"""A corpus's own lookup semantics: what ET202/ET203 say of a miss only by case."""

from __future__ import annotations

from pathlib import Path

from .conftest import lint_corpus

ENTRY = """id: test/case
signature: "Visa refused in the UK"
regex: "{regex}"
examples:
  - "Visa refused in the USA"
"""


def _messages(tmp_path: Path, regex: str, table: dict[str, object] | None = None) -> list[tuple[str, str]]:
    result = lint_corpus(tmp_path, {"test/case.yaml": ENTRY.format(regex=regex)}, table)
    return [(d.code, d.message) for d in result.diagnostics if d.code in ("ET202", "ET203")]


def test_a_miss_only_by_case_says_how_to_configure_it(tmp_path: Path) -> None:
    hint = 'only case-insensitively; set `regex.flags = ["IGNORECASE"]` if your corpus looks errors up that way'
    assert _messages(tmp_path, "visa refused in the u") == [
        ("ET202", f"regex matches the entry's own `signature` {hint}"),
        ("ET203", f"regex matches example 1 {hint}"),
    ]


def test_a_miss_for_another_reason_keeps_the_plain_message(tmp_path: Path) -> None:
    assert _messages(tmp_path, "visa denied") == [
        ("ET202", "regex does not match the entry's own `signature`"),
        ("ET203", "regex does not match example 1"),
    ]


def test_under_ignorecase_a_miss_never_suggests_it(tmp_path: Path) -> None:
    assert _messages(tmp_path, "visa denied", {"regex": {"flags": ["IGNORECASE"]}}) == [
        ("ET202", "regex does not match the entry's own `signature`"),
        ("ET203", "regex does not match example 1"),
    ]
    assert _messages(tmp_path / "b", "visa refused in the u", {"regex": {"flags": ["IGNORECASE"]}}) == []
