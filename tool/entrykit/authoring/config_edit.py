"""Add settings to a project's configuration file by editing its text: comments, order and
every other byte stay; a value the file already sets differently is reported, never replaced."""

from __future__ import annotations

import copy
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from entrykit.config import DEFAULT_ROOT, TOOL_TABLE, is_own_file


@dataclass(frozen=True)
class ConfigEdit:
    """What adding settings to a configuration comes to."""

    path: Path  # the file edited or created
    text: str | None = None  # its new text; None: nothing to write
    added: list[str] = field(default_factory=list)  # `key = value`, as written
    differing: list[str] = field(default_factory=list)  # `key = value` the file keeps
    problem: str | None = None  # why the file could not be edited (nothing is written)


def toml_value(value: Any) -> str:
    """A TOML value of a string, a list of strings, a number or a boolean."""
    return json.dumps(value, ensure_ascii=False)


def _same(key: str, have: Any, want: Any) -> bool:
    if key == "flags" and isinstance(have, list) and all(isinstance(v, str) for v in have):
        return sorted({v.upper() for v in have}) == sorted({v.upper() for v in want})
    return bool(have == want)


def new_file_text(project: Path, root: Path, section: str, wanted: Mapping[str, Any], why: str) -> str:
    """An entrykit.toml for `project` whose corpus is `root`, holding `[section]` `wanted`."""
    lines = [f"# {line}" for line in why.splitlines()]
    relative = os.path.relpath(root, project).replace(os.sep, "/")
    if relative != DEFAULT_ROOT:
        lines.append(f"root = {toml_value(relative)}")
    lines += ["", f"[{section}]", *(f"{key} = {toml_value(value)}" for key, value in wanted.items())]
    return "\n".join(lines) + "\n"


def add_settings(
    source: Path | None, project: Path, root: Path, section: str, wanted: Mapping[str, Any], why: str
) -> ConfigEdit:
    """`wanted` added to the `[section]` table of the configuration `source` (a pyproject.toml's
    [tool.entrykit] or an entrykit.toml), or a new `project/entrykit.toml` when there is none.

    Only keys the table does not hold are added; a key it holds with another value is listed
    in `differing`. The edit inserts lines below the table's header (or appends the table),
    then reads the result back: unless it is the old data plus exactly the added keys, the
    file is left alone and `problem` says why."""
    added = [f"{key} = {toml_value(value)}" for key, value in wanted.items()]
    if source is None:
        path = project / "entrykit.toml"
        return ConfigEdit(path, new_file_text(project, root, section, wanted, why), added)
    own = is_own_file(source)
    table_name = section if own else f"{TOOL_TABLE}.{section}"
    try:
        text = source.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return ConfigEdit(source, problem=f"cannot read it: {exc}")
    top = data if own else data.get("tool", {}).get("entrykit", {})
    present = top.get(section, {}) if isinstance(top, Mapping) else None
    if not isinstance(present, Mapping):
        return ConfigEdit(source, problem=f"`{table_name}` is not a table")
    missing = {key: value for key, value in wanted.items() if key not in present}
    differing = [
        f"{key} = {toml_value(present[key])}" for key, value in wanted.items()
        if key in present and not _same(key, present[key], value)
    ]
    if not missing:
        return ConfigEdit(source, differing=differing)
    lines = [f"{key} = {toml_value(value)}" for key, value in missing.items()]
    header = re.compile(rf"^[ \t]*\[[ \t]*{re.escape(table_name)}[ \t]*\][ \t]*(#.*)?$", re.MULTILINE)
    found = header.search(text)
    if found:
        cut = found.end() + 1 if found.end() < len(text) else found.end()
        head = text[:cut] if text[:cut].endswith("\n") else text[:cut] + "\n"
        new_text = head + "\n".join(lines) + "\n" + text[cut:]
    else:
        new_text = text + ("" if text.endswith("\n") or not text else "\n") + "\n".join(
            [f"\n# {line}" if i == 0 else f"# {line}" for i, line in enumerate(why.splitlines())]
            + [f"[{table_name}]", *lines]
        ) + "\n"
    expected = copy.deepcopy(data)
    table = expected if own else expected.setdefault("tool", {}).setdefault("entrykit", {})
    table.setdefault(section, {}).update(missing)
    try:
        edited = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError:
        edited = None
    if edited != expected:
        return ConfigEdit(source, differing=differing, problem=f"`{table_name}` is written in a form this edit does not read")
    return ConfigEdit(source, new_text, [f"{key} = {toml_value(value)}" for key, value in missing.items()], differing)
