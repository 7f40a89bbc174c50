"""Reporters: plain functions (diagnostics, rules, out) that print one output format."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import entrykit
from entrykit.diagnostic import Diagnostic, Severity
from entrykit.registry import Rule

Reporter = Callable[[Sequence[Diagnostic], Sequence[Rule], TextIO], None]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def report_text(diagnostics: Sequence[Diagnostic], rules: Sequence[Rule], out: TextIO) -> None:
    """`path:line:col: CODE [severity] message`, related places indented below."""
    for d in diagnostics:
        out.write(f"{d.path}:{d.line}:{d.col}: {d.code} [{d.severity.value}] {d.message}\n")
        for r in d.related:
            out.write(f"    see {r.path}:{r.line}:{r.col}\n")


def summary_line(diagnostics: Sequence[Diagnostic], files: int) -> str:
    """One closing sentence for the text format."""
    if not diagnostics:
        return f"No problems in {_plural(files, 'file')}."
    counts = Counter(d.severity for d in diagnostics)
    parts = [
        _plural(counts[s], s.value) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO) if counts[s]
    ]
    paths = len({d.path for d in diagnostics})
    return f"Found {', '.join(parts)} in {_plural(paths, 'file')} ({_plural(files, 'file')} checked)."


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


def report_json(diagnostics: Sequence[Diagnostic], rules: Sequence[Rule], out: TextIO) -> None:
    """One JSON array, one diagnostic object per line. Written as it goes with the
    C encoder: `indent` would select json's pure-Python encoder, several times slower."""
    if not diagnostics:
        out.write("[]\n")
        return
    encode = _ONE_LINE.encode
    out.write("[\n")
    last = len(diagnostics) - 1
    for number, d in enumerate(diagnostics):
        out.write(encode(diagnostic_json(d)) + (",\n" if number < last else "\n"))
    out.write("]\n")


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


_GH_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def report_github(diagnostics: Sequence[Diagnostic], rules: Sequence[Rule], out: TextIO) -> None:
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


def _sarif_location(path: str, line: int, col: int) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": path},
            "region": {"startLine": line, "startColumn": col},
        }
    }


def report_sarif(diagnostics: Sequence[Diagnostic], rules: Sequence[Rule], out: TextIO) -> None:
    """SARIF 2.1.0: one run, metadata of the rules that have results, one result per diagnostic.

    Listing only the rules that fired keeps reports small and stable as rules are added.
    """
    used = {d.code for d in diagnostics}
    rules = [r for r in rules if r.code in used]
    index = {r.code: i for i, r in enumerate(rules)}
    results = []
    for d in diagnostics:
        result: dict[str, Any] = {
            "ruleId": d.code,
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message},
            "locations": [_sarif_location(d.path, d.line, d.col)],
        }
        if d.code in index:
            result["ruleIndex"] = index[d.code]
        if d.related:
            result["relatedLocations"] = [
                {"id": i, **_sarif_location(r.path, r.line, r.col)} for i, r in enumerate(d.related)
            ]
        results.append(result)
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
                            }
                            for r in rules
                        ],
                    }
                },
                "results": results,
            }
        ],
    }
    json.dump(document, out, indent=2, ensure_ascii=False)
    out.write("\n")


REPORTERS: dict[str, Reporter] = {
    "text": report_text,
    "json": report_json,
    "github": report_github,
    "sarif": report_sarif,
}
