"""`message_tokens` reads a pattern's first character before its lookbehind, gates two
patterns more sharply, and builds tokens without `Token.__init__`, for speed: the tokens
must be those of the grammar as first written, kept here."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt

from .scan_reference import plain_merge

_A = re.ASCII
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SHAPE_ITEM = r"-?\d+"
_SHAPE_SEP = r"\s*(?:,|[x×])\s*"

# The patterns as first written (place in the grammar -> regex), each with a leading lookbehind.
_FIRST_WRITTEN: dict[int, re.Pattern[str]] = {
    3: re.compile(
        r"(?<![\w`])`(?P<gnu>[^`'\n]+)'(?!\w)"
        r"|(?<!`)`(?P<code>[^`\n]+)`(?!`)"
        r"|(?<![\w'])'(?P<single>[^'\n]*)'(?![\w'])"
        r"|(?<![\w\"])\"(?P<double>[^\"\n]*)\"(?![\w\"])"
        r"|‘(?P<lsquo>[^’\n]*)’|“(?P<ldquo>[^”\n]*)”|„(?P<low>[^“”\n]*)[“”]"
        r"|«(?P<guillemet>[^»\n]*)»|‹(?P<angle>[^›\n]*)›|「(?P<corner>[^」\n]*)」|『(?P<white_corner>[^』\n]*)』"
    ),
    5: re.compile(r"(?<![\w/.~-])(?a:(?:~[\w.-]*|\.{1,2})?/[\w.@%+=~-]+(?:/[\w.@%+=~-]*)*)"),
    9: re.compile(r"(?<![\w./~-])\.[a-z_][\w.-]*", _A),
    11: re.compile(rf"(?<![\w$])\$(?:\{{{_NAME}\}}|{_NAME})|(?<![\w%])%{_NAME}%(?!\w)", _A),
    12: re.compile(r"(?<![\w%/.@+~$-])--?[A-Za-z][\w-]*", _A),
    13: re.compile(
        rf"\[\s*{_SHAPE_ITEM}(?:(?:{_SHAPE_SEP}{_SHAPE_ITEM})+\s*,?|\s*,)\s*\]"
        rf"|\(\s*{_SHAPE_ITEM}(?:(?:{_SHAPE_SEP}{_SHAPE_ITEM})+\s*,?|\s*,)\s*\)"
        r"|(?<![\w.])(?!0[xX])\d+(?:[x×]\d+)+(?![\w.])",
    ),
    14: re.compile(r"(?<![\w.])0[xX][0-9A-Fa-f]+(?![\w])", _A),
    15: re.compile(r"(?<![\w-])(?:[0-9a-f]{7,}|[0-9A-F]{8,})(?![\w-])", _A),
    16: re.compile(r"(?<![\w.])[vV]\d+(?:\.\d+)+", _A),
    17: re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+(?![\d,])|\d+(?:[.:]\d+)*)(?![\d])(?!\.\d)", _A),
    20: re.compile(r"(?<![\w\\])[A-Z]\w*(?:\\[A-Z]\w*)+", _A),
}


def _accept_word_as_written(match: re.Match[str]) -> mt.Token | None:
    word = match.group(0)
    if mt._metavariable(match):
        return mt.Token(mt.METAVAR, match.start(), match.end(), word, word)
    if mt._PLURAL_ACRONYM.fullmatch(word) and word[:-1] not in mt.SHOUTED_WORDS:
        return mt.Token(mt.ACRONYM, match.start(), match.end(), word, word[:-1])
    kind = mt.word_kind(word)
    if kind == mt.COMPOUND and match.start() == 0 and match.string[match.end() : match.end() + 1] == ":":
        kind = mt.CLASS
    if kind == mt.IDENTIFIER and mt._PLURAL_NAME.fullmatch(word):
        return mt.Token(kind, match.start(), match.end(), word, word[:-1])
    return mt.Token(kind, match.start(), match.end(), word, word) if kind else None


_WORD = len(mt._GRAMMAR) - 1


def _reference_scan(message: str) -> tuple[mt.Token, ...]:
    """The grammar as first written, by its plain merge: every pattern searched (no
    needed characters, no gates), the leftmost next match taken (the grammar's first
    at a tie) or passed."""
    regexes = [_FIRST_WRITTEN.get(index, pattern.regex) for index, pattern in enumerate(mt._GRAMMAR)]
    accepts = [pattern.accept for pattern in mt._GRAMMAR]
    accepts[_WORD] = _accept_word_as_written
    return plain_merge(message, regexes, accepts, [True] * len(regexes))


def _scan(message: str) -> tuple[mt.Token, ...]:
    return mt._scan.__wrapped__(message)


def _match(match: re.Match[str] | None) -> object:
    return None if match is None else (match.span(), match.groups(), match.lastgroup)


# Characters on each side of every rewritten lookbehind, and of the two sharper gates:
# digits of other scripts (a shape's `\d`), quotes, separators, hex letters, extensions.
_ALPHABET = list("aAfFxXvVzZs_09 .,:;-~/\\$%@+=[]()`'\"‘’“”„«»\n٣×é") + [
    ".py", ".PY", ".so.6", ".cpp", ".c(", ".txt-", "main", "0x1f", "v1.2", "1,000", "ab12cd34ef", "grep: ", "bash: cd: ", "g++: ",
    "Error: ", "APIs", "N_RBRACs", "ERRORs", "-W ", "<FILE>", "3x4",
]  # fmt: skip
_TEXTS = st.lists(st.sampled_from(_ALPHABET), max_size=40).map("".join)


@pytest.mark.parametrize("place", sorted(_FIRST_WRITTEN))
@settings(max_examples=150, deadline=None)
@given(message=_TEXTS)
@example(message="a.b ٣x٤ 0x1 (3,) [1 x 2] 0X 00x1")
def test_a_rewritten_pattern_matches_as_first_written_from_every_place(place: int, message: str) -> None:
    rewritten, written = mt._GRAMMAR[place].regex, _FIRST_WRITTEN[place]
    assert rewritten.groupindex == written.groupindex
    for position in range(len(message) + 1):
        assert _match(rewritten.search(message, position)) == _match(written.search(message, position))


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
@example("grep: x.py: y")  # the program gate: `name: ` prefixes
@example("g++: ld.so: cc-wrapper: failed")
@example("a.py-x( b.PY c.so.6 d.c( e.pyc")  # the file name gate: an extension, then no letter or digit
@example("APIs and N_RBRACs, not ERRORs")
def test_scan_gives_the_tokens_of_the_grammar_as_first_written(message: str) -> None:
    assert _scan(message) == _reference_scan(message)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_scan_gives_the_tokens_of_the_grammar_as_first_written_on_any_text(message: str) -> None:
    assert _scan(message) == _reference_scan(message)


def test_a_token_made_without_init_is_the_token() -> None:
    inner = (mt.Token(mt.NUMBER, 2, 3, "1", "1"),)
    made = mt._make(mt.QUOTED, 1, 4, "'1'", "1", "'", "'", inner)
    built = mt.Token(mt.QUOTED, 1, 4, "'1'", "1", "'", "'", inner)
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert dataclasses.astuple(made) == dataclasses.astuple(built)
    assert list(vars(made)) == [field.name for field in dataclasses.fields(mt.Token)]
    assert pickle.dumps(made) == pickle.dumps(built) and pickle.loads(pickle.dumps(made)) == built
    assert copy.deepcopy(made) == built and dataclasses.replace(made, end=5) == dataclasses.replace(built, end=5)
    with pytest.raises(TypeError):
        made < built  # type: ignore[operator]  # noqa: B015  (a token has no order, as before)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.start = 0  # type: ignore[misc]
    plain = mt._make(mt.IDENTIFIER, 0, 3, "a_b", "a_b")
    assert plain == mt.Token(mt.IDENTIFIER, 0, 3, "a_b", "a_b")
    assert (plain.quote, plain.closing, plain.inner) == ("", "", ())
