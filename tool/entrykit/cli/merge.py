"""`entrykit merge`: merge entries into one, asking about conflicts at a terminal or from a file."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from entrykit.authoring import merge, merge_apply, merge_report, merge_resolutions
from entrykit.cli.common import (
    CommandError,
    ExitCode,
    command_config,
    config_option,
    root_option,
    write_failure,
)
from entrykit.entry import Entry
from entrykit.errors import EntrykitError
from entrykit.lint.engine import load_plan
from entrykit.output_safety import dumps, escape, escape_lines
from entrykit.regex.compiling import settings_flags
from entrykit.targets import project_folder
from entrykit.versions import package_names


def _interactive() -> bool:
    """Conflicts are asked about only when a person is at a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _several_lines(value: Any) -> bool:
    return not isinstance(value, str) or "\n" in value


def _edit(conflict: merge.Conflict) -> Any:
    """A new value for a conflict: typed on one line, or in $EDITOR when the values run to
    several lines or are not text (lists and mappings are edited as YAML)."""
    start = conflict.options[0].value
    if not any(_several_lines(o.value) for o in conflict.options if o.value is not None):
        return click.prompt("New value", default=start, err=True)
    text = start if isinstance(start, str) else merge_report.full(start)
    if not isinstance(start, str):
        import io

        from entrykit.roundtrip import make_yaml

        stream = io.StringIO()
        make_yaml().dump(start, stream)
        text = stream.getvalue()
    edited = click.edit(text, extension=".yaml" if not isinstance(start, str) else ".txt", require_save=False)
    if edited is None:
        return start
    if isinstance(start, str):
        return edited[:-1] if edited.endswith("\n") and not start.endswith("\n") else edited
    from entrykit.parsing import parse_yaml

    parsed = parse_yaml("value:\n" + "".join("  " + line + "\n" for line in edited.splitlines()))
    if parsed.problem is not None:
        raise CommandError(f"the edited value is not YAML: {parsed.problem.message}")
    return parsed.data["value"]


def _ask(conflict: merge.Conflict) -> Any:
    """Ask at the terminal how to settle one conflict: one of its options, or an edited value."""
    about = f": {escape(conflict.about)}" if conflict.about else ""
    click.echo(f"\nConflict at {escape(conflict.pointer)} ({conflict.kind}){about}", err=True)
    letters = "abcdfghijklmnopqrstuvwxyz"  # no `e`: it edits
    for letter, option in zip(letters, conflict.options, strict=False):
        shown = "keep both" if option.value is None else merge_report.full(option.value, "     ")
        click.echo(escape_lines(f"  {letter}) {escape(str(option.source))}: {shown}"), err=True)
    allowed = [*letters[: len(conflict.options)]]
    editable = conflict.kind in ("value", "condition")
    if editable:
        allowed.append("e")
    answer = click.prompt(
        f"Keep {', '.join(allowed[: len(conflict.options)])}{' or e(dit)' if editable else ''}?",
        type=click.Choice(allowed), default="a", err=True,
    )  # fmt: skip
    if answer == "e":
        return ("edit", _edit(conflict), "edited")
    return ("choose", conflict.options[letters.index(answer)].source, "chosen")

def _survivor_and_others(entries: tuple[str, ...], into_arg: str | None, corpus: Sequence[Entry]) -> tuple[Entry, list[Entry]]:
    """The entry `--into` names (or the first) and the others, each named once."""
    found = [merge_apply.find_entry(argument, corpus) for argument in entries]
    if into_arg is not None and into_arg not in entries:
        raise CommandError(f"--into must name one of the entries, not `{into_arg}`")
    at = entries.index(into_arg) if into_arg is not None else 0
    survivor, others = found[at], [e for i, e in enumerate(found) if i != at]
    if any(o is survivor for o in others) or len({id(e) for e in found}) != len(found):
        raise CommandError("the same entry is named twice" if len(found) > 2 else "A and B are the same entry")
    return survivor, others


def _read_resolutions(path: Path, limit: int) -> str:
    """A resolution file's text: a regular file of at most `limit` bytes (a file's limit), UTF-8."""
    from entrykit.loader import read_small_file

    try:
        return read_small_file(path, limit).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path} is not UTF-8 text (byte {exc.start + 1})") from None


def _write_resolutions(path: Path, result: merge.MergeResult, project: Path) -> None:
    from entrykit.writing import atomic_write

    try:
        atomic_write(path, merge_resolutions.resolutions_text(result), within=project)  # a link in it leads nowhere else
    except OSError as exc:
        raise CommandError(write_failure(exc)) from None
    unresolved = result.report.unresolved
    click.echo(f"wrote {len(result.report.conflicts)} choice(s), {len(unresolved)} open, to {path}", err=True)


def _show_report(result: merge.MergeResult, plan: merge_apply.MergePlan, document: dict[str, Any] | None) -> None:
    """The report as JSON (`document`), or as text for people."""
    if document is not None:
        click.echo(dumps(document, indent=2))
    else:
        click.echo(escape_lines(merge_report.report_text(result, plan.sections())), nl=False)



@click.command("merge")
@click.argument("entries", nargs=-1, required=True)
@click.option("--into", "into_arg", help="The survivor (one of ENTRIES; default the first): it keeps its id and file.")
@click.option("--prefer", type=click.Choice(["into", "other"]), help="Settle every open conflict for the survivor or for the absorbed entries.")
@click.option("--resolve", "resolve_path", type=click.Path(path_type=Path, dir_okay=False, exists=True), help="Settle conflicts as a resolution file says.")
@click.option("--write-resolutions", "resolutions_path", type=click.Path(path_type=Path, dir_okay=False), help="Write every choice of the merge to FILE to edit, and nothing else (implies --dry-run).")
@click.option("--report", "report_format", type=click.Choice(["text", "json"]), default="text", show_default=True, help="How the report is printed.")
@click.option("--dry-run", is_flag=True, help="Print the merged entry and the report; write nothing.")
@click.option("--force", is_flag=True, help="Write even if the result has lint errors the inputs did not have.")
@click.option("--today", type=click.DateTime(formats=["%Y-%m-%d"]), help="Today for the lint of the result (YYYY-MM-DD).")
@config_option
@root_option
def merge_command(
    entries: tuple[str, ...],
    into_arg: str | None,
    prefer: str | None,
    resolve_path: Path | None,
    resolutions_path: Path | None,
    report_format: str,
    dry_run: bool,
    force: bool,
    today: datetime | None,
    config_path: Path | None,
    root: Path | None,
) -> None:
    """Merge ENTRIES (ids or paths) into one: the survivor absorbs the others, nothing is lost."""
    if len(entries) < 2:
        raise CommandError("name at least two entries to merge")
    dry_run = dry_run or resolutions_path is not None
    try:
        config = command_config(config_path, root)
        loaded = load_plan(None, config)
        survivor, others = _survivor_and_others(entries, into_arg, loaded.entries)
        regex = config.settings.get("regex", {})
        options: dict[str, Any] = {
            "flags": settings_flags(regex),
            "mode": str(regex.get("mode", "search")),
            "naming": package_names.configured_naming(config.settings.get("versions", {})),
            "rate_gap": float(config.settings.get("merge", {}).get("rate_gap", merge.RATE_GAP)),
            "taken": {e.id for e in loaded.entries if isinstance(e.id, str) and not any(e is m for m in (survivor, *others))},
        }
        inputs = [o.data for o in others]
        choices: dict[str, Any] = {}
        if resolve_path is not None:
            bare = merge.merge_entries(survivor.data, inputs, **options)
            text = _read_resolutions(resolve_path, config.max_file_bytes)
            choices = merge_resolutions.read_resolutions(text, str(resolve_path), bare)
        result = merge.merge_entries(survivor.data, inputs, prefer=prefer, choices=choices, **options)
        if result.report.unresolved and _interactive() and resolutions_path is None and report_format == "text":
            choices.update({c.pointer: _ask(c) for c in result.report.unresolved})
            result = merge.merge_entries(survivor.data, inputs, prefer=prefer, choices=choices, **options)
        plan = merge_apply.plan_merge(loaded.entries, survivor, others, result, config, today.date() if today else date.today())
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot read {exc.filename}: {exc.strerror or exc}") from None
    unresolved = result.report.unresolved
    if resolutions_path is not None:
        _write_resolutions(resolutions_path, result, project_folder(config, Path.cwd()))
    document = None
    if report_format == "json":
        document = merge_report.report_json(result, {"text": plan.survivor_text, **plan.summary(), "written": False})
    if dry_run:
        if document is None:
            click.echo(escape_lines(plan.survivor_text), nl=False)
            click.echo("---")
        _show_report(result, plan, document)
        click.get_current_context().exit(int(ExitCode.FINDINGS if unresolved or plan.new_errors else ExitCode.CLEAN))
    if unresolved:
        _show_report(result, plan, document)
        raise CommandError(
            f"{len(unresolved)} conflict(s) unresolved: pass --prefer into|other or --resolve FILE, or run at a terminal to choose"
        )
    refused = bool(plan.new_errors) and not force
    if not refused:
        try:
            merge_apply.apply_plan(plan, config.root)
        except OSError as exc:
            which = "both entries are" if len(others) == 1 else "every entry is"
            raise CommandError(f"writing failed, {which} still on disk: {exc}") from None
    if document is not None:
        document["written"] = not refused
    _show_report(result, plan, document)
    if refused:
        click.echo("Refusing to write: the merged entry has errors the inputs did not have (--force writes anyway).", err=report_format == "json")
        click.get_current_context().exit(int(ExitCode.FINDINGS))
    absorbed = ", ".join(f"`{escape(str(o.id))}`" for o in others)
    removed = escape(", ".join(o.path for o in others))
    click.echo(
        f"Merged {absorbed} into `{escape(str(survivor.id))}` ({escape(survivor.path)}); removed {removed}"
        + (f"; rewrote references in {len(plan.rewritten)} file(s)." if plan.rewritten else "."),
        err=report_format == "json",
    )
