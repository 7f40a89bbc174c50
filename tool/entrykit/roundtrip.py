"""Edit entry files without disturbing them: ruamel round-trip for YAML, ordered JSON.

For commands that rewrite files (--fix, fmt, merge). Comments, key order, quoting
and indentation of untouched values survive a load/dump cycle.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML

from . import pointer as jp

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
    return yaml


def guess_layout(text: str) -> tuple[int, int, int]:
    """(mapping indent, sequence indent, dash offset) as the file already uses them."""
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    mapping: int | None = None
    offset: int | None = None
    for prev, cur in zip(lines, lines[1:]):
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


_JSON_INDENT = re.compile(r"^\{\s*\n( +)\"", re.M)


def load_document(text: str, fmt: str) -> Document:
    """Parse text for editing; raises the parser's error on invalid input."""
    if fmt == "json":
        match = _JSON_INDENT.match(text)
        indent = len(match.group(1)) if match else (None if "\n" not in text.strip() else 2)
        data = json.loads(text)
        return Document(data, "json", json_indent=indent, trailing_newline=text.endswith("\n"))
    yaml = make_yaml(*guess_layout(text))
    data = yaml.load(text)
    return Document(data, "yaml", yaml=yaml)
