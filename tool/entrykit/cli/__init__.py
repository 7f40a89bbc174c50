"""The `entrykit` command line: parse options, call the library, print, exit.

Each command is a module of this package, imported only when that command runs
(click's lazy-loading group, with a typed loader per command instead of an import
string): `entrykit fmt` imports the formatter and never the rules, `entrykit lint`
imports the rules and never the formatter. `entrykit --help` imports them all.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
import warnings
from collections.abc import Callable
from typing import Any

import click

from entrykit.cli.common import (
    CommandError,
    ExitCode,
    Terminated,
    handle_signals,
    recover_interrupted_writes,
    stopped,
    write_failure,
)
from entrykit.cli.streams import CANNOT_WRITE, stand_in_for_closed, write_utf8

__all__ = ["CommandError", "ExitCode", "cli", "main", "run"]


def _lint() -> click.Command:
    from entrykit.cli import lint

    return lint.lint


def _rules() -> click.Command:
    from entrykit.cli import docs

    return docs.rules_command


def _explain() -> click.Command:
    from entrykit.cli import docs

    return docs.explain


def _translations() -> click.Command:
    from entrykit.cli import translations

    return translations.translations


def _fmt() -> click.Command:
    from entrykit.cli import fmt

    return fmt.fmt_command


def _import() -> click.Command:
    from entrykit.cli import importing

    return importing.import_command


def _render() -> click.Command:
    from entrykit.cli import render

    return render.render_command


def _new() -> click.Command:
    from entrykit.cli import new

    return new.new_command


def _dupes() -> click.Command:
    from entrykit.cli import dupes

    return dupes.dupes_command


def _merge() -> click.Command:
    from entrykit.cli import merge

    return merge.merge_command


def _regex() -> click.Command:
    from entrykit.cli import regex

    return regex.regex_command


def _match() -> click.Command:
    from entrykit.cli import regex

    return regex.match_command


def _schema() -> click.Command:
    from entrykit.cli import schema

    return schema.schema_command


# Command name -> the function that imports its module and returns it.
COMMANDS: dict[str, Callable[[], click.Command]] = {
    "lint": _lint,
    "rules": _rules,
    "explain": _explain,
    "translations": _translations,
    "fmt": _fmt,
    "import": _import,
    "render": _render,
    "new": _new,
    "dupes": _dupes,
    "merge": _merge,
    "regex": _regex,
    "match": _match,
    "schema": _schema,
}


class _Commands(click.Group):
    """A group that imports a command's module when the command is looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        load = COMMANDS.get(cmd_name)
        return load() if load is not None else super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, Terminated) as exc:  # not click's "Aborted!", exit 1
            raise stopped(exc) from None
        except Exception as exc:
            from entrykit.writing import WriteRefused  # (loaded by every command that writes)

            if isinstance(exc, WriteRefused):  # refused before anything was written, by whichever command
                raise CommandError(str(exc)) from None
            raise


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="entrykit", prog_name="entrykit")
def cli() -> None:
    """Lint, merge and author the entries of an error knowledge base."""


def settle_memory() -> None:
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
    # numpy's OpenBLAS runs a thread per core, and its idle threads spin after each of
    # ET502's small matrix products: on cores the lint's own processes already use, that
    # spinning takes their time (up to 7% of a cold lint's instructions, varying run to run).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # The group's own options take no values: the first other argument names the command.
    # Its modules are imported before the collector is told to leave alone what exists.
    named = next((arg for arg in sys.argv[1:] if not arg.startswith("-")), None)
    if named in COMMANDS:
        COMMANDS[named]()
    settle_memory()
    handle_signals()
    stand_in_for_closed()
    write_utf8()
    quiet_regex_syntax_warnings()
    say_unjournaled_writes()
    try:
        recover_interrupted_writes()
        cli.main(prog_name="entrykit")
    except Exception as exc:  # said in one line, exit 2
        from entrykit.output_safety import escape

        if isinstance(exc, OSError) and exc.errno in CANNOT_WRITE:
            # the machine's doing, not entrykit's: no room for the output (or a file), or none to write to
            click.echo(f"entrykit: error: {escape(write_failure(exc))}", err=True)
            sys.exit(ExitCode.ERROR)
        # anything else is an entrykit bug: said as one
        click.echo(f"entrykit: internal error: {type(exc).__name__}: {escape(str(exc))}", err=True)
        if os.environ.get("ENTRYKIT_DEBUG"):
            raise
        sys.exit(ExitCode.ERROR)


def say_unjournaled_writes() -> None:
    """A change of several files made without a journal (`writing.UnjournaledWrite`) is one
    `entrykit: warning:` line, whatever `-W` says; other warnings are Python's to show."""
    from entrykit.writing import UnjournaledWrite

    shown_before = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        if issubclass(category, UnjournaledWrite):
            from entrykit.output_safety import escape

            click.echo(f"entrykit: warning: {escape(str(message))}", err=True)
        else:
            shown_before(message, category, *args, **kwargs)

    warnings.filterwarnings("always", category=UnjournaledWrite)
    warnings.showwarning = show


def quiet_regex_syntax_warnings() -> None:
    """Keep the warnings `re`'s parser gives for a pattern out of the output, whatever `-W`
    says. The patterns come from the data: an entry's regex (entrykit's reader catches those
    itself and reports them as ET219) or a configured schema's `pattern`, which jsonschema
    compiles. Python's own lines would be noise outside entrykit's format, and under
    `-W error` a crash."""
    warnings.filterwarnings("ignore", r"Possible (nested set|set [a-z ]+) at position \d+$", FutureWarning)
    warnings.filterwarnings("ignore", r"bad character in group name .* at position \d+$", DeprecationWarning)


def run() -> None:
    """The installed command: `main`, then an exit that does not free what the run holds.

    At its end a lint over a large corpus holds every file's record, diagnostics and
    memos; the interpreter's exit frees them one by one (1.5% of a cold `--jobs 1` lint,
    and in a pooled lint all of it after the output is written, with the other core idle).
    Once the output is flushed and the exit handlers have run (the regex workers are
    closed; every write went through a temporary file and a rename already), nothing is
    left to do. Anything unusual takes the interpreter's own way out: an exit message,
    output that cannot be flushed (a closed pipe), a thread still running.
    """
    try:
        main()
        code: str | int | None = 0
    except SystemExit as done:
        code = done.code
    if code is None:
        code = 0
    if not isinstance(code, int) or threading.active_count() > 1:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)
    atexit._run_exitfuncs()
    os._exit(int(code))
