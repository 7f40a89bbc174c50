"""`entrykit render`: an entry as a Markdown page, or as one self-contained HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from entrykit.authoring import render, render_html
from entrykit.cli.common import CommandError, command_config, config_option, write_failure
from entrykit.config import Config
from entrykit.errors import EntrykitError
from entrykit.loader import LoadFailure, display_path, load, refused
from entrykit.output_safety import escape_lines
from entrykit.paths import entry_path
from entrykit.paths import shown as printable
from entrykit.translation.locales import problem as locale_problem
from entrykit.writing import atomic_write


def _find_entry(target: str, config: Config) -> Path:
    """An entry file from a path, or from an id below the corpus root."""
    given = Path(target)
    why = refused(given)
    if why is not None:
        raise CommandError(f"`{target}` cannot be looked at ({why})")
    if given.is_file():
        return given
    try:
        for suffix in (".yaml", ".yml", ".json"):
            candidate = entry_path(config.root, target, suffix)
            if refused(candidate) is None and candidate.is_file():
                return candidate
    except EntrykitError:
        pass
    raise CommandError(f"no entry `{target}`: neither a file nor an id in {display_path(config.root)}")


@click.command("render")
@click.argument("target", metavar="ID|PATH")
@click.option(
    "--locale", "locales", multiple=True,
    help="Show translations into this locale (repeatable; default: the required locales from config).",
)
@click.option("--html", "as_html", is_flag=True, help="One self-contained HTML page (inline style, no script).")
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE",
              help="Write the page to FILE (atomically) instead of printing it.")
@config_option
def render_command(
    target: str, locales: tuple[str, ...], as_html: bool, output: Path | None, config_path: Path | None
) -> None:
    """Show an entry as the page a reader will see: Markdown (`import --from markdown`
    reads it back) or, with --html, one HTML page to open in a browser."""
    for value in locales:
        problem = locale_problem(value)
        if problem:
            raise CommandError(f"--locale `{printable(value)}` {problem}")
    try:
        config = command_config(config_path, None)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    path = _find_entry(target, config).absolute()
    loaded = load(path, display_path(path), config.limits, within=config.root)
    if isinstance(loaded, LoadFailure):
        raise CommandError(f"{loaded.path}:{loaded.line}:{loaded.col}: {loaded.message}")
    problem = render.not_an_entry(loaded.data)
    if problem is not None:
        raise CommandError(f"{loaded.path} is not an entry: {problem}")
    shown = list(locales) or list(config.settings.get("translation", {}).get("required", []))
    page = render_html.render_html(loaded.data, shown) if as_html else render.render_entry(loaded.data, shown)
    if output is None:
        click.echo(escape_lines(page), nl=False)  # a file (--output) gets the page as it is
        return
    try:
        atomic_write(output, page, within=config.base)  # a link inside the project leads nowhere else
    except OSError as exc:
        raise CommandError(f"{write_failure(exc)}; nothing written") from None
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    click.echo(f"wrote {display_path(output.absolute())}", err=True)
