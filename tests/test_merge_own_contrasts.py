"""A merge keeps the items one entry holds apart: its own workarounds (or dead ends) that read
alike, and its dead end beside the workaround written against it, are contrasts its author
meant, not one action. They are folded only when they repeat one action (the in-entry bar
lint rules use), and they make no role conflict when every input that holds one holds the
other. A real contradiction between two inputs is still a conflict."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from entrykit.authoring import merge
from entrykit.similarity.actions import SAME_ACTION, SAME_ACTION_IN_ENTRY, action_similarity

ENTRIES = Path(__file__).resolve().parents[1] / "entries"
BUNDLED = sorted(ENTRIES.rglob("*.yaml"))

_WORDS = ["Reinstall", "Install", "Remove", "Upgrade", "Commit", "Stash", "torch", "pip", "the", "cache", "your",
          "changes", "with", "CUDA", "wheel", "before", "pulling", "index", "from", "branch"]  # fmt: skip
_ACTIONS = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5).map(" ".join)

REBASE = "Pull and rebase onto the remote branch, then push"
MERGE = "Pull with a merge of the remote branch, then push"


def _entry(entry_id: str, **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": entry_id, "signature": "error: failed to push some refs", "regex": "failed to push some refs",
        "domain": "git", "category": "usage_error", "root_cause": "The remote has commits the local branch lacks.",
        "dead_ends": [], "workarounds": [], "first_seen": "2024-01-01", "last_confirmed": "2025-01-01",
    }  # fmt: skip
    data.update(fields)
    return data


def test_the_examples_read_as_contrasts() -> None:
    """What the tests below rest on: each pair reads alike across entries, not within one."""
    pairs = [
        (REBASE, MERGE),
        ("Convert the whole expression with str() after the +", "Convert the operand with str() where the + happens"),
    ]
    for a, b in pairs:
        assert SAME_ACTION <= action_similarity(a, b) < SAME_ACTION_IN_ENTRY


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.relative_to(ENTRIES).as_posix())
def test_an_entry_merged_with_a_copy_of_itself_keeps_every_item(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    result = merge.merge_entries(data, [copy.deepcopy(data)])
    assert result.report.conflicts == []
    assert result.report.dropped == []
    changed = {key for key in {*data, *result.data} if data.get(key) != result.data.get(key)}
    assert changed <= {"evidence_count"}  # (evidence adds up)


def test_two_alike_workarounds_of_one_entry_stay_two() -> None:
    a = _entry("git/push-rejected", workarounds=[{"action": REBASE, "success_rate": 0.9}, {"action": MERGE, "success_rate": 0.8}])
    b = _entry("git/push-rejected-fetch-first", workarounds=[{"action": MERGE, "success_rate": 0.85}])
    result = merge.merge_entries(a, [b])
    assert [w["action"] for w in result.data["workarounds"]] == [REBASE, MERGE]
    assert [w["success_rate"] for w in result.data["workarounds"]] == [0.9, 0.8]  # (the most cautious of 0.8 and 0.85)
    assert result.report.conflicts == []


def test_a_repeat_within_one_entry_is_still_folded() -> None:
    a = _entry("git/push-rejected", workarounds=[{"action": REBASE, "success_rate": 0.9}, {"action": REBASE.lower() + ".", "success_rate": 0.9}])
    result = merge.merge_entries(a, [_entry("git/push-rejected-2")])
    assert [w["action"] for w in result.data["workarounds"]] == [REBASE]


def test_a_dead_end_beside_its_contrasting_workaround_is_no_role_conflict() -> None:
    dead = {"action": "Convert the whole expression with str() after the +", "fail_rate": 0.95}
    work = {"action": "Convert the operand with str() where the + happens", "success_rate": 0.9}
    a = _entry("python/concatenate-str", dead_ends=[dead], workarounds=[work])
    b = _entry("python/concatenate-str-2", dead_ends=[dict(dead)], workarounds=[dict(work)])
    result = merge.merge_entries(a, [b])
    assert [c for c in result.report.conflicts if c.kind == "role"] == []
    assert result.data["dead_ends"] == [dead] and result.data["workarounds"] == [work]


def test_an_input_whose_workaround_is_the_other_inputs_dead_end_is_still_a_conflict() -> None:
    a = _entry(
        "python/torch-cuda", dead_ends=[{"action": "Reinstall torch", "fail_rate": 0.9}],
        workarounds=[{"action": "Reinstall torch from the CUDA wheel index", "success_rate": 0.8}],
    )  # fmt: skip
    b = _entry("python/torch-cuda-2", workarounds=[{"action": "Reinstall torch", "success_rate": 0.7}])
    result = merge.merge_entries(a, [b])
    [conflict] = [c for c in result.report.conflicts if c.kind == "role"]
    assert "`Reinstall torch` is a dead end in python/torch-cuda and a workaround in" in conflict.about


def _apart(actions: list[str]) -> bool:
    """No two of one list's actions repeat one action (what a merge folds within an entry)."""
    return all(action_similarity(a, b) < SAME_ACTION_IN_ENTRY for n, a in enumerate(actions) for b in actions[:n])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ACTIONS, max_size=5), st.lists(_ACTIONS, max_size=5))
def test_any_entry_merged_with_a_copy_of_itself_keeps_its_items_and_raises_no_conflict(dead: list[str], work: list[str]) -> None:
    assume(_apart(dead) and _apart(work))
    a = _entry("python/generated", dead_ends=[{"action": d, "fail_rate": 0.9} for d in dead],
               workarounds=[{"action": w, "success_rate": 0.8} for w in work])  # fmt: skip
    result = merge.merge_entries(a, [copy.deepcopy(a)])
    assert result.report.conflicts == []
    assert [d["action"] for d in result.data["dead_ends"]] == dead
    assert [w["action"] for w in result.data["workarounds"]] == work
