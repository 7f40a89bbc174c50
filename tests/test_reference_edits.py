"""A merge rewrites references in other files and changes nothing else in them: byte for byte,
on the bundled corpus and on every deadends.dev canon that has references."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from entrykit.authoring.reference_edits import edit_references

from .conftest import REPO

pytestmark = pytest.mark.slow

NEW_ID = "zz/merged-entry"


def _targets(data: Any) -> list[str]:
    graph = data.get("transition_graph") if isinstance(data, dict) else None
    found: list[str] = []
    for refs in (graph or {}).values():
        for ref in refs if isinstance(refs, list) else []:
            target = ref.get("error_id") if isinstance(ref, dict) else ref
            if isinstance(target, str) and target not in found:
                found.append(target)
    return found


def _check(text: str, fmt: str, old: str) -> None:
    """Renaming `old` changes only the lines that name it (and removes a repeat), nothing else."""
    edited = edit_references(text, fmt, [old], NEW_ID)
    assert edited is not None
    before, after = text.splitlines(keepends=True), edited.splitlines(keepends=True)
    kept = [line for line in before if old not in line]
    changed = [line for line in after if NEW_ID in line]
    assert [line for line in after if NEW_ID not in line] == kept or fmt == "json"
    assert all(line.replace(NEW_ID, old) in before for line in changed)
    if old not in "".join(kept) and text.count(old) == edited.count(NEW_ID):
        assert edited.replace(NEW_ID, old) == text  # nothing removed: byte-identical but for the id


def test_every_deadends_canon_keeps_its_bytes_but_the_reference(deadends_dir: Path) -> None:
    """The canons are JSON with the same `transition_graph` shape as entries."""
    checked = 0
    for path in sorted(deadends_dir.rglob("*.json")):
        text = path.read_text(encoding="utf-8")
        targets = _targets(json.loads(text))
        for target in targets[:2]:
            edited = edit_references(text, "json", [target], NEW_ID)
            assert edited is not None, path
            expected = json.loads(text)
            for refs in expected["transition_graph"].values():
                for ref in refs:
                    if isinstance(ref, dict) and ref.get("error_id") == target:
                        ref["error_id"] = NEW_ID
            assert json.loads(edited) == expected, path
            if text.count(f'"{target}"') == edited.count(f'"{NEW_ID}"'):
                assert edited.replace(f'"{NEW_ID}"', f'"{target}"') == text, path
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_rewrite_that_would_repeat_a_reference_removes_the_repeat_only(newline: str) -> None:
    """Lines end as the file ends them (YAML and lint read a CR alone as a line break too):
    the repeat's lines go, the rest of the file keeps its bytes."""
    text = """\
id: git/c
transition_graph:
  leads_to:
    - error_id: git/old  # the one being merged
      probability: 0.3
    - error_id: git/new
  preceded_by: [git/new, git/old, git/z]
"""
    edited = edit_references(text.replace("\n", newline), "yaml", ["git/old"], "git/new")
    assert edited == """\
id: git/c
transition_graph:
  leads_to:
    - error_id: git/new  # the one being merged
      probability: 0.3
  preceded_by: [git/new, git/z]
""".replace("\n", newline)


def test_a_file_without_references_to_the_merged_ids_is_not_touched() -> None:
    assert edit_references("id: git/c\ntransition_graph:\n  leads_to: [git/x]\n", "yaml", ["git/old"], "git/new") is None


def test_imported_deadends_entries_keep_their_bytes_but_the_reference(deadends_dir: Path) -> None:
    """The canons imported as YAML entries (every eighth one with references)."""
    from entrykit.authoring.formatter import dump_entry
    from entrykit.authoring.importers.deadends import import_canons

    imported, _ = import_canons([deadends_dir])
    with_refs = [i for i in imported if _targets(i.entry)]
    for item in with_refs[::8]:
        text = dump_entry(item.entry, "yaml")
        for target in _targets(item.entry)[:2]:
            _check(text, "yaml", target)
    assert len(with_refs[::8]) > 50


def test_merging_bundled_entries_touches_no_other_file(tmp_path: Path) -> None:
    """Every pair of bundled entries of one domain, merged: only the survivor is written."""
    import shutil
    from datetime import date

    from entrykit.authoring import merge
    from entrykit.authoring.merge_apply import plan_merge
    from entrykit.config import from_table
    from entrykit.lint.engine import load_plan

    shutil.copytree(REPO / "entries", tmp_path / "entries")
    config = from_table({"root": "entries"}, tmp_path)
    loaded = load_plan(None, config, tmp_path)
    by_domain: dict[str, list[Any]] = {}
    for entry in loaded.entries:
        by_domain.setdefault(entry.id.split("/")[0], []).append(entry)
    planned = 0
    for group in by_domain.values():
        for survivor, other in pairwise(group):
            result = merge.merge_entries(survivor.data, other.data, prefer="into")
            plan = plan_merge(loaded.entries, survivor, other, result, config, date(2026, 11, 30))
            assert list(plan.texts) == [survivor.abspath]
            planned += 1
    assert planned >= 5
