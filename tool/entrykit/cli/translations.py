"""`entrykit translations`: translation coverage, and marking reviewed translations current."""

from __future__ import annotations

from pathlib import Path

import click

from entrykit.cli.common import (
    CommandError,
    ExitCode,
    command_config,
    config_option,
    root_option,
    write_failure,
)
from entrykit.errors import EntrykitError
from entrykit.output_safety import escape, escape_lines, json_safe
from entrykit.targets import write_scope
from entrykit.translation import locales
from entrykit.translation.coverage import coverage, load_entries
from entrykit.translation.coverage_formats import FORMATTERS
from entrykit.translation.fingerprints import mark_current
from entrykit.translation.translated_fields import Settings
from entrykit.writing import write_files


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(list(FORMATTERS)),
    default="text",
    show_default=True,
    help="Output format of the coverage report.",
)
@click.option(
    "--locale",
    "only_locales",
    multiple=True,
    help="Only this locale (repeatable); default: the required locales and any others found.",
)
@click.option("--summary", is_flag=True, help="Print only the coverage table per locale and field.")
@click.option(
    "--mark-current",
    "mark_current_flag",
    is_flag=True,
    help="After review: record that the translations in PATHS match their current sources.",
)
@config_option
@root_option
def translations(
    paths: tuple[Path, ...],
    output_format: str,
    only_locales: tuple[str, ...],
    summary: bool,
    mark_current_flag: bool,
    config_path: Path | None,
    root: Path | None,
) -> None:
    """Report translation coverage per locale and field, and the entries to work on."""
    for value in only_locales:
        problem = locales.problem(value)
        if problem:
            raise CommandError(f"--locale `{escape(value)}` {problem}")
    if mark_current_flag and not paths:
        raise CommandError("--mark-current needs the PATHS of the reviewed entries")
    try:
        config = command_config(config_path, root)
        entries, failures = load_entries(list(paths) or None, config)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    settings = Settings.from_section(config.settings.get("translation", {}))
    if not mark_current_flag:
        skipped = [(f.path, f"{f.line}:{f.col}: {f.message}") for f in failures]
        report = coverage(entries, settings, only_locales or None, skipped)
        text = FORMATTERS[output_format](report, summary)
        # entry text inside: JSON made safe as JSON, the other formats line by line
        click.echo(json_safe(text) if output_format == "json" else escape_lines(text), nl=False)
        click.get_current_context().exit(int(ExitCode.CLEAN))
    problems = [f"{f.path}:{f.line}:{f.col}: {f.message}" for f in failures]
    marked = 0
    texts: dict[Path, str] = {}
    lines: list[str] = []
    for entry in entries:
        try:
            result = mark_current(entry, settings, only_locales or None)
        except ValueError as exc:  # a JSON number no file could hold again, say
            problems.append(f"{entry.path}: not marked: {exc}")
            continue
        problems += [f"{entry.path}: `{key}` not marked: it {why}" for key, why in result.skipped]
        if result.changed:
            texts[entry.abspath] = result.text
            marked += len(result.marked)
            if result.marked:
                lines.append(f"{escape(entry.path)}: marked {escape(', '.join(result.marked))} current")
    try:
        write_files(texts, within=write_scope(paths, config))
    except OSError as exc:
        raise CommandError(f"{write_failure(exc)}; no file was changed") from None
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    changed = len(texts)
    for line in lines:
        click.echo(line)
    for problem in problems:
        click.echo(f"entrykit: {escape(problem)}", err=True)
    noun = "translation" if marked == 1 else "translations"
    click.echo(f"Marked {marked} {noun} current in {changed} of {len(entries)} files.")
    code = ExitCode.FINDINGS if problems else ExitCode.CLEAN
    click.get_current_context().exit(int(code))
