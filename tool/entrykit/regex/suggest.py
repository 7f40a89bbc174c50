"""Derive a regex from an error message: literal text escaped, volatile tokens generalised.

`suggest_regex(signature)` is the most general suggestion. `suggest(signature, ...)`
also checks it (it matches the signature, ET205 finds no catastrophic backtracking,
ET208 finds it specific enough, and, given a corpus, it matches no other entry's
signature) and, when a check fails, falls back to less general versions: first
keeping quoted names and paths literal, then the escaped message itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

# Volatile tokens, most specific first: (name, pattern over the message, regex that replaces it).
_NAMES: list[tuple[str, re.Pattern[str], str]] = [
    ("quoted", re.compile(r"'[^'\n]+'"), r"'[^']+'"),
    ("quoted", re.compile(r'"[^"\n]+"'), r'"[^"]+"'),
    ("quoted", re.compile(r"`[^`\n]+`"), r"`[^`]+`"),
    ("path", re.compile(r"(?<![\w/.])(?:[A-Za-z]:\\|~?/)[^\s'\"`:,;()\[\]]+"), r"[^\s'\"]+"),
    ("path", re.compile(r"\b[\w.\-]+(?:/[\w.\-]+)+\.\w+\b"), r"[^\s'\"]+"),
]
_SHAPES: list[tuple[str, re.Pattern[str], str]] = [
    ("uuid", re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"),
     r"[0-9a-fA-F-]{36}"),
    ("shape", re.compile(r"\[\d+(?:\s*,\s*\d+)*\]"), r"\[\d+(?:,\s*\d+)*\]"),
    ("shape", re.compile(r"\(\d+(?:\s*,\s*\d+)+\)"), r"\(\d+(?:,\s*\d+)*\)"),
    ("hex", re.compile(r"\b0x[0-9a-fA-F]+\b"), r"0x[0-9a-fA-F]+"),
    ("version", re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![\w.]*\w)"), r"\d+(?:\.\d+)*"),
    ("number", re.compile(r"(?<![\w.])\d+(?![\w.]*\w)"), r"\d+"),
]
LEVELS = ("general", "names kept", "literal")


def _escape(char: str) -> str:
    return char if char == " " else re.escape(char)


def _build(signature: str, tokens: Sequence[tuple[str, re.Pattern[str], str]]) -> str:
    out: list[str] = []
    pos = 0
    while pos < len(signature):
        for _, pattern, replacement in tokens:
            match = pattern.match(signature, pos)
            if match:
                out.append(replacement)
                pos = match.end()
                break
        else:
            out.append(_escape(signature[pos]))
            pos += 1
    return "".join(out)


def suggest_regex(signature: str, level: str = "general") -> str:
    """A regex that matches `signature` and, at the `general` level, the same message
    with other names, paths, numbers, shapes, hex addresses and ids."""
    if level == "general":
        return _build(signature, _NAMES + _SHAPES)
    if level == "names kept":
        return _build(signature, _SHAPES)
    return _build(signature, [])


@dataclass(frozen=True)
class Check:
    """One check run on a suggestion: what, whether it passed, and why not."""

    name: str
    passed: bool
    detail: str = ""


@dataclass(frozen=True)
class Suggestion:
    regex: str
    level: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.passed for check in self.checks)


def check_regex(
    regex: str,
    signature: str,
    flags: int,
    mode: str,
    runner: object,
    others: Sequence[tuple[str, str]] | None = None,
    polynomial_degree: int = 3,
) -> list[Check]:
    """The checks `entrykit regex` runs; `others` are (id, signature) of a corpus's entries."""
    from entrykit.regex.breadth import too_broad
    from entrykit.regex.literal_index import RegexIndex
    from entrykit.regex.redos import AnalysisTooComplex, analyse
    from entrykit.regex.runner import Job, RegexRunner

    assert isinstance(runner, RegexRunner)
    checks = []
    own = runner.run([Job(regex, flags, mode, signature)])[0]
    checks.append(Check("matches the signature (ET202)", own.matched, own.error or ("timed out" if own.timed_out else "")))
    try:
        results = analyse(regex, flags, mode, runner, confirm_from_degree=polynomial_degree)
        bad = [
            r for r in results
            if r.finding.kind == "exponential" or r.finding.degree >= polynomial_degree
        ]
        detail = f"{bad[0].finding.label} on `{bad[0].finding.attack.describe()}`" if bad else ""
        checks.append(Check("no catastrophic backtracking (ET205)", not bad, detail))
    except AnalysisTooComplex:
        checks.append(Check("no catastrophic backtracking (ET205)", False, "too complex to analyse"))
    broad = too_broad(regex, flags, mode, runner)
    checks.append(Check("specific enough (ET208)", broad is None, broad or ""))
    if others is not None:
        index = RegexIndex([regex], flags, mode, [text for _, text in others])
        texts = index.texts_for(0)
        outcomes = runner.run([Job(regex, flags, mode, others[t][1]) for t in texts])
        hits = [others[t][0] for t, o in zip(texts, outcomes) if o.matched]
        detail = "matches " + ", ".join(f"`{h}`" for h in hits[:5]) + (" ..." if len(hits) > 5 else "") if hits else ""
        checks.append(Check(f"matches no other entry's signature (ET209, checked {len(others)})", not hits, detail))
    return checks


def suggest(
    signature: str,
    flags: int = 0,
    mode: str = "search",
    runner: object = None,
    others: Sequence[tuple[str, str]] | None = None,
    polynomial_degree: int = 3,
) -> Suggestion:
    """The most general suggestion that passes every check (else the last one tried)."""
    from entrykit.regex.runner import shared_runner

    runner = runner or shared_runner()
    tried: Suggestion | None = None
    seen: set[str] = set()
    for level in LEVELS:
        regex = suggest_regex(signature, level)
        if regex in seen:
            continue
        seen.add(regex)
        tried = Suggestion(regex, level, check_regex(regex, signature, flags, mode, runner, others, polynomial_degree))
        if tried.ok:
            return tried
    assert tried is not None
    return tried
