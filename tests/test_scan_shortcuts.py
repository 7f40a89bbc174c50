"""`message_tokens.scan` skips patterns a message cannot hold (by its characters and each
pattern's gate) and merges with a heap: it must give the tokens of the plain walk, which
searches every pattern whose characters are present and merges by a linear minimum."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt

from .scan_reference import plain_merge


def _reference_scan(message: str) -> tuple[mt.Token, ...]:
    """The scan as it was before the shortcuts: each pattern whose `needs` the message holds
    is searched; the leftmost next match (the grammar's first at a tie) is taken or passed."""
    grammar = mt._GRAMMAR
    searched = [not p.needs or any(c in message for c in p.needs) for p in grammar]
    return plain_merge(message, [p.regex for p in grammar], [p.accept for p in grammar], searched)


def _scan(message: str) -> tuple[mt.Token, ...]:
    return mt._scan.__wrapped__(message)  # type: ignore[attr-defined,no-any-return]


# Pieces that reach every gate from both sides: a gate's text present without a match, a
# match's characters without the gate's text, and digits of other scripts in shapes.
_PIECES = st.sampled_from(
    ["foo", "Bar", "x", "X", "v", "V2", "v1.2", "0x", "0X1f", "x2", "2x", "3x4", "٣x٤", "3×4", "×", "٣", "HEAD",
     "HEAD~2", "HEAD^", "HEAD@{1}", "refs/heads/a", "origin/main", "upstream/x", "a/b", "/", "~", ":", ": ", "://",
     "http://e.org", "C:\\x", "\\", "-", "--", "-x", "--no-x", "a-b", "x86-64", "-a1b2-", "12345678-1234-1234-1234-123456789abc",
     ".", ".git", "a.b", "a.py", "f(", "f()", "(", "[", "[1, 2]", "(3,)", "@", "a@b.org", "$", "$X", "%A%", "'", '"', "`",
     "1", "10", "1,000", "2nd", "中文", "「x」", " ", "\n", "_x", "ERROR", "APIs", "grep", "Err"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=30))
@example(["٣x٤"])
@example(["a", ".", "b", "(", ")"])
def test_shortcuts_give_the_reference_tokens(pieces: list[str]) -> None:
    message = "".join(pieces)
    assert _scan(message) == _reference_scan(message)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_shortcuts_give_the_reference_tokens_on_any_text(message: str) -> None:
    assert _scan(message) == _reference_scan(message)


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)


def test_shortcuts_give_the_reference_tokens_on_real_messages(deadends_dir: Path) -> None:
    texts = sorted({t for path in sorted(deadends_dir.rglob("*.json")) for t in _texts(json.loads(path.read_text("utf-8")))})
    assert len(texts) > 10_000
    differ = [t for t in texts if _scan(t) != _reference_scan(t)]
    assert differ == []
