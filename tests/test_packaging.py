"""The built wheel carries every module, the schema and every data file the package reads."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import REPO


def _sources(into: Path) -> Path:
    """What the build reads, copied: pip builds in the source tree (`build/`, `*.egg-info`)."""
    into.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, into / name)
    for name in ("tool", "schema"):
        shutil.copytree(REPO / name, into / name, ignore=shutil.ignore_patterns("__pycache__"))
    return into


def test_wheel_ships_schema_and_data(tmp_path: Path) -> None:
    source = _sources(tmp_path / "source")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    if proc.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {proc.stderr.strip()[-200:]}")
    [wheel] = tmp_path.glob("entrykit-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "entrykit/schemas/entry.schema.json" in names
    data = {f"entrykit/data/{p.name}" for p in (REPO / "tool/entrykit/data").iterdir() if p.is_file()}
    assert data <= names, data - names
    # a subpackage missing from pyproject.toml's `packages` would install but not ship
    package = REPO / "tool/entrykit"
    modules = {f"entrykit/{p.relative_to(package).as_posix()}" for p in package.rglob("*.py")}
    assert modules <= names, modules - names
