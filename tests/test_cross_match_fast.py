"""A regex's `longest_fast_text`, kept in its regex fact, lets cross-matching skip asking
`provably_fast` again, and changes nothing it finds.

- the fact holds exactly `longest_fast_text` (-1 for a regex that does not compile), and
  a fact of the old shape (no length) is worked out again, not misread;
- every job a length marks fast is `provably_fast` (the mark only saves the question);
- `RegexRunner.run` gives the same outcomes with and without the marks, and ignores a
  mark on a job that only compiles;
- `cross_matches` with the lengths finds what it finds without them: on generated regexes
  and texts, and on the deadends.dev canons (skipped when ../shared is absent).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from entrykit.regex.counting import count_match
from entrykit.regex.literal_index import Text, cross_matches, fast_length, regex_fact
from entrykit.regex.runner import COMPILE, Job, Outcome, RegexRunner, provably_fast
from entrykit.regex.steps import longest_fast_text


class _Entry:
    """What `regex_fact` reads of an entry."""

    def __init__(self, regex: str | None) -> None:
        self.regex = regex
        self.facts: dict[str, Any] = {}

    def str_field(self, name: str) -> str | None:
        return self.regex if name == "regex" else None


_NESTED = [r"(a|ab)*", r"(\w+\s?)+", r"(x+)+", r"(a*)*b"]  # exponential on some texts


def _patterns(seed: int, count: int, nested: bool = True) -> list[str]:
    """Regexes of every growth: literals, classes, adjacent repeats, backrefs, and (with
    `nested`) nested repeats; cross-matching leaves those out: a run that times out on
    one side and not on the other would be the clock's doing, not the lengths'."""
    parts = ["err", "No such file", r"\d+", r"[a-z]+", r".*", r"\s*", r"(?:foo|bar)", r"(\w)\1",
             r"[^:]+:", r"'[^']*'", "(", *(_NESTED if nested else [])]
    rng = random.Random(seed)
    return ["".join(rng.choice(parts) for _ in range(rng.randint(1, 5))) for _ in range(count)]


def _texts(seed: int, count: int, words_at_most: int = 30) -> list[str]:
    rng = random.Random(seed)
    words = ["err", "No such file", "foo", "bar", "aaaa", "ab", "xx", "12", ": ", "'q'", "b", " "]
    return ["".join(rng.choice(words) for _ in range(rng.randint(0, words_at_most))) for _ in range(count)]


def test_the_fact_keeps_the_longest_fast_text() -> None:
    with RegexRunner() as runner:
        for flags in (0, re.IGNORECASE):
            for pattern in [*_patterns(1, 150), "(", "a{2,1}"]:
                entry = _Entry(pattern)
                ok = regex_fact(entry, flags, runner)[0]
                assert fast_length(entry, flags, runner) == (longest_fast_text(pattern, flags) if ok else -1)
        assert fast_length(_Entry(None), 0, runner) == -1


def test_a_fact_of_the_old_shape_is_worked_out_again() -> None:
    with RegexRunner() as runner:
        entry = _Entry("a+b")
        entry.facts["regex"] = (0, True, "ab", ("ab",))  # no length: from before it was kept
        assert fast_length(entry, 0, runner) == longest_fast_text("a+b", 0)
        assert len(entry.facts["regex"]) == 5


def test_a_job_marked_fast_is_provably_fast() -> None:
    texts = _texts(2, 60)
    for flags in (0, re.IGNORECASE):
        for pattern in _patterns(3, 200):
            longest = longest_fast_text(pattern, flags)
            for text in texts:
                if len(text) <= longest:
                    assert provably_fast(Job(pattern, flags, "search", text)), (pattern, text)


def test_the_runner_answers_the_same_with_the_marks() -> None:
    patterns, texts = _patterns(4, 40, nested=False), _texts(5, 10)
    jobs = [Job(p, re.IGNORECASE, mode, t) for p in patterns for t in texts for mode in ("search", "match")]
    marks = [len(job.text) <= longest_fast_text(job.pattern, job.flags) for job in jobs]
    with RegexRunner() as plain, RegexRunner() as marked:
        assert _answers(marked.run(jobs, remember=False, fast=marks)) == _answers(plain.run(jobs, remember=False))
        # a job that only compiles is never run in-process because of a mark
        only = [Job("(x+)+y", 0, COMPILE, "")]
        assert _answers(marked.run(only, remember=False, fast=[True])) == _answers(plain.run(only, remember=False))


def _answers(outcomes: list[Outcome]) -> list[tuple[Any, ...]]:
    """What a run says, without how long it took."""
    return [(o.status, o.error, o.start) for o in outcomes]


class _Watched(RegexRunner):
    """A runner that checks every job it is told is fast."""

    marked = 0

    def run(self, jobs: Any, remember: bool = True, fast: Any = None) -> list[Outcome]:
        for job, mark in zip(jobs, fast or [False] * len(jobs), strict=True):
            if mark:
                assert provably_fast(job), job
                self.marked += 1
        return super().run(jobs, remember, fast)


def _cross(patterns: list[str | None], texts: list[Text], flags: int, with_lengths: bool) -> Any:
    longest = None
    if with_lengths:
        with RegexRunner() as runner:
            longest = [fast_length(_Entry(p), flags, runner) for p in patterns]
    with _Watched() as runner:
        found = cross_matches(patterns, texts, flags, "search", runner, longest=longest)
        assert (runner.marked > 0) == with_lengths
    return (
        {k: sorted((t.owner, t.pointer) for t in row) for k, row in found.pairs.items()},
        {k: sorted((t.owner, t.pointer) for t in v) for k, v in found.timeouts.items()},
        {k: sorted((t.owner, t.pointer, e) for t, e in v) for k, v in found.errors.items()},
        found.tried,
    )


def test_cross_matches_find_the_same_with_the_lengths() -> None:
    patterns: list[str | None] = list(_patterns(6, 120, nested=False))
    texts = [Text(n % len(patterns), "/signature", t) for n, t in enumerate(_texts(7, 200, 8))]
    for flags in (0, re.IGNORECASE):
        compiled = [p if _compiles(p, flags) else None for p in patterns]
        found = _cross(compiled, texts, flags, True)
        assert found == _cross(compiled, texts, flags, False)
        assert found[0]  # the regexes do match texts of others: the comparison has something to compare
        # a regex times out on a text by a count over the step budget, no clock's (and after
        # three such texts, is not run on the rest)
        for number, rows in found[1].items():
            pattern, owners = compiled[number], {owner for owner, _ in rows}
            assert pattern is not None
            assert any(count_match(pattern, flags, "search", t.text).over for t in texts if t.owner in owners)


def _compiles(pattern: str | None, flags: int) -> bool:
    try:
        re.compile(pattern or "", flags)
    except re.error:
        return False
    return pattern is not None


def test_cross_matches_of_the_canons_find_the_same_with_the_lengths(deadends_dir: Path) -> None:
    patterns: list[str | None] = []
    texts: list[Text] = []
    for number, path in enumerate(sorted(deadends_dir.rglob("*.json"))[::2]):
        error = json.loads(path.read_text(encoding="utf-8"))["error"]
        regex = error.get("regex")
        patterns.append(regex if _compiles(regex, re.IGNORECASE) else None)
        texts.append(Text(number, "/signature", error["signature"]))
    assert len(patterns) > 800
    found = _cross(patterns, texts, re.IGNORECASE, True)
    assert found == _cross(patterns, texts, re.IGNORECASE, False)
    assert len(found[0]) > 10
