"""Hostile inputs by class: files a stranger's pull request could hold, and what entrykit must make of them.

`BAD_FILES` maps each class of bad input to files (name -> bytes); every one must
load as ET001 with a position, or as an entry whose problems are diagnostics.
`special_files` makes what cannot be bytes: symbolic links, a pipe, a directory
named like an entry, unreadable files. The tests use both.
"""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path

MB = 1024 * 1024


def entry_text(entry_id: str, signature: str = "ERROR: boom", regex: str = "ERROR: boom", **extra: object) -> str:
    """A small YAML entry; `extra` fields are added as JSON values (valid YAML)."""
    lines = [f"id: {entry_id}", f"signature: {json.dumps(signature, ensure_ascii=False)}", f"regex: {json.dumps(regex, ensure_ascii=False)}"]
    lines += [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


def _entry(name: str, **fields: object) -> bytes:
    return entry_text(f"bad/{name}", **fields).encode("utf-8")  # type: ignore[arg-type]


def _json_entry(name: str, text_after_id: str) -> bytes:
    return ('{"id": "bad/' + name + '", ' + text_after_id + "}").encode("utf-8")


_GOOD = entry_text("bad/x").encode("utf-8")


def _laughs(levels: int, width: int) -> bytes:
    text = "lol: &l0 [" + ", ".join(["lol"] * width) + "]\n"
    for level in range(1, levels):
        text += f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]\n"
    return text.encode()


def _regex_entry(name: str, regex: str) -> bytes:
    return _entry(name, signature="aaaa", regex=regex)


def _wide_classes(count: int) -> str:
    return "(?i)" + "".join(f"[{chr(0x100 + i % 50)}-{chr(0xFFE0 + i % 16)}]" for i in range(count))


BAD_FILES: dict[str, dict[str, bytes]] = {
    "invalid UTF-8": {
        "lone-byte.yaml": _GOOD.replace(b"boom", b"bo\xffom", 1),
        "truncated-sequence.yaml": _GOOD + b"root_cause: \xe4\xb8",
        "overlong.json": b'{"id": "bad/overlong", "signature": "\xc0\xaf"}',
        "surrogate.yaml": _GOOD.replace(b"boom", b"b\xed\xa0\x80m", 1),
    },
    "UTF-16 or UTF-32 with BOM": {
        "utf16le.yaml": codecs.BOM_UTF16_LE + _GOOD.decode().encode("utf-16-le"),
        "utf16be.json": codecs.BOM_UTF16_BE + '{"id": "bad/u16"}'.encode("utf-16-be"),
        "utf32.yaml": codecs.BOM_UTF32_LE + _GOOD.decode().encode("utf-32-le"),
    },
    "NUL bytes": {
        "nul-inside.yaml": _GOOD.replace(b"boom", b"bo\x00om", 1),
        "nul-first.json": b"\x00" + _json_entry("nul", '"signature": "x"'),
        "binary.yaml": bytes(range(256)) * 8,
    },
    "empty file": {
        "empty.yaml": b"",
        "blank.json": b"  \n\t\n",
        "comment-only.yaml": b"# nothing here\n",
        "document-marker.yaml": b"---\n...\n",
    },
    "10 MB single-line file": {
        "ten-mb.yaml": b"signature: " + b"a" * (10 * MB) + b"\n",
        "ten-mb.json": b'{"signature": "' + b"a" * (10 * MB) + b'"}',
    },
    "deep nesting (100,000 levels)": {
        "deep-flow.yaml": b"id: bad/deep\ntags: " + b"[" * 100_000 + b"]" * 100_000 + b"\n",
        "deep-compact.yaml": b"- " * 100_000 + b"x\n",
        "deep-mapping.yaml": b"".join(b" " * i + b"k:\n" for i in range(200)) + b" " * 200 + b"k: v\n",
        "deep-arrays.json": b"[" * 100_000 + b"]" * 100_000,
        "deep-objects.json": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "just-over-the-limit.json": _json_entry("deep", '"os_specific": ' + '{"a": ' * 50 + "1" + "}" * 50),
    },
    "YAML alias bombs": {
        "billion-laughs.yaml": _laughs(9, 9),
        "doubling.yaml": _laughs(40, 2),
        "recursive-sequence.yaml": b"id: bad/rec\ntags: &x [*x]\n",
        "recursive-mapping.yaml": b"id: bad/rec\nos_specific: &x {a: *x}\n",
        "many-aliases.yaml": b"id: bad/many\nanchor: &a [1]\nlist: [" + b", ".join([b"*a"] * 51) + b"]\n",
    },
    "arbitrary tags (never constructed)": {
        "os-system.yaml": b"id: !!python/object/apply:os.system ['touch SENTINEL']\n",
        "os-system-top.yaml": b"!!python/object/apply:os.system\n- touch SENTINEL\n",
        "object-new.yaml": b"id: bad/tag\nx: !!python/object/new:os.system [touch SENTINEL]\n",
        "python-name.yaml": b"id: bad/tag\nx: !!python/name:os.system\n",
        "local-tag.yaml": b"id: bad/tag\nx: !custom {a: 1}\n",
        "binary-tag.yaml": b"id: bad/tag\nx: !!binary aGVsbG8=\n",
        "set-tag.yaml": b"id: bad/tag\nx: !!set {a, b}\n",
        "timestamp-tag.yaml": b"id: bad/tag\nfirst_seen: !!timestamp 2024-01-01\n",
    },
    "top-level list or scalar": {
        "list.yaml": b"- a\n- b\n",
        "string.yaml": b"just a string\n",
        "number.json": b"42",
        "null.json": b"null",
        "bool.yaml": b"true\n",
        "list.json": b'[{"id": "bad/x"}]',
        "two-documents.yaml": _GOOD + b"---\n" + _GOOD,
    },
    "duplicate keys": {
        "dupe.yaml": _GOOD + b"id: bad/x-again\n",
        "dupe.json": b'{"id": "bad/dupe", "signature": "a", "regex": "a", "id": "bad/dupe2"}',
        "nested-dupe.yaml": _GOOD + b"os_specific:\n  linux: a\n  linux: b\n",
    },
    "non-string keys": {
        "int-key.yaml": _GOOD + b"os_specific:\n  10: win\n",
        "bool-null-keys.yaml": _GOOD + b"true: yes\nnull: x\n3.5: y\n",
        "complex-keys.yaml": _GOOD + b"[a, b]: c\n{x: y}: z\n? [1]\n: 2\n",
    },
    "NaN and Infinity": {
        "nan.json": _json_entry("nan", '"signature": "a", "regex": "a", "confidence": NaN'),
        "infinity.json": _json_entry("inf", '"signature": "a", "regex": "a", "fix_success_rate": -Infinity'),
        "yaml-nan.yaml": _GOOD + b"confidence: .nan\nevidence_count: .inf\n",
    },
    "dates that are not dates": {
        "feb-30.yaml": _entry("feb-30", first_seen="2019-02-30"),
        "month-13.yaml": _entry("month-13", last_confirmed="2026-13-45"),
        "words.yaml": _entry("words", last_updated="not a date"),
        "unquoted-timestamp.yaml": _GOOD + b"first_seen: 2024-01-01T10:00:00Z\nlast_confirmed: 2024-01-01\n",
        "number-date.yaml": _GOOD + b"first_seen: 20240101\n",
        "list-date.yaml": _GOOD + b"first_seen: [2024, 1, 1]\n",
        "year-zero.yaml": _entry("year-zero", first_seen="0000-00-00"),
        "five-digit-year.yaml": _entry("five-digit-year", first_seen="99999-01-01"),
    },
    "regex of 100,000 characters": {
        "literal-regex.yaml": _regex_entry("literal-regex", "a" * 100_000),
        "alternation-regex.yaml": _regex_entry("alternation-regex", "(a|b)" * 20_000),
        "wide-classes-regex.yaml": _regex_entry("wide-classes-regex", _wide_classes(12_000)[:100_000]),
        "nested-groups-regex.yaml": _regex_entry("nested-groups-regex", "(" * 50_000 + "a" + ")" * 50_000),
        "nested-repeats-regex.yaml": _regex_entry("nested-repeats-regex", "(?:" * 25_000 + "a" + ")*" * 25_000),
        "star-chain-regex.yaml": _regex_entry("star-chain-regex", "a*" * 50_000),
        "huge-repeat-regex.yaml": _regex_entry("huge-repeat-regex", "(?:a{65535}){65535}" + "b" * 99_980),
        "over-repeat-regex.yaml": _regex_entry("over-repeat-regex", "a{4294967296}" + "b" * 99_987),
    },
    "signature of 1 MB": {
        "letters.yaml": _entry("letters", signature="a" * MB, regex="a+b"),
        "paths.yaml": _entry("paths", signature=("/a.b-c_d " * (MB // 9 + 1))[:MB], regex=r"(/\w+)+$"),
        "quotes.yaml": _entry("quotes", signature=("'a" * MB)[:MB], regex="'a'"),
        "shapes.yaml": _entry("shapes", signature=("[1, " * MB)[:MB], regex=r"\[\d+\]"),
        "calls.yaml": _entry("calls", signature=("f(" * MB)[:MB], regex=r"f\(\)"),
        "cjk.yaml": _entry("cjk", signature="中" * (MB // 3), regex="中+文"),
        "words.yaml": _entry("words", signature=("error " * MB)[:MB], regex="(error )+x"),
    },
}


def write_bad_files(folder: Path) -> dict[Path, str]:
    """Every file of `BAD_FILES` below `folder` (one subfolder per class); path -> class."""
    written: dict[Path, str] = {}
    for number, (kind, files) in enumerate(BAD_FILES.items()):
        target = folder / f"class{number:02d}"
        target.mkdir(parents=True, exist_ok=True)
        for name, raw in files.items():
            (target / name).write_bytes(raw)
            written[target / name] = kind
    return written


def can_make_unreadable(path: Path) -> bool:
    """True if permissions can stop this process from reading `path` (not as root)."""
    return os.geteuid() != 0 if hasattr(os, "geteuid") else False


def special_files(folder: Path, outside: Path) -> dict[str, list[Path]]:
    """Files that are not bytes: links, a pipe, a directory named like an entry, unreadable
    ones. `outside` is a folder beyond the corpus. Returns class -> the paths made."""
    folder.mkdir(parents=True, exist_ok=True)
    outside.mkdir(parents=True, exist_ok=True)
    secret = outside / "secret.yaml"
    secret.write_text(entry_text("bad/secret", signature="top secret"), encoding="utf-8")
    made: dict[str, list[Path]] = {"symlink loop": [], "symlink outside the corpus": [],
                                   "directory named like an entry": [], "unreadable file": [],
                                   "not a regular file": []}
    loop_a, loop_b = folder / "loop-a.yaml", folder / "loop-b.yaml"
    os.symlink(loop_b.name, loop_a)
    os.symlink(loop_a.name, loop_b)
    os.symlink(".", folder / "loop-dir")  # a directory link to itself: never followed
    made["symlink loop"] += [loop_a, loop_b, folder / "loop-dir"]
    os.symlink(secret, folder / "leak.yaml")
    os.symlink(outside, folder / "leak-dir")
    os.symlink("/dev/zero", folder / "zero.yaml")
    os.symlink(folder / "nowhere" / "gone.yaml", folder / "dangling.yaml")
    made["symlink outside the corpus"] += [folder / "leak.yaml", folder / "leak-dir", folder / "zero.yaml"]
    made["symlink loop"].append(folder / "dangling.yaml")
    named = folder / "dir-entry.yaml"
    named.mkdir()
    (named / "inside.yaml").write_text(entry_text("bad/inside"), encoding="utf-8")
    made["directory named like an entry"].append(named)
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "pipe.yaml")
        made["not a regular file"].append(folder / "pipe.yaml")
    locked = folder / "locked.yaml"
    locked.write_text(entry_text("bad/locked"), encoding="utf-8")
    os.chmod(locked, 0)
    locked_dir = folder / "locked-dir"
    locked_dir.mkdir()
    (locked_dir / "hidden.yaml").write_text(entry_text("bad/hidden"), encoding="utf-8")
    os.chmod(locked_dir, 0)
    made["unreadable file"] += [locked, locked_dir]
    return made


def restore_permissions(folder: Path) -> None:
    """Undo `special_files`' chmods so the folder can be removed."""
    for path in (folder / "locked.yaml", folder / "locked-dir"):
        if path.exists():
            os.chmod(path, 0o755)


def input_counts() -> dict[str, int]:
    """How many inputs each class holds (for the report)."""
    return {kind: len(files) for kind, files in BAD_FILES.items()}


# -- hostile regexes -------------------------------------------------------------------------

LONG = 20_000  # characters of the long signatures and examples


def hostile_regexes() -> dict[str, tuple[str, str, list[str]]]:
    """Catastrophic regexes by name -> (regex, signature, examples): every one backtracks
    exponentially or to a high degree, or costs seconds to compile, on the texts beside it."""
    a_run = "a" * LONG + "!"
    words = "word " * (LONG // 5) + "!"
    return {
        "nested-plus": (r"(a+)+$", a_run, ["a" * 5_000 + "b", "a" * 40 + "!"]),
        "nested-star": (r"((a*)*)*b", a_run, ["a" * 64]),
        "alternation-overlap": (r"(a|a)*$", a_run, ["a" * 30 + "!"]),
        "alternation-prefix": (r"^(a|aa)+$", a_run, ["a" * 50 + "!"]),
        "dot-star-repeat": (r"(.*a){20}", "a" * 200, ["a" * 30 + "b" * LONG]),
        "words-and-spaces": (r"(\w+\s?)*$", words, ["x " * 3_000 + "!"]),
        "owasp-classic": (r"^(([a-z])+.)+[A-Z]([a-z])+$", "a" * LONG + "1", ["aaaaaaaaaaaaaaaaaaaaaaaaaaaa!"]),
        "email": (
            r"^([a-zA-Z0-9])(([\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
            "a" * LONG + "@", ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"],
        ),
        "backreference": (r"^(a*)*\1$", a_run, ["a" * 40 + "b"]),
        "regex-100k-optional": ("a?" * 25_000 + "a" * 25_000, "a" * 25_000, ["a" * 24_999]),
        "regex-100k-alternation": ("(?:" + "|".join(f"x{i}y" for i in range(20_000)) + ")+$", "x1y" * 5_000 + "!", []),
        "wide-class-ranges": ("(?i)" + "[\u0100-\uffe0]" * 400 + "x", "\u0100" * LONG, []),
        "wide-class-nested": ("([\u0100-\ufffd]+)+$", "\u4e00" * LONG + "!", ["\u4e00" * 40 + "!"]),
        "huge-counted-repeat": (r"(?:a{1,100}){1,100}b", "a" * LONG, ["a" * 500]),
        # re's parser (and a reader that copies its steps) cuts a common prefix one item at a time
        "common-prefix-alternation": ("a" * 150_000 + "b|" + "a" * 150_000 + "c", "a" * LONG + "c", []),
    }


def hostile_regex_entry(name: str, regex: str, signature: str, examples: list[str]) -> str:
    return entry_text(f"regex/{name}", signature=signature, regex=regex, examples=examples)
