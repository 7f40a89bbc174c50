"""A baseline: the findings a corpus had when it adopted entrykit, known by what survives edits.

A finding is known by its rule code, its entry (the entry's `id`; for a file without
one, its path below the corpus root), the JSON Pointer of its value with list positions
left out, and a digest of its message with the file paths and numbers it names left out.
So lines may shift, the entry may move to another file, an item may be inserted above,
a measured figure in the message may differ, and the finding is still the one the
baseline holds. The baseline counts each key: with one finding in the baseline and two
equal ones now, one of them is new (the later one, in the order diagnostics are
reported).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from entrykit.diagnostic import Diagnostic
from entrykit.errors import EntrykitError
from entrykit.loader import read_small_file

FORMAT_VERSION = 2  # 2: every entry file's path left out of the digest, not only the shown ones
MAX_BYTES = 64 * 1024 * 1024  # a baseline of 100,000 findings is about 12 MB
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# An entry file's path as a message names it (`git/x.yaml`, `../aaa/x.yaml`): a word's
# start up to the last entry extension in it. Found from the extension back to the word's
# start, not by a regex tried at each start of a word (quadratic on a long word).
_PATH_WORD = re.compile(r"[^\s`'\"(),;]+")
_ENTRY_EXTENSION = re.compile(r"\.(?:ya?ml|json)(?![\w.])")
_LIST_POSITION = re.compile(r"(?<=/)\d+(?=/|$)")


class BaselineError(EntrykitError):
    """A baseline file that cannot be read; the message names the file and why."""


class Key(NamedTuple):
    """What identifies a finding across edits (see the module docstring)."""

    code: str
    entry: str
    pointer: str
    message: str  # digest of the message without the paths and numbers it names


def _path_in_word(word: re.Match[str]) -> str:
    """The word with its start up to its last entry extension as a NUL (unchanged without one)."""
    ends = [found.end() for found in _ENTRY_EXTENSION.finditer(word.string, word.start(), word.end())]
    return "\0" + word.string[ends[-1] : word.end()] if ends else word.group()


def _entry_paths_left_out(message: str) -> str:
    """`message` with each entry file's path in it (`git/x.yaml`) as a NUL."""
    if _ENTRY_EXTENSION.search(message) is None:
        return message
    return _PATH_WORD.sub(_path_in_word, message)


def _message_digest(diagnostic: Diagnostic) -> str:
    """The message's digest, the same from any folder: a run names files as seen from where
    it is (`../aaa/x.yaml`), and a file's own shown name may be part of a path the message
    names (`x.yaml` in `git/x.yaml`), so every entry file's path goes first, as a word."""
    message = _entry_paths_left_out(diagnostic.message)
    places = sorted({diagnostic.path, *(r.path for r in diagnostic.related)}, key=len, reverse=True)
    for path in places:
        if path:
            message = message.replace(path, "\0")
    message = _NUMBER.sub("#", message)
    return hashlib.sha256(message.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def key_of(diagnostic: Diagnostic, entry: str) -> Key:
    """The key of `diagnostic`, a finding on the entry known as `entry`."""
    pointer = _LIST_POSITION.sub("*", diagnostic.pointer)
    return Key(diagnostic.code, entry, pointer, _message_digest(diagnostic))


def entry_names(ids: Mapping[str, str | None], root: Path, cwd: Path) -> dict[str, str]:
    """How each file (by the path diagnostics show) is known to a baseline: its entry's id,
    else `path:` and its path below the corpus root (or as shown, outside it)."""
    names: dict[str, str] = {}
    for shown, entry_id in ids.items():
        if entry_id:
            names[shown] = entry_id
            continue
        where = Path(os.path.normpath(cwd / shown))
        try:
            names[shown] = "path:" + where.relative_to(root).as_posix()
        except ValueError:
            names[shown] = "path:" + Path(shown).as_posix()
    return names


def keys(diagnostics: Sequence[Diagnostic], names: Mapping[str, str]) -> list[Key]:
    """The key of every diagnostic (a file `names` does not know goes by `path:` + its path)."""
    return [key_of(d, names.get(d.path) or "path:" + d.path) for d in diagnostics]


@dataclass
class Comparison:
    """Diagnostics set against a baseline: the new ones, how many it covered, what it holds
    that no longer occurs."""

    new: list[Diagnostic]
    known: int
    gone: Counter[Key]


def compare(diagnostics: Sequence[Diagnostic], found_keys: Sequence[Key], baseline: Counter[Key]) -> Comparison:
    """Which diagnostics the baseline covers, each key as many times as it counts, in order."""
    left = Counter(baseline)
    new: list[Diagnostic] = []
    known = 0
    for diagnostic, key in zip(diagnostics, found_keys, strict=True):
        if left[key] > 0:
            left[key] -= 1
            known += 1
        else:
            new.append(diagnostic)
    return Comparison(new, known, +left)


def render(found_keys: Sequence[Key]) -> str:
    """The baseline file of these findings: JSON, one finding per line, in a stable order."""
    counts = Counter(found_keys)
    rows = [
        {"code": k.code, "entry": k.entry, "pointer": k.pointer, "message": k.message, "count": n}
        for k, n in sorted(counts.items(), key=lambda kv: (kv[0].entry, kv[0].code, kv[0].pointer, kv[0].message))
    ]
    encode = json.JSONEncoder(ensure_ascii=True, separators=(", ", ": ")).encode
    body = ",\n".join("    " + encode(row) for row in rows)
    findings = f"[\n{body}\n  ]" if rows else "[]"
    return f'{{\n  "entrykit_baseline": {FORMAT_VERSION},\n  "findings": {findings}\n}}\n'


def _problem(row: Any) -> str | None:
    if not isinstance(row, dict):
        return "is not an object"
    for name in ("code", "entry", "pointer", "message"):
        if not isinstance(row.get(name), str):
            return f"has no string `{name}`"
    count = row.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        return "has no positive integer `count`"
    return None


def read(path: Path) -> Counter[Key]:
    """The findings a baseline file holds, with their counts; BaselineError if it is no baseline."""
    try:
        data = read_small_file(path, MAX_BYTES)  # (never waits on a pipe a checkout links it to)
    except OSError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc.strerror or exc}") from None
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BaselineError(f"baseline {path} is not JSON: {exc}") from None
    except RecursionError:  # (json reads nested arrays and objects by recursion)
        raise BaselineError(f"baseline {path} nests arrays or objects too deep to be a baseline") from None
    version = document.get("entrykit_baseline") if isinstance(document, dict) else None
    if version != FORMAT_VERSION:
        earlier = " (an earlier entrykit wrote this one)" if version in range(1, FORMAT_VERSION) else ""
        raise BaselineError(
            f"baseline {path} is not an entrykit baseline (version {FORMAT_VERSION}){earlier}; write one with --write-baseline"
        )
    rows = document.get("findings")
    if not isinstance(rows, list):
        raise BaselineError(f"baseline {path}: `findings` is not a list")
    counts: Counter[Key] = Counter()
    for number, row in enumerate(rows, start=1):
        problem = _problem(row)
        if problem is not None:
            raise BaselineError(f"baseline {path}: finding {number} {problem}")
        counts[Key(row["code"], row["entry"], row["pointer"], row["message"])] += row["count"]
    return counts
