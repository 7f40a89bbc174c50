"""`--force-exclude`: of the files a hook names, only entries inside the corpus root are touched."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit.cli import cli

from .conftest import write_corpus

MESSY = "regex: 'ERROR: boom'\nid: pip/x\nsignature: 'ERROR: boom'\n"
WORKFLOW = "name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps: [{run: 'true'}]\n"
PACKAGE = '{"name": "site",   "version": "1.0.0",\n "private": true}\n'

OTHERS = {
    ".github/workflows/ci.yml": WORKFLOW,
    "package.json": PACKAGE,
    ".pre-commit-config.yaml": "repos: []\n",
    "docs/notes.yaml": "just: data\n",
    "entries/.hidden/x.yaml": MESSY,
    "entries/node_modules/y.json": PACKAGE,
    "entries/README.md": "# not an entry\n",
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_corpus(tmp_path, {"pip/x.yaml": MESSY})
    for name, text in OTHERS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return tmp_path


def _unchanged(repo: Path) -> None:
    for name, text in OTHERS.items():
        assert (repo / name).read_text(encoding="utf-8") == text, name


def test_lint_names_only_the_entries(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["lint", "--force-exclude", "entries/pip/x.yaml", *OTHERS], catch_exceptions=False)
    assert result.exit_code == 1
    named = {line.split(":")[0] for line in result.stdout.splitlines() if ": ET" in line}
    assert named == {"entries/pip/x.yaml"}
    assert "1 file checked" in result.stdout


def test_without_force_exclude_the_other_files_are_linted(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["lint", "package.json", "docs/notes.yaml"], catch_exceptions=False)
    assert "package.json" in result.stdout  # what the hooks used to do


def test_nothing_left_is_a_silent_success(repo: Path) -> None:
    for command in (["lint"], ["fmt"], ["fmt", "--check"]):
        result = CliRunner().invoke(cli, [*command, "--force-exclude", *OTHERS], catch_exceptions=False)
        assert result.exit_code == 0 and result.output == "", command
    _unchanged(repo)


def test_fmt_rewrites_only_the_entries(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["fmt", "--force-exclude", "entries/pip/x.yaml", *OTHERS], catch_exceptions=False)
    assert result.exit_code == 0 and result.stdout == "reformatted entries/pip/x.yaml\n"
    assert (repo / "entries" / "pip" / "x.yaml").read_text(encoding="utf-8").startswith("id: pip/x\n")
    _unchanged(repo)


def test_a_folder_inside_the_root_still_counts(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["lint", "--force-exclude", "entries/pip", "docs"], catch_exceptions=False)
    assert "entries/pip/x.yaml" in result.stdout and "notes" not in result.stdout


def test_the_root_seen_through_a_linked_folder(repo: Path, tmp_path: Path) -> None:
    """Files named through a symbolic link to the project are inside the corpus all the same."""
    link = tmp_path.parent / f"{tmp_path.name}-link"
    link.symlink_to(tmp_path, target_is_directory=True)
    try:
        result = CliRunner().invoke(
            cli, ["lint", "--force-exclude", str(link / "entries" / "pip" / "x.yaml"), str(link / "package.json")],
            catch_exceptions=False,
        )
        assert result.exit_code == 1 and "package.json" not in result.stdout and "x.yaml" in result.stdout
    finally:
        link.unlink()


def test_fmt_quiet_names_only_what_would_change(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["fmt", "--check", "-q"], catch_exceptions=False)
    assert result.exit_code == 1 and result.stdout == "would reformat entries/pip/x.yaml\n" and result.stderr == ""
    loud = CliRunner().invoke(cli, ["fmt", "--check"], catch_exceptions=False)
    assert loud.stderr == "1 file would be reformatted, 0 unchanged.\n"
