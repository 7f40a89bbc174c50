"""`entrykit fmt`: rewrite entries in the canonical layout."""

from __future__ import annotations

from pathlib import Path

import click

from entrykit.authoring import formatter
from entrykit.cli.common import (
    CommandError,
    ExitCode,
    command_config,
    config_option,
    write_failure,
)
from entrykit.cli.terminal import Progress
from entrykit.config import Config
from entrykit.errors import EntrykitError
from entrykit.loader import discover, display_path, given_problem
from entrykit.output_safety import escape, escape_lines
from entrykit.schema import load_schema
from entrykit.targets import as_corpus_files, inside_corpus, write_scope
from entrykit.writing import write_files


def _entry_files(paths: tuple[Path, ...], config: Config) -> list[Path]:
    """The entry files named or found below `paths` (default: the corpus root)."""
    for given in paths:
        problem = given_problem(given)
        if problem is not None:
            raise CommandError(f"`{given}` {problem}")
    if not paths and not config.root.is_dir():
        raise CommandError(f"corpus root `{config.root}` is not a directory; pass paths or set `root`")
    files = list(discover(list(paths) or [config.root]))
    if paths:  # (the root's own discovery names each file once already)
        files = as_corpus_files(files, config.root)
    if not files:
        where = f"corpus root `{config.root}`" if not paths else ", ".join(f"`{p}`" for p in paths)
        raise CommandError(f"{where} holds no entry files (*.yaml, *.yml, *.json)")
    return files


@click.command("fmt")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if some file would change, naming it.")
@click.option("--diff", "show_diff", is_flag=True, help="Write nothing; print what would change as a diff.")
@click.option(
    "--force-exclude",
    is_flag=True,
    help="Skip named files outside the corpus root (or not entries) without a word, as hooks need.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only what would change or could not be formatted.")
@config_option
def fmt_command(
    paths: tuple[Path, ...], check: bool, show_diff: bool, force_exclude: bool, quiet: bool, config_path: Path | None
) -> None:
    """Rewrite entries in the canonical layout (default: the corpus root).

    Keys in schema order (translations after their field), 2-space indent, plain
    scalars where YAML allows them and double quotes elsewhere, a final newline.
    Comments are kept; JSON entries stay JSON.
    """
    try:
        config = command_config(config_path, None)
        schema = load_schema(config.schema)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    if force_exclude and paths:
        paths = tuple(inside_corpus(paths, config))
        if not paths:  # every named file is someone else's: nothing to format, nothing to say
            return
    changed: list[str] = []
    texts: dict[Path, str] = {}
    read: dict[Path, str] = {}  # what each file held when it was read
    failed = 0
    files = _entry_files(paths, config)
    with Progress.on_stderr(quiet) as progress:
        for number, path in enumerate(files, start=1):
            progress("formatting", number - 1, len(files))
            shown = escape(display_path(path))
            result = formatter.format_file(path, schema, config.limits, config.root)
            if result.error is not None:
                failed += 1
                err = result.error
                progress.close()
                click.echo(f"{shown}:{err.line}:{err.col}: cannot format: {escape(str(err))}", err=True)
                continue
            if not result.changed:
                continue
            changed.append(shown)
            if show_diff:
                progress.close()
                click.echo(escape_lines(formatter.unified_diff(result, display_path(path))), nl=False)
            if check:
                progress.close()
                click.echo(f"would reformat {shown}")
            elif not show_diff:
                assert result.formatted is not None
                texts[path] = result.formatted
                read[path] = result.original
    _write(texts, read, paths, config)
    if not quiet:
        click.echo(_summary(len(changed), len(files) - len(changed) - failed, failed, check or show_diff) + ".", err=True)
    if failed:
        click.get_current_context().exit(int(ExitCode.ERROR))
    if changed and (check or show_diff):
        click.get_current_context().exit(int(ExitCode.FINDINGS))


def _write(texts: dict[Path, str], read: dict[Path, str], paths: tuple[Path, ...], config: Config) -> None:
    """Write every reformatted file or none (none if one changed since it was read), and name each."""
    try:
        write_files(texts, within=write_scope(paths, config), read=read)
    except OSError as exc:
        raise CommandError(f"{write_failure(exc)}; no file was changed") from None
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    for path in texts:
        click.echo(f"reformatted {escape(display_path(path))}")


def _summary(changed: int, unchanged: int, failed: int, dry: bool) -> str:
    verb = "would be reformatted" if dry else "reformatted"
    summary = f"{changed} file{'s' if changed != 1 else ''} {verb}, {unchanged} unchanged"
    if failed:
        summary += f", {failed} could not be formatted"
    return summary
