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
from entrykit.output_safety import escape
from entrykit.regex.runner import RegexSettings
from entrykit.similarity import dupes_report
from entrykit.similarity import near_duplicates as dupes


@click.command("dupes")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--threshold", type=click.FloatRange(0, 1), help="Lowest score reported (default from config, 0.6).")
@click.option(
    "--max-pairs",
    type=click.IntRange(1),
    default=dupes.PER_ENTRY,
    show_default=True,
    help="Closest pairs listed per entry (besides each cluster's pairs with its representative); the rest are counted.",
)
@click.option(
    "--families", is_flag=True, help="List template families (entries of one message that differ in a named value)."
)
@config_option
@root_option
def dupes_command(
    paths: tuple[Path, ...],
    output_format: str,
    threshold: float | None,
    max_pairs: int,
    families: bool,
    config_path: Path | None,
    root: Path | None,
) -> None:
    """List near-duplicate entries: clusters of pairs, each with a score and reasons."""
    progress = Progress.on_stderr()
    try:
        config = command_config(config_path, root)
        loaded = load_plan(list(paths) or None, config, progress=progress, summaries=True)
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
        matched = dupes.regex_matches(loaded.entries, regex.flags, regex.mode, regex.runner(), progress=progress)
        found = dupes.find_duplicates(
            loaded.entries, settings, progress, same_id=True, matched=matched, per_entry=max_pairs
        )
    targets = {e.path for e in loaded.targets}
    wanted = None if len(targets) == len(loaded.entries) else targets
    report = dupes_report.build(found, wanted)
    click.echo(dupes_report.render(report, len(loaded.entries), output_format, families, wanted), nl=False)
    failing = bool(report.clusters or report.between) or bool(loaded.failures)
    click.get_current_context().exit(int(ExitCode.FINDINGS if failing else ExitCode.CLEAN))
