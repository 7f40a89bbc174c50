"""A lint worker freezes what it holds before its first file (`pipeline._init_worker`): no
collection walks the checker and what the parent loaded again, file after file; it
collects young objects far less often than the parent (its files leave no cycles: see
test_reference_cycles.py); and the records it checks are the ones a run in one process
makes."""

from __future__ import annotations

import gc
import multiprocessing
from collections.abc import Callable
from datetime import date
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from entrykit.config import load_config
from entrykit.lint import engine, pipeline

_FORK = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")


def _report_tracked(root: Path, conn: Connection) -> None:
    """In a forked worker: whether a collection would still walk its checker, or a list made after."""
    gc.unfreeze()  # (whatever the test process froze: the worker's own freeze is what is asked)
    pipeline._init_worker(engine.configured(load_config(root)), date(2026, 1, 1), {}, 1)
    checker = pipeline._WORKER["checker"]
    made_after: list[int] = []
    tracked = [o for o in gc.get_objects() if o is checker or o is made_after]
    conn.send((any(o is checker for o in tracked), any(o is made_after for o in tracked)))
    conn.close()


def _asked_in_a_forked_worker(report: Callable[[Path, Connection], None], root: Path) -> Any:
    """What `report` sends from a child forked for it (a worker's setting, not this process's)."""
    context = multiprocessing.get_context("fork")
    mine, theirs = context.Pipe()
    worker = context.Process(target=report, args=(root, theirs))
    worker.start()
    assert mine.poll(120)
    answer = mine.recv()
    worker.join(30)
    return answer


@_FORK
def test_a_worker_leaves_what_it_holds_before_its_first_file_to_no_collection(tmp_path: Path) -> None:
    checker_tracked, later_tracked = _asked_in_a_forked_worker(_report_tracked, tmp_path)
    assert not checker_tracked  # frozen: no collection walks it
    assert later_tracked  # what a file's check makes is collected as ever


def _report_thresholds(root: Path, conn: Connection) -> None:
    """In a forked worker: the collector's thresholds before and after the worker starts."""
    gc.set_threshold(700, 13, 17)
    before = gc.get_threshold()
    pipeline._init_worker(engine.configured(load_config(root)), date(2026, 1, 1), {}, 1)
    conn.send((before, gc.get_threshold(), gc.isenabled()))
    conn.close()


@_FORK
def test_a_worker_collects_young_objects_rarely_and_keeps_the_older_thresholds(tmp_path: Path) -> None:
    before, after, enabled = _asked_in_a_forked_worker(_report_thresholds, tmp_path)
    assert before == (700, 13, 17)
    assert after == (pipeline.CHECKING_YOUNG_OBJECTS, 13, 17)
    assert enabled  # (cycles a file could leave are still collected, only later)


_ENTRY = """id: demo/e{n}
signature: 'Error {n}: something failed'
regex: Error\\ \\d+:\\ something\\ failed
domain: demo
category: runtime_error
root_cause: A cause.
"""


@_FORK
def test_records_of_a_pool_equal_records_of_one_process(tmp_path: Path) -> None:
    for n in range(pipeline.POOL_MIN_FILES + 4):
        (tmp_path / f"e{n}.yaml").write_text(_ENTRY.format(n=n), encoding="utf-8")
    config = engine.configured(load_config(tmp_path))
    day = date(2026, 1, 1)
    tasks = [
        pipeline.Task(path, path.name, path.name, "yaml", True) for path in sorted(tmp_path.glob("*.yaml"))
    ]

    def plain(jobs: int) -> list[tuple[object, ...]]:
        checker = pipeline.Checker(config, day, {}, len(tasks))
        records = pipeline.run_tasks(tasks, checker, jobs, {}, len(tasks))
        return [(r.key, r.digest, r.summary, r.facts, r.results, r.dated, r.failure) for r in records]

    assert plain(2) == plain(1)
