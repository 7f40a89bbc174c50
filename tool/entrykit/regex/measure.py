"""Opt-in: time an ET205 attack at growing sizes in the regex worker (`regex.measure = true`).

ET205's verdict comes from analysis (`regex.redos`); this only adds what running the
attack takes on this machine, for people who want a figure. It reads a clock, so
its numbers differ between runs and machines: it is off by default and never
decides a finding.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any, NamedTuple

from entrykit.regex.redos import Finding, pump_count


@dataclass(frozen=True)
class Measurement:
    """Attack lengths tried and seconds taken (None: stopped at the budget), and the verdict.

    `predicted` is the attack length that should exceed the budget, extrapolated from
    the last two runs once they show the growth (`growth`: the exponent for
    polynomial findings, the factor per `step` characters for exponential ones).
    """

    runs: tuple[tuple[int, float | None], ...]
    kind: str
    degree: int
    predicted: int | None = None
    growth: float = 0.0
    step: int = 0

    @property
    def confirmed(self) -> bool:
        return self.predicted is not None or any(seconds is None for _, seconds in self.runs)

    def describe(self, budget_ms: float) -> str:
        timed = [(length, s) for length, s in self.runs if s is not None]
        over = [length for length, s in self.runs if s is None]
        if self.predicted is not None and len(timed) >= 2:
            (l1, t1), (l2, t2) = timed[-2], timed[-1]
            if self.kind == "exponential":
                how = f"x{self.growth:.0f} for {self.step:,} more characters"
            else:
                how = f"growing as n^{self.growth:.1f}"
            return (
                f"{l1:,} characters took {_seconds(t1)} and {l2:,} took {_seconds(t2)} ({how}), "
                f"so about {self.predicted:,} would exceed the {budget_ms:g} ms budget"
            )
        parts = []
        if timed:
            length, seconds = timed[-1]
            parts.append(f"{length:,} characters took {_seconds(seconds)}")
        if over:
            parts.append(f"{over[0]:,} exceeded the {budget_ms:g} ms budget")
        else:
            parts.append(f"which stays under the {budget_ms:g} ms budget and does not confirm it")
        return " and ".join(parts) if over else ", ".join(parts)

    def to_data(self) -> tuple[Any, ...]:
        return (self.runs, self.kind, self.degree, self.predicted, self.growth, self.step)

    @classmethod
    def from_data(cls, data: Any) -> Measurement:
        runs, kind, degree, predicted, growth, step = data
        return cls(
            tuple((int(n), None if t is None else float(t)) for n, t in runs),
            str(kind), int(degree), None if predicted is None else int(predicted), float(growth), int(step),
        )


def _seconds(value: float) -> str:
    if value < 1:
        return f"{value * 1000:.1f} ms"
    if value < 120:
        return f"{value:.0f} s"
    return f"{value / 60:.0f} min"


_EXPONENTIAL_STEPS = (6, 10, 14, 18, 22, 26, 30, 34, 38)
_POLYNOMIAL_LENGTHS = tuple(64 * 2**k for k in range(11))  # 64 .. 65,536 characters
_PREDICT_FROM = 0.03  # a step this share of the budget long is measured well enough to extrapolate
_MIN_EXPONENT = 1.5  # growth below this (about linear) is no backtracking to report
_MIN_FACTOR = 3.0  # an exponential attack grows at least this much per step


def measure(pattern: str, flags: int, mode: str, finding: Finding, runner: Any) -> Measurement:
    """Run the attack at growing sizes until its growth is established or it exceeds the budget.

    Sizes grow (doubling for polynomial findings, four more pumps for exponential
    ones) until a run takes `_PREDICT_FROM` of the budget. That run and the one
    before give the growth; if it is superlinear (exponent `_MIN_EXPONENT` or more,
    or `_MIN_FACTOR` per exponential step) the length that would exceed the budget is
    extrapolated from them, and the finding is confirmed if that length is within the
    sizes tried (65,536 characters). The extrapolation is what makes this cheap: the
    run that exceeds the budget costs the budget, and more than all runs before it.
    A run that exceeds the budget on its own confirms the finding too.
    """
    budget = runner.budget
    if finding.kind == "exponential":
        texts = [finding.attack.build(n) for n in _EXPONENTIAL_STEPS]
    else:
        texts = [finding.attack.build(pump_count(finding.attack, n)) for n in _POLYNOMIAL_LENGTHS]
    series = _Series(runner, pattern, flags, mode, texts, _PREDICT_FROM * budget)
    if finding.kind == "exponential":
        prediction = _predict_exponential(series, finding, budget)
    else:
        prediction = _predict_polynomial(series, finding, budget)
    runs = tuple(series.runs)
    if prediction is None:
        return Measurement(runs, finding.kind, finding.degree)
    return Measurement(
        runs, finding.kind, finding.degree,
        predicted=prediction.predicted, growth=prediction.growth, step=prediction.step,
    )


class _Prediction(NamedTuple):
    """The length that would exceed the budget, and the growth it was extrapolated from."""

    predicted: int
    growth: float
    step: int = 0


class _Series:
    """The attack texts of one measurement, run in order, and the runs so far.

    Every size up to the first run that takes `_PREDICT_FROM` of the budget is only a
    step on the way, so the sizes still to come go to the worker as one series that
    stops there (one round trip); `run` then reads the runs in order.
    """

    def __init__(self, runner: Any, pattern: str, flags: int, mode: str, texts: list[str], stop_at: float) -> None:
        self.runner = runner
        self.pattern = pattern
        self.flags = flags
        self.mode = mode
        self.texts = texts
        self.stop_at = stop_at
        self.runs: list[tuple[int, float | None]] = []
        self._ahead: deque[Any] = deque()
        self._sent = 0

    def run(self, text: str) -> bool:
        """Record the run of `text` (one of `texts`, asked for in order); whether it timed out."""
        if not self._ahead:
            start = self.texts.index(text, self._sent)
            self._ahead.extend(
                self.runner.run_series(self.pattern, self.flags, self.mode, self.texts[start:], self.stop_at)
            )
            self._sent = start + len(self._ahead)
        outcome = self._ahead.popleft()
        self.runs.append((len(text), None if outcome.timed_out else outcome.seconds))
        return bool(outcome.timed_out)


def _predict_exponential(series: _Series, finding: Finding, budget: float) -> _Prediction | None:
    """Four more pumps a step; the factor per step of two long enough runs predicts the rest."""
    runs = series.runs
    for previous, n in zip((None, *_EXPONENTIAL_STEPS[:-1]), _EXPONENTIAL_STEPS, strict=True):
        if series.run(finding.attack.build(n)):
            return None
        (l2, t2), before = runs[-1], runs[-2] if len(runs) > 1 else None
        if previous is None or before is None or t2 is None or t2 < _PREDICT_FROM * budget:
            continue
        l1, t1 = before
        if not t1 or t2 / t1 < _MIN_FACTOR:
            continue
        factor = t2 / t1
        steps = math.log(budget / t2) / math.log(factor)
        predicted = len(finding.attack.build(n + max(1, math.ceil(steps * (n - previous)))))
        if predicted <= _POLYNOMIAL_LENGTHS[-1]:
            return _Prediction(predicted, factor, l2 - l1)
    return None


def _predict_polynomial(series: _Series, finding: Finding, budget: float) -> _Prediction | None:
    """Doubling lengths; the exponent of two long enough runs predicts the rest."""
    runs = series.runs
    limit = _POLYNOMIAL_LENGTHS[-1]
    for length in _POLYNOMIAL_LENGTHS:
        if series.run(finding.attack.build(pump_count(finding.attack, length))):
            return None
        (l2, t2) = runs[-1]
        if t2 is not None and t2 >= _PREDICT_FROM * budget and len(runs) > 1 and runs[-2][1]:
            l1, t1 = runs[-2]
            assert t1 is not None
            exponent = math.log(t2 / t1) / math.log(l2 / l1) if l2 > l1 else 0.0
            if exponent >= _MIN_EXPONENT:
                predicted = int(l2 * (budget / t2) ** (1 / exponent)) + 1
                if predicted <= limit:
                    return _Prediction(predicted, exponent)
            elif l2 * budget / t2 > limit:
                return None  # about linear: no size we would try exceeds the budget
    return None
