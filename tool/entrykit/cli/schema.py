"""`entrykit schema`: print the entry JSON Schema, or write it where editors read it."""

from __future__ import annotations

from pathlib import Path

import click

from entrykit.cli.common import (
    CommandError,
    command_config,
    config_option,
    write_failure,
)
from entrykit.errors import EntrykitError
from entrykit.loader import display_path
from entrykit.schema import PROJECT_SCHEMA, schema_text
from entrykit.writing import atomic_write


@click.command("schema")
@click.option(
    "--output", "-o", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE",
    help=f"Write the schema to FILE (atomically; folders are created) instead of printing it; "
    f"`{PROJECT_SCHEMA.as_posix()}` is where the entries `new` writes point editors.",
)
@config_option
def schema_command(output: Path | None, config_path: Path | None) -> None:
    """Print the JSON Schema entries are checked against (the configured `schema`, else
    the one shipped with entrykit), for editors and other tools."""
    try:
        config = command_config(config_path, None)
        text = schema_text(config.schema)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        atomic_write(output, text, within=config.base)  # a link inside the project leads nowhere else
    except OSError as exc:
        raise CommandError(f"{write_failure(exc)}; nothing written") from None
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    click.echo(f"wrote {display_path(output.absolute())}", err=True)
