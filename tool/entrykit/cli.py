"""The `entrykit` command line: parse options, call the library, print, exit."""

from __future__ import annotations

import enum
import io
import os
import sys
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path

import click

from . import __version__, docs, fixer, locales, registry
from .config import Config, load_config
from .coverage import coverage, load_entries
from .coverage_formats import FORMATTERS
from .diagnostic import Severity
from .engine import lint as run_lint
from .errors import EntrykitError
from .fingerprints import mark_current
from .reporters import REPORTERS, statistics, summary_line
from .translated import Settings
from .writing import atomic_write


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


def _split_codes(values: tuple[str, ...]) -> list[str]:
    return [code for value in values for code in value.split(",") if code.strip()]


def _config(config_path: Path | None, root: Path | None) -> Config:
    config = load_config(Path.cwd(), config_path)
    if root is not None:
        config = replace(config, root=root.resolve())
    return config


def _output_format(name: str) -> str:
    if name == "auto":
        return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    return name


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="entrykit")
def cli() -> None:
    """Lint, merge and author the entries of an error knowledge base."""


@cli.command()
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
@click.option(
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read."
)
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), help="Corpus root (overrides config).")
@click.option("--fix", "apply_fixes", is_flag=True, help="Apply safe fixes in place, then report what remains.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the safe fixes as a unified diff; write nothing.")
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
) -> None:
    """Check entries (default: the corpus root from config, `entries/`)."""
    name = _output_format(output_format)
    out = io.StringIO()
    try:
        config = _config(config_path, root).with_selection(_split_codes(select), _split_codes(ignore))
        day = today.date() if today else date.today()
        if show_diff or apply_fixes:
            fixed = fixer.fix(list(paths) or None, config, day)
            for shown, why in sorted(fixed.skipped.items()):
                click.echo(f"entrykit: {shown} not fixed: {why}", err=True)
            if show_diff:
                click.echo(fixed.diff(), nl=False)
                click.get_current_context().exit(int(ExitCode.FINDINGS if fixed.changed else ExitCode.CLEAN))
            for path in fixed.changed:
                atomic_write(path, fixed.texts[path])
            _report_fixes(fixed, out if name == "text" else None)
            result = fixed.remaining
        else:
            result = run_lint(list(paths) or None, config, day)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot write {exc.filename}: {exc.strerror or exc}") from None
    REPORTERS[name](result.diagnostics, registry.all_rules(), out)
    if show_statistics:
        statistics(result.diagnostics, out)
    if name == "text":
        out.write(summary_line(result.diagnostics, len(result.files)) + "\n")
    click.echo(out.getvalue(), nl=False)
    failing = result.count(Severity.ERROR) + (result.count(Severity.WARNING) if strict else 0)
    code = ExitCode.FINDINGS if failing and not exit_zero else ExitCode.CLEAN
    click.get_current_context().exit(int(code))


def _report_fixes(fixed: fixer.FixResult, out: io.StringIO | None) -> None:
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


@cli.command("rules")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True
)
def rules_command(output_format: str) -> None:
    """List every rule: code, name, default severity, summary."""
    rules = registry.all_rules()
    render = {"text": docs.rules_text, "markdown": docs.rules_markdown, "json": docs.rules_json}
    click.echo(render[output_format](rules), nl=False)


@cli.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print a rule's documentation (by code, e.g. ET202, or by name)."""
    try:
        found = registry.get(code)
    except KeyError:
        raise CommandError(f"no rule `{code}`; `entrykit rules` lists them") from None
    click.echo(docs.explain(found), nl=False)


@cli.command()
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
@click.option(
    "--mark-current",
    "mark_current_flag",
    is_flag=True,
    help="After review: record that the translations in PATHS match their current sources.",
)
@click.option(
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read."
)
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), help="Corpus root (overrides config).")
def translations(
    paths: tuple[Path, ...],
    output_format: str,
    only_locales: tuple[str, ...],
    mark_current_flag: bool,
    config_path: Path | None,
    root: Path | None,
) -> None:
    """Report translation coverage per locale and field, and the entries to work on."""
    for value in only_locales:
        problem = locales.problem(value)
        if problem:
            raise CommandError(f"--locale `{value}` {problem}")
    if mark_current_flag and not paths:
        raise CommandError("--mark-current needs the PATHS of the reviewed entries")
    try:
        config = _config(config_path, root)
        entries, failures = load_entries(list(paths) or None, config)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    settings = Settings.from_section(config.settings.get("translation", {}))
    if not mark_current_flag:
        skipped = [(f.path, f"{f.line}:{f.col}: {f.message}") for f in failures]
        report = coverage(entries, settings, only_locales or None, skipped)
        click.echo(FORMATTERS[output_format](report), nl=False)
        click.get_current_context().exit(int(ExitCode.CLEAN))
    problems = [f"{f.path}:{f.line}:{f.col}: {f.message}" for f in failures]
    marked = changed = 0
    for entry in entries:
        result = mark_current(entry, settings, only_locales or None)
        problems += [f"{entry.path}: `{key}` not marked: it {why}" for key, why in result.skipped]
        if result.changed:
            atomic_write(entry.abspath, result.text)
            changed += 1
            marked += len(result.marked)
            if result.marked:
                click.echo(f"{entry.path}: marked {', '.join(result.marked)} current")
    for problem in problems:
        click.echo(f"entrykit: {problem}", err=True)
    noun = "translation" if marked == 1 else "translations"
    click.echo(f"Marked {marked} {noun} current in {changed} of {len(entries)} files.")
    code = ExitCode.FINDINGS if problems else ExitCode.CLEAN
    click.get_current_context().exit(int(code))


def main() -> None:
    """Console entry point; the only place that exits the process."""
    try:
        cli.main(prog_name="entrykit")
    except Exception as exc:  # an entrykit bug: say so in one line, exit 2
        click.echo(f"entrykit: internal error: {type(exc).__name__}: {exc}", err=True)
        if os.environ.get("ENTRYKIT_DEBUG"):
            raise
        sys.exit(ExitCode.ERROR)
