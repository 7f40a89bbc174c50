"""Whether a long regex compiles within the time budget is decided by counting (`compiling.compile_steps`),
not by the worker's clock: a regex of 200,000 `[` was ET206 "took longer than the budget"
on this machine and ET201 ("unterminated character set") at 50,000; where between the two
the verdict turned depended on the machine. Now one counting more steps than the budget's
microseconds is not compiled anywhere, and one counting fewer is compiled in the worker
under ten times the budget, a guard no machine's speed reaches. (`benchmarks/compile_steps.py`
measures the count against CPython's compile times.)"""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from entrykit.regex import runner as regex_runner
from entrykit.regex.compiling import (
    CODE_POINTS_PER_STEP,
    CODE_POINTS_PER_STEP_CASELESS,
    COMPILE_MARGIN,
    HALF_STEPS_PER_CHARACTER,
    STEPS_PER_ALTERNATIVE,
    STEPS_PER_BITMAP_CLASS,
    STEPS_PER_CLASS,
    STEPS_PER_ESCAPE,
    STEPS_PER_PARENTHESIS,
    STEPS_PER_RANGE,
    STEPS_PER_RANGE_CASELESS,
    STEPS_PER_REPEAT,
    STEPS_PER_WIDE_CLASS,
    cheap_to_compile,
    compile_steps,
    compile_steps_limit,
)
from entrykit.regex.runner import Job, RegexRunner, Status
from entrykit.regex.worker import COMPILE_TOO_COSTLY, COUNT_GUARD

from .conftest import lint_corpus
from .hostile import entry_text


def _text(pattern: str) -> int:
    return HALF_STEPS_PER_CHARACTER * len(pattern) // 2


def test_the_count_is_the_text_its_syntax_and_each_class_ranges_code_points() -> None:
    assert compile_steps("a" * 5000) == _text("a" * 5000)
    syntax_marks = "(a|b)*\\w+[x]?{2}"
    assert compile_steps(syntax_marks) == (
        _text(syntax_marks) + STEPS_PER_PARENTHESIS + STEPS_PER_ALTERNATIVE + STEPS_PER_ESCAPE + 4 * STEPS_PER_REPEAT + STEPS_PER_CLASS
    )
    plain = "x[\u0100-\u01ff]"  # 256 code points
    base = _text(plain) + STEPS_PER_CLASS
    assert compile_steps(plain) == base + STEPS_PER_RANGE + 256 // CODE_POINTS_PER_STEP
    caseless = base + STEPS_PER_RANGE_CASELESS + 256 // CODE_POINTS_PER_STEP_CASELESS
    assert compile_steps(plain, re.IGNORECASE) == caseless
    inline = "(?i)" + plain
    assert compile_steps(inline) == _text(inline) + STEPS_PER_CLASS + STEPS_PER_PARENTHESIS + STEPS_PER_REPEAT + caseless - base
    # a range beyond the Basic Multilingual Plane is kept as a range: its code points do not count
    beyond = "[\U00010000-\U0001ffff]"
    assert compile_steps(beyond) == _text(beyond) + STEPS_PER_CLASS + STEPS_PER_RANGE
    # past the limit the text alone is counted; a pattern that does not parse, its text
    assert compile_steps("a" * 9000 + "[a-z]", limit=100) == _text("a" * 9000 + "[a-z]") + STEPS_PER_CLASS
    assert compile_steps("(" + plain) == _text("(" + plain) + STEPS_PER_CLASS + STEPS_PER_PARENTHESIS


def test_the_limit_is_the_budgets_microseconds() -> None:
    assert compile_steps_limit(0.1) == 100_000
    assert RegexRunner(20).compile_steps_limit == 20_000


def test_a_regex_counting_more_is_not_compiled_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object, **kwargs: object) -> object:
        raise AssertionError("sent to the worker")

    monkeypatch.setattr(RegexRunner, "_run_remote", forbidden)
    monkeypatch.setattr(regex_runner, "compile_error", forbidden)
    long = "[" * 30_000  # (it does not parse either: its text decides)
    with RegexRunner(100) as runner:
        for pattern in (long, "a" * 70_000, "(?i)" + "[\u0100-\uffe0]" * 40):
            outcome = runner.compile_check(pattern, 0)
            assert (outcome.status, outcome.error) == (Status.TIMEOUT, COMPILE_TOO_COSTLY), pattern[:20]
            assert not runner.compiles(pattern, 0)
            [job] = runner.run([Job(pattern, 0, "search", "x")])
            assert (job.status, job.error) == (Status.TIMEOUT, COMPILE_TOO_COSTLY)


def test_a_regex_counting_fewer_is_compiled_in_the_worker_under_a_guard_of_ten_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every batch tells the worker two budgets: the match's, and ten of them for a compile,
    so that a match never pays for its regex's compile (a new worker compiles again). A
    match is counted there under a guard of its own, whatever the time budget."""
    sent: list[tuple[float, float]] = []
    real = regex_runner.framing.frame

    def recorded(payload: bytes) -> bytes:
        budget, compile_budget, _ = pickle.loads(payload)
        sent.append((budget, compile_budget))
        return real(payload)

    monkeypatch.setattr(regex_runner.framing, "frame", recorded)
    with RegexRunner(100) as runner:
        assert not runner.too_costly_to_compile("x" * 30_000, 0)
        assert runner.compile_check("x" * 30_000, 0).status is Status.MATCH
        broken = runner.compile_check("(" * 3 + "x" * 3000, 0)
        assert broken.status is Status.ERROR and "missing )" in broken.error
        [match] = runner.run([Job("x" * 30_000, 0, "search", "y" * 10)])
        assert match.status is Status.NO_MATCH
    assert sent == [(0.1, 0.1 * COMPILE_MARGIN)] * 2 + [(COUNT_GUARD, 0.1 * COMPILE_MARGIN)]


def test_lint_reports_the_count(tmp_path: Path) -> None:
    pattern = "a" * 70_000
    files = {"pip/x.yaml": entry_text("pip/x", signature=pattern, regex=pattern)}
    found = [(d.code, d.message) for d in lint_corpus(tmp_path, files).diagnostics if d.code in ("ET201", "ET206")]
    assert found == [
        (
            "ET206",
            "compiling the regex would take longer than the 100 ms time budget: it counts 105,000 compile steps, "
            "more than the 100,000 compiled under it",
        )
    ]


def test_classes_that_make_re_build_bitmaps_count_as_costly() -> None:
    """`(?i)[µᲂ]` folds to six code points in four blocks of 256: `re` builds a bitmap of
    each (about 80 us a class, not the 8 its characters count), so 12,000 of them count
    over the limit of a 100 ms budget instead of compiling for a second under the guard."""
    pattern = "[µᲂ]" * 12_000
    assert compile_steps(pattern, re.IGNORECASE) > compile_steps_limit(0.1)
    assert compile_steps(pattern, re.IGNORECASE) >= 12_000 * STEPS_PER_BITMAP_CLASS
    # two runs of consecutive code points make no bitmap; characters of the first 256 none
    assert compile_steps("[аб]" * 100) == compile_steps("[ab]" * 100) + 100 * STEPS_PER_WIDE_CLASS


def test_the_other_cases_re_adds_count_too() -> None:
    """Under IGNORECASE `re` takes `k` as the Kelvin sign too and `s` as the long s (its
    own case fixes, `syntax.extra_cases`): `[ks]` is then a class of four blocks, about 75
    us to compile, not the 4 us of `[ab]`. 12,000 of them count over the limit rather than
    compiling for about as long as the guard; 400 are not compiled in-process unwatched."""
    assert compile_steps("[ks]", re.IGNORECASE) >= STEPS_PER_BITMAP_CLASS
    assert compile_steps("[ks]" * 12_000, re.IGNORECASE) > compile_steps_limit(0.1)
    assert compile_steps("[ab]", re.IGNORECASE) < STEPS_PER_WIDE_CLASS
    assert not cheap_to_compile("[ks]" * 400, re.IGNORECASE)
    assert cheap_to_compile("[ab]" * 400, re.IGNORECASE)


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [
        ("[\\dι]", re.IGNORECASE),  # one character beside a category: its cases make three runs
        ("(θ|a)", re.IGNORECASE),  # alternatives of one character, a class to `re`
        ("(a|c|Ā)", 0),
        ("[ac\u0300-\u0301]", 0),  # a range is a run of its own
        ("[āăą]", re.IGNORECASE),  # lowered, as `re` reads them: no upper case fills the gaps
    ],
)
def test_every_class_re_builds_a_bitmap_for_counts_as_one(pattern: str, flags: int) -> None:
    """`re` builds a bitmap (about 75 us) for a class whose code points, as it reads them,
    form three runs or more beyond the first 256: each of these shapes counted 8 to 32
    steps, and 400 of them compiled in-process for 20 to 48 ms."""
    assert compile_steps(pattern, flags) >= STEPS_PER_BITMAP_CLASS
    assert not cheap_to_compile(pattern * 400, flags)


def test_a_pattern_entrykit_does_not_read_counts_each_class_as_the_costliest() -> None:
    """A pattern nested deeper than entrykit's parser reads (or that looks so: parentheses
    in a comment) has its classes counted as the widest range and a bitmap each: 400
    ranges of the Basic Multilingual Plane counted 4,776 steps and compiled in up to a
    second, against the guard."""
    ranges = "[\u0100-\uffff]" * 400
    for pattern in ("(" * 65 + "a" + ")" * 65 + ranges, "(?#" + "(" * 65 + ")" + ranges):
        assert compile_steps(pattern) > compile_steps_limit(0.1)
