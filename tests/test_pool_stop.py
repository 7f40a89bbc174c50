"""A stopped pool of lint workers leaves nothing behind: its workers and its manager thread
end before `pipeline._stop` returns (a thread still running at exit races the interpreter's
own wake-up of it, and prints an OSError after the last line)."""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

from entrykit.lint import pipeline


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_stop_ends_the_workers_and_the_manager_thread() -> None:
    pool = ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("fork"))
    if hasattr(pool, "terminate_workers"):
        pool.shutdown()
        pytest.skip("Python stops its own workers (terminate_workers)")
    futures = [pool.submit(time.sleep, 60) for _ in range(4)]
    while not any(f.running() for f in futures):  # (the workers have started on them)
        time.sleep(0.01)
    manager = pool._executor_manager_thread  # type: ignore[attr-defined]
    processes = list(pool._processes.values())  # type: ignore[attr-defined]
    assert manager is not None and manager.is_alive() and processes
    pipeline._stop(pool)
    assert not manager.is_alive()
    assert [p for p in processes if p.is_alive()] == []
