"""Merging entries: the seed pair end to end, conflicts, the maintainer's workflow, and the files."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from entrykit.authoring import merge
from entrykit.authoring.formatter import format_text
from entrykit.authoring.merge_regex import alternatives_alone, scoped, unvouched
from entrykit.authoring.merge_report import report_text
from entrykit.cli import ExitCode, cli
from entrykit.config import from_table
from entrykit.diagnostic import Severity
from entrykit.lint.engine import lint
from entrykit.regex.syntax import renumbered
from entrykit.versions.package_names import default_naming

from .conftest import FIXTURES, REPO, TODAY

SEED_000 = REPO / "entries/pytorch/fsdp-parameter-mismatch.yaml"
SEED_001 = FIXTURES / "seed001/json/pytorch/fsdp-param-mismatch.json"


def corpus(tmp_path: Path, files: dict[str, str | Path], settings: str = "") -> Path:
    root = tmp_path / "entries"
    for name, content in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            shutil.copyfile(content, target)
        else:
            target.write_text(content, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(f'[tool.entrykit]\nroot = "entries"\n{settings}', encoding="utf-8")
    return root


def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str, input: str | None = None) -> tuple[int, str]:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["merge", *args, "--today", "2026-11-30"], input=input, catch_exceptions=False)
    return result.exit_code, result.output


def diagnostics(tmp_path: Path) -> list[Any]:
    return lint(None, from_table({"root": "entries"}, tmp_path), TODAY, cwd=tmp_path).diagnostics


def errors(tmp_path: Path) -> list[str]:
    return [f"{d.path}:{d.line} {d.code} {d.message}" for d in diagnostics(tmp_path) if d.severity is Severity.ERROR]


def entry(entry_id: str, signature: str, regex: str, **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": entry_id, "signature": signature, "regex": regex, "domain": entry_id.split("/")[0],
        "category": "usage_error", "root_cause": "The cause.", "dead_ends": [], "workarounds": [],
        "first_seen": "2024-01-01", "last_confirmed": "2025-01-01",
    }  # fmt: skip
    data.update(fields)
    return data


def dump(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=4096)


# -- the two seeds ---------------------------------------------------------------


@pytest.fixture(scope="module")
def seed_merge(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Seed 000's entry merged into seed 001 (verbatim JSON) in a scratch corpus, once."""
    tmp_path = tmp_path_factory.mktemp("seeds")
    root = corpus(tmp_path, {"pytorch/fsdp-param-mismatch.json": SEED_001, "pytorch/fsdp-parameter-mismatch.yaml": SEED_000})
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        args = ["merge", "pytorch/fsdp-param-mismatch", "pytorch/fsdp-parameter-mismatch", "--prefer", "into", "--today", "2026-11-30"]
        result = CliRunner().invoke(cli, [*args, "--report", "json"], catch_exceptions=False)
    finally:
        os.chdir(cwd)
    survivor = root / "pytorch/fsdp-param-mismatch.json"
    return {
        "code": result.exit_code,
        "report": json.loads(result.stdout),
        "data": json.loads(survivor.read_text(encoding="utf-8")),
        "text": survivor.read_text(encoding="utf-8"),
        "errors": errors(tmp_path),
        "files": sorted(p.relative_to(root).as_posix() for p in root.rglob("*.*")),
    }


def test_seed_merge_writes_one_entry_adding_no_errors(seed_merge: dict[str, Any]) -> None:
    assert seed_merge["code"] == ExitCode.CLEAN, seed_merge["report"]
    assert seed_merge["files"] == ["pytorch/fsdp-param-mismatch.json"]
    # Seed 001 verbatim carries English text as its `workarounds_zh` (ET302, one per
    # item); the merge keeps those items aligned and adds no error of its own.
    assert [e.split(" ", 2)[1] for e in seed_merge["errors"]] == ["ET302", "ET302"]
    assert seed_merge["report"]["lint"]["new"] == []
    assert seed_merge["data"]["aliases"] == ["pytorch/fsdp-parameter-mismatch"]
    assert seed_merge["report"]["written"] is True


def test_seed_merge_adds_no_version_finding(seed_merge: dict[str, Any]) -> None:
    """The FSDP seeds' version rows, appended, gave three new ET404 warnings; reconciled, none."""
    assert [f for f in seed_merge["report"]["lint"]["new"] if f["code"].startswith("ET4")] == []
    rows = [r["version"] for r in seed_merge["data"]["versions"]]
    assert "cuda>=11" in rows and "cuda>=11.7" not in rows  # folded: `cuda>=11` covers it and says all it says


def test_seed_merge_regex_matches_every_message(seed_merge: dict[str, Any]) -> None:
    regex = re.compile(seed_merge["data"]["regex"])
    for seed in (json.loads(SEED_001.read_text(encoding="utf-8")), yaml.safe_load(SEED_000.read_text(encoding="utf-8"))):
        assert regex.search(seed["signature"])
        for example in seed.get("examples", []):
            assert regex.search(example)
    assert seed_merge["report"]["regex"]["coverage_lost"] == []


def test_seed_merge_survivor_is_in_fmt_layout(seed_merge: dict[str, Any]) -> None:
    assert not format_text(seed_merge["text"], "json").changed


def _seed_items() -> list[Any]:
    """Every item of both seeds that must survive or be named: (label, kind, value, pointer)."""
    items = []
    for label, side, data in (
        ("001", "pytorch/fsdp-param-mismatch", json.loads(SEED_001.read_text(encoding="utf-8"))),
        ("000", "pytorch/fsdp-parameter-mismatch", yaml.safe_load(SEED_000.read_text(encoding="utf-8"))),
    ):
        for field in ("dead_ends", "workarounds"):
            for n, item in enumerate(data[field]):
                items.append(pytest.param(side, field, item, f"/{field}/{n}", id=f"{label}-{field}-{n}"))
                for s, url in enumerate(item.get("sources", [])):
                    items.append(pytest.param(side, "source", url, f"/{field}/{n}/sources/{s}", id=f"{label}-{field}-{n}-source-{s}"))
        for n, row in enumerate(data["versions"]):
            items.append(pytest.param(side, "versions", row, f"/versions/{n}", id=f"{label}-version-{n}"))
        for n, tag in enumerate(data["tags"]):
            items.append(pytest.param(side, "tags", tag, f"/tags/{n}", id=f"{label}-tag-{n}"))
        for n, example in enumerate([data["signature"], *data.get("examples", [])]):
            items.append(pytest.param(side, "message", example, "", id=f"{label}-message-{n}"))
        for n, text in enumerate(data["workarounds_zh"]):
            items.append(pytest.param(side, "workarounds_zh", text, f"/workarounds_zh/{n}", id=f"{label}-workarounds_zh-{n}"))
        for key in ("signature_zh", "root_cause_zh", "root_cause"):
            items.append(pytest.param(side, key, data[key], f"/{key}", id=f"{label}-{key}"))
    return items


@pytest.mark.parametrize(("side", "kind", "value", "pointer"), _seed_items())
def test_seed_merge_loses_nothing(seed_merge: dict[str, Any], side: str, kind: str, value: Any, pointer: str) -> None:
    """Every item is in the merged entry, or the report names it in full with the reason."""
    data, report = seed_merge["data"], seed_merge["report"]
    named = [d for d in report["dropped"] if d["input"] == side and (d["pointer"] == pointer or pointer.startswith(d["pointer"] + "/"))]
    if kind in ("dead_ends", "workarounds"):
        actions = [i["action"] for i in data[kind]]
        assert value["action"] in actions or any(d["value"] == value["action"] for d in named)
    elif kind == "source":
        assert any(value in i.get("sources", []) for f in ("dead_ends", "workarounds") for i in data[f]) or named
    elif kind == "versions":
        assert value in data["versions"] or any(r["version"] != value["version"] and {**value, "version": r["version"]} == r for r in data["versions"]) or named
    elif kind == "tags":
        assert value in data["tags"]
    elif kind == "message":
        assert value == data["signature"] or value in data["examples"]
    elif kind == "workarounds_zh":
        assert value in data["workarounds_zh"] or any(d["value"] == value for d in named)
        assert len(data["workarounds_zh"]) == len(data["workarounds"])
    else:  # a scalar text: kept, or named in full
        assert data.get(kind) == value or any(d["value"] == value for d in named)


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
    assert "root_cause_zh" not in merged  # it translated the root cause that was not chosen...
    assert "命令在仓库之外运行。" in report  # ...and the report shows it in full
    assert merged["dead_ends"][0]["fail_rate"] == 0.9  # the most cautious: a dead end fails at least this often
    assert merged["dead_ends"][0]["sources"] == ["https://stackoverflow.com/q/1"]
    assert merged["workarounds_zh"] == ["进入仓库目录", "取消设置 GIT_DIR"]
    assert (merged["first_seen"], merged["last_confirmed"], merged["evidence_count"]) == ("2022-05-01", "2026-01-01", 3)
    assert merged["confidence"] == 0.5  # the lowest
    assert "write   entries/git/not-a-repo.yaml" in report and "delete  entries/git/no-repository.yaml" in report
    assert (root / "git/no-repository.yaml").exists()
    assert (root / "git/not-a-repo.yaml").read_text(encoding="utf-8") == A


def test_dry_run_lists_every_file_it_would_rewrite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B, "git/detached-head.yaml": C})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--dry-run", "--prefer", "into")
    assert code == ExitCode.CLEAN
    assert "rewrite entries/git/detached-head.yaml (references to `git/no-repository`)" in out


def test_interactive_choices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B})
    monkeypatch.setattr("entrykit.cli.merge._interactive", lambda: True)
    # Conflicts in order: /root_cause (edit), /dead_ends/0/why_fails (b), /category (b).
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", input="e\nNo repository here.\nb\nb\n")
    assert code == ExitCode.CLEAN, out
    merged = yaml.safe_load((root / "git/not-a-repo.yaml").read_text(encoding="utf-8"))
    assert merged["root_cause"] == "No repository here."
    assert merged["dead_ends"][0]["why_fails"] == "It hides the real repository."
    assert merged["category"] == "config_error"
    assert not (root / "git/no-repository.yaml").exists()


FAKE_EDITOR = """\
import sys
path = sys.argv[-1]
with open(path, encoding="utf-8") as f:
    old = f.read()
with open(path, "w", encoding="utf-8") as f:
    f.write("Edited in the editor:\\n" + old)
"""


def test_multi_line_values_are_edited_in_the_editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = A.replace("root_cause: The command ran outside a repository.", "root_cause: |-\n  The command ran\n  outside a repository.")
    root = corpus(tmp_path, {"git/not-a-repo.yaml": a, "git/no-repository.yaml": B})
    editor = tmp_path / "editor.py"
    editor.write_text(FAKE_EDITOR, encoding="utf-8")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    monkeypatch.setattr("entrykit.cli.merge._interactive", lambda: True)
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", input="e\na\na\n")
    assert code == ExitCode.CLEAN, out
    text = (root / "git/not-a-repo.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text)["root_cause"] == "Edited in the editor:\nThe command ran\noutside a repository."
    assert "root_cause: |-\n  Edited in the editor:\n" in text  # a literal block, as `fmt` writes it


def test_references_are_rewritten_and_nothing_else_in_those_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B, "git/detached-head.yaml": C})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into")
    assert code == ExitCode.CLEAN, out
    text = (root / "git/detached-head.yaml").read_text(encoding="utf-8")
    assert text == C.replace("[git/no-repository, git/not-a-repo]", "[git/not-a-repo]").replace(
        "error_id: git/no-repository", "error_id: git/not-a-repo"
    )
    assert errors(tmp_path) == []


CONFUSED_YAML = C.replace(
    "  leads_to: [git/no-repository, git/not-a-repo]\n",
    """\
  frequently_confused_with:
    - error_id: git/not-a-repo
      distinction: It runs outside any repository.
    - error_id: git/no-repository  # seen on CI only
      distinction: GIT_DIR names a folder that is no repository.
""",
)
CONFUSED_JSON = json.dumps(yaml.safe_load(CONFUSED_YAML), indent=2) + "\n"


@pytest.mark.parametrize(
    ("name", "text", "comments"),
    [("git/detached-head.yaml", CONFUSED_YAML, ["# seen on CI only"]), ("git/detached-head.json", CONFUSED_JSON, [])],
)
def test_a_reference_removed_from_another_file_is_reported_in_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, comments: list[str]
) -> None:
    """Once `git/no-repository` reads `git/not-a-repo`, detached-head's second item repeats
    its first and is removed: its `distinction` and its comment are in the report."""
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B, name: text})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into", "--report", "json")
    assert code == ExitCode.CLEAN, out
    report, _ = json.JSONDecoder().raw_decode(out)  # (then the line saying what was written)
    pointer = "/transition_graph/frequently_confused_with/1"
    [dropped] = [d for d in report["dropped"] if d["input"] == "git/detached-head"]
    assert (dropped["pointer"], dropped["value"]) == (pointer, yaml.safe_load(text)["transition_graph"]["frequently_confused_with"][1])
    assert f"`entries/{name}` refers to `git/not-a-repo` earlier in this list" in dropped["why"]
    assert [c["text"] for c in report["comments"]["listed"] if c["input"] == "git/detached-head"] == comments
    assert len(yaml.safe_load((root / name).read_text(encoding="utf-8"))["transition_graph"]["frequently_confused_with"]) == 1


def test_a_finding_in_a_rewritten_file_moves_with_its_reference(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """detached-head's dangling `git/nowhere` (ET504) moves from /leads_to/2 to /leads_to/1
    when the repeat before it is removed: the same finding, not one the merge adds."""
    c = C.replace("[git/no-repository, git/not-a-repo]", "[git/no-repository, git/not-a-repo, git/nowhere]")
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B, "git/detached-head.yaml": c})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into")
    assert code == ExitCode.CLEAN, out
    assert "  no new finding" in out
    assert yaml.safe_load((root / "git/detached-head.yaml").read_text(encoding="utf-8"))["transition_graph"]["leads_to"] == [
        "git/not-a-repo", "git/nowhere"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("pointer", "after"),
    [
        ("/transition_graph/leads_to/0", "/transition_graph/leads_to/0"),
        ("/transition_graph/leads_to/1", None),  # removed
        ("/transition_graph/leads_to/3/probability", "/transition_graph/leads_to/1/probability"),
        ("/transition_graph/preceded_by/3", "/transition_graph/preceded_by/3"),  # another list
        ("/signature", "/signature"),
    ],
)
def test_pointer_after_the_reference_edits(pointer: str, after: str | None) -> None:
    changes = [("/transition_graph/leads_to/1", None), ("/transition_graph/leads_to/2", None), ("/transition_graph/leads_to/4/error_id", "t/a")]
    assert merge.pointer_after(changes, pointer) == after


def test_an_absorbed_alias_that_is_another_entrys_id_takes_none_of_its_references(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git/no-repository's alias `git/detached-head` is the id of an entry the merge leaves
    alone: a reference to it stays with it, in another file and in the survivor, and the
    report says why the alias is not carried."""
    a = A + "transition_graph:\n  leads_to: [git/detached-head]\n"
    b = B + "aliases:\n  - git/detached-head\n"
    d = C.replace("git/detached-head", "git/rebase-stopped").replace("You are in 'detached HEAD' state.", "rebase stopped at 3f2a")
    d = d.replace('regex: "detached HEAD"', 'regex: "rebase stopped"').replace("[git/no-repository, git/not-a-repo]", "[git/detached-head]")
    files = {"git/not-a-repo.yaml": a, "git/no-repository.yaml": b, "git/detached-head.yaml": C, "git/rebase-stopped.yaml": d}
    root = corpus(tmp_path, files)
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into", "--report", "json")
    assert code == ExitCode.CLEAN, out
    report, _ = json.JSONDecoder().raw_decode(out)
    assert report["merged"]["aliases"] == ["git/no-repository"]
    assert report["merged"]["transition_graph"]["leads_to"] == ["git/detached-head"]
    assert "[git/detached-head]" in (root / "git/rebase-stopped.yaml").read_text(encoding="utf-8")
    [dropped] = [x for x in report["dropped"] if x["pointer"] == "/aliases/0"]
    assert dropped["input"] == "git/no-repository" and "is the id of another entry" in dropped["why"]


def test_new_errors_refuse_the_write_unless_forced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # B's signature is one of A's counterexamples: no regex can match it and not match it.
    a = A.replace('regex: "fatal: not a git repository"', 'regex: "repository \\\\(or any"')
    a += 'counterexamples:\n  - "fatal: not a git repository: /home/me/project/.git"\n'
    root = corpus(tmp_path, {"git/not-a-repo.yaml": a, "git/no-repository.yaml": B})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into")
    assert code == ExitCode.FINDINGS
    assert "Refusing to write" in out and "ET204" in out
    assert (root / "git/not-a-repo.yaml").read_text(encoding="utf-8") == a
    assert (root / "git/no-repository.yaml").read_text(encoding="utf-8") == B
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into", "--force")
    assert code == ExitCode.CLEAN
    assert not (root / "git/no-repository.yaml").exists()


def test_comments_survive_and_the_survivor_is_in_fmt_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = "# reviewed by the git maintainers\n" + A.replace("domain: git\n", "domain: git  # the tool\n")
    b = B.replace("workarounds:\n  - action: Unset GIT_DIR", "workarounds:\n  # tried on git 2.40\n  - action: Unset GIT_DIR")
    b = b.replace("category: config_error\n", "# the category we used first\ncategory: config_error\n")
    root = corpus(tmp_path, {"git/not-a-repo.yaml": a, "git/no-repository.yaml": b})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into")
    assert code == ExitCode.CLEAN, out
    text = (root / "git/not-a-repo.yaml").read_text(encoding="utf-8")
    assert text.startswith("# reviewed by the git maintainers\nid: git/not-a-repo\n")
    assert "domain: git  # the tool\n" in text
    assert "  # tried on git 2.40\n  - action: Unset GIT_DIR\n" in text  # moved with its workaround
    assert "# the category we used first" not in text  # its value was not chosen...
    assert "LISTED  `git/no-repository` line" in out and "# the category we used first" in out  # ...so it is listed
    assert not format_text(text, "yaml").changed


def _merged_comments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, a: str, b: str, *options: str) -> tuple[str, dict[str, Any]]:
    """The survivor's text after `merge x/a x/b` of these files, and the report's comments."""
    root = corpus(tmp_path, {"x/a.yaml": a, "x/b.yaml": b})
    code, out = run(tmp_path, monkeypatch, "x/a", "x/b", "--report", "json", *options)
    assert code == ExitCode.CLEAN, out
    return (root / "x/a.yaml").read_text(encoding="utf-8"), json.JSONDecoder().raw_decode(out)[0]["comments"]


_WIDGET = """id: x/{name}
signature: "FooError: widget {n} exploded"
regex: "FooError: widget \\\\d+ exploded"
domain: x
category: runtime_error
root_cause: {cause}
{rest}first_seen: "2020-01-01"
last_confirmed: "2026-11-01"
"""


@pytest.mark.parametrize(
    ("mine", "theirs", "options", "comment"),
    [
        (  # a version row folded into the other's: its comment would stand beside that one
            "versions:\n  - version: foo>=2.0  # verified on foo 2.3 only\n    status: active\n"
            "  - version: bar>=1.0\n    status: active\n",
            "versions:\n  - version: foo>=1.0\n    status: active\n", ("--prefer", "into"), "# verified on foo 2.3 only",
        ),
        (  # a reference dropped as the merged entry's own: the next item would move under its comment
            "transition_graph:\n  leads_to:\n    - x/b  # seen twice in CI\n    - x/c\n",
            "transition_graph:\n  leads_to:\n    - x/d\n", ("--prefer", "into"), "# seen twice in CI",
        ),
        ("", "", ("--prefer", "other"), "# confirmed by the vendor"),  # the other's root cause chosen
    ],
    ids=["version-row", "reference", "root-cause"],
)
def test_a_survivor_comment_that_would_stand_beside_another_value_is_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mine: str, theirs: str, options: tuple[str, ...], comment: str
) -> None:
    """The survivor's file is rewritten in place: where a value under a comment changes, the
    comment would vouch for a value it was not written for, so the report lists it."""
    cause = "The widget overheats.  # confirmed by the vendor" if comment == "# confirmed by the vendor" else "The widget overheats."
    a = _WIDGET.format(name="a", n=42, cause=cause, rest=mine)
    b = _WIDGET.format(name="b", n=9, cause="The widget's fan fails.", rest=theirs)
    if mine.startswith("transition_graph"):
        (tmp_path / "entries" / "x").mkdir(parents=True, exist_ok=True)
        for name, n in (("c", 7), ("d", 5)):
            other = _WIDGET.format(name=name, n=n, cause="Other.", rest="")
            (tmp_path / "entries" / "x" / f"{name}.yaml").write_text(other, encoding="utf-8")
    _, report = _merged_comments(tmp_path, monkeypatch, a, b, *options)
    listed = [c for c in report["listed"] if c["input"] == "x/a"]
    assert [c["text"] for c in listed] == [comment]  # (gone with its value, or beside another: "check it")


def test_an_absorbed_comment_is_kept_though_the_survivor_has_the_same_words_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sink = "  - action: Add a heat sink to the widget\n    success_rate: 0.9  # unverified\n"
    a = _WIDGET.format(name="a", n=42, cause="The widget overheats.", rest=f"workarounds:\n{sink}")
    flash = "  - action: Flash the widget firmware to 2.1\n    success_rate: 0.95  # unverified\n"
    b = _WIDGET.format(name="b", n=9, cause="The widget overheats.", rest=f"workarounds:\n{sink}{flash}")
    text, report = _merged_comments(tmp_path, monkeypatch, a, b, "--prefer", "into")
    assert text.count("# unverified") == 2
    assert [(c["text"], c["above"]) for c in report["kept"]] == [("# unverified", "/workarounds/0/success_rate"), ("# unverified", "/workarounds/1/success_rate")]


def test_a_comment_after_a_block_scalar_header_is_carried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    how = "  - action: Flash the widget firmware\n    how: |  # only tested on rev C boards\n      widgetctl flash\n"
    a = _WIDGET.format(name="a", n=42, cause="The widget overheats.", rest="")
    b = _WIDGET.format(name="b", n=9, cause="The widget overheats.", rest=f"workarounds:\n{how}")
    text, report = _merged_comments(tmp_path, monkeypatch, a, b, "--prefer", "into")
    assert "# only tested on rev C boards" in text
    assert [c["above"] for c in report["kept"] if c["text"] == "# only tested on rev C boards"] == ["/workarounds/0/how"]


@pytest.mark.parametrize("newline", ["\r", "\r\n"])
@pytest.mark.parametrize("survivor_too", [False, True])
def test_comments_of_a_file_whose_lines_end_otherwise_are_read_as_lint_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, newline: str, survivor_too: bool
) -> None:
    """YAML and lint read a CR alone (or a CR LF) as a line break: the merge carries and
    lists the comments of such a file as it does those of a file with LF line ends."""
    a = "# reviewed by the git maintainers\n" + A.replace("domain: git\n", "domain: git  # the tool\n")
    b = B.replace("category: config_error\n", "# the category we used first\ncategory: config_error\n")
    b = "# entrykit: disable-file=ET6\n" + b.replace("domain: git\n", "domain: git # seen first in CI\n")
    b = b.replace("workarounds:\n  - action: Unset GIT_DIR", "workarounds:\n  # tried on git 2.40\n  - action: Unset GIT_DIR")
    args = ("git/not-a-repo", "git/no-repository", "--prefer", "into", "--dry-run", "--report", "json")
    corpus(tmp_path, {"git/not-a-repo.yaml": a, "git/no-repository.yaml": b})
    code, out = run(tmp_path, monkeypatch, *args)
    assert code == ExitCode.CLEAN, out
    expected = json.JSONDecoder().raw_decode(out)[0]["comments"]
    assert len(expected["kept"]) == 2 and len(expected["listed"]) == 2
    other = tmp_path / "other"
    corpus(other, {"git/not-a-repo.yaml": a.replace("\n", newline) if survivor_too else a, "git/no-repository.yaml": b.replace("\n", newline)})
    code, out = run(other, monkeypatch, *args)
    assert code == ExitCode.CLEAN, out
    assert json.JSONDecoder().raw_decode(out)[0]["comments"] == expected


def _with_file_wide_suppression(b: str) -> str:
    return "# entrykit: disable-file=ET6\n# about B\n" + b


def _with_value_suppressions(b: str) -> str:
    b = b.replace('regex: "not a git repository: \\\\S+"', 'regex: "not a git repository: \\\\S+"  # entrykit: disable=ET2')
    b = b.replace("  - action: Unset GIT_DIR", "  # entrykit: disable=ET6\n  - action: Unset GIT_DIR")
    assert b.count("entrykit: disable=") == 2
    return b


@pytest.mark.parametrize(
    ("written", "left", "kept", "listed"),
    [
        # B's `disable-file=ET6` silenced B's findings; above the survivor it would silence A's too
        (_with_file_wide_suppression, "disable-file", "# about B",
         "LISTED  `git/no-repository` line 1: # entrykit: disable-file=ET6  (a suppression of the absorbed file"),
        # B's `disable=ET2` on its regex would silence A's findings on the merged regex; one on a
        # value that comes over whole (B's workaround) moves with it
        (_with_value_suppressions, "disable=ET2", "disable=ET6",
         "# entrykit: disable=ET2  (a suppression of a value merged into the survivor's"),
    ],
)
def test_a_suppression_that_would_hide_the_survivors_findings_is_listed_not_carried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: Any, left: str, kept: str, listed: str
) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": written(B)})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--prefer", "into")
    assert code == ExitCode.CLEAN, out
    text = (root / "git/not-a-repo.yaml").read_text(encoding="utf-8")
    assert left not in text and kept in text
    assert listed in out


@pytest.mark.parametrize("fail_on", ["survivor", "reference"])
def test_a_failed_write_leaves_every_input_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_on: str) -> None:
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
    assert (root / "git/detached-head.yaml").read_text(encoding="utf-8") == C
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
        (["git/not-a-repo", "git/no-repository", "--into", "git/other"], "--into must name one of the entries"),
        (["git/not-a-repo"], "name at least two entries"),
    ],
)
def test_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str) -> None:
    corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B})
    code, out = run(tmp_path, monkeypatch, *args)
    assert code == ExitCode.ERROR and message in out


# -- regex coverage --------------------------------------------------------------


def test_an_absorbed_regex_that_covers_more_is_added_as_an_alternative() -> None:
    a = entry("git/a", "fatal: not a git repository (or any of the parent directories): .git", r"\(or any of the parent")
    b = entry("git/b", "fatal: not a git repository: /srv/app/.git", r"not a git repository: /\S+", examples=["fatal: not a git repository: /x/.git"])
    result = merge.merge_entries(a, b, prefer="into")
    pattern = result.data["regex"]
    assert pattern == r"(?:\(or any of the parent)|(?:not a git repository: /\S+)"
    for text in [a["signature"], b["signature"], *b["examples"]]:
        assert re.search(pattern, text)
    assert result.report.regex is not None and result.report.regex.lost == []


def test_a_regex_is_never_replaced_by_text_from_a_placeholder_signature() -> None:
    """Both inputs' regexes miss their placeholder signature ("X GiB"); the merged regex
    must still find the real message both found, not become `...allocate X GiB`."""
    regex = r"Tried to allocate \d+\.\d+ [GM]iB"
    a = entry("pytorch/oom", "CUDA out of memory. Tried to allocate X GiB", regex, examples=["CUDA out of memory. Tried to allocate 2.00 GiB"])
    b = entry("cuda/oom", "torch.cuda.OutOfMemoryError: Tried to allocate X GiB", regex)
    result = merge.merge_entries(a, b, prefer="into")
    assert result.data["regex"] == regex
    assert re.search(result.data["regex"], "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
    outcome = result.report.regex
    assert outcome is not None and outcome.lost == []
    assert any("no input's regex matched" in note for note in result.report.notes)


def test_an_absorbed_regex_no_message_shows_covered_is_kept_as_an_alternative() -> None:
    """docker27's regex has an alternative for the real message (`Bind for 0.0.0.0:8080 …`)
    that its placeholder signature does not match: nothing shows the survivor's regex finds
    that message (it does not), so dropping the regex would lose those lookups."""
    a = entry("docker/a", "listen tcp4 0.0.0.0:80: bind: address already in use", "bind: address already in use")
    b = entry(
        "docker/b",
        "Bind for 0.0.0.0:PORT failed: port is already allocated",
        r"Bind for .+?:\d+ failed: port is already allocated|address already in use",
    )
    result = merge.merge_entries(a, b, prefer="into")
    pattern = result.data["regex"]
    assert pattern == f"(?:{a['regex']})|(?:{b['regex']})"
    assert re.search(pattern, "Bind for 0.0.0.0:8080 failed: port is already allocated")
    assert [d for d in result.report.dropped if d.pointer == "/regex"] == []
    assert any("find what its `Bind for .+?:\\d+ failed: port is already allocated` finds" in n for n in result.report.notes)


def test_an_absorbed_regex_whose_every_alternative_is_shown_covered_is_dropped() -> None:
    a = entry("docker/a", "listen tcp4 0.0.0.0:80: bind: address already in use", "address already in use")
    # (each alternative matched a part of a message the survivor's regex finds, or is one of its own)
    b = entry("docker/b", "bind: address already in use", "bind: address already in use|address already in use")
    result = merge.merge_entries(a, b, prefer="into")
    assert result.data["regex"] == a["regex"]
    assert [d.why for d in result.report.dropped if d.pointer == "/regex"] == ["the merged regex matches every message it matched"]
    assert not any("kept as an alternative" in n for n in result.report.notes)


@pytest.mark.parametrize(
    ("regex", "flags", "alone"),
    [
        ("(?i)BIND: ADDRESS|port is already allocated", 0, ["(?i)BIND: ADDRESS", "(?i)port is already allocated"]),
        ("(bind)|\\1: address", 0, ["(bind)", "\\1: address"]),  # the second does not compile alone
        ("bind: address  # a|b\n", re.VERBOSE, ["bind: address  # a|b\n"]),  # a `|` in a comment; no split
        ("(tcp4 \\S+|nothing here)", 0, ["tcp4 \\S+", "nothing here"]),
    ],
)
def test_alternatives_alone(regex: str, flags: int, alone: list[str]) -> None:
    assert alternatives_alone(regex, flags) == alone


@pytest.mark.parametrize(
    ("alternative", "kept", "left"),
    [
        ("port is already allocated", ["bind: address"], ["port is already allocated"]),
        ("torch\\.cuda\\.OutOfMemoryError", ["CUDA out of memory"], ["torch\\.cuda\\.OutOfMemoryError"]),
        ("CUDA out of memory", ["out of memory"], []),  # proven by its literal text
        ("too many goroutines", ["goroutine leak|too many goroutines"], []),  # proven: an alternative of both
        ("manifest (unknown|not found)", ["manifest unknown"], ["manifest (unknown|not found)"]),
        ("interface.*nil.*not", ["interface \\{\\} is nil"], ["interface.*nil.*not"]),
        ("manifest (unknown|not found)", ["manifest (?:unknown|not found)"], []),
        # proven by the regexes' automata: the kept ones read exactly (a lookahead or `\b` of
        # the alternative finds less, never more)
        ("(?=m)manifest unknown", ["manifest \\w+"], []),
        ("request body too large", ["(413.*Payload|request.*too large)"], []),
        ("port \\d{1,2} is", ["port \\d+ is"], []),
        ("error\\b.*failed", ["error.*failed"], []),
        ("\\bENOENT\\b", ["ENOENT"], []),
        ("port \\d+ is", ["port \\d{1,2} is"], ["port \\d+ is"]),  # `port 000 is`
        # nothing proven: a kept regex with an anchor, a lookaround or `\b` is read as more
        # than `re` finds, so a search that finds no text it misses proves nothing
        ("(?=m)manifest unknown", ["manifest \\w+\\b"], ["(?=m)manifest unknown"]),
        ("request body too large", ["request.*too large$"], ["request body too large"]),
        ("fatal: not a git repository", ["fatal: not a git repository$"], ["fatal: not a git repository"]),
        ("fatal: bad object", ["^fatal: bad object"], ["fatal: bad object"]),
        ("such file", ["(?<!no )such file"], ["such file"]),
        ("ENOENT", ["\\bENOENT\\b"], ["ENOENT"]),
    ],
)
def test_alternatives_no_kept_regex_is_proven_to_find_all_of(alternative: str, kept: list[str], left: list[str]) -> None:
    assert unvouched([alternative], kept, 0, "search") == left


@pytest.mark.parametrize(
    ("survivor", "absorbed", "lost"),
    [
        ("fatal: not a git repository$", "fatal: not a git repository|GIT_DIR .* is not a repository",
         "fatal: not a git repository (or any of the parent directories): .git"),
        ("^fatal: bad object", "fatal: bad object|unknown revision", "error: fatal: bad object HEAD"),
        ("(?<!no )such file", "such file|ENOENT", "open failed: no such file or directory"),
        ("\\bENOENT\\b", "ENOENT|no such file", "errno ENOENTRY: no such entry"),
    ],
)  # fmt: skip
def test_an_alternative_a_kept_anchor_or_lookaround_only_seems_to_cover_is_kept(survivor: str, absorbed: str, lost: str) -> None:
    """Every message either regex matches, the merged one matches; but the survivor's anchor,
    lookaround or `\\b` misses texts the absorbed alternative finds, so it is kept."""
    signature = absorbed.split("|")[0].replace("\\b", "").replace("^", "")
    a = entry("git/a", signature, survivor)
    b = entry("git/b", signature, absorbed)
    assert re.search(absorbed, lost) and not re.search(survivor, lost)
    result = merge.merge_entries(a, b, prefer="into")
    assert re.search(result.data["regex"], lost)
    assert not [d for d in result.report.dropped if d.pointer == "/regex"]


def test_an_alternative_that_matched_a_message_for_another_part_of_it_keeps_its_regex() -> None:
    """Both regexes match `torch.cuda.OutOfMemoryError: CUDA out of memory`, but the absorbed
    one's `torch\\.cuda\\.OutOfMemoryError` for a part the survivor's does not find: a log
    line with that part only would be lost."""
    a = entry("pytorch/oom", "CUDA out of memory. Tried to allocate 2.00 GiB", "CUDA out of memory")
    b = entry("cuda/oom", "torch.cuda.OutOfMemoryError: CUDA out of memory", r"torch\.cuda\.OutOfMemoryError|CUDA out of memory")
    result = merge.merge_entries(a, b, prefer="into")
    assert re.search(result.data["regex"], "torch.cuda.OutOfMemoryError: Allocation on device 0 would exceed allowed memory")
    assert result.data["regex"] == "(?:CUDA out of memory)|(?:torch\\.cuda\\.OutOfMemoryError)"
    assert any("alternatives `torch\\.cuda\\.OutOfMemoryError` are kept: nothing proves" in n for n in result.report.notes)


def test_a_branch_no_message_holds_keeps_its_regex() -> None:
    """The messages hold `manifest unknown`, which the survivor's regex finds; the absorbed
    regex's other branch, `manifest not found`, is in no message, and the survivor's regex
    does not find it: a log line with it would be lost."""
    a = entry("docker/a", "manifest for nginx:9 not found: manifest unknown", "manifest for .+ not found|manifest unknown")
    b = entry("docker/b", "manifest unknown", "manifest (unknown|not found)")
    result = merge.merge_entries(a, b, prefer="into")
    assert re.search(result.data["regex"], "Error response from daemon: manifest not found")
    assert any("what its `manifest (unknown|not found)` finds" in n for n in result.report.notes)


def test_an_alternative_a_kept_regex_provably_covers_is_no_reason_to_keep_a_regex() -> None:
    """`DOMException.*AbortError` matches no message, but every text it finds holds
    `AbortError`, one of the survivor's alternatives: the absorbed regex adds nothing."""
    a = entry("node/a", "AbortError: The operation was aborted", "(The operation was aborted|AbortError|ERR_ABORTED)")
    b = entry("node/b", "AbortError: This operation was aborted", "AbortError.*operation was aborted|DOMException.*AbortError")
    result = merge.merge_entries(a, b, prefer="into")
    assert result.data["regex"] == a["regex"]
    assert not any("kept as an alternative" in n for n in result.report.notes)


def test_of_an_absorbed_regex_only_the_alternatives_it_adds_are_kept() -> None:
    """`interface conversion.*interface is nil` is the survivor's own: only the absorbed
    regex's other alternative joins it, and the report names the one left out."""
    a = entry("go/a", "interface conversion: interface is nil, not string", "interface conversion.*interface is nil")
    b = entry("go/b", "interface {} is nil, not int", "interface conversion.*interface is nil|interface.*nil.*not")
    result = merge.merge_entries(a, b, prefer="into")
    assert result.data["regex"] == "(?:interface conversion.*interface is nil)|(?:interface.*nil.*not)"
    [dropped] = [d for d in result.report.dropped if d.pointer == "/regex"]
    assert dropped.value == b["regex"] and "`interface conversion.*interface is nil` are left out" in dropped.why
    assert any("alternatives `interface.*nil.*not` are kept" in n for n in result.report.notes)


@pytest.mark.parametrize(
    "absorbed",
    [
        "(nil)\\1 map|interface conversion.*interface is nil|interface.*nil.*not",  # a backreference
        "(?x) interface\\ conversion.*interface\\ is\\ nil | interface.*nil.*not",  # VERBOSE: one alternative
    ],
)
def test_a_regex_that_cannot_be_taken_apart_is_kept_whole(absorbed: str) -> None:
    a = entry("go/a", "interface conversion: interface is nil, not string", "interface conversion.*interface is nil")
    b = entry("go/b", "interface {} is nil, not int", absorbed)
    result = merge.merge_entries(a, b, prefer="into")
    assert result.data["regex"] == f"(?:{a['regex']})|(?:{scoped(absorbed)})"


@pytest.mark.parametrize(
    ("absorbed", "found", "merged"),
    [
        (r"OSError: \((\w+)\) \1 full|OSError: \(disk\) full", "OSError: (tmp) tmp full",
         r"(?:OSError: \((disk)\) full)|(?:OSError: \((\w+)\) \2 full|OSError: \(disk\) full)"),
        (r"OSError: (\()?(\w+)(?(1)\)) full", "OSError: (tmp) full",
         r"(?:OSError: \((disk)\) full)|(?:OSError: (\()?(\w+)(?(2)\)) full)"),
    ],
)  # fmt: skip
def test_an_absorbed_regex_refers_to_its_own_groups_in_the_merged_one(absorbed: str, found: str, merged: str) -> None:
    a = entry("io/a", "OSError: (disk) full", r"OSError: \((disk)\) full")
    b = entry("io/b", "OSError: (disk) full", absorbed)
    assert re.search(absorbed, found)
    result = merge.merge_entries(a, b, prefer="into")
    assert result.data["regex"] == merged
    assert re.search(result.data["regex"], found)
    assert not result.report.conflicts


def test_group_references_that_cannot_be_renumbered_are_a_conflict() -> None:
    a = entry("io/a", "OSError: (disk) full", "OSError: " + "(d)?" * 99 + r"\(disk\) full")
    b = entry("io/b", "OSError: (disk) full", r"OSError: \((\w+)\) \1 full|OSError: \(disk\) full")
    result = merge.merge_entries(a, b)
    assert [c.pointer for c in result.report.unresolved] == ["/regex"]


@pytest.mark.parametrize(
    ("pattern", "shift", "moved"),
    [
        (r"(a)\1[\1]\\1\0\101(?(1)b|c)(?(n)d)(?P=n)", 2, r"(a)\3[\1]\\1\0\101(?(3)b|c)(?(n)d)(?P=n)"),
        # a backreference followed by a digit keeps its number apart: `\21` then `7` is no `\217`
        (r"(a)\18\187", 3, r"(a)\21(?:\21)7"),
        (r"(a)\1", 99, None),
    ],
)  # fmt: skip
def test_renumbered(pattern: str, shift: int, moved: str | None) -> None:
    assert renumbered(pattern, shift) == moved


@pytest.mark.parametrize(
    ("survivor", "absorbed", "merged"),
    [
        ("(?i)fatal: not a git", "(?i)pathspec .* did not match", "(?:(?i:fatal: not a git))|(?:(?i:pathspec .* did not match))"),
        # under VERBOSE a comment runs to the end of its line: the group ends on the next
        ("(?x) fatal: \\ not \\ a \\ git  # the usual", "pathspec .* did not match",
         "(?:(?x: fatal: \\ not \\ a \\ git  # the usual\n))|(?:pathspec .* did not match)"),
        ("fatal: not a git", "(?a)pathspec \\S+ did not match", "(?:fatal: not a git)|(?:(?a:pathspec \\S+ did not match))"),
        ("fatal: not a git", "(?u)pathspec \\S+ did not match", "(?:fatal: not a git)|(?:(?u:pathspec \\S+ did not match))"),
    ],
)  # fmt: skip
def test_global_inline_flags_are_scoped_in_an_alternation(survivor: str, absorbed: str, merged: str) -> None:
    a = entry("git/a", "fatal: not a git repository", survivor)
    b = entry("git/b", "error: pathspec 'x' did not match", absorbed)
    result = merge.merge_entries(a, b, prefer="into")
    assert result.data["regex"] == merged
    assert result.report.regex is not None and all(t.after for t in result.report.regex.texts)
    assert not result.report.conflicts


# -- items by meaning, contradictions ---------------------------------------------------


def test_paraphrased_items_become_one_and_the_other_wording_is_reported() -> None:
    a = entry("redis/crossslot", "CROSSSLOT Keys in request don't hash to the same slot", "CROSSSLOT",
              workarounds=[{"action": "Use hash tags to force related keys into the same slot", "success_rate": 0.9}])  # fmt: skip
    b = entry("redis/cross-slot", "CROSSSLOT Keys in request don't hash to the same slot", "CROSSSLOT",
              workarounds=[{"action": "Use hash tags to colocate related keys in the same slot", "success_rate": 0.85}])  # fmt: skip
    result = merge.merge_entries(a, b, prefer="into")
    assert [w["action"] for w in result.data["workarounds"]] == ["Use hash tags to force related keys into the same slot"]
    assert result.data["workarounds"][0]["success_rate"] == 0.85
    assert [d.value for d in result.report.dropped if d.pointer == "/workarounds/0/action"] == [
        "Use hash tags to colocate related keys in the same slot"
    ]


def test_three_wordings_of_one_workaround_become_one_item() -> None:
    wordings = ["Use --allow-unrelated-histories flag on merge or pull", "Use --allow-unrelated-histories flag",
                "Use --allow-unrelated-histories flag: git merge main --allow-unrelated-histories"]  # fmt: skip
    inputs = [entry(f"git/unrelated-{n}", "fatal: refusing to merge unrelated histories", "unrelated histories",
                    workarounds=[{"action": w, "success_rate": 0.9}]) for n, w in enumerate(wordings)]  # fmt: skip
    result = merge.merge_entries(inputs[0], inputs[1:], prefer="into")
    assert [w["action"] for w in result.data["workarounds"]] == [wordings[0]]


def test_an_action_that_fails_in_one_entry_and_works_in_the_other_is_a_conflict() -> None:
    a = entry("cuda/illegal-memory-access", "CUDA error: an illegal memory access was encountered", "illegal memory access",
              dead_ends=[{"action": "Set CUDA_LAUNCH_BLOCKING=1 to find the error", "fail_rate": 0.55}])  # fmt: skip
    b = entry("cuda/device-side-assert", "CUDA error: device-side assert triggered", "device-side assert",
              workarounds=[{"action": "Set CUDA_LAUNCH_BLOCKING=1 to get the exact line that triggered the assert", "success_rate": 0.93}])  # fmt: skip
    result = merge.merge_entries(a, b)
    [conflict] = [c for c in result.report.conflicts if c.kind == "role"]
    assert [o.source for o in conflict.options] == ["dead_ends", "workarounds", "both"]
    assert conflict in result.report.unresolved
    kept = merge.merge_entries(a, b, choices={conflict.pointer: "workarounds"})
    assert kept.data["dead_ends"] == [] and len(kept.data["workarounds"]) == 1
    assert [d.pointer for d in kept.report.dropped if d.side == "cuda/illegal-memory-access"] == ["/dead_ends/0"]
    both = merge.merge_entries(a, b, choices={conflict.pointer: "both"})
    assert len(both.data["dead_ends"]) == 1 and len(both.data["workarounds"]) == 1
    preferred = merge.merge_entries(a, b, prefer="into")  # a preference drops no item on a guess
    assert preferred.report.resolutions[conflict.pointer].choice == "both"
    assert len(preferred.data["dead_ends"]) == 1 and len(preferred.data["workarounds"]) == 1


def test_different_stated_conditions_are_a_conflict_never_joined() -> None:
    def with_condition(entry_id: str, condition: str | None) -> dict[str, Any]:
        item: dict[str, Any] = {"action": "Use DeepSpeed ZeRO-3 to shard the parameters", "success_rate": 0.8}
        if condition is not None:
            item["condition"] = condition
        return entry(entry_id, "CUDA out of memory", "out of memory", workarounds=[item])

    stated = merge.merge_entries(with_condition("x/a", "model_params >= 13B"), with_condition("x/b", "model_params >= 7B"))
    [conflict] = stated.report.conflicts
    assert (conflict.pointer, conflict.kind) == ("/workarounds/0/condition", "condition")
    assert stated.data["workarounds"][0]["condition"] == "model_params >= 13B"  # stands in, unresolved
    assert "; or " not in json.dumps(stated.data)
    empty = merge.merge_entries(with_condition("x/a", None), with_condition("x/b", "model_params >= 7B"), prefer="into")
    assert empty.report.conflicts[0].kind == "condition"
    assert empty.data["workarounds"][0]["condition"] == ""
    assert [d.value for d in empty.report.dropped] == ["model_params >= 7B"]


# -- versions ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        (["cuda>=11.0"], ["cuda>=12.0,<13.0"], ["cuda>=11.0"]),
        (["rustc>=1.60"], ["rust>=1.70,<2.0"], ["rust>=1.60"]),
        (["pytorch>=2.0", "python>=3.9"], ["torch>=2.0"], ["torch>=2.0", "python>=3.9"]),
        (["CUDA 11.x+"], ["cuda>=11.7"], ["cuda>=11"]),
    ],
)
def test_version_rows_are_reconciled_through_the_version_algebra(
    tmp_path: Path, mine: list[str], theirs: list[str], expected: list[str]
) -> None:
    a = entry("x/a", "boom", "boom", versions=[{"version": v, "status": "active"} for v in mine])
    b = entry("x/b", "boom", "boom", versions=[{"version": v, "status": "active"} for v in theirs])
    result = merge.merge_entries(a, b, prefer="into")
    assert [r["version"] for r in result.data["versions"]] == expected
    corpus(tmp_path, {"x/a.yaml": dump(result.data)})
    assert [d.message for d in diagnostics(tmp_path) if d.code in ("ET401", "ET404", "ET405")] == []


def test_contradicting_version_rows_are_a_conflict() -> None:
    a = entry("x/a", "boom", "boom", versions=[{"version": "torch>=2.0", "status": "active"}])
    b = entry("x/b", "boom", "boom", versions=[{"version": "torch>=2.1", "deprecated": "2.3", "status": "deprecated"}])
    result = merge.merge_entries(a, b)
    [conflict] = [c for c in result.report.conflicts if c.kind == "version"]
    assert [o.source for o in conflict.options] == ["x/a", "x/b", "both"]
    settled = merge.merge_entries(a, b, choices={conflict.pointer: "x/a"})
    assert settled.data["versions"] == [{"version": "torch>=2.0", "status": "active"}]
    assert [d.value["version"] for d in settled.report.dropped if d.pointer == "/versions/0"] == ["torch>=2.1"]


@pytest.mark.parametrize("prefer", ["into", "other"])
def test_rows_of_one_spec_that_contradict_are_kept_whole(tmp_path: Path, prefer: str) -> None:
    active = {"version": "foo>=1.0", "status": "active"}
    removed = {"version": "foo>=1.0", "status": "removed", "removed": "3.0"}
    a = entry("x/a", "boom", "boom", versions=[active])
    b = entry("x/b", "boom", "boom", versions=[removed])
    result = merge.merge_entries(a, b, prefer=prefer)
    kept, lost = (active, removed) if prefer == "into" else (removed, active)
    assert result.data["versions"] == [kept]
    assert [c.kind for c in result.report.conflicts] == ["version"]
    assert [d.value for d in result.report.dropped if d.pointer == "/versions/0"] == [lost]
    corpus(tmp_path, {"x/a.yaml": dump(result.data)})
    assert [d.message for d in diagnostics(tmp_path) if d.code in ("ET403", "ET404")] == []


def test_rows_of_one_spec_that_agree_are_merged_field_by_field() -> None:
    a = entry("x/a", "boom", "boom", versions=[{"version": "foo>=1.0", "status": "removed"}])
    b = entry("x/b", "boom", "boom", versions=[{"version": "foo>=1.0", "status": "removed", "removed": "3.0"}])
    result = merge.merge_entries(a, b, prefer="into")
    assert result.data["versions"] == [{"version": "foo>=1.0", "status": "removed", "removed": "3.0"}]
    assert result.report.conflicts == []


def test_an_empty_translation_gives_way_to_a_real_one_in_any_merge_order() -> None:
    """A merge writes "" for an item no input translated; the next merge takes a real one."""
    clock, sink = "Lower the widget clock", "Add a heat sink to the widget"
    a = entry("x/a", "boom", "boom", workarounds=[{"action": clock}, {"action": sink}])
    b = entry("x/b", "boom", "boom", workarounds=[{"action": sink}], workarounds_zh=["给小部件加装散热片"])
    c = entry("x/c", "boom", "boom", workarounds=[{"action": clock}], workarounds_zh=["降低小部件的时钟频率"])
    one_pass = merge.merge_entries(a, [b, c], prefer="into").data
    first = merge.merge_entries(a, b, prefer="into").data
    assert first["workarounds_zh"] == ["", "给小部件加装散热片"]
    second = merge.merge_entries(first, c, prefer="into")
    assert second.data["workarounds_zh"] == one_pass["workarounds_zh"] == ["降低小部件的时钟频率", "给小部件加装散热片"]
    assert [d.value for d in second.report.dropped] == []


@pytest.mark.parametrize(
    ("kept", "absorbed"),
    [
        ("(ECONNREFUSED|connection refused)", "(could not|unable to) connect.{0,60}(refused|ECONNREFUSED)"),
        ("fatal: not a git repository$", "fatal: not a git repository \\(or any of the parent directories\\): \\.git"),
        ("(?i)out of memory", "CUDA error: (.+) at (\\w+)"),
        # (one group of alternatives, some proven found by literal text, the rest by nothing)
        ("local changes would be overwritten", "(telefonseelsorge|germany.{0,15}(suicide|crisis).{0,15}line|112.{0,15}anonymous)"),
    ],
)
def test_an_entry_merged_again_adds_nothing_to_the_regex(kept: str, absorbed: str) -> None:
    """The regex a merge made holds the absorbed one as an alternative of its own: merging
    that entry again keeps the regex as it is, however hard the two are to compare."""
    a = entry("x/a", "boom", kept, examples=["ECONNREFUSED", "fatal: not a git repository", "OUT OF MEMORY"])
    b = entry("x/b", "other", absorbed)
    once = merge.merge_entries(a, b, prefer="into").data
    assert once["regex"] != kept  # (the absorbed regex was added)
    again = merge.merge_entries(once, b, prefer="into")
    assert again.data["regex"] == once["regex"]
    assert [c.pointer for c in again.report.conflicts] == []


@pytest.mark.parametrize(("prefer", "lost"), [("into", ("x/b", 0.18)), ("other", ("x/a", 0.3))])
def test_a_reference_field_not_kept_is_named_whichever_side_it_came_from(prefer: str, lost: tuple[str, float]) -> None:
    a = entry("x/a", "boom", "boom", transition_graph={"leads_to": [{"error_id": "x/c", "probability": 0.3}]})
    b = entry("x/b", "boom", "boom", transition_graph={"leads_to": [{"error_id": "x/c", "probability": 0.18}]})
    result = merge.merge_entries(a, b, prefer=prefer)
    assert [(d.side, d.pointer, d.value) for d in result.report.dropped] == [(lost[0], "/transition_graph/leads_to/0/probability", lost[1])]


# -- numbers -----------------------------------------------------------------------


def _rated(entry_id: str, confidence: float, fix: float, success: float, evidence: int) -> dict[str, Any]:
    return entry(entry_id, "boom", "boom", confidence=confidence, fix_success_rate=fix, evidence_count=evidence,
                 workarounds=[{"action": "Restart the worker process", "success_rate": success}])  # fmt: skip


def test_one_pass_and_any_order_of_two_way_merges_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b, c = _rated("x/a", 0.95, 0.9, 0.93, 2), _rated("x/b", 0.93, 0.88, 0.91, 5), _rated("x/c", 0.94, 0.92, 0.58, 1)
    root = corpus(tmp_path, {"x/a.yaml": dump(a), "x/b.yaml": dump(b), "x/c.yaml": dump(c)})
    code, out = run(tmp_path, monkeypatch, "x/a", "x/b", "x/c", "--prefer", "into")
    assert code == ExitCode.CLEAN, out
    one_pass = yaml.safe_load((root / "x/a.yaml").read_text(encoding="utf-8"))
    for first, second in ((b, c), (c, b)):
        step = merge.merge_entries(merge.merge_entries(a, first, prefer="into").data, second, prefer="into").data
        for key in ("confidence", "fix_success_rate", "evidence_count"):
            assert step[key] == one_pass[key]
        assert step["workarounds"][0]["success_rate"] == one_pass["workarounds"][0]["success_rate"] == 0.58


@pytest.mark.parametrize(
    ("counts", "total"),
    [((2, 7.0), 9), ((2, 7), 9), ((7.0, None), 7), ((None, 3), 3)],  # 7.0 is an integer to the schema
)
def test_evidence_counts_are_summed(counts: tuple[Any, Any], total: int) -> None:
    a, b = ({"id": f"x/{n}"} | ({} if c is None else {"evidence_count": c}) for n, c in zip("ab", counts, strict=True))
    result = merge.merge_entries(a, b)
    assert result.data["evidence_count"] == total
    assert not [d for d in result.report.dropped if d.pointer == "/evidence_count"]


def test_a_count_that_is_not_a_whole_number_is_reported_not_summed() -> None:
    """The schema lets no such count through a merge; the sum still says what it leaves out."""
    inputs = [{"id": "x/a", "evidence_count": 2}, {"id": "x/b", "evidence_count": 7.5}]
    result = merge.Merger(inputs, None, {}, 0, "search", default_naming(), merge.RATE_GAP).run()
    assert result.data["evidence_count"] == 2
    assert [(d.side, d.value) for d in result.report.dropped if d.pointer == "/evidence_count"] == [("x/b", 7.5)]


def test_a_rate_that_is_not_a_finite_number_is_settled_like_any_value() -> None:
    result = merge.merge_entries({"id": "x/a", "confidence": float("nan")}, {"id": "x/b", "confidence": 0.5})
    assert [c.pointer for c in result.report.unresolved] == ["/confidence"]


def test_rates_further_apart_than_the_gap_are_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = _rated("x/a", 0.9, 0.8, 0.58, 2), _rated("x/b", 0.9, 0.8, 0.45, 2)
    assert not [r for r in merge.merge_entries(a, b, prefer="into").report.rates if r.gap]  # 0.13 is within 0.2
    [flagged] = [r for r in merge.merge_entries(a, b, prefer="into", rate_gap=0.1).report.rates if r.gap]
    assert (flagged.pointer, flagged.result) == ("/workarounds/0/success_rate", 0.45)
    corpus(tmp_path, {"x/a.yaml": dump(a), "x/b.yaml": dump(b)}, "[tool.entrykit.merge]\nrate_gap = 0.1\n")
    code, out = run(tmp_path, monkeypatch, "x/a", "x/b", "--prefer", "into", "--dry-run")
    assert "! /workarounds/0/success_rate: x/a 0.58, x/b 0.45 -> 0.45 (lowest)" in out


# -- translations and what is dropped ------------------------------------------------------


def test_translations_follow_their_text_and_the_rest_is_reported_in_full() -> None:
    a = yaml.safe_load(A)
    b = yaml.safe_load(B) | {"signature_zh": "致命错误：不是 git 仓库：/home/me/project/.git", "root_cause_zh": "GIT_DIR 指向的文件夹不是仓库。"}
    result = merge.merge_entries(a, b, choices={"/root_cause": "git/no-repository"})
    assert result.data["root_cause_zh"] == "GIT_DIR 指向的文件夹不是仓库。"  # it follows the chosen text
    dropped = {(d.side, d.pointer): d.value for d in result.report.dropped}
    assert dropped[("git/not-a-repo", "/root_cause_zh")] == "命令在仓库之外运行。"
    assert dropped[("git/no-repository", "/signature_zh")] == "致命错误：不是 git 仓库：/home/me/project/.git"
    text = report_text(result)
    assert "命令在仓库之外运行。" in text and "致命错误：不是 git 仓库：/home/me/project/.git" in text


def _translated(entry_id: str, signature: str, root_cause: str, actions: list[str], **fields: Any) -> dict[str, Any]:
    workarounds = [{"action": action, "success_rate": 0.8} for action in actions]
    return entry(entry_id, signature, "socket closed", root_cause=root_cause, workarounds=workarounds, **fields)


@pytest.mark.parametrize(
    ("b_fields", "prefer", "fingerprints", "dropped"),
    [
        # each workaround's fingerprint follows its translation; b's signature is an example now
        ({}, "into", {"signature_zh": "aaaa0001", "root_cause_zh": "aaaa0002", "workarounds_zh": ["aaaa0003", "bbbb0003"]},
         {"/translated_from/signature_zh": "bbbb0001", "/translated_from/root_cause_zh": "bbbb0002"}),
        # b's root cause is chosen: its translation, and its fingerprint, come with it
        ({}, "other", {"signature_zh": "aaaa0001", "root_cause_zh": "bbbb0002", "workarounds_zh": ["aaaa0003", "bbbb0003"]},
         {"/translated_from/signature_zh": "bbbb0001", "/translated_from/root_cause_zh": "aaaa0002"}),
        # the same root cause: one translation, one fingerprint (b's is the same, placed)
        ({"root_cause": "The peer closed it.", "root_cause_zh": "对端关闭了它。"}, "into",
         {"signature_zh": "aaaa0001", "root_cause_zh": "aaaa0002", "workarounds_zh": ["aaaa0003", "bbbb0003"]},
         {"/translated_from/signature_zh": "bbbb0001"}),
    ],
)  # fmt: skip
def test_fingerprints_follow_the_translations_they_fingerprint(
    b_fields: dict[str, Any], prefer: str, fingerprints: dict[str, Any], dropped: dict[str, Any]
) -> None:
    a = _translated(
        "net/a", "gizmo error: socket closed", "The peer closed it.", ["Raise the keepalive"],
        signature_zh="gizmo 错误：套接字已关闭", root_cause_zh="对端关闭了它。", workarounds_zh=["提高保活间隔"],
        translated_from={"signature_zh": "aaaa0001", "root_cause_zh": "aaaa0002", "workarounds_zh": ["aaaa0003"]},
    )  # fmt: skip
    b = _translated(
        "net/b", "gizmo error: socket closed by peer", "The remote end hung up.", ["Use a connection pool"],
        signature_zh="gizmo 错误：套接字被对端关闭", root_cause_zh="远端挂断了。", workarounds_zh=["使用连接池"],
        translated_from={"signature_zh": "bbbb0001", "root_cause_zh": "bbbb0002", "workarounds_zh": ["bbbb0003"]},
    ) | b_fields  # fmt: skip
    if "root_cause_zh" in b_fields:
        b["translated_from"] = b["translated_from"] | {"root_cause_zh": "aaaa0002"}
    result = merge.merge_entries(a, b, prefer=prefer)
    assert result.data["translated_from"] == fingerprints
    assert {d.pointer: d.value for d in result.report.dropped if d.pointer.startswith("/translated_from")} == dropped


def test_a_fingerprint_after_an_untranslated_item_is_reported() -> None:
    """The survivor's workaround has no translation (an empty item to translate), so b's
    fingerprint of the second item has no place in a list of one per item in order."""
    a = _translated("net/a", "gizmo error: socket closed", "The peer closed it.", ["Raise the keepalive"])
    b = _translated(
        "net/b", "gizmo error: socket closed by peer", "The peer closed it.", ["Use a connection pool"],
        workarounds_zh=["使用连接池"], translated_from={"workarounds_zh": ["bbbb0003"]},
    )  # fmt: skip
    result = merge.merge_entries(a, b, prefer="into")
    assert result.data["workarounds_zh"] == ["", "使用连接池"]
    assert "translated_from" not in result.data
    [dropped] = [d for d in result.report.dropped if d.pointer.startswith("/translated_from")]
    assert (dropped.side, dropped.pointer, dropped.value) == ("net/b", "/translated_from/workarounds_zh/0", "bbbb0003")
    assert "before /workarounds_zh/1 has no fingerprint" in dropped.why


# -- the resolution file and the JSON report ------------------------------------------------


def test_write_resolutions_then_resolve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B})
    choices = tmp_path / "choices.yaml"
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--write-resolutions", str(choices))
    assert code == ExitCode.FINDINGS  # open choices, nothing merged
    assert (root / "git/no-repository.yaml").exists()
    written = yaml.safe_load(choices.read_text(encoding="utf-8"))
    assert [c["at"] for c in written["choices"]] == ["/root_cause", "/dead_ends/0/why_fails", "/category"]
    assert all(c["choose"] is None for c in written["choices"])
    text = choices.read_text(encoding="utf-8")
    text = text.replace("choose: null", "choose: git/no-repository", 1)  # /root_cause
    text = text.replace("    choose: null\n", "    value: |-\n      Both were tried.\n      Neither helped.\n", 1)  # why_fails
    text = text.replace("choose: null", "choose: git/not-a-repo", 1)  # /category
    choices.write_text(text, encoding="utf-8")
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--resolve", str(choices))
    assert code == ExitCode.CLEAN, out
    merged = yaml.safe_load((root / "git/not-a-repo.yaml").read_text(encoding="utf-8"))
    assert merged["root_cause"] == "GIT_DIR points at a folder that is not a repository."
    assert merged["dead_ends"][0]["why_fails"] == "Both were tried.\nNeither helped."
    assert merged["category"] == "usage_error"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("choose: null", "choose: git/elsewhere", 1), "`git/elsewhere` is not one of"),
        (lambda t: t.replace("at: /category", "at: /subcategory"), "/subcategory is no open choice"),
        (lambda t: t.replace("config_error", "config_problem"), "the options of /category changed"),
        (lambda t: t.replace("into: git/not-a-repo", "into: git/other"), "was written for merging"),
        (lambda t: "choices: [\n", "not a resolution file"),
    ],
)
def test_a_resolution_file_that_does_not_fit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Any, message: str) -> None:
    root = corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B})
    choices = tmp_path / "choices.yaml"
    run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--write-resolutions", str(choices))
    choices.write_text(change(choices.read_text(encoding="utf-8")), encoding="utf-8")
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--resolve", str(choices))
    assert code == ExitCode.ERROR and message in out, out
    assert (root / "git/not-a-repo.yaml").read_text(encoding="utf-8") == A


def test_json_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus(tmp_path, {"git/not-a-repo.yaml": A, "git/no-repository.yaml": B, "git/detached-head.yaml": C})
    code, out = run(tmp_path, monkeypatch, "git/not-a-repo", "git/no-repository", "--dry-run", "--report", "json")
    assert code == ExitCode.FINDINGS
    report = json.loads(out)
    assert report["survivor"] == "git/not-a-repo" and report["absorbed"] == ["git/no-repository"]
    assert report["unresolved"] == ["/root_cause", "/dead_ends/0/why_fails", "/category"]
    assert report["files"] == {"write": "entries/git/not-a-repo.yaml", "rewrite": ["entries/git/detached-head.yaml"], "delete": ["entries/git/no-repository.yaml"]}
    [category] = [d for d in report["differences"] if d["pointer"] == "/category"]
    assert (category["survivor"], category["value"], category["outcome"]) == ("usage_error", "config_error", "conflict at /category")
    assert report["regex"]["coverage_lost"] == [] and report["written"] is False
    assert yaml.safe_load(report["text"])["id"] == "git/not-a-repo"


def test_the_report_lists_differences_path_by_path_in_a_stable_order() -> None:
    a, b = yaml.safe_load(A), yaml.safe_load(B)
    result = merge.merge_entries(a, b, prefer="into")
    pointers = [d.pointer for d in result.report.differences]
    assert pointers == sorted(pointers, key=lambda p: [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in p.split("/")[1:]])
    assert "/dead_ends/0/why_fails" in pointers and "/transition_graph" not in pointers
    assert report_text(result) == report_text(merge.merge_entries(dict(reversed(list(a.items()))), b, prefer="into"))


# -- the no-new-errors gate compares code and place ------------------------------------


def test_a_finding_the_inputs_had_at_the_same_place_does_not_refuse_the_merge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A regex that matched another entry's signature before (ET209) may still do so after,
    whatever the message says now: the merge added nothing."""
    other = dump(entry("git/other", "fatal: not a git repository: /tmp/x", r"fatal: not a git repository: /tmp/x"))
    a = dump(entry("git/a", "fatal: not a git repository (or any of the parent directories): .git", "not a git repository"))
    b = dump(entry("git/b", "fatal: not a git repository: /srv/.git", "fatal: not a git"))
    corpus(tmp_path, {"git/a.yaml": a, "git/b.yaml": b, "git/other.yaml": other})
    code, out = run(tmp_path, monkeypatch, "git/a", "git/b", "--prefer", "into", "--dry-run")
    assert code == ExitCode.CLEAN, out
    assert "no new finding" in out


def test_an_entry_a_summary_left_unnamed_is_no_finding_the_merge_adds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ET209 sums up more than `max_pairs` other entries in one finding naming only some;
    once the merge brings the count down, each is named on its own, the unnamed one too.
    The regex matched it before: the merge adds nothing, and writes."""
    survivor = dump(entry("net/a", "A: connection timed out", "timed out"))
    absorbed = dump(entry("net/b", "B: connection timed out", "B: connection timed out"))
    others = {f"net/{n}.yaml": dump(entry(f"net/{n}", f"{n.upper()}: timed out", f"{n.upper()}: timed out")) for n in "cd"}
    settings = "[tool.entrykit.rules.ET209]\nmax_pairs = 2\n"
    root = corpus(tmp_path, {"net/a.yaml": survivor, "net/b.yaml": absorbed, **others}, settings)
    config = from_table({"root": "entries", "rules": {"ET209": {"max_pairs": 2}}}, tmp_path)
    found = lint(None, config, TODAY, cwd=tmp_path).diagnostics
    before = [d.message for d in found if d.code == "ET209" and d.path.endswith("net/a.yaml")]
    assert before == ["regex also matches the signatures or examples of 3 other entries, such as `net/b`, `net/c`"]

    code, out = run(tmp_path, monkeypatch, "net/a", "net/b", "--prefer", "into")

    assert code == ExitCode.CLEAN, out
    assert "no new finding" in out and not (root / "net/b.yaml").exists()


def test_a_signature_no_regex_matched_is_no_finding_the_merge_adds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The absorbed entry's regex missed its own signature (ET202, on its regex); as the
    survivor's example the signature is missed still (ET203): the same finding, moved."""
    survivor = dump(entry("docker/a", "listen tcp4 0.0.0.0:80: bind: address already in use", "bind: address already in use"))
    absorbed = dump(entry("docker/b", "Bind for 0.0.0.0:PORT failed: port is already allocated", r"Bind for .+?:\d+ failed"))
    root = corpus(tmp_path, {"docker/a.yaml": survivor, "docker/b.yaml": absorbed})
    assert [d.code for d in diagnostics(tmp_path) if d.path.endswith("docker/b.yaml") and d.code == "ET202"] == ["ET202"]

    code, out = run(tmp_path, monkeypatch, "docker/a", "docker/b", "--prefer", "into")

    assert code == ExitCode.CLEAN, out
    assert "no new finding" in out and not (root / "docker/b.yaml").exists()
    assert [d.code for d in diagnostics(tmp_path) if d.code in ("ET202", "ET203")] == ["ET203"]


# -- golden reports ----------------------------------------------------------------------

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_merge_report_matches_golden(monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """The dry run of a merge with a rewritten reference, a moved comment and open choices."""
    monkeypatch.chdir(FIXTURES / "merge")
    args = ["merge", "git/not-a-repo", "git/no-repository", "--dry-run", "--report", fmt, "--today", "2026-11-30"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == ExitCode.FINDINGS  # open choices
    golden = GOLDEN / f"merge.{fmt}"
    if os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):
        golden.write_text(result.stdout, encoding="utf-8")
    assert result.stdout == golden.read_text(encoding="utf-8")


def test_an_inputs_own_repeated_items_fold_the_same_in_any_order_of_merges() -> None:
    """Repeats within one input are folded before inputs are matched, so one pass and
    both orders of two-way merges keep the same items with the same rates."""
    sig = "fatal: not a git repository (or any of the parent directories): .git"
    a = entry("git/a", sig, "not a git repository")
    b = entry("git/b", sig, "not a git repository", workarounds=[
        {"action": "Pin the package versions", "success_rate": 0.0},
        {"action": "Pin the package versions", "success_rate": 0.9},
    ])  # fmt: skip
    c = entry("git/c", sig, "not a git repository", workarounds=[
        {"action": "Pin the package versions", "success_rate": 0.0},
        {"action": "Pin the package version", "success_rate": 0.72},
    ])  # fmt: skip
    one_pass = merge.merge_entries(a, [b, c], prefer="into").data["workarounds"]
    assert [(w["action"], w["success_rate"]) for w in one_pass] == [("Pin the package versions", 0.0)]
    for first, second in ((b, c), (c, b)):
        step = merge.merge_entries(merge.merge_entries(a, first, prefer="into").data, second, prefer="into").data
        assert step["workarounds"] == one_pass
