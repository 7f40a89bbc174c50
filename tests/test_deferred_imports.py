"""Analyses the rules load on first use: not loaded by a run that calls no rule, loaded once
before a pool of workers forks, and the same module however it is reached."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from entrykit import deferred as lazy
from entrykit.lint import pipeline

from .conftest import REPO

# What the version and translation rules (and the settings' checks) load on first use.
ANALYSES = ["babel", "packaging.specifiers", "entrykit.versions.table", "entrykit.translation.translated_fields"]
# What the phrase comparisons load on their first comparison (a cold run may make none).
COMPARISONS = ["rapidfuzz"]


@pytest.fixture
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The name of a module of its own, not imported yet, that counts how often its code ran."""
    name = f"deferred_probe_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text("import builtins\nbuiltins.__dict__.setdefault('_probe_runs', []).append(1)\nVALUE = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)
    lazy._DEFERRED.pop(name, None)


def _runs() -> int:
    import builtins

    return len(builtins.__dict__.get("_probe_runs", []))


def test_a_deferred_module_runs_on_its_first_attribute_read_once(probe: str) -> None:
    before = _runs()
    module = lazy.deferred(probe)
    assert not lazy.loaded(probe) and _runs() == before
    assert lazy.deferred(probe) is module  # asked again: the same module, still not run
    assert module.VALUE == 42 and lazy.loaded(probe) and _runs() == before + 1
    assert module.VALUE == 42 and _runs() == before + 1
    assert __import__(probe) is module and type(module) is ModuleType
    lazy.load_deferred()
    assert _runs() == before + 1


def test_a_module_imported_already_is_returned_as_it_is() -> None:
    assert lazy.deferred("json") is json


def test_an_unknown_module_is_an_import_error() -> None:
    with pytest.raises(ModuleNotFoundError):
        lazy.deferred("entrykit.no_such_module")


def test_deferred_modules_are_loaded_before_a_pool_forks(probe: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forked workers share what the parent loaded: the pool starts with every deferred module run."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    lazy.deferred(probe)
    seen: list[bool] = []

    class Pool:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            seen.append(lazy.loaded(probe))

        def submit(self, func: Callable[[Any], Any], chunk: Sequence[Any]) -> Future[list[Any]]:
            done: Future[list[Any]] = Future()
            done.set_result([])
            return done

        def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
            pass

    class Checker:
        facts: list[Any] = []
        keep_entries = False
        config = today = fact_context = None

    monkeypatch.setattr(pipeline, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(pipeline, "few_files", lambda checker, count: None)
    tasks = [object()] * (pipeline.POOL_MIN_FILES * 2)
    assert list(pipeline.run_tasks(tasks, Checker(), 2, {}, len(tasks))) == []  # type: ignore[arg-type]
    assert seen == [True]


def test_a_warm_lint_loads_no_version_or_translation_analysis(tmp_path: Path) -> None:
    """A run that takes every file from the cache calls no rule: what only the rules use
    (babel, packaging's specifiers, the version tables) is never loaded."""
    shutil.copytree(REPO / "entries", tmp_path / "entries")
    lint = [sys.executable, "-m", "entrykit", "lint", "--root", "entries", "--format", "json", "--exit-zero"]
    lint += ["--cache-dir", str(tmp_path / "cache")]
    probe = (
        "import json, sys\nfrom entrykit.cli import main\nfrom entrykit.deferred import loaded\n"
        f"sys.argv = ['entrykit', *{lint[3:]!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print(json.dumps([m for m in {[*ANALYSES, *COMPARISONS]!r} if loaded(m)]), file=sys.stderr)\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True, timeout=300)
        for _ in range(2)
    ]
    cold, warm = (json.loads(run.stderr.strip().splitlines()[-1]) for run in runs)
    assert runs[0].stdout == runs[1].stdout and json.loads(runs[1].stdout)
    assert set(cold) >= set(ANALYSES)  # the cold run checked the entries: every rule ran
    assert warm == []
