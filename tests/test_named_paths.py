"""A file's findings do not depend on how it is named (through `..` or a linked folder),
on the order files are named in, or on the folder entrykit runs from: corpus rules see
each file once, and "the first" of anything is the first by path."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from entrykit.cli import cli

from .conftest import REPO

CONFIG = 'root = "entries"\n[translation]\nrequired = []\n'


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "entrykit.toml").write_text(CONFIG, encoding="utf-8")
    for name, text in files.items():
        target = tmp_path / "entries" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return tmp_path


def _entry(entry_id: str, signature: str, regex: str) -> str:
    return f'id: {entry_id}\nsignature: "{signature}"\nregex: "{regex}"\ndomain: {entry_id.split("/")[0]}\n'


def _lint(cwd: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> list[dict[str, Any]]:
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(cli, ["lint", "--no-cache", "--exit-zero", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    found: list[dict[str, Any]] = json.loads(result.output)
    for item in found:  # every path as it really is, wherever the run was
        item["path"] = os.path.realpath(cwd / item["path"])
        for related in item["related"]:
            related["path"] = os.path.realpath(cwd / related["path"])
    return found


def _copy_of_a_bundled_entry(tmp_path: Path) -> Path:
    source = (REPO / "entries" / "pytorch" / "fsdp-param-mismatch.yaml").read_text(encoding="utf-8")
    copy = source.replace("id: pytorch/fsdp-param-mismatch", "id: pytorch/fsdp-copy", 1)
    return _project(tmp_path, {"pytorch/fsdp-param-mismatch.yaml": source, "pytorch/fsdp-copy.yaml": copy, "git/other.yaml": _entry("git/other", "fatal: nothing", "fatal: nothing")})


@pytest.mark.parametrize("naming", ["through ..", "from a subfolder", "through a linked folder"])
def test_a_file_named_another_way_gets_the_findings_of_its_plain_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, naming: str
) -> None:
    project = _copy_of_a_bundled_entry(tmp_path)
    plain = _lint(project, monkeypatch, "--today", "2024-07-01", "entries/pytorch/fsdp-copy.yaml")
    assert {f["code"] for f in plain} >= {"ET209", "ET502"}  # a corpus rule has something to say
    if naming == "through ..":
        named = _lint(project, monkeypatch, "--today", "2024-07-01", "entries/git/../pytorch/fsdp-copy.yaml")
    elif naming == "from a subfolder":
        named = _lint(project / "entries" / "git", monkeypatch, "--today", "2024-07-01", "../pytorch/fsdp-copy.yaml")
    else:
        (project / "pt").symlink_to(project / "entries" / "pytorch", target_is_directory=True)
        named = _lint(project, monkeypatch, "--today", "2024-07-01", "--force-exclude", "pt/fsdp-copy.yaml")
    # (ET501 against itself, or a corpus finding lost, was what a second copy of the file did)
    assert named == plain


def test_a_broad_regex_names_the_first_entries_by_path_whatever_the_files_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"aaa/broad.yaml": _entry("aaa/broad", "BROADX quux kaput", "kaput")}
    for i in range(70):
        files[f"mmm/e{i:02d}.yaml"] = _entry(f"mmm/e{i:02d}", f"widget{i:02d}x gizmo{i:02d}y kaput", f"widget{i:02d}x gizmo{i:02d}y kaput")
    files["zzz/late.yaml"] = _entry("zzz/late", "zzzlate frobnicated kaput", "BROADX quux|zzzlate frobnicated")
    project = _project(tmp_path, files)

    def broad(*args: str) -> list[dict[str, Any]]:
        return [f for f in _lint(project, monkeypatch, "--select", "ET209", *args) if f["path"].endswith("broad.yaml")]

    full = broad()
    assert "such as `mmm/e00`" in full[0]["message"]
    assert broad("entries/zzz/late.yaml", "entries/aaa/broad.yaml") == full
    assert broad("entries/zzz", "entries/aaa", "entries/mmm") == full


def test_corpus_findings_are_the_same_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {}
    for number, domain in enumerate(["aaa", "mmm", "zzz"] * 8):
        digits = number + 3  # regexes with no literal of two characters: past 16, not run on others
        files[f"{domain}/e{number}.yaml"] = _entry(f"{domain}/e{number}", "QQQ" + "7" * digits, f"[A-Z]{{3}}\\\\d{{{digits}}}")
    for name in ["aaa/x", "bbb/x", "mmm/a", "mmm/x", "zzz/x"]:  # one id, five holders
        files[f"{name}.yaml"] = _entry("dup/x", f"Holder {name} failed", f"Holder {name} failed")
    project = _project(tmp_path, files)
    top = _lint(project, monkeypatch, "--select", "ET209,ET501")
    inside = _lint(project / "entries" / "mmm", monkeypatch, "--select", "ET209,ET501")
    assert {f["code"] for f in top} == {"ET209", "ET501"}
    # (messages name paths as seen from where the run is, and the report is in the order of
    # those names: compare the places findings point at)
    def places(found: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return sorted((f["path"], f["line"], f["code"], f["severity"], json.dumps(f["related"])) for f in found)

    assert places(inside) == places(top)


def test_fmt_formats_a_file_named_two_ways_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = _project(tmp_path, {"git/x.yaml": 'signature:   "x y"\nid: git/x\n', "pip/y.yaml": _entry("pip/y", "y", "y")})
    monkeypatch.chdir(project)
    result = CliRunner().invoke(cli, ["fmt", "entries/git/x.yaml", "entries/pip/../git/x.yaml"])
    assert result.exit_code == 0, result.output  # (it was "… are the same file (hard links)")
    assert "1 file reformatted" in result.output
    assert (project / "entries" / "git" / "x.yaml").read_text(encoding="utf-8") == "id: git/x\nsignature: x y\n"
