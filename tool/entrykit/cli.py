"""The `entrykit` command line: parse options, call the library, print, exit."""

from __future__ import annotations

import enum
import io
import os
import sys
from collections import Counter
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from . import __version__, docs, registry
from .config import Config, load_config
from .engine import lint as run_lint
from .diagnostic import Severity
from .errors import EntrykitError
from .formatter import dump_entry, format_file, unified_diff
from .importers.deadends import generalise, import_canons
from .importers.markdown import import_pages
from .paths import entry_path
from .loader import LoadFailure, discover, display_path, load
from .render import render_entry
from .schema import load_schema
from .writing import WriteRefused, atomic_write
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


def _entry_files(paths: tuple[Path, ...], config: Config) -> list[Path]:
    """The entry files named or found below `paths` (default: the corpus root)."""
    for given in paths:
        if not given.exists():
            raise CommandError(f"`{given}` does not exist")
    if not paths and not config.root.is_dir():
        raise CommandError(f"corpus root `{config.root}` is not a directory; pass paths or set `root`")
    return list(discover(list(paths) or [config.root]))


@cli.command("fmt")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if some file would change, naming it.")
@click.option("--diff", "show_diff", is_flag=True, help="Write nothing; print what would change as a diff.")
@click.option(
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read."
)
def fmt_command(paths: tuple[Path, ...], check: bool, show_diff: bool, config_path: Path | None) -> None:
    """Rewrite entries in the canonical layout (default: the corpus root).

    Keys in schema order (translations after their field), 2-space indent, plain
    scalars where YAML allows them and double quotes elsewhere, a final newline.
    Comments are kept; JSON entries stay JSON.
    """
    try:
        config = _config(config_path, None)
        schema = load_schema(config.schema)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    changed: list[str] = []
    failed = 0
    files = _entry_files(paths, config)
    for path in files:
        shown = display_path(path)
        result = format_file(path, schema)
        if result.error is not None:
            failed += 1
            err = result.error
            click.echo(f"{shown}:{err.line}:{err.col}: cannot format: {err}", err=True)
            continue
        if not result.changed:
            continue
        changed.append(shown)
        if show_diff:
            click.echo(unified_diff(result, shown), nl=False)
        if check:
            click.echo(f"would reformat {shown}")
        elif not show_diff:
            assert result.formatted is not None
            atomic_write(path, result.formatted)
            click.echo(f"reformatted {shown}")
    verb = "would be reformatted" if check or show_diff else "reformatted"
    unchanged = len(files) - len(changed) - failed
    summary = f"{len(changed)} file{'s' if len(changed) != 1 else ''} {verb}, {unchanged} unchanged"
    if failed:
        summary += f", {failed} could not be formatted"
    click.echo(summary + ".", err=True)
    if failed:
        click.get_current_context().exit(int(ExitCode.ERROR))
    if changed and (check or show_diff):
        click.get_current_context().exit(int(ExitCode.FINDINGS))


def _schema_ref(target: Path, config: Config) -> str | None:
    """What a new YAML file's `# yaml-language-server: $schema=` line points at, if anything."""
    schema = config.schema or config.base / "schema" / "entry.schema.json"
    if not schema.is_file():
        return None
    return Path(os.path.relpath(schema.resolve(), target.parent.resolve())).as_posix()


def _write_entry(
    root: Path, entry: dict[str, Any], config: Config, fmt: str, overwrite: bool
) -> Path:
    """Write one new entry below `root` at the path its id names; WriteRefused if it exists."""
    target = entry_path(root, str(entry.get("id", "")), ".json" if fmt == "json" else ".yaml")
    text = dump_entry(entry, fmt, _schema_ref(target, config) if fmt == "yaml" else None)
    atomic_write(target, text, overwrite=overwrite)
    return target


@cli.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option(
    "--from", "source", type=click.Choice(["deadends", "markdown"]), required=True,
    help="deadends: ErrorCanon JSON files or folders; markdown: pages written by `entrykit render`.",
)
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), help="Corpus root to write into (default: from config).")
@click.option("--format", "out_format", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
@click.option("--force", is_flag=True, help="Overwrite entries that already exist.")
@click.option("-v", "--verbose", is_flag=True, help="List every file's unmapped fields and changes.")
@click.option(
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read."
)
def import_command(
    paths: tuple[Path, ...], source: str, out: Path | None, out_format: str, force: bool, verbose: bool,
    config_path: Path | None,
) -> None:
    """Convert deadends.dev canons or rendered Markdown pages into entries.

    Fields with no place in an entry are listed, never dropped silently.
    """
    try:
        config = _config(config_path, None)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    root = (out or config.root).absolute()
    if source == "deadends":
        imported, problems = import_canons(paths)
    else:
        imported, problems = import_pages(paths)
    for problem in problems:
        click.echo(f"{display_path(problem.source.absolute())}:{problem.line}:{problem.col}: {problem.message}", err=True)
    written = refused = 0
    unmapped: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    for item in imported:
        shown = display_path(item.source.absolute())
        try:
            _write_entry(root, item.entry, config, out_format, overwrite=force)
            written += 1
        except WriteRefused:
            refused += 1
            click.echo(f"{shown}: `{item.entry['id']}` exists in {display_path(root)}; not overwritten (use --force)", err=True)
        except EntrykitError as exc:
            click.echo(f"{shown}: {exc}", err=True)
            refused += 1
        unmapped.update({generalise(f) for f in item.unmapped})
        notes.update(item.notes)
        if verbose and (item.unmapped or item.notes):
            click.echo(f"{shown} -> {item.entry['id']}")
            for field_path in item.unmapped:
                click.echo(f"  not carried over: {field_path}")
            for note in item.notes:
                click.echo(f"  changed: {note}")
    click.echo(f"imported {written} of {len(imported) + len(problems)} files into {display_path(root)}")
    if unmapped:
        click.echo("fields not carried over (number of files):")
        for name, count in sorted(unmapped.items(), key=lambda kv: (-kv[1], kv[0])):
            click.echo(f"  {count:6d}  {name}")
    if notes:
        click.echo("values changed to fit the schema (number of files):")
        for name, count in sorted(notes.items(), key=lambda kv: (-kv[1], kv[0])):
            click.echo(f"  {count:6d}  {name}")
    if problems or refused:
        click.get_current_context().exit(int(ExitCode.FINDINGS))


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


@cli.command("render")
@click.argument("target", metavar="ID|PATH")
@click.option(
    "--locale", "locales", multiple=True,
    help="Show translations into this locale (repeatable; default: the required locales from config).",
)
@click.option(
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read."
)
def render_command(target: str, locales: tuple[str, ...], config_path: Path | None) -> None:
    """Print an entry as a Markdown page, for reviewers (`import --from markdown` reads it back)."""
    try:
        config = _config(config_path, None)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    path = _find_entry(target, config).absolute()
    loaded = load(path, display_path(path), config.max_file_bytes)
    if isinstance(loaded, LoadFailure):
        raise CommandError(f"{loaded.path}:{loaded.line}:{loaded.col}: {loaded.message}")
    shown = list(locales) or list(config.settings.get("translation", {}).get("required", []))
    click.echo(render_entry(loaded.data, shown), nl=False)


def main() -> None:
    """Console entry point; the only place that exits the process."""
    try:
        cli.main(prog_name="entrykit")
    except Exception as exc:  # an entrykit bug: say so in one line, exit 2
        click.echo(f"entrykit: internal error: {type(exc).__name__}: {exc}", err=True)
        if os.environ.get("ENTRYKIT_DEBUG"):
            raise
        sys.exit(ExitCode.ERROR)
