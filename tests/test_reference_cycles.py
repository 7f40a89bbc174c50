"""Checking entries makes no reference cycles: what a file's check leaves behind is freed
by reference counting as soon as the check is done, not by the cycle collector later.

A nested function that calls itself is such a cycle (the function holds its own closure
cell); one per file kept the file's YAML loader, or a regex's query walk, alive until a
collection, and made the collections of a large run walk them."""

from __future__ import annotations

import gc
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from entrykit.lint.engine import lint

from .conftest import REPO, TODAY, make_config

sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402


@pytest.fixture
def collector_off() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.parametrize("shape", ["mixed", "one-template"])
def test_a_cold_run_leaves_no_cyclic_garbage(shape: str, tmp_path: Path, collector_off: None) -> None:
    if shape == "one-template":
        generate.write_corpus(tmp_path / "entries", 60, "yaml", 3, 0.0, "template", 0.0, one_template=True)
    else:
        generate.write_corpus(tmp_path / "entries", 60, "yaml", 3, 0.05, "mixed", 0.05)
    config = make_config(tmp_path)
    first = lint(None, config, TODAY, cwd=tmp_path, jobs=1)  # what a first run sets up stays: imports, caches
    assert first.diagnostics  # the rules ran and found something
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        lint(None, config, TODAY, cwd=tmp_path, jobs=1)
        found = gc.collect()
        kinds = Counter(type(item).__qualname__ for item in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert found == 0, kinds.most_common(10)
