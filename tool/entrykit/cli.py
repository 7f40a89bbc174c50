"""The `entrykit` command line: parse options, call the library, print, exit."""

from __future__ import annotations

import enum
import io
import json
import os
import sys
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path

import click

from . import __version__, docs, registry
from .config import Config, load_config
from .engine import lint as run_lint
from .diagnostic import Severity
from .entry import Entry
from .errors import EntrykitError, UsageError
from .loader import discover, display_path, load
from .lookup import Lookup
from .matching import settings_flags
from .regex_runner import shared_runner
from .regex_suggest import suggest
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


def _regex_settings(config: Config) -> tuple[int, str, int, int]:
    """(flags, mode, timeout_ms, polynomial_degree) from the `regex` settings."""
    settings = config.settings.get("regex", {})
    return (
        settings_flags(settings),
        str(settings.get("mode", "search")),
        max(1, int(settings.get("timeout_ms", 100))),
        int(settings.get("polynomial_degree", 3)),
    )


def _corpus_entries(config: Config) -> list[Entry]:
    """Every entry under the corpus root that loads (none if there is no root)."""
    if not config.root.is_dir():
        return []
    entries = []
    for path in discover([config.root]):
        loaded = load(path, display_path(path), config.max_file_bytes)
        if isinstance(loaded, Entry):
            entries.append(loaded)
    return entries


@cli.command("regex")
@click.argument("signature")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--no-corpus", is_flag=True, help="Do not check against the corpus's other entries.")
@click.option("--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read.")
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), help="Corpus root (overrides config).")
def regex_command(signature: str, output_format: str, no_corpus: bool, config_path: Path | None, root: Path | None) -> None:
    """Suggest a regex for SIGNATURE, checked like a lint would check it."""
    try:
        config = _config(config_path, root)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    flags, mode, timeout_ms, degree = _regex_settings(config)
    others = None
    if not no_corpus and config.root.is_dir():
        others = [(e.id or e.path, e.str_field("signature") or "") for e in _corpus_entries(config)]
        others = [(name, text) for name, text in others if text and text != signature]
    result = suggest(signature, flags, mode, shared_runner(timeout_ms), others, degree)
    if output_format == "json":
        data = {
            "regex": result.regex,
            "level": result.level,
            "ok": result.ok,
            "checks": [{"check": c.name, "passed": c.passed, "detail": c.detail} for c in result.checks],
        }
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(result.regex)
        for check in result.checks:
            mark = "ok  " if check.passed else "FAIL"
            click.echo(f"  {mark} {check.name}" + (f": {check.detail}" if check.detail else ""), err=True)
        if others is None:
            click.echo("  --   matches no other entry's signature (ET209): no corpus to check against", err=True)
        if result.level != "general":
            click.echo(f"  (the more general suggestions failed a check; this one is {result.level})", err=True)
    click.get_current_context().exit(int(ExitCode.CLEAN if result.ok else ExitCode.FINDINGS))


@cli.command("match")
@click.argument("message", required=False)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read.")
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), help="Corpus root (overrides config).")
def match_command(message: str | None, output_format: str, config_path: Path | None, root: Path | None) -> None:
    """List the entries whose regex matches MESSAGE (or each line of standard input, with `-`).

    Most specific first: longest literal the regex requires, then fewest other
    signatures it matches. Exit status 0 if something matched, 1 if nothing did.
    """
    if message is None:
        raise CommandError("give a MESSAGE, or `-` to read lines from standard input")
    try:
        config = _config(config_path, root)
        if not config.root.is_dir():
            raise UsageError(f"corpus root `{config.root}` is not a directory; pass --root or set `root`")
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    flags, mode, timeout_ms, _ = _regex_settings(config)
    lookup = Lookup(_corpus_entries(config), flags, mode, shared_runner(timeout_ms))
    lines = [message] if message != "-" else sys.stdin.read().splitlines()
    report = []
    for number, text in enumerate(lines, start=1):
        if not text.strip() and message == "-":
            continue
        found, slow = lookup.match(text)
        report.append((number, text, found, slow))
    if output_format == "json":
        data = [
            {
                "line": number,
                "text": text,
                "matches": [
                    {
                        "id": m.id,
                        "path": m.entry.path,
                        "regex": m.entry.str_field("regex"),
                        "longest_literal": m.longest_literal,
                        "other_matches": m.other_matches,
                    }
                    for m in found
                ],
                "timed_out": [e.id or e.path for e in slow],
            }
            for number, text, found, slow in report
        ]
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        for number, text, found, slow in report:
            if message == "-":
                if not found and not slow:
                    continue
                click.echo(f"line {number}: {text[:120]}")
            for m in found:
                others = f", also matches {m.other_matches} other signatures" if m.other_matches else ""
                click.echo(f"{'  ' if message == '-' else ''}{m.id}  {m.entry.path}  (literal of {m.longest_literal}{others})")
            for entry in slow:
                click.echo(f"{'  ' if message == '-' else ''}{entry.id or entry.path}  {entry.path}  (timed out)")
    matched = any(found for _, _, found, _ in report)
    click.get_current_context().exit(int(ExitCode.CLEAN if matched else ExitCode.FINDINGS))


def main() -> None:
    """Console entry point; the only place that exits the process."""
    try:
        cli.main(prog_name="entrykit")
    except Exception as exc:  # an entrykit bug: say so in one line, exit 2
        click.echo(f"entrykit: internal error: {type(exc).__name__}: {exc}", err=True)
        if os.environ.get("ENTRYKIT_DEBUG"):
            raise
        sys.exit(ExitCode.ERROR)
