"""Merging two entries: the seed pair end to end, conflicts, refusals, references, and the writes."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from entrykit.authoring import merge
from entrykit.cli import ExitCode, cli
from entrykit.config import from_table
from entrykit.diagnostic import Severity
from entrykit.lint.engine import lint

from .conftest import FIXTURES, REPO, TODAY

SEED_000 = REPO / "entries/pytorch/fsdp-parameter-mismatch.yaml"
SEED_001 = FIXTURES / "seed001/json/pytorch/fsdp-param-mismatch.json"


def corpus(tmp_path: Path, files: dict[str, str | Path]) -> Path:
    root = tmp_path / "entries"
    for name, content in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            shutil.copyfile(content, target)
        else:
            target.write_text(content, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    return root


def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str, input: str | None = None) -> tuple[int, str]:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["merge", *args, "--today", "2026-11-30"], input=input, catch_exceptions=False)
    return result.exit_code, result.output


def errors(tmp_path: Path) -> list[str]:
    result = lint(None, from_table({"root": "entries"}, tmp_path), TODAY, cwd=tmp_path)
    return [f"{d.path}:{d.line} {d.code} {d.message}" for d in result.diagnostics if d.severity is Severity.ERROR]


# -- the two seeds ---------------------------------------------------------------


@pytest.fixture(scope="module")
def seed_merge(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Seed 000's entry merged into seed 001 (verbatim JSON) in a scratch corpus, once."""
    tmp_path = tmp_path_factory.mktemp("seeds")
    root = corpus(tmp_path, {"pytorch/fsdp-param-mismatch.json": SEED_001, "pytorch/fsdp-parameter-mismatch.yaml": SEED_000})
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(
            cli,
            ["merge", "pytorch/fsdp-param-mismatch", "pytorch/fsdp-parameter-mismatch", "--prefer", "into", "--today", "2026-11-30"],
            catch_exceptions=False,
        )
    finally:
        os.chdir(cwd)
    survivor = root / "pytorch/fsdp-param-mismatch.json"
    return {
        "code": result.exit_code,
        "output": result.output,
        "data": json.loads(survivor.read_text(encoding="utf-8")),
        "errors": errors(tmp_path),
        "files": sorted(p.relative_to(root).as_posix() for p in root.rglob("*.*")),
    }


def test_seed_merge_writes_one_entry_adding_no_errors(seed_merge: dict[str, Any]) -> None:
    assert seed_merge["code"] == ExitCode.CLEAN, seed_merge["output"]
    assert seed_merge["files"] == ["pytorch/fsdp-param-mismatch.json"]
    # Seed 001 verbatim carries English text as its `workarounds_zh` (ET302, one per
    # item); the merge keeps those items aligned and adds no error of its own.
    assert [e.split(" ", 2)[1] for e in seed_merge["errors"]] == ["ET302", "ET302"]
    assert seed_merge["data"]["aliases"] == ["pytorch/fsdp-parameter-mismatch"]


def test_bundled_seed_entries_merge_without_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The corrected seed 001 in entries/ and seed 000's entry merge into an entry with no errors."""
    root = corpus(
        tmp_path,
        {
            "pytorch/fsdp-param-mismatch.yaml": REPO / "entries/pytorch/fsdp-param-mismatch.yaml",
            "pytorch/fsdp-parameter-mismatch.yaml": SEED_000,
        },
    )
    code, output = run(tmp_path, monkeypatch, "pytorch/fsdp-param-mismatch", "pytorch/fsdp-parameter-mismatch", "--prefer", "into")
    assert code == ExitCode.CLEAN, output
    assert sorted(p.name for p in root.rglob("*.yaml")) == ["fsdp-param-mismatch.yaml"]
    assert errors(tmp_path) == []


def test_seed_merge_regex_matches_both_signatures(seed_merge: dict[str, Any]) -> None:
    regex = re.compile(seed_merge["data"]["regex"])
    for seed in (json.loads(SEED_001.read_text(encoding="utf-8")), yaml.safe_load(SEED_000.read_text(encoding="utf-8"))):
        assert regex.search(seed["signature"])
        for example in seed.get("examples", []):
            assert regex.search(example)


def _seed_items() -> list[Any]:
    """Every item of both seeds that must survive: (label, kind, value)."""
    items = []
    for label, data in (
        ("001", json.loads(SEED_001.read_text(encoding="utf-8"))),
        ("000", yaml.safe_load(SEED_000.read_text(encoding="utf-8"))),
    ):
        for field in ("dead_ends", "workarounds"):
            for n, item in enumerate(data[field]):
                items.append(pytest.param(field, item, id=f"{label}-{field}-{n}"))
                for url in item.get("sources", []):
                    items.append(pytest.param("source", url, id=f"{label}-{field}-{n}-source"))
        for n, row in enumerate(data["versions"]):
            items.append(pytest.param("versions", row, id=f"{label}-version-{n}"))
        for n, tag in enumerate(data["tags"]):
            items.append(pytest.param("tags", tag, id=f"{label}-tag-{n}"))
        for n, example in enumerate([data["signature"], *data.get("examples", [])]):
            items.append(pytest.param("message", example, id=f"{label}-message-{n}"))
        for n, text in enumerate(data["workarounds_zh"]):
            items.append(pytest.param("workarounds_zh", text, id=f"{label}-workarounds_zh-{n}"))
        for key in ("signature_zh", "root_cause_zh", "root_cause"):
            items.append(pytest.param(key, data[key], id=f"{label}-{key}"))
    return items


@pytest.mark.parametrize(("kind", "value"), _seed_items())
def test_seed_merge_loses_nothing(seed_merge: dict[str, Any], kind: str, value: Any) -> None:
    data, output = seed_merge["data"], seed_merge["output"]
    if kind in ("dead_ends", "workarounds"):
        assert value["action"] in [i["action"] for i in data[kind]]
    elif kind == "source":
        assert any(value in i.get("sources", []) for f in ("dead_ends", "workarounds") for i in data[f])
    elif kind == "versions":
        assert value["version"] in [r["version"] for r in data["versions"]]
    elif kind == "tags":
        assert value in data["tags"]
    elif kind == "message":
        assert value == data["signature"] or value in data["examples"]
    elif kind == "workarounds_zh":
        assert value in data["workarounds_zh"]
        assert len(data["workarounds_zh"]) == len(data["workarounds"])
    else:  # a scalar text: kept, or named in the report
        assert data.get(kind) == value or f"`{kind}` of `pytorch/fsdp-parameter-mismatch`" in output or (
            kind == "root_cause" and value[:60] in output
        )


# -- conflicts, dry runs, refusals ---------------------------------------------

A = """\
id: git/not-a-repo
signature: "fatal: not a git repository (or any of the parent directories): .git"
regex: "fatal: not a git repository"
domain: git
category: usage_error
root_cause: The command ran outside a repository.
root_cause_zh: 命令在仓库之外运行。
dead_ends:
  - action: Run git init again
    why_fails: It makes a new, empty repository.
    fail_rate: 0.9
workarounds:
  - action: Change into the repository folder
    success_rate: 0.9
    sources: [https://git-scm.com/docs/git-rev-parse]
workarounds_zh:
  - 进入仓库目录
first_seen: "2023-01-01"
last_confirmed: "2026-01-01"
evidence_count: 2
confidence: 0.8
"""
B = """\
id: git/no-repository
signature: "fatal: not a git repository: /home/me/project/.git"
regex: "not a git repository: \\\\S+"
domain: git
category: config_error
root_cause: GIT_DIR points at a folder that is not a repository.
dead_ends:
  - action: Run git init again.
    why_fails: It hides the real repository.
    fail_rate: 0.7
    sources: [https://stackoverflow.com/q/1]
workarounds:
  - action: Unset GIT_DIR
    success_rate: 0.8
workarounds_zh:
  - 取消设置 GIT_DIR
first_seen: "2022-05-01"
last_confirmed: "2025-01-01"
evidence_count: 1
confidence: 0.5
"""
C = """\
id: git/detached-head
signature: "You are in 'detached HEAD' state."
regex: "detached HEAD"
domain: git
category: usage_error
root_cause: A commit was checked out instead of a branch.
dead_ends: []
workarounds: []
first_seen: "2023-01-01"
last_confirmed: "2026-01-01"
transition_graph:
  leads_to: [git/no-repository, git/not-a-repo]
  preceded_by:
    - error_id: git/no-repository
      probability: 0.2
"""


def test_conflicts_without_a_terminal_or_preference_write_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository")
    assert code == ExitCode.ERROR
    assert "/root_cause" in out and "/category" in out and "unresolved" in out
    assert (root / "git/not-a-repo.yaml").read_text(encoding="utf-8") == A
    assert (root / "git/no-repository.yaml").read_text(encoding="utf-8") == B


def test_dry_run_prints_and_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--dry-run", "--prefer", "other")
    assert code == ExitCode.CLEAN
    merged_text, report = out.split("\n---\n")
    merged = yaml.safe_load(merged_text)
    assert merged["root_cause"] == "GIT_DIR points at a folder that is not a repository."
    assert "root_cause_zh" not in merged  # it translated the root cause that was not chosen
    assert "`root_cause_zh` of `git/not-a-repo` is not kept" in report
    assert merged["dead_ends"][0]["fail_rate"] == 0.83  # (0.9 * 2 + 0.7 * 1) / 3
    assert merged["dead_ends"][0]["sources"] == ["https://stackoverflow.com/q/1"]
    assert merged["workarounds_zh"] == ["进入仓库目录", "取消设置 GIT_DIR"]
    assert (merged["first_seen"], merged["last_confirmed"], merged["evidence_count"]) == ("2022-05-01", "2026-01-01", 3)
    assert merged["confidence"] == 0.7  # (0.8 * 2 + 0.5 * 1) / 3
    assert (root / "git/no-repository.yaml").exists()
    assert (root / "git/not-a-repo.yaml").read_text(encoding="utf-8") == A


def test_interactive_choices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B})
    monkeypatch.setattr("entrykit.cli.merge._interactive", lambda: True)
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", input="e\nNo repository here.\nb\nb\n")
    assert code == ExitCode.CLEAN, out
    merged = yaml.safe_load((root / "git/not-a-repo.yaml").read_text(encoding="utf-8"))
    assert merged["root_cause"] == "No repository here."
    assert merged["dead_ends"][0]["why_fails"] == "It hides the real repository."
    assert merged["category"] == "config_error"
    assert not (root / "git/no-repository.yaml").exists()


def test_references_are_rewritten_and_nothing_dangles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B, "git/detached-head.yaml": C})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into")
    assert code == ExitCode.CLEAN, out
    other = yaml.safe_load((root / "git/detached-head.yaml").read_text(encoding="utf-8"))
    assert other["transition_graph"]["leads_to"] == ["git/not-a-repo"]  # the repeat is gone
    assert other["transition_graph"]["preceded_by"] == [{"error_id": "git/not-a-repo", "probability": 0.2}]
    assert errors(tmp_path) == []


def test_new_errors_refuse_the_write_unless_forced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # B's signature is one of A's counterexamples: no regex can match it and not match it.
    a = A.replace('regex: "fatal: not a git repository"', 'regex: "repository \\\\(or any"')
    a += 'counterexamples:\n  - "fatal: not a git repository: /home/me/project/.git"\n'
    root = corpus(tmp_path, {"git/not-a-repo.yaml": a, "git/no-repository.yaml": B})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into")
    assert code == ExitCode.FINDINGS
    assert "Refusing to write" in out and "ET20" in out
    assert (root / "git/not-a-repo.yaml").read_text(encoding="utf-8") == a
    assert (root / "git/no-repository.yaml").read_text(encoding="utf-8") == B
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into", "--force")
    assert code == ExitCode.CLEAN
    assert not (root / "git/no-repository.yaml").exists()


def test_comments_and_layout_of_the_survivor_survive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = "# reviewed by the git maintainers\n" + A.replace("domain: git\n", "domain: git  # the tool\n")
    root = corpus(tmp_path, {"git/not-a-repo.yaml": a, "git/no-repository.yaml": B})
    code, _ = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into")
    assert code == ExitCode.CLEAN
    text = (root / "git/not-a-repo.yaml").read_text(encoding="utf-8")
    assert text.startswith("# reviewed by the git maintainers\nid: git/not-a-repo\n")
    assert "domain: git  # the tool\n" in text
    keys = list(yaml.safe_load(text))
    assert keys.index("examples") == keys.index("regex") + 1  # new keys in schema order
    assert keys[-1] == "aliases"


@pytest.mark.parametrize("fail_on", ["survivor", "reference"])
def test_a_failed_write_leaves_both_inputs_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_on: str) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B, "git/detached-head.yaml": C})
    victim = root / ("git/not-a-repo.yaml" if fail_on == "survivor" else "git/detached-head.yaml")
    real_replace = os.replace

    def failing_replace(src: Any, dst: Any) -> None:
        if Path(dst) == victim:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr("entrykit.writing.os.replace", failing_replace)
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into")
    assert code == ExitCode.ERROR
    assert "both entries are still on disk" in out
    assert (root / "git/not-a-repo.yaml").read_text(encoding="utf-8") == A
    assert (root / "git/no-repository.yaml").read_text(encoding="utf-8") == B
    assert not [p for p in root.rglob("*") if p.name.endswith(".tmp")]


def test_into_names_the_survivor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B})
    code, _ = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--into", "git/no-repository", "--prefer", "into")
    assert code == ExitCode.CLEAN
    merged = yaml.safe_load((root / "git/no-repository.yaml").read_text(encoding="utf-8"))
    assert merged["aliases"] == ["git/not-a-repo"] and merged["category"] == "config_error"
    assert not (root / "git/not-a-repo.yaml").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["git/not-a-repo", "git/nowhere"], "no entry has the id `git/nowhere`"),
        (["git/not-a-repo", "git/not-a-repo"], "A and B are the same entry"),
        (["git/not-a-repo", "git/no-repository", "--into", "git/other"], "--into must name A or B"),
    ],
)
def test_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str) -> None:
    corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B})
    code, out = run(tmp_path, monkeypatch, *args)
    assert code == ExitCode.ERROR and message in out


def test_regex_proposal_is_checked() -> None:
    a = yaml.safe_load(A)
    b = yaml.safe_load(B)
    result = merge.merge_entries(a, b, prefer="into")
    assert result.report.regex is not None and result.report.regex.ok
    pattern = re.compile(result.data["regex"])
    assert pattern.search(a["signature"]) and pattern.search(b["signature"])
    assert result.data["regex"] == a["regex"]  # it already matched B's signature: kept
