"""Every bundled entry's message, produced again today by running its tool, is matched by its regex."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from entrykit.config import load_config
from entrykit.loader import discover, load
from entrykit.regex.compiling import compile_pattern, matches, settings_flags

from .conftest import REPO

ENTRIES = REPO / "entries"
PY = sys.executable


@dataclass(frozen=True)
class Recipe:
    """How to make a tool print an entry's message: a tool to look for and shell steps."""

    tool: str
    steps: tuple[tuple[str, ...], ...]
    exact: bool = True  # the signature appears verbatim in what the tool printed
    fails: bool = True  # the last step exits non-zero (a warning may not)


def _py(code: str) -> tuple[str, ...]:
    return (PY, "-c", code)


def _pip(*args: str) -> tuple[str, ...]:
    return (PY, "-m", "pip", "--isolated", "--disable-pip-version-check", *args)


def _git(*args: str) -> tuple[str, ...]:
    return ("git", *args)


def _node(code: str) -> tuple[str, ...]:
    return ("node", "-e", code)


def _sqlite(sql: str) -> tuple[str, ...]:
    return ("sqlite3", ":memory:", sql)


RECIPES: dict[str, Recipe] = {
    "python/modulenotfounderror": Recipe(PY, (_py("import entrykit_missing_module"),)),
    "python/zerodivisionerror": Recipe(PY, (_py("1/0"),)),
    "python/jsondecodeerror-expecting-value": Recipe(PY, (_py("import json; json.loads('')"),)),
    "python/typeerror-concatenate-str": Recipe(PY, (_py("'a' + 1"),)),
    "python/unicodedecodeerror-utf-8": Recipe(PY, (_py("b'\\xff'.decode('utf-8')"),)),
    "python/recursionerror": Recipe(PY, (_py("def f(): f()\nf()"),)),
    "pip/no-matching-distribution": Recipe(PY, (_pip("install", "--no-index", "entrykit-no-such-package"),)),
    "pip/requirements-file-not-found": Recipe(PY, (_pip("install", "--no-index", "-r", "no-such-requirements.txt"),)),
    # pip 24 and later append the parser's reason to the line: the regex takes both forms.
    "pip/invalid-requirement": Recipe(PY, (_pip("install", "--no-index", "./no-such-dir"),), exact=False),
    "pip/skipping-not-installed": Recipe(PY, (_pip("uninstall", "-y", "entrykit-not-installed"),), fails=False),
    "git/not-a-repository": Recipe("git", (_git("status"),)),
    "git/pathspec-did-not-match": Recipe("git", (_git("init", "-q"), _git("checkout", "nope"))),
    # The branch name is git's default (`master` in git 2.39, configurable): the regex takes any.
    "git/branch-has-no-commits": Recipe("git", (_git("init", "-q"), _git("log")), exact=False),
    "git/ambiguous-argument": Recipe(
        "git", (_git("init", "-q"), _git("commit", "-q", "--allow-empty", "-m", "x"), _git("show", "nope"))
    ),
    "git/branch-already-exists": Recipe(
        "git",
        (_git("init", "-q"), _git("commit", "-q", "--allow-empty", "-m", "x"), _git("branch", "-M", "main"),
         _git("branch", "main")),
    ),
    "git/remote-already-exists": Recipe(
        "git", (_git("init", "-q"), _git("remote", "add", "origin", "/x"), _git("remote", "add", "origin", "/y"))
    ),
    "node/cannot-find-module": Recipe("node", (_node("require('entrykit-missing')"),)),
    "node/cannot-read-properties-of-null": Recipe("node", (_node("null.x"),)),
    "node/json-parse-expected-property-name": Recipe("node", (_node("JSON.parse('{')"),)),
    "sqlite3/no-such-table": Recipe("sqlite3", (_sqlite("select * from nope;"),), exact=False),
    "sqlite3/unique-constraint-failed": Recipe(
        "sqlite3", (_sqlite("create table t(id integer primary key, v unique); insert into t values(1,1); "
                            "insert into t values(2,1);"),), exact=False,
    ),
}
# Entries whose tool this project does not install (no GPU, no PyTorch wheel in CI).
NOT_REPRODUCED = {"pytorch/fsdp-param-mismatch", "pytorch/fsdp-parameter-mismatch"}


def _entries() -> dict[str, dict]:
    found = {}
    for path in discover([ENTRIES]):
        entry = load(path, path.name)
        found[entry.data["id"]] = entry.data  # type: ignore[union-attr]
    return found


ENTRY_DATA = _entries()


def test_every_entry_has_a_recipe() -> None:
    assert set(ENTRY_DATA) - NOT_REPRODUCED == set(RECIPES)
    domains = {entry_id.split("/")[0] for entry_id in RECIPES}
    assert len(RECIPES) >= 15 and len(domains) >= 4


def _environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PIP_", "NODE_"))}
    env.update(
        {
            "HOME": str(home), "LC_ALL": "C", "LANG": "C", "LANGUAGE": "C",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CEILING_DIRECTORIES": str(home.parent),
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
            "NODE_PATH": "",
        }
    )
    return env


@pytest.mark.parametrize("entry_id", sorted(RECIPES))
def test_message_is_reproduced_and_matched(entry_id: str, tmp_path: Path) -> None:
    recipe = RECIPES[entry_id]
    if shutil.which(recipe.tool) is None:
        pytest.skip(f"`{recipe.tool}` is not installed here")
    work = tmp_path / "work"
    work.mkdir()
    env = _environment(tmp_path)
    output = ""
    for step in recipe.steps:
        proc = subprocess.run(step, cwd=work, env=env, capture_output=True, text=True, timeout=120)
        output += proc.stdout + proc.stderr
    assert (proc.returncode != 0) == recipe.fails, f"exit status {proc.returncode}; printed:\n{output}"
    entry = ENTRY_DATA[entry_id]
    settings = load_config(REPO).settings.get("regex", {})
    regex = compile_pattern(entry["regex"], settings_flags(settings))
    lines = output.splitlines()
    assert any(matches(regex, line, str(settings.get("mode", "search"))) for line in lines), (
        f"{entry['regex']!r} matches no line of:\n{output}"
    )
    if recipe.exact:
        assert entry["signature"] in lines, f"signature not printed verbatim:\n{output}"
