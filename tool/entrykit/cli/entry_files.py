"""Where `new` and `import` write a new entry below the corpus root, and its text."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from entrykit.authoring import formatter
from entrykit.config import Config
from entrykit.paths import entry_path
from entrykit.writing import atomic_write


def schema_ref(target: Path, config: Config) -> str | None:
    """What a new YAML file's `# yaml-language-server: $schema=` line points at, if anything."""
    schema = config.schema or config.base / "schema" / "entry.schema.json"
    if not schema.is_file():
        return None
    return Path(os.path.relpath(os.path.realpath(schema), os.path.realpath(target.parent))).as_posix()


def entry_file(root: Path, entry: dict[str, Any], config: Config, fmt: str) -> tuple[Path, str]:
    """Where a new entry goes below `root` (the path its id names; UsageError for an
    unsafe id) and its text."""
    target = entry_path(root, str(entry.get("id", "")), ".json" if fmt == "json" else ".yaml")
    return target, formatter.dump_entry(entry, fmt, schema_ref(target, config) if fmt == "yaml" else None)


def write_entry(
    root: Path, entry: dict[str, Any], config: Config, fmt: str, overwrite: bool
) -> Path:
    """Write one new entry below `root` at the path its id names; WriteRefused if it exists."""
    target, text = entry_file(root, entry, config, fmt)
    atomic_write(target, text, overwrite=overwrite)
    return target
