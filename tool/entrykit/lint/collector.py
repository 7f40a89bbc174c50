"""The cyclic garbage collector paused, or made to look less often, while a phase makes many objects that hold no cycle."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No collection while the block runs; the collector as it was, after.

    Each collection walks the young objects and every container they hold again. A phase
    that makes hundreds of thousands of plain objects (records read, the corpus phase's
    indexes and results) has each collection find nothing, at a cost that grows with what
    it holds. Objects go when their last reference does, as always; only a reference cycle
    made in the block waits for the collector's next run after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def young_threshold(objects: int) -> Iterator[None]:
    """The collector's first threshold (new objects before it looks at them) at least
    `objects` while the block runs; the thresholds as they were, after. For a phase whose
    objects live a while (a batch of files checked at once) and hold no cycle: each
    collection would walk them all again and find nothing."""
    young, older, oldest = gc.get_threshold()
    gc.set_threshold(max(young, objects), older, oldest)
    try:
        yield
    finally:
        gc.set_threshold(young, older, oldest)
