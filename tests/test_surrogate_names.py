"""A file name of bytes that are no UTF-8 reaches every report as the text `\\xff`: never a
crash, and every report stays valid UTF-8 (JSON and SARIF readers included)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit.cli import ExitCode, cli
from entrykit.output_safety import dumps, escape

from .conftest import REPO


def test_a_surrogate_escape_is_written_as_the_byte_it_stands_for() -> None:
    assert escape("bad\udcff\udcfename.yaml") == "bad\\xff\\xfename.yaml"
    assert escape("lone \ud800 half") == "lone \\ud800 half"
    encoded = dumps({"path": "bad\udcffname"})
    assert json.loads(encoded.encode("utf-8")) == {"path": "bad\\xffname"}


@pytest.mark.skipif(os.uname().sysname == "Darwin", reason="file names there are UTF-8 only")
@pytest.mark.parametrize("report", ["text", "json", "sarif", "github"])
def test_a_file_name_that_is_no_utf8_is_reported_in_every_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, report: str
) -> None:
    folder = tmp_path / "entries" / "python"
    folder.mkdir(parents=True)
    shutil.copy(REPO / "entries" / "python" / "modulenotfounderror.yaml", folder / "modulenotfounderror.yaml")
    with open(os.path.join(os.fsencode(folder), b"bad\xff\xfename.yaml"), "wb") as stream:
        stream.write(b"id: python/bad\nsignature: x\n")
    (tmp_path / "entrykit.toml").write_text('root = "entries"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    written = tmp_path / "report.out"
    result = CliRunner().invoke(cli, ["lint", "--no-cache", "--format", "github", "--output-file", f"{report}={written}"])
    assert result.exit_code == ExitCode.FINDINGS, result.output
    text = written.read_bytes().decode("utf-8")  # strictly
    if report == "sarif":  # a URI of the file's own bytes
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in json.loads(text)["runs"][0]["results"]]
        assert "entries/python/bad%FF%FEname.yaml" in uris
    elif report == "json":
        assert "entries/python/bad\\xff\\xfename.yaml" in {d["path"] for d in json.loads(text)}
    elif report == "github":
        assert "file=entries/python/bad\\xff\\xfename.yaml,line=1" in text
    else:
        assert "entries/python/bad\\xff\\xfename.yaml:1:1" in text
