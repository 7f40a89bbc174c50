"""Shared test helpers: build a scratch corpus from text and lint it in-process."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from entrykit.config import Config, from_table
from entrykit.lint.engine import LintResult, lint

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


@pytest.fixture(autouse=True, scope="session")
def _private_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every run of the tests keeps entrykit's cache in a folder of its own, never the user's
    (subprocesses inherit it through the environment)."""
    import os

    folder = tmp_path_factory.mktemp("entrykit-cache")
    before = os.environ.get("ENTRYKIT_CACHE_DIR")
    os.environ["ENTRYKIT_CACHE_DIR"] = str(folder)
    yield
    if before is None:
        os.environ.pop("ENTRYKIT_CACHE_DIR", None)
    else:
        os.environ["ENTRYKIT_CACHE_DIR"] = before
