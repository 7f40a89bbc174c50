"""Frozen dataclass instances made with their fields set at once."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def made_frozen(cls: type[T], fields: dict[str, Any]) -> T:
    """What `cls(**fields)` gives for a frozen dataclass `cls` without slots, `fields` naming
    each of its fields once: the instance's dictionary is set in one step.

    A frozen dataclass's `__init__` sets each field through `object.__setattr__`, and the
    translation rules make such records for every translated string and every token of its
    source. A class with slots has no instance dictionary: this then raises AttributeError."""
    made: T = object.__new__(cls)
    object.__setattr__(made, "__dict__", fields)
    return made
