"""`translated_from`: each source fingerprint follows the translation it fingerprints.

A fingerprint records which source text a translation was made from, so it is only true
of that translation. It goes where the merge put its translation (the report's ledger:
`root_cause_zh` with the `root_cause` chosen, `workarounds_zh` item by item); the
fingerprint of a translation that is not kept, or of one whose place already has another
input's, is dropped and reported. A list of fingerprints holds one per item in order, so
one after an item without a fingerprint (a gap to translate) has no place either: it is
dropped, and lint reports the items without one as needing review.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from entrykit import pointer as jp
from entrykit.translation.translated_fields import FINGERPRINTS

if TYPE_CHECKING:
    from entrykit.authoring.merge import Merger

# (an input's label, a translation's pointer in it: `/root_cause_zh`, `/workarounds_zh/1`)
_Source = tuple[str, str]


def merge_fingerprints(merger: Merger) -> None:
    """The merged `translated_from`, from the final ledger (after every item choice)."""
    merger.handled.add(FINGERPRINTS)
    if not any(FINGERPRINTS in data for data in merger.inputs):
        return
    recorded = _recorded(merger)
    chosen: dict[str, _Source] = {}  # a translation's pointer in the merged entry -> whose fingerprint
    left = dict(recorded)
    for place in merger.report.ledger:
        source = (place.side, place.source)
        if place.kind != "translation" or source not in left:
            continue
        held = chosen.setdefault(place.target, source)
        if held == source:
            continue
        fingerprint = left.pop(source)
        if fingerprint == recorded[held]:
            merger.place(source[0], "fingerprint", _at(source[1]), fingerprint, _at(place.target), merged=True)
        else:
            _drop(merger, source, fingerprint, f"the translation at {place.target} keeps the fingerprint of `{held[0]}`")
    table: dict[str, Any] = {}
    for target, source in sorted(chosen.items(), key=lambda item: _order(item[0])):
        key, *index = jp.split(target)
        fingerprint = left.pop(source)
        if not index:
            table[key] = fingerprint
        elif len(table.get(key, [])) == int(index[0]):
            table.setdefault(key, []).append(fingerprint)
        else:
            _drop(merger, source, fingerprint, f"an item of `{key}` before {target} has no fingerprint, and the list holds one per item in order")
            continue
        merger.place(source[0], "fingerprint", _at(source[1]), fingerprint, _at(target))
    for source, fingerprint in left.items():
        _drop(merger, source, fingerprint, "the translation it fingerprints is not in the merged entry")
    if table or FINGERPRINTS in merger.survivor:
        merger.out[FINGERPRINTS] = {key: table[key] for key in _keys(merger) if key in table}


def _recorded(merger: Merger) -> dict[_Source, Any]:
    """Every fingerprint of every input, by its translation's pointer; a value of another
    shape is reported whole."""
    found: dict[_Source, Any] = {}
    for _, label, data in merger.sides():
        table = data.get(FINGERPRINTS)
        if table is None:
            continue
        if not isinstance(table, dict):
            merger.drop(label, jp.join(FINGERPRINTS), table, "it is not a mapping of fingerprints")
            continue
        for key, value in table.items():
            items = value if isinstance(value, list) else [value]
            pointers = [jp.join(key, i) for i in range(len(items))] if isinstance(value, list) else [jp.join(key)]
            found.update(((label, pointer), item) for pointer, item in zip(pointers, items, strict=True))
    return found


def _keys(merger: Merger) -> list[str]:
    """The translated keys in the order the inputs' tables name them."""
    tables = [t for data in merger.inputs if isinstance(t := data.get(FINGERPRINTS), dict)]
    return list(dict.fromkeys(key for table in tables for key in table))


def _order(pointer: str) -> tuple[str, int]:
    key, *index = jp.split(pointer)
    return key, int(index[0]) if index else -1


def _at(pointer: str) -> str:
    return jp.join(FINGERPRINTS, *jp.split(pointer))


def _drop(merger: Merger, source: _Source, value: Any, why: str) -> None:
    merger.drop(source[0], _at(source[1]), value, why)
