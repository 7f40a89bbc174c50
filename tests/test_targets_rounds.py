"""benchmarks/targets.py: the cold target's lints are measured in rounds, each beside its own floor."""

from __future__ import annotations

import re
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import targets  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("/usr/bin/time") is None, reason="needs /usr/bin/time")


def test_each_round_has_its_floor_and_the_row_keeps_the_median_round(
    tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    # Floors far apart, so that which round's floor a ratio used shows in the figures: three
    # rounds of cold lints, then two more floors for the second and third warm lints (the
    # first warm lint follows the last cold one, beside the same floor).
    floors = iter([0.1, 1.0, 10.0, 2.0, 0.01])
    monkeypatch.setattr(targets.scale, "floor", lambda root: next(floors))
    row = targets.size_row(tmp_path, "diverse", 12, None, rounds=3)
    out = capsys.readouterr().out
    printed = [float(f) for f in re.findall(r"diverse 12 \(round \d of 3\): json.load floor ([0-9.]+) s", out)]
    assert printed == [0.1, 1.0, 10.0]
    for kind, expected_floors in (("cold", printed), ("warm", [10.0, 2.0, 0.01])):
        walls = [float(w) for w in re.findall(rf"{kind} lint \(after\) +([0-9.]+) s wall", out)]
        (listed,) = re.findall(rf"{kind} lint \(after\) per round: (.*); median", out)
        ratios = [float(ratio.rstrip("x")) for ratio in listed.split(", ")]
        expected = [w / f for w, f in zip(walls, expected_floors, strict=True)]
        assert ratios == [pytest.approx(r, rel=0.05, abs=0.07) for r in expected]
        run = row[f"{kind} after"]
        floor = row["floor after" if kind == "cold" else "floor warm after"]
        assert isinstance(run, targets.Run) and isinstance(floor, float) and run.found > 0
        assert f"{run.wall / floor:.1f}" == f"{statistics.median(ratios):.1f}"
    # lints of one kind take about the same time: the median round is the middle floor
    assert row["floor after"] == 1.0
    assert row["floor warm after"] == 2.0


def test_one_round_prints_no_round_labels(tmp_path: Path, capsys: Any) -> None:
    row = targets.size_row(tmp_path, "diverse", 12, None)
    out = capsys.readouterr().out
    assert "round" not in out and "per round" not in out
    cold, warm = row["cold after"], row["warm after"]
    assert isinstance(cold, targets.Run) and cold.found > 0
    assert isinstance(warm, targets.Run) and warm.found == cold.found and row["floor warm after"] == row["floor after"]


def test_the_median_round_is_a_measured_round() -> None:
    # odd: the middle one; even: the higher of the middle two, never an average of two rounds
    assert targets.median_round([3.0, 1.0, 2.0], float) == 2.0
    assert targets.median_round([9.2, 11.4, 13.2, 10.5], float) == 11.4
    rounds = [(0.5, "a"), (0.1, "b"), (0.3, "c"), (0.2, "d")]
    assert targets.median_round(rounds, lambda r: r[0]) == (0.3, "c")


def test_pre_commit_lints_the_two_corpora_in_turn_and_restores_the_edited_files(
    tmp_path: Path, monkeypatch: Any
) -> None:
    roots = []
    for name in ("big", "small"):
        root = tmp_path / name
        (root / "pip").mkdir(parents=True)
        for n in range(3):
            (root / "pip" / f"e{n}.yaml").write_text(f"id: pip/e{n}\nsignature: message {n}\n", encoding="utf-8")
        roots.append(root)
    before = {path: path.read_text(encoding="utf-8") for root in roots for path in root.rglob("*.yaml")}
    seen: list[tuple[str, str]] = []
    took = iter([2.0, 1.0, 3.0, 1.5, 4.0, 4.0])

    def lint(root: Path, target: str) -> tuple[float, int, int]:
        seen.append((root.name, Path(target).read_text(encoding="utf-8")))
        return next(took), 0, 0

    monkeypatch.setattr(targets.scale, "lint", lint)
    times = targets.scale.precommit(roots, rounds=3, what="signature")
    assert [name for name, _ in seen] == ["big", "small"] * 3
    assert [text.count("(edit ") for _, text in seen] == [1] * 6  # each lint saw its file edited
    assert times == [[2.0, 3.0, 4.0], [1.0, 1.5, 4.0]]
    assert targets.scale.round_ratios(times) == [2.0, 2.0, 1.0]
    assert {path: path.read_text(encoding="utf-8") for path in before} == before


def test_the_canons_report_names_the_median_round_and_its_own_two_runs(capsys: Any) -> None:
    def run(wall: float, cpu: float, found: int = 0) -> targets.Run:
        return targets.Run(wall=wall, cpu=cpu, rss=0, found=found)

    # rounds' ratios 10x, 8x, 11x; the fastest peer run (40 s) and the fastest entrykit run (5 s,
    # two rounds) are not one round: the median round is the first
    runs = {
        "peer": [run(50.0, 60.0), run(40.0, 50.0), run(66.0, 70.0)],
        "after": [run(5.0, 8.0, 7), run(5.0, 9.0, 7), run(6.0, 9.5, 7)],
        "before": [],
    }
    targets.report_canons(runs)
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "  round 1: peer 50.00 s  after 5.00 s (10.0x)",
        "  round 2: peer 40.00 s  after 5.00 s (8.0x)",
        "  round 3: peer 66.00 s  after 6.00 s (11.0x)",
    ]
    assert lines[3] == "deadends canons, entrykit (after) per round: median 10.0x, lowest 8.0x, 2 of 3 rounds >= 10x"
    assert lines[4] == (
        "deadends canons, the median round: peer 50.00 s, entrykit (after) cold 5.00 s (8.0 s CPU, 7 diagnostics): "
        "10.0x faster (target >= 10); CPU 7.5x"
    )
    assert len(lines) == 5  # nothing for a version that did not run
