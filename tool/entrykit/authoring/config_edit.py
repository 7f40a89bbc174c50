"""Add settings to a project's configuration file by editing its text: comments, order and
every other byte stay; a value the file already sets differently is reported, never replaced."""

from __future__ import annotations

import copy
import json
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from entrykit.config import DEFAULT_ROOT, TOOL_TABLE, is_own_file, read_toml_text


@dataclass(frozen=True)
class Table:
    """Settings to add to one table of the configuration, and why (the comment written above
    the table when the edit writes the table itself)."""

    section: str
    wanted: Mapping[str, Any]
    why: str


@dataclass(frozen=True)
class ConfigEdit:
    """What adding settings to a configuration comes to."""

    path: Path  # the file edited or created
    text: str | None = None  # its new text; None: nothing to write
    added: list[tuple[str, str]] = field(default_factory=list)  # (table, `key = value`), as written
    differing: list[tuple[str, str]] = field(default_factory=list)  # (table, `key = value`) the file keeps
    problem: str | None = None  # why the file could not be edited (nothing is written)


def toml_value(value: Any) -> str:
    """A TOML value of a string, a list of strings, a number or a boolean."""
    return json.dumps(value, ensure_ascii=False)


def _same(key: str, have: Any, want: Any) -> bool:
    if key == "flags" and isinstance(have, list) and all(isinstance(v, str) for v in have):
        return sorted({v.upper() for v in have}) == sorted({v.upper() for v in want})
    return bool(have == want)


def _comment(why: str) -> list[str]:
    return [f"# {line}" for line in why.splitlines()]


def new_file_text(project: Path, root: Path, tables: Sequence[Table]) -> str:
    """An entrykit.toml for `project` whose corpus is `root`, holding `tables`, each below
    the comment that says why."""
    blocks: list[list[str]] = []
    relative = os.path.relpath(root, project).replace(os.sep, "/")
    if relative != DEFAULT_ROOT:
        blocks.append([f"root = {toml_value(relative)}"])
    for table in tables:
        settings = [f"{key} = {toml_value(value)}" for key, value in table.wanted.items()]
        blocks.append([*_comment(table.why), f"[{table.section}]", *settings])
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def add_settings(
    source: Path | None, project: Path, root: Path, section: str, wanted: Mapping[str, Any], why: str
) -> ConfigEdit:
    """`add_tables` of the one table `[section]`."""
    return add_tables(source, project, root, [Table(section, wanted, why)])


def add_tables(source: Path | None, project: Path, root: Path, tables: Sequence[Table]) -> ConfigEdit:
    """The settings of `tables` added to the configuration `source` (a pyproject.toml's
    [tool.entrykit] or an entrykit.toml), or a new `project/entrykit.toml` when there is none.

    Only keys a table does not hold are added; a key it holds with another value is listed
    in `differing`. The edit inserts lines below each table's header (or appends the table),
    then reads the result back: unless it is the old data plus exactly the added keys, the
    file is left alone and `problem` says why. ConfigError if `source` is not a file
    `config.read_toml` reads (a regular file of at most 1 MiB, TOML not nested too deep)."""
    if source is None:
        every = [(t.section, f"{key} = {toml_value(value)}") for t in tables for key, value in t.wanted.items()]
        return ConfigEdit(project / "entrykit.toml", new_file_text(project, root, tables), every)
    own = is_own_file(source)
    text, data = read_toml_text(source)
    top = data if own else data.get("tool", {}).get("entrykit", {})
    expected = copy.deepcopy(data)
    expected_top = expected if own else expected.setdefault("tool", {}).setdefault("entrykit", {})
    added: list[tuple[str, str]] = []
    differing: list[tuple[str, str]] = []
    new_text = text
    for table in tables:
        table_name = table.section if own else f"{TOOL_TABLE}.{table.section}"
        present = top.get(table.section, {}) if isinstance(top, Mapping) else None
        if not isinstance(present, Mapping):
            return ConfigEdit(source, problem=f"`{table_name}` is not a table")
        missing = {key: value for key, value in table.wanted.items() if key not in present}
        differing += [
            (table.section, f"{key} = {toml_value(present[key])}")
            for key, value in table.wanted.items()
            if key in present and not _same(key, present[key], value)
        ]
        if missing:
            new_text = _with_table_lines(new_text, table_name, missing, table.why)
            expected_top.setdefault(table.section, {}).update(missing)
            added += [(table.section, f"{key} = {toml_value(value)}") for key, value in missing.items()]
    if not added:
        return ConfigEdit(source, differing=differing)
    try:
        edited = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError:
        edited = None
    if edited != expected:
        edited_top = (edited if own else edited.get("tool", {}).get("entrykit", {})) if edited is not None else {}
        wrong = next(
            (t.section for t in tables if edited_top.get(t.section) != expected_top.get(t.section)), tables[0].section
        )
        table_name = wrong if own else f"{TOOL_TABLE}.{wrong}"
        return ConfigEdit(
            source, differing=differing, problem=f"`{table_name}` is written in a form this edit does not read"
        )
    return ConfigEdit(source, new_text, added, differing)


def _with_table_lines(text: str, table_name: str, missing: Mapping[str, Any], why: str) -> str:
    """`text` with `missing` written below the header of `[table_name]`, or in that table
    appended (below the comment `why`) where no such header is."""
    lines = [f"{key} = {toml_value(value)}" for key, value in missing.items()]
    newline = "\r\n" if "\r\n" in text else "\n"  # (the file's own line ends)
    header = re.compile(rf"^[ \t]*\[[ \t]*{re.escape(table_name)}[ \t]*\][ \t]*(#[^\r\n]*)?\r?$", re.MULTILINE)
    found = header.search(text)
    if found:
        cut = found.end() + 1 if found.end() < len(text) else found.end()
        head = text[:cut] if text[:cut].endswith("\n") else text[:cut] + newline
        return head + newline.join(lines) + newline + text[cut:]
    block = [*_comment(why), f"[{table_name}]", *lines]
    return text + ("" if text.endswith("\n") or not text else newline) + newline + newline.join(block) + newline
