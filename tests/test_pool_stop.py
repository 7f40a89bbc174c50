"""A stopped pool of lint workers leaves nothing behind: its workers and its manager thread
end before `pipeline._stop` returns (a thread still running at exit races the interpreter's
own wake-up of it, and prints an OSError after the last line)."""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor

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


class _Stopped(BaseException):
    """What a SIGTERM raises in entrykit (`Terminated`), here from a timer's signal."""


class _NoChecks:
    """A checker with no facts to prepare (`run_tasks` reads only these)."""

    keep_entries = False
    all_facts: list[object] = []
    facts: list[object] = []
    config = today = fact_context = None


def _slow_chunk(chunk: object) -> list[tuple[()]]:
    time.sleep(0.05)
    return [() for _ in chunk]  # type: ignore[attr-defined]


def _quiet_worker(*args: object) -> None:
    signal.signal(signal.SIGALRM, signal.SIG_IGN)


def _raise_stopped(signum: int, frame: object) -> None:
    raise _Stopped()


@pytest.mark.skipif(not hasattr(signal, "setitimer") or "fork" not in multiprocessing.get_all_start_methods(), reason="needs fork and timers")
def test_a_run_stopped_while_it_waits_cancels_nothing_the_pool_still_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run stopped in its wait for results (Ctrl-C, SIGTERM) leaves the queued chunks to
    the pool: cancelled from this thread while the pool's manager thread still holds them,
    that thread fails on them once the workers are gone (Python 3.11) and prints a traceback."""
    monkeypatch.setattr(pipeline, "_check_chunk", _slow_chunk)
    monkeypatch.setattr(pipeline, "_init_worker", _quiet_worker)
    monkeypatch.setattr(pipeline, "_full", lambda task, values: task)
    cancelled_here: list[Future[object]] = []
    cancel = Future.cancel

    def spied_cancel(self: Future[object]) -> bool:
        if threading.current_thread() is threading.main_thread():
            cancelled_here.append(self)
        return cancel(self)

    monkeypatch.setattr(Future, "cancel", spied_cancel)
    failed_threads: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda hook: failed_threads.append(hook.exc_value))
    previous = signal.signal(signal.SIGALRM, _raise_stopped)
    try:
        run = pipeline.run_tasks(list(range(2000)), _NoChecks(), 2, {}, 2000)  # type: ignore[arg-type]
        assert next(run) == 0
        signal.setitimer(signal.ITIMER_REAL, 0.2)  # (stops it while it waits, as a signal does)
        with pytest.raises(_Stopped):
            for _ in run:
                pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert cancelled_here == [] and failed_threads == []
