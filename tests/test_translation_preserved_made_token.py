"""Preserved tokens made with their fields set at once are the tokens the dataclass makes:
equal, with the same hash and repr, still frozen, and those of the plain walk of a scan."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt
from entrykit.translation import preserved_tokens as pt


def _extract_by_walk(text: str) -> list[pt.Token]:
    """The preserved tokens as the dataclass makes them from `message_tokens.walk`."""
    out: list[pt.Token] = []
    for token in mt.walk(mt.scan(text), pt._read_inside):
        kind = token.kind
        kept = (token.value.strip() if kind == pt.CODE else token.value) if kind in pt._VALUE_KINDS else token.text
        if kept:
            out.append(pt.Token(kind, kept, token.start, token.end))
    return out


_PIECES = st.sampled_from(
    ["the", "file", "RuntimeError", "'x y'", "'alpha_blob'", "`a b`", "` `", "torch.cuda", "E0382", "--flag", "a/b.py",
     " ", ", ", "中文", "f()", "HEAD~1", "snake_case", "CUDA", "APIs", "16GB", "12", "v1.2.3", "\"q 'r s' t\"", "(", ")",
     "[100, 256]", "0x1f", "'Taiwan'", "「名前」", "-W PAGE_WIDTH", "grep: "]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=16).map("".join))
def test_extract_makes_the_tokens_of_the_plain_walk(text: str) -> None:
    made = pt.extract(text)
    plain = _extract_by_walk(text)
    assert made == plain, text
    assert [hash(t) for t in made] == [hash(t) for t in plain]
    assert [repr(t) for t in made] == [repr(t) for t in plain]
    assert all(type(t) is pt.Token for t in made)


def test_a_token_made_at_once_is_still_frozen() -> None:
    token = pt._made_token(pt.NUMBER, "12", 3, 5)
    assert token == pt.Token(pt.NUMBER, "12", 3, 5)
    assert dataclasses.astuple(token) == (pt.NUMBER, "12", 3, 5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        token.text = "13"  # type: ignore[misc]
