"""`entrykit lint`: check entries and report, or apply and show safe fixes."""

from __future__ import annotations

import gc
import io
import os
import sys
from collections.abc import Sequence
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
from entrykit.cli.terminal import Progress, color_enabled
from entrykit.config import Config
from entrykit.diagnostic import Diagnostic, Severity, tally
from entrykit.errors import EntrykitError
from entrykit.lint import baseline as baselines
from entrykit.lint.engine import LintResult, default_jobs
from entrykit.lint.engine import lint as run_lint
from entrykit.lint.reporters import REPORTERS, ReportOptions, statistics, summary_line, summary_style
from entrykit.output_safety import escape, escape_lines
from entrykit.targets import inside_corpus, project_folder, work_tree_top, write_scope
from entrykit.writing import WriteRefused, write_files

if TYPE_CHECKING:
    from entrykit.lint.fixer import FixResult


def _split_codes(values: tuple[str, ...]) -> list[str]:
    return [code for value in values for code in value.split(",") if code.strip()]


def _output_format(name: str) -> str:
    if name == "auto":
        return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    return name


def _output_files(values: tuple[str, ...]) -> list[tuple[str, Path]]:
    """`FORMAT=PATH` pairs of --output-file."""
    files = []
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not path or name not in REPORTERS:
            raise click.BadParameter(
                f"`{value}` is not FORMAT=PATH with FORMAT one of {', '.join(REPORTERS)}", param_hint="--output-file"
            )
        files.append((name, Path(path)))
    return files


def repository_root(config: Config) -> Path:
    """The folder SARIF paths are relative to: the nearest one above the project holding
    `.git` (a repository's root), else the project's own folder."""
    return work_tree_top(config.base) or config.base


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
@click.option(
    "--output-file",
    "output_files",
    multiple=True,
    metavar="FORMAT=PATH",
    help="Also write the report in FORMAT to PATH (repeatable): `--output-file sarif=entrykit.sarif`.",
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
    "--quiet",
    "-q",
    count=True,
    help="Print only the findings (-q), or nothing but errors (-qq: the exit status tells).",
)
@config_option
@root_option
@click.option("--fix", "apply_fixes", is_flag=True, help="Apply safe fixes in place, then report what remains.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the safe fixes as a unified diff; write nothing.")
@click.option(
    "--force-exclude",
    is_flag=True,
    help="Skip named files outside the corpus root (or not entries) without a word, as hooks need.",
)
@click.option(
    "--baseline",
    "baseline_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Report only findings this baseline file does not hold.",
)
@click.option(
    "--write-baseline",
    "write_baseline_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Record today's findings in this baseline file, and exit 0.",
)
@click.option(
    "--add-suppressions",
    is_flag=True,
    help="Write `# entrykit: disable=CODE` comments that silence today's findings in YAML entries.",
)
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
    output_files: tuple[str, ...],
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    strict: bool,
    exit_zero: bool,
    today: datetime | None,
    show_statistics: bool,
    quiet: int,
    config_path: Path | None,
    root: Path | None,
    apply_fixes: bool,
    show_diff: bool,
    force_exclude: bool,
    baseline_path: Path | None,
    write_baseline_path: Path | None,
    add_suppressions: bool,
    jobs: int | None,
    no_cache: bool,
    cache_dir: Path | None,
) -> None:
    """Check entries (default: the corpus root from config, `entries/`).

    Files named inside the corpus root (as pre-commit passes them) are checked against
    the whole corpus, which is read from the cache where it has not changed.
    """
    name = _output_format(output_format)
    extra_outputs = _output_files(output_files)
    if add_suppressions and (apply_fixes or show_diff):
        raise CommandError("--add-suppressions cannot be combined with --fix or --diff")
    # Written as it is produced: the report of a large corpus is hundreds of megabytes.
    out = sys.stdout
    ctx = click.get_current_context()
    try:
        config = command_config(config_path, root).with_selection(_split_codes(select), _split_codes(ignore))
        if force_exclude and paths:
            paths = tuple(inside_corpus(paths, config))
            if not paths:  # every named file is someone else's: nothing to check, nothing to say
                ctx.exit(int(ExitCode.CLEAN))
        known = baselines.read(baseline_path) if baseline_path is not None else None
        day = today.date() if today else date.today()
        if show_diff or apply_fixes:
            result = _fix(paths, config, day, show_diff, quiet, out if name == "text" else None)
        else:
            with_summaries = baseline_path is not None or write_baseline_path is not None
            result = _check(paths, config, day, quiet, not no_cache, cache_dir, jobs, with_summaries)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    if write_baseline_path is not None:
        _write_baseline(write_baseline_path, result, config, quiet)
        ctx.exit(int(ExitCode.CLEAN))
    diagnostics = result.diagnostics
    if known is not None:
        diagnostics = _against_baseline(result, config, known, whole_corpus=not paths, quiet=quiet)
    if add_suppressions:
        ctx.exit(int(_add_suppressions(diagnostics, result, config, quiet, write_scope(paths, config))))
    options = ReportOptions(color=name == "text" and color_enabled(out), cwd=Path.cwd(), base=repository_root(config))
    _write_output_files(extra_outputs, diagnostics, len(result.files), options, project_folder(config, Path.cwd()))
    if quiet < 2:
        _report(name, diagnostics, len(result.files), out, options, show_statistics, summary=not quiet)
    out.flush()
    counts = tally(diagnostics).severities
    failing = counts[Severity.ERROR] + (counts[Severity.WARNING] if strict else 0)
    code = ExitCode.FINDINGS if failing and not exit_zero else ExitCode.CLEAN
    ctx.exit(int(code))


def _fix(
    paths: tuple[Path, ...], config: Config, day: date, show_diff: bool, quiet: int, fixes_out: TextIO | None
) -> LintResult:
    """Apply the safe fixes and return what remains to report; with `show_diff`, print
    them as a diff and exit without writing."""
    # the round-trip editor (ruamel.yaml) is loaded only by a run that fixes
    from entrykit.lint import fixer

    fixed = fixer.fix(list(paths) or None, config, day)
    for shown, why in sorted(fixed.skipped.items()):
        click.echo(f"entrykit: {escape(shown)} not fixed: {escape(why)}", err=True)
    if show_diff:
        if quiet < 2:
            click.echo(escape_lines(fixed.diff()), nl=False)
        click.get_current_context().exit(int(ExitCode.FINDINGS if fixed.changed else ExitCode.CLEAN))
    try:
        write_files(
            {path: fixed.texts[path] for path in fixed.changed}, within=write_scope(paths, config), read=fixed.originals
        )
    except OSError as exc:
        raise CommandError(f"{write_failure(exc)}; no file was changed") from None
    if not quiet:
        _report_fixes(fixed, fixes_out)
    return fixed.remaining


def _check(
    paths: tuple[Path, ...],
    config: Config,
    day: date,
    quiet: int,
    use_cache: bool,
    cache_dir: Path | None,
    jobs: int | None,
    with_summaries: bool,
) -> LintResult:
    """Lint `paths` (default: the corpus) with progress on standard error, and warn of the run's notes."""
    with Progress.on_stderr(quiet=bool(quiet)) as progress:
        result = run_lint(
            list(paths) or None,
            config,
            day,
            use_cache=use_cache,
            cache_dir=cache_dir,
            jobs=jobs or default_jobs(),
            progress=progress,
            with_summaries=with_summaries,
            # What the run reads from the cache lives as long as this process: the
            # collector need not walk it (as with what imports made: `cli.settle_memory`).
            settle=gc.freeze,
        )
    for note in result.notes:
        click.echo(f"entrykit: warning: {escape(note)}", err=True)
    return result


def _report(
    name: str,
    diagnostics: Sequence[Diagnostic],
    files: int,
    out: TextIO,
    options: ReportOptions,
    show_statistics: bool,
    summary: bool,
) -> None:
    """The report in format `name`, then the statistics and the text summary line if asked."""
    REPORTERS[name](diagnostics, registry.all_rules(), out, options)
    if show_statistics:
        statistics(diagnostics, out)
    if name == "text" and summary:
        line = summary_line(diagnostics, files)
        out.write((click.style(line, **summary_style(diagnostics)) if options.color else line) + "\n")


def _write_output_files(
    outputs: list[tuple[str, Path]], diagnostics: Sequence[Diagnostic], files: int, options: ReportOptions, project: Path
) -> None:
    """Each --output-file report, written atomically (all of them or none). A report named
    inside the project is not written through a symbolic link that leads out of it: a link
    a checkout holds where the report goes (`entrykit.sarif`) would send it anywhere."""
    if not outputs:
        return
    plain = ReportOptions(color=False, cwd=options.cwd, base=options.base)
    texts: dict[Path, str] = {}
    for name, path in outputs:
        stream = io.StringIO()
        REPORTERS[name](diagnostics, registry.all_rules(), stream, plain)
        if name == "text":
            stream.write(summary_line(diagnostics, files) + "\n")
        texts[path] = stream.getvalue()
    try:
        write_files(texts, within=project)
    except OSError as exc:
        raise CommandError(f"{write_failure(exc)}; no report file was written") from None
    except WriteRefused as exc:
        raise CommandError(str(exc)) from None


def _names(result: LintResult, config: Config) -> dict[str, str]:
    """How a baseline knows each file reported on: its entry's id, else its path."""
    ids: dict[str, str | None] = {shown: None for shown in result.files}
    ids.update({entry.path: entry.id for entry in result.entries})
    return baselines.entry_names(ids, config.root, Path.cwd())


def _write_baseline(path: Path, result: LintResult, config: Config, quiet: int) -> None:
    keys = baselines.keys(result.diagnostics, _names(result, config))
    try:
        # (as the reports: see above)
        write_files({path: baselines.render(keys)}, within=project_folder(config, Path.cwd()))
    except OSError as exc:
        raise CommandError(f"{write_failure(exc)}; the baseline was not written") from None
    except WriteRefused as exc:
        raise CommandError(str(exc)) from None
    if quiet < 2:
        entries = len({k.entry for k in keys})
        click.echo(
            f"Wrote a baseline of {len(keys)} finding{'s' * (len(keys) != 1)} "
            f"in {entries} entr{'ies' if entries != 1 else 'y'} to {escape(str(path))}.",
            err=True,
        )


def _against_baseline(
    result: LintResult, config: Config, known: baselines.Counter[baselines.Key], whole_corpus: bool, quiet: int
) -> list[Diagnostic]:
    """The diagnostics the baseline does not hold; a note of what it covered (and, after a
    run over the whole corpus, of what it holds that is gone) on standard error."""
    keys = baselines.keys(result.diagnostics, _names(result, config))
    comparison = baselines.compare(result.diagnostics, keys, known)
    if not quiet and comparison.known:
        gone = sum(comparison.gone.values()) if whole_corpus else 0
        note = f"{comparison.known} finding{'s' * (comparison.known != 1)} in the baseline not shown"
        if gone:
            note += f"; {gone} in the baseline no longer occur (--write-baseline drops them)"
        click.echo(f"entrykit: {note}.", err=True)
    return comparison.new


def _add_suppressions(
    diagnostics: Sequence[Diagnostic], result: LintResult, config: Config, quiet: int, scope: Sequence[Path]
) -> ExitCode:
    """Write suppressions for `diagnostics`; advise per-file-ignores for JSON entries."""
    from entrykit.lint.suppression_edits import plan_suppressions

    where = {entry.path: entry.abspath for entry in result.entries}
    files: dict[str, tuple[Path, str]] = {}
    for shown in {d.path for d in diagnostics}:
        if shown in where:
            try:
                files[shown] = (where[shown], where[shown].read_bytes().decode("utf-8"))
            except (OSError, UnicodeDecodeError):
                continue
    edits = plan_suppressions(diagnostics, files)
    try:
        write_files(edits.texts, within=scope, read={path: text for path, text in files.values()})
    except OSError as exc:
        raise CommandError(f"{write_failure(exc)}; no file was changed") from None
    for shown, line, why in edits.skipped:
        click.echo(f"entrykit: {escape(shown)}:{line}: not suppressed: {why}", err=True)
    if edits.json_codes and quiet < 2:
        click.echo("JSON entries hold no comments; to silence their findings, add to pyproject.toml:")
        click.echo("[tool.entrykit.per-file-ignores]")
        for shown, codes in sorted(edits.json_codes.items()):
            path = files[shown][0]
            try:
                shown_in_config = path.relative_to(config.base).as_posix()
            except ValueError:
                shown_in_config = path.as_posix()
            listed = ", ".join(f'"{c}"' for c in sorted(codes))
            click.echo(escape(f'"{_toml_string(shown_in_config)}" = [{listed}]'))
    if not quiet:
        count, changed = edits.count, len(edits.texts)
        click.echo(f"Added {count} suppression{'s' * (count != 1)} to {changed} file{'s' * (changed != 1)}.")
    left = bool(edits.skipped) or bool(edits.json_codes)
    return ExitCode.FINDINGS if left else ExitCode.CLEAN


def _toml_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _report_fixes(fixed: FixResult, out: TextIO | None) -> None:
    """What --fix changed: on stdout before text output, on stderr beside machine formats."""
    lines = [escape(str(applied)) for applied in fixed.applied]
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
