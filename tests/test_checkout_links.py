"""A checkout's symbolic links never carry a write out of the project: report files and
baselines named inside it, and the corpus root `fmt` and `--fix` rewrite."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from entrykit.cli import ExitCode, cli

from .conftest import REPO

ENTRY = REPO / "entries" / "python" / "modulenotfounderror.yaml"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with one entry, and beside it a folder outside the project."""
    base = tmp_path / "project"
    (base / "entries" / "python").mkdir(parents=True)
    shutil.copy(ENTRY, base / "entries" / "python" / ENTRY.name)
    (base / "entrykit.toml").write_text('root = "entries"\n', encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(base)
    return base


def _lint(*args: str) -> Result:
    return CliRunner().invoke(cli, ["lint", "--today", "2026-11-30", "--no-cache", *args])


def test_a_report_is_not_written_through_a_link_that_leads_out_of_the_project(project: Path) -> None:
    victim = project.parent / "elsewhere" / "target.txt"
    victim.write_text("kept\n", encoding="utf-8")
    (project / "entrykit.sarif").symlink_to(victim)
    result = _lint("--output-file", "sarif=entrykit.sarif")
    assert result.exit_code == ExitCode.ERROR
    assert "`entrykit.sarif` leads out of" in result.output and "nothing was written" in result.output
    assert victim.read_text(encoding="utf-8") == "kept\n"
    # nor into a linked folder
    (project / "out").symlink_to(project.parent / "elsewhere")
    assert _lint("--output-file", "json=out/report.json").exit_code == ExitCode.ERROR
    assert not (project.parent / "elsewhere" / "report.json").exists()


def test_a_report_named_outside_the_project_is_written_there(project: Path) -> None:
    report = project.parent / "elsewhere" / "report.json"
    result = _lint("--output-file", f"json={report}", "--exit-zero")
    assert result.exit_code == ExitCode.CLEAN, result.output
    assert report.read_text(encoding="utf-8").startswith("[")


def test_a_baseline_is_not_written_through_a_link_that_leads_out_of_the_project(project: Path) -> None:
    victim = project.parent / "elsewhere" / "baseline.json"
    victim.write_text("kept\n", encoding="utf-8")
    (project / "entrykit-baseline.json").symlink_to(victim)
    result = _lint("--write-baseline", "entrykit-baseline.json")
    assert result.exit_code == ExitCode.ERROR and "leads out of" in result.output
    assert victim.read_text(encoding="utf-8") == "kept\n"
