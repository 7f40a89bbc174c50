"""Reporters: plain functions (diagnostics, rules, out[, options]) that print one output format.

Every piece of text that comes from entries or file names is escaped on its way out
(`entrykit.output_safety`): no reporter lets entry text start a line, a workflow command
or a terminal escape sequence.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby, islice
from json.encoder import encode_basestring
from operator import attrgetter
from pathlib import Path
from typing import Any, Protocol, TextIO
from urllib.parse import quote, unquote

import click

import entrykit
from entrykit.diagnostic import Diagnostic, Location, Severity, tally
from entrykit.json_text import indented
from entrykit.output_safety import escape, json_safe
from entrykit.registry import Rule
from entrykit.rule_docs import rule_url


@dataclass(frozen=True)
class ReportOptions:
    """How a report is written: in colour (text), and where its paths are from.

    Diagnostics name files relative to `cwd` (or absolutely); SARIF names them relative
    to `base`, the folder its `%SRCROOT%` stands for (the repository's root).
    """

    color: bool = False
    cwd: Path | None = None
    base: Path | None = None


PLAIN = ReportOptions()


class Reporter(Protocol):
    def __call__(
        self, diagnostics: Sequence[Diagnostic], rules: Sequence[Rule], out: TextIO, options: ReportOptions = PLAIN
    ) -> None: ...


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_SEVERITY_COLOR = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def report_text(
    diagnostics: Sequence[Diagnostic], rules: Sequence[Rule], out: TextIO, options: ReportOptions = PLAIN
) -> None:
    """`path:line:col: CODE [severity] message`, related places indented below."""
    if not options.color:
        for d in diagnostics:
            out.write(f"{escape(d.path)}:{d.line}:{d.col}: {d.code} [{d.severity.value}] {escape(d.message)}\n")
            for r in d.related:
                out.write(f"    see {escape(r.path)}:{r.line}:{r.col}\n")
        return
    style = click.style
    for d in diagnostics:
        place = style(f"{escape(d.path)}:{d.line}:{d.col}:", bold=True)
        code = style(d.code, fg=_SEVERITY_COLOR[d.severity], bold=True)
        level = style(d.severity.value, fg=_SEVERITY_COLOR[d.severity])
        out.write(f"{place} {code} [{level}] {escape(d.message)}\n")
        for r in d.related:
            out.write(style(f"    see {escape(r.path)}:{r.line}:{r.col}", dim=True) + "\n")


def summary_line(diagnostics: Sequence[Diagnostic], files: int) -> str:
    """One closing sentence for the text format."""
    if not diagnostics:
        return f"No problems in {_plural(files, 'file')}."
    counted = tally(diagnostics)
    counts = counted.severities
    parts = [
        _plural(counts[s], s.value) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO) if counts[s]
    ]
    return f"Found {', '.join(parts)} in {_plural(counted.files, 'file')} ({_plural(files, 'file')} checked)."


def summary_style(diagnostics: Sequence[Diagnostic]) -> dict[str, Any]:
    """The colour of the summary line: red with errors, yellow with warnings, else green."""
    severities = tally(diagnostics).severities
    color = "red" if severities[Severity.ERROR] else "yellow" if sum(severities.values()) else "green"
    return {"fg": color, "bold": True}


def statistics(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    """Counts per code, most frequent first."""
    counts = Counter((d.code, d.name) for d in diagnostics)
    for (code, name), count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0])):
        out.write(f"{count:>6}  {code}  {name}\n")


def diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    """The documented JSON form of one diagnostic (the README's contract)."""
    return {
        "path": d.path,
        "line": d.line,
        "col": d.col,
        "code": d.code,
        "name": d.name,
        "severity": d.severity.value,
        "message": d.message,
        "pointer": d.pointer,
        "related": [
            {"path": r.path, "line": r.line, "col": r.col, "pointer": r.pointer} for r in d.related
        ],
        "fix": None
        if d.fix is None
        else {"pointer": d.fix.pointer, "value": d.fix.value, "description": d.fix.description, "safe": d.fix.safe},
    }


_ONE_LINE = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))
_SEVERITY_JSON = {s: json.dumps(s.value) for s in Severity}


def diagnostic_line(d: Diagnostic) -> str:
    """`diagnostic_json(d)` as `_ONE_LINE` encodes it, written out field by field: a large
    report is mostly this, several times faster than encoding a dict (json's own string
    encoder; the fix, whose value may be anything, through `_ONE_LINE`)."""
    return next(_lines([(d.path, [(d.line, d.col, d)])]))


# Diagnostics a file at a time: its path, and the (line, col, like) of each (`like` equal to
# the diagnostic from its code on: see `Diagnostics.by_file`)
Placed = Iterable[tuple[str, list[tuple[int, int, Diagnostic]]]]


def _lines(files: Placed) -> Iterator[str]:
    """`diagnostic_line` of each diagnostic: what precedes its line encoded once per file,
    what follows its place once for each `like` (a run's diagnostics share them)."""
    likes = _likes
    for path, placed in files:
        head = f'{{"path": {encode_basestring(path)}, "line": '
        for line, col, like in placed:
            known = likes.get(id(like))
            if known is None or known[0] is not like:
                if len(likes) >= _REMEMBERED:
                    likes.clear()
                known = likes[id(like)] = (like, _tail_of(like))  # (`like` kept: its id is not reused meanwhile)
            yield f'{head}{line:d}, "col": {col:d}, {known[1]}'


def _by_file(diagnostics: Iterable[Diagnostic]) -> Placed:
    """Diagnostics in order, a file at a time as `Diagnostics.by_file` gives them."""
    for path, made in groupby(diagnostics, key=_path_of):
        yield path, [(d.line, d.col, d) for d in made]


_path_of = attrgetter("path")


def _tail_of(d: Diagnostic) -> str:
    """What follows the place in `diagnostic_line`: encoded once for equal diagnostics
    without a fix (a rule says the same of many files, and a corpus rule the same of many
    places)."""
    code, name, severity, message, pointer, related, fix = d[3:]
    if fix is not None:
        return _tail(code, name, severity, message, pointer, related, _ONE_LINE.encode(diagnostic_json(d)["fix"]))
    key = d[3:9]  # (code, name, severity, message, pointer, related): all the tail depends on
    tail = _tails.get(key)
    if tail is None:
        tail = _tail(code, name, severity, message, pointer, related, "null")
        if len(_tails) >= _REMEMBERED:
            _tails.clear()
        _tails[key] = tail
    return tail


_REMEMBERED = 4096  # line tails and diagnostics alike `diagnostic_line` keeps: a bound, whatever the report
_tails: dict[tuple[Any, ...], str] = {}
_likes: dict[int, tuple[Diagnostic, str]] = {}


def _tail(
    code: str, name: str, severity: Severity, message: str, pointer: str, related: tuple[Location, ...], fix: str
) -> str:
    """The fields of `diagnostic_line` after the place, `fix` encoded already."""
    text = encode_basestring
    return (
        f'"code": {text(code)}, "name": {text(name)}, "severity": {_SEVERITY_JSON[severity]}, '
        f'"message": {text(message)}, "pointer": {text(pointer)}, '
        f'"related": [{_related_json(related) if related else ""}], "fix": {fix}}}'
    )


@lru_cache(maxsize=1024)
def _related_json(related: tuple[Location, ...]) -> str:
    """The related places of `diagnostic_line`, each set encoded once: a corpus rule names
    the same few places in the diagnostics of many files."""
    text = encode_basestring
    return ", ".join([
        f'{{"path": {text(r.path)}, "line": {r.line:d}, "col": {r.col:d}, "pointer": {text(r.pointer)}}}'
        for r in related
    ])


_LINES_AT_ONCE = 1024  # lines made safe and written together


def report_json(
    diagnostics: Sequence[Diagnostic], rules: Sequence[Rule], out: TextIO, options: ReportOptions = PLAIN
) -> None:
    """One JSON array, one diagnostic object per line (`diagnostic_line`), written as it
    goes. Values are exact; controls JSON leaves raw are written as `\\u` escapes. A run's
    diagnostics are read a file at a time (`Diagnostics.by_file`): what follows each place
    is encoded once for all equal diagnostics, and no diagnostic is made of most findings."""
    by_file = getattr(diagnostics, "by_file", None)
    lines = _lines(by_file() if by_file is not None else _by_file(diagnostics))
    first = next(lines, None)
    if first is None:
        out.write("[]\n")
        return
    out.write("[\n" + json_safe(first))
    while chunk := list(islice(lines, _LINES_AT_ONCE)):
        out.write(",\n" + json_safe(",\n".join(chunk)))
    out.write("\n]\n")


def _gh_escape(text: str, prop: bool = False) -> str:
    """Entry text as a workflow command's message (or property): controls escaped first,
    then the runner's own percent-encoding."""
    text = escape(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


_GH_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def report_github(
    diagnostics: Sequence[Diagnostic], rules: Sequence[Rule], out: TextIO, options: ReportOptions = PLAIN
) -> None:
    """GitHub Actions workflow commands: annotations on the pull request's files."""
    for d in diagnostics:
        props = ",".join(
            [
                f"file={_gh_escape(d.path, True)}",
                f"line={d.line}",
                f"col={d.col}",
                f"title={_gh_escape(f'{d.code} {d.name}', True)}",
            ]
        )
        out.write(f"::{_GH_LEVEL[d.severity]} {props}::{_gh_escape(d.message)}\n")


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


SRCROOT = "%SRCROOT%"


def _artifact(path: str, options: ReportOptions) -> dict[str, Any]:
    """A file as SARIF names it: relative to %SRCROOT% (percent-encoded) when it is below
    the base folder, else an absolute `file:` URI."""
    cwd = options.cwd or Path.cwd()
    where = Path(os.path.normpath(cwd / path))
    base = options.base or cwd
    try:
        relative = where.relative_to(base).as_posix()
    except ValueError:
        return {"uri": where.as_uri()}
    # (a name of bytes that are no UTF-8 holds surrogate escapes: its URI has those bytes)
    return {"uri": quote(relative, safe="/", errors="surrogateescape"), "uriBaseId": SRCROOT}


class _Artifacts(dict[str, dict[str, Any]]):
    """Each file's `_artifact`, made when first asked: a report names the same few files in
    many results and related places, and a file's name is the same each time."""

    def __init__(self, options: ReportOptions) -> None:
        super().__init__()
        self.options = options

    def __missing__(self, path: str) -> dict[str, Any]:
        artifact = self[path] = _artifact(path, self.options)
        return artifact


def _sarif_location(path: str, line: int, col: int, artifacts: _Artifacts) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": dict(artifacts[path]),
            "region": {"startLine": line, "startColumn": col},
        }
    }


def _sarif_message(d: Diagnostic, artifacts: _Artifacts) -> str:
    """The message, with the files it names (its related places) named as SARIF names them."""
    message = d.message
    for r in d.related:
        if r.path and r.path in message:
            artifact = artifacts[r.path]
            if "uriBaseId" in artifact:
                message = message.replace(r.path, unquote(artifact["uri"], errors="surrogateescape"))
    return message


def _sarif_order(result: dict[str, Any]) -> tuple[str, int, int, str, str]:
    place = result["locations"][0]["physicalLocation"]
    region = place["region"]
    return (place["artifactLocation"]["uri"], region["startLine"], region["startColumn"], result["ruleId"],
            result["message"]["text"])


def report_sarif(
    diagnostics: Sequence[Diagnostic], rules: Sequence[Rule], out: TextIO, options: ReportOptions = PLAIN
) -> None:
    """SARIF 2.1.0: one run, metadata of the rules that have results, one result per diagnostic.

    Listing only the rules that fired keeps reports small and stable as rules are added.
    File URIs are relative to `%SRCROOT%`, the repository's root, wherever entrykit ran;
    its absolute place is left out (`originalUriBaseIds` describes it), so the report is
    the same on every machine and GitHub resolves it against its checkout.
    """
    used = {d.code for d in diagnostics}
    rules = [r for r in rules if r.code in used]
    index = {r.code: i for i, r in enumerate(rules)}
    artifacts = _Artifacts(options)
    results = []
    for d in diagnostics:
        result: dict[str, Any] = {
            "ruleId": d.code,
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": _sarif_message(d, artifacts)},
            "locations": [_sarif_location(d.path, d.line, d.col, artifacts)],
        }
        if d.code in index:
            result["ruleIndex"] = index[d.code]
        if d.related:
            result["relatedLocations"] = [
                {"id": i, **_sarif_location(r.path, r.line, r.col, artifacts)} for i, r in enumerate(d.related)
            ]
        results.append(result)
    # in the order of the files as SARIF names them: the same from any working directory
    results.sort(key=_sarif_order)
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "entrykit",
                        "version": entrykit.__version__,
                        "rules": [
                            {
                                "id": r.code,
                                "name": r.name,
                                "shortDescription": {"text": r.summary},
                                "fullDescription": {"text": r.doc},
                                "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
                                "helpUri": rule_url(r),
                            }
                            for r in rules
                        ],
                    }
                },
                "originalUriBaseIds": {
                    SRCROOT: {"description": {"text": "The root of the repository holding the corpus."}}
                },
                "results": results,
            }
        ],
    }
    out.write(json_safe(indented(document)) + "\n")


REPORTERS: dict[str, Reporter] = {
    "text": report_text,
    "json": report_json,
    "github": report_github,
    "sarif": report_sarif,
}
