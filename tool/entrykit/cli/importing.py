"""`entrykit import`: convert deadends.dev canons or rendered Markdown pages into entries."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from entrykit.authoring.config_edit import ConfigEdit, Table, add_tables, toml_value
from entrykit.authoring.importers import Imported, deadends, markdown
from entrykit.cli.common import (
    CommandError,
    ExitCode,
    command_config,
    config_option,
    write_failure,
)
from entrykit.cli.entry_files import entry_file
from entrykit.cli.terminal import Progress
from entrykit.config import TOOL_TABLE, Config, find_config, is_own_file
from entrykit.errors import EntrykitError
from entrykit.loader import display_path
from entrykit.output_safety import escape
from entrykit.translation import translated_fields
from entrykit.writing import WriteRefused, write_files


def _planned(
    item: Imported, shown: str, root: Path, config: Config, out_format: str, force: bool, texts: dict[Path, str]
) -> tuple[Path, str] | str:
    """Where an imported entry goes and its text; or why it may not go there (a line to print)."""
    try:
        target, text = entry_file(root, item.entry, config, out_format)
    except EntrykitError as exc:  # an id that is no safe path: nothing is touched
        return f"{shown}: {escape(str(exc))}"
    if target in texts or (target.exists() and not force):
        name, folder = escape(str(item.entry["id"])), escape(display_path(root))
        return f"{shown}: `{name}` exists in {folder}; not overwritten (use --force)"
    return target, text


def _list_changes(item: Imported, shown: str) -> None:
    if item.unmapped or item.notes:
        click.echo(f"{shown} -> {escape(str(item.entry['id']))}")
        for field_path in item.unmapped:
            click.echo(f"  not carried over: {escape(field_path)}")
        for note in item.notes:
            click.echo(f"  changed: {escape(note)}")


def _list_counts(title: str, counts: Counter[str]) -> None:
    if counts:
        click.echo(title)
        for name, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            click.echo(f"  {count:6d}  {escape(name)}")


def _settings_edit(config_path: Path | None, root: Path, tables: list[Table]) -> ConfigEdit:
    """`tables` added to the configuration that governs `root` (the one `--config` names,
    else the nearest above it), or to a new entrykit.toml beside it; ConfigError for a
    configuration file that cannot be read as one."""
    if config_path is not None:
        source: Path | None = config_path.absolute()
    else:
        folder = root.parent
        while not folder.is_dir() and folder != folder.parent:
            folder = folder.parent
        source = find_config(folder)
    project = source.parent if source is not None else root.parent
    return add_tables(source, project, root, tables)


def _is_new_corpus(root: Path) -> bool:
    """Whether the corpus root holds nothing yet (or is not there): the import makes the corpus."""
    try:
        return not any(root.iterdir())
    except OSError:
        return not root.exists()


def _listed(items: list[tuple[str, str]], prefix: str) -> str:
    tables = dict.fromkeys(table for table, _ in items)
    return "; ".join(f"[{prefix}{table}] " + ", ".join(s for t, s in items if t == table) for table in tables)


def _report_edit(edit: ConfigEdit, tables: list[Table]) -> None:
    shown = escape(display_path(edit.path))
    prefix = "" if is_own_file(edit.path) else f"{TOOL_TABLE}."
    if edit.problem is not None:
        wanted = [(t.section, f"{k} = {toml_value(v)}") for t in tables for k, v in t.wanted.items()]
        click.echo(f"warning: {shown}: {edit.problem}; settings not written (add {_listed(wanted, prefix)})", err=True)
    for table, setting in edit.differing:
        wanted_there = next(t.wanted for t in tables if t.section == table)
        said = ", ".join(f"{k} = {toml_value(v)}" for k, v in wanted_there.items())
        click.echo(
            f"warning: {shown} sets `{prefix}{table}.{setting}`; the import would set {said}: left as it is", err=True
        )
    if edit.text is not None:
        click.echo(f"settings of the imported corpus written to {shown}: {_listed(edit.added, prefix)}")


@click.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option(
    "--from",
    "source",
    type=click.Choice(["deadends", "markdown"]),
    required=True,
    help="deadends: ErrorCanon JSON files or folders; markdown: pages written by `entrykit render`.",
)
@click.option(
    "--out", type=click.Path(path_type=Path, file_okay=False), help="Corpus root to write into (default: from config)."
)
@click.option("--format", "out_format", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
@click.option("--force", is_flag=True, help="Overwrite entries that already exist.")
@click.option("-v", "--verbose", is_flag=True, help="List every file's unmapped fields and changes.")
@click.option(
    "--settings/--no-settings",
    "--lookup-settings/--no-lookup-settings",
    "corpus_settings",
    default=True,
    show_default=True,
    help="deadends: write that corpus's settings into the configuration: its lookup (case-insensitive search) "
    "and, for a new corpus whose canons carry no translation, no required locale.",
)
@config_option
def import_command(
    paths: tuple[Path, ...],
    source: str,
    out: Path | None,
    out_format: str,
    force: bool,
    verbose: bool,
    corpus_settings: bool,
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
    new_corpus = _is_new_corpus(root)
    refused = 0
    texts: dict[Path, str] = {}
    unmapped: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    with Progress.on_stderr() as progress:
        if source == "deadends":
            imported, problems = deadends.import_canons(paths, config.limits, progress)
        else:
            imported, problems = markdown.import_pages(paths, config.limits)
        progress.close()
        for problem in problems:
            where = escape(display_path(problem.source.absolute()))
            click.echo(f"{where}:{problem.line}:{problem.col}: {escape(problem.message)}", err=True)
        for number, item in enumerate(imported, start=1):
            progress("writing entries", number - 1, len(imported))
            shown = escape(display_path(item.source.absolute()))
            planned = _planned(item, shown, root, config, out_format, force, texts)
            if isinstance(planned, str):
                progress.close()
                click.echo(planned, err=True)
                refused += 1
            else:
                texts[planned[0]] = planned[1]
            unmapped.update({deadends.generalise(f) for f in item.unmapped})
            notes.update(item.notes)
            if verbose:
                progress.close()
                _list_changes(item, shown)
    tables: list[Table] = []
    if source == "deadends" and corpus_settings:
        translation = translated_fields.Settings.from_section(config.settings.get("translation", {}))
        tables = deadends.corpus_tables(imported, translation, new_corpus)
    try:
        edit = _settings_edit(config_path, root, tables) if tables and texts else None
    except EntrykitError as exc:  # a configuration that is none (config.read_toml's checks)
        raise CommandError(f"{exc}; no entry was written") from None
    entries_written = len(texts)
    if edit is not None and edit.text is not None:
        texts[edit.path] = edit.text
    try:
        # every entry and the configuration, or none; an existing entry was refused above
        # unless --force, so overwriting is allowed when the configuration file is edited
        config_file = edit.path if edit is not None and edit.text is not None else None
        within = [root, config_file.parent] if config_file is not None else root
        write_files(texts, overwrite=force or (config_file is not None and config_file.exists()), within=within)
    except (OSError, WriteRefused) as exc:
        reason = write_failure(exc) if isinstance(exc, OSError) else str(exc)
        raise CommandError(f"{reason}; no entry was written") from None
    written = entries_written
    if edit is not None:
        _report_edit(edit, tables)
    click.echo(f"imported {written} of {len(imported) + len(problems)} files into {escape(display_path(root))}")
    _list_counts("fields not carried over (number of files):", unmapped)
    _list_counts("values changed to fit the schema (number of files):", notes)
    if problems or refused:
        click.get_current_context().exit(int(ExitCode.FINDINGS))
