"""The runner stops runaway matches, reports them, and goes on with the rest; its worker survives what it runs."""

from __future__ import annotations

import multiprocessing
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import framing, syntax, worker
from entrykit.regex import runner as regex_runner
from entrykit.regex.counting import MATCH_STEPS, MODEL_PARTS, Counted, count_match
from entrykit.regex.runner import Job, RegexRunner, Status, shared_runner

EVIL = Job(r"(a+)+$", 0, "search", "a" * 40 + "!")
LONG = "x" * 3000  # longer than a regex compiled in-process: compiled in the worker
_PIECES = st.sampled_from(
    ["a", "b", "[ab]", "[^a]", ".", r"\w", r"\s", "^", "$", r"\b", "(", ")", "(?:", "(?>", "(?=", "(?!",
     "(?<=a)", "|", "*", "+", "?", "*?", "+?", "*+", "{2}", "{1,3}", r"\1", "(?(1)a|b)", "(?i:", "x", " ",
     "(a+)+", "(a|a)*", "(?:a*)*", "(.*a)+", "(\\w+\\s?)*"]  # nested repeats: counted by the model
)
_TEXTS = st.one_of(st.text(alphabet="abAB1 \nx", max_size=40), st.integers(0, 30).map(lambda n: "a" * n + "!"))
_FLAGS = st.sampled_from([0, re.I, re.M, re.S])


def test_timeout_is_reported_and_the_batch_goes_on() -> None:
    jobs = [
        Job("abc", 0, "search", "xxabcxx"),
        EVIL,
        Job(r"\w+ error", re.IGNORECASE, "search", "Disk ERROR"),
        Job(r"^\d+$", 0, "fullmatch", "12a"),
        Job(r"(", 0, "search", "x"),
        Job(r"b+", 0, "match", "abbb"),
    ]
    with RegexRunner(50) as runner:
        outcomes = runner.run(jobs)
        assert runner.restarts == 0  # counted to the step budget: bounded, not a hang
    assert [o.status for o in outcomes] == [
        Status.MATCH, Status.TIMEOUT, Status.MATCH, Status.NO_MATCH, Status.ERROR, Status.NO_MATCH
    ]
    assert outcomes[0].start == 2
    assert "missing )" in outcomes[4].error


def test_a_match_is_placed_by_its_start_and_end_in_process_and_by_the_model() -> None:
    text = "xx Disk ERROR on sda"
    cheap = Job(r"\w+ error", re.IGNORECASE, "search", text)  # provably fast: run in-process
    costly = Job(r"(\w+\s?)+ ERROR", 0, "search", text)  # nested repeats: counted by the model
    assert regex_runner.provably_fast(cheap) and not regex_runner.provably_fast(costly)
    with RegexRunner(200) as runner:
        here, there = runner.run([cheap, costly])
    assert (here.start, here.end) == re.search(cheap.pattern, text, re.IGNORECASE).span()  # type: ignore[union-attr]
    assert (there.start, there.end) == re.search(costly.pattern, text).span()  # type: ignore[union-attr]


def test_a_failure_of_the_step_model_is_an_outcome_not_a_crash(monkeypatch) -> None:
    """The worker's count of a match: a failure of the model (or a MemoryError past the
    worker's limit) is that job's ERROR, and the worker goes on with the next text."""
    frames: list[bytes] = []

    class Collected:
        def add(self, frame: bytes) -> None:
            frames.append(frame[framing.HEADER.size :])

    def broken(pattern, flags, mode, text):
        if text == "boom":
            raise IndexError("a bug")
        return Counted(False)

    monkeypatch.setattr(worker, "_counter", lambda: broken)
    compiled = re.compile(EVIL.pattern)
    worker._count_job(compiled, "", 0, (EVIL.pattern, 0, "search"), ["boom", "aaa"], Collected())  # type: ignore[arg-type]
    first, second = (worker.RESULT.unpack_from(f) + (f[worker.RESULT.size :],) for f in frames)
    assert (first[0], first[4]) == (worker.ERROR, b"IndexError: a bug")
    assert (second[0], second[2], second[3]) == (worker.MATCH, 0, 3)  # within the count: `re`'s match


def test_errors_raised_at_search_time_are_outcomes() -> None:
    # bytes against a str pattern raises TypeError inside search, not re.error
    with RegexRunner(100) as runner:
        [outcome] = runner.run([Job(r"a.*b", 0, "search", b"ab")])  # type: ignore[arg-type]
    assert outcome.status is Status.ERROR and outcome.error.startswith("TypeError")


def test_a_worker_that_does_not_stop_is_killed_and_replaced(monkeypatch) -> None:
    runner = RegexRunner(50)
    real_send = regex_runner._Worker.send

    def deaf_send(self, budget, jobs, *series, **kwargs):  # the worker's own budget becomes an hour
        real_send(self, 3600.0, jobs, *series, **kwargs)

    monkeypatch.setattr(regex_runner._Worker, "send", deaf_send)
    try:
        # `measure`'s timings are the matches the worker still runs
        outcomes = runner.run_series(EVIL.pattern, 0, "search", ["aaa!", EVIL.text], stop_at=60.0)
        after = runner.compile_check(LONG, 0)
    finally:
        runner.close()
    assert [o.status for o in outcomes] == [Status.NO_MATCH, Status.TIMEOUT]
    assert runner.restarts >= 1
    assert after.status is Status.MATCH  # a fresh worker compiled it


def test_outcomes_are_remembered(monkeypatch) -> None:
    sent: list[Job] = []
    real_send = regex_runner._Worker.send

    def counting_send(self, budget, jobs, *series, **kwargs):
        sent.extend(jobs)
        real_send(self, budget, jobs, *series, **kwargs)

    monkeypatch.setattr(regex_runner._Worker, "send", counting_send)
    counted = Job(EVIL.pattern, 0, regex_runner.protocol.COUNT + "search", EVIL.text)
    with RegexRunner(50) as runner:
        first = runner.run([EVIL])[0]
        assert sent == [counted]  # counted in the worker
        again = runner.run([EVIL])[0]
        assert sent == [counted]  # answered from memory, not counted again
    assert first == again and again.timed_out


def test_outcomes_known_here_take_no_round_trip_to_the_worker(monkeypatch) -> None:
    """Jobs run here (provably fast) or remembered, and no jobs at all, are answered
    without the worker's machinery: most calls of the rules are such."""

    def no_trip(self, *args, **kwargs):
        raise AssertionError("the worker was asked")

    with RegexRunner(50) as runner:
        first = runner.run([Job("a+b", 0, "search", "xaab"), EVIL])  # the worker counts EVIL
        monkeypatch.setattr(RegexRunner, "_remote", no_trip)
        assert runner.run([]) == []
        assert runner.run([Job("a+b", 0, "search", "xaab"), EVIL]) == first  # the one here, the other remembered
        assert runner.run([Job("c", 0, "search", "abc")])[0].matched
    assert first[0].matched and first[1].timed_out


def _child(queue: multiprocessing.Queue[str]) -> None:
    runner = shared_runner(50)
    queue.put(f"{runner.run([EVIL])[0].status.name} {runner.compile_check(LONG + 'y', 0).status.name}")


def test_shared_runner_works_in_forked_children() -> None:
    parent = shared_runner(50)
    assert parent.compile_check(LONG, 0).matched  # the parent's worker exists before the fork
    assert parent._worker is not None
    context = multiprocessing.get_context("fork")
    queue: multiprocessing.Queue[str] = context.Queue()
    child = context.Process(target=_child, args=(queue,))
    child.start()
    child.join(60)
    assert queue.get(timeout=5) == "TIMEOUT MATCH"
    assert parent.run([Job("a.*c", 0, "search", "xabcx")])[0].matched


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=12), st.lists(_TEXTS, min_size=1, max_size=4), _FLAGS)
def test_every_outcome_is_the_match_re_finds_or_a_count_over_the_budget(
    pieces: list[str], texts: list[str], flags: int
) -> None:
    """Whichever way a job runs (in `re` under a bound, or counted by the model), it finds
    what `re` finds; a timeout is a count over the budget, the same every time."""
    pattern = "".join(pieces)
    try:
        compiled = re.compile(pattern, flags)
    except (re.error, OverflowError, RecursionError):
        return
    jobs = [Job(pattern, flags, mode, text) for text in texts for mode in ("search", "match", "fullmatch")]
    with RegexRunner(100) as runner:
        outcomes = runner.run(jobs, remember=False)
    for job, outcome in zip(jobs, outcomes, strict=True):
        if outcome.timed_out:
            assert outcome.error == regex_runner.protocol.NOT_RUN or count_match(*job).over
            continue
        # (before `re` runs: an error is no count within the budget, and these regexes may
        # backtrack for ages)
        assert outcome.status is not Status.ERROR, (job, outcome.error)
        found = getattr(compiled, job.mode)(job.text)
        assert outcome.status is (Status.MATCH if found else Status.NO_MATCH), job
        assert (outcome.start, outcome.end) == (found.span() if found else (-1, -1)), job


def test_the_guard_stopping_a_count_is_a_timeout_whatever_the_count_catches(monkeypatch) -> None:
    """The guard's signal may land inside the model's own `except Exception`: it must pass
    through it and be the guard's timeout, never an error of the regex."""
    frames: list[bytes] = []

    class Collected:
        def add(self, frame: bytes) -> None:
            frames.append(frame[framing.HEADER.size :])

    def guarded(pattern, flags, mode, text):
        try:
            raise worker._Expired()
        except Exception:  # what count_match does with the model's failures
            return Counted(False, error="caught")

    monkeypatch.setattr(worker, "_counter", lambda: guarded)
    worker._count_job(re.compile("a"), "", 0, ("a", 0, "search"), ["a"], Collected())  # type: ignore[arg-type]
    [only] = frames
    status = worker.RESULT.unpack_from(only)[0]
    assert (status, only[worker.RESULT.size :].decode()) == (worker.TIMEOUT, worker.COUNT_TIMEOUT)


def test_a_regex_too_large_to_model_counts_as_over_the_budget() -> None:
    """Building the model of a regex takes time its count does not see (a class `re`
    compiles for each test): past `MODEL_PARTS` parts it is not built, and a match no
    bound proves fast is over the budget, on every machine. A row of literal characters
    compared by case is one part however long."""
    caseless = "(?i)" + "".join(chr(0x4E00 + n) for n in range(MODEL_PARTS + 1))
    counted = count_match(caseless, 0, "search", "hello world")
    assert counted.over and "parts" in counted.reason
    assert not count_match(caseless[: 4 + MODEL_PARTS - 10], 0, "search", "hello world").over
    assert not count_match("x" * 30_000, 0, "search", "y" * 10).over


def test_classes_re_tries_item_by_item_weigh_every_step() -> None:
    """`re` tries the items of a class beyond the Basic Multilingual Plane one by one: a
    class of 2,000 of them costs it about 250 steps a character. The count and the bound
    weigh each step so, and a search of 10,000 characters (about 30 ms in `re`, where its
    steps say 0.1 ms) is over the budget; a class of a few such items weighs nothing."""
    wide = "[" + "".join(chr(0x20000 + 2 * n) for n in range(1_990)) + "]"
    weight = 1 + 1_990 // syntax.COSTLY_PARTS_PER_STEP
    assert syntax.step_weight(syntax.parse(wide)) == weight
    assert count_match(wide, 0, "search", "y" * 10_000).over
    assert not regex_runner.provably_fast(Job(wide, 0, "search", "y" * 10_000))
    assert regex_runner.provably_fast(Job(wide, 0, "search", "y" * (MATCH_STEPS // weight // 4)))
    assert syntax.step_weight(syntax.parse("[😀😃😄]x")) == 1
    assert not count_match("[😀😃😄]x", 0, "search", "😀y" * 5_000).over


def test_capture_groups_weigh_every_step() -> None:
    """`re` saves the place of every capture group so far on each pass of a repeated group
    (and keeps the copy), and clears the places of the groups before one it marks after a
    give-back or at a new start: 990 groups before `(?:\\.\\d+)*` cost about 1 us a step
    and 650 MB, 980 before `a*()b` 0.1 us a step, on texts the bound alone would run
    in-process. Weighed by its groups, each such search is counted, and over the budget."""
    weight = 1 + 990 // syntax.COSTLY_PARTS_PER_STEP
    groups = "a" + "()" * 990
    looped = groups + r"(?:\.\d+)*x"
    text = "a" + ".1" * 20_000
    assert syntax.step_weight(syntax.parse(looped)) == weight
    assert not regex_runner.provably_fast(Job(looped, 0, "search", text))
    assert count_match(looped, 0, "search", text).over
    assert count_match(groups + r"(?:\.1)*x", 0, "search", "a" + ".1" * 60_000).over
    cleared = "q(?!x" + "()" * 980 + ")a*()b"
    assert syntax.step_weight(syntax.parse(cleared)) == 1 + 981 // syntax.COSTLY_PARTS_PER_STEP
    assert not regex_runner.provably_fast(Job(cleared, 0, "search", "q" + "a" * 65_535))
    assert count_match(cleared, 0, "search", "q" + "a" * 65_535).over
