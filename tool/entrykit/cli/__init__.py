"""The `entrykit` command line: parse options, call the library, print, exit."""

from __future__ import annotations

import enum
import gc
import importlib.util
import io
import json
import os
import re
import sys
import time
from collections import Counter
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from .. import docs, dupes, locales, registry
from ..config import Config, load_config
from ..corpus import Corpus
from ..coverage import coverage, load_entries
from ..coverage_formats import FORMATTERS
from ..diagnostic import Severity
from ..engine import default_jobs
from ..engine import lint as run_lint
from ..engine import load_plan
from ..entry import Entry
from ..errors import EntrykitError, UsageError
from ..fingerprints import mark_current
from ..loader import LoadFailure, decode, discover, display_path, load, read_entry_bytes
from ..parsing import parse_json
from ..matching import settings_flags
from ..paths import entry_path, is_valid_id
from ..regex_runner import RegexSettings
from ..reporters import REPORTERS, statistics, summary_line
from ..schema import load_schema
from ..translated import Settings
from ..writing import WriteRefused, atomic_write, write_files


def _deferred(name: str) -> Any:
    """The module `entrykit.<name>`, executed on first attribute access (the standard
    library's `LazyLoader`): `entrykit lint` never pays to import the other commands' code."""
    full = f"entrykit.{name}"
    if full in sys.modules:
        return sys.modules[full]
    spec = importlib.util.find_spec(full)
    assert spec is not None and spec.loader is not None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[full] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    from .. import fixer, formatter, lookup, merge, merge_apply, regex_suggest, render, scaffold
    from ..importers import deadends, markdown
else:
    fixer, formatter, lookup, merge, merge_apply, regex_suggest, render, scaffold = (
        _deferred(name)
        for name in ("fixer", "formatter", "lookup", "merge", "merge_apply", "regex_suggest", "render", "scaffold")
    )
    deadends, markdown = _deferred("importers.deadends"), _deferred("importers.markdown")


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
        config = replace(config, root=Path(os.path.realpath(root)))
    return config


def _output_format(name: str) -> str:
    if name == "auto":
        return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    return name


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="entrykit", prog_name="entrykit")
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
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Processes that check files when there are many (default: all cores).",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write `.entrykit_cache/` in the corpus root.")
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
) -> None:
    """Check entries (default: the corpus root from config, `entries/`).

    Files named inside the corpus root (as pre-commit passes them) are checked against
    the whole corpus, which is read from the cache where it has not changed.
    """
    name = _output_format(output_format)
    # Written as it is produced: the report of a large corpus is hundreds of megabytes.
    out = sys.stdout
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
            write_files({path: fixed.texts[path] for path in fixed.changed})
            _report_fixes(fixed, out if name == "text" else None)
            result = fixed.remaining
        else:
            result = run_lint(
                list(paths) or None, config, day, use_cache=not no_cache, jobs=jobs or default_jobs()
            )
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"{_write_failure(exc)}; no file was changed") from None
    REPORTERS[name](result.diagnostics, registry.all_rules(), out)
    if show_statistics:
        statistics(result.diagnostics, out)
    if name == "text":
        out.write(summary_line(result.diagnostics, len(result.files)) + "\n")
    out.flush()
    failing = result.count(Severity.ERROR) + (result.count(Severity.WARNING) if strict else 0)
    code = ExitCode.FINDINGS if failing and not exit_zero else ExitCode.CLEAN
    click.get_current_context().exit(int(code))


def _write_failure(exc: OSError) -> str:
    where = f" {exc.filename}" if exc.filename else ""
    return f"cannot write{where}: {exc.strerror or exc}"


def _report_fixes(fixed: fixer.FixResult, out: TextIO | None) -> None:
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
    marked = 0
    texts: dict[Path, str] = {}
    lines: list[str] = []
    for entry in entries:
        result = mark_current(entry, settings, only_locales or None)
        problems += [f"{entry.path}: `{key}` not marked: it {why}" for key, why in result.skipped]
        if result.changed:
            texts[entry.abspath] = result.text
            marked += len(result.marked)
            if result.marked:
                lines.append(f"{entry.path}: marked {', '.join(result.marked)} current")
    try:
        write_files(texts)
    except OSError as exc:
        raise CommandError(f"{_write_failure(exc)}; no file was changed") from None
    changed = len(texts)
    for line in lines:
        click.echo(line)
    for problem in problems:
        click.echo(f"entrykit: {problem}", err=True)
    noun = "translation" if marked == 1 else "translations"
    click.echo(f"Marked {marked} {noun} current in {changed} of {len(entries)} files.")
    code = ExitCode.FINDINGS if problems else ExitCode.CLEAN
    click.get_current_context().exit(int(code))


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
    texts: dict[Path, str] = {}
    failed = 0
    files = _entry_files(paths, config)
    for path in files:
        shown = display_path(path)
        result = formatter.format_file(path, schema, config.limits, config.root)
        if result.error is not None:
            failed += 1
            err = result.error
            click.echo(f"{shown}:{err.line}:{err.col}: cannot format: {err}", err=True)
            continue
        if not result.changed:
            continue
        changed.append(shown)
        if show_diff:
            click.echo(formatter.unified_diff(result, shown), nl=False)
        if check:
            click.echo(f"would reformat {shown}")
        elif not show_diff:
            assert result.formatted is not None
            texts[path] = result.formatted
    try:
        write_files(texts)  # every file or none
    except OSError as exc:
        raise CommandError(f"{_write_failure(exc)}; no file was changed") from None
    for path in texts:
        click.echo(f"reformatted {display_path(path)}")
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
    return Path(os.path.relpath(os.path.realpath(schema), os.path.realpath(target.parent))).as_posix()


def _entry_file(root: Path, entry: dict[str, Any], config: Config, fmt: str) -> tuple[Path, str]:
    """Where a new entry goes below `root` (the path its id names; UsageError for an
    unsafe id) and its text."""
    target = entry_path(root, str(entry.get("id", "")), ".json" if fmt == "json" else ".yaml")
    return target, formatter.dump_entry(entry, fmt, _schema_ref(target, config) if fmt == "yaml" else None)


def _write_entry(
    root: Path, entry: dict[str, Any], config: Config, fmt: str, overwrite: bool
) -> Path:
    """Write one new entry below `root` at the path its id names; WriteRefused if it exists."""
    target, text = _entry_file(root, entry, config, fmt)
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
        imported, problems = deadends.import_canons(paths, config.limits)
    else:
        imported, problems = markdown.import_pages(paths, config.limits)
    for problem in problems:
        click.echo(f"{display_path(problem.source.absolute())}:{problem.line}:{problem.col}: {problem.message}", err=True)
    refused = 0
    texts: dict[Path, str] = {}
    unmapped: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    for item in imported:
        shown = display_path(item.source.absolute())
        try:
            target, text = _entry_file(root, item.entry, config, out_format)
        except EntrykitError as exc:  # an id that is no safe path: nothing is touched
            click.echo(f"{shown}: {exc}", err=True)
            refused += 1
        else:
            if target in texts or (target.exists() and not force):
                refused += 1
                click.echo(f"{shown}: `{item.entry['id']}` exists in {display_path(root)}; not overwritten (use --force)", err=True)
            else:
                texts[target] = text
        unmapped.update({deadends.generalise(f) for f in item.unmapped})
        notes.update(item.notes)
        if verbose and (item.unmapped or item.notes):
            click.echo(f"{shown} -> {item.entry['id']}")
            for field_path in item.unmapped:
                click.echo(f"  not carried over: {field_path}")
            for note in item.notes:
                click.echo(f"  changed: {note}")
    try:
        write_files(texts, overwrite=force)  # every entry or none
    except (OSError, WriteRefused) as exc:
        reason = _write_failure(exc) if isinstance(exc, OSError) else str(exc)
        raise CommandError(f"{reason}; no entry was written") from None
    written = len(texts)
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
    loaded = load(path, display_path(path), config.limits, within=config.root)
    if isinstance(loaded, LoadFailure):
        raise CommandError(f"{loaded.path}:{loaded.line}:{loaded.col}: {loaded.message}")
    shown = list(locales) or list(config.settings.get("translation", {}).get("required", []))
    click.echo(render.render_entry(loaded.data, shown), nl=False)


def _load_corpus(config: Config) -> list[Entry]:
    if not config.root.is_dir():
        return []
    loaded = (load(p, display_path(p), config.limits, within=config.root) for p in discover([config.root]))
    return [entry for entry in loaded if isinstance(entry, Entry)]


def _ask_rate(label: str, default: float | None = None) -> float:
    while True:
        text = click.prompt(label, default=None if default is None else str(default))
        try:
            return scaffold.parse_rate(text)
        except ValueError:
            click.echo(f"  `{text}` is not a rate: give 0.8 or 80%")


def _ask_required(label: str, default: str | None = None) -> str:
    while True:
        value = click.prompt(label, default=default or None).strip()
        if value:
            return value


def _ask_optional(label: str, default: str = "") -> str:
    return str(click.prompt(label, default=default, show_default=bool(default))).strip()


def _read_message(default: str | None) -> str:
    """The pasted error output: lines up to the first empty line."""
    if default:
        return _ask_required("Error message", default)
    click.echo("Paste the error message (a traceback is fine), then an empty line:")
    lines: list[str] = []
    while True:
        line = click.prompt("", default="", show_default=False, prompt_suffix="")
        if not line.strip():
            if lines:
                return "\n".join(lines)
            continue
        lines.append(line)


def _show_matches(found: list[Entry]) -> None:
    click.echo("Already in the corpus (their regex matches this message):")
    for entry in found:
        click.echo(f"  {entry.id}  ({entry.path})")


def _on_match_interactive(found: list[Entry]) -> tuple[str, Entry | None]:
    _show_matches(found)
    choice = click.prompt(
        "[s]top, add it as an [e]xample of an existing entry, or [c]ontinue with a new entry",
        type=click.Choice(["s", "e", "c"]), default="s",
    )
    if choice != "e":
        return {"s": "stop", "c": "continue"}[choice], None
    if len(found) == 1:
        return "example", found[0]
    ids = [str(e.id) for e in found]
    chosen = click.prompt("Which entry", type=click.Choice(ids), default=ids[0])
    return "example", found[ids.index(chosen)]


def _add_as_example(entry: Entry, message: str) -> None:
    text = scaffold.add_example(entry.text, entry.fmt, message)
    atomic_write(entry.abspath, text)
    click.echo(f"added the message to the examples of {entry.id} ({entry.path})")


def _interactive_answers(
    start: dict[str, Any], config: Config, corpus: list[Entry], today: date
) -> scaffold.Answers:
    """Ask for every field, with `start` (from --from and options) as defaults."""
    regex_settings = config.settings.get("regex", {})
    domains = Corpus(corpus).domains()
    signature = start.get("signature") or scaffold.pick_signature(_read_message(None))
    signature = _ask_required("Signature (the line that states the error)", signature)
    found = scaffold.entries_matching(signature, corpus, regex_settings)
    if found:
        action, target = _on_match_interactive(found)
        if action == "stop":
            raise _Stopped("nothing written: the error is already in the corpus")
        if action == "example" and target is not None:
            raise _AddExample(target, signature)
    else:
        click.echo("No entry in the corpus matches this message yet.")
    if domains:
        click.echo(f"Domains in the corpus: {', '.join(domains)}")
    guessed = start.get("id", "").split("/")[0] if start.get("id") else scaffold.guess_domain(signature, domains)
    while True:
        domain = _ask_required("Domain", guessed)
        if scaffold.SEGMENT.fullmatch(domain):
            break
        click.echo("  a domain is lowercase letters and digits joined by `-`, `_` or `.`")
    taken = {str(e.id) for e in corpus if e.id}
    suggested = start.get("id") or scaffold.unique_id(domain, scaffold.suggest_slug(signature), taken)
    while True:
        entry_id = _ask_required("Id", suggested)
        if not is_valid_id(entry_id) or not entry_id.startswith(domain + "/"):
            click.echo(f"  an id is `{domain}/<slug>` in lowercase letters, digits, `-`, `_`, `.`")
        elif entry_id in taken:
            click.echo(f"  `{entry_id}` is taken")
        else:
            break
    categories = scaffold.corpus_categories(corpus, domain)
    if categories:
        click.echo(f"Categories in the corpus: {', '.join(categories)}")
    while True:
        category = _ask_required("Category", start.get("category") or (categories[0] if categories else "runtime_error"))
        if re.fullmatch(r"[a-z][a-z0-9_]*", category):
            break
        click.echo("  a category is snake_case")
    regex = start.get("regex") or scaffold.suggested_regex(signature)
    while True:
        check = scaffold.check_regex(regex, signature, regex_settings)
        if check.error:
            click.echo(f"  does not compile: {check.error}")
        elif not check.ok:
            click.echo("  does not match the signature")
        else:
            click.echo(f"  matches: {check.matched}")
            others = scaffold.signatures_matched(regex, corpus, regex_settings)
            if others:
                click.echo(f"  also matches the signature of: {', '.join(str(o) for o in others)}")
        answer = _ask_required("Regex", regex)
        if answer == regex and check.ok:
            break
        regex = answer
    root_cause = _ask_required("Root cause (why it happens)", start.get("root_cause"))
    dead_ends = list(start.get("dead_ends", []))
    click.echo("Dead ends: what people try that does not fix it (empty action to finish).")
    while True:
        action = _ask_optional(f"Dead end {len(dead_ends) + 1}")
        if not action:
            break
        why = _ask_required("  Why does it fail")
        dead_ends.append({"action": action, "why_fails": why, "fail_rate": _ask_rate("  Fail rate (0-1 or %)")})
    workarounds = list(start.get("workarounds", []))
    click.echo("Workarounds: what does fix it (empty action to finish).")
    while True:
        action = _ask_optional(f"Workaround {len(workarounds) + 1}")
        if not action:
            break
        item: dict[str, Any] = {"action": action, "success_rate": _ask_rate("  Success rate (0-1 or %)")}
        how = _ask_optional("  How, step by step (optional)")
        if how:
            item["how"] = how
        workarounds.append(item)
    versions = [row.get("version", "") for row in start.get("versions", []) if isinstance(row, dict)]
    click.echo("Versions it applies to, one `<package><specifier>` row each (empty to finish).")
    while True:
        row = _ask_optional(f"Version row {len(versions) + 1}")
        if not row:
            break
        versions.append(row)
        click.echo(f"  -> {scaffold.version_row(row)['version']}")
    translations = {k: v for k, v in start.items() if re.match(r"^(signature|root_cause|workarounds|dead_ends)_", k) and k != "root_cause_type"}
    for locale in config.settings.get("translation", {}).get("required", []):
        click.echo(f"Translations into `{locale}` (empty: leave it for a translator; lint will say it is missing).")
        for field_name, source in (("signature", signature), ("root_cause", root_cause)):
            key = f"{field_name}_{locale}"
            value = _ask_optional(f"{field_name} ({locale}) for: {source}", translations.get(key, ""))
            translations[key] = value
        steps = []
        for item in workarounds:
            steps.append(_ask_optional(f"workaround ({locale}) for: {item['action']}"))
        translations[f"workarounds_{locale}"] = steps if all(steps) else []
    evidence = click.prompt("Evidence count (independent reports)", default=int(start.get("evidence_count", 1)), type=click.IntRange(0))
    confidence = _ask_rate("Confidence that the root cause is right (0-1)", start.get("confidence", 0.7))
    first_seen = click.prompt("First seen (YYYY-MM-DD)", default=str(start.get("first_seen", today.isoformat())), type=click.DateTime(["%Y-%m-%d"]))
    confirmed = click.prompt("Last confirmed (YYYY-MM-DD)", default=str(start.get("last_confirmed", today.isoformat())), type=click.DateTime(["%Y-%m-%d"]))
    return scaffold.Answers(
        signature=signature, entry_id=entry_id, category=category, regex=regex, root_cause=root_cause,
        dead_ends=dead_ends, workarounds=workarounds, versions=versions, translations=translations,
        first_seen=first_seen.date(), last_confirmed=confirmed.date(), evidence_count=evidence,
        confidence=confidence, extra=_extra_fields(start),
    )


_ANSWERED = {
    "id", "signature", "regex", "domain", "category", "root_cause", "dead_ends", "workarounds", "versions",
    "first_seen", "last_confirmed", "last_updated", "evidence_count", "confidence", "fix_success_rate", "resolvable",
}


def _extra_fields(start: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in start.items() if k not in _ANSWERED and not re.match(r"^(signature|root_cause|workarounds|dead_ends)_(?!type$)", k)}


class _Stopped(Exception):
    """The contributor chose not to write a new entry."""


class _AddExample(Exception):
    def __init__(self, target: Entry, message: str) -> None:
        super().__init__(message)
        self.target = target
        self.message = message


def _json_object(path: Path, config: Config) -> Any:
    """The JSON in `path`, read as the loader reads entries (a regular file within the limits)."""
    raw = read_entry_bytes(path, config.max_file_bytes)
    if isinstance(raw, str):
        raise CommandError(f"cannot read {path}: {raw}")
    text, problem = decode(raw)
    if text is None:
        line, col, message = problem or (1, 1, "cannot decode file")
        raise CommandError(f"cannot read {path}:{line}:{col}: {message}")
    parsed = parse_json(text, config.max_nesting)
    if parsed.problem is not None:
        found = parsed.problem
        raise CommandError(f"cannot read {path}:{found.line}:{found.col}: {found.message}")
    return parsed.data


def _split_option(value: str, parts: int, what: str) -> list[str]:
    pieces = [p.strip() for p in value.split("|")]
    if len(pieces) < parts - 1 or len(pieces) > parts:
        raise CommandError(f"{what} `{value}` is not `{' | '.join(['…'] * parts)}`")
    return pieces + [""] * (parts - len(pieces))


def _scripted_answers(start: dict[str, Any], config: Config, corpus: list[Entry], today: date) -> scaffold.Answers:
    """Answers from --from and options alone (--no-input): defaults where sensible, else an error."""
    signature = start.get("signature")
    if not signature:
        raise CommandError("--no-input needs --signature (or `signature` in --from)")
    root_cause = start.get("root_cause")
    if not root_cause:
        raise CommandError("--no-input needs --root-cause (or `root_cause` in --from)")
    domains = Corpus(corpus).domains()
    entry_id = start.get("id")
    if not entry_id:
        domain = start.get("domain") or scaffold.guess_domain(signature, domains)
        if not domain:
            raise CommandError("cannot tell the domain from the message; give --id or --domain")
        entry_id = scaffold.unique_id(domain, scaffold.suggest_slug(signature), {str(e.id) for e in corpus if e.id})
    domain = entry_id.split("/")[0]
    category = start.get("category")
    if not category:
        categories = scaffold.corpus_categories(corpus, domain)
        if not categories:
            raise CommandError("give --category (the corpus has none to default to)")
        category = categories[0]
    regex = start.get("regex") or scaffold.suggested_regex(signature)
    def day(key: str) -> date | None:
        value = start.get(key)
        return date.fromisoformat(value) if isinstance(value, str) else None
    return scaffold.Answers(
        signature=signature, entry_id=entry_id, category=category, regex=regex, root_cause=root_cause,
        dead_ends=list(start.get("dead_ends", [])), workarounds=list(start.get("workarounds", [])),
        versions=[r["version"] if isinstance(r, dict) else str(r) for r in start.get("versions", [])],
        translations={k: v for k, v in start.items() if re.match(r"^(signature|root_cause|workarounds|dead_ends)_(?!type$)", k)},
        first_seen=day("first_seen"), last_confirmed=day("last_confirmed"),
        evidence_count=int(start.get("evidence_count", 1)), confidence=start.get("confidence"),
        fix_success_rate=start.get("fix_success_rate"), extra=_extra_fields(start),
    )


_FROM_TYPES: dict[str, type] = {
    **{key: str for key in ("signature", "id", "domain", "category", "regex", "root_cause",
                            "first_seen", "last_confirmed")},
    **{key: list for key in ("dead_ends", "workarounds", "versions")},
}


@cli.command("new")
@click.option("--no-input", is_flag=True, help="Ask nothing: take every answer from options and --from.")
@click.option("--from", "from_file", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              help="A JSON object of entry fields: answers (with --no-input) or defaults for the prompts.")
@click.option("--signature", help="The error message, verbatim.")
@click.option("--id", "entry_id", help="`<domain>/<slug>` (default: suggested from the message).")
@click.option("--domain", help="The domain, when --id is not given.")
@click.option("--category", help="snake_case kind of error (default: the corpus's most used in the domain).")
@click.option("--regex", help="Default: derived from the message.")
@click.option("--root-cause", help="Why the error happens.")
@click.option("--dead-end", "dead_ends", multiple=True, metavar="ACTION | WHY | RATE", help="Repeatable.")
@click.option("--workaround", "workarounds", multiple=True, metavar="ACTION | RATE [| HOW]", help="Repeatable.")
@click.option("--version", "versions", multiple=True, metavar="ROW", help="`<package><specifier>`; repeatable.")
@click.option("--translation", "translations", multiple=True, metavar="FIELD_LOCALE=TEXT",
              help="e.g. `signature_zh=…`; `workarounds_zh=…` repeated, one per workaround.")
@click.option("--on-match", type=click.Choice(["stop", "example", "continue"]), default="stop", show_default=True,
              help="With --no-input, when an entry already matches the message.")
@click.option("--force", is_flag=True, help="Overwrite the entry's file if it exists (default: refuse).")
@click.option("--today", type=click.DateTime(formats=["%Y-%m-%d"]), help="Date to treat as today (YYYY-MM-DD).")
@click.option("--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="pyproject.toml to read.")
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), help="Corpus root (overrides config).")
def new_command(
    no_input: bool, from_file: Path | None, signature: str | None, entry_id: str | None, domain: str | None,
    category: str | None, regex: str | None, root_cause: str | None, dead_ends: tuple[str, ...],
    workarounds: tuple[str, ...], versions: tuple[str, ...], translations: tuple[str, ...], on_match: str,
    force: bool, today: datetime | None, config_path: Path | None, root: Path | None,
) -> None:
    """Write a new entry: paste the error, see what already matches, answer a few questions.

    Writes `<root>/<domain>/<slug>.yaml`, lints it and shows the result. Ctrl-C or
    EOF at any prompt writes nothing.
    """
    try:
        config = _config(config_path, root)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    day = today.date() if today else date.today()
    start: dict[str, Any] = {}
    if from_file is not None:
        start = _json_object(from_file, config)
        if not isinstance(start, dict):
            raise CommandError(f"{from_file} must hold a JSON object of entry fields")
        for key, kind in _FROM_TYPES.items():
            if key in start and not isinstance(start[key], kind):
                raise CommandError(f"{from_file}: `{key}` must be a {'list' if kind is list else 'string'}")
    given = {"signature": signature, "id": entry_id, "domain": domain, "category": category, "regex": regex,
             "root_cause": root_cause}
    start.update({k: v for k, v in given.items() if v})
    for value in dead_ends:
        action, why, rate = _split_option(value, 3, "--dead-end")
        start.setdefault("dead_ends", []).append({"action": action, "why_fails": why, "fail_rate": _rate_option(rate)})
    for value in workarounds:
        action, rate, how = _split_option(value, 3, "--workaround")
        item: dict[str, Any] = {"action": action, "success_rate": _rate_option(rate)}
        if how:
            item["how"] = how
        start.setdefault("workarounds", []).append(item)
    if versions:
        start["versions"] = [{"version": v} for v in versions]
    for value in translations:
        key, sep, text = value.partition("=")
        if not sep or not re.fullmatch(r"(signature|root_cause|workarounds|dead_ends)_[A-Za-z]{2,3}(_[A-Za-z0-9]+)*", key):
            raise CommandError(f"--translation `{value}` is not `<field>_<locale>=TEXT`")
        if key.startswith(("workarounds_", "dead_ends_")):
            start.setdefault(key, []).append(text)
        else:
            start[key] = text
    corpus = _load_corpus(config)
    try:
        if no_input:
            answers = _scripted_answers(start, config, corpus, day)
            found = scaffold.entries_matching(answers.signature, corpus, config.settings.get("regex", {}))
            if found and on_match != "continue":
                if on_match == "example" and len(found) == 1:
                    raise _AddExample(found[0], answers.signature)
                _show_matches(found)
                click.echo("nothing written (--on-match continue writes a new entry anyway)", err=True)
                click.get_current_context().exit(int(ExitCode.FINDINGS))
        else:
            answers = _interactive_answers(start, config, corpus, day)
        data = scaffold.build_entry(answers, day)
        target = entry_path(config.root, answers.entry_id)
        if target.exists() and not force:
            raise CommandError(f"`{display_path(target)}` exists; choose another id (--force overwrites it)")
        if not no_input:
            click.echo(formatter.dump_entry(data, "yaml", _schema_ref(target, config)))
            verb = "Overwrite" if target.exists() else "Write"
            if not click.confirm(f"{verb} {display_path(target)}?", default=True):
                raise _Stopped("nothing written")
        written = _write_entry(config.root, data, config, "yaml", overwrite=force)
    except click.Abort:
        click.echo("\naborted; nothing written", err=True)
        click.get_current_context().exit(int(ExitCode.ERROR))
    except _Stopped as exc:
        click.echo(str(exc))
        return
    except _AddExample as exc:
        try:
            _add_as_example(exc.target, exc.message)
        except OSError as error:
            raise CommandError(f"{_write_failure(error)}; no file was changed") from None
        return
    except (ValueError, EntrykitError) as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"{_write_failure(exc)}; nothing written") from None
    click.echo(f"wrote {display_path(written)}")
    result = run_lint([written], config, day)
    out = io.StringIO()
    REPORTERS["text"](result.diagnostics, registry.all_rules(), out)
    out.write(summary_line(result.diagnostics, len(result.files)) + "\n")
    click.echo(out.getvalue(), nl=False)
    if result.count(Severity.ERROR):
        click.get_current_context().exit(int(ExitCode.FINDINGS))


def _rate_option(text: str) -> float:
    try:
        return scaffold.parse_rate(text)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


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
    regex = RegexSettings.of(config.settings.get("regex", {}))
    progress = _Progress(sys.stderr.isatty())
    try:
        matched = dupes.signature_matches(loaded.entries, regex.flags, regex.mode, regex.runner())
        pairs = dupes.find_duplicates(loaded.entries, settings, progress, same_id=True, matched=matched)
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


def _corpus_entries(config: Config) -> list[Entry]:
    """Every entry under the corpus root that loads (none if there is no root)."""
    if not config.root.is_dir():
        return []
    entries = []
    for path in discover([config.root]):
        loaded = load(path, display_path(path), config.limits, within=config.root)
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
    regex = RegexSettings.of(config.settings.get("regex", {}))
    others = None
    if not no_corpus and config.root.is_dir():
        others = [(e.id or e.path, e.str_field("signature") or "") for e in _corpus_entries(config)]
        others = [(name, text) for name, text in others if text and text != signature]
    result = regex_suggest.suggest(signature, regex.flags, regex.mode, regex.runner(), others, regex.polynomial_degree)
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
    regex = RegexSettings.of(config.settings.get("regex", {}))
    found_by = lookup.Lookup(_corpus_entries(config), regex.flags, regex.mode, regex.runner())
    lines = [message] if message != "-" else sys.stdin.read().splitlines()
    report = []
    for number, text in enumerate(lines, start=1):
        if not text.strip() and message == "-":
            continue
        found, slow = found_by.match(text)
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


def _settle_memory() -> None:
    """Keep the cyclic garbage collector off what is already loaded and let it run less often.

    A run over a large corpus makes hundreds of thousands of small, long-lived,
    acyclic objects (cache records, summaries); with the default thresholds the
    collector walks all of them again and again, which cost a third of a warm run
    over 10,000 files. Reference counting still frees everything they hold.
    """
    gc.freeze()  # what imports made: never garbage; forked pool workers share it, too
    gc.set_threshold(50_000, 20, 20)


def main() -> None:
    """Console entry point; the only place that exits the process."""
    _settle_memory()
    try:
        cli.main(prog_name="entrykit")
    except Exception as exc:  # an entrykit bug: say so in one line, exit 2
        click.echo(f"entrykit: internal error: {type(exc).__name__}: {exc}", err=True)
        if os.environ.get("ENTRYKIT_DEBUG"):
            raise
        sys.exit(ExitCode.ERROR)
