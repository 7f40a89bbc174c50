"""The cyclic garbage collector is paused while the corpus rules run (`collector.paused`):
they make many objects and no cycles, and each collection walked them all again. It runs
as before everywhere else, and after the run."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest

from entrykit.lint import collector, engine

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
