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


def _published(tmp_path: Path) -> tuple[Path, str]:
    """This tree as a repository another project's config names: what the hooks install
    from, committed (as `pre-commit try-repo` would commit uncommitted changes)."""
    published = tmp_path / "published"
    published.mkdir()
    for name in (".pre-commit-hooks.yaml", "pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, published / name)
    for name in ("tool", "schema"):
        shutil.copytree(REPO / name, published / name, ignore=shutil.ignore_patterns("__pycache__"))
    _git(published, "init", "-q")
    _git(published, "add", "-A")
    _git(published, "commit", "-q", "-m", "published")
    rev = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=published, env=_env(published), check=True, capture_output=True, text=True
    )
    return published, rev.stdout.strip()


def test_published_hooks_from_a_pinned_commit(tmp_path: Path, pre_commit_home: Path) -> None:
    """`.pre-commit-hooks.yaml` as another repository uses it (README: `repo`, `rev`, both hook ids):
    pre-commit installs entrykit from this tree once, and both runs use that environment."""
    _pre_commit()
    published, rev = _published(tmp_path)
    repo = _scratch(tmp_path, {"entries/pip/x.yaml": MESSY, "entries/pip/y.yaml": BROKEN})
    config = tmp_path / "pre-commit-config.yaml"  # beside the repository, as try-repo keeps it: not a file to check
    config.write_text(
        f"repos:\n  - repo: {published}\n    rev: {rev}\n"
        "    hooks:\n      - id: entrykit-fmt\n      - id: entrykit-lint\n",
        encoding="utf-8",
    )
    _check_a_failing_then_passing_run(repo, pre_commit_home, "run", "--config", str(config), "--all-files")


def test_project_config_runs_fmt_and_lint_on_entries(tmp_path: Path, pre_commit_home: Path) -> None:
    repo = _scratch(tmp_path, {"entries/pip/x.yaml": MESSY, "entries/pip/y.yaml": BROKEN})
    shutil.copy(REPO / ".pre-commit-config.yaml", repo / ".pre-commit-config.yaml")
    (repo / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    _git(repo, "add", "-A")
    _check_a_failing_then_passing_run(repo, pre_commit_home, "run", "--all-files")
