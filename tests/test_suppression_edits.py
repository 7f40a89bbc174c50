"""`lint --add-suppressions`: comments that silence today's findings, and nothing else changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from entrykit.cli import cli
from entrykit.diagnostic import Diagnostic, Severity
from entrykit.lint.suppression_edits import plan_suppressions
from entrykit.parsing import parse_yaml

from .conftest import write_corpus

ENTRY = """\
id: pip/x
signature: "ERROR: boom in
  module x"
regex: "ERROR: nothing like it"  # checked by hand
domain: pip
root_cause: |
  It breaks.
workarounds:
  - action: Reinstall the package
    success_rate: 0.5
    how: Reinstall the package  # entrykit: disable=ET6
versions:
  - version: PIP 23.x+
"""


def _d(line: int, code: str, path: str = "entries/pip/x.yaml") -> Diagnostic:
    return Diagnostic(path, line, 3, code, "name", Severity.ERROR, "message")


def test_each_line_gets_one_comment_and_the_data_stay() -> None:
    files = {"entries/pip/x.yaml": (Path("/c/entries/pip/x.yaml"), ENTRY)}
    found = [_d(2, "ET304"), _d(2, "ET301"), _d(4, "ET202"), _d(4, "ET208"), _d(6, "ET101"), _d(11, "ET101"),
             _d(13, "ET401"), _d(1, "ET001"), _d(1, "ET002")]
    edits = plan_suppressions(found, files)
    new = edits.texts[Path("/c/entries/pip/x.yaml")]
    assert new.splitlines() == [
        "id: pip/x",
        "# entrykit: disable=ET304,ET301",  # the signature goes on to the next line: above it
        'signature: "ERROR: boom in',
        '  module x"',
        'regex: "ERROR: nothing like it"  # checked by hand  # entrykit: disable=ET202,ET208',
        "domain: pip",
        "root_cause: |  # entrykit: disable=ET101",
        "  It breaks.",
        "workarounds:",
        "  - action: Reinstall the package",
        "    success_rate: 0.5",
        "    how: Reinstall the package  # entrykit: disable=ET6,ET101",  # joins the directive there
        "versions:",
        "  - version: PIP 23.x+  # entrykit: disable=ET401",
    ]
    assert parse_yaml(new).data == parse_yaml(ENTRY).data
    assert edits.count == 7 and len(edits.added) == 5
    assert {why for _, _, why in edits.skipped} == {
        "ET001 is not silenced by a suppression", "ET002 is not silenced by a suppression"
    }


def test_json_entries_are_left_for_per_file_ignores() -> None:
    files = {"entries/pip/y.json": (Path("/c/entries/pip/y.json"), '{"id": "pip/y"}\n')}
    edits = plan_suppressions([_d(1, "ET202", "entries/pip/y.json"), _d(1, "ET101", "entries/pip/y.json")], files)
    assert not edits.texts and edits.json_codes == {"entries/pip/y.json": {"ET202", "ET101"}}


def _lint(*args: str) -> Result:
    return CliRunner().invoke(cli, ["lint", "--today", "2026-11-30", "--format", "text", *args], catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_corpus(tmp_path, {"pip/x.yaml": ENTRY})
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return tmp_path


def test_add_suppressions_then_lint_is_clean(project: Path) -> None:
    before = _lint("--strict")
    assert before.exit_code == 1
    added = _lint("--add-suppressions", "--strict")
    assert added.exit_code == 0, added.output
    assert added.stdout.startswith("Added ") and added.stdout.endswith("to 1 file.\n")
    after = _lint("--strict")
    assert after.exit_code == 0 and after.stdout == "No problems in 1 file.\n"  # and no ET002: each one is used
    text = (project / "entries" / "pip" / "x.yaml").read_text(encoding="utf-8")
    assert _lint("--add-suppressions").stdout == "Added 0 suppressions to 0 files.\n"
    assert (project / "entries" / "pip" / "x.yaml").read_text(encoding="utf-8") == text
    assert not list((project / "entries" / "pip").glob(".*"))  # written atomically: no temp file left


def test_add_suppressions_only_for_what_the_baseline_does_not_hold(project: Path) -> None:
    assert _lint("--write-baseline", "b.json").exit_code == 0
    entry = project / "entries" / "pip" / "x.yaml"
    entry.write_text(entry.read_text(encoding="utf-8") + "frobnicate: 1\n", encoding="utf-8")
    added = _lint("--baseline", "b.json", "--add-suppressions")
    assert added.exit_code == 0 and added.stdout.startswith("Added 1 suppression to 1 file.")
    assert entry.read_text(encoding="utf-8").endswith("frobnicate: 1  # entrykit: disable=ET101\n")
    assert entry.read_text(encoding="utf-8").count("entrykit: disable") == 2  # the one there was, and this


def test_json_entries_get_per_file_ignores_that_work(project: Path) -> None:
    (project / "entries" / "pip" / "x.yaml").unlink()
    data = {"id": "pip/y", "signature": "ERROR: y", "regex": "ERROR: z", "domain": "pip"}
    (project / "entries" / "pip" / "y.json").write_text(json.dumps(data) + "\n", encoding="utf-8")
    advised = _lint("--add-suppressions")
    assert advised.exit_code == 1
    lines = advised.stdout.splitlines()
    start = lines.index("[tool.entrykit.per-file-ignores]")
    table = "\n".join(lines[start : start + 2])
    assert lines[start + 1].startswith('"entries/pip/y.json" = ["ET')
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + table + "\n", encoding="utf-8")
    assert _lint().exit_code == 0
