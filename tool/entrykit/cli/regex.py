"""`entrykit regex` and `entrykit match`: suggest a regex for a message, find the entries matching one."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import click

from entrykit.cli.common import (
    CommandError,
    ExitCode,
    command_config,
    config_option,
    corpus_entries,
    root_option,
)
from entrykit.entry import Entry
from entrykit.errors import EntrykitError, UsageError
from entrykit.output_safety import dumps, escape
from entrykit.regex import lookup
from entrykit.regex import suggest as regex_suggest
from entrykit.regex.runner import RegexSettings


@click.command("regex")
@click.argument("signature")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--no-corpus", is_flag=True, help="Do not check against the corpus's other entries.")
@config_option
@root_option
def regex_command(signature: str, output_format: str, no_corpus: bool, config_path: Path | None, root: Path | None) -> None:
    """Suggest a regex for SIGNATURE, checked like a lint would check it."""
    try:
        config = command_config(config_path, root)
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    regex = RegexSettings.of(config.settings.get("regex", {}))
    others = None
    if not no_corpus and config.root.is_dir():
        others = [(e.id or e.path, e.str_field("signature") or "") for e in corpus_entries(config)]
        others = [(name, text) for name, text in others if text and text != signature]
    result = regex_suggest.suggest(signature, regex.flags, regex.mode, regex.runner(), others, regex.polynomial_degree)
    if output_format == "json":
        data = {
            "regex": result.regex,
            "level": result.level,
            "ok": result.ok,
            "checks": [{"check": c.name, "passed": c.passed, "detail": c.detail} for c in result.checks],
        }
        click.echo(dumps(data, indent=2))
    else:
        click.echo(escape(result.regex))
        for check in result.checks:
            mark = "ok  " if check.passed else "FAIL"
            click.echo(f"  {mark} {check.name}" + (f": {escape(check.detail)}" if check.detail else ""), err=True)
        if others is None:
            click.echo("  --   matches no other entry's signature (ET209): no corpus to check against", err=True)
        if result.level != "general":
            click.echo(f"  (the more general suggestions failed a check; this one is {result.level})", err=True)
    click.get_current_context().exit(int(ExitCode.CLEAN if result.ok else ExitCode.FINDINGS))


MAX_LINE_BYTES = 64 * 1024  # of one log line; a longer one is matched on its first part


class _Line(NamedTuple):
    number: int
    text: str
    cut: bool  # longer than MAX_LINE_BYTES: only its start is in `text`


def _input_lines(stream: BinaryIO) -> Iterator[_Line]:
    """The lines of `stream`, one at a time, in bounded memory: a line is cut at
    `MAX_LINE_BYTES` (the rest of it read and dropped), bytes that are not UTF-8 are
    replaced; UsageError at a NUL byte, which no log text holds (`/dev/zero`, a binary)."""
    number = 0
    while True:
        chunk = stream.readline(MAX_LINE_BYTES + 1)
        if not chunk:
            return
        number += 1
        cut = len(chunk) > MAX_LINE_BYTES and not chunk.endswith(b"\n")
        head = chunk[:MAX_LINE_BYTES]
        rest = chunk
        while not rest.endswith(b"\n") and rest:  # the rest of an over-long line
            if b"\0" in rest:
                break
            rest = stream.readline(MAX_LINE_BYTES)
        if b"\0" in chunk or b"\0" in rest:
            raise UsageError(f"standard input holds a NUL byte on line {number}: it is not text")
        yield _Line(number, head.decode("utf-8", "replace").rstrip("\r\n"), cut)

def _json_item(number: int, text: str, found: Sequence[lookup.Match], slow: Sequence[Entry]) -> dict[str, Any]:
    return {
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


def _echo_matches(number: int, text: str, found: Sequence[lookup.Match], slow: Sequence[Entry], from_stdin: bool) -> None:
    if from_stdin:
        click.echo(f"line {number}: {escape(text[:120])}")
    for m in found:
        others = f", also matches {m.other_matches} other signatures" if m.other_matches else ""
        shown = f"{escape(str(m.id))}  {escape(m.entry.path)}"
        click.echo(f"{'  ' if from_stdin else ''}{shown}  (literal of {m.longest_literal}{others})")
    for entry in slow:
        click.echo(f"{'  ' if from_stdin else ''}{escape(entry.id or entry.path)}  {escape(entry.path)}  (timed out)")



@click.command("match")
@click.argument("message", required=False)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@config_option
@root_option
def match_command(message: str | None, output_format: str, config_path: Path | None, root: Path | None) -> None:
    """List the entries whose regex matches MESSAGE (or each line of standard input, with `-`).

    Most specific first: longest literal the regex requires, then fewest other
    signatures it matches. Exit status 0 if something matched, 1 if nothing did.
    Lines of standard input are read one at a time; a line longer than 64 KiB is
    matched on its first 64 KiB.
    """
    if message is None:
        raise CommandError("give a MESSAGE, or `-` to read lines from standard input")
    try:
        config = command_config(config_path, root)
        if not config.root.is_dir():
            raise UsageError(f"corpus root `{config.root}` is not a directory; pass --root or set `root`")
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    regex = RegexSettings.of(config.settings.get("regex", {}))
    found_by = lookup.Lookup(corpus_entries(config), regex.flags, regex.mode, regex.runner())
    from_stdin = message == "-"
    lines = _input_lines(sys.stdin.buffer) if from_stdin else iter([_Line(1, message, False)])
    matched = False
    items = 0
    checked = 0
    try:
        for number, text, cut in lines:
            if not text.strip() and from_stdin:
                continue
            if cut:
                click.echo(f"entrykit: line {number} is longer than {MAX_LINE_BYTES:,} bytes; matched its start", err=True)
            found, slow = found_by.match(text)
            checked += 1
            matched = matched or bool(found)
            if output_format == "json":
                # one item at a time, laid out as one indented JSON array
                body = textwrap.indent(dumps(_json_item(number, text, found, slow), indent=2), "  ")
                click.echo(("[\n" if items == 0 else ",\n") + body, nl=False)
                items += 1
            elif not from_stdin or found or slow:
                _echo_matches(number, text, found, slow, from_stdin)
    except EntrykitError as exc:
        if output_format == "json" and items:
            click.echo("\n]")
        raise CommandError(str(exc)) from None
    if output_format == "json":
        click.echo("\n]" if items else "[]")
    if not matched:
        what = f"{checked} line{'s' * (checked != 1)}" if from_stdin else "the message"
        entries = len(found_by.entries)
        click.echo(f"No entry's regex matches {what} ({entries} entr{'y' if entries == 1 else 'ies'} checked).", err=True)
    click.get_current_context().exit(int(ExitCode.CLEAN if matched else ExitCode.FINDINGS))
