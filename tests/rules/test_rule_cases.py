"""Run every data-driven rule case in tests/rules/cases/*.yaml.

A case file is named after the code it tests (ET202.yaml) and holds a list of
cases. Each case has `name`, either `entry` (one file, written at `path`,
default `test/case.yaml`) or `files` (path -> text), and `expect`: a list of
`[line, code]` (one file) or `[path, line, code]`. Only the codes in `codes`
(default: the file's code) are compared. Optional: `config` (a
[tool.entrykit] table), `today`, `targets` (lint only these files).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

from entrykit import registry

from ..conftest import TODAY, lint_corpus

CASES = Path(__file__).resolve().parent / "cases"


def _load_cases() -> list[Any]:
    params = []
    for case_file in sorted(CASES.glob("*.yaml")):
        code = case_file.stem
        for case in yaml.safe_load(case_file.read_text(encoding="utf-8")) or []:
            params.append(pytest.param(code, case, id=f"{code}::{case['name']}"))
    return params


@pytest.mark.parametrize(("code", "case"), _load_cases())
def test_rule_case(tmp_path: Path, code: str, case: dict[str, Any]) -> None:
    files = dict(case["files"]) if "files" in case else {case.get("path", "test/case.yaml"): case["entry"]}
    today = date.fromisoformat(str(case["today"])) if "today" in case else TODAY
    result = lint_corpus(tmp_path, files, case.get("config"), today, case.get("targets"))
    codes = set(case.get("codes", [code]))
    single = len(files) == 1
    got = sorted(
        ([d.line, d.code] if single else [d.path, d.line, d.code])
        for d in result.diagnostics
        if d.code in codes
    )
    expected = sorted(list(item) for item in case.get("expect", []))
    assert got == expected, "\n".join(f"{d.path}:{d.line}:{d.col}: {d.code} {d.message}" for d in result.diagnostics)


def test_every_rule_has_failing_and_passing_cases() -> None:
    by_code: dict[str, list[dict[str, Any]]] = {}
    for param in _load_cases():
        code, case = param.values
        by_code.setdefault(code, []).append(case)
    for rule in registry.all_rules():
        cases = by_code.get(rule.code, [])
        assert any(c.get("expect") for c in cases), f"{rule.code} has no failing case"
        assert any(not c.get("expect") for c in cases), f"{rule.code} has no passing case"
