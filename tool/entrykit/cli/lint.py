"""`entrykit lint`: check entries and report, or apply and show safe fixes."""

from __future__ import annotations

import os
import sys
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from entrykit import registry
from entrykit.cli.common import (
    CommandError,
    ExitCode,
    command_config,
    config_option,
    root_option,
    write_failure,
)
from entrykit.diagnostic import Severity
from entrykit.errors import EntrykitError
from entrykit.lint.engine import default_jobs
from entrykit.lint.engine import lint as run_lint
from entrykit.lint.reporters import REPORTERS, statistics, summary_line
from entrykit.targets import write_scope
from entrykit.writing import write_files

if TYPE_CHECKING:
    from entrykit.lint.fixer import FixResult


def _split_codes(values: tuple[str, ...]) -> list[str]:
    return [code for value in values for code in value.split(",") if code.strip()]


def _output_format(name: str) -> str:
    if name == "auto":
        return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    return name


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["auto", *REPORTERS]),
    default="auto",
    show_default=True,
    help="Output format; auto is github under GitHub Actions, else text.",
)
@click.option("--select", multiple=True, help="Only these codes or prefixes (comma-separated).")
@click.option("--ignore", multiple=True, help="Skip these codes or prefixes (comma-separated).")
@click.option("--strict", is_flag=True, help="Warnings fail the run too.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option(
    "--today",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="Date rules treat this as today (YYYY-MM-DD), for reproducible runs.",
)
@click.option("--statistics", "show_statistics", is_flag=True, help="Count findings per code.")
@config_option
@root_option
@click.option("--fix", "apply_fixes", is_flag=True, help="Apply safe fixes in place, then report what remains.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the safe fixes as a unified diff; write nothing.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Processes that check files when there are many (default: all cores).",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path, file_okay=False),
    envvar="ENTRYKIT_CACHE_DIR",
    help="Keep the cache here, outside the project (default: $XDG_CACHE_HOME/entrykit or ~/.cache/entrykit).",
)
def lint(
    paths: tuple[Path, ...],
    output_format: str,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    strict: bool,
    exit_zero: bool,
    today: datetime | None,
    show_statistics: bool,
    config_path: Path | None,
    root: Path | None,
    apply_fixes: bool,
    show_diff: bool,
    jobs: int | None,
    no_cache: bool,
    cache_dir: Path | None,
) -> None:
    """Check entries (default: the corpus root from config, `entries/`).

    Files named inside the corpus root (as pre-commit passes them) are checked against
    the whole corpus, which is read from the cache where it has not changed.
    """
    name = _output_format(output_format)
    # Written as it is produced: the report of a large corpus is hundreds of megabytes.
    out = sys.stdout
    try:
        config = command_config(config_path, root).with_selection(_split_codes(select), _split_codes(ignore))
        day = today.date() if today else date.today()
        if show_diff or apply_fixes:
            # the round-trip editor (ruamel.yaml) is loaded only by a run that fixes
            from entrykit.lint import fixer

            fixed = fixer.fix(list(paths) or None, config, day)
            for shown, why in sorted(fixed.skipped.items()):
                click.echo(f"entrykit: {shown} not fixed: {why}", err=True)
            if show_diff:
                click.echo(fixed.diff(), nl=False)
                click.get_current_context().exit(int(ExitCode.FINDINGS if fixed.changed else ExitCode.CLEAN))
            write_files({path: fixed.texts[path] for path in fixed.changed}, within=write_scope(paths, config))
            _report_fixes(fixed, out if name == "text" else None)
            result = fixed.remaining
        else:
            result = run_lint(
                list(paths) or None, config, day, use_cache=not no_cache, cache_dir=cache_dir,
                jobs=jobs or default_jobs(),
            )
            for note in result.notes:
                click.echo(f"entrykit: warning: {note}", err=True)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"{write_failure(exc)}; no file was changed") from None
    REPORTERS[name](result.diagnostics, registry.all_rules(), out)
    if show_statistics:
        statistics(result.diagnostics, out)
    if name == "text":
        out.write(summary_line(result.diagnostics, len(result.files)) + "\n")
    out.flush()
    failing = result.count(Severity.ERROR) + (result.count(Severity.WARNING) if strict else 0)
    code = ExitCode.FINDINGS if failing and not exit_zero else ExitCode.CLEAN
    click.get_current_context().exit(int(code))


def _report_fixes(fixed: FixResult, out: TextIO | None) -> None:
    """What --fix changed: on stdout before text output, on stderr beside machine formats."""
    lines = [str(applied) for applied in fixed.applied]
    count, files = len(fixed.applied), len(fixed.changed)
    if count:
        lines.append(f"Fixed {count} problem{'s' * (count != 1)} in {files} file{'s' * (files != 1)}.")
    else:
        lines.append("Nothing to fix.")
    for line in lines:
        if out is not None:
            out.write(line + "\n")
        else:
            click.echo(line, err=True)
