"""`entrykit merge`: merge one entry into another, asking about conflicts at a terminal."""

from __future__ import annotations

import json
import sys
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from entrykit.authoring import merge, merge_apply
from entrykit.cli.common import (
    CommandError,
    ExitCode,
    command_config,
    config_option,
    root_option,
)
from entrykit.errors import EntrykitError
from entrykit.lint.engine import load_plan
from entrykit.output_safety import escape, escape_lines
from entrykit.regex.compiling import settings_flags


def _interactive() -> bool:
    """Conflicts are asked about only when a person is at a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _ask(conflict: merge.Conflict, survivor: str, absorbed: str) -> Any:
    """Ask at the terminal how to settle one conflict: a, b, or an edited value."""
    click.echo(f"\nConflict at {escape(conflict.pointer)}", err=True)
    click.echo(f"  a ({escape(survivor)}): {escape(str(conflict.into))}", err=True)
    click.echo(f"  b ({escape(absorbed)}): {escape(str(conflict.other))}", err=True)
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


@click.command("merge")
@click.argument("a")
@click.argument("b")
@click.option("--into", "into_arg", help="The survivor (A or B; default A): it keeps its id and file.")
@click.option("--prefer", type=click.Choice(["into", "other"]), help="Settle every conflict for the survivor or the other.")
@click.option("--dry-run", is_flag=True, help="Print the merged entry and the report; write nothing.")
@click.option("--force", is_flag=True, help="Write even if the result has lint errors the inputs did not have.")
@click.option("--today", type=click.DateTime(formats=["%Y-%m-%d"]), help="Today for the lint of the result (YYYY-MM-DD).")
@config_option
@root_option
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
        config = command_config(config_path, root)
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
    report = escape_lines(merge.report_text(result, survivor.data, other.data))
    unresolved = result.report.unresolved
    if dry_run:
        click.echo(escape_lines(plan.survivor_text), nl=False)
        click.echo("---")
        click.echo(report, nl=False)
        for d in plan.new_errors:
            click.echo(f"would add: {escape(d.path)}:{d.line}:{d.col}: {d.code} {escape(d.message)}")
        click.get_current_context().exit(int(ExitCode.FINDINGS if unresolved else ExitCode.CLEAN))
    click.echo(report, nl=False)
    if unresolved:
        raise CommandError(
            f"{len(unresolved)} conflict(s) unresolved: pass --prefer into|other, or run at a terminal to choose"
        )
    if plan.new_errors and not force:
        for d in plan.new_errors:
            click.echo(f"{escape(d.path)}:{d.line}:{d.col}: {d.code} [error] {escape(d.message)}")
        click.echo("Refusing to write: the merged entry has errors the inputs did not have (--force writes anyway).")
        click.get_current_context().exit(int(ExitCode.FINDINGS))
    try:
        merge_apply.apply_plan(plan)
    except OSError as exc:
        raise CommandError(f"writing failed, both entries are still on disk: {exc}") from None
    rewritten = len(plan.texts) - 1
    click.echo(
        f"Merged `{escape(str(other.id))}` into `{escape(str(survivor.id))}` ({escape(survivor.path)}); "
        f"removed {escape(other.path)}"
        + (f"; rewrote references in {rewritten} file(s)." if rewritten else ".")
    )
