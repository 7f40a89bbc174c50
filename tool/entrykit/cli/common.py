"""What the commands share: exit codes, errors, options, config loading, the corpus's entries.

Every run imports this module (`cli.main`), so it imports only what every run needs:
the configuration and the entries are imported by the functions that read them, and
`entrykit --version` loads neither."""

from __future__ import annotations

import enum
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import click

from entrykit import journal
from entrykit.output_safety import escape
from entrykit.paths import work_tree_top
from entrykit.private_folder import ENV_VAR, location

if TYPE_CHECKING:
    from entrykit.config import Config
    from entrykit.entry import Entry


class ExitCode(enum.IntEnum):
    """What a run's exit status means."""

    CLEAN = 0
    FINDINGS = 1
    ERROR = 2  # usage, configuration or internal error
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), as shells report it
    TERMINATED = 143  # SIGTERM (128 + SIGTERM)


class Terminated(BaseException):
    """The process was asked to stop (SIGTERM). Like KeyboardInterrupt, no `except
    Exception` catches it: cleanup handlers run, writes are undone, workers stopped."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated()


def handle_signals() -> None:
    """SIGTERM unwinds the process like Ctrl-C does (so pools stop and writes are undone)
    instead of killing it where it stands."""
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, _terminated)


def stopped(exc: BaseException) -> click.exceptions.Exit:
    """The exit a Ctrl-C or SIGTERM ends the command with (130 or 143, never 1), said on stderr."""
    terminated = isinstance(exc, Terminated)
    click.echo(f"entrykit: {'terminated' if terminated else 'interrupted'}", err=True)
    return click.exceptions.Exit(int(ExitCode.TERMINATED if terminated else ExitCode.INTERRUPTED))


def recover_interrupted_writes() -> None:
    """Roll back what a killed entrykit left half-written (see `journal`), and say so. The
    journal is neither read nor kept in the git work tree the command runs in."""
    try:
        checkout = work_tree_top(Path.cwd())
        journal.keep_out_of([checkout] if checkout is not None else [])
        where = location(None)[0]
    except OSError:  # no working directory (removed): the command says so itself
        return
    inside = journal.inside_kept_out(where)
    if inside is not None:
        click.echo(
            f"entrykit: warning: not keeping a journal of writes in `{escape(str(where))}`: it is inside the "
            f"git work tree `{escape(str(inside))}`, where a pull request could put files; set {ENV_VAR} to a "
            "folder outside it (a change of several files killed midway cannot be rolled back without it)",
            err=True,
        )
    for outcome in journal.recover():
        changed = len(outcome.restored) + len(outcome.removed_new)
        files = f"{outcome.files} file{'s' * (outcome.files != 1)}"
        if outcome.committed:
            if outcome.cleaned:
                click.echo(f"entrykit: removed {outcome.cleaned} leftover file(s) of an earlier run (its change to {files} was complete)", err=True)
            continue
        made = len(outcome.removed_folders)
        folders = f" and removed the {made} folder(s) it had made" if made else ""
        if changed:
            same = "" if outcome.kept else "; every file is as it was before that run"
            click.echo(
                f"entrykit: an earlier run was stopped while changing {files}: rolled back the {changed} it had "
                f"changed{folders}{same}",
                err=True,
            )
        elif (outcome.cleaned or made) and not outcome.kept:
            removed = [f"{outcome.cleaned} temporary file(s)"] if outcome.cleaned else []
            removed += [f"{made} empty folder(s)"] if made else []
            click.echo(f"entrykit: removed {' and '.join(removed)} of an earlier run that was stopped before it changed any file", err=True)
        for path, aside in outcome.kept:
            click.echo(
                f"entrykit: warning: {escape(path)} was not put back after an interrupted run (it changed again since, "
                f"or could not be replaced); left as it is, and its content before that run is in {escape(aside)}",
                err=True,
            )


class CommandError(click.ClickException):
    """A tool problem reported as `entrykit: error: ...` with exit status 2."""

    exit_code = ExitCode.ERROR

    def show(self, file: object = None) -> None:
        # messages name keys, paths and values from the configuration and the entries
        click.echo(f"entrykit: error: {escape(self.format_message())}", err=True)


config_option = click.option(
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help="Configuration file to read: a pyproject.toml ([tool.entrykit]) or an entrykit.toml."
)
root_option = click.option(
    "--root", type=click.Path(path_type=Path, file_okay=False), help="Corpus root (overrides config)."
)


def working_directory() -> Path:
    """The current directory, where the configuration is looked up and from which paths are
    shown; CommandError when it cannot be read (removed while the shell stayed in it)."""
    try:
        return Path(os.getcwd())
    except OSError as exc:
        raise CommandError(f"cannot read the current directory ({exc.strerror or exc}); change to one that exists") from None


def command_config(config_path: Path | None, root: Path | None) -> Config:
    from dataclasses import replace

    from entrykit.config import load_config
    from entrykit.loader import refused
    from entrykit.targets import project_folder, within

    cwd = working_directory()
    config = load_config(cwd, config_path)
    if root is not None:
        why = refused(root)
        if why is not None:
            raise CommandError(f"--root `{root}` cannot be looked at ({why})")
        return replace(config, root=Path(os.path.realpath(root)))
    project = project_folder(config, cwd)
    if not within(config.root, project):
        named = "`root` of the configuration" if config.source is not None else "the corpus root"
        raise CommandError(
            f"{named} leads out of the project `{project}` (to `{config.root}`): a checkout names a corpus "
            "inside itself; name one elsewhere with --root (where a command has it) or with its own project's --config"
        )
    return config


def corpus_entries(config: Config) -> list[Entry]:
    """Every entry under the corpus root that loads (none if there is no root)."""
    from entrykit.entry import Entry
    from entrykit.loader import discover, display_path, load

    if not config.root.is_dir():
        return []
    loaded = (load(p, display_path(p), config.limits, within=config.root) for p in discover([config.root]))
    return [entry for entry in loaded if isinstance(entry, Entry)]


def write_failure(exc: OSError) -> str:
    where = f" {exc.filename}" if exc.filename else ""
    return f"cannot write{where}: {exc.strerror or exc}"
