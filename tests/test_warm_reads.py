"""What a warm run reads of the cache: a run over the whole corpus reads no shard of the
`files` table (only files a run does not report on need it), and gives the diagnostics
a run without the cache gives; a pre-commit run still reads it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from entrykit.lint import cache, engine, pipeline

from .conftest import REPO, TODAY, make_config


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    names: list[str] = []
    original = cache.Store._load

    def load(self: cache.Store, place: str, name: str) -> Any:
        names.append(name)
        return original(self, place, name)

    monkeypatch.setattr(cache.Store, "_load", load)
    return names


def test_a_warm_run_over_the_corpus_reads_no_files_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (files copied a moment ago changed too recently to trust their stat: pretend they are older)
    monkeypatch.setattr(pipeline, "RACY_NS", -(10**18))
    shutil.copytree(REPO / "entries", tmp_path / "entries")
    config = make_config(tmp_path)
    root = tmp_path / "entries"
    plain = list(engine.lint(None, config, TODAY, cwd=tmp_path).diagnostics)
    assert list(engine.lint(None, config, TODAY, cwd=tmp_path, use_cache=True).diagnostics) == plain  # (cold)
    names = _reads(monkeypatch)
    assert list(engine.lint(None, config, TODAY, cwd=tmp_path, use_cache=True).diagnostics) == plain
    assert any(n.startswith("res-") for n in names) and not any(n.startswith("files-") for n in names)
    names.clear()
    one = sorted(root.rglob("*.yaml"))[0]
    assert engine.lint([one], config, TODAY, cwd=tmp_path, use_cache=True).diagnostics == [
        d for d in plain if d.path == one.relative_to(tmp_path).as_posix()
    ]
    assert any(n.startswith("files-") for n in names)  # the other files, by their rows
