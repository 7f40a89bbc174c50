"""No regex from entry data runs (or compiles) in-process without a bound; hostile regexes cost a few budgets each."""

from __future__ import annotations

import re
import signal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.authoring.scaffold import check_regex
from entrykit.entry import Entry
from entrykit.lint.engine import lint
from entrykit.regex import portability, syntax
from entrykit.regex import runner as regex_runner
from entrykit.regex.compiling import COMPILE_CODE_POINTS, cheap_to_compile, wide_range_code_points
from entrykit.regex.counting import OVER_BUDGET
from entrykit.regex.literal_index import required
from entrykit.regex.lookup import Lookup
from entrykit.regex.portability import check_portable
from entrykit.regex.redos import _Alphabet, _class_source
from entrykit.regex.runner import Job, RegexRunner, Status

from .conftest import TODAY, make_config, write_corpus

WIDE = "(?i)" + "[\u0100-\uffe0]" * 400  # ~8 ms a class to compile: seconds in all
EVIL = r"(a+)+$"


def test_cheap_to_compile_only_short_patterns_with_narrow_ranges() -> None:
    assert cheap_to_compile(r"fatal: not a git repository")
    assert cheap_to_compile(r"[A-Za-z0-9_-]+ \d+")
    assert not cheap_to_compile("x" * 2001)
    assert cheap_to_compile("(")  # fails to compile, and as quickly


def test_wide_ranges_compile_in_process_up_to_a_count_of_their_code_points() -> None:
    assert cheap_to_compile("pip.*install.*[\uac00-\ud7a3]", re.I)  # Hangul syllables: 11,172
    assert cheap_to_compile("[\u0100-\uffe0]")  # 65,249: one range across the plane
    assert not cheap_to_compile("[\u0100-\uffe0][\u0100-\uffe0]")  # the count is of every class
    assert not cheap_to_compile("[\u0100-\U0002ffff]")
    assert not cheap_to_compile("[a-z]" + "[\u4e00-\u9fff]" * 4)


@given(st.lists(st.tuples(st.integers(0x100, 0x2FFFF), st.integers(0, 0x20000)), min_size=1, max_size=6))
@settings(max_examples=60, deadline=None)
def test_the_code_points_counted_are_every_wide_range_s_and_decide(spans: list[tuple[int, int]]) -> None:
    pattern = "".join(f"[{chr(low)}-{chr(min(low + width, 0x10FFFF))}]" for low, width in spans)
    wide = sum(min(low + width, 0x10FFFF) - low + 1 for low, width in spans if min(low + width, 0x10FFFF) - low >= 256)
    assert wide_range_code_points(syntax.parse(pattern).nodes) == wide
    assert cheap_to_compile(pattern) is (wide <= COMPILE_CODE_POINTS)


def test_no_deadends_regex_is_left_to_the_compile_clock(deadends_regexes: list[str]) -> None:
    """Every canon's regex compiles in-process, decided by counting: no load can turn its
    compile into a timeout (their corpus is linted with IGNORECASE)."""
    patterns = deadends_regexes
    assert len(patterns) > 1000
    for flags in (0, re.I):
        assert [p for p in patterns if not cheap_to_compile(p, flags)] == []


def test_a_slow_compile_is_a_timeout_and_never_happens_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(pattern: str, flags: int = 0) -> str | None:
        raise AssertionError("compiled in-process")

    monkeypatch.setattr(regex_runner, "compile_error", forbidden)
    with RegexRunner(20) as runner:
        outcome = runner.compile_check(WIDE, 0)
        assert outcome.status is Status.TIMEOUT
        assert not runner.compiles(WIDE, 0)
        # jobs of that regex are not tried in-process either, and not compiled twice
        [job] = runner.run([Job(WIDE, 0, "search", "x")])
        assert job.status is Status.TIMEOUT


def test_compile_check_gives_re_reasons_and_passes_good_regexes() -> None:
    with RegexRunner(100) as runner:
        broken = runner.compile_check("(" * 3 + "x" * 3000, 0)  # long: checked by the worker first
        assert broken.status is Status.ERROR and "missing )" in broken.error
        assert runner.compile_check("x" * 3000, 0).status is Status.MATCH
        assert runner.compile_check("(a|b", 0).status is Status.ERROR


def test_after_three_overruns_a_regex_is_not_run_on_the_rest() -> None:
    texts = ["a" * (40 + i) + "!" for i in range(8)]
    with RegexRunner(20) as runner:
        outcomes = runner.run([Job(EVIL, 0, "search", t) for t in texts] + [Job("b", 0, "search", "abc")])
        ran = [o for o in outcomes[:8] if o.status is Status.TIMEOUT and o.error == OVER_BUDGET]
        skipped = [o for o in outcomes[:8] if o.error == regex_runner.protocol.NOT_RUN]
        assert (len(ran), len(skipped)) == (3, 5)
        assert outcomes[8].status is Status.MATCH  # other regexes are not affected
        # what was not run is no result: it is not remembered
        again = runner.run([Job(EVIL, 0, "search", texts[-1])])[0]
        assert again.status is Status.TIMEOUT and again.error == OVER_BUDGET


def test_strikes_carried_from_call_to_call_stop_a_regex_after_three_overruns_in_all() -> None:
    texts = ["a" * (40 + i) + "!" for i in range(6)]
    strikes: regex_runner.Strikes = {}
    with RegexRunner(20) as runner:
        outcomes = [runner.run([Job(EVIL, 0, "search", t)], strikes=strikes)[0] for t in texts]
        assert [o.error == regex_runner.protocol.NOT_RUN for o in outcomes] == [False] * 3 + [True] * 3
        assert all(o.status is Status.TIMEOUT for o in outcomes)
        # without them, each call counts afresh
        assert runner.run([Job(EVIL, 0, "search", "a" * 50 + "!")])[0].error == OVER_BUDGET


def test_a_lookup_stops_running_a_regex_that_overran_on_three_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    data = {"id": "x/evil", "signature": "aaaa", "regex": EVIL}
    entries = [Entry("x/evil.yaml", Path("x/evil.yaml"), "yaml", data, "")]
    with RegexRunner(20) as runner:
        lookup = Lookup(entries, 0, "search", runner)
        ran: list[regex_runner.Outcome] = []
        run = runner.run

        def counting(jobs: list[Job], *args: Any, **kwargs: Any) -> list[regex_runner.Outcome]:
            outcomes = run(jobs, *args, **kwargs)
            ran.extend(o for o in outcomes if o.error != regex_runner.protocol.NOT_RUN)
            return outcomes

        monkeypatch.setattr(runner, "run", counting)
        slow = [lookup.match("a" * (40 + i) + "!")[1] for i in range(6)]
        assert [[e.id for e in s] for s in slow] == [["x/evil"]] * 6  # timed out on every line
        assert len(ran) == 3  # but run on the first three only


def test_the_match_shown_is_the_one_the_mode_finds() -> None:
    """`entrykit new` shows what the regex matched; it reruns the worker's job, in the same mode."""
    assert check_regex("a|ab", "ab", {"mode": "fullmatch"}).matched == "ab"
    assert check_regex("a|ab", "ab", {}).matched == "a"
    assert check_regex(WIDE, "x", {"timeout_ms": 20}).error is not None


def test_ecmascript_runs_where_a_hang_can_be_stopped() -> None:
    """QuickJS cannot stop a regex from inside; its worker process is killed instead."""
    problem = check_portable(EVIL, 0, "search", "ecmascript", [("a" * 40 + "!", False)], budget=0.05)
    assert problem is not None and "ran past the time budget in ECMAScript" in problem
    assert check_portable("abc", 0, "search", "ecmascript", [("xabc", True)]) is None  # a new worker


def test_the_ecmascript_budget_is_the_workers_cpu_time_not_the_wall_clock() -> None:
    """The worker ends itself when its CPU time passes the request's budget (SIGPROF's
    default action), long before the parent's wall-clock watchdog: a verdict that load
    on the machine cannot change, as the regex worker's."""
    worker = portability._js_worker()
    assert worker.ask(["abc", "", "search", ["xabc"], 0.05], 30.0) == {"results": [True]}
    assert worker.ask([EVIL, "", "search", ["a" * 40 + "!"], 0.05], 30.0) is None
    assert worker.proc.wait(5) == -signal.SIGPROF


def test_fixed_repeats_spell_literals_only_up_to_a_bound() -> None:
    assert required("(?:ab){3}c") == "abababc"
    query = required("(?:a{65535}){65535}b")  # 4 billion characters, if spelled out
    assert query == ("and", ("a", "b"))


# -- character classes over the analysis's alphabet ------------------------------------------


_CLASSES = st.tuples(
    st.integers(0, 0x10FFFF), st.integers(0, 0x10FFFF), st.booleans(), st.sampled_from(["", "a", "\\d", "\\w", "k-q"])
)


@settings(max_examples=150, deadline=None)
@given(_CLASSES, st.sampled_from([0, re.IGNORECASE, re.IGNORECASE | re.ASCII, re.ASCII]))
def test_clipped_classes_match_the_alphabet_exactly_as_whole_ones(spec: tuple[int, int, bool, str], flags: int) -> None:
    low, high, negated, extra = spec
    low, high = min(low, high), max(low, high)
    if 0xD800 <= low <= 0xDFFF or 0xD800 <= high <= 0xDFFF:
        return
    source = "[" + ("^" if negated else "") + extra + re.escape(chr(low)) + "-" + re.escape(chr(high)) + "]"
    (node,) = syntax.parse(source, flags).nodes
    alphabet = _Alphabet(list("a0 A_!-.:/\n\t\x00é\u00a0\u4e2d\u2028kKK\u212aſsSµμıİiǅßẞΩωΩ\U00010400\U00010428"))
    whole = re.compile(_class_source(node), flags)
    expected = sum(1 << i for i, char in enumerate(alphabet.chars) if whole.fullmatch(char))
    assert alphabet.mask(node, flags) == expected


def test_what_a_call_says_depends_on_its_jobs_alone_not_on_what_was_remembered() -> None:
    """The strikes count every job in order, a remembered timeout included: a runner that
    has met some of the texts before says what a fresh one says."""
    texts = ["a" * (30 - i) + "!" for i in range(5)] + ["aaa!"]
    jobs = [Job(EVIL, 0, "search", t) for t in texts]
    with RegexRunner(100) as fresh, RegexRunner(100) as seasoned:
        seasoned.run(jobs[3:])  # the last texts first: their timeouts are remembered
        assert seasoned.run(jobs) == fresh.run(jobs)
    assert [o.error for o in fresh.run(jobs)] == [OVER_BUDGET] * 3 + [regex_runner.protocol.NOT_RUN] * 3


def _twins_and_fillers(base: Path) -> Path:
    """Two entries of one catastrophic regex and the same texts, and 30 others it may run on."""
    twin = 'signature: "{a30}!"\nregex: "(a+)+$"\nexamples: ["{a25}!", "{a22}!", "{a10}!"]\n'.format(
        a30="a" * 30, a25="a" * 25, a22="a" * 22, a10="a" * 10
    )
    files = {"a/first.yaml": "id: a/first\n" + twin, "z/last.yaml": "id: z/last\n" + twin}
    for n in range(30):
        message = f"FillerError: unique message number q{n}x zebra{n}"
        files[f"f/filler-{n}.yaml"] = f'id: f/filler-{n}\nsignature: "{message}"\nregex: "{message}"\n'
    return write_corpus(base, files)


def test_et206_says_the_same_with_one_process_or_two_and_for_one_file_or_all(tmp_path: Path) -> None:
    """Whichever process met a regex first, and whatever it remembered, the texts over the
    budget are the same: those the regex ran on and needed more steps for, never the texts
    left unrun after its strikes (the other twin's here)."""
    root = _twins_and_fillers(tmp_path)
    config = make_config(tmp_path, {"select": ["ET206"]})

    def messages(paths: list[Path] | None, jobs: int) -> dict[str, str]:
        found = lint(paths, config, TODAY, cwd=tmp_path, jobs=jobs).diagnostics
        return {Path(d.path).stem: d.message for d in found}

    alone = messages(None, 1)
    assert alone == messages(None, 2)
    assert messages([root / "z" / "last.yaml"], 1) == {"last": alone["last"]}
    assert alone == {
        "first": "regex needs more than the budget of 500,000 matching steps on the `signature` and 2 more",
        "last": "regex needs more than the budget of 500,000 matching steps on the `signature` and 5 more",
    }
