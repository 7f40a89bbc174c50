"""The one grammar of message tokens, on messages real tools print: every class, spans, consumers."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt
from entrykit.regex.suggest import suggest_regex
from entrykit.similarity.near_duplicates import normalize_signature
from entrykit.translation import preserved_tokens

# (tool, message as the tool prints it, the tokens: class and text, quoted ones with their content's tokens)
MESSAGES: list[tuple[str, str, list[tuple[str, str]]]] = [
    ("python", "ModuleNotFoundError: No module named 'numpy'", [("class", "ModuleNotFoundError"), ("quoted", "'numpy'")]),
    (
        "python",
        'File "/app/main.py", line 12, in <module>',
        [("quoted", '"/app/main.py"'), ("path", "/app/main.py"), ("number", "12")],
    ),
    (
        "pytorch",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity)",
        [("dotted", "torch.OutOfMemoryError"), ("acronym", "CUDA"), ("number", "2.00"), ("acronym", "GPU"),
         ("number", "0"), ("number", "15.78")],
    ),
    (
        "pytorch",
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 256x10)",
        [("class", "RuntimeError"), ("identifier", "mat1"), ("identifier", "mat2"), ("shape", "64x512"), ("shape", "256x10")],
    ),
    (
        "pytorch",
        "ValueError: expected shape (2 x 3) but got torch.Size([4, 3]) and (3,) for index [5]",
        [("class", "ValueError"), ("shape", "(2 x 3)"), ("call", "torch.Size"), ("shape", "[4, 3]"), ("shape", "(3,)"),
         ("number", "5")],
    ),
    (
        "python",
        (
            "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.com', port=443): "
            "Max retries exceeded with url: /v1/items"
        ),
        [("dotted", "requests.exceptions.ConnectionError"), ("call", "HTTPSConnectionPool"), ("quoted", "'api.example.com'"),
         ("dotted", "api.example.com"), ("number", "443"), ("path", "/v1/items")],
    ),
    ("node", "Error: connect ECONNREFUSED 127.0.0.1:5432", [("acronym", "ECONNREFUSED"), ("address", "127.0.0.1:5432")]),
    (
        "node",
        "TypeError: Cannot read properties of undefined (reading 'map')",
        [("class", "TypeError"), ("quoted", "'map'")],
    ),
    (
        "node",
        "    at Object.<anonymous> (/home/me/app/index.js:3:15)",
        [("path", "/home/me/app/index.js"), ("position", "3:15")],
    ),
    (
        "npm",
        "npm ERR! 404 Not Found - GET https://registry.npmjs.org/left-pad-x - Not found",
        [("acronym", "ERR"), ("number", "404"), ("acronym", "GET"), ("url", "https://registry.npmjs.org/left-pad-x")],
    ),
    (
        "git",
        "Your branch is ahead of 'origin/main' by 3 commits.",
        [("quoted", "'origin/main'"), ("ref", "origin/main"), ("number", "3")],
    ),
    (
        "git",
        (
            "error: cannot lock ref 'refs/remotes/origin/main': is at 3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b "
            "but expected 1a2b3c4"
        ),
        [("quoted", "'refs/remotes/origin/main'"), ("ref", "refs/remotes/origin/main"),
         ("hex", "3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b"), ("hex", "1a2b3c4")],
    ),
    (
        "git",
        "fatal: ambiguous argument 'HEAD~5': unknown revision or path not in the working tree.",
        [("quoted", "'HEAD~5'"), ("ref", "HEAD~5")],
    ),
    ("git", "git@github.com: Permission denied (publickey).", [("email", "git@github.com")]),
    ("git", "fatal: not a git repository (or any of the parent directories): .git", [("path", ".git")]),
    (
        "pip",
        "ERROR: Could not find a version that satisfies the requirement torch==2.1.0 (from versions: none)",
        [("version", "2.1.0")],
    ),
    (
        "pip",
        "Requirement already satisfied: numpy>=1.21 in /usr/lib/python3/dist-packages (1.24.4)",
        [("number", "1.21"), ("path", "/usr/lib/python3/dist-packages"), ("version", "1.24.4")],
    ),
    (
        "pip",
        "error: externally-managed-environment ... hint: See PEP 668; pass --break-system-packages",
        [("acronym", "PEP"), ("number", "668"), ("flag", "--break-system-packages")],
    ),
    (
        "docker",
        "Bind for 0.0.0.0:8080 failed: port is already allocated (container 3f2a9c1b7d4e)",
        [("address", "0.0.0.0:8080"), ("hex", "3f2a9c1b7d4e")],
    ),
    (
        "docker",
        "permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock",
        [("url", "unix:///var/run/docker.sock")],
    ),
    (
        "gcc",
        "main.c:3:10: fatal error: stdio.h: No such file or directory",
        [("path", "main.c"), ("position", "3:10"), ("path", "stdio.h")],
    ),
    (
        "ld",
        "/usr/bin/ld: main.o: in function `main': main.c:(.text+0x15): undefined reference to `foo'",
        [("path", "/usr/bin/ld"), ("path", "main.o"), ("quoted", "`main'"), ("path", "main.c"), ("path", ".text"),
         ("hex", "0x15"), ("quoted", "`foo'")],
    ),
    (
        "cargo",
        "error[E0382]: borrow of moved value: `v`",
        [("identifier", "E0382"), ("code", "`v`")],
    ),
    ("cargo", "  --> src/main.rs:5:20", [("path", "src/main.rs"), ("position", "5:20")]),
    (
        "cargo",
        "error: failed to select a version for the requirement `serde = \"^1.0.200\"`",
        [("code", '`serde = "^1.0.200"`'), ("quoted", '"^1.0.200"'), ("version", "1.0.200")],
    ),
    (
        "java",
        'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "<local1>" is null',
        [("quoted", '"main"'), ("dotted", "java.lang.NullPointerException"), ("quoted", '"String.length()"'),
         ("call", "String.length()"), ("quoted", '"<local1>"'), ("identifier", "local1")],
    ),
    (
        "java",
        "\tat com.example.App.main(App.java:14)",
        [("call", "com.example.App.main"), ("path", "App.java"), ("number", "14")],
    ),
    ("java", "Invalid maximum heap size: -Xmx4g", [("flag", "-Xmx4g")]),
    ("go", "panic: runtime error: index out of range [5] with length 3", [("program", "panic"), ("number", "5"), ("number", "3")]),
    (
        "apt",
        "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1234 (apt-get)",
        [("path", "/var/lib/dpkg/lock-frontend"), ("number", "1234")],
    ),
    (
        "dpkg",
        "dpkg: error processing package libc6:amd64 (--configure):",
        [("program", "dpkg"), ("identifier", "libc6"), ("identifier", "amd64"), ("flag", "--configure")],
    ),
    ("bash", "bash: ./run.sh: Permission denied", [("program", "bash"), ("path", "./run.sh")]),
    ("bash", "bash: $HOME: is a directory; ${PATH} unset", [("program", "bash"), ("variable", "$HOME"), ("variable", "${PATH}")]),
    ("bash", "bash: cd: www-data: not a shell builtin", [("program", "bash"), ("program", "cd"), ("program", "www-data")]),
    ("make", "make: *** No rule to make target `all'.  Stop.", [("program", "make"), ("quoted", "`all'")]),
    (
        "diff",
        "diff: invalid width; use -W NUM or --width=NUM, --color[=WHEN] for <FILE>",
        [("program", "diff"), ("flag", "-W"), ("metavar", "NUM"), ("flag", "--width"), ("metavar", "NUM"),
         ("flag", "--color"), ("metavar", "WHEN"), ("metavar", "FILE")],
    ),
    (
        "apt",
        "E: Failed to open StateFile python3-pip; Dynamic MMap ran out of room",
        [("compound", "StateFile"), ("identifier", "python3-pip"), ("compound", "MMap")],
    ),
    (
        "gpg",
        'gpg: key 4AEE18F83AFDEB23: public key "GitHub (web-flow commit signing) <noreply@github.com>" imported',
        [("program", "gpg"), ("hex", "4AEE18F83AFDEB23"),
         ("quoted", '"GitHub (web-flow commit signing) <noreply@github.com>"'), ("compound", "GitHub"),
         ("email", "noreply@github.com")],
    ),
    (
        "terraform",
        "Error: state snapshot was created by Terraform v1.6.0, which is newer than current v1.5.7",
        [("version", "v1.6.0"), ("version", "v1.5.7")],
    ),
    ("kernel", "Out of memory: Killed process 4242 (python3) total-vm:16GB, anon-rss:15GB", [
        ("number", "4242"), ("identifier", "python3"), ("quantity", "16GB"), ("quantity", "15GB")]),
    (
        "windows",
        "The system cannot find the path specified: C:\\Users\\me\\AppData\\Local\\Temp (%TEMP%)",
        [("path", "C:\\Users\\me\\AppData\\Local\\Temp"), ("variable", "%TEMP%")],
    ),
    ("python", "0xdeadbeef is not v1.2.3, uuid 550e8400-e29b-41d4-a716-446655440000", [
        ("hex", "0xdeadbeef"), ("version", "v1.2.3"), ("hex", "550e8400-e29b-41d4-a716-446655440000")]),
    ("grep", "grep: invalid character class; see ‘grep --help’ «ещё» „mehr“", [
        ("program", "grep"), ("quoted", "‘grep --help’"), ("flag", "--help"), ("quoted", "«ещё»"), ("quoted", "„mehr“")]),
]


def flat(tokens: tuple[mt.Token, ...]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for token in tokens:
        out.append((token.kind, token.text))
        out.extend(flat(token.inner))
    return out


@pytest.mark.parametrize(("tool", "message", "expected"), MESSAGES, ids=[f"{t}-{m[:30]}" for t, m, _ in MESSAGES])
def test_real_messages(tool: str, message: str, expected: list[tuple[str, str]]) -> None:
    assert flat(mt.scan(message)) == expected


def test_the_table_shows_every_class() -> None:
    shown = {kind for _, message, _ in MESSAGES for kind, _ in flat(mt.scan(message))}
    assert shown == set(mt.KINDS)


@pytest.mark.parametrize(
    "message",
    [
        "the parameter(s) of and/or input/output/error, e.g. HTTP/1.1 or non-2xx/3xx",
        "don't use the users' files",  # apostrophes are no quotes
        "ed25519 keys since dec2014 at the cafe123",  # words with digits are no hex ids
        "the 2nd try of %-expand in a non-zero well-known .NET app",
        "名刺/meishi, Turkish/Iraqi/Syrian",
    ],
)
def test_prose_yields_no_volatile_token(message: str) -> None:
    volatile = {mt.URL, mt.EMAIL, mt.QUOTED, mt.CODE, mt.HEX, mt.PATH, mt.REF, mt.VARIABLE, mt.FLAG, mt.SHAPE}
    assert [t for t in mt.scan(message) if t.kind in volatile] == []


def test_quoted_tokens_keep_their_quotes_and_content() -> None:
    gnu, curly, code = mt.scan("`main' and ‘x y’ and `it's`")
    assert (gnu.quote, gnu.value, gnu.closing) == ("`", "main", "'")
    assert (curly.quote, curly.value, curly.closing) == ("‘", "x y", "’")
    assert (code.kind, code.value) == (mt.CODE, "it's")


@pytest.mark.parametrize(
    ("message", "suggested", "normalized", "kept"),
    [
        # One reading of `[100]`, `(2 x 3)`, `0xdeadbeef` and `v1.2.3` for every consumer.
        ("got [100] at 0xdeadbeef", r"got \[\d+\] at 0x[0-9a-fA-F]+", "got vnum at vhex", [("number", "100"), ("hex", "0xdeadbeef")]),
        ("shape (2 x 3) in v1.2.3", r"shape \(\d+(?: *[x×] *\d+)*\) in v\d+(?:\.\d+)*", "shape vshape in vnum",
         [("shape", "(2 x 3)"), ("version", "v1.2.3")]),
    ],
)
def test_consumers_read_tokens_alike(message: str, suggested: str, normalized: str, kept: list[tuple[str, str]]) -> None:
    assert suggest_regex(message) == suggested
    assert normalize_signature(message) == normalized
    assert [(t.kind, t.text) for t in preserved_tokens.extract(message)] == kept


def test_near_duplicate_placeholders_are_a_parameter() -> None:
    message = "No module named 'torch' in /usr/lib/python3"
    assert normalize_signature(message) == "no module named torch in vpath"
    assert normalize_signature(message, {mt.QUOTED: "vquoted", mt.PATH: "vpath"}) == "no module named vquoted in vpath"


_CHARS = list("abcXYZ_019 .,:;()[]'\"`/\\-=~@%$x×") + ["Error", "0x1f", "origin/", "refs/", "‘", "’", "«", "»", ".py"]


@given(st.lists(st.sampled_from(_CHARS), max_size=50).map("".join))
def test_spans_are_ordered_and_hold_their_text(message: str) -> None:
    tokens = mt.scan(message)
    for first, second in pairwise(tokens):
        assert first.end <= second.start
    for token in tokens:
        assert token.kind in mt.KINDS and message[token.start : token.end] == token.text
        for inner in token.inner:
            assert token.start < inner.start and inner.end < token.end
            assert message[inner.start : inner.end] == inner.text


# The flags a suggestion may be compiled with: VERBOSE ignores bare whitespace and reads `#` as a comment.
_SUGGEST_FLAGS = [0, re.IGNORECASE, re.VERBOSE, re.VERBOSE | re.IGNORECASE]


@pytest.mark.parametrize("flags", _SUGGEST_FLAGS)
@given(message=st.lists(st.sampled_from([*_CHARS, "#", "\n", " x "]), max_size=50).map("".join))
@example(message="0×0")  # a bare shape once kept its first and last digit as if they were brackets
@example(message="1x1")
@example(message="at 1.2.3:45 failed")  # a position with dots once became `\d+(?::\d+)*`, which missed it
@example(message="build 2.0:1 crashed")
@example(message="shape [-1 x 2] bad")  # under VERBOSE its ` *[x×] *` once did not compile
@example(message="disk full: 5 MB left # x")
def test_suggested_regex_matches_its_message(flags: int, message: str) -> None:
    for level in ("general", "names kept", "literal"):
        assert re.search(suggest_regex(message, level, flags), message, flags), level


def _scan_by_position(message: str) -> tuple[mt.Token, ...]:
    """The grammar's definition, spelled out: at each place, the first pattern that
    matches there and is accepted takes the span. Quadratic; `scan` must agree."""
    found: list[mt.Token] = []
    position = 0
    while position < len(message):
        for pattern in mt._GRAMMAR:
            match = pattern.regex.match(message, position)
            token = pattern.accept(match) if match is not None else None
            if token is not None:
                found.append(token)
                position = token.end
                break
        else:
            position += 1
    return tuple(found)


_PIECES = st.sampled_from(
    ["foo", "Bar", "x.y", "a/b/c", "/usr/lib", "--flag=1", "`code`", "'q'", '"dq"', "[1, 2]", "(3, 4)", "`x'",
     "f()", "0x1f", "12.5", "1,000", "https://e.org/x", " ", ", ", ".", "C:\\x", "2nd", "中文", "\n", "origin/main",
     "a@b.org", "$X", "1.2.3", "v2.0", "10.0.0.1:80", "3:10", "16GB", "a1b2c3d4", "main.py", ".git", "64x8"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40))
def test_scan_agrees_with_the_grammar_spelled_out(pieces: list[str]) -> None:
    message = "".join(pieces)
    assert mt._scan.__wrapped__(message) == _scan_by_position(message)  # type: ignore[attr-defined]
