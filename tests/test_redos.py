"""ET205's analysis: the class and degree of the issue's regexes, and attacks that really hurt."""

from __future__ import annotations

import re

import pytest
from entrykit.regex.redos import Result, analyse, pump_count, structural
from entrykit.regex.runner import Job, RegexRunner

EXPONENTIAL = [r"(a+)+$", r"(\w+\s?)*$", r"^(a|a)*$", r"(?:a+)+$", r"((a+))+$", r"(?P<x>a+)+$", r"(a*)*$",
               r"(a|a?)+$", r"(?>(a+)+$)", r"(?=(a+)+$)", r"^(\d+)*$", r"(x+x+)+y"]


@pytest.mark.parametrize("pattern", EXPONENTIAL)
def test_exponential(pattern: str) -> None:
    found = structural(pattern)
    assert found and found[0].kind == "exponential"


@pytest.mark.parametrize(
    ("pattern", "flags", "mode", "degree"),
    [
        (r".*x.*y.*z", 0, "search", 4),
        (r"(911.*tw|taiwan.*emergency|emergency.*number.*taiwan)", re.IGNORECASE, "search", 3),
        (r"(a|ab)*c", 0, "search", 2),
        (r"a.*b.*c", 0, "match", 2),  # no retry at every start: one less
        (r"(.*a){3}", 0, "search", 4),
    ],
)
def test_polynomial(pattern: str, flags: int, mode: str, degree: int) -> None:
    found = structural(pattern, flags, mode)
    assert found and found[0].kind == "polynomial" and found[0].degree == degree


@pytest.mark.parametrize(
    "pattern",
    [r"^\d+\.\d+$", r"RuntimeError: FSDP parameter mismatch across ranks\. Expected \(rank 0\)", r"^(?>a+)+b$",
     r"^[\w\s]*$", r"^(ab|cd)*$", r"(a|ab)*c"],
)
def test_linear_when_anchored_or_literal(pattern: str) -> None:
    found = structural(pattern, 0, "match")
    assert not found


def test_case_folding_changes_the_verdict() -> None:
    # 'k' and the Kelvin sign overlap only under IGNORECASE
    assert not structural("^(ka|\u212aa)*$")
    assert structural("^(ka|\u212aa)*$", re.IGNORECASE)[0].kind == "exponential"


def test_single_character_alternatives_are_one_class_as_re_parses_them() -> None:
    # re's parser turns (k|K) into [kK]: one position, nothing to backtrack over
    assert not structural("^(k|\u212a)*$", re.IGNORECASE)


@pytest.mark.parametrize("pattern", [r"(a+)+$", r"^(a|a)*$", r"(\w+\s?)*$"])
def test_exponential_attack_is_confirmed_under_the_budget(pattern: str) -> None:
    with RegexRunner(50) as runner:
        [result] = analyse(pattern, 0, "search", runner)
        assert result.measurement is not None and result.measurement.confirmed
        # the attack does not match at a small size: the engine has to try every split
        attack = result.finding.attack.build(4)
        start = runner.run([Job(pattern, 0, "search", attack)])[0].start
        assert start == -1 or start >= len(attack) - len(result.finding.attack.suffix)


def test_degree_three_attack_is_confirmed() -> None:
    pattern = r"(911.*tw|taiwan.*emergency|emergency.*number.*taiwan)"
    with RegexRunner(50) as runner:
        [result] = analyse(pattern, re.IGNORECASE, "search", runner)
    assert result.finding.degree == 3 and result.measurement is not None
    assert result.measurement.confirmed
    described = result.measurement.describe(50)
    assert "exceeded the 50 ms budget" in described or "would exceed the 50 ms budget" in described


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [
        (r"(911.*tw|taiwan.*emergency|emergency.*number.*taiwan)", re.IGNORECASE),
        (r"(model_entity.*rejected|rejected.*stale.*cache)", 0),
        (r"a.*b.*c.*d", 0),
        (r"(a+)+$", 0),
        (r"(\w+\s?)*$", 0),
    ],
)
def test_a_predicted_length_does_exceed_the_budget(pattern: str, flags: int) -> None:
    """Confirmation extrapolates from two short runs; the attack at the predicted size
    (with room for timing noise) must really run past the budget."""
    with RegexRunner(50) as runner:
        [result] = analyse(pattern, flags, "search", runner)
        measured = result.measurement
        assert measured is not None and measured.confirmed
        if measured.predicted is None:  # a run exceeded the budget on its own
            assert any(seconds is None for _, seconds in measured.runs)
            return
        # no run paid the budget: the worker stopped none of them
        assert len(measured.runs) >= 2 and all(seconds is not None for _, seconds in measured.runs)
        attack = result.finding.attack
        if result.finding.kind == "exponential":
            n = 1
            while len(attack.build(n)) < measured.predicted:
                n += 1
            text = attack.build(n + 4)
        else:
            text = attack.build(pump_count(attack, 2 * measured.predicted))
        outcome = runner.run([Job(pattern, flags, "search", text)])[0]
        assert outcome.timed_out, (len(text), outcome)


def test_measurement_and_finding_survive_the_memo() -> None:
    with RegexRunner(50) as runner:
        [result] = analyse(r"a.*b.*c", 0, "search", runner)
    again = Result.from_data(result.to_data())
    assert again == result
    assert again.measurement is not None and result.measurement is not None
    assert again.measurement.describe(50) == result.measurement.describe(50)


def test_an_attack_that_always_matches_is_no_finding() -> None:
    with RegexRunner(50) as runner:
        assert analyse(r"(a+)+", 0, "search", runner) == []


def test_a_series_stops_where_running_the_texts_one_by_one_would() -> None:
    texts = ["a" * n + "!" for n in (4, 8, 30, 34, 38)]
    with RegexRunner(50) as runner:
        quick = runner.run_series(r"(a+)+$", 0, "search", texts[:2], 0.5)
        assert [o.status.name for o in quick] == ["NO_MATCH", "NO_MATCH"]  # nothing took long: all ran
        first = runner.run_series(r"(a+)+$", 0, "search", texts, 1e-12)
        assert len(first) == 1  # every run takes some time: the first one already stops it
        series = runner.run_series(r"(a+)+$", 0, "search", texts, 0.5)
        assert [o.timed_out for o in series] == [False, False, True]  # 30 characters exceed 50 ms
        assert runner.run_series(r"(a+)+$", 0, "search", [], 0.5) == []


@pytest.mark.parametrize("pattern", [r"a.*b.*c", r"(x+x+)+y", r"(\w+\s?)*$"])
def test_measurement_runs_the_sizes_in_order_and_stops_at_the_first_long_run(pattern: str) -> None:
    """What sending the sizes as one series must keep: the runs are the size ladder from its
    start, each series stops at the threshold measuring sets, every run a series made is one of
    the measurement's (none run twice or dropped), and only the last may have hit the budget."""
    from entrykit.regex.redos import (
        _EXPONENTIAL_STEPS,
        _POLYNOMIAL_LENGTHS,
        _PREDICT_FROM,
    )

    stops: list[float] = []
    made: list[object] = []
    with RegexRunner(50) as runner:
        real_series = runner.run_series

        def recording_series(pattern: str, flags: int, mode: str, texts: list[str], stop_at: float) -> list[object]:
            stops.append(stop_at)
            made.extend(outcomes := real_series(pattern, flags, mode, texts, stop_at))
            return outcomes

        runner.run_series = recording_series  # type: ignore[method-assign]
        [result] = analyse(pattern, 0, "search", runner)
    measured = result.measurement
    assert measured is not None
    attack = result.finding.attack
    if result.finding.kind == "exponential":
        ladder = [len(attack.build(n)) for n in _EXPONENTIAL_STEPS]
    else:
        ladder = [len(attack.build(pump_count(attack, n))) for n in _POLYNOMIAL_LENGTHS]
    lengths = [length for length, _ in measured.runs]
    assert lengths == ladder[: len(lengths)]
    assert stops and set(stops) == {_PREDICT_FROM * 0.05}
    assert len(made) == len(measured.runs)
    assert all(seconds is not None for _, seconds in measured.runs[:-1])
