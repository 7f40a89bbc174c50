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
    # Floors far apart, so that which round's floor a ratio used shows in the figures.
    floors = iter([0.1, 1.0, 10.0])
    monkeypatch.setattr(targets.scale, "floor", lambda root: next(floors))
    row = targets.size_row(tmp_path, "diverse", 12, None, rounds=3)
    out = capsys.readouterr().out
    printed = [float(f) for f in re.findall(r"diverse 12 \(round \d of 3\): json.load floor ([0-9.]+) s", out)]
    assert printed == [0.1, 1.0, 10.0]
    colds = [float(w) for w in re.findall(r"cold lint \(after\) +([0-9.]+) s wall", out)]
    assert len(colds) == 3
    assert len(re.findall(r"warm lint \(after\)", out)) == 1  # after the last round's cold lint
    (listed,) = re.findall(r"cold lint \(after\) per round: (.*); median", out)
    ratios = [float(ratio.rstrip("x")) for ratio in listed.split(", ")]
    assert ratios == [pytest.approx(c / f, rel=0.05, abs=0.07) for c, f in zip(colds, printed, strict=True)]
    cold, base = row["cold after"], row["floor"]
    assert isinstance(cold, targets.Run) and isinstance(base, float)
    assert row["floor after"] == base == 1.0  # cold lints take about the same time: the median round is the middle floor
    assert f"{cold.wall / base:.1f}" == f"{statistics.median(ratios):.1f}"
    assert row["floor warm"] == 10.0  # the warm lint's ratio is to the floor just before it
    assert cold.found > 0


def test_one_round_prints_no_round_labels(tmp_path: Path, capsys: Any) -> None:
    row = targets.size_row(tmp_path, "diverse", 12, None)
    out = capsys.readouterr().out
    assert "round" not in out and "per round" not in out
    cold = row["cold after"]
    assert isinstance(cold, targets.Run) and cold.found > 0 and row["floor"] == row["floor after"]
