"""Seed 001, verbatim as JSON and converted to YAML, yields exactly its expected diagnostics."""

from __future__ import annotations

import json

import pytest
import yaml

from entrykit.config import from_table
from entrykit.lint.engine import lint

from .conftest import FIXTURES, SEEDS, TODAY

SEED = FIXTURES / "seed001"


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_seed_001_expected_diagnostics(fmt: str) -> None:
    expected = yaml.safe_load((SEED / "expected.yaml").read_text(encoding="utf-8"))[fmt]
    root = SEED / fmt
    result = lint(None, from_table({"root": str(root)}, root), TODAY, cwd=root)
    got = sorted([d.line, d.code] for d in result.diagnostics)
    assert got == sorted(expected), "\n".join(f"{d.line}:{d.col} {d.code} {d.message}" for d in result.diagnostics)


def test_yaml_fixture_holds_the_same_data_as_the_json_seed() -> None:
    from entrykit.loader import load

    json_entry = load(SEED / "json/pytorch/fsdp-param-mismatch.json", "j")
    yaml_entry = load(SEED / "yaml/pytorch/fsdp-param-mismatch.yaml", "y")
    assert json_entry.data == yaml_entry.data  # type: ignore[union-attr]


def test_json_fixture_is_the_seed_verbatim() -> None:
    shared = SEEDS / "001_a95a5dbf39934289.txt"
    if not shared.is_file():
        pytest.skip("../shared/seeds is not present")
    fixture = SEED / "json/pytorch/fsdp-param-mismatch.json"
    assert fixture.read_bytes() == shared.read_bytes()
    assert isinstance(json.loads(fixture.read_text(encoding="utf-8")), dict)
