"""One parsed entry file, and where its values are (positions are computed on first use)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from entrykit.parsing import YamlLines, compose_yaml
from entrykit.positions import Irregularity, PositionIndex, build_index, yaml_place, yaml_positions


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
                self._lines = YamlLines(self.text)
            found = yaml_place(self.nodes, self._lines, pointer, at_key)
            if found is not None:
                return found
        return self.positions.locate(pointer, at_key=at_key)

    def places(self, wanted: Iterable[tuple[str, bool]]) -> dict[tuple[str, bool], tuple[int, int]]:
        """`locate` of each (pointer, at_key). A summary's text is read and parsed once for
        all of them and not kept: a corpus phase over many files would hold them all."""
        if self.text or self._index is not None:
            return {(pointer, at_key): self.locate(pointer, at_key) for pointer, at_key in wanted}
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


def _read_text(path: Path) -> str:
    """The text of a summary's file, for positions; empty (every place is 1:1) if unreadable."""
    try:
        return path.read_bytes().decode("utf-8-sig", errors="replace")
    except OSError:
        return ""
