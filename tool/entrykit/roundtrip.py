"""Edit entry files without disturbing them: ruamel round-trip for YAML, ordered JSON.

For commands that rewrite files (--fix, fmt, merge). Comments, key order, quoting
and indentation of untouched values survive a load/dump cycle.
"""

from __future__ import annotations

import io
import json
import math
import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.scalarstring import ScalarString

from entrykit import pointer as jp
from entrykit.errors import EntrykitError

WIDTH = 4096  # never fold long lines: entries hold long messages


def make_yaml(mapping: int = 2, sequence: int = 4, offset: int = 2) -> YAML:
    """A round-trip YAML instance with entrykit's layout (2-space maps, indented lists)."""
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.allow_unicode = True
    yaml.width = WIDTH
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    # An explicit `null` reads better than an empty value and survives editors.
    yaml.representer.add_representer(
        type(None), lambda rep, _: rep.represent_scalar("tag:yaml.org,2002:null", "null")
    )
    yaml.representer.add_representer(float, _represent_float)
    return yaml


def _represent_float(representer: Any, value: float) -> Any:
    """A float as Python writes it, with a point in its mantissa (`1.0e-05`, not `1e-05`):
    YAML 1.1 reads an exponent without a point as a string (ET006)."""
    if not math.isfinite(value):
        return representer.represent_float(value)
    text = repr(value)
    mantissa, exponent_mark, exponent = text.partition("e")
    if exponent_mark and "." not in mantissa:
        text = f"{mantissa}.0e{exponent}"
    return representer.represent_scalar("tag:yaml.org,2002:float", text)


def guess_layout(text: str) -> tuple[int, int, int]:
    """(mapping indent, sequence indent, dash offset) as the file already uses them."""
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    mapping: int | None = None
    offset: int | None = None
    for prev, cur in pairwise(lines):
        if not prev.rstrip().endswith(":"):
            continue
        p_indent = len(prev) - len(prev.lstrip())
        c_indent = len(cur) - len(cur.lstrip())
        if cur.lstrip().startswith("- ") and c_indent >= p_indent:
            offset = c_indent - p_indent if offset is None else offset
        elif c_indent > p_indent and mapping is None:
            mapping = c_indent - p_indent
        if mapping is not None and offset is not None:
            break
    mapping = mapping or 2
    offset = 2 if offset is None else offset
    return mapping, offset + 2, offset


@dataclass
class Document:
    """A loaded entry file that can be edited in place and dumped back."""

    data: Any
    fmt: str
    yaml: YAML | None = None
    json_indent: int | None = 2
    trailing_newline: bool = True
    source: str = ""  # the text loaded, for edits that keep its layout

    def dump(self) -> str:
        if self.fmt == "json":
            text = json.dumps(self.data, indent=self.json_indent, ensure_ascii=False)
            return text + ("\n" if self.trailing_newline else "")
        assert self.yaml is not None
        stream = io.StringIO()
        self.yaml.dump(self.data, stream)
        return stream.getvalue()

    def get(self, pointer: str) -> Any:
        return jp.resolve(self.data, pointer)

    def set(self, pointer: str, value: Any) -> None:
        """Replace the value at an existing pointer (or add a key to a mapping)."""
        tokens = jp.split(pointer)
        if not tokens:
            raise ValueError("cannot replace the whole document")
        parent = jp.resolve(self.data, jp.from_path(tokens[:-1]))
        last = tokens[-1]
        if isinstance(parent, list):
            parent[int(last)] = value
        else:
            parent[last] = value

    def replace(self, pointer: str, value: Any) -> None:
        """Replace an existing value the way a person would edit it in place.

        A YAML string keeps its quoting style, and an end-of-line comment after
        it keeps its distance from the value (ruamel would keep its column).
        """
        tokens = jp.split(pointer)
        if not tokens:
            raise ValueError("cannot replace the whole document")
        parent = jp.resolve(self.data, jp.from_path(tokens[:-1]))
        key: int | str = int(tokens[-1]) if isinstance(parent, list) else tokens[-1]
        old = parent[key]
        if isinstance(old, ScalarString) and isinstance(value, str):
            value = type(old)(value)
        if self.fmt == "yaml":
            self._keep_comment_gap(parent, key, value)
        parent[key] = value

    def _keep_comment_gap(self, parent: Any, key: int | str, value: Any) -> None:
        comments = getattr(parent, "ca", None)
        slots = comments.items.get(key) if comments is not None else None
        slot = 0 if isinstance(parent, list) else 2
        if not slots or len(slots) <= slot or slots[slot] is None or not hasattr(slots[slot], "column"):
            return
        token = slots[slot]
        where = parent.lc
        line, col = where.item(key) if isinstance(parent, list) else where.value(key)
        lines = self.source.splitlines()
        if line >= len(lines) or token.column <= col:
            return
        old_text = lines[line][col : token.column].rstrip()
        new_text = self._scalar_text(value)
        if not old_text or new_text is None:
            return
        token.column = col + len(new_text) + (token.column - col - len(old_text))

    def _scalar_text(self, value: Any) -> str | None:
        """How the YAML dumper writes `value` as a mapping value, if on one line."""
        assert self.yaml is not None
        stream = io.StringIO()
        self.yaml.dump({"k": value}, stream)
        text = stream.getvalue()
        if not text.startswith("k: ") or text.count("\n") != 1:
            return None
        return text[3:].rstrip("\n")


def finite_float(text: str) -> float:
    """A JSON number literal as a float; ValueError for one no double holds (`1e999`),
    which would be written back as `Infinity`, no JSON at all (`NaN` and `Infinity` as
    written are kept as written: ET005 reports them)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"`{text}` is not a finite number, which JSON cannot hold (ET005)")
    return value


_JSON_INDENT = re.compile(r"^\{\s*\n( +)\"", re.M)


def load_document(text: str, fmt: str) -> Document:
    """Parse text for editing; raises the parser's error on invalid input."""
    if fmt == "json":
        match = _JSON_INDENT.match(text)
        indent = len(match.group(1)) if match else (None if "\n" not in text.strip() else 2)
        data = json.loads(text, parse_float=finite_float)
        return Document(data, "json", json_indent=indent, trailing_newline=text.endswith("\n"), source=text)
    yaml = make_yaml(*guess_layout(text))
    data = yaml.load(text)
    return Document(data, "yaml", yaml=yaml, source=text)


class NotEditable(EntrykitError):
    """A file the round-trip editor cannot load (duplicate keys, a number no double holds, ...);
    the message is the reason, on one line."""


def editable_document(text: str, fmt: str) -> Document:
    """`load_document`, or NotEditable saying why the text cannot be edited."""
    try:
        return load_document(text, fmt)
    except Exception as exc:  # noqa: BLE001 - ruamel raises many kinds for data problems (duplicate keys, ...)
        raise NotEditable(_reason(exc)) from None


def _reason(exc: Exception) -> str:
    """The parser's complaint on one line: its problem and line, without its quote of the text."""
    if isinstance(exc, MarkedYAMLError) and exc.problem:
        where = f" at line {exc.problem_mark.line + 1}" if exc.problem_mark is not None else ""
        return f"{exc.problem}{where}"
    return " ".join(str(exc).split())
