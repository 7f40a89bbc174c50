"""ET205's analysis: the class and degree of a regex, attacks `re` really rejects, no clock, bounded work."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from entrykit.diagnostic import Severity
from entrykit.regex import literal_index, redos, syntax
from entrykit.regex.budget import TooComplex
from entrykit.regex.measure import Measurement
from entrykit.regex.redos import Result, analyse, pump_count, structural
from entrykit.regex.runner import RegexRunner

from .conftest import lint_corpus

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


# -- the attack: chosen without running re, and re rejects it ------------------------------


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [(p, 0) for p in EXPONENTIAL]
    + [(r"(911.*tw|taiwan.*emergency|emergency.*number.*taiwan)", re.IGNORECASE), (r"a.*b.*c.*d", 0),
       (r"(model_entity.*rejected|rejected.*stale.*cache)", 0), (r"(a|ab)*c", 0), (r"(a|a)*\1$", 0)],
)
def test_the_attack_the_model_rejects_is_rejected_by_re(pattern: str, flags: int) -> None:
    """The model of CPython's matcher chose the suffix; `re` itself agrees: the attack
    fails at every start (or matches only past the pumped part), so every way is tried."""
    [result] = analyse(pattern, flags, "search")
    attack = result.finding.attack
    for pumps in (1, 3, 5):
        text = attack.build(pumps)
        found = re.search(pattern, text, flags)
        assert found is None or found.start() >= len(text) - len(attack.suffix), (pattern, text)


def test_an_attack_that_always_matches_is_no_finding() -> None:
    assert structural(r"(a+)+")  # the structure is there ...
    assert analyse(r"(a+)+", 0, "search") == []  # ... but `re` matches every attack at once


def test_the_verdict_is_the_same_in_every_process() -> None:
    """No clock, and nothing that depends on hashing order: two interpreters with different
    hash seeds analyse the same regexes into the same data."""
    patterns = [r"(\w+\s?)*$", r"(911.*tw|taiwan.*emergency|emergency.*number.*taiwan)", "Camera.*permission.*denied"]
    script = (
        "import json, sys; from entrykit.regex.redos import analyse\n"
        "print(json.dumps([[r.to_data() for r in analyse(p, 2, 'search')] for p in json.loads(sys.argv[1])]))"
    )
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script, json.dumps(patterns)], capture_output=True, text=True,
                              env=env, check=True)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    here = json.dumps([[r.to_data() for r in analyse(p, 2, "search")] for p in patterns])
    assert json.loads(outputs[0]) == json.loads(here)


def test_the_finding_survives_the_memo() -> None:
    [result] = analyse(r"a.*b.*c", 0, "search")
    assert Result.from_data(result.to_data()) == result
    assert result.measurement is None  # nothing timed unless asked for


# -- bounded: every analysis spends steps from a budget ------------------------------------


HOSTILE = {
    "dot-star chain": "ERROR: frobnicate failed" + ".*" * 590,
    "nested groups": "(" * 400 + "a" + ")" * 400,
    "nested stars": "(?:" * 100 + "a" + ")*" * 100,
    "alternations": "(a|b)" * 20_000,
    "distinct classes": "".join(f"[{chr(0x100 + 3 * i)}-{chr(0x101 + 3 * i)}]" for i in range(5000)),
    "star chain": "\\s*" * 20_000,
}


@pytest.mark.parametrize("pattern", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_hostile_regex_is_too_complex_not_a_hang(pattern: str) -> None:
    with pytest.raises(TooComplex):
        analyse(pattern, 0, "search")


def _lines_run(call: object) -> int:
    """Python lines executed by `call()`: a count of work that no machine's speed changes."""
    count = 0

    def trace(frame: object, event: str, arg: object) -> object:
        nonlocal count
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        call()  # type: ignore[operator]
    except TooComplex:
        pass
    finally:
        sys.settrace(None)
    return count


def test_the_work_on_a_hostile_regex_grows_with_the_budget_not_with_the_regex() -> None:
    """The `.*` * 590 regex took 206 s before the budget. Counted in executed lines, its
    analysis now stops at the budget: twice the budget, at most about twice the work; a
    regex ten times as long costs only its extra length (walking its nodes), not more
    analysis."""
    dots = "ERROR: frobnicate failed" + ".*" * 590
    longer = "ERROR: frobnicate failed" + ".*" * 5900
    syntax.parse(dots), syntax.parse(longer)  # parsed once (and linear in the regex): not counted
    small = _lines_run(lambda: analyse(dots, 0, "search", steps=20_000))
    double = _lines_run(lambda: analyse(dots, 0, "search", steps=40_000))
    long_small = _lines_run(lambda: analyse(longer, 0, "search", steps=20_000))
    assert small < 10 * 20_000
    assert double < 2.5 * small
    assert long_small < small + 30 * (len(longer) - len(dots))


def test_literal_extraction_is_bounded_too(monkeypatch: pytest.MonkeyPatch) -> None:
    many = "|".join(f"job {i} failed" for i in range(3000))
    with pytest.raises(TooComplex):
        literal_index.required(many, 0)
    again = _lines_run(lambda: literal_index.required(many, 0))
    assert again < 50  # ET208, ET209 and ET210 all ask: the budget is spent once
    monkeypatch.setattr(literal_index, "LITERAL_BUDGET", 2_000)
    small = _lines_run(lambda: literal_index._required.__wrapped__(many, 0))
    assert small < 40 * 2_000 + 50_000


def test_the_budgets_are_those_the_docs_give() -> None:
    from entrykit import registry

    doc = next(r.doc for r in registry.all_rules() if r.code == "ET210")
    assert f"{redos.STEP_BUDGET:,}" in doc and f"{literal_index.LITERAL_BUDGET:,}" in doc


# -- the rule: severity from the class, the same message on every run --------------------


def test_severity_comes_from_the_class_of_backtracking(tmp_path: Path) -> None:
    files = {
        "t/exponential.yaml": "id: t/exponential\nsignature: 'aaa'\nregex: '(a+)+$'\n",
        "t/cubic.yaml": "id: t/cubic\nsignature: 'Camera permission denied'\nregex: 'Camera.*permission.*denied'\n",
        "t/group.yaml": "id: t/group\nsignature: 'ababc'\nregex: '(a|ab)*c'\n",
    }
    result = lint_corpus(tmp_path, files, {"select": ["ET205"]})
    found = {Path(d.path).stem: d for d in result.diagnostics}
    assert found["exponential"].severity is Severity.ERROR
    assert found["cubic"].severity is Severity.WARNING
    assert found["group"].severity is Severity.INFO
    assert found["cubic"].message == (
        "regex backtracks polynomially, degree 3, in `search` mode (loops `(every start)`, `.`, `.` split "
        "the same text) on `'Cameraa' * n + 'permissiona' * n + '!'`"
    )
    assert all("measured" not in d.message for d in result.diagnostics)


# -- opt-in: timing the attack in the worker ------------------------------------------------


def test_measuring_is_opt_in_and_runs_the_size_ladder_in_order() -> None:
    """Timing is an extra: the finding is the one analysis gives. The runs are the size
    ladder from its start, sent as series that stop at the threshold measuring sets, every
    run a series made is one of the measurement's, and only the last may hit the budget."""
    from entrykit.regex.measure import _EXPONENTIAL_STEPS, _POLYNOMIAL_LENGTHS, _PREDICT_FROM

    stops: list[float] = []
    made: list[object] = []
    with RegexRunner(50) as runner:
        real_series = runner.run_series

        def recording_series(pattern: str, flags: int, mode: str, texts: list[str], stop_at: float) -> list[object]:
            stops.append(stop_at)
            made.extend(outcomes := real_series(pattern, flags, mode, texts, stop_at))
            return outcomes

        runner.run_series = recording_series  # type: ignore[method-assign]
        [plain] = analyse(r"(x+x+)+y", 0, "search", runner)
        assert not stops  # nothing timed unless asked for
        [timed] = analyse(r"(x+x+)+y", 0, "search", runner, measure=True)
        [poly] = analyse(r"a.*b.*c", 0, "search", runner, measure=True)
    assert plain.measurement is None and plain.finding == timed.finding
    assert stops and set(stops) == {_PREDICT_FROM * 0.05}
    runs = 0
    for result, ladder in (
        (timed, [len(timed.finding.attack.build(n)) for n in _EXPONENTIAL_STEPS]),
        (poly, [len(poly.finding.attack.build(pump_count(poly.finding.attack, n))) for n in _POLYNOMIAL_LENGTHS]),
    ):
        assert isinstance(result.measurement, Measurement)
        lengths = [length for length, _ in result.measurement.runs]
        assert lengths and lengths == ladder[: len(lengths)]
        assert all(seconds is not None for _, seconds in result.measurement.runs[:-1])
        assert Result.from_data(result.to_data()) == result
        runs += len(result.measurement.runs)
    assert len(made) == runs


def test_a_measurement_says_what_it_measured() -> None:
    predicted = Measurement(((1009, 0.0018), (2035, 0.0247)), "polynomial", 3, predicted=2969, growth=3.7)
    assert predicted.confirmed
    assert predicted.describe(100) == (
        "1,009 characters took 1.8 ms and 2,035 took 24.7 ms (growing as n^3.7), "
        "so about 2,969 would exceed the 100 ms budget"
    )
    over = Measurement(((30, 0.01), (34, None)), "exponential", 0)
    assert over.confirmed and over.describe(100) == "30 characters took 10.0 ms and 34 exceeded the 100 ms budget"
    flat = Measurement(((64, 0.0001),), "polynomial", 3)
    assert not flat.confirmed and "does not confirm it" in flat.describe(100)


def test_a_series_stops_where_running_the_texts_one_by_one_would() -> None:
    texts = ["a" * n + "!" for n in (4, 8, 30, 34, 38)]
    with RegexRunner(50) as runner:
        quick = runner.run_series(r"(a+)+$", 0, "search", texts[:2], 0.5)
        assert [o.status.name for o in quick] == ["NO_MATCH", "NO_MATCH"]  # nothing took long: all ran
        first = runner.run_series(r"(a+)+$", 0, "search", texts, 1e-12)
        assert len(first) == 1  # every run takes some time: the first one already stops it
        series = runner.run_series(r"(a+)+$", 0, "search", texts, 0.5)
        assert [o.timed_out for o in series] == [False, False, True]  # 30 characters: 2^30 ways
        assert runner.run_series(r"(a+)+$", 0, "search", [], 0.5) == []
