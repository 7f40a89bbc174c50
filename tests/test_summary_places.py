"""Places a file's check keeps for the corpus phase: the same as reading the file again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from entrykit.entry import MAX_KNOWN_PLACES, PLACES, Entry, pack_places, summary_pointers
from entrykit.lint.corpus_summary import summarize, summary_entry, without_fact_fields
from entrykit.loader import load

YAML_ENTRY = """\
id: python/import-error
aliases:
  - python/import-failed
  - "python/old-name"
signature: "ImportError: cannot import name 'x'"
regex: "cannot import name '\\\\w+'"
examples: [first example, "second: example"]
domain: python
workarounds:
  - action: pin the package
transition_graph:
  leads_to:
    - python/module-not-found
    - error_id: python/circular-import
      probability: 0.5
      "odd/key~name": text
  preceded_by: []
"""


def _loaded(tmp_path: Path, name: str, text: str) -> Entry:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    entry = load(path, name, keep_nodes=True)
    assert isinstance(entry, Entry)
    return entry


def _kept(data: dict[str, object]) -> dict[str, object]:
    """The summary a check keeps of an entry (what the corpus phase sees)."""
    return without_fact_fields(summarize(data))


def _summary_of(entry: Entry, packed: object | None) -> Entry:
    summary = _kept(entry.data)
    facts = {} if packed is None else {PLACES: packed}
    return summary_entry(entry.path, entry.abspath, entry.fmt, summary, facts)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("entry.yaml", YAML_ENTRY),
        ("entry.json", None),  # the same entry as JSON, indented
    ],
)
def test_kept_places_equal_places_read_again(tmp_path: Path, name: str, text: str | None) -> None:
    if text is None:
        yaml_entry = _loaded(tmp_path, "source.yaml", YAML_ENTRY)
        text = json.dumps(yaml_entry.data, indent=2)
    entry = _loaded(tmp_path, name, text)
    summary = _kept(entry.data)
    pointers = summary_pointers(summary)
    assert "/transition_graph/leads_to/1/error_id" in pointers
    assert "/transition_graph/leads_to/1/odd~1key~0name" in pointers
    assert not any(p.startswith("/workarounds") for p in pointers)
    wanted = [(p, False) for p in pointers]
    kept = _summary_of(entry, pack_places(entry, summary)).places(wanted)
    read_again = _summary_of(entry, None).places(wanted)
    assert kept == read_again
    assert kept[("/signature", False)] == entry.locate("/signature")
    assert len(set(kept.values())) == len(pointers)  # every value has its own place


def test_file_is_read_again_for_what_was_not_kept(tmp_path: Path) -> None:
    entry = _loaded(tmp_path, "entry.yaml", YAML_ENTRY)
    summary = _kept(entry.data)
    packed = pack_places(entry, summary)
    # A key's place is never kept; a packed table that does not fit the summary is not used.
    # The file now says something else: what is read again shows it.
    entry.abspath.write_text("\n" + YAML_ENTRY, encoding="utf-8")
    moved = _summary_of(entry, packed).places([("/id", True), ("/signature", False)])
    assert moved[("/signature", False)] == (entry.locate("/signature")[0] + 1, entry.locate("/signature")[1])
    assert _summary_of(entry, packed[:-8]).places([("/id", False)])[("/id", False)] == (2, 5)
    assert _summary_of(entry, packed).places([("/id", False)])[("/id", False)] == (1, 5)


def test_at_most_a_bounded_number_of_places_per_file(tmp_path: Path) -> None:
    many = "id: x/y\nsignature: s\naliases:\n" + "".join(f"  - x/a{n}\n" for n in range(200))
    entry = _loaded(tmp_path, "many.yaml", many)
    summary = _kept(entry.data)
    assert len(summary_pointers(summary)) == MAX_KNOWN_PLACES
    assert len(pack_places(entry, summary)) == 8 * MAX_KNOWN_PLACES
