"""What the commands share: exit codes, errors, options, config loading, entry files."""

from __future__ import annotations

import enum
import importlib.util
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from entrykit.config import Config, load_config
from entrykit.entry import Entry
from entrykit.loader import discover, display_path, load
from entrykit.paths import entry_path
from entrykit.schema import project_schema
from entrykit.writing import atomic_write


def _deferred(name: str) -> Any:
    """The module `entrykit.<name>`, executed on first attribute access (the standard
    library's `LazyLoader`): `entrykit lint` never pays to import the other commands' code."""
    full = f"entrykit.{name}"
    if full in sys.modules:
        return sys.modules[full]
    spec = importlib.util.find_spec(full)
    assert spec is not None and spec.loader is not None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[full] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    from entrykit.authoring import formatter
else:
    formatter = _deferred("authoring.formatter")


class ExitCode(enum.IntEnum):
    """What a run's exit status means."""

    CLEAN = 0
    FINDINGS = 1
    ERROR = 2  # usage, configuration or internal error


class CommandError(click.ClickException):
    """A tool problem reported as `entrykit: error: ...` with exit status 2."""

    exit_code = ExitCode.ERROR

    def show(self, file: object = None) -> None:
        click.echo(f"entrykit: error: {self.format_message()}", err=True)


config_option = click.option(
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read."
)
root_option = click.option(
    "--root", type=click.Path(path_type=Path, file_okay=False), help="Corpus root (overrides config)."
)


def command_config(config_path: Path | None, root: Path | None) -> Config:
    config = load_config(Path.cwd(), config_path)
    if root is not None:
        config = replace(config, root=Path(os.path.realpath(root)))
    return config


def corpus_entries(config: Config) -> list[Entry]:
    """Every entry under the corpus root that loads (none if there is no root)."""
    if not config.root.is_dir():
        return []
    loaded = (load(p, display_path(p), config.limits, within=config.root) for p in discover([config.root]))
    return [entry for entry in loaded if isinstance(entry, Entry)]


def write_failure(exc: OSError) -> str:
    where = f" {exc.filename}" if exc.filename else ""
    return f"cannot write{where}: {exc.strerror or exc}"


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
    atomic_write(target, text, overwrite=overwrite)
    return target
