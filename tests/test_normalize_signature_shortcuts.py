"""The normalised signature and the environment test of an id slug token equal their plain computations."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import message_tokens
from entrykit.similarity import near_duplicates as dupes


def _plain_normalize(text: str) -> str:
    """`normalize_signature` as it was: every word kept but a unit right after a number."""
    text = message_tokens.fold(text)
    placeholders = dupes.PLACEHOLDERS

    def sentence(token: message_tokens.Token) -> bool:
        return token.kind not in placeholders or bool(dupes._SPACE.search(token.value))

    tokens = [t for t in message_tokens.walk(message_tokens.scan(text), sentence) if t.kind in placeholders]
    text = message_tokens.replace(text, tokens, lambda t: f" {placeholders[t.kind]} ", str.casefold)
    words = dupes._WORD.findall(text)
    return " ".join(
        w for n, w in enumerate(words) if not (n and w in dupes._UNIT_WORDS and words[n - 1] in dupes._NUMBERS)
    )


def _plain_env_like(token: str) -> bool:
    """`_env_like` as it was, with generator tests of each character."""
    if any(c.isdigit() for c in token) and any(c.isalpha() for c in token):
        return True
    if token in dupes._ENV_WORDS:
        return True
    return len(token) == 2 and token.isalpha() and token not in dupes._NOT_CODES


_PIECES = st.sampled_from([
    "CUDA out of memory.", "Tried to allocate", "20.00", "MiB", "1.50 GiB", "7 ms", "at 0x7ffe1234", "gb", "kb",
    "'alpha_extension'", "on device 5", "/tmp/x.txt", "v1.2.3", "bytes", "seconds", "²", "١٢", "Ⅻ", "3 MB", "\n",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=12))
def test_normalize_signature_is_the_plain_one(pieces: list[str]) -> None:
    text = " ".join(pieces)
    assert dupes.normalize_signature(text) == _plain_normalize(text)


def test_normalize_signature_with_and_without_units() -> None:
    for text in ("Tried to allocate 20.00 MiB on device 5", "KeyError: 'foo'", "MiB 20 mib", "took 7 ms, 8 seconds"):
        assert dupes.normalize_signature(text) == _plain_normalize(text)
    assert dupes.normalize_signature("allocate 20.00 MiB") == "allocate vnum"


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.text(max_size=8), st.sampled_from(["py311", "linux", "jp", "in", "x²", "٣a", "ⅫA", "cpu", "12"])))
def test_env_like_is_the_plain_one(token: str) -> None:
    assert dupes._env_like(token) == _plain_env_like(token)
