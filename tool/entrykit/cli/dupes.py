"""`entrykit dupes`: near-duplicate entries, with a progress bar at a terminal."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from entrykit.cli.common import (
    CommandError,
    ExitCode,
    command_config,
    config_option,
    root_option,
)
from entrykit.cli.terminal import Progress
from entrykit.errors import EntrykitError
from entrykit.lint.engine import load_plan
from entrykit.output_safety import dumps, escape, escape_lines
from entrykit.regex.runner import RegexSettings
from entrykit.similarity import near_duplicates as dupes


@click.command("dupes")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--threshold", type=click.FloatRange(0, 1), help="Lowest score reported (default from config, 0.6).")
@config_option
@root_option
def dupes_command(
    paths: tuple[Path, ...], output_format: str, threshold: float | None, config_path: Path | None, root: Path | None
) -> None:
    """List near-duplicate entries: pairs and clusters, each with a score and reasons."""
    progress = Progress.on_stderr()
    try:
        config = command_config(config_path, root)
        loaded = load_plan(list(paths) or None, config, progress=progress)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    finally:
        progress.close()
    for failure in loaded.failures:
        click.echo(f"{escape(failure.path)}:{failure.line}:{failure.col}: ET001 {escape(failure.message)}", err=True)
    settings = dupes.Settings.from_section(config.settings.get("dupes", {}))
    if threshold is not None:
        settings = replace(settings, threshold=threshold)
    regex = RegexSettings.of(config.settings.get("regex", {}))
    with progress:
        matched = dupes.signature_matches(loaded.entries, regex.flags, regex.mode, regex.runner(), progress=progress)
        pairs = dupes.find_duplicates(loaded.entries, settings, progress, same_id=True, matched=matched)
    targets = {e.path for e in loaded.targets}
    pairs = [p for p in pairs if p.a.path in targets or p.b.path in targets]
    groups = dupes.clusters(pairs)
    if output_format == "json":
        click.echo(dumps(dupes.report_json(groups, len(loaded.entries)), indent=2))
    else:
        click.echo(escape_lines(dupes.report_text(groups, len(loaded.entries))), nl=False)
    failing = bool(pairs) or bool(loaded.failures)
    click.get_current_context().exit(int(ExitCode.FINDINGS if failing else ExitCode.CLEAN))
