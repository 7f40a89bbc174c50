"""Every output format against a golden file (set ENTRYKIT_UPDATE_GOLDEN=1 to rewrite them)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from entrykit import __version__
from entrykit.cli import cli
from entrykit.lint.reporters import REPORTERS

from .conftest import FIXTURES

GOLDEN = Path(__file__).resolve().parent / "golden"
CORPUS = FIXTURES / "golden"


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # a copy: lint writes its cache into the corpus root, and the tree must stay as it is
    copy = shutil.copytree(CORPUS, tmp_path / "golden")
    monkeypatch.chdir(copy)
    for name in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    return copy


def _versionless(text: str) -> str:
    return text.replace(f'"version": "{__version__}"', '"version": "{version}"')


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["lint", "--today", "2026-11-30", *args], catch_exceptions=False)
    return result.exit_code, _versionless(result.stdout)


def _check(name: str, output: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):
        golden.write_text(output, encoding="utf-8")
    assert output == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_output_format_matches_golden(corpus: Path, fmt: str) -> None:
    code, output = _run("--format", fmt)
    assert code == 1
    _check(f"lint.{fmt}", output)


def test_statistics_matches_golden(corpus: Path) -> None:
    code, output = _run("--format", "text", "--statistics")
    _check("lint.statistics", output)


def test_colour_matches_golden(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """FORCE_COLOR colours the text format (a terminal would too); the text is the same."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    code, output = _run("--format", "text")
    assert code == 1 and "\x1b[" in output
    _check("lint.text.color", output)
    assert click.unstyle(output) == (GOLDEN / "lint.text").read_text(encoding="utf-8")


def test_one_run_writes_annotations_and_every_report_file(corpus: Path) -> None:
    """`--output-file FORMAT=PATH` beside the stdout format: each file is that format's golden."""
    code, output = _run(
        "--format", "github", "--output-file", "sarif=out/entrykit.sarif", "--output-file", "json=out/report.json",
        "--output-file", "text=out/report.txt",
    )
    assert code == 1
    assert output == (GOLDEN / "lint.github").read_text(encoding="utf-8")
    for name, fmt in (("entrykit.sarif", "sarif"), ("report.json", "json"), ("report.txt", "text")):
        written = _versionless((corpus / "out" / name).read_text(encoding="utf-8"))
        assert written == (GOLDEN / f"lint.{fmt}").read_text(encoding="utf-8"), name


def test_sarif_is_the_same_from_any_folder(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """URIs relative to %SRCROOT% (the project or repository root), wherever entrykit runs;
    text output names files relative to where the user stands."""
    monkeypatch.chdir(corpus / "entries" / "git")
    code, output = _run("--format", "sarif")
    assert output == (GOLDEN / "lint.sarif").read_text(encoding="utf-8")
    document = json.loads(output)
    run = document["runs"][0]
    assert "%SRCROOT%" in run["originalUriBaseIds"]
    uris = {
        loc["physicalLocation"]["artifactLocation"]["uri"] for result in run["results"] for loc in result["locations"]
    }
    assert "entries/git/broken.json" in uris and not any(u.startswith(("/", "file:", "..")) for u in uris)
    rules = run["tool"]["driver"]["rules"]
    assert all(rule["helpUri"].endswith("#" + rule["id"].lower() + "-" + rule["name"]) for rule in rules)
    _, text = _run("--format", "text")
    lines = text.splitlines()
    assert any(line.startswith("broken.json:4:3: ET001") for line in lines)
    assert any(line.startswith("../pip/no-matching-distribution.yaml:4:8: ET202") for line in lines)


def test_baseline_matches_golden(corpus: Path) -> None:
    result = CliRunner().invoke(
        cli, ["lint", "--today", "2026-11-30", "--write-baseline", "baseline.json"], catch_exceptions=False
    )
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr == "Wrote a baseline of 9 findings in 3 entries to baseline.json.\n"
    _check("lint.baseline", (corpus / "baseline.json").read_text(encoding="utf-8"))
    code, output = _run("--baseline", "baseline.json")
    assert code == 0 and output == "No problems in 3 files.\n"


def test_quiet_prints_only_the_findings_or_nothing(corpus: Path) -> None:
    code, quiet = _run("--format", "text", "-q")
    assert code == 1 and quiet == "".join((GOLDEN / "lint.text").read_text(encoding="utf-8").splitlines(True)[:-1])
    code, silent = _run("--format", "text", "-qq", "--output-file", "sarif=out.sarif")
    assert code == 1 and silent == "" and (corpus / "out.sarif").is_file()
