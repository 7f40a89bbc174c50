"""Every output format against a golden file (set ENTRYKIT_UPDATE_GOLDEN=1 to rewrite them)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from entrykit import __version__
from entrykit.cli import cli
from entrykit.lint.reporters import REPORTERS

from .conftest import FIXTURES

GOLDEN = Path(__file__).resolve().parent / "golden"
CORPUS = FIXTURES / "golden"


def _run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *args: str) -> tuple[int, str]:
    # a copy: lint writes its cache into the corpus root, and the tree must stay as it is
    corpus = shutil.copytree(CORPUS, tmp_path / "golden")
    monkeypatch.chdir(corpus)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result = CliRunner().invoke(cli, ["lint", "--today", "2026-11-30", *args], catch_exceptions=False)
    return result.exit_code, result.output.replace(f'"version": "{__version__}"', '"version": "{version}"')


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_output_format_matches_golden(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fmt: str) -> None:
    code, output = _run(monkeypatch, tmp_path, "--format", fmt)
    assert code == 1
    golden = GOLDEN / f"lint.{fmt}"
    if os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):
        golden.write_text(output, encoding="utf-8")
    assert output == golden.read_text(encoding="utf-8")


def test_statistics_matches_golden(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, output = _run(monkeypatch, tmp_path, "--format", "text", "--statistics")
    golden = GOLDEN / "lint.statistics"
    if os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):
        golden.write_text(output, encoding="utf-8")
    assert output == golden.read_text(encoding="utf-8")
