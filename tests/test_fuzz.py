"""Fuzzing at CI size: the loader, the rules and `merge` over generated hostile input raise nothing
but documented errors, and every diagnostic points inside its file (`fuzz/run.py` runs the same
targets at 100,000 cases and more)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from entrykit.loader import LoadFailure, load

from .fuzzing import LIMITS, ROOT, TARGETS, Broken, assert_inside, pairs

pytestmark = pytest.mark.slow

CI = settings(
    max_examples=250, deadline=None, database=None, phases=[Phase.explicit, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


def _outcomes(strategy: Any, target: Callable[[Any], str]) -> set[str]:
    """The outcomes `target` gave over the generated cases (it raises on anything else)."""
    seen: set[str] = set()

    @CI
    @given(strategy)
    def run(case: Any) -> None:
        seen.add(target(case))

    run()
    return seen


# Each test also checks that its generator is not refused at the door: every outcome occurs.


def test_loader_over_raw_bytes() -> None:
    assert {"ET001", "entry"} <= _outcomes(TARGETS["loader-bytes"][1], TARGETS["loader-bytes"][0])


def test_loader_over_mutated_yaml_and_json() -> None:
    assert {"ET001", "entry"} <= _outcomes(TARGETS["loader-text"][1], TARGETS["loader-text"][0])


def test_every_rule_over_generated_entries() -> None:
    run_rules = TARGETS["rules"][0]
    assert "diagnostics" in _outcomes(TARGETS["rules"][1], lambda case: run_rules(case).split()[-1])


def test_merge_over_generated_pairs() -> None:
    assert {"refused", "merged"} <= _outcomes(pairs, TARGETS["merge"][0])


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ("id: a/b\nx: 'a\u2028b'\ny: x: z\nw: 1\n", 3, 5),  # YAML counts LS as a line break: libyaml says 4
        ("id: a/b\nx: 'a\x85b'\ny: x: z\nw: 1\n", 3, 5),  # and NEL
        ("{", 1, 2),  # libyaml reports the end of the text on the line after it
        ("id: a/b\r{x: 1\n", 3, 1),
    ],
)
def test_yaml_errors_are_placed_on_the_lines_tools_show(text: str, line: int, col: int) -> None:
    found = load(ROOT / "x.yaml", "x.yaml", LIMITS, text=text)
    assert isinstance(found, LoadFailure)
    assert (found.line, found.col) == (line, col), found.message
    assert_inside(found.line, found.col, text.replace("\r", "\n").split("\n"), found.message)


def test_a_lone_surrogate_escape_in_json_is_et001_at_its_place() -> None:
    text = '{"id": "a/b",\n "signature": "ok \\ud83d\\ude00",\n "regex": "x\\udc00"}'
    found = load(ROOT / "x.json", "x.json", LIMITS, text=text)
    assert isinstance(found, LoadFailure)
    assert (found.line, found.col) == (3, 13) and "surrogate" in found.message


def test_broken_is_what_a_position_outside_the_file_raises() -> None:
    with pytest.raises(Broken):
        assert_inside(3, 1, ["a", "b"], "x")
    with pytest.raises(Broken):
        assert_inside(1, 3, ["a", "b"], "x")
    assert_inside(2, 2, ["a", "b"], "x")


def test_merge_refuses_entries_of_the_wrong_shapes_by_name() -> None:
    from entrykit.authoring.merge import merge_entries
    from entrykit.errors import UsageError

    with pytest.raises(UsageError, match="`/dead_ends` must be array"):
        merge_entries({"id": "git/a", "dead_ends": 5}, {"id": "git/b"})
    with pytest.raises(UsageError, match="`/transition_graph/leads_to/0` is none of the forms"):
        merge_entries({"id": "git/a"}, {"id": "git/b", "transition_graph": {"leads_to": [["git/c"]]}})


def test_an_absent_value_never_stands_in_for_an_empty_one() -> None:
    from entrykit.authoring.merge import merge_entries

    merged = merge_entries({"id": "git/a"}, {"id": "git/b", "verification_tier": ""}).data
    assert merged["verification_tier"] == ""  # was an internal placeholder object


def test_the_long_run_script_counts_a_hang_and_goes_on() -> None:
    """`fuzz/run.py`'s watchdog: a case that never ends is killed, counted and skipped."""
    import subprocess
    import sys

    from .conftest import REPO

    proc = subprocess.run(
        [sys.executable, str(REPO / "fuzz" / "run.py"), "--cases", "5", "--targets", "watchdog-check", "--bound", "1"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("watchdog-check"))
    assert " 5 cases  0 tracebacks  1 hangs" in line  # the third hangs; a new child runs the last two
    assert "--- hang in watchdog-check:" in proc.stdout


def test_merge_takes_any_value_under_a_graph_key_the_schema_does_not_know() -> None:
    from entrykit.authoring.merge import merge_entries

    into = {"id": "git/a", "transition_graph": {"later": [["git/c"], {"x": 1}, "git/b", ["git/c"]]}}
    merged = merge_entries(into, {"id": "git/b"}).data
    assert merged["transition_graph"]["later"] == [["git/c"], {"x": 1}]  # the pair itself dropped, the repeat merged
