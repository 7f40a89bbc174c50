"""Importers: turn other formats (deadends.dev ErrorCanon JSON, rendered Markdown pages) into entries."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Imported:
    """One entry made from one source file, and what did not fit into it."""

    source: Path
    entry: dict[str, Any]
    upstream_id: str | None = None
    unmapped: list[str] = field(default_factory=list)  # source fields not carried over
    notes: list[str] = field(default_factory=list)  # values changed to fit the schema


@dataclass(frozen=True)
class ImportProblem:
    """A source file that could not be read as the expected format, with a position."""

    source: Path
    line: int
    col: int
    message: str
