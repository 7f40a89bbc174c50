"""JSON Schema keywords and formats checked within bounds where jsonschema's own checks are not."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

# What the `regex` format reports as a string that is no regex (jsonschema's `re.error`, and
# what `re` raises for a pattern it cannot hold).
REGEX_FORMAT_ERRORS = (re.error, OverflowError, RecursionError, ValueError)


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


def regex_format(instance: object) -> bool:
    """jsonschema's `regex` format without compiling what may take long (the schema is the
    checkout's to write, the string the entry's): a string `re` compiles is a regex.

    CPython compiles a class range by visiting its code points: `(?i)[\\u0100-\\U0010ffff]`
    takes about 5 ms, so a long string of them would take minutes. A string that
    `compiling.cheap_to_compile` cannot vouch for is read by `re`'s parser only (the
    one reader of regex syntax: `regex.syntax`); one too complex to read within its
    budget is not called invalid. Raises one of `REGEX_FORMAT_ERRORS` for a string that
    is no regex."""
    if not isinstance(instance, str):
        return True
    from entrykit.regex import compiling, syntax  # (the analyses; a schema without the format never loads them)
    from entrykit.regex.budget import TooComplex

    with contextlib.suppress(TooComplex):
        if compiling.cheap_to_compile(instance):
            compiling.compile_pattern(instance)
        else:
            syntax.parse(instance)
    return True
