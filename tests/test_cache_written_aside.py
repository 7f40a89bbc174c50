"""The per-file records a run puts in the cache are written by a child forked for it while
the corpus rules run (`engine._save_aside`): the same cache as written in the run's own
process, the run whole when that child fails, and nothing of the files' checks lost when
the corpus phase is interrupted."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from entrykit.config import Config
from entrykit.lint import cache, engine, lanes, pipeline

from .conftest import REPO, TODAY, make_config

sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402

pytestmark = pytest.mark.slow
PARENT = os.getpid()


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Config]:
    """A mixed corpus above the near-duplicate search's exact limit (its band keys are
    facts), with planted near-duplicates and defects: corpus findings of every kind."""
    base = tmp_path_factory.mktemp("generated")
    generate.write_corpus(base / "entries", 420, "yaml", 5, 0.2, "mixed", 0.05)
    return base, make_config(base)


@pytest.fixture
def aside(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs of any size write their cache aside, and no file counts as changed just now."""
    monkeypatch.setattr(lanes, "LANE_MIN_ENTRIES", 0)
    monkeypatch.setattr(pipeline, "RACY_NS", -(10**18))


def _lint(base: Path, config: Config, cache_dir: Path, jobs: int) -> Any:
    return engine.lint(None, config, TODAY, cwd=base, use_cache=True, cache_dir=cache_dir, jobs=jobs)


def _rows(result: Any) -> list[tuple[Any, ...]]:
    return [(d.path, d.line, d.col, d.code, d.message, d.related) for d in result.diagnostics]


def _keys(base: Path) -> list[str]:
    return [p.relative_to(base / "entries").as_posix() for p in sorted((base / "entries").rglob("*.yaml"))]


def _held(store: cache.Store, keys: list[str]) -> list[tuple[Any, Any]]:
    return [(store.result(key), store.index(key)) for key in keys]


def _writers(monkeypatch: pytest.MonkeyPatch, log: Path, wait_for: Path | None = None) -> None:
    """Note, in `log`, the process each save of the cache runs in; with `wait_for`, a child
    saves only once that file exists (a minute at most)."""
    real = cache.Store.save

    def noted(store: cache.Store) -> None:
        with log.open("a") as out:
            out.write(f"{os.getpid()}\n")
        if wait_for is not None and os.getpid() != PARENT:
            _wait_for(lambda: wait_for.exists())
        real(store)

    monkeypatch.setattr(cache.Store, "save", noted)


def _wait_for(done: Callable[[], bool]) -> None:
    for _ in range(6000):
        if done():
            return
        time.sleep(0.01)


def _children(log: Path) -> list[int]:
    return [int(pid) for pid in log.read_text().split() if int(pid) != PARENT] if log.exists() else []


@pytest.mark.usefixtures("aside")
def test_a_cache_written_aside_is_the_one_written_here(
    generated: tuple[Path, Config], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    base, config = generated
    log = tmp_path / "writers"
    _writers(monkeypatch, log)
    here = _lint(base, config, tmp_path / "here", 1)
    assert _children(log) == []  # one process: written in it
    apart = _lint(base, config, tmp_path / "apart", 2)
    assert len(_children(log)) == 1
    assert _rows(apart) == _rows(here) and apart.notes == here.notes == []
    keys = _keys(base)
    one, other = engine.open_store(config, tmp_path / "here"), engine.open_store(config, tmp_path / "apart")
    assert one is not None and other is not None
    assert _held(other, keys) == _held(one, keys)
    assert all(result is not None and index is not None for result, index in _held(other, keys))
    # the writing after the corpus phase (its findings, late facts, the memo) merged with the child's
    checked: list[str] = []
    real = pipeline.Checker.check_files

    def counted(checker: pipeline.Checker, tasks: Sequence[pipeline.Task]) -> Any:
        checked.extend(task.key for task in tasks)
        return real(checker, tasks)

    monkeypatch.setattr(pipeline.Checker, "check_files", counted)
    warm = _lint(base, config, tmp_path / "apart", 1)
    assert checked == [] and _rows(warm) == _rows(here)


@pytest.mark.usefixtures("aside")
def test_a_writing_child_that_ends_early_is_said_and_the_lint_is_whole(
    generated: tuple[Path, Config], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def killed(store: cache.Store) -> tuple[str | None]:
        os.kill(os.getpid(), signal.SIGKILL)
        return (None,)

    notes = _notes_when_failing(generated, monkeypatch, tmp_path, engine, "_save_in_child", killed)
    assert notes == [
        f"the cache in `{tmp_path / 'apart'}` was not saved in full (the process writing it ended early): "
        "the next run may check again what this one checked"
    ]


@pytest.mark.usefixtures("aside")
@pytest.mark.parametrize("jobs", [1, 2])
def test_the_files_checked_are_kept_when_the_corpus_phase_is_interrupted(
    jobs: int, generated: tuple[Path, Config], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A Ctrl-C in the corpus phase: the files' records are written all the same (the
    child writing them ignores it, and the run waits for it)."""
    base, config = generated
    log, sent = tmp_path / "writers", tmp_path / "sent"
    _writers(monkeypatch, log, sent)

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        if jobs > 1:  # the child writing is told too, before it writes, as a terminal tells every process
            _wait_for(lambda: bool(_children(log)))
            os.kill(_children(log)[0], signal.SIGINT)
            sent.touch()
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "_corpus_findings", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _lint(base, config, tmp_path / "cache", jobs)
    store = engine.open_store(config, tmp_path / "cache")
    assert store is not None
    assert all(result is not None and index is not None for result, index in _held(store, _keys(base)))


def test_a_few_records_to_write_are_written_here(
    generated: tuple[Path, Config], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A child is forked only for records enough to pay for it (`lanes.LANE_MIN_ENTRIES`):
    after one file changed, its record is written in the run's own process."""
    monkeypatch.setattr(lanes, "LANE_MIN_ENTRIES", 100)
    monkeypatch.setattr(pipeline, "RACY_NS", -(10**18))
    base = tmp_path / "corpus"
    shutil.copytree(generated[0] / "entries", base / "entries")
    config = make_config(base)
    log = tmp_path / "writers"
    _writers(monkeypatch, log)
    _lint(base, config, tmp_path / "cache", 2)
    assert len(_children(log)) == 1  # every file's record: written aside
    log.unlink()
    edited = sorted((base / "entries").rglob("*.yaml"))[0]
    edited.write_text(edited.read_text().replace("signature: ", "signature: edited ", 1))  # (a summary changed: the corpus rules run again)
    again = _lint(base, config, tmp_path / "cache", 2)
    assert log.exists() and _children(log) == []  # written, here
    assert _rows(again) == _rows(engine.lint(None, config, TODAY, cwd=base, jobs=2)) and again.notes == []


@pytest.mark.usefixtures("aside")
def test_a_full_disk_while_the_child_writes_is_said_and_the_lint_is_whole(
    generated: tuple[Path, Config], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from entrykit import private_folder

    real = private_folder.Folder.write

    def full_in_child(self: Any, name: str, data: Any) -> None:
        if os.getpid() != PARENT:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(self, name, data)

    notes = _notes_when_failing(generated, monkeypatch, tmp_path, private_folder.Folder, "write", full_in_child)
    assert len(notes) == 1 and "was not saved in full (No space left on device)" in notes[0]


def _notes_when_failing(
    generated: tuple[Path, Config], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, owner: Any, name: str, failing: Any
) -> list[str]:
    """The notes of a run writing its cache aside with `owner.name` replaced by `failing`:
    its diagnostics are those of a run in one process, and the next run (not failing) is
    whole, with no note."""
    base, config = generated
    expected = _rows(_lint(base, config, tmp_path / "here", 1))
    with monkeypatch.context() as patched:
        patched.setattr(owner, name, failing)
        result = _lint(base, config, tmp_path / "apart", 2)
    assert _rows(result) == expected
    again = _lint(base, config, tmp_path / "apart", 2)
    assert _rows(again) == expected and again.notes == []
    return list(result.notes)
