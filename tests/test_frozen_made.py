"""A frozen dataclass instance made with its fields set at once (`frozen.made_frozen`) is the
one its constructor makes, still frozen; a class with slots is refused, not half made."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.frozen import made_frozen


@dataclasses.dataclass(frozen=True)
class _Record:
    name: str
    count: int | None
    parts: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class _Slotted:
    name: str


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=8), st.none() | st.integers(), st.lists(st.text(max_size=3), max_size=3).map(tuple))
def test_a_made_record_is_the_constructed_one(name: str, count: int | None, parts: tuple[str, ...]) -> None:
    made = made_frozen(_Record, {"name": name, "count": count, "parts": parts})
    plain = _Record(name, count, parts)
    assert type(made) is _Record
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert dataclasses.astuple(made) == dataclasses.astuple(plain)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "changed"  # type: ignore[misc]


def test_a_class_with_slots_is_refused() -> None:
    with pytest.raises(AttributeError):
        made_frozen(_Slotted, {"name": "x"})
