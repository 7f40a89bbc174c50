"""benchmarks/cold_costs.py: its clocks time every step of a cold lint, and change nothing of it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from entrykit import registry
from entrykit.config import from_table
from entrykit.lint import engine, pipeline
from entrykit.loader import load

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import cold_costs  # noqa: E402


def test_every_rule_and_fact_is_timed_and_the_diagnostics_are_the_same(tmp_path: Path) -> None:
    root = cold_costs.targets.corpus(tmp_path, "diverse", 60, "yaml")
    config = from_table({"root": root.name}, root.parent)
    plain = list(engine.lint(None, config, cold_costs.TODAY, cwd=root.parent, jobs=1).diagnostics)
    total, spent, found = cold_costs.measure(root)
    assert found == plain and plain
    configured = engine.configured(config)
    rules = [r for r in registry.all_rules() if r.func is not None and configured.enabled(r.code)]
    expected = {r.code if r.scope == "entry" else f"{r.code} (corpus)" for r in rules}
    expected |= {f"fact {f.name}" for f in registry.all_facts() if any(configured.enabled(c) for c in f.rules)}
    expected |= {"reading files", "parsing", "summaries", cold_costs.CORPUS_PHASE}
    assert expected <= {name for name, seconds in spent.items() if seconds > 0}
    assert sum(spent.values()) <= total
    # and the lint is as it was once measured
    assert pipeline.load is load and engine._run_corpus_rule.__module__ == engine.__name__


def test_corpus_option_takes_a_folder_of_entries_without_configuration(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    root = cold_costs.targets.corpus(tmp_path, "diverse", 12, "yaml")
    floor = cold_costs.targets.corpus(tmp_path, "diverse", 12, "json")
    monkeypatch.setattr(sys, "argv", ["cold_costs.py", "--corpus", str(root), "--floor", str(floor)])
    capsys.readouterr()
    cold_costs.main()
    heading = capsys.readouterr().out.strip().splitlines()[0]
    assert heading.startswith(f"{root}, 12 entries, ")


def test_within_allowance_counts_the_largest_steps_that_would_have_to_go() -> None:
    assert cold_costs.within_allowance(90.0, [50.0, 30.0, 10.0], 100.0) == "within what the target allows"
    # 300 - 150 = 150 > 100, then - 60 = 90 <= 100: the two largest
    said = cold_costs.within_allowance(300.0, [150.0, 60.0, 40.0], 100.0)
    assert said.startswith("to fit, its 2 largest steps would have to cost nothing") and "67% less" in said
    # the unnamed rest alone is over the allowance
    said = cold_costs.within_allowance(300.0, [100.0, 50.0], 100.0)
    assert said.startswith("even with every named step free")


def test_the_floor_is_the_lower_of_its_measurements_before_and_after_the_lint(tmp_path: Path, monkeypatch: Any) -> None:
    order: list[str] = []
    for first, second in ((0.5, 0.2), (0.2, 0.5)):
        floors = iter([first, second])

        def floor(folder: Path, floors: Any = floors) -> float:
            order.append("floor")
            return next(floors)

        def lint() -> str:
            order.append("lint")
            return "measured"

        monkeypatch.setattr(cold_costs.scale, "floor", floor)
        assert cold_costs.floor_around(tmp_path, lint) == (0.2, "measured")
    assert order == ["floor", "lint", "floor"] * 2


def test_rules_and_facts_are_told_apart_from_the_pipeline_around_them() -> None:
    assert cold_costs.is_rule_step("ET205") and cold_costs.is_rule_step("ET502 (corpus)")
    assert cold_costs.is_rule_step("fact own-timeouts")
    assert not any(
        cold_costs.is_rule_step(step)
        for step in ("parsing", "reading files", "summaries' places", cold_costs.CORPUS_PHASE, "placing findings")
    )
    # 40 µs of floor per entry on 2 cores is 80 µs of CPU: 800 of rules is 10x, 200 of the rest 2.5x
    said = cold_costs.split_by_kind(800.0, 200.0, 40.0, 2)
    assert said == "rules and facts 800 µs per entry (10.0x the floor on 2 cores), the pipeline without them 200 µs (2.5x)"
