"""What a checkout holds never carries a write out of the project (symbolic links at report
files and baselines named inside it, a corpus root elsewhere), and a configuration or a
baseline nested too deep is an error, not a crash."""

from __future__ import annotations

import json
import os
import shutil
import sys
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


def _put_entry_elsewhere(project: Path) -> Path:
    elsewhere = project.parent / "elsewhere"
    (elsewhere / "python").mkdir(parents=True)
    target = elsewhere / "python" / "messy.yaml"
    target.write_text('signature:    "x"\nid: python/messy\n', encoding="utf-8")
    return target


@pytest.mark.parametrize("how", ["root outside", "linked root"])
def test_a_corpus_root_that_leads_out_of_the_project_is_refused(project: Path, how: str) -> None:
    target = _put_entry_elsewhere(project)
    if how == "root outside":
        (project / "entrykit.toml").write_text('root = "../elsewhere"\n', encoding="utf-8")
    else:
        shutil.rmtree(project / "entries")
        (project / "entries").symlink_to(project.parent / "elsewhere")
    before = target.read_bytes()
    for command in (["fmt"], ["lint", "--fix", "--no-cache"], ["lint", "--no-cache"]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == ExitCode.ERROR, (command, result.output)
        assert "leads out of the project" in result.output and "--root" in result.output
    assert target.read_bytes() == before
    # named on the command line, a corpus elsewhere is the user's own choice
    named = CliRunner().invoke(cli, ["lint", "--no-cache", "--exit-zero", "--root", str(project.parent / "elsewhere")])
    assert named.exit_code == ExitCode.CLEAN, named.output


def test_a_configuration_in_a_subfolder_may_name_a_root_beside_it_in_its_work_tree(project: Path) -> None:
    (project / "entrykit.toml").unlink()
    (project / ".git").mkdir()
    (project / "config").mkdir()
    (project / "config" / "entrykit.toml").write_text('root = "../entries"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["lint", "--no-cache", "--exit-zero", "--config", "config/entrykit.toml"])
    assert result.exit_code == ExitCode.CLEAN, result.output


def test_a_configuration_or_baseline_nested_too_deep_is_an_error_not_a_crash(project: Path) -> None:
    (project / "entrykit.toml").write_text('root = "entries"\n[regex]\nflags = ' + "[" * 5000 + "]" * 5000 + "\n")
    result = _lint()
    assert result.exit_code == ExitCode.ERROR and "nests arrays or tables too deep to read" in result.output
    (project / "entrykit.toml").write_text('root = "entries"\n', encoding="utf-8")
    (project / "baseline.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    result = _lint("--baseline", "baseline.json")
    assert result.exit_code == ExitCode.ERROR and "too deep to be a baseline" in result.output


def test_a_report_at_the_top_of_the_work_tree_is_checked_with_the_configuration_in_a_subfolder(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / ".git").mkdir()
    (project / "tools").mkdir()
    (project / "entrykit.toml").rename(project / "tools" / "entrykit.toml")
    (project / "tools" / "entrykit.toml").write_text('root = "../entries"\n', encoding="utf-8")
    victim = project.parent / "elsewhere" / "target.txt"
    victim.write_text("kept\n", encoding="utf-8")
    (project / "entrykit.sarif").symlink_to(victim)
    result = _lint("--config", "tools/entrykit.toml", "--output-file", "sarif=entrykit.sarif")
    assert result.exit_code == ExitCode.ERROR and "leads out of" in result.output
    result = _lint("--config", "tools/entrykit.toml", "--write-baseline", "entrykit.sarif")
    assert result.exit_code == ExitCode.ERROR and "leads out of" in result.output
    assert victim.read_text(encoding="utf-8") == "kept\n"


def test_suppressions_are_not_added_through_a_linked_folder_that_leads_out_of_the_project(project: Path) -> None:
    outside = project.parent / "elsewhere"
    shutil.copy(ENTRY, outside / ENTRY.name)
    before = (outside / ENTRY.name).read_bytes()
    (project / "entries" / "ext").symlink_to(outside)
    result = CliRunner().invoke(
        cli, ["lint", "--today", "2031-01-01", "--no-cache", "--add-suppressions", f"entries/ext/{ENTRY.name}"]
    )
    assert (outside / ENTRY.name).read_bytes() == before, result.output
    assert "# entrykit: disable" not in (outside / ENTRY.name).read_text(encoding="utf-8")


def test_merge_resolutions_are_not_written_through_a_link_that_leads_out_of_the_project(project: Path) -> None:
    copy = project / "entries" / "python" / "copy.yaml"
    copy.write_text(ENTRY.read_text(encoding="utf-8").replace("id: python/", "id: python/copy-of-", 1), encoding="utf-8")
    victim = project.parent / "elsewhere" / "dotfile"
    victim.write_text("kept\n", encoding="utf-8")
    (project / "merge-choices.yaml").symlink_to(victim)
    target = copy.read_text(encoding="utf-8").split("id: ", 1)[1].split("\n", 1)[0]
    result = CliRunner().invoke(
        cli, ["merge", "python/modulenotfounderror", target, "--write-resolutions", "merge-choices.yaml", "--today", "2026-11-30"]
    )
    assert result.exit_code == ExitCode.ERROR and "leads out of" in result.output, result.output
    assert victim.read_text(encoding="utf-8") == "kept\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_baseline_or_resolution_file_that_is_a_pipe_or_device_is_refused_not_waited_on(project: Path) -> None:
    os.mkfifo(project / "baseline.json")
    result = _lint("--baseline", "baseline.json")
    assert result.exit_code == ExitCode.ERROR and "not a regular file" in result.output, result.output
    copy = project / "entries" / "python" / "copy.yaml"
    copy.write_text(ENTRY.read_text(encoding="utf-8").replace("id: python/", "id: python/copy-of-", 1), encoding="utf-8")
    (project / "choices.yaml").symlink_to("/dev/zero")
    merge = ["merge", "python/modulenotfounderror", "python/copy-of-modulenotfounderror", "--today", "2026-11-30"]
    result = CliRunner().invoke(cli, [*merge, "--resolve", "choices.yaml", "--dry-run"])
    assert result.exit_code == ExitCode.ERROR and "not a regular file" in result.output, result.output
    (project / "bad.yaml").write_bytes(b"/workarounds/0: \xff\n")
    result = CliRunner().invoke(cli, [*merge, "--resolve", "bad.yaml", "--dry-run"])
    assert result.exit_code == ExitCode.ERROR and "not UTF-8" in result.output, result.output


def test_folders_nested_deeper_than_python_recurses_are_walked(project: Path) -> None:
    """A checkout may hold folders a thousand and more deep (git checks them out): the walk
    of the corpus finds the entry at the bottom, it does not end in a RecursionError."""
    deep = project / "entries"
    for _ in range(sys.getrecursionlimit() + 200):  # (a folder at a time: makedirs recurses too)
        deep = deep / "a"
        deep.mkdir()
    (deep / "x.yaml").write_text("id: a/x\nsignature: boom\n", encoding="utf-8")
    try:
        result = _lint("--format", "json", "--exit-zero")
        assert result.exit_code == ExitCode.CLEAN, result.output
        assert any(d["path"].endswith("/a/x.yaml") for d in json.loads(result.output))
    finally:  # (a folder at a time again: removing a tree recurses too)
        (deep / "x.yaml").unlink()
        while deep.name == "a":
            deep.rmdir()
            deep = deep.parent
