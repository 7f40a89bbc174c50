"""Carry a merge out on files: the survivor's new text, rewritten references, a lint, ordered atomic writes."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from entrykit.authoring.merge import MergeResult, rewrite_references
from entrykit.config import Config
from entrykit.diagnostic import Diagnostic, Severity
from entrykit.entry import Entry
from entrykit.errors import UsageError
from entrykit.lint.engine import check
from entrykit.loader import parse_text
from entrykit.paths import is_valid_id, shown
from entrykit.roundtrip import Document, load_document
from entrykit.schema import load_schema
from entrykit.writing import write_files


@dataclass
class MergePlan:
    """Everything a merge will write, computed and linted before the first byte is written."""

    survivor: Entry
    other: Entry
    result: MergeResult
    texts: dict[Path, str]  # written in this order: references first, the survivor last
    delete: Path
    before: list[Diagnostic] = field(default_factory=list)
    after: list[Diagnostic] = field(default_factory=list)

    @property
    def new_errors(self) -> list[Diagnostic]:
        """Errors of the merged files that no input had (same code and message)."""
        known = {(d.code, d.message) for d in self.before if d.severity is Severity.ERROR}
        return [d for d in self.after if d.severity is Severity.ERROR and (d.code, d.message) not in known]

    @property
    def survivor_text(self) -> str:
        return self.texts[self.survivor.abspath]


def find_entry(argument: str, entries: Sequence[Entry]) -> Entry:
    """The entry an argument names: a file path, else an id (or alias). Either way
    the entry's own id must be a valid id: a merge records it and rewrites references
    to it, so an id that could be read as a path is refused before anything is written."""
    return _checked(_named(argument, entries))


def _checked(entry: Entry) -> Entry:
    if not is_valid_id(entry.id):
        raise UsageError(
            f"{entry.path}: id `{shown(str(entry.id))}` is not `<domain>/<slug>`; fix it before merging"
        )
    return entry


def _named(argument: str, entries: Sequence[Entry]) -> Entry:
    path = Path(argument)
    if "\0" not in argument and path.suffix and path.exists():
        wanted = os.path.realpath(path)  # never raises on a link loop, unlike resolve()
        for entry in entries:
            if os.path.realpath(entry.abspath) == wanted:
                return entry
        raise UsageError(f"`{shown(argument)}` is not an entry of the corpus")
    if not is_valid_id(argument):
        raise UsageError(f"`{shown(argument)}` is neither an entry file nor an id (`<domain>/<slug>`)")
    by_id = [e for e in entries if e.id == argument]
    if not by_id:
        by_id = [e for e in entries if argument in e.list_field("aliases")]
    if not by_id:
        raise UsageError(f"no entry has the id `{argument}`")
    if len(by_id) > 1:
        raise UsageError(f"id `{argument}` names {len(by_id)} entries; pass a file path instead")
    return by_id[0]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _key_order() -> list[str]:
    return list(load_schema().get("properties", {}))


def _rank(key: str, order: list[str]) -> tuple[int, int]:
    if key in order:
        return order.index(key), 0
    base = next((k for k in sorted(order, key=len, reverse=True) if key.startswith(k + "_")), None)
    return (order.index(base), 1) if base is not None else (len(order), 0)


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def _update(container: Any, key: Any, new: Any) -> None:
    """Set container[key] to `new`, touching as little of the old value as possible
    (so comments and layout of what did not change survive the round trip)."""
    old = container[key]
    if _plain(old) == new:
        return
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for sub in [k for k in old if k not in new]:
            del old[sub]
        for sub, value in new.items():
            if sub in old:
                _update(old, sub, value)
            else:
                old[sub] = value
        return
    if isinstance(old, list) and isinstance(new, list) and len(new) >= len(old):
        for index in range(len(old)):
            _update(old, index, new[index])
        old.extend(new[len(old) :])
        return
    container[key] = new


def _editable(entry: Entry, why: str = "it is merged") -> Document:
    """The entry's file loaded for editing, or a UsageError naming why it cannot be (nothing written)."""
    try:
        return load_document(entry.text, entry.fmt)
    except Exception as exc:  # ruamel's errors (duplicate keys, ...) are data problems here
        reason = " ".join(str(exc).split()).split(" To suppress")[0]
        raise UsageError(f"`{entry.path}` cannot be edited ({reason}) but {why}; fix it first") from None


def rewrite_text(entry: Entry, data: Mapping[str, Any]) -> str:
    """The entry's file with its fields set to `data`: comments and order kept, new keys in schema order."""
    doc = _editable(entry)
    fields = doc.data
    order = _key_order()
    for key in [k for k in fields if k not in data]:
        del fields[key]
    for key, value in data.items():
        if key in fields:
            _update(fields, key, value)
            continue
        rank = _rank(key, order)
        position = 0
        for index, existing in enumerate(fields):
            if _rank(existing, order) <= rank:
                position = index + 1
        if hasattr(fields, "insert"):
            fields.insert(position, key, value)
        else:  # JSON: a plain dict, rebuilt in order
            items = list(fields.items())
            items.insert(position, (key, value))
            fields.clear()
            fields.update(items)
    return doc.dump()


def _in_memory(entry: Entry, text: str) -> Entry:
    parsed = parse_text(text, entry.fmt)
    if parsed.problem is not None or not isinstance(parsed.data, dict):
        raise UsageError(f"the merged text of `{entry.path}` does not parse: {parsed.problem}")
    return Entry(entry.path, entry.abspath, entry.fmt, parsed.data, text, parsed.needs_positions)


def plan_merge(
    entries: Sequence[Entry],
    survivor: Entry,
    other: Entry,
    result: MergeResult,
    config: Config,
    today: date,
) -> MergePlan:
    """The new texts of the survivor and of every entry that referred to the other, linted."""
    if survivor is other:
        raise UsageError("an entry cannot be merged into itself")
    if _same_file(survivor.abspath, other.abspath):  # two names (hard links) of one file
        raise UsageError(f"`{survivor.path}` and `{other.path}` are the same file; an entry cannot be merged into itself")
    old_ids = [i for i in [other.id, *other.list_field("aliases")] if isinstance(i, str) and i != survivor.id]
    texts: dict[Path, str] = {}
    replaced: dict[Path, Entry] = {}
    for entry in entries:
        if entry is survivor or entry is other:
            continue
        if not survivor.id or not rewrite_references(copy.deepcopy(entry.data), old_ids, survivor.id):
            continue  # no reference to rewrite: the file is not even parsed for editing
        doc = _editable(entry, f"it refers to `{other.id}`")
        if rewrite_references(doc.data, old_ids, survivor.id):
            texts[entry.abspath] = doc.dump()
            replaced[entry.abspath] = _in_memory(entry, texts[entry.abspath])
    texts[survivor.abspath] = rewrite_text(survivor, result.data)
    new_survivor = _in_memory(survivor, texts[survivor.abspath])
    touched = [e for e in entries if e.abspath in replaced]
    before = check(list(entries), [survivor, other, *touched], config, today)
    after_entries = [
        new_survivor if e is survivor else replaced.get(e.abspath, e) for e in entries if e is not other
    ]
    after = check(after_entries, [new_survivor, *replaced.values()], config, today)
    return MergePlan(survivor, other, result, texts, other.abspath, before, after)


def apply_plan(plan: MergePlan) -> None:
    """Write every new text (references first, the survivor last) and remove the other
    file, as one change: if any step fails, every file is as it was before."""
    order = [p for p in plan.texts if p != plan.survivor.abspath] + [plan.survivor.abspath]
    write_files({path: plan.texts[path] for path in order}, delete=[plan.delete])
