"""`message_tokens.scan`'s shortcuts (possessive quantifiers, gates that prove a pattern
absent) give the tokens the plain scan gives: every pattern's next match in a heap, with
the grammar's regexes as first written and no gate."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt

from .conftest import REPO
from .scan_reference import plain_merge

sys.path.insert(0, str(REPO / "benchmarks"))

import generate  # noqa: E402

_A = re.ASCII
_SHAPE_SEP = r"\s*(?:,|[x×])\s*"
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
# The grammar's regexes as they were before the shortcuts, in the grammar's order.
_PLAIN_REGEXES: tuple[re.Pattern[str], ...] = (
    re.compile(r"(?<![\w.+-])[a-z_][a-z0-9_+-]*(?=: )", _A),
    re.compile(r"(?<![\w.+-])[A-Za-z][A-Za-z0-9+.-]*://(?:(?![<>\"'`])[\x21-\x7e])+", _A),
    re.compile(r"(?<![\w.+%-])[A-Za-z0-9][\w.+%-]*@(?:[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)+|localhost\b)", _A),
    mt._QUOTES,
    re.compile(r"(?<![\w-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\w-])", _A),
    re.compile(r"[~./](?<![\w/.~-][~./])(?a:(?:(?<=~)[\w.-]*/|(?<=\.)\.?/|(?<=/))[\w.@%+=~-]+(?:/[\w.@%+=~-]*)*)"),
    re.compile(r"(?<!\w)[A-Za-z]:\\[\w.@%+~\\-]+", _A),
    re.compile(
        r"(?<![\w/.~@-])(?:refs/[\w.-]+(?:/[\w.-]+)+|(?:origin|upstream)/[\w.-]+(?:/[\w.-]+)*)"
        r"|(?<![\w.])HEAD(?:[~^]\d*)+|(?<![\w.])HEAD@\{\d+\}",
        _A,
    ),
    re.compile(r"(?<![\w/.~-])[\w.-]+(?:/[\w.-]+)+/?", _A),
    re.compile(r"\.(?<![\w./~-]\.)[a-z_][\w.-]*", _A),
    re.compile(r"(?<![\w.-])[\w-]+(?:\.[\w-]+)+(?![\w(])", _A),
    re.compile(rf"\$(?<![\w$]\$)(?:\{{{_NAME}\}}|{_NAME})|%(?<![\w%]%){_NAME}%(?!\w)", _A),
    re.compile(r"-(?<![\w%/.@+~$-]-)-?[A-Za-z][\w-]*", _A),
    re.compile(
        r"[\[(\d]"
        rf"(?:(?<=\[)\s*-?\d+(?:(?:{_SHAPE_SEP}-?\d+)+\s*,?|\s*,)\s*\]"
        rf"|(?<=\()\s*-?\d+(?:(?:{_SHAPE_SEP}-?\d+)+\s*,?|\s*,)\s*\)"
        r"|(?<=\d)(?<![\w.]\d)(?!(?<=0)[xX])\d*(?:[x×]\d+)+(?![\w.]))",
    ),
    re.compile(r"0(?<![\w.]0)[xX][0-9A-Fa-f]+(?![\w])", _A),
    re.compile(r"[0-9a-fA-F](?<![\w-][0-9a-fA-F])(?:(?<=[0-9a-f])[0-9a-f]{6,}|(?<=[0-9A-F])[0-9A-F]{7,})(?![\w-])", _A),
    re.compile(r"[vV](?<![\w.][vV])\d+(?:\.\d+)+", _A),
    re.compile(r"\d(?<![\w.]\d)(?:\d{0,2}(?:,\d{3})+(?![\d,])|\d*(?:[.:]\d+)*)(?![\d])(?!\.\d)", _A),
    re.compile(rf"(?<![\w.])(?P<name>{_NAME}(?:\.{_NAME})*)(?=\()(?P<empty>\(\s*\))?(?P<args>\((?:s|es)\))?", _A),
    re.compile(rf"(?<![\w.]){_NAME}(?:\.\w+)+", _A),
    re.compile(r"[A-Z](?<![\w\\][A-Z])\w*(?:\\[A-Z]\w*)+", _A),
    re.compile(r"(?<![\w.-])[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)+(?![\w-])", _A),
    re.compile(rf"(?<![\w.])(?![a-z]+(?!\w))(?![A-Z][a-z]+(?!\w)){_NAME}(?!\w)", _A),
)


def plain_scan(message: str) -> tuple[mt.Token, ...]:
    """The tokens of `message` by the plain algorithm: every pattern searched, no gate, no
    shortcut; the leftmost match first, of matches at one place the grammar's first."""
    accepts = [pattern.accept for pattern in mt._GRAMMAR]
    return plain_merge(message, _PLAIN_REGEXES, accepts, [True] * len(_PLAIN_REGEXES))


def assert_same_tokens(message: str) -> None:
    """`scan` and the plain scan agree on `message` and on the content of each quoted token."""
    tokens = mt._scan.__wrapped__(message)  # type: ignore[attr-defined]
    assert tokens == plain_scan(message), message
    for token in tokens:
        if token.quote:
            assert_same_tokens(token.value)


def test_the_plain_regexes_are_the_grammars_in_number() -> None:
    assert len(_PLAIN_REGEXES) == len(mt._GRAMMAR)


_PIECES = [
    "foo", "Bar", "A", "I", "x", "ab", "kernel_artifact", "__init__", "_start", "E0382", "N_RBRACs", "APIs", "FSDP",
    "ERROR", "PyTorch", "RuntimeError", "HttpClientTimeout", "MiB", "GiB", "x86-64", "python3-pip", "utf-8",
    "torch.cuda.OutOfMemoryError", "x1.y", "a.b", "e.g", "7031.00", "1.26.4", "v1.2.3", "2.0.0rc1", "10,000", "3:10",
    "127.0.0.1:5432", "16GB", "2nd", "1f4z", "0x7ffd5e8c", "4AEE18F83AFDEB23", "a1b2c3d", "abcdef1", "1234567",
    "deadbeef", "cafe123", "deadbeefcafe1234", "1234DEADBEEFCAFE", "ed25519", "123e4567-e89b-12d3-a456-426614174000", "/usr/lib/libc.so.6", "~/.cache/pip",
    "C:\\x.txt", "src/main.rs", ".git", "main.o", "refs/heads/main", "origin/main", "HEAD~2", "HEAD@{1}", "$HOME",
    "${PATH}", "%APPDATA%", "-rf", "--no-cache-dir", "--width=NUM", "-W PAGE_WIDTH", "--color[=WHEN]", "<FILE>",
    "[100, 256]", "(3,)", "(2 x 3)", "64x512", "f()", "barrier()", "item(s)", "App\\Models\\User",
    "https://pypi.org/simple/", "git@github.com", "root@localhost", "'q'", '"dq"', "`code`", "`main'", "‘x’", "“y”",
    "„z“", "«g»", "「c」", "『w』", "grep: ", "bash: cd: ", "error: ", "中文", "名刺/meishi", "（FSDP）", "١٢", "3×4",
    " ", " ", ", ", ". ", ": ", "\n", "(", ")", "[", "]", "{", "}", "'", '"', "`", "-", "_", ".", "/", "\\", "@", "$",
    "%", "~", "^", "x", "×", "0", "9", "=", "+", "#", "<", ">",
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
@example("RuntimeError: CUDA out of memory. Tried to allocate 7031.00 MiB for 'alpha_document' on device 2")
@example("node20: uncaught PageError: invalid producer_scope in adapter_version (did you mean router_vault?)")
@example("grep: x: No such file or directory")
@example("commit abcdef1 and 1234567 and 12ab and a1b2c3d4e5 failed")
def test_scan_gives_the_plain_scans_tokens(message: str) -> None:
    assert_same_tokens(message)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aAzZ_09fF.-/:'\"` \n()[]x×@$%~\\中")), max_size=60))
def test_scan_gives_the_plain_scans_tokens_on_any_characters(message: str) -> None:
    assert_same_tokens(message)


def _strings(data: Any) -> Iterator[str]:
    """Every string in a parsed entry, at any depth."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def _generated_texts() -> set[str]:
    """The texts of a generated template and diverse corpus, as `benchmarks/targets.py` makes them."""
    rng = random.Random(1)
    template = [generate.one_template_entry(index, rng) for index in range(300)]
    diverse = generate.make_entries(600, 1, "mixed")
    return {text for entry in template + diverse for text in _strings(entry)}


def test_scan_gives_the_plain_scans_tokens_on_generated_corpora() -> None:
    texts = _generated_texts()
    assert len(texts) > 1000
    for text in texts:
        assert_same_tokens(text)


def test_scan_gives_the_plain_scans_tokens_on_real_entries(deadends_dir: Path) -> None:
    texts = {text for path in sorted(deadends_dir.rglob("*.json")) for text in _strings(json.loads(path.read_text("utf-8")))}
    assert len(texts) > 1000
    for text in texts:
        assert_same_tokens(text)


@pytest.mark.parametrize(
    "message", ["id deadbeefcafe1234", "id 1234DEADBEEFCAFE", "commit a1b2c3d", "x1.y.z a.b 3.14 kernel_x.y", "grep: x: y"]
)
def test_scan_finds_the_tokens_the_gates_let_through(message: str) -> None:
    assert mt.scan(message) == plain_scan(message) and mt.scan(message)


def _plain_candidates(message: str) -> tuple[int, ...]:
    """The patterns (by place in the grammar) whose needed characters `message` holds, read one by one."""
    return tuple(i for i, p in enumerate(mt._GRAMMAR) if not p.needs or any(c in message for c in p.needs))


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127)) | st.text(alphabet=st.sampled_from(list(":@'\"`-/\\~^.$%[(xX×0189 aZ‘中"))))
@example("version 1.2")
@example("中文 (x) 7")
def test_the_candidates_of_a_message_are_the_patterns_whose_characters_it_holds(message: str) -> None:
    assert mt._candidates_for(message) == _plain_candidates(message)


_WORD_LETTERS = st.sampled_from(list("aesxzAESXZ_019") + ["Error", "ERROR", "NOT", "MiB", "s"])


@settings(max_examples=1000, deadline=None)
@given(st.lists(_WORD_LETTERS, min_size=1, max_size=8).map("".join))
@example("_")
@example("__init__")
@example("A")
@example("Ab_")
@example("AB_")
@example("aB")
@example("ERROR_")
def test_an_ascii_words_kind_is_word_kinds(word: str) -> None:
    assert mt._ascii_word_kind(word) == mt.word_kind(word)


@given(st.text(alphabet=st.sampled_from(list("aA_-1 ßǅ中"))))
def test_removing_underscores_and_hyphens_leaves_a_words_capitals_as_they_were(word: str) -> None:
    # `_accept_word` and `_metavariable` test `word.isupper()` where they tested it without `_` and `-`.
    assert word.isupper() == word.replace("_", "").replace("-", "").isupper()
