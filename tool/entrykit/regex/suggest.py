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

from entrykit import message_tokens as mt

LEVELS = ("general", "names kept", "literal")
# The classes of message tokens each level generalises: names (quoted text, paths,
# refs) and values (numbers, shapes, versions, hex addresses and ids).
_VALUES = frozenset({mt.HEX, mt.SHAPE, mt.VERSION, mt.NUMBER, mt.POSITION, mt.ADDRESS, mt.QUANTITY})
_NAMES = frozenset({mt.QUOTED, mt.CODE, mt.PATH, mt.REF})
GENERALISED: dict[str, frozenset[str]] = {"general": _NAMES | _VALUES, "names kept": _VALUES, "literal": frozenset()}

_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")


def _escape_text(text: str, verbose: bool) -> str:
    # VERBOSE ignores bare whitespace and reads `#` as a comment: `re.escape` escapes both.
    if verbose:
        return re.escape(text)
    return "".join(char if char == " " else re.escape(char) for char in text)


def _spaces(verbose: bool) -> str:
    """Any number of spaces, as a regex under VERBOSE or without it."""
    return r"\ *" if verbose else " *"


def _number(text: str) -> str:
    if "," in text:
        return r"\d{1,3}(?:,\d{3})*"
    return r"\d+(?:\.\d+)*" if "." in text else r"\d+"


def _shape(text: str, verbose: bool) -> str:
    item = r"-?\d+" if "-" in text else r"\d+"
    if text[0] not in "[(":  # a bare shape (`64x512`): no brackets to keep
        return rf"{item}(?:[x×]{item})+"
    separator = f"{_spaces(verbose)}[x×]{_spaces(verbose)}" if re.search(r"\d\s*[x×]", text) else r",\s*"
    trailing = "," if re.search(r",\s*[\])]$", text) else ""
    return re.escape(text[0]) + item + f"(?:{separator}{item})*" + trailing + re.escape(text[-1])


def _hex(text: str) -> str:
    if text[:2] in ("0x", "0X"):
        return re.escape(text[:2]) + "[0-9a-fA-F]+"
    if _UUID.fullmatch(text):
        return "[0-9a-fA-F-]{36}"
    return f"[0-9a-fA-F]{{{min(len(text), 7)},}}"


def _generalised(token: mt.Token, verbose: bool) -> str | None:
    """The regex a token becomes, or None where it stays literal."""
    kind, text = token.kind, token.text
    if kind in (mt.QUOTED, mt.CODE):
        if not token.value:
            return None  # `''`: the empty value is the message
        return re.escape(token.quote) + f"[^{re.escape(token.closing)}]+" + re.escape(token.closing)
    if kind in (mt.PATH, mt.REF):
        # A bare file name or a dotfile (`package.json`, `.git`) names what went wrong.
        return r"[^\s'\"]+" if kind == mt.REF or "/" in text or "\\" in text else None
    if kind == mt.HEX:
        return _hex(text)
    if kind == mt.SHAPE:
        return _shape(text, verbose)
    if kind == mt.VERSION:
        prefix = text[0] if text[0] in "vV" else ""
        core = re.match(r"\d+(?:\.\d+)*", text[len(prefix) :])
        assert core is not None
        return re.escape(prefix) + r"\d+(?:\.\d+)*" + _escape_text(text[len(prefix) + core.end() :], verbose)
    if kind == mt.POSITION:
        return r"\d+(?:[.:]\d+)*"  # as `message_tokens` reads one: `12:5`, `1.2.3:45`
    if kind == mt.ADDRESS:
        return r"\d+(?:\.\d+){3}" + (r":\d+" if ":" in text else "")
    if kind == mt.QUANTITY:
        return _number(token.value) + _escape_text(text[len(token.value) :], verbose)
    if kind == mt.NUMBER:
        return _number(text)
    return None


def suggest_regex(signature: str, level: str = "general", flags: int = 0) -> str:
    """A regex that matches `signature` and, at the `general` level, the same message
    with other quoted names, paths, refs, numbers, shapes, versions, hex addresses and ids
    (the classes of `entrykit.message_tokens`); `names kept` generalises only values.
    It is written for `flags`, the flags it will be compiled with."""
    kinds = GENERALISED[level]
    verbose = bool(flags & re.VERBOSE)

    def replaced(token: mt.Token) -> bool:
        return token.kind in kinds and _generalised(token, verbose) is not None

    tokens = [t for t in mt.walk(mt.scan(signature), lambda t: not replaced(t)) if replaced(t)]
    return mt.replace(signature, tokens, lambda t: _generalised(t, verbose) or "", lambda text: _escape_text(text, verbose))


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
    from entrykit.regex.runner import Job, RegexRunner, Status

    assert isinstance(runner, RegexRunner)
    compiled = runner.compile_check(regex, flags)
    if compiled.status is not Status.MATCH:
        # No other check can run on a regex that does not compile under these flags.
        reason = compiled.error or "compiling it ran past the time budget"
        return [Check("compiles with the configured flags (ET201)", False, reason)]
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
    broad = too_broad(regex, flags, mode, runner, own_texts=[signature])
    checks.append(Check("specific enough (ET208)", broad is None, broad.reason if broad else ""))
    if others is not None:
        index = RegexIndex([regex], flags, mode, [text for _, text in others])
        texts = index.texts_for(0)
        outcomes = runner.run([Job(regex, flags, mode, others[t][1]) for t in texts])
        hits = [others[t][0] for t, o in zip(texts, outcomes, strict=True) if o.matched]
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
        regex = suggest_regex(signature, level, flags)
        if regex in seen:
            continue
        seen.add(regex)
        tried = Suggestion(regex, level, check_regex(regex, signature, flags, mode, runner, others, polynomial_degree))
        if tried.ok:
            return tried
    assert tried is not None
    return tried
