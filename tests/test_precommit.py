"""The hooks, run by the real `pre-commit` program in a scratch git repository."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from entrykit.authoring.formatter import format_text

from .conftest import REPO

pytestmark = pytest.mark.slow

MESSY = """\
regex: 'ERROR: boom in module x'
id: pip/x
signature: "ERROR: boom in module x"
domain: pip
category: install_error
root_cause: It breaks.
dead_ends: []
workarounds: []
first_seen: 2024-01-01
last_confirmed: "2024-01-02"
"""

def _other(text: str) -> str:
    """The same entry about another module, under another id (so no duplicate of x)."""
    return text.replace("pip/x", "pip/y").replace("module x", "module y")


BROKEN = _other(MESSY).replace("'ERROR: boom in module y'", "ValueError")


def _pre_commit() -> list[str]:
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    return [sys.executable, "-m", "pre_commit"]


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


def _scratch(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "scratch"
    (repo / "entries" / "pip").mkdir(parents=True)
    for name, text in files.items():
        (repo / name).write_text(text, encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    return repo


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update({"PRE_COMMIT_HOME": str(home), "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@example.org"})
    # installing the hook environment need not compile every module of every dependency
    env["PIP_NO_COMPILE"] = "1"
    # the project's own hooks run the entrykit of the active environment
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=_env(repo))


def _run(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [*_pre_commit(), *args], cwd=repo, env=_env(home), capture_output=True, text=True, timeout=600
    )
    if "Installing environment" in proc.stdout + proc.stderr and "An unexpected error" in proc.stdout + proc.stderr:
        pytest.skip(f"pre-commit could not install the hook environment here:\n{proc.stdout[-800:]}")
    return proc


def _check_a_failing_then_passing_run(repo: Path, home: Path, *args: str) -> None:
    first = _run(repo, home, *args)
    assert first.returncode == 1, first.stdout
    out = first.stdout
    assert "entrykit fmt" in out and "files were modified by this hook" in out
    assert "reformatted entries/pip/x.yaml" in out
    assert re.search(r"entries/pip/y\.yaml:\d+:\d+: ET202", out)  # lint ran and found the broken regex
    x = (repo / "entries" / "pip" / "x.yaml").read_text(encoding="utf-8")
    assert x == format_text(MESSY, "yaml").text
    (repo / "entries" / "pip" / "y.yaml").write_text(format_text(_other(MESSY), "yaml").text)
    _git(repo, "add", "-A")
    second = _run(repo, home, *args)
    assert second.returncode == 0, second.stdout
    assert second.stdout.count("Passed") == 2


# Files a repository that holds a corpus has beside it: the hooks must never report or rewrite them.
WORKFLOW = """\
name: ci
on: [push, pull_request]
jobs:
  test: {runs-on: ubuntu-latest, steps: [{uses: actions/checkout@v4}, {run: make test}]}
"""
PACKAGE = '{"name": "site", "private": true,\n  "scripts": {"build": "vite build"}, "devDependencies": {}}\n'


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This tree as the repository another project's config names, committed: (path, commit SHA).
    Module-wide, so pre-commit installs its hook environment once."""
    _pre_commit()
    folder = tmp_path_factory.mktemp("published")
    for name in (".pre-commit-hooks.yaml", "pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, folder / name)
    for name in ("tool", "schema"):
        shutil.copytree(REPO / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    _git(folder, "init", "-q")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-q", "-m", "published")
    rev = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=folder, env=_env(folder), check=True, capture_output=True, text=True
    )
    return folder, rev.stdout.strip()


def test_published_hooks_pinned_to_a_commit_touch_only_entries(
    tmp_path: Path, pre_commit_home: Path, published: tuple[Path, str]
) -> None:
    """The README's `.pre-commit-config.yaml`, in a repository that also holds a workflow, a
    package.json and that config: the hooks format and lint the entries, and never name,
    read into a report or rewrite anything else."""
    folder, rev = published
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "rev: 0123456789abcdef0123456789abcdef01234567   # a commit" in readme  # what it tells users to pin
    config = (
        f"repos:\n  - repo: {folder}\n    rev: {rev}\n"
        "    hooks:\n      - id: entrykit-fmt\n      - id: entrykit-lint\n"
    )
    others = {".github/workflows/ci.yml": WORKFLOW, "package.json": PACKAGE, ".pre-commit-config.yaml": config}
    repo = _scratch(tmp_path, {"entries/pip/x.yaml": MESSY, "entries/pip/y.yaml": BROKEN})
    for name, text in others.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    _git(repo, "add", "-A")
    _check_a_failing_then_passing_run(repo, pre_commit_home, "run", "--all-files")
    for name, text in others.items():
        assert (repo / name).read_text(encoding="utf-8") == text, f"{name} was rewritten"
    staged = _run(repo, pre_commit_home, "run", "--files", *others, "--verbose")
    assert staged.returncode == 0, staged.stdout
    for name in others:
        assert f"{name}:" not in staged.stdout and f"reformatted {name}" not in staged.stdout
    assert "ET101" not in staged.stdout


def test_project_config_runs_fmt_and_lint_on_entries(tmp_path: Path, pre_commit_home: Path) -> None:
    repo = _scratch(tmp_path, {"entries/pip/x.yaml": MESSY, "entries/pip/y.yaml": BROKEN})
    shutil.copy(REPO / ".pre-commit-config.yaml", repo / ".pre-commit-config.yaml")
    (repo / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    _git(repo, "add", "-A")
    _check_a_failing_then_passing_run(repo, pre_commit_home, "run", "--all-files")
