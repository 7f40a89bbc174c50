"""Shared test helpers: build a scratch corpus from text and lint it in-process; keep the tree as it was."""

from __future__ import annotations

import gc
import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from entrykit.config import Config, from_table
from entrykit.lint.engine import LintResult, lint
from entrykit.regex import compiling, syntax
from entrykit.regex.budget import Budget

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DEADENDS = SHARED / "corpus" / "deadends-dev" / "canons"
SEEDS = SHARED / "seeds"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
TODAY = date(2026, 11, 30)


def write_corpus(base: Path, files: Mapping[str, str], root: str = "entries") -> Path:
    """Write `files` (path below the root -> text) and return the root."""
    folder = base / root
    for relative, text in files.items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return folder


def make_config(base: Path, table: Mapping[str, Any] | None = None) -> Config:
    return from_table({"root": "entries", **(table or {})}, base)


def lint_corpus(
    base: Path,
    files: Mapping[str, str],
    table: Mapping[str, Any] | None = None,
    today: date = TODAY,
    targets: list[str] | None = None,
) -> LintResult:
    root = write_corpus(base, files)
    config = make_config(base, table)
    paths = [root / t for t in targets] if targets else None
    return lint(paths, config, today, cwd=root)


@pytest.fixture
def deadends_dir() -> Path:
    if not DEADENDS.is_dir():
        pytest.skip("../shared/corpus/deadends-dev is not present")
    return DEADENDS


def generated_regexes(style: str) -> set[str]:
    """The distinct regexes of the first 400 entries `benchmarks/generate.py` makes in `style`
    (`template` or `mixed`), seed 51."""
    import random
    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    import generate

    rng = random.Random(51)
    return {generate.make_entry(index, rng, style)["regex"] for index in range(400)}


@pytest.fixture
def deadends_regexes(deadends_dir: Path) -> list[str]:
    """The distinct regexes of the deadends.dev canons, sorted."""
    documents = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(deadends_dir.rglob("*.json"))]
    return sorted({d["error"]["regex"] for d in documents if isinstance(d.get("error", {}).get("regex"), str)})


ELSEWHERE = "elsewhere"  # where `collections_watched` says a collection started outside the watched functions


@dataclass
class CollectionsSeen:
    """Where each collection started (the innermost watched function running, or `ELSEWHERE`),
    and the watched functions that ran, in order."""

    started: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)


@contextmanager
def collections_watched(
    monkeypatch: pytest.MonkeyPatch, watched: Mapping[str, tuple[Any, str]]
) -> Iterator[CollectionsSeen]:
    """The cyclic collector made to collect at every chance while the block runs, and told
    where each collection started: `watched` names functions (name -> (owner, attribute))
    replaced by ones that mark when they run."""
    seen = CollectionsSeen()
    running: list[str] = []

    def marking(name: str, real: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            running.append(name)
            seen.ran.append(name)
            try:
                return real(*args, **kwargs)
            finally:
                running.pop()

        return run

    def collecting(stage: str, info: dict[str, int]) -> None:
        if stage == "start":
            seen.started.append(running[-1] if running else ELSEWHERE)

    for name, (owner, attribute) in watched.items():
        monkeypatch.setattr(owner, attribute, marking(name, getattr(owner, attribute)))
    threshold = gc.get_threshold()
    gc.callbacks.append(collecting)
    gc.set_threshold(1, 1, 1)  # a collection at every chance
    try:
        yield seen
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(collecting)


@pytest.fixture
def fresh() -> Iterator[None]:
    """No regex parse or compiled pattern remembered from an earlier test, nor left for a later one."""
    syntax.clear_memo()
    compiling.compile_pattern.cache_clear()
    yield
    syntax.clear_memo()
    compiling.compile_pattern.cache_clear()


@pytest.fixture(autouse=True, scope="session")
def _private_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every run of the tests keeps entrykit's cache in a folder of its own, never the user's
    (subprocesses inherit it through the environment)."""
    folder = tmp_path_factory.mktemp("entrykit-cache")
    before = os.environ.get("ENTRYKIT_CACHE_DIR")
    os.environ["ENTRYKIT_CACHE_DIR"] = str(folder)
    yield
    if before is None:
        os.environ.pop("ENTRYKIT_CACHE_DIR", None)
    else:
        os.environ["ENTRYKIT_CACHE_DIR"] = before


# -- a test run leaves the repository as it found it -----------------------------------------


def _tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every path below `root` (but .git, .venv and __pycache__): a file with its size and
    mtime, a folder with (0, 0) (its mtime moves whenever something in it comes and goes)."""
    found: dict[str, tuple[int, int]] = {}
    for folder, dirs, files in os.walk(root):
        top = folder == str(root)
        dirs[:] = [d for d in dirs if d != "__pycache__" and not (top and d in (".git", ".venv"))]
        base = os.path.relpath(folder, root)
        found.update({os.path.normpath(os.path.join(base, d)): (0, 0) for d in dirs})
        for name in files:
            stat = os.lstat(os.path.join(folder, name))
            found[os.path.normpath(os.path.join(base, name))] = (stat.st_size, stat.st_mtime_ns)
    return found


def pytest_configure(config: pytest.Config) -> None:
    from hypothesis import HealthCheck, settings
    from hypothesis.configuration import set_hypothesis_home_dir

    # Hypothesis keeps its example database and caches in `.hypothesis/` of the working
    # directory; the subprocesses tests start inherit the variable too.
    home = tempfile.mkdtemp(prefix="entrykit-hypothesis-")
    config.stash[_HYPOTHESIS_HOME] = home
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = home
    set_hypothesis_home_dir(home)
    # Its default deadline (200 ms an example) and slow-generation check are clocks: a busy
    # machine would fail them. What a property test checks is its property.
    settings.register_profile("entrykit", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("entrykit")
    if not hasattr(config, "workerinput"):  # the controller: pytest-xdist's workers inherit it
        _keep_bytecode_outside_the_tree(config)


def _keep_bytecode_outside_the_tree(config: pytest.Config) -> None:
    """Where Python is told never to write bytecode (PYTHONDONTWRITEBYTECODE), every
    `python -m entrykit` a test starts would compile entrykit's modules again; the tests'
    processes keep it in a private folder of this run instead, never in the tree."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return
    folder = tempfile.mkdtemp(prefix="entrykit-bytecode-")
    config.stash[_BYTECODE] = (folder, os.environ["PYTHONDONTWRITEBYTECODE"])
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    del os.environ["PYTHONDONTWRITEBYTECODE"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules marked `slow` run first: `--dist loadfile` gives each module whole to one
    process, and a long module dealt out last keeps one process busy while the others wait."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_unconfigure(config: pytest.Config) -> None:
    home = config.stash.get(_HYPOTHESIS_HOME, None)
    if home is not None:
        shutil.rmtree(home, ignore_errors=True)
    bytecode = config.stash.get(_BYTECODE, None)
    if bytecode is not None:
        folder, setting = bytecode
        os.environ.pop("PYTHONPYCACHEPREFIX", None)
        os.environ["PYTHONDONTWRITEBYTECODE"] = setting
        shutil.rmtree(folder, ignore_errors=True)


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # pytest-xdist's workers leave it to the controller
        session.config.stash[_TREE_BEFORE] = _tree(REPO)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_TREE_BEFORE, None)
    if before is None or os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):  # rewriting golden files is the point
        return
    after = _tree(REPO)
    new, removed = after.keys() - before.keys(), before.keys() - after.keys()
    changed = sorted(  # a new or removed folder once, not every file in it
        [f"new {p}" for p in new if os.path.dirname(p) not in new]
        + [f"removed {p}" for p in removed if os.path.dirname(p) not in removed]
        + [f"changed {p}" for p in before.keys() & after.keys() if before[p] != after[p]]
    )
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write("\n")  # after the progress line (pytest-xdist's too)
            reporter.write_line("the test run changed the repository (tests must write under tmp_path only):", red=True)
            for line in changed[:20]:
                reporter.write_line(f"  {line}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


_HYPOTHESIS_HOME = pytest.StashKey[str]()
_BYTECODE = pytest.StashKey[tuple[str, str]]()
_TREE_BEFORE = pytest.StashKey[dict[str, tuple[int, int]]]()


@contextmanager
def counted_budgets(module: ModuleType) -> Iterator[list[Budget]]:
    """Every `Budget` that `module` makes while inside, in the order made (to read the steps
    an analysis spent)."""
    budgets: list[Budget] = []

    class Counted(Budget):
        __slots__ = ()

        def __init__(self, limit: int, what: str) -> None:
            super().__init__(limit, what)
            budgets.append(self)

    original = module.Budget
    module.Budget = Counted
    try:
        yield budgets
    finally:
        module.Budget = original
