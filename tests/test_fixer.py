"""`entrykit lint --fix` and `--diff`: only fixed values change, atomically, to a fixpoint."""

from __future__ import annotations

import difflib
import json
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.cli import ExitCode, cli
from entrykit.lint.fixer import fix

from .conftest import FIXTURES, TODAY, make_config, write_corpus

SEED_YAML = FIXTURES / "seed001/yaml/pytorch/fsdp-param-mismatch.yaml"
SEED_JSON = FIXTURES / "seed001/json/pytorch/fsdp-param-mismatch.json"


def _commented_seed() -> str:
    """Seed 001 as YAML, with comments in the places a maintainer would put them."""
    text = SEED_YAML.read_text(encoding="utf-8")
    text = "# Reviewed by hand; keep the rows in release order.\n" + text
    text = text.replace("  - version: CUDA 11.x+\n", "  # The CUDA row came from the release notes.\n  - version: CUDA 11.x+  # toolkit, not driver\n")
    text = text.replace("  - version: NCCL 2.10+\n", "  - version: NCCL 2.10+\n    # NCCL ships with the torch wheels.\n")
    text = text.replace("status: active\n", "status: active  # still seen\n", 1)
    return text


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return CliRunner().invoke(cli, ["lint", "--today", TODAY.isoformat(), *args], catch_exceptions=False)


def test_fix_changes_only_the_fixed_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _commented_seed()
    root = write_corpus(tmp_path, {"pytorch/fsdp-param-mismatch.yaml": before})
    target = root / "pytorch/fsdp-param-mismatch.yaml"

    result = _run(tmp_path, monkeypatch, "--fix")

    after = target.read_text(encoding="utf-8")
    expected = before.replace("version: CUDA 11.x+  #", "version: cuda>=11  #").replace(
        "version: NCCL 2.10+\n", "version: nccl>=2.10\n"
    )
    assert expected != before
    assert after == expected
    assert "ET401 fixed: write `cuda>=11`" in result.output
    assert "ET401 fixed: write `nccl>=2.10`" in result.output
    assert "Fixed 2 problems in 1 file." in result.output
    # What remains is reported as by a plain lint: the redundant torch row (a warning)
    # and the seed's copied workarounds_zh (errors no fix can write), so the run fails.
    assert "ET404" in result.output and "ET401 [" not in result.output
    assert "ET302 [error]" in result.output
    assert result.exit_code == ExitCode.FINDINGS
    assert sorted(p.name for p in target.parent.iterdir()) == ["fsdp-param-mismatch.yaml"]

    again = _run(tmp_path, monkeypatch, "--fix")
    assert target.read_text(encoding="utf-8") == after
    assert "Nothing to fix." in again.output


def test_diff_shows_the_fix_and_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _commented_seed()
    root = write_corpus(tmp_path, {"pytorch/fsdp-param-mismatch.yaml": before})
    target = root / "pytorch/fsdp-param-mismatch.yaml"

    result = _run(tmp_path, monkeypatch, "--diff")

    assert target.read_text(encoding="utf-8") == before
    assert result.exit_code == ExitCode.FINDINGS
    changed = [line for line in result.output.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert changed == [
        "-  - version: CUDA 11.x+  # toolkit, not driver",
        "+  - version: cuda>=11  # toolkit, not driver",
        "-  - version: NCCL 2.10+",
        "+  - version: nccl>=2.10",
    ]
    assert "--- a/entries/pytorch/fsdp-param-mismatch.yaml" in result.output

    _run(tmp_path, monkeypatch, "--fix")
    clean = _run(tmp_path, monkeypatch, "--diff")
    assert clean.output == "" and clean.exit_code == ExitCode.CLEAN


def test_json_entries_stay_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = SEED_JSON.read_text(encoding="utf-8")
    root = write_corpus(tmp_path, {"pytorch/fsdp-param-mismatch.json": before})
    target = root / "pytorch/fsdp-param-mismatch.json"

    _run(tmp_path, monkeypatch, "--fix")

    after = target.read_text(encoding="utf-8")
    assert after == before.replace('"CUDA 11.x+"', '"cuda>=11"').replace('"NCCL 2.10+"', '"nccl>=2.10"')
    assert json.loads(after)["versions"][2]["version"] == "cuda>=11"


def test_fixes_on_one_value_converge_in_one_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ET401 (canonical spelling) and ET405 (alias) both rewrite this value.
    text = 'id: pytorch/x\nversions:\n  - version: "PyTorch 2.x"  # the series\n'
    root = write_corpus(tmp_path, {"pytorch/x.yaml": text})

    result = _run(tmp_path, monkeypatch, "--fix")

    assert (root / "pytorch/x.yaml").read_text(encoding="utf-8") == (
        'id: pytorch/x\nversions:\n  - version: "torch==2.*"  # the series\n'
    )
    assert "ET401 fixed: write `pytorch==2.*`" in result.output
    assert "ET405 fixed: write `torch==2.*`" in result.output
    assert "Nothing to fix." in _run(tmp_path, monkeypatch, "--fix").output


@pytest.mark.parametrize(
    ("signature", "regex", "fixed"),
    [
        (  # the `.` of `pm2.5` sits in a branch; the `.*` of the branches before it in repeats
            "Diwali week in northern India brings hazardous post-Diwali air quality (PM2.5 spikes 800+)",
            "(india.*diwali|delhi.*air quality|delhi.*pm2.5|delhi.*smog)",
            "(india.*diwali|delhi.*air quality|delhi.*pm2\\.5|delhi.*smog)",
        ),
        (
            "nginx: [error] open() /var/log/nginx/access.log failed: Too many open files",
            "(log.*open.*failed|access.log.*error)",
            "(log.*open.*failed|access\\.log.*error)",
        ),
        ("error: python setup.py egg_info did not run", "x.*y|setup.py egg_info", "x.*y|setup\\.py egg_info"),
    ],
)
def test_escaping_a_literal_dot_leaves_every_other_dot_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signature: str, regex: str, fixed: str
) -> None:
    """ET214's fix escapes the dot the finding names, in one run, and no `.` of a `.*`
    elsewhere: `india\\.*diwali` would match only dots and miss what it meant to."""
    text = f"id: test/case\nsignature: {json.dumps(signature)}\nregex: {json.dumps(regex)}\n"
    root = write_corpus(tmp_path, {"test/case.yaml": text})
    config = '[tool.entrykit]\nroot = "entries"\n[tool.entrykit.regex]\nflags = ["IGNORECASE"]\n'

    (tmp_path / "pyproject.toml").write_text(config, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result = CliRunner().invoke(cli, ["lint", "--today", TODAY.isoformat(), "--fix", "--select", "ET214"])

    assert "Fixed 1 problem in 1 file." in result.output, result.output
    assert yaml.safe_load((root / "test/case.yaml").read_text(encoding="utf-8"))["regex"] == fixed


def test_only_safe_fixes_are_applied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "id: pytorch/x\nversions:\n  - version: torch 2.0\n  - version: \">=2.0\"\n  - version: torch>=1.12\n    introduced: v1.12\n"
    root = write_corpus(tmp_path, {"pytorch/x.yaml": text})

    result = _run(tmp_path, monkeypatch, "--fix", "--select", "ET401")

    after = (root / "pytorch/x.yaml").read_text(encoding="utf-8")
    assert after == text.replace("introduced: v1.12", "introduced: '1.12'")
    assert "Fixed 1 problem in 1 file." in result.output
    assert result.output.count("ET401 [warning]") == 2  # the two suggestions remain


def test_machine_formats_keep_stdout_parseable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_corpus(tmp_path, {"pytorch/fsdp-param-mismatch.yaml": _commented_seed()})

    result = _run(tmp_path, monkeypatch, "--fix", "--format", "json")

    remaining = json.loads(result.stdout)
    assert {d["code"] for d in remaining} >= {"ET404"} and "ET401" not in {d["code"] for d in remaining}
    assert "Fixed 2 problems in 1 file." in result.stderr


def test_a_file_that_would_be_reformatted_is_left_alone(tmp_path: Path) -> None:
    text = "id: pytorch/x\nversions:\n  - version:    CUDA 11.x+\n"
    root = write_corpus(tmp_path, {"pytorch/x.yaml": text})

    outcome = fix(None, make_config(tmp_path), TODAY, cwd=tmp_path)

    assert outcome.changed == [] and outcome.applied == []
    assert outcome.skipped == {"entries/pytorch/x.yaml": "cannot be edited without reformatting it"}
    assert any(d.code == "ET401" for d in outcome.remaining.diagnostics)
    assert (root / "pytorch/x.yaml").read_text(encoding="utf-8") == text


def test_library_fix_is_pure_and_its_diff_matches_difflib(tmp_path: Path) -> None:
    source = tmp_path / "entries/pytorch/fsdp-param-mismatch.yaml"
    source.parent.mkdir(parents=True)
    shutil.copy(SEED_YAML, source)
    before = source.read_text(encoding="utf-8")

    outcome = fix(None, make_config(tmp_path), TODAY, cwd=tmp_path)

    assert source.read_text(encoding="utf-8") == before  # nothing written
    assert outcome.changed == [source]
    new = outcome.texts[source]
    assert outcome.diff() == "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True), new.splitlines(keepends=True),
            "a/entries/pytorch/fsdp-param-mismatch.yaml", "b/entries/pytorch/fsdp-param-mismatch.yaml",
        )
    )
    assert [(a.code, a.old, a.new) for a in outcome.applied] == [
        ("ET401", "CUDA 11.x+", "cuda>=11"),
        ("ET401", "NCCL 2.10+", "nccl>=2.10"),
    ]
    assert sorted([d.line, d.code] for d in outcome.remaining.diagnostics if d.code.startswith("ET4")) == [[18, "ET404"]]


_SPEC_PIECES = st.sampled_from(
    ["torch", "PyTorch", "CUDA", "nccl", "sklearn", "ros2", " ", ">=", "<", "==", ",", "2", "2.10", ".x", "+",
     "humble", "any", "v1.0", "RC1", " 11.x+"]
)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(_SPEC_PIECES, min_size=1, max_size=5).map("".join), min_size=1, max_size=4))
def test_a_second_fix_changes_nothing(specs: list[str]) -> None:
    rows = "".join(f"  - version: {json.dumps(spec)}  # row\n" for spec in specs)
    text = f"id: test/case\nversions:\n{rows}"
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        root = write_corpus(base, {"test/case.yaml": text})
        first = fix(None, make_config(base), TODAY, cwd=base)
        for path in first.changed:
            path.write_text(first.texts[path], encoding="utf-8")
        second = fix(None, make_config(base), TODAY, cwd=base)
        assert second.applied == [] and second.changed == []
        fixed = (root / "test/case.yaml").read_text(encoding="utf-8")
    assert fixed.count("# row") == len(specs)  # comments survive
    assert yaml.safe_load(fixed)["id"] == "test/case"
