"""JSON Schema keywords checked in linear time where jsonschema's own check is quadratic."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any


def unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """jsonschema's `uniqueItems`, with its message, in linear time.

    jsonschema sorts the items when it can and otherwise compares every pair: a list of
    mappings, or of strings mixed with numbers, of 20,000 items (a `tags` of 100 KB in
    a pull request's entry) took minutes. Here each item becomes a key that is equal
    exactly when jsonschema's `equal` says the items are: `true` and `false` are not `1`
    and `0`, `1` is `1.0`, mappings by their keys and values, lists item by item."""
    from jsonschema.exceptions import ValidationError

    if unique and validator.is_type(instance, "array") and not all_unique(instance):
        yield ValidationError(f"{instance!r} has non-unique elements")


def all_unique(items: Sequence[Any]) -> bool:
    """Whether no two of `items` are equal as JSON Schema compares them."""
    seen: set[Any] = set()
    for item in items:
        key = equality_key(item)
        if key in seen:
            return False
        seen.add(key)
    return True


def equality_key(value: Any) -> Any:
    """A hashable key, equal for two values exactly when JSON Schema calls them equal."""
    if value is True or value is False:
        return (0, value)
    if isinstance(value, str):
        return (1, value)
    if isinstance(value, (int, float)):
        return (2, value)
    if value is None:
        return (3,)
    if isinstance(value, Mapping):
        return (4, frozenset((key, equality_key(item)) for key, item in value.items()))
    if isinstance(value, Sequence):
        return (5, tuple(equality_key(item) for item in value))
    try:
        hash(value)
    except TypeError:
        return (6, id(value))  # (no entry holds one: a loader gives JSON's types only)
    return (7, value)
