"""The `entrykit` command line: parse options, call the library, print, exit."""

from __future__ import annotations

import enum
import io
import json
import os
import sys
import time
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from . import __version__, docs, dupes, merge, merge_apply, registry
from .config import Config, load_config
from .engine import lint as run_lint
from .engine import load_plan
from .matching import settings_flags
from .diagnostic import Severity
from .errors import EntrykitError
from .reporters import REPORTERS, statistics, summary_line


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
) -> None:
    """Check entries (default: the corpus root from config, `entries/`)."""
    try:
        config = _config(config_path, root).with_selection(_split_codes(select), _split_codes(ignore))
        result = run_lint(list(paths) or None, config, today.date() if today else date.today())
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    name = _output_format(output_format)
    out = io.StringIO()
    REPORTERS[name](result.diagnostics, registry.all_rules(), out)
    if show_statistics:
        statistics(result.diagnostics, out)
    if name == "text":
        out.write(summary_line(result.diagnostics, len(result.files)) + "\n")
    click.echo(out.getvalue(), nl=False)
    failing = result.count(Severity.ERROR) + (result.count(Severity.WARNING) if strict else 0)
    code = ExitCode.FINDINGS if failing and not exit_zero else ExitCode.CLEAN
    click.get_current_context().exit(int(code))


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


class _Progress:
    """A progress bar on stderr, shown only at a terminal and only once a run passes a second."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.monotonic()
        self.bar: Any = None
        self.stage = ""

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled or total <= 0 or time.monotonic() - self.start < 1.0:
            return
        if self.bar is None or stage != self.stage:
            self.close()
            self.stage = stage
            self.bar = click.progressbar(length=total, label=f"{stage:<10}", file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.bar.pos)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


@cli.command("dupes")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--threshold", type=click.FloatRange(0, 1), help="Lowest score reported (default from config, 0.6).")
@click.option(
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read."
)
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), help="Corpus root (overrides config).")
def dupes_command(
    paths: tuple[Path, ...], output_format: str, threshold: float | None, config_path: Path | None, root: Path | None
) -> None:
    """List near-duplicate entries: pairs and clusters, each with a score and reasons."""
    try:
        config = _config(config_path, root)
        loaded = load_plan(list(paths) or None, config)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    for failure in loaded.failures:
        click.echo(f"{failure.path}:{failure.line}:{failure.col}: ET001 {failure.message}", err=True)
    settings = dupes.Settings.from_section(config.settings.get("dupes", {}))
    if threshold is not None:
        settings = replace(settings, threshold=threshold)
    regex = config.settings.get("regex", {})
    progress = _Progress(sys.stderr.isatty())
    try:
        pairs = dupes.find_duplicates(
            loaded.entries, settings, settings_flags(regex), str(regex.get("mode", "search")), progress, same_id=True
        )
    finally:
        progress.close()
    targets = {e.path for e in loaded.targets}
    pairs = [p for p in pairs if p.a.path in targets or p.b.path in targets]
    groups = dupes.clusters(pairs)
    if output_format == "json":
        click.echo(json.dumps(dupes.report_json(groups, len(loaded.entries)), indent=2, ensure_ascii=False))
    else:
        click.echo(dupes.report_text(groups, len(loaded.entries)), nl=False)
    failing = bool(pairs) or bool(loaded.failures)
    click.get_current_context().exit(int(ExitCode.FINDINGS if failing else ExitCode.CLEAN))


def _interactive() -> bool:
    """Conflicts are asked about only when a person is at a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _ask(conflict: merge.Conflict, survivor: str, absorbed: str) -> Any:
    """Ask at the terminal how to settle one conflict: a, b, or an edited value."""
    click.echo(f"\nConflict at {conflict.pointer}", err=True)
    click.echo(f"  a ({survivor}): {conflict.into}", err=True)
    click.echo(f"  b ({absorbed}): {conflict.other}", err=True)
    answer = click.prompt("Keep a, b, or e(dit)?", type=click.Choice(["a", "b", "e"]), default="a", err=True)
    if answer == "a":
        return "into"
    if answer == "b":
        return "other"
    start = conflict.into if isinstance(conflict.into, str) else json.dumps(conflict.into, ensure_ascii=False)
    typed = click.prompt("New value", default=start, err=True)
    if isinstance(conflict.into, str) or isinstance(conflict.other, str):
        return ("edit", typed)
    try:
        return ("edit", json.loads(typed))
    except ValueError:
        return ("edit", typed)


@cli.command("merge")
@click.argument("a")
@click.argument("b")
@click.option("--into", "into_arg", help="The survivor (A or B; default A): it keeps its id and file.")
@click.option("--prefer", type=click.Choice(["into", "other"]), help="Settle every conflict for the survivor or the other.")
@click.option("--dry-run", is_flag=True, help="Print the merged entry and the report; write nothing.")
@click.option("--force", is_flag=True, help="Write even if the result has lint errors the inputs did not have.")
@click.option("--today", type=click.DateTime(formats=["%Y-%m-%d"]), help="Today for the lint of the result (YYYY-MM-DD).")
@click.option(
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read."
)
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), help="Corpus root (overrides config).")
def merge_command(
    a: str,
    b: str,
    into_arg: str | None,
    prefer: str | None,
    dry_run: bool,
    force: bool,
    today: datetime | None,
    config_path: Path | None,
    root: Path | None,
) -> None:
    """Merge entry B into entry A (ids or paths): one entry survives, nothing is lost."""
    try:
        config = _config(config_path, root)
        loaded = load_plan(None, config)
        first = merge_apply.find_entry(a, loaded.entries)
        second = merge_apply.find_entry(b, loaded.entries)
        if into_arg is not None and into_arg not in (a, b):
            raise CommandError(f"--into must name A or B, not `{into_arg}`")
        survivor, other = (second, first) if into_arg is not None and into_arg == b else (first, second)
        if survivor is other:
            raise CommandError("A and B are the same entry")
        regex = config.settings.get("regex", {})
        flags, mode = settings_flags(regex), str(regex.get("mode", "search"))
        result = merge.merge_entries(survivor.data, other.data, prefer=prefer, flags=flags, mode=mode)
        if result.report.unresolved and _interactive():
            choices = {
                c.pointer: _ask(c, str(survivor.id), str(other.id)) for c in result.report.unresolved
            }
            result = merge.merge_entries(
                survivor.data, other.data, prefer=prefer, choices=choices, flags=flags, mode=mode
            )
        plan = merge_apply.plan_merge(
            loaded.entries, survivor, other, result, config, today.date() if today else date.today()
        )
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    report = merge.report_text(result, survivor.data, other.data)
    unresolved = result.report.unresolved
    if dry_run:
        click.echo(plan.survivor_text, nl=False)
        click.echo("---")
        click.echo(report, nl=False)
        for d in plan.new_errors:
            click.echo(f"would add: {d.path}:{d.line}:{d.col}: {d.code} {d.message}")
        click.get_current_context().exit(int(ExitCode.FINDINGS if unresolved else ExitCode.CLEAN))
    click.echo(report, nl=False)
    if unresolved:
        raise CommandError(
            f"{len(unresolved)} conflict(s) unresolved: pass --prefer into|other, or run at a terminal to choose"
        )
    if plan.new_errors and not force:
        for d in plan.new_errors:
            click.echo(f"{d.path}:{d.line}:{d.col}: {d.code} [error] {d.message}")
        click.echo("Refusing to write: the merged entry has errors the inputs did not have (--force writes anyway).")
        click.get_current_context().exit(int(ExitCode.FINDINGS))
    try:
        merge_apply.apply_plan(plan)
    except OSError as exc:
        raise CommandError(f"writing failed, both entries are still on disk: {exc}") from None
    rewritten = len(plan.texts) - 1
    click.echo(
        f"Merged `{other.id}` into `{survivor.id}` ({survivor.path}); removed {other.path}"
        + (f"; rewrote references in {rewritten} file(s)." if rewritten else ".")
    )


def main() -> None:
    """Console entry point; the only place that exits the process."""
    try:
        cli.main(prog_name="entrykit")
    except Exception as exc:  # an entrykit bug: say so in one line, exit 2
        click.echo(f"entrykit: internal error: {type(exc).__name__}: {exc}", err=True)
        if os.environ.get("ENTRYKIT_DEBUG"):
            raise
        sys.exit(ExitCode.ERROR)
