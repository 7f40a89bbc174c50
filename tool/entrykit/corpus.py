"""The corpus index shared by corpus rules: every entry, by id and by alias, and which
entries a run reports on."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from entrykit.entry import Entry


@dataclass
class Corpus:
    """All entries linted together; corpus rules see this whole set.

    `focus` holds the numbers of the entries whose findings are wanted (a pre-commit
    run over a few files of a large corpus); None wants every entry. A corpus rule
    must report on a focus entry exactly what it would report in a run over all
    entries, and may skip work that only concerns entries outside the focus.
    """

    entries: list[Entry]
    root: Path | None = None
    focus: frozenset[int] | None = None
    by_id: dict[str, list[Entry]] = field(default_factory=dict)
    by_alias: dict[str, list[Entry]] = field(default_factory=dict)
    by_path: dict[str, Entry] = field(default_factory=dict)
    # Work that several corpus rules share (e.g. regex cross-matches), keyed by what it
    # depends on; lives as long as this corpus does.
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        ids: dict[str, list[Entry]] = defaultdict(list)
        aliases: dict[str, list[Entry]] = defaultdict(list)
        for entry in self.entries:
            if entry.id:
                ids[entry.id].append(entry)
            for alias in aliases_of(entry):
                aliases[alias].append(entry)
            self.by_path[entry.path] = entry
        self.by_id = dict(ids)
        self.by_alias = dict(aliases)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def wanted(self, number: int) -> bool:
        """Whether findings on entry `number` are wanted (see `focus`)."""
        return self.focus is None or number in self.focus

    def focused(self) -> Iterator[tuple[int, Entry]]:
        """(number, entry) of every entry whose findings are wanted."""
        if self.focus is None:
            yield from enumerate(self.entries)
        else:
            for number in sorted(self.focus):
                yield number, self.entries[number]

    def knows(self, entry_id: str) -> bool:
        """True if some entry has this id or alias."""
        return entry_id in self.by_id or entry_id in self.by_alias

    def resolve(self, entry_id: str) -> list[Entry]:
        """Entries answering to an id: by id first, else by alias."""
        return self.by_id.get(entry_id) or self.by_alias.get(entry_id, [])

    def domains(self) -> list[str]:
        return sorted({e.id.split("/", 1)[0] for e in self.entries if e.id and "/" in e.id})


def aliases_of(entry: Entry) -> list[str]:
    return [a for a in entry.list_field("aliases") if isinstance(a, str)]
