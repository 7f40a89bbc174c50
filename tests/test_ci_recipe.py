"""The CI recipe: the composite action's lint step, run with bash as a GitHub runner runs it,
and the README's workflow that uses it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import FIXTURES, REPO

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))


def _step(name: str) -> dict[str, object]:
    return next(step for step in ACTION["runs"]["steps"] if step.get("name") == name)


def _run_lint_step(tmp_path: Path, corpus: Path, **inputs: str) -> subprocess.CompletedProcess[str]:
    """The `entrykit lint` step's script, with the runner's variables and the inputs as the
    action passes them (environment variables), entrykit being the one under test."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    runner_temp = tmp_path / "runner-temp"
    if not runner_temp.exists():
        (runner_temp / "entrykit" / "bin").mkdir(parents=True)
        (runner_temp / "entrykit" / "bin" / "entrykit").symlink_to(Path(sys.executable).parent / "entrykit")
    step = _step("entrykit lint")
    defaults = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    values = {**defaults, **inputs}
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update({"RUNNER_TEMP": str(runner_temp), "GITHUB_ACTIONS": "true"})
    for variable, expression in step["env"].items():  # type: ignore[union-attr]
        name = re.fullmatch(r"\$\{\{ inputs\.([a-z-]+) \}\}", expression).group(1)  # type: ignore[union-attr]
        env[variable] = values[name]
    return subprocess.run(
        ["bash", "-e", "-c", str(step["run"])], cwd=corpus, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return Path(shutil.copytree(FIXTURES / "golden", tmp_path / "repo"))


def test_the_action_annotates_and_writes_sarif(tmp_path: Path, corpus: Path) -> None:
    done = _run_lint_step(tmp_path, corpus)
    assert done.returncode == 1, done.stderr  # findings fail the step
    assert done.stdout.startswith("::error file=entries/git/broken.json,line=4,col=3,title=ET001")
    report = json.loads((corpus / "entrykit.sarif").read_text(encoding="utf-8"))
    assert report["runs"][0]["results"] and report["runs"][0]["originalUriBaseIds"]


def test_the_action_passes_paths_and_args_as_words_never_as_script(tmp_path: Path, corpus: Path) -> None:
    done = _run_lint_step(tmp_path, corpus, paths="entries/pip", args="--exit-zero --select ET2", **{"sarif-file": ""})
    assert done.returncode == 0, done.stderr
    assert "ET202" in done.stdout and "broken.json" not in done.stdout and not (corpus / "entrykit.sarif").exists()
    hostile = _run_lint_step(tmp_path, corpus, args="$(touch pwned) `touch pwned2` ; touch pwned3", paths="*")
    assert hostile.returncode == 2  # options entrykit does not know: a usage error
    assert not list(corpus.glob("pwned*"))


def test_the_action_installs_entrykit_of_its_own_revision() -> None:
    install = _step("Install entrykit (this action's own revision)")
    assert install["env"] == {"ACTION_PATH": "${{ github.action_path }}"}
    assert '"$ACTION_PATH"' in str(install["run"])
    assert ACTION["runs"]["using"] == "composite"


def test_the_readme_workflow_uses_the_action_and_uploads_its_sarif() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## In CI") : readme.index("## Layout")]
    workflow = yaml.safe_load(re.search(r"```yaml\n(# \.github/workflows/.*?)```", section, re.S).group(1))  # type: ignore[union-attr]
    steps = workflow["jobs"]["lint"]["steps"]
    uses = [step.get("uses", "") for step in steps]
    assert uses[0].startswith("actions/checkout@") and uses[1].startswith("entrykit/entrykit@")
    assert re.fullmatch(r"entrykit/entrykit@[0-9a-f]{40}", uses[1])  # pinned to a commit
    upload = steps[2]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == ACTION["inputs"]["sarif-file"]["default"]
    assert "!cancelled()" in upload["if"] and workflow["permissions"]["security-events"] == "write"
