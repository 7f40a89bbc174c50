"""Ids are never trusted to build paths: `new`, `merge` and `import` refuse unsafe ids before
any file is touched (the whole scratch tree is byte-identical afterwards), with a clear message
and a non-zero exit, never a traceback."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit.cli import ExitCode, cli
from entrykit.paths import shown

from .conftest import REPO
from .faults import changed, snapshot
from .test_import_deadends import CANON
from .test_merge import A, B

SIGNATURE = "ModuleNotFoundError: No module named 'yaml_missing'"


def _unsafe(base: Path) -> list[str]:
    """Ids that would leave the corpus root, or name something else, if they became paths."""
    return [
        "../../etc/x",
        "python/../../../x",
        f"{base}/outside/x",  # absolute, inside the scratch tree so a write would show
        "/etc/x",
        "python\\..\\..\\x",
        "python\\x",
        "python/x\x00y",
        "\x00../x",
        "C:\\x\\y",
    ]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project two levels below `tmp_path`, so `../../x` from its root stays in the snapshot."""
    work = tmp_path / "work" / "project"
    root = work / "entries"
    (root / "git").mkdir(parents=True)
    (root / "git" / "not-a-repo.yaml").write_text(A, encoding="utf-8")
    (root / "git" / "no-repository.yaml").write_text(B, encoding="utf-8")
    (work / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    (tmp_path / "outside").mkdir()
    (tmp_path / "etc").mkdir()
    monkeypatch.chdir(work)
    return tmp_path


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)  # an exception fails the test
    return result.exit_code, result.output


def _refused(base: Path, *args: str) -> str:
    before = snapshot(base)
    code, out = _invoke(*args)
    assert changed(before, snapshot(base)) == [], out
    assert code != ExitCode.CLEAN, out
    assert "Traceback" not in out and "internal error" not in out
    return out


@pytest.mark.parametrize("index", range(9))
def test_new_refuses_an_unsafe_id_from_an_option_or_a_file(project: Path, index: int) -> None:
    bad = _unsafe(project)[index]
    common = ["new", "--no-input", "--today", "2026-11-30", "--root-cause", "Not installed.", "--category", "import_error"]
    out = _refused(project, *common, "--signature", SIGNATURE, "--id", bad)
    assert f"id `{shown(bad)}` is not `<domain>/<slug>`" in out
    answers = project / "work" / "project" / "answers.json"
    answers.write_text(json.dumps({"signature": SIGNATURE, "id": bad}), encoding="utf-8")
    out = _refused(project, *common, "--from", str(answers))
    assert f"id `{shown(bad)}` is not `<domain>/<slug>`" in out
    assert "\x00" not in out  # control characters are shown escaped


@pytest.mark.parametrize("value", [5, None, ["python/x"], {"id": "python/x"}])
def test_new_refuses_an_id_that_is_not_a_string(project: Path, value: object) -> None:
    answers = project / "work" / "project" / "answers.json"
    answers.write_text(json.dumps({"signature": SIGNATURE, "root_cause": "x", "id": value}), encoding="utf-8")
    out = _refused(project, "new", "--no-input", "--from", str(answers))
    assert "`id` must be a string" in out


@pytest.mark.parametrize("index", range(9))
def test_merge_refuses_an_unsafe_id_argument(project: Path, index: int) -> None:
    bad = _unsafe(project)[index]
    for args in ((bad, "git/not-a-repo"), ("git/not-a-repo", bad)):
        out = _refused(project, "merge", *args, "--prefer", "into", "--force")
        assert f"`{shown(bad)}` is neither an entry file nor an id" in out


@pytest.mark.parametrize("index", range(9))
def test_merge_refuses_an_entry_whose_own_id_is_unsafe(project: Path, index: int) -> None:
    """Named by its path, the entry is found, but its id would be recorded and referenced."""
    bad = _unsafe(project)[index]
    victim = project / "work" / "project" / "entries" / "git" / "no-repository.yaml"
    victim.write_text(B.replace("id: git/no-repository", f"id: {json.dumps(bad)}"), encoding="utf-8")
    for args in (("git/not-a-repo", "entries/git/no-repository.yaml"), ("entries/git/no-repository.yaml", "git/not-a-repo")):
        out = _refused(project, "merge", *args, "--prefer", "into", "--force")
        assert f"id `{shown(bad)}` is not `<domain>/<slug>`; fix it before merging" in out


@pytest.mark.parametrize("index", range(9))
def test_import_refuses_an_unsafe_upstream_id(project: Path, index: int) -> None:
    bad = _unsafe(project)[index]
    canon = copy.deepcopy(CANON)
    canon["id"] = bad
    source = project / "work" / "canon.json"
    source.write_text(json.dumps(canon), encoding="utf-8")
    out = _refused(project, "import", "--from", "deadends", str(source))
    assert f"canon.json:1:1: id `{shown(bad)}` has " in out and "imported 0 of 1 files" in out


@pytest.mark.parametrize("index", range(9))
def test_import_refuses_an_unsafe_id_on_a_page(project: Path, index: int) -> None:
    bad = _unsafe(project)[index]
    os.chdir(REPO)
    page = CliRunner().invoke(cli, ["render", "pytorch/fsdp-parameter-mismatch"]).output
    os.chdir(project / "work" / "project")
    assert "ID: `pytorch/fsdp-parameter-mismatch`" in page
    source = project / "work" / "page.md"
    source.write_text(page.replace("ID: `pytorch/fsdp-parameter-mismatch`", f"ID: `{bad}`"), encoding="utf-8")
    out = _refused(project, "import", "--from", "markdown", str(source))
    why = "contains a NUL byte" if "\x00" in bad else f"id `{shown(bad)}` is not `<domain>/<slug>`"  # a text file has none
    assert why in out and "imported 0 of 1 files" in out


def test_import_writes_the_safe_entries_and_refuses_only_the_unsafe_one(project: Path) -> None:
    canon = copy.deepcopy(CANON)
    (project / "work" / "good.json").write_text(json.dumps(canon), encoding="utf-8")
    canon["id"] = "../../../outside/x/y"
    (project / "work" / "bad.json").write_text(json.dumps(canon), encoding="utf-8")
    before = snapshot(project)
    code, out = _invoke("import", "--from", "deadends", "--no-lookup-settings", str(project / "work" / "good.json"), str(project / "work" / "bad.json"))
    assert code == ExitCode.FINDINGS and "imported 1 of 2 files" in out
    assert changed(before, snapshot(project)) == ["work/project/entries/python/modulenotfounderror_py311-linux.yaml"]


@pytest.mark.parametrize(
    "command",
    [
        ["new", "--no-input", "--signature", SIGNATURE, "--root-cause", "x", "--id", "../../etc/x"],
        ["new", "--no-input", "--from", "answers.json"],
        ["merge", "git/not-a-repo", "../../etc/x"],
        ["merge", "git/not-a-repo", "entries/git/no-repository.yaml", "--prefer", "into"],
        ["import", "--from", "deadends", "canon.json"],
    ],
    ids=["new-option", "new-from", "merge-argument", "merge-entry", "import"],
)
def test_the_installed_command_refuses_without_a_traceback(project: Path, command: list[str]) -> None:
    work = project / "work" / "project"
    (work / "answers.json").write_text(json.dumps({"signature": SIGNATURE, "root_cause": "x", "id": "pip/a\x00b"}))
    canon = copy.deepcopy(CANON)
    canon["id"] = "python\\..\\..\\x"
    (work / "canon.json").write_text(json.dumps(canon), encoding="utf-8")
    entry = work / "entries" / "git" / "no-repository.yaml"
    entry.write_text(B.replace("id: git/no-repository", 'id: "/etc/x"'), encoding="utf-8")
    before = snapshot(project)
    proc = subprocess.run(
        [sys.executable, "-m", "entrykit", *command], cwd=work, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode in (ExitCode.FINDINGS, ExitCode.ERROR), proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert "id" in proc.stderr and proc.stderr.count("\n") <= 3, proc.stderr  # one clear line
    assert changed(before, snapshot(project)) == []
