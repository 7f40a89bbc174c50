"""`entrykit regex` and `entrykit match`: suggestions that pass their checks, lookups ranked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit.cli import ExitCode, cli
from entrykit.regex.runner import shared_runner
from entrykit.regex.suggest import check_regex, suggest

from .conftest import write_corpus

SEED = (
    "RuntimeError: FSDP parameter mismatch across ranks. Expected parameter 'model.fc.weight' "
    "to have shape [100, 256] but got [100, 128] on rank 2."
)


def _entry(entry_id: str, signature: str, regex: str) -> str:
    return f"id: {entry_id}\nsignature: {json.dumps(signature)}\nregex: {json.dumps(regex)}\n"


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], *args: str, stdin: str | None = None):
    write_corpus(tmp_path, files)
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)


def test_regex_for_seed_001_generalises_names_and_shapes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(tmp_path, monkeypatch, {}, "regex", SEED, "--format", "json")
    assert result.exit_code == ExitCode.CLEAN
    data = json.loads(result.output)
    assert data["ok"] and data["level"] == "general"
    assert [c["check"].split(" (")[0] for c in data["checks"]] == [
        "matches the signature", "no catastrophic backtracking", "specific enough"
    ]
    regex = re.compile(data["regex"])
    other = SEED.replace("model.fc.weight", "encoder.layers.3.attn.q_proj.bias")
    other = other.replace("[100, 256]", "[4096, 1024, 3]").replace("[100, 128]", "[7]").replace("rank 2", "rank 15")
    assert regex.search(SEED) and regex.search(other)
    assert not regex.search(SEED.replace("FSDP", "DDP"))


def test_regex_checks_the_corpus_and_falls_back_to_a_narrower_regex(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"io/other.yaml": _entry("io/other", "KeyError: 'config_path'", "KeyError: 'config_path'")}
    result = _run(tmp_path, monkeypatch, files, "regex", "KeyError: 'model_name'", "--format", "json")
    data = json.loads(result.output)
    assert data["ok"] and data["level"] == "names kept"
    assert data["regex"] == "KeyError: 'model_name'"
    assert any("ET209" in c["check"] for c in data["checks"])


def test_regex_says_when_no_suggestion_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(tmp_path, monkeypatch, {}, "regex", "Error")
    assert result.exit_code == ExitCode.FINDINGS
    assert "FAIL specific enough (ET208): matches the generic message `Error`" in result.output


@pytest.mark.parametrize("message", ["shape [-1 x 2] bad", "disk full: 5 MB left # see log"])
def test_regex_under_verbose_suggests_a_regex_that_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "entries").mkdir()
    config = '[tool.entrykit]\nroot = "entries"\n[tool.entrykit.regex]\nflags = ["VERBOSE"]\n'
    (tmp_path / "pyproject.toml").write_text(config, encoding="utf-8")
    result = CliRunner().invoke(cli, ["regex", message, "--format", "json"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN, result.output
    data = json.loads(result.output)
    assert data["level"] == "general" and re.search(data["regex"], message, re.VERBOSE)


def test_a_regex_that_does_not_compile_under_the_flags_fails_a_check() -> None:
    [check] = check_regex("(?: *x)", "x", re.VERBOSE, "search", shared_runner())
    assert not check.passed and "ET201" in check.name and "nothing to repeat" in check.detail


def test_suggest_without_a_corpus_runs_three_checks() -> None:
    found = suggest("fatal: unable to access 'https://example.org/x.git/': Could not resolve host: example.org")
    assert found.ok and len(found.checks) == 3
    assert re.search(found.regex, "fatal: unable to access 'https://a.b/c.git/': Could not resolve host: example.org")


CORPUS = {
    "pytorch/oom.yaml": _entry("pytorch/oom", "torch.OutOfMemoryError: CUDA out of memory.", "out of memory"),
    "pytorch/oom-alloc.yaml": _entry(
        "pytorch/oom-alloc",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
        r"CUDA out of memory\. Tried to allocate [\d.]+ GiB",
    ),
    "git/repo.yaml": _entry("git/repo", "fatal: not a git repository", "fatal: not a git repository"),
}


def test_match_ranks_the_most_specific_regex_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB (GPU 0)"
    result = _run(tmp_path, monkeypatch, CORPUS, "match", message, "--format", "json")
    assert result.exit_code == ExitCode.CLEAN
    [line] = json.loads(result.output)
    assert [m["id"] for m in line["matches"]] == ["pytorch/oom-alloc", "pytorch/oom"]
    assert line["matches"][1]["other_matches"] == 1  # `out of memory` also matches oom-alloc's signature


def test_match_reads_log_lines_from_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = "starting\nfatal: not a git repository (or any parent)\nCUDA OUT OF MEMORY\n"
    result = _run(tmp_path, monkeypatch, CORPUS, "match", "-", stdin=log)
    assert result.exit_code == ExitCode.CLEAN
    assert result.output.splitlines() == [
        "line 2: fatal: not a git repository (or any parent)",
        "  git/repo  entries/git/repo.yaml  (literal of 27)",
    ]


def test_match_with_nothing_found_exits_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(tmp_path, monkeypatch, CORPUS, "match", "all good")
    assert result.exit_code == ExitCode.FINDINGS and result.stdout == ""
    assert result.stderr == f"No entry's regex matches the message ({len(CORPUS)} entries checked).\n"
    one = {name: text for name, text in list(CORPUS.items())[:1]}
    result = _run(tmp_path / "one", monkeypatch, one, "match", "all good")
    assert result.stderr == "No entry's regex matches the message (1 entry checked).\n"


def test_match_says_how_many_lines_nothing_matched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(tmp_path, monkeypatch, CORPUS, "match", "-", "--format", "json", stdin="all good\nfine\n")
    assert result.exit_code == ExitCode.FINDINGS and json.loads(result.stdout)[0]["matches"] == []
    assert result.stderr.startswith("No entry's regex matches 2 lines (")


def test_match_follows_the_configured_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_corpus(tmp_path, CORPUS)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.entrykit]\nroot = "entries"\n[tool.entrykit.regex]\nflags = ["IGNORECASE"]\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["match", "CUDA OUT OF MEMORY"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN and "pytorch/oom " in result.output
