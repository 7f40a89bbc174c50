"""The cyclic garbage collector is paused while the corpus rules run (`collector.paused`):
they make many objects and no cycles, and each collection walked them all again. It runs
as before everywhere else, and after the run."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path
from typing import Any

import pytest

from entrykit.lint import collector, engine

from .conftest import REPO, TODAY, make_config


def test_no_collection_starts_while_the_corpus_rules_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(REPO / "entries", tmp_path / "entries")
    config = make_config(tmp_path)
    phase: list[str] = []
    ran: list[str] = []
    started_in: list[str] = []
    real_findings = engine._corpus_findings

    def corpus_findings(*args: Any) -> Any:
        phase.append("corpus rules")
        ran.append("corpus rules")
        try:
            return real_findings(*args)
        finally:
            phase.pop()

    def collecting(stage: str, info: dict[str, int]) -> None:
        if stage == "start":
            started_in.append(phase[-1] if phase else "elsewhere")

    monkeypatch.setattr(engine, "_corpus_findings", corpus_findings)
    threshold = gc.get_threshold()
    gc.callbacks.append(collecting)
    gc.set_threshold(1, 1, 1)  # a collection at every chance
    try:
        result = engine.lint(None, config, TODAY, cwd=tmp_path)
        assert gc.isenabled()
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(collecting)
    assert ran == ["corpus rules"] and result.files
    assert "elsewhere" in started_in  # (the collector ran, as asked, outside the phase)
    assert "corpus rules" not in started_in


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
