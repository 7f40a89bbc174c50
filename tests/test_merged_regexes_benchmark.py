"""benchmarks/merged_regexes.py: what it counts of merged regexes, and merges made in its worker."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from entrykit.authoring import merge

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import merged_regexes  # noqa: E402


def test_a_merged_regex_repeating_a_survivors_alternative_is_counted() -> None:
    assert merged_regexes._repeats("a|b", "(?:a|b)|(?:b|c)")
    assert merged_regexes._repeats("(x|y)", "(?:(x|y))|(?:(y|z))")
    assert not merged_regexes._repeats("a|b", "(?:a|b)|(?:c)")
    assert not merged_regexes._repeats("a|b", "a|b")


def test_a_merge_that_loses_a_text_is_counted_with_the_text(capsys: Any) -> None:
    survivor = merged_regexes._entry("a", "port 80 is", "port \\d{1,2} is")
    absorbed = merged_regexes._entry("b", "port 80 is", "port \\d+ is")
    merged_regexes.judge("x", [(survivor, absorbed, 0, "search")], ["port \\d{1,2} is"])
    out = capsys.readouterr().out
    assert "1 merges; 0 repeat" in out and "1 lose a text" in out and "'port 000 is'" in out


def test_the_worker_merges_as_the_library_does(tmp_path: Path) -> None:
    jobs = merged_regexes.generated_jobs(6, 1)
    assert jobs == merged_regexes.generated_jobs(6, 1)  # seeded
    expected = [merge.merge_entries(a, b, prefer="into", flags=f, mode=m).data["regex"] for a, b, f, m in jobs]
    assert merged_regexes.merged(jobs, REPO, tmp_path) == expected
