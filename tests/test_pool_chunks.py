"""How `run_tasks` cuts the files into chunks for its pool: every file once, in order, the
chunks large while much is left and down to one file at the end."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from entrykit.lint.pipeline import MAX_CHUNK, chunk_bounds


@given(st.integers(min_value=0, max_value=20_000), st.integers(min_value=1, max_value=64))
def test_chunks_cover_every_task_once_in_order_and_shrink(count: int, workers: int) -> None:
    bounds = list(chunk_bounds(count, workers))
    assert [start for start, _ in bounds] == [0, *(end for _, end in bounds[:-1])][: len(bounds)]
    assert (bounds[-1][1] if bounds else 0) == count
    sizes = [end - start for start, end in bounds]
    assert all(1 <= size <= MAX_CHUNK for size in sizes)
    assert sizes == sorted(sizes, reverse=True)
    if count >= workers * 4:  # the last chunks are single files: no worker waits long alone
        assert sizes[-1] == 1


def test_a_large_corpus_goes_in_few_round_trips() -> None:
    # 10,000 files in 8-file chunks were 1,250 round trips through the pool's queues.
    bounds = list(chunk_bounds(10_000, 2))
    # full chunks, then a tail that shrinks by an eighth of what is left each time
    tail = [end - start for start, end in bounds if end - start < MAX_CHUNK]
    assert len(tail) < 64 and len(bounds) < 10_000 // MAX_CHUNK + 64
    assert bounds[0] == (0, MAX_CHUNK)
