"""`entrykit render`: print an entry as a Markdown page."""

from __future__ import annotations

from pathlib import Path

import click

from entrykit.authoring import render
from entrykit.cli.common import CommandError, command_config, config_option
from entrykit.config import Config
from entrykit.errors import EntrykitError
from entrykit.loader import LoadFailure, display_path, load
from entrykit.paths import entry_path


def _find_entry(target: str, config: Config) -> Path:
    """An entry file from a path, or from an id below the corpus root."""
    given = Path(target)
    if given.is_file():
        return given
    try:
        for suffix in (".yaml", ".yml", ".json"):
            candidate = entry_path(config.root, target, suffix)
            if candidate.is_file():
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
@config_option
def render_command(target: str, locales: tuple[str, ...], config_path: Path | None) -> None:
    """Print an entry as a Markdown page, for reviewers (`import --from markdown` reads it back)."""
    try:
        config = command_config(config_path, None)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    path = _find_entry(target, config).absolute()
    loaded = load(path, display_path(path), config.limits, within=config.root)
    if isinstance(loaded, LoadFailure):
        raise CommandError(f"{loaded.path}:{loaded.line}:{loaded.col}: {loaded.message}")
    shown = list(locales) or list(config.settings.get("translation", {}).get("required", []))
    click.echo(render.render_entry(loaded.data, shown), nl=False)
