"""`entrykit import`: convert deadends.dev canons or rendered Markdown pages into entries."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from entrykit.authoring.importers import deadends, markdown
from entrykit.cli.common import (
    CommandError,
    ExitCode,
    command_config,
    config_option,
    write_failure,
)
from entrykit.cli.entry_files import entry_file
from entrykit.errors import EntrykitError
from entrykit.loader import display_path
from entrykit.writing import WriteRefused, write_files


@click.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option(
    "--from", "source", type=click.Choice(["deadends", "markdown"]), required=True,
    help="deadends: ErrorCanon JSON files or folders; markdown: pages written by `entrykit render`.",
)
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), help="Corpus root to write into (default: from config).")
@click.option("--format", "out_format", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
@click.option("--force", is_flag=True, help="Overwrite entries that already exist.")
@click.option("-v", "--verbose", is_flag=True, help="List every file's unmapped fields and changes.")
@config_option
def import_command(
    paths: tuple[Path, ...], source: str, out: Path | None, out_format: str, force: bool, verbose: bool,
    config_path: Path | None,
) -> None:
    """Convert deadends.dev canons or rendered Markdown pages into entries.

    Fields with no place in an entry are listed, never dropped silently.
    """
    try:
        config = command_config(config_path, None)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    root = (out or config.root).absolute()
    if source == "deadends":
        imported, problems = deadends.import_canons(paths, config.limits)
    else:
        imported, problems = markdown.import_pages(paths, config.limits)
    for problem in problems:
        click.echo(f"{display_path(problem.source.absolute())}:{problem.line}:{problem.col}: {problem.message}", err=True)
    refused = 0
    texts: dict[Path, str] = {}
    unmapped: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    for item in imported:
        shown = display_path(item.source.absolute())
        try:
            target, text = entry_file(root, item.entry, config, out_format)
        except EntrykitError as exc:  # an id that is no safe path: nothing is touched
            click.echo(f"{shown}: {exc}", err=True)
            refused += 1
        else:
            if target in texts or (target.exists() and not force):
                refused += 1
                click.echo(f"{shown}: `{item.entry['id']}` exists in {display_path(root)}; not overwritten (use --force)", err=True)
            else:
                texts[target] = text
        unmapped.update({deadends.generalise(f) for f in item.unmapped})
        notes.update(item.notes)
        if verbose and (item.unmapped or item.notes):
            click.echo(f"{shown} -> {item.entry['id']}")
            for field_path in item.unmapped:
                click.echo(f"  not carried over: {field_path}")
            for note in item.notes:
                click.echo(f"  changed: {note}")
    try:
        write_files(texts, overwrite=force)  # every entry or none
    except (OSError, WriteRefused) as exc:
        reason = write_failure(exc) if isinstance(exc, OSError) else str(exc)
        raise CommandError(f"{reason}; no entry was written") from None
    written = len(texts)
    click.echo(f"imported {written} of {len(imported) + len(problems)} files into {display_path(root)}")
    if unmapped:
        click.echo("fields not carried over (number of files):")
        for name, count in sorted(unmapped.items(), key=lambda kv: (-kv[1], kv[0])):
            click.echo(f"  {count:6d}  {name}")
    if notes:
        click.echo("values changed to fit the schema (number of files):")
        for name, count in sorted(notes.items(), key=lambda kv: (-kv[1], kv[0])):
            click.echo(f"  {count:6d}  {name}")
    if problems or refused:
        click.get_current_context().exit(int(ExitCode.FINDINGS))
