"""benchmarks/merge_self.py on the bundled entries: no self-merge changes anything, and the alike pairs it lists are listed."""

from __future__ import annotations

import sys

import pytest
import yaml

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import merge_self  # noqa: E402

ENTRIES = {p.relative_to(REPO / "entries").as_posix(): yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((REPO / "entries").rglob("*.yaml"))}


def test_no_bundled_entry_merged_with_itself_changes(capsys: pytest.CaptureFixture[str]) -> None:
    merge_self.self_merges(ENTRIES)
    assert capsys.readouterr().out == (
        f"{len(ENTRIES)} entries merged with a copy of themselves: "
        "{'entries changed beyond evidence_count and canonical version rows': 0, 'items lost': 0}\n"
    )  # (no conflict of any kind, no entry listed)


def test_one_entrys_alike_actions_are_listed_to_judge(capsys: pytest.CaptureFixture[str]) -> None:
    merge_self.own_alike_pairs({"python/modulenotfounderror.yaml": ENTRIES["python/modulenotfounderror.yaml"]})
    out = capsys.readouterr().out
    assert "python/modulenotfounderror.yaml workarounds (0.57):" in out
    assert "Activate the virtualenv the package was installed into before running the code" in out
    assert out.endswith("1 pairs of one entry's own actions read 0.55 to 0.85 alike (above)\n")


def test_a_near_duplicate_pair_merged_both_ways_misses_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    pair = ("pytorch/fsdp-param-mismatch.yaml", "pytorch/fsdp-parameter-mismatch.yaml")
    merge_self.pair_merges(ENTRIES, [pair], "near-duplicate pairs (entrykit dupes)")
    assert capsys.readouterr().out.splitlines()[-1] == (
        "1 near-duplicate pairs (entrykit dupes), merged both ways: "
        "{'matched texts the merged regex misses': 0, 'merges': 2, 'merges the absorbed entry changes again': 0}"
    )


def test_random_pairs_are_the_same_distinct_pairs_every_run() -> None:
    names = sorted(ENTRIES)
    pairs = merge_self._random_pairs(names, 30)
    assert pairs == merge_self._random_pairs(names, 30) and len(set(pairs)) == 30
    assert all(a != b and a in ENTRIES and b in ENTRIES for a, b in pairs)
    assert len(merge_self._random_pairs(names[:3], 30)) == 3  # (as many as there are)
