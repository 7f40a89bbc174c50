"""The programs a message starts with (`grep: `, `bash: cd: `) are found in linear time: the
scan reads where the `name: ` prefixes end once, from the program's gate (the check read all
the prefixes again for every name, so 80 KB of `ab: ` took 15 s to scan). The same tokens as
before; a 100 KB run of prefixes goes through lint."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt

from .conftest import lint_corpus
from .hostile import entry_text
from .scan_reference import plain_merge

_PROGRAM = next(p for p in mt._GRAMMAR if p.kind == mt.PROGRAM)
_PREFIXES = mt._PREFIXES


def _program_as_before(match: re.Match[str]) -> mt.Token | None:
    """`_accept_program` as it was: the prefixes read again for each name."""
    name = match.group(0)
    if name in mt._LABELS or any(mt.word_kind(part) == mt.IDENTIFIER for part in name.split("-")):
        return None
    prefixes = mt._PREFIXES.match(match.string)
    return mt._token(mt.PROGRAM, match) if prefixes is not None and match.end() < prefixes.end() else None


_PREFIXED = st.lists(
    st.sampled_from(["ab", "grep", "bash", "cd", "error", "_x", "py3", "a-b", "a+b", "x-1", ": ", ":", " ", "\n", ".", "'", "`", "A", "é"]),
    max_size=14,
).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_PREFIXED)
@example("bash: cd: foo: No such file or directory")
@example("error: grep: x: 'sed: y: z'")
@example("ab: `cd: x` ab: ")
def test_the_tokens_are_as_before(message: str) -> None:
    accepts = [_program_as_before if p.kind == mt.PROGRAM else p.accept for p in mt._GRAMMAR]
    regexes = [p.regex for p in mt._GRAMMAR]
    assert mt._scan.__wrapped__(message) == plain_merge(message, regexes, accepts, [True] * len(regexes))


def test_the_gate_reads_the_prefixes() -> None:
    assert _PROGRAM.gate is not None and _PROGRAM.gate.pattern == rf"\A{mt._PREFIXES.pattern}"
    assert _PROGRAM.gate.flags == mt._PREFIXES.flags


class _CountedPrefixes:
    """`_PREFIXES`, the characters each of its matches reads added up."""

    def __init__(self) -> None:
        self.read = 0

    def match(self, text: str) -> re.Match[str] | None:
        """`_PREFIXES.match(text)`, counted."""
        found = _PREFIXES.match(text)
        self.read += len(text) if found is None else found.end() + 1
        return found


def test_the_prefixes_are_read_once_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    counted = _CountedPrefixes()
    message = "ab: " * 2_000 + "counted once"  # each name read the prefixes: 8M characters
    monkeypatch.setattr(mt, "_PREFIXES", counted)
    tokens = mt._scan.__wrapped__(message)
    monkeypatch.undo()
    assert [t.kind for t in tokens] == [mt.PROGRAM] * 2_000
    assert counted.read <= 2 * len(message)


def test_a_long_run_of_prefixes_goes_through_lint(tmp_path: Path) -> None:
    signature = "ab: " * 25_000  # 100 KB: the scan took minutes
    result = lint_corpus(tmp_path, {"pip/x.yaml": entry_text("pip/x", signature=signature, regex="x")})
    assert [e.id for e in result.entries] == ["pip/x"]
    assert len(mt.scan(signature)) == 25_000
