"""A merged entry's new fields go where they belong among the survivor's, in one reordering:
each after the last field ranked no later than it (the schema's order, a translation right
after its source, any other key last). Inserting them one by one reordered the fields after
each: an absorbed entry with 2,000 keys the survivor lacked took 37 s to merge
(growth.py --command merge-into-bundled, `unknown keys`)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml.comments import CommentedMap

from entrykit.authoring.merge_apply import _key_order, _placed, _Ranks, rewrite_text
from entrykit.entry import Entry

RANKS = _Ranks(_key_order())
_KEYS = st.sampled_from(
    ["id", "signature", "regex", "root_cause", "signature_zh", "signature_ja", "root_cause_zh", "workarounds",
     "workarounds_zh", "tags", "x_extra", "zz_custom", "aliases", "domain", "category", "examples"]
)  # fmt: skip


def _placed_one_by_one(keys: list[str], added: list[str]) -> list[str]:
    """Each new key inserted in turn after the last key ranked no later than it."""
    placed = list(keys)
    for key in added:
        position = 0
        for index, existing in enumerate(placed):
            if RANKS(existing) <= RANKS(key):
                position = index + 1
        placed.insert(position, key)
    return placed


@settings(max_examples=500, deadline=None)
@given(st.lists(_KEYS, unique=True, max_size=12), st.lists(_KEYS, unique=True, max_size=12))
def test_new_keys_go_where_inserting_them_one_by_one_put_them(keys: list[str], more: list[str]) -> None:
    added = [key for key in more if key not in keys]
    assert _placed(keys, added, RANKS) == _placed_one_by_one(keys, added)


def _entry(tmp_path: Path, text: str, fmt: str = "yaml") -> Entry:
    path = tmp_path / f"e.{fmt}"
    path.write_text(text, encoding="utf-8")
    return Entry("e." + fmt, path, fmt, yaml.safe_load(text), text)


def test_a_survivor_gains_its_new_fields_in_place_and_keeps_its_comments(tmp_path: Path) -> None:
    text = "id: git/a  # the id\nsignature: fatal\n# the cause, below\nroot_cause: why\ntags:\n  - git\n"
    entry = _entry(tmp_path, text)
    data = {**entry.data, "x_note": "kept last", "signature_zh": "致命", "regex": "fatal"}
    out = rewrite_text(entry, data)
    assert list(yaml.safe_load(out)) == ["id", "signature", "signature_zh", "regex", "root_cause", "tags", "x_note"]
    assert "# the id" in out and "# the cause, below" in out


def test_many_new_fields_are_placed_without_inserting_each(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inserted = [0]
    real_insert = CommentedMap.insert

    def counted(self: CommentedMap, *args: object, **kwargs: object) -> None:
        inserted[0] += 1
        real_insert(self, *args, **kwargs)

    monkeypatch.setattr(CommentedMap, "insert", counted)
    entry = _entry(tmp_path, "id: git/a\nsignature: fatal\nroot_cause: why\n")
    many = {f"x_field_{n:04d}": n for n in range(2_000)}
    out = yaml.safe_load(rewrite_text(entry, {**entry.data, **many, "regex": "fatal"}))
    assert list(out) == ["id", "signature", "regex", "root_cause", *many]
    assert inserted[0] == 0  # (the former code inserted each: 2,001)


def test_a_json_survivor_is_rebuilt_in_the_same_order(tmp_path: Path) -> None:
    entry = _entry(tmp_path, '{"id": "git/a", "signature": "fatal", "root_cause": "why"}\n', "json")
    out = rewrite_text(entry, {**entry.data, "x_note": 1, "regex": "fatal"})
    assert list(yaml.safe_load(out)) == ["id", "signature", "regex", "root_cause", "x_note"]
