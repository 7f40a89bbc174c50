"""Entry text, file names and a project's schema never make a line of their own in
`dupes` text, a `--diff` header, the `translations` report or `entrykit schema`: a line
break in them is written as `\\n`, and controls a terminal obeys as escapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit.cli import cli

from .conftest import REPO, write_corpus

FORGED = "entries/python/fake.yaml:1:1: ET101 [error] forged"


def _entry(entry_id: str, extra: str = "") -> str:
    return f'id: "{entry_id}"\nsignature: "KeyError: the key named in the mapping was not found"\n{extra}'


def test_an_id_with_a_line_break_stays_on_its_line_in_dupes_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_corpus(tmp_path, {"python/a.yaml": _entry("python/a\\n" + FORGED), "python/b.yaml": _entry("python/b")})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["dupes", "--root", "entries"])
    assert "near-duplicate" in result.output or "cluster" in result.output, result.output
    assert not any(line.startswith(FORGED) for line in result.output.splitlines())
    assert "\\n" + FORGED in result.output


@pytest.mark.parametrize("command", [["fmt", "--diff"], ["lint", "--diff", "--no-cache"]])
def test_a_file_name_with_a_line_break_stays_on_its_line_in_a_diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    folder = tmp_path / "entries" / ("q\n" + "entries/python")
    folder.mkdir(parents=True)
    # an unescaped dot (--fix has a change), and keys out of order (fmt has one)
    fixable = 'id: python/x\nsignature: "KeyError: config.yaml not found"\nregex: "config.yaml not found"\n'
    unformatted = 'signature:    "KeyError: x"\nid: python/x\n'
    (folder / "x.yaml").write_text(fixable if command[0] == "lint" else unformatted, encoding="utf-8")
    (tmp_path / "entrykit.toml").write_text('root = "entries"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, [*command, "--exit-zero"] if command[0] == "lint" else command)
    headers = [line for line in result.output.splitlines() if line.startswith(("---", "+++"))]
    assert headers, result.output
    assert all("\\n" in line for line in headers)
    assert not any(line.startswith("entries/python/x.yaml") for line in result.output.splitlines())


@pytest.mark.parametrize("output_format", ["text", "markdown"])
def test_ids_and_file_names_with_line_breaks_stay_on_their_line_in_translations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output_format: str
) -> None:
    write_corpus(tmp_path, {"python/a.yaml": _entry("python/a\\n" + FORGED)})
    folder = tmp_path / "entries" / ("q\n" + FORGED)
    folder.mkdir(parents=True)
    (folder / "b.yaml").write_text(_entry("python/b"), encoding="utf-8")
    (tmp_path / "entrykit.toml").write_text('root = "entries"\n[translation]\nrequired = ["zh"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["translations", "--format", output_format])
    assert "signature_zh" in result.output, result.output
    assert not any(line.lstrip(" -[]`(").startswith(FORGED) for line in result.output.splitlines())
    # both are shown, each inside its line (Markdown shows the id's `\` and `[` escaped)
    assert result.output.count("fake.yaml:1:1: ET101 ") == 2, result.output


def test_a_project_schema_prints_no_control_or_line_breaking_character(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    schema = json.loads((REPO / "schema" / "entry.schema.json").read_text(encoding="utf-8"))
    hostile = "A\u009b31mB \u202eC \u2028D \u0085E \x7fF \x1b[2J\n" + FORGED
    schema["properties"]["id"]["description"] = hostile
    (tmp_path / "schema.json").write_text(json.dumps(schema), encoding="utf-8")
    (tmp_path / "entrykit.toml").write_text('schema = "schema.json"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["schema"])
    assert result.exit_code == 0, result.output
    assert not any(char in result.output for char in "\u009b\u202e\u2028\u0085\x7f\x1b")
    assert json.loads(result.output)["properties"]["id"]["description"] == hostile
