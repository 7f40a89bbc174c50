"""The corpus phase on every core (`lint.lanes`): the same findings for any number of jobs,
whatever happens to a child process, with what a child adds to the memo and to the
entries' facts taken back."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import registry
from entrykit.corpus import Corpus
from entrykit.diagnostic import Severity
from entrykit.entry import Entry
from entrykit.lint import engine, lanes
from entrykit.regex import literal_index
from entrykit.regex.literal_index import Text
from entrykit.regex.runner import shared_runner

from .conftest import REPO, TODAY, make_config

sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402

T = TypeVar("T")
PARENT = os.getpid()


def _in_child() -> bool:
    return os.getpid() != PARENT


def _squares(share: list[int]) -> list[int]:
    return [n * n for n in share]


@settings(max_examples=10, deadline=None)
@given(st.lists(st.lists(st.integers(-1000, 1000), max_size=5), max_size=5), st.sampled_from([1, 2, 4]))
@example([[1], [2, 3], [], [4]], 4).via("more shares than one child")
@example([[1], [2], [3], [4], [5]], 2).via("more shares than processes")
def test_map_is_the_plain_map_for_any_jobs(shares: list[list[int]], jobs: int) -> None:
    assert lanes.Lanes(jobs).map(_squares, shares) == [_squares(share) for share in shares]


def _dies_in_child(how: str) -> Callable[[list[int]], list[int]]:
    def func(share: list[int]) -> list[int]:
        if _in_child():
            if how == "raise":
                raise RuntimeError("a child fails")
            if how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            if how == "unpicklable":
                return [lambda: 0]  # type: ignore[list-item]
        return _squares(share)

    return func


@pytest.mark.parametrize("how", ["raise", "kill", "unpicklable"])
def test_a_failed_child_share_is_computed_here(how: str, capfd: pytest.CaptureFixture[str]) -> None:
    shares = [[1, 2], [3], [4, 5, 6]]
    assert lanes.Lanes(3).map(_dies_in_child(how), shares) == [_squares(share) for share in shares]
    assert "Traceback" not in capfd.readouterr().err


def test_a_failure_here_stops_the_children_and_is_raised() -> None:
    def fails_here(share: list[int]) -> list[int]:
        if not _in_child():
            raise ValueError("the parent's share fails")
        return _squares(share)

    with pytest.raises(ValueError, match="parent's share"):
        lanes.Lanes(3).map(fails_here, [[1], [2], [3]])


def test_without_fork_the_shares_are_made_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lanes, "can_fork", lambda: False)
    spread = lanes.Lanes(4)
    assert spread.ways == 1
    assert spread.map(_dies_in_child("kill"), [[1], [2]]) == [[1], [4]]


def test_a_child_closes_the_regex_worker_it_started() -> None:
    def worker_of(share: list[int]) -> int:
        runner = shared_runner()
        runner.compile_check("x" * 3000 + str(share[0]), 0)  # a long regex: compiled in the worker
        assert runner._worker is not None
        return runner._worker.proc.pid

    pid = lanes.Lanes(2).map(worker_of, [[0], [1]])[1]
    assert pid != worker_of([0])
    with pytest.raises(ProcessLookupError):  # closed (and reaped) before the child left
        os.kill(pid, 0)


@given(st.lists(st.integers(0, 6), max_size=12), st.integers(1, 5))
def test_shares_cut_the_groups_in_order(sizes: list[int], ways: int) -> None:
    groups = [(n, [Text(n, "/signature", "x")] * size) for n, size in enumerate(sizes)]
    shares = literal_index._shares(groups, ways)
    assert [g for share in shares for g in share] == groups
    assert len(shares) <= ways and all(shares)


@given(st.lists(st.booleans(), max_size=20))
def test_places_of_a_subsequence(kept: list[bool]) -> None:
    items = [Text(n, "/signature", "x") for n in range(len(kept))]
    chosen = [item for item, keep in zip(items, kept, strict=True) if keep]
    assert literal_index._places_of(items, chosen) == tuple(n for n, keep in enumerate(kept) if keep)


class _InProcess:
    """A spread that runs every share here (the merge alone, without forking)."""

    def __init__(self, ways: int) -> None:
        self.ways = ways

    def map(self, func: Callable[[Any], T], shares: Sequence[Any]) -> list[T]:
        return [func(share) for share in shares]


PATTERNS = [r"disk \d+ full", r"disk \d+ full", r"(a|aa)+$", r"no such file: \w+", r"[", r"error \w+", None]
TEXTS = [
    "disk 3 full", "disk 12 full now", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", "no such file: x", "error e1",
    "error ", "aaa", "no such file: yy", "disk full",
]


@pytest.mark.parametrize("spread", [_InProcess(3), lanes.Lanes(2), lanes.Lanes(4)], ids=["merge", "2", "4"])
def test_spread_cross_matches_are_those_of_one_process(spread: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(literal_index, "SPREAD_MIN_RUNS", 0)
    monkeypatch.setattr(literal_index, "SHARE_MIN_RUNS", 1)
    texts = [Text(n % len(PATTERNS), "/signature", text) for n, text in enumerate(TEXTS * 3)]
    patterns = [p if p != "[" else None for p in PATTERNS]
    runner = shared_runner()
    alone = literal_index.cross_matches(patterns, texts, 0, "search", runner)
    spread_out = literal_index.cross_matches(patterns, texts, 0, "search", runner, spread=spread)
    assert spread_out == alone
    assert alone.pairs and alone.timeouts and alone.tried > 0


class _Counting(_InProcess):
    """`_InProcess`, noting how many shares each map is given."""

    def __init__(self, ways: int) -> None:
        super().__init__(ways)
        self.shares: list[int] = []

    def map(self, func: Callable[[Any], T], shares: Sequence[Any]) -> list[T]:
        self.shares.append(len(shares))
        return super().map(func, shares)


def test_many_cores_share_few_runs_among_few_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(literal_index, "SPREAD_MIN_RUNS", 0)
    monkeypatch.setattr(literal_index, "SHARE_MIN_RUNS", 20)
    patterns: list[str | None] = [rf"error {n} \w+" for n in range(30)]
    texts = [Text((n + 1) % 30, "/signature", f"error {n} item{k}") for n in range(30) for k in range(5)]
    runner = shared_runner()
    spread = _Counting(64)
    alone = literal_index.cross_matches(patterns, texts, 0, "search", runner)
    spread_out = literal_index.cross_matches(patterns, texts, 0, "search", runner, spread=spread)
    assert spread_out == alone
    runs = alone.tried
    assert runs >= 40 and len(alone.pairs) == 30  # (enough for two shares of 20; one group per regex)
    # not 64 processes for a few runs each (each of the 30 regexes counted as `REGEX_RUNS` more)
    assert spread.shares == [(runs + literal_index.REGEX_RUNS * 30) // 20] and spread.shares[0] < 64


@pytest.mark.parametrize(("regexes", "shares"), [(400, [2]), (100, [])])
def test_many_regexes_of_one_text_each_are_spread_as_their_work_asks(regexes: int, shares: list[int]) -> None:
    """Each regex's first run counts as `REGEX_RUNS` runs: 400 regexes of one text each are
    worth two processes, 100 are not (at the default limits)."""
    patterns: list[str | None] = [rf"error {n} \w+" for n in range(regexes)]
    texts = [Text((n + 1) % regexes, "/signature", f"error {n} item") for n in range(regexes)]
    runner = shared_runner()
    spread = _Counting(64)
    alone = literal_index.cross_matches(patterns, texts, 0, "search", runner)
    spread_out = literal_index.cross_matches(patterns, texts, 0, "search", runner, spread=spread)
    assert spread_out == alone and alone.tried == regexes
    assert spread.shares == shares


def _rule(code: str, func: Callable[..., Any], apart: bool = False) -> registry.Rule:
    return registry.Rule(code, f"rule-{code}", Severity.WARNING, "corpus", func, {}, "", apart=apart)


def test_what_a_child_adds_is_taken_back(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(lanes, "LANE_MIN_ENTRIES", 0)
    entries = [Entry(f"e{n}.yaml", tmp_path / f"e{n}.yaml", "yaml", {"id": f"d/e{n}"}, "") for n in range(3)]
    memo = registry.Memo({})

    def lane(rules: Sequence[registry.Rule]) -> list[list[tuple[str, ...]]]:
        out = []
        for rule in rules:
            if rule.code == "ET902":
                memo.put("late", [1, 2])
                entries[1].facts["late"] = ("fact", os.getpid() == PARENT)
            out.append([(rule.code, str(os.getpid() == PARENT))])
        return out

    rules = [_rule(code, lane, apart=code == "ET902") for code in ("ET901", "ET902", "ET903")]
    found = list(lanes.corpus_lanes(rules, lane, memo, Corpus(entries), {}, 2))
    assert found == [[("ET901", "True")], [("ET902", "False")], [("ET903", "True")]]
    assert memo.take_added() == {"late": [1, 2]}
    assert entries[1].facts["late"] == ("fact", False)  # made in the child, kept here


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """A mixed corpus with planted near-duplicates and defects (corpus findings of every kind)."""
    base = tmp_path_factory.mktemp("generated")
    generate.write_corpus(base / "entries", 90, "yaml", 5, 0.2, "mixed", 0.05)
    return base, make_config(base)


def _diagnostics(base: Path, config: Any, jobs: int, paths: list[Path] | None = None) -> list[Any]:
    return list(engine.lint(paths, config, TODAY, cwd=base, jobs=jobs).diagnostics)


@pytest.fixture
def lanes_always(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lanes, "LANE_MIN_ENTRIES", 0)
    monkeypatch.setattr(literal_index, "SPREAD_MIN_RUNS", 0)
    monkeypatch.setattr(literal_index, "SHARE_MIN_RUNS", 1)


@pytest.mark.usefixtures("lanes_always")
def test_lint_is_the_same_for_any_jobs(generated: tuple[Path, Any]) -> None:
    base, config = generated
    one = _diagnostics(base, config, 1)
    assert {"ET502"} <= {d.code for d in one}
    assert _diagnostics(base, config, 2) == one
    assert _diagnostics(base, config, 4) == one
    some = sorted((base / "entries").rglob("*.yaml"))[:5]
    assert _diagnostics(base, config, 2, some) == _diagnostics(base, config, 1, some)


@pytest.mark.usefixtures("lanes_always")
@pytest.mark.parametrize("how", ["raise", "kill"])
def test_lint_is_the_same_when_children_fail(how: str, generated: tuple[Path, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    base, config = generated
    one = _diagnostics(base, config, 1)
    here: list[str] = []

    def failing(real: Callable[..., T], name: str) -> Callable[..., T]:
        def call(*args: Any, **kwargs: Any) -> T:
            if _in_child():
                if how == "kill":
                    os.kill(os.getpid(), signal.SIGKILL)
                raise RuntimeError("a child fails")
            here.append(name)
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(lanes, "_run_apart", failing(lanes._run_apart, "rules"))
    monkeypatch.setattr(literal_index, "_run_groups", failing(literal_index._run_groups, "regexes"))
    assert _diagnostics(base, config, 2) == one
    assert "rules" in here and here.count("regexes") >= 2  # each child's share made here


def _pid_and_squares(share: list[int]) -> tuple[int, list[int]]:
    return os.getpid(), _squares(share)


def test_aside_is_computed_in_a_child_meanwhile() -> None:
    pid, squares = lanes.Aside(_pid_and_squares, [2, 3]).result()
    assert pid != PARENT and squares == [4, 9]


@pytest.mark.parametrize("how", ["raise", "kill", "unpicklable"])
def test_an_aside_whose_child_fails_gives_none(how: str, capfd: pytest.CaptureFixture[str]) -> None:
    assert lanes.Aside(_dies_in_child(how), [2]).result() is None
    assert "Traceback" not in capfd.readouterr().err


def test_without_fork_an_aside_is_computed_here_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lanes, "can_fork", lambda: False)
    made: list[int] = []
    aside = lanes.Aside(lambda share: made.append(os.getpid()) or _squares(share), [2, 3])
    assert made == [PARENT]
    assert aside.result() == [4, 9]
