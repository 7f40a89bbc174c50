"""Entry ids to file paths, never trusting the id: no traversal, no absolute paths."""

from __future__ import annotations

import os
import re
from pathlib import Path

from entrykit.errors import UsageError

# One part of an id `<domain>/<slug>`: lowercase letters and digits joined by single `-`,
# `_` or `.`. The schema's `domain` pattern is this one, anchored (a test checks it).
SEGMENT_PATTERN = r"[a-z0-9]+(?:[._-][a-z0-9]+)*"
SEGMENT = re.compile(SEGMENT_PATTERN)
ID_PATTERN = re.compile(rf"{SEGMENT_PATTERN}/{SEGMENT_PATTERN}")


def is_valid_id(entry_id: object) -> bool:
    """`<domain>/<slug>`: lowercase letters and digits joined by `-`, `_` or `.`."""
    return isinstance(entry_id, str) and bool(ID_PATTERN.fullmatch(entry_id))


def shown(text: str) -> str:
    """`text` for a message: control characters (NUL, escapes) written as Python escapes."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def unsafe_reason(text: str) -> str | None:
    """Why `text` could leave or confuse a folder if it became part of a path (None: it could not)."""
    if any(not c.isprintable() for c in text):
        return "a control character"
    if "\\" in text:
        return "a backslash"
    if text.startswith("/") or re.match(r"[A-Za-z]:", text):
        return "an absolute path"
    if any(part in (".", "..") for part in text.split("/")):
        return "a `.` or `..` part"
    return None


NAME_MAX = 255  # bytes of one file or folder name, on the file systems entries live on


def entry_path(root: Path, entry_id: str, suffix: str = ".yaml") -> Path:
    """Where the entry `entry_id` lives below `root`; UsageError for an unsafe id."""
    if not is_valid_id(entry_id):
        raise UsageError(
            f"id `{shown(str(entry_id))}` is not `<domain>/<slug>` in lowercase letters, digits, `-`, `_`, `.`"
        )
    domain, slug = entry_id.split("/")
    longest = max(len(domain.encode()), len(f"{slug}{suffix}".encode()))
    if longest > NAME_MAX:
        raise UsageError(
            f"id `{shown(entry_id)}` makes a file or folder name of {longest:,} bytes; file systems allow {NAME_MAX}"
        )
    base = Path(os.path.realpath(root))  # realpath: a link loop is no error, and links are followed
    target = Path(os.path.realpath(base / domain / f"{slug}{suffix}"))
    if target.parent.parent != base:  # belt and braces: the pattern already forbids this
        raise UsageError(f"id `{shown(entry_id)}` would leave the corpus root")
    return target


def work_tree_top(folder: Path) -> Path | None:
    """The nearest folder from `folder` up that holds `.git` (a repository's root), if any."""
    return next((f for f in (folder, *folder.parents) if (f / ".git").exists()), None)
