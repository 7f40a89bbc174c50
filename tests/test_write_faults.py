"""Every writing command under fault injection: a failure at any file-system step of `fmt`,
`lint --fix`, `merge`, `new`, `import`, `schema --output`,
`render --output` and `translations --mark-current` (ENOSPC/EIO, or an interrupt) leaves every file
byte-identical and no temp file behind, with a one-line diagnostic and exit 2; a hard kill
between the temp write and the rename leaves the originals too. File modes are kept."""

from __future__ import annotations

import copy
import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit import journal, private_folder
from entrykit.cli import ExitCode, cli
from entrykit.loader import discover

from .conftest import FIXTURES, TODAY
from .faults import Faults, SimulatedCrash, changed, snapshot
from .test_import_deadends import CANON
from .test_merge import A, B, C
from .test_translations_report import ENTRY as TRANSLATED

pytestmark = pytest.mark.slow

SIGNATURE = "ModuleNotFoundError: No module named 'yaml_missing'"
PYPROJECT = '[tool.entrykit]\nroot = "entries"\n'


def _put(base: Path, files: dict[str, str], mode: int = 0o640) -> None:
    (base / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    for name, text in files.items():
        target = base / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        os.chmod(target, mode)  # not the default: a rewrite must keep it


def _unformatted(text: str) -> str:
    """`text` with its first line (the id) moved to the end: out of schema order."""
    first, rest = text.split("\n", 1)
    return rest + first + "\n"


def _canon(upstream_id: str, signature: str) -> str:
    canon = copy.deepcopy(CANON)
    canon["id"] = upstream_id
    canon["error"]["signature"] = signature
    return json.dumps(canon, indent=2)


def _translated(base: Path) -> None:
    """Two entries whose translations `--mark-current` records fingerprints for."""
    _put(base, {
        "entries/git/not-a-repository.yaml": TRANSLATED,
        "entries/git/not-a-repo.yaml": TRANSLATED.replace("id: git/not-a-repository", "id: git/not-a-repo"),
    })
    (base / "pyproject.toml").write_text(PYPROJECT + "[tool.entrykit.translation]\ntrack_source = true\n", encoding="utf-8")


@dataclass
class Scenario:
    setup: Callable[[Path], None]
    args: list[str]
    success: int  # the exit status of the run without faults
    refusal: str  # what the diagnostic of a failed write says


SCENARIOS = {
    "fmt": Scenario(
        lambda base: _put(base, {"entries/git/not-a-repo.yaml": _unformatted(A), "entries/git/no-repository.yaml": _unformatted(B)}),
        ["fmt"], ExitCode.CLEAN, "; no file was changed",
    ),
    "lint-fix": Scenario(
        lambda base: _put(base, {
            "entries/pytorch/fsdp-param-mismatch.yaml": (FIXTURES / "seed001/yaml/pytorch/fsdp-param-mismatch.yaml").read_text(encoding="utf-8"),
            "entries/other/fsdp-param-mismatch.json": (FIXTURES / "seed001/json/pytorch/fsdp-param-mismatch.json").read_text(encoding="utf-8"),
        }),
        ["lint", "--fix", "--today", TODAY.isoformat()], ExitCode.FINDINGS, "; no file was changed",
    ),
    "merge": Scenario(
        lambda base: _put(base, {"entries/git/not-a-repo.yaml": A, "entries/git/no-repository.yaml": B, "entries/git/detached-head.yaml": C}),
        ["merge", "git/not-a-repo", "git/no-repository", "--prefer", "into", "--today", TODAY.isoformat()],
        ExitCode.CLEAN, "writing failed, both entries are still on disk",
    ),
    "new": Scenario(
        lambda base: _put(base, {"entries/git/not-a-repo.yaml": A}),
        ["new", "--no-input", "--today", TODAY.isoformat(), "--signature", SIGNATURE, "--root-cause", "Not installed.",
         "--id", "python/no-yaml", "--category", "import_error"],
        ExitCode.CLEAN, "; nothing written",
    ),
    "new-force": Scenario(
        lambda base: _put(base, {"entries/git/not-a-repo.yaml": A, "entries/python/no-yaml.yaml": B}),
        ["new", "--no-input", "--today", TODAY.isoformat(), "--signature", SIGNATURE, "--root-cause", "Not installed.",
         "--id", "python/no-yaml", "--category", "import_error", "--force"],
        ExitCode.CLEAN, "; nothing written",
    ),
    "new-example": Scenario(
        lambda base: _put(base, {"entries/git/not-a-repo.yaml": A}),
        ["new", "--no-input", "--today", TODAY.isoformat(), "--signature", "fatal: not a git repository (or any parent)",
         "--root-cause", "x", "--on-match", "example"],
        ExitCode.CLEAN, "; no file was changed",
    ),
    "import": Scenario(
        lambda base: _put(base, {
            "canons/a.json": _canon("python/modulenotfounderror/py311-linux", SIGNATURE),
            "canons/b.json": _canon("python/importerror/py311-linux", "ImportError: cannot import name 'x'"),
            "entries/python/importerror_py311-linux.yaml": B,  # overwritten with --force: kept whole on failure
        }),
        ["import", "--from", "deadends", "canons", "--force"], ExitCode.CLEAN, "; no entry was written",
    ),
    "schema": Scenario(
        lambda base: _put(base, {"entries/git/not-a-repo.yaml": A, "schema/entry.schema.json": "{}\n"}),
        ["schema", "--output", "schema/entry.schema.json"], ExitCode.CLEAN, "; nothing written",
    ),
    "render": Scenario(
        lambda base: _put(base, {"entries/git/not-a-repo.yaml": A, "pages/not-a-repo.html": "old page\n"}),
        ["render", "--html", "git/not-a-repo", "--output", "pages/not-a-repo.html"], ExitCode.CLEAN, "; nothing written",
    ),
    "mark-current": Scenario(
        _translated, ["translations", "--mark-current", "entries"], ExitCode.CLEAN, "; no file was changed",
    ),
}


def _fresh(work: Path, scenario: Scenario) -> dict[str, bytes | str]:
    work.mkdir(exist_ok=True)  # emptied, not removed: it is the working directory
    for child in work.iterdir():
        shutil.rmtree(child) if child.is_dir() else child.unlink()
    scenario.setup(work)
    return snapshot(work)


def _leftovers(work: Path) -> list[str]:
    return sorted(p.name for p in work.rglob(".*") if p.name.endswith((".tmp", ".old")))


def _run(scenario: Scenario) -> tuple[int, str]:
    result = CliRunner().invoke(cli, scenario.args, catch_exceptions=False)
    return result.exit_code, result.output


def _folders(work: Path) -> list[str]:
    return sorted(p.relative_to(work).as_posix() for p in work.rglob("*") if p.is_dir())


def _modes(work: Path) -> dict[str, int]:
    return {str(p.relative_to(work)): stat.S_IMODE(p.stat().st_mode) for p in work.rglob("*") if p.is_file()}


def _private_folder_made() -> None:
    """The private folder, its key and the journal's folder exist before a dry run counts
    the steps of a write: they are made once per user, not by every write."""
    top = private_folder.open_folder(private_folder.location()[0])
    private_folder.secret_key(top)
    made = top.folder(journal.FOLDER, create=True)
    if made is not None:
        made.close()
    top.close()


@pytest.mark.parametrize("error", ["oserror", "crash"])
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_a_failed_write_at_any_step_changes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, error: str
) -> None:
    scenario = SCENARIOS[name]
    work = tmp_path / "work"
    before = _fresh(work, scenario)
    modes = _modes(work)
    monkeypatch.chdir(work)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    _private_folder_made()
    with Faults().installed(monkeypatch) as dry:
        code, out = _run(scenario)
    assert code == scenario.success, out
    done = snapshot(work)
    altered = changed(before, done)
    assert altered and _leftovers(work) == []
    kept = [key for key in altered if key in before and key in done]
    assert all(_modes(work)[key] == modes[key] for key in kept)  # rewritten files keep their mode
    # (a file that must not be overwritten is put in place by a hard link, which fails where a file is)
    assert {"mkstemp", "write", "fsync"} <= set(dry.steps) and {"replace", "link"} & set(dry.steps)

    failed = 0
    for index, step in enumerate(dry.steps):
        before = _fresh(work, scenario)
        crashed = False
        with Faults(fail_at=index, error=error).installed(monkeypatch):
            try:
                code, out = _run(scenario)
            except SimulatedCrash:
                crashed = True
        after = snapshot(work)
        if after == before or crashed and not [k for k in changed(before, after) if not k.endswith(".old")]:
            failed += 1
            assert _leftovers(work) == [], f"step {index} ({step})"
            if not crashed:
                assert code == ExitCode.ERROR, f"step {index} ({step}): {out}"
                assert scenario.refusal in out and "Traceback" not in out, out
                assert out.count("entrykit: error:") == 1
        else:  # the failing step came after the change was made: it is made in full
            leftover = [k for k in changed(done, after)]
            assert all(Path(k).name.startswith(".") and k.endswith(".old") for k in leftover), f"step {index} ({step})"
    # the sweep really failed writes: every step up to the last rename or placing link (links fall
    # back to a copy, or to a rename)
    last_rename = max(i for i, s in enumerate(dry.steps) if s in ("replace", "link"))
    links = dry.steps[: last_rename + 1].count("link") if error == "oserror" else 0
    assert failed >= last_rename + 1 - links


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_a_hard_kill_between_temp_write_and_rename_keeps_the_originals(tmp_path: Path, name: str) -> None:
    """The process dies at its first rename or hard link of a file it changes (no handler runs): originals
    byte-identical; the only trace is hidden files (`.tmp`: the new text; `.old`: a link to
    the old) that discovery ignores, and the next command, whichever it is, removes them."""
    scenario = SCENARIOS[name]
    work = tmp_path / "work"
    before = _fresh(work, scenario)
    folders = _folders(work)
    _private_folder_made()  # (its files are made by a hard link too, once per user)
    script = (
        "import os, sys\n"
        "from entrykit.cli import main\n"
        "os.replace = os.link = lambda *a, **k: os._exit(137)\n"
        "sys.argv = ['entrykit', *sys.argv[1:]]\n"
        "main()\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, *scenario.args], cwd=work, capture_output=True, timeout=300)
    assert proc.returncode == 137, proc.stderr
    after = snapshot(work)
    extra = changed(before, after)
    assert extra and all(Path(k).name.startswith(".") and k.endswith((".tmp", ".old")) for k in extra)
    assert all(before[k] == after[k] for k in before)
    found = sorted(p.relative_to(work).as_posix() for p in discover([work / "entries"]))
    assert found == sorted(k for k in before if k.startswith("entries/"))  # the temp file is never linted
    # the next command (here one that writes nothing) cleans up and says so
    proc = subprocess.run(
        [sys.executable, "-m", "entrykit", "schema"], cwd=work, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0 and "earlier run" in proc.stderr, proc.stderr
    assert snapshot(work) == before
    assert _folders(work) == folders  # a folder made for a new file goes again too


def test_new_and_import_refuse_to_overwrite_unless_forced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("new-force", "import"):
        scenario = SCENARIOS[name]
        work = tmp_path / name
        work.mkdir()
        scenario.setup(work)
        monkeypatch.chdir(work)
        before = snapshot(work)
        unforced = Scenario(scenario.setup, [a for a in scenario.args if a != "--force"], 0, "")
        code, out = _run(unforced)
        assert code != ExitCode.CLEAN and "--force" in out, out
        existing = "entries/python/no-yaml.yaml" if name == "new-force" else "entries/python/importerror_py311-linux.yaml"
        assert snapshot(work)[existing] == before[existing]
        code, out = _run(scenario)
        assert code == ExitCode.CLEAN, out
        assert snapshot(work)[existing] != before[existing]
        assert stat.S_IMODE((work / existing).stat().st_mode) == 0o640
