"""One parsed entry file, and where its values are (positions are computed on first use)."""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from entrykit import pointer as jp
from entrykit.parsing import YamlLines, compose_yaml
from entrykit.positions import (
    Irregularity,
    PositionIndex,
    build_index,
    top_pairs,
    yaml_place,
    yaml_positions,
)


@dataclass(eq=False, slots=True)  # (a corpus phase holds one per file)
class Entry:
    """An entry file that parsed into a mapping.

    `path` is how diagnostics name the file; `abspath` is where it is. Positions are
    not computed until a diagnostic needs one, so clean files never pay for them.

    Corpus rules see *summaries*: entries whose `data` holds only the fields corpus
    rules read, whose `facts` hold what was computed from the entry once (cached with
    its file), and whose `text` is empty until a position is needed (it is then read
    from `abspath`).
    """

    path: str
    abspath: Path
    fmt: str  # "yaml" | "json"
    data: dict[str, Any]
    text: str
    needs_positions: bool = False
    facts: dict[str, Any] = field(default_factory=dict, repr=False)
    _index: PositionIndex | None = field(default=None, repr=False)
    # YAML nodes the parse composed (`load(keep_nodes=True)`): a place is then looked up
    # along its pointer, and a file with a few findings never indexes all its values.
    nodes: Any = field(default=None, repr=False)
    _lines: Any = field(default=None, repr=False)
    _tables: Any = field(default=None, repr=False)  # each YAML mapping's pairs by key, once read

    @property
    def positions(self) -> PositionIndex:
        if self._index is None:
            text = self.text or _read_text(self.abspath)
            self._index = yaml_positions(text, self.nodes) if self.nodes is not None else build_index(text, self.fmt)
        return self._index

    def locate(self, pointer: str, at_key: bool = False) -> tuple[int, int]:
        """1-based (line, col) of the value at `pointer` (or of its key)."""
        if self._index is None and self.nodes is not None and not self.needs_positions and self.text:
            if self._lines is None:
                self._lines, self._tables = YamlLines(self.text), {}
            found = yaml_place(self.nodes, self._lines, pointer, at_key, self._tables)
            if found is not None:
                return found
        return self.positions.locate(pointer, at_key=at_key)

    def places(self, wanted: Iterable[tuple[str, bool]]) -> dict[tuple[str, bool], tuple[int, int]]:
        """`locate` of each (pointer, at_key). A summary answers from the places its file's
        check kept (`pack_places`) when they hold all of them; else its text is read and
        parsed once for all of them and not kept: a corpus phase over many files would hold
        them all."""
        wanted = list(wanted)
        if self.text or self._index is not None:
            return {(pointer, at_key): self.locate(pointer, at_key) for pointer, at_key in wanted}
        known = _unpack_places(self.data, self.facts.get(PLACES))
        if known is not None and all(not at_key and pointer in known for pointer, at_key in wanted):
            return {(pointer, at_key): known[pointer] for pointer, at_key in wanted}
        text = _read_text(self.abspath)
        whole = Entry(self.path, self.abspath, self.fmt, {}, text, self.needs_positions)
        if self.fmt == "yaml":
            whole.nodes = compose_yaml(text)
        return {(pointer, at_key): whole.locate(pointer, at_key) for pointer, at_key in wanted}

    def irregularities(self) -> list[Irregularity]:
        """Duplicate keys, non-string keys, non-finite numbers (only looked for when noticed)."""
        return self.positions.irregularities if self.needs_positions else []

    @property
    def id(self) -> str | None:
        value = self.data.get("id")
        return value if isinstance(value, str) else None

    def str_field(self, key: str) -> str | None:
        value = self.data.get(key)
        return value if isinstance(value, str) else None

    def list_field(self, key: str) -> list[Any]:
        value = self.data.get(key)
        return value if isinstance(value, list) else []

    def dict_field(self, key: str) -> dict[str, Any]:
        value = self.data.get(key)
        return value if isinstance(value, dict) else {}


PLACES = "places"  # the fact holding where a summary's values are in its file
MAX_KNOWN_PLACES = 64  # places kept per file: a corpus finding elsewhere reads the file again
_PLACE = struct.Struct("<II")
_SEQUENCE_NODE = yaml.SequenceNode


def summary_pointers(summary: Mapping[str, Any]) -> list[str]:
    """The pointers a corpus finding may name in a summary, in one order (keys sorted): every
    text value below the top; at most `MAX_KNOWN_PLACES`."""
    out: list[str] = []
    # (most summaries hold texts and lists of texts only: a corpus phase asks of every file)
    for key in sorted(summary):
        value = summary[key]
        if type(key) is not str:
            return _nested_pointers(summary)
        if type(value) is str:
            out.append(_top_pointer(key))
        elif type(value) is list and all(type(item) is str for item in value):
            top = _top_pointer(key)
            out += [f"{top}/{n}" for n in range(min(len(value), MAX_KNOWN_PLACES))]  # (the rest is cut)
        else:
            return _nested_pointers(summary)
    return out[:MAX_KNOWN_PLACES]


@lru_cache(maxsize=1024)
def _top_pointer(key: str) -> str:
    """`jp.join(key)` of a summary's key: summaries share a few keys."""
    return jp.join(key)


def _nested_pointers(summary: Mapping[str, Any]) -> list[str]:
    """`summary_pointers` of any summary, walked value by value."""
    out: list[str] = []
    stack: list[tuple[str, Any]] = [(jp.join(key), summary[key]) for key in sorted(summary, reverse=True)]
    while stack and len(out) < MAX_KNOWN_PLACES:
        where, value = stack.pop()
        if isinstance(value, str):
            out.append(where)
        elif isinstance(value, dict):
            stack += [(f"{where}/{jp.escape(k)}", value[k]) for k in sorted(value, key=str, reverse=True)]
        elif isinstance(value, list):
            stack += [(f"{where}/{n}", value[n]) for n in range(len(value) - 1, -1, -1)]
    return out


def pack_places(entry: Entry, summary: Mapping[str, Any]) -> bytes:
    """Where each of `summary_pointers(summary)` is in `entry` (a parsed file), packed."""
    packed = _packed_top_places(entry, summary)
    if packed is not None:
        return packed
    return b"".join(_PLACE.pack(*entry.locate(where)) for where in summary_pointers(summary))


def _packed_top_places(entry: Entry, summary: Mapping[str, Any]) -> bytes | None:
    """`pack_places` of a summary of texts and lists of texts (most summaries) in a file
    whose places `locate` finds along its nodes: each value's node taken from the top
    mapping's pairs at once, not found along a pointer made for it. None for any other."""
    if entry._index is not None or entry.nodes is None or entry.needs_positions or not entry.text:
        return None
    if entry._lines is None:
        entry._lines, entry._tables = YamlLines(entry.text), {}
    pairs = top_pairs(entry.nodes, entry._tables)
    if pairs is None:
        return None
    place = entry._lines
    out: list[bytes] = []
    for key in sorted(summary):
        value, pair = summary[key], pairs.get(key)
        if type(key) is not str or type(pair) is not tuple or "~" in key or "/" in key:
            return None  # (a key `locate` reads otherwise: escaped, or written twice)
        node = pair[1]
        if type(value) is str:
            items = [node]
        elif type(value) is list and all(type(item) is str for item in value):
            items = node.value[:MAX_KNOWN_PLACES]
            if type(node) is not _SEQUENCE_NODE or len(items) != min(len(value), MAX_KNOWN_PLACES):
                return None
        else:
            return None
        for item in items:
            mark = item.start_mark
            out.append(_PLACE.pack(*place(mark.line, mark.column)))
    return b"".join(out[:MAX_KNOWN_PLACES])


def _unpack_places(summary: Mapping[str, Any], packed: Any) -> dict[str, tuple[int, int]] | None:
    """`pack_places` read back; None if `packed` does not fit the summary."""
    if not isinstance(packed, bytes):
        return None
    pointers = summary_pointers(summary)
    if len(packed) != _PLACE.size * len(pointers):
        return None
    return dict(zip(pointers, _PLACE.iter_unpack(packed), strict=True))


def _read_text(path: Path) -> str:
    """The text of a summary's file, for positions; empty (every place is 1:1) if unreadable."""
    try:
        return path.read_bytes().decode("utf-8-sig", errors="replace")
    except OSError:
        return ""
