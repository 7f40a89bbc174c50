"""The cyclic garbage collector is paused while the corpus rules run (`collector.paused`):
they make many objects and no cycles, and each collection walked them all again. It runs
as before everywhere else, and after the run. Files checked in this process are checked
with its first threshold raised as a pool worker's is (`collector.young_threshold`)."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path
from typing import Any

import pytest

from entrykit.lint import collector, engine, pipeline

from .conftest import ELSEWHERE, REPO, TODAY, collections_watched, make_config


def test_no_collection_starts_while_the_corpus_rules_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(REPO / "entries", tmp_path / "entries")
    config = make_config(tmp_path)
    with collections_watched(monkeypatch, {"corpus rules": (engine, "_corpus_findings")}) as seen:
        result = engine.lint(None, config, TODAY, cwd=tmp_path)
        assert gc.isenabled()
    assert seen.ran == ["corpus rules"] and result.files
    assert ELSEWHERE in seen.started  # (the collector ran, as asked, outside the phase)
    assert "corpus rules" not in seen.started


def test_paused_leaves_the_collector_as_it_found_it() -> None:
    enabled = gc.isenabled()
    try:
        for before in (True, False):
            (gc.enable if before else gc.disable)()
            with collector.paused():
                assert not gc.isenabled()
            assert gc.isenabled() is before
            with pytest.raises(ValueError), collector.paused():
                raise ValueError("the block failed")
            assert gc.isenabled() is before
    finally:
        (gc.enable if enabled else gc.disable)()


def test_young_threshold_raises_the_first_threshold_in_the_block_only() -> None:
    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 13, 17)
        with collector.young_threshold(5000):
            assert gc.get_threshold() == (5000, 13, 17)
        assert gc.get_threshold() == (700, 13, 17)
        with pytest.raises(ValueError), collector.young_threshold(5000):
            raise ValueError("the block failed")
        assert gc.get_threshold() == (700, 13, 17)
        gc.set_threshold(9000, 13, 17)
        with collector.young_threshold(5000):  # (never lowered)
            assert gc.get_threshold() == (9000, 13, 17)
        assert gc.get_threshold() == (9000, 13, 17)
    finally:
        gc.set_threshold(*saved)


def test_files_checked_in_this_process_are_checked_with_collections_as_rare_as_a_worker_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(REPO / "entries", tmp_path / "entries")
    config = make_config(tmp_path)
    seen: list[int] = []
    real = pipeline.Checker.check_files

    def spy(checker: pipeline.Checker, tasks: Any) -> Any:
        seen.append(gc.get_threshold()[0])
        return real(checker, tasks)

    monkeypatch.setattr(pipeline.Checker, "check_files", spy)
    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 13, 17)
        result = engine.lint(None, config, TODAY, cwd=tmp_path, jobs=1)
        assert gc.get_threshold() == (700, 13, 17)
    finally:
        gc.set_threshold(*saved)
    assert result.files and seen and all(young == pipeline.CHECKING_YOUNG_OBJECTS for young in seen)
