"""Work budgets for the analyses of one regex, counted in steps, never in seconds.

An analysis spends steps as it goes (a state visited, an edge added, a set
intersected: each in proportion to its size); past its budget it stops with
`TooComplex`. The same regex therefore gets the same verdict on any machine and
under any load, and no regex from a stranger's pull request can make an analysis
run (or grow) without bound. Work and memory stay proportional to the budget.
"""

from __future__ import annotations


class TooComplex(Exception):
    """An analysis of a regex needed more than its budget; `reason` says what ran out."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Budget:
    """Steps an analysis may still take."""

    __slots__ = ("left", "limit", "what")

    def __init__(self, limit: int, what: str) -> None:
        self.limit = limit
        self.left = limit
        self.what = what

    def spend(self, steps: int = 1) -> None:
        self.left -= steps
        if self.left < 0:
            raise TooComplex(f"{self.what} needs more than {self.limit:,} steps")

    @property
    def used(self) -> int:
        return self.limit - self.left
