"""The most nesting a configuration may allow is what every command reads, and a schema nested
too deep to check is a configuration error, not a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit.cli import ExitCode, cli
from entrykit.config import MAX_LIMITS


def _nested_entries(root: Path, depth: int) -> None:
    """Entries of each kind of nesting a checkout may hold, `depth` levels deep under a key."""
    (root / "d").mkdir(parents=True)
    lists = "[" * depth + "]" * depth
    (root / "d" / "flow.yaml").write_text(f'id: d/flow\nsignature: "ERROR: x"\ntags: {lists}\n', encoding="utf-8")
    (root / "d" / "json.json").write_text(f'{{"id": "d/json", "signature": "ERROR: y", "tags": {lists}}}\n', encoding="utf-8")
    block = "".join("  " * (i + 1) + "k:\n" for i in range(depth - 1)) + "  " * depth + "v\n"
    (root / "d" / "block.yaml").write_text(f'id: d/block\nsignature: "ERROR: z"\nextra:\n{block}', encoding="utf-8")


@pytest.mark.parametrize(
    "command",
    [
        ["lint", "--no-cache", "-j", "1"],
        ["lint", "--no-cache", "-j", "1", "--format", "sarif"],
        ["lint", "--no-cache", "-j", "1", "--diff"],
        ["fmt", "--check"],
        ["render", "entries/d/flow.yaml"],
        ["render", "entries/d/block.yaml"],
        ["render", "entries/d/json.json"],
        ["dupes"],
        ["translations"],
    ],
    ids=lambda c: " ".join(c),
)
def test_every_command_reads_entries_nested_as_deep_as_a_configuration_may_allow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    ceiling = MAX_LIMITS["max_nesting"]
    (tmp_path / "entrykit.toml").write_text(f"max-nesting = {ceiling}\n", encoding="utf-8")
    _nested_entries(tmp_path / "entries", ceiling - 1)  # (under the key: the entry's own level is one)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, [*command, "--today", "2026-11-30"] if command[0] == "lint" else command)
    assert result.exit_code in (ExitCode.CLEAN, ExitCode.FINDINGS), result.output
    assert "recurs" not in result.output.lower() and "cannot parse" not in result.output, result.output


def test_a_nesting_limit_past_the_ceiling_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "entrykit.toml").write_text(f"max-nesting = {MAX_LIMITS['max_nesting'] + 1}\n", encoding="utf-8")
    _nested_entries(tmp_path / "entries", 3)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", "--no-cache"])
    assert result.exit_code == ExitCode.ERROR and "`max-nesting` must be a positive integer up to" in result.output


@pytest.mark.parametrize("keyword", ["allOf", "not", "properties"])
def test_a_schema_nested_too_deep_to_check_is_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keyword: str
) -> None:
    depth = 400
    wrap = {
        "allOf": ('{"allOf": [', "]}"),
        "not": ('{"not": ', "}"),
        "properties": ('{"properties": {"x": ', "}}"),
    }[keyword]
    (tmp_path / "s.json").write_text(wrap[0] * depth + "{}" + wrap[1] * depth, encoding="utf-8")
    (tmp_path / "entrykit.toml").write_text('schema = "s.json"\n', encoding="utf-8")
    _nested_entries(tmp_path / "entries", 2)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", "--no-cache"])
    assert result.exit_code == ExitCode.ERROR, result.output
    assert "nests its keywords too deep to check" in result.output and "internal error" not in result.output
