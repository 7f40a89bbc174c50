"""A merge's lint comparison moves each finding past the removed references of its list
reading the removals once (`ReferenceMoves`), not once for every finding: an entry with
2,000 references to the merged entries took 6.1 s, the removals read 4M times. Where a
pointer goes is where it went (hypothesis against the former function)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import pointer as jp
from entrykit.authoring.merge import ReferenceMoves, pointer_after
from entrykit.cli import cli

_LISTS = st.sampled_from(["leads_to", "preceded_by", "frequently_confused_with"])
_CHANGES = st.lists(
    st.tuples(_LISTS, st.integers(0, 12), st.booleans(), st.booleans()).map(
        lambda c: (jp.join("transition_graph", c[0], c[1], *(["error_id"] if c[2] else [])), None if c[3] else "a/x")
    ),
    max_size=10,
)
_POINTERS = st.one_of(
    st.tuples(_LISTS, st.integers(0, 14), st.sampled_from([[], ["error_id"], ["distinction"]])).map(
        lambda p: jp.join("transition_graph", p[0], p[1], *p[2])
    ),
    st.sampled_from(["/id", "/transition_graph", "/transition_graph/leads_to", "/aliases/3", "/transition_graph/x/1"]),
)


def _pointer_after_as_before(changes: list[tuple[str, str | None]], pointer: str) -> str | None:
    """`pointer_after` as it was: the removals of the pointer's list read for each pointer."""
    tokens = jp.split(pointer)
    if len(tokens) < 3 or tokens[0] != "transition_graph" or not tokens[2].isdigit():
        return pointer
    index = int(tokens[2])
    removed = {int(jp.split(at)[2]) for at, new in changes if new is None and jp.split(at)[:2] == tokens[:2]}
    if index in removed:
        return None
    return jp.from_path([*tokens[:2], index - sum(1 for r in removed if r < index), *tokens[3:]])


@settings(max_examples=500, deadline=None)
@given(_CHANGES, st.lists(_POINTERS, min_size=1, max_size=6))
def test_pointers_move_as_before(changes: list[tuple[str, str | None]], pointers: list[str]) -> None:
    moves = ReferenceMoves.of(changes)
    for pointer in pointers:
        assert moves.after(pointer) == pointer_after(changes, pointer) == _pointer_after_as_before(changes, pointer)


def _entry(entry_id: str, **extra: Any) -> str:
    """A valid entry of the merge tests' kind."""
    data = {
        "id": entry_id,
        "signature": "ModuleNotFoundError: No module named 'x'",
        "regex": "ModuleNotFoundError: No module named '[^']+'",
        "domain": entry_id.split("/")[0],
        "category": "import_error",
        "root_cause": "The module is not installed.",
        "versions": [{"version": "python>=3.6", "status": "active"}],
        "workarounds": [{"action": "Install it", "success_rate": 0.9}],
        **extra,
    }
    return "".join(f"{key}: {json.dumps(value)}\n" for key, value in data.items())


def test_a_merge_reads_pointers_linear_in_the_references(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    references = 1_000
    leads = [f"python/e{n % 3}" for n in range(references)]  # (self references: a finding each)
    files = {
        "python/e0.yaml": _entry("python/e0"),
        "python/e1.yaml": _entry("python/e1"),
        "python/e2.yaml": _entry("python/e2", transition_graph={"leads_to": leads}),
    }
    for name, text in files.items():
        (tmp_path / "entries" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "entries" / name).write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    split = jp.split
    calls = [0]

    def counted(pointer: str) -> list[str]:
        calls[0] += 1
        return split(pointer)

    monkeypatch.setattr(jp, "split", counted)
    args = ["merge", "--dry-run", "--report", "json", "--today", "2026-11-30", "python/e0", "python/e1"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert '"python/e0"' in result.output
    assert calls[0] <= 50 * references  # (about 2M before: every removal for every finding)
