"""A corpus of catastrophic regexes against long signatures and examples lints to completion
within a bound counted in budgets spent, each entry reported by ET205, ET206 or ET210."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from entrykit.cli import cli
from entrykit.regex import runner as regex_runner
from entrykit.regex.runner import RegexRunner
from entrykit.regex.worker import NOT_RUN, SKIPPED

from .hostile import hostile_regex_entry, hostile_regexes

# What one hostile regex may cost, in budgets: its compile, three matches counted to the step
# budget before the runner stops running it, two short ET205 confirmation runs, and as many
# again for slack.
BUDGETS_PER_REGEX = 20
# What a worker killed by the runner's watchdog costs, in budgets of 100 ms: the watchdog
# waits the budget, the worker's flush interval and a second before it kills.
BUDGETS_PER_KILL = 12


def hostile_corpus(base: Path) -> list[str]:
    (base / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    for name, (regex, signature, examples) in hostile_regexes().items():
        path = base / "entries" / "regex" / f"{name}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(hostile_regex_entry(name, regex, signature, examples), encoding="utf-8")
    return sorted(hostile_regexes())


def test_the_hostile_regex_corpus_lints_to_completion_within_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = hostile_corpus(tmp_path)
    assert len(names) >= 14
    overruns: Counter[str] = Counter()  # pattern -> matches counted over the budget, or compiles stopped
    real_remote = RegexRunner._run_remote

    def counting_remote(self: RegexRunner, jobs: Any, *args: Any, **kwargs: Any) -> Any:
        outcomes = real_remote(self, jobs, *args, **kwargs)
        for job, outcome in zip(jobs, outcomes, strict=True):
            if outcome.timed_out and outcome.error not in (NOT_RUN, SKIPPED):  # ran, and paid the budget
                overruns[job.pattern] += 1
        return outcomes

    runners: dict[Any, RegexRunner] = {}
    monkeypatch.setattr(regex_runner, "_SHARED", runners)  # a fresh runner: nothing remembered from other tests
    monkeypatch.setattr(RegexRunner, "_run_remote", counting_remote)
    monkeypatch.chdir(tmp_path)
    try:
        args = ["lint", "--no-cache", "--format", "json", "--jobs", "1"]
        result = CliRunner().invoke(cli, args, catch_exceptions=False)  # an exception fails the test
    finally:
        kills = sum(runner.restarts for runner in runners.values())
        for runner in runners.values():
            runner.close()
    assert result.exit_code == 1, result.output
    found = json.loads(result.stdout)
    codes: dict[str, set[str]] = {name: set() for name in names}
    for item in found:
        codes[Path(item["path"]).stem].add(item["code"])
    assert {name for name, seen in codes.items() if not seen & {"ET205", "ET206", "ET210"}} == set()
    # the bound, counted: every regex stops paying the budget after a few overruns
    spent = {name: overruns[regex] for name, (regex, _, _) in hostile_regexes().items()}
    assert max(spent.values()) <= BUDGETS_PER_REGEX, spent
    assert sum(overruns.values()) + kills * BUDGETS_PER_KILL <= BUDGETS_PER_REGEX * len(names), (overruns, kills)
    assert sum(spent.values()) > 0  # the count sees the overruns (the corpus is hostile)
