"""Where `new` and `import` write a new entry below the corpus root, and its text."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from entrykit.authoring import formatter
from entrykit.config import Config
from entrykit.paths import entry_path
from entrykit.schema import project_schema
from entrykit.writing import atomic_write


def schema_ref(target: Path, config: Config) -> str:
    """What a new YAML file's `# yaml-language-server: $schema=` line points at: the
    project's schema file, which `entrykit schema --output` writes if it is not there."""
    schema = project_schema(config.base, config.schema)
    return Path(os.path.relpath(os.path.realpath(schema), os.path.realpath(target.parent))).as_posix()


def entry_file(
    root: Path, entry: dict[str, Any], config: Config, fmt: str, *, always_modeline: bool = False
) -> tuple[Path, str]:
    """Where a new entry goes below `root` (the path its id names; UsageError for an
    unsafe id) and its text: YAML with the schema line where the project's schema file
    exists (imports write many files, often outside a project), or always."""
    target = entry_path(root, str(entry.get("id", "")), ".json" if fmt == "json" else ".yaml")
    wanted = always_modeline or project_schema(config.base, config.schema).is_file()
    return target, formatter.dump_entry(entry, fmt, schema_ref(target, config) if fmt == "yaml" and wanted else None)


def write_entry(
    root: Path, entry: dict[str, Any], config: Config, fmt: str, overwrite: bool
) -> Path:
    """Write one new entry (`new`) below `root` at the path its id names, always with the
    schema line; WriteRefused if it exists."""
    target, text = entry_file(root, entry, config, fmt, always_modeline=True)
    atomic_write(target, text, overwrite=overwrite, within=root)
    return target
