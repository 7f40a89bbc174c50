"""What the commands share: exit codes, errors, options, config loading, the corpus's entries."""

from __future__ import annotations

import enum
import os
from dataclasses import replace
from pathlib import Path

import click

from entrykit.config import Config, load_config
from entrykit.entry import Entry
from entrykit.loader import discover, display_path, load


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
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="Configuration file to read: a pyproject.toml ([tool.entrykit]) or an entrykit.toml."
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
