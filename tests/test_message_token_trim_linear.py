"""A token's end is trimmed in linear time: the end moves back and each closing bracket is
counted once (the token was copied for each character dropped, and the brackets counted anew
for each closer, so a URL followed by 40 KB of `)` took 0.8 s to scan and 2 MB would take
half an hour). The same trimmed tokens as before; a 100 KB run of closers goes through lint."""

from __future__ import annotations

from pathlib import Path
from typing import SupportsIndex

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt

from .conftest import lint_corpus
from .hostile import entry_text


def _trim_as_before(text: str) -> str:
    """`_trim` as it was: a copy and a count for each character dropped."""
    while text:
        last = text[-1]
        if last in mt._TRAILING or (last in mt._BRACKETS and text.count(last) > text.count(mt._BRACKETS[last])):
            text = text[:-1]
        else:
            break
    return text


_ENDINGS = st.lists(st.sampled_from(["a", "x/", ".", ",", ";", ":", "!", "?", "(", ")", "[", "]", "{", "}", "é", " "]), max_size=16).map(
    "".join
)


@settings(max_examples=3000, deadline=None)
@given(_ENDINGS)
@example("f(x)).")
@example("a[b]]),.")
@example("((x)))!)")
@example("{a}}.]")
def test_a_token_is_trimmed_as_before(text: str) -> None:
    assert mt._trim(text) == _trim_as_before(text)


class _Counted(str):
    """A text whose slices and counts add up the characters they read (in `read[0]`)."""

    read = [0]

    def __getitem__(self, key: SupportsIndex | slice) -> _Counted:
        """The slice, its characters added up."""
        part = str.__getitem__(self, key)
        self.read[0] += len(part)
        return _Counted(part)

    def count(self, sub: str, start: SupportsIndex | None = None, end: SupportsIndex | None = None) -> int:
        """`str.count`, the characters it reads added up."""
        self.read[0] += len(range(*slice(start, end).indices(len(self))))
        return str.count(self, sub, start, end)


def test_the_characters_read_are_in_proportion_to_the_token() -> None:
    for text in ("http://x" + ")" * 2_000, "/a" + "." * 2_000, "f(x" + ".)" * 1_000, "[a]" + "]" * 2_000):
        _Counted.read[0] = 0
        trimmed = mt._trim(_Counted(text))
        assert trimmed == _trim_as_before(text)
        assert _Counted.read[0] <= 4 * len(text), text[:8]  # (as before: millions)


def test_a_long_run_of_closers_goes_through_lint(tmp_path: Path) -> None:
    signature = "see http://x.io/a" + ")" * 100_000
    result = lint_corpus(tmp_path, {"pip/x.yaml": entry_text("pip/x", signature=signature, regex="x")})
    assert [e.id for e in result.entries] == ["pip/x"]
    assert [(t.kind, t.text) for t in mt.scan(signature)] == [(mt.URL, "http://x.io/a")]
