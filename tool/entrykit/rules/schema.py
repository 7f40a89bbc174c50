"""ET1xx: the entry against the JSON Schema, every violation at its own place."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from entrykit import pointer as jp
from entrykit.diagnostic import Finding
from entrykit.entry import Entry
from entrykit.errors import ConfigError
from entrykit.registry import Context, rule
from entrykit.schema import quick_check, validator
from entrykit.spelling import HINTED_PER_ENTRY, did_you_mean

if TYPE_CHECKING:  # (jsonschema is loaded by the first entry that fails the schema, not by every run)
    from jsonschema.exceptions import ValidationError

_SHOWN = 60


def _show(value: Any) -> str:
    """A short, readable rendering of a value for a message."""
    text = value if isinstance(value, str) else repr(value)
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    text = " ".join(text.split())
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _where(path: list[Any]) -> str:
    return ".".join(str(p) for p in path) or "entry"


_JSON_TYPES = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
}


def _kind(value: Any) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _message(error: ValidationError) -> str:
    where = _where(list(error.absolute_path))
    value = error.instance
    kind = error.validator
    expected: Any = error.validator_value  # set on every error a validator reports
    if kind == "type":
        wanted = expected if isinstance(expected, str) else " or ".join(expected)
        return f"`{where}` must be {wanted}, not {_kind(value)} `{_show(value)}`"
    if kind == "enum":
        allowed = ", ".join(f"`{_show(v)}`" for v in expected)
        return f"`{where}` is `{_show(value)}`; expected one of {allowed}"
    if kind == "format":
        return f"`{where}` is `{_show(value)}`, not a valid {expected}"
    if kind == "pattern":
        return f"`{where}` is `{_show(value)}`, which does not match `{expected}`"
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {
            "minimum": "at least",
            "maximum": "at most",
            "exclusiveMinimum": "above",
            "exclusiveMaximum": "below",
        }[kind]
        return f"`{where}` is `{_show(value)}`; it must be {words} {expected}"
    if kind == "minLength":
        return f"`{where}` is empty" if value == "" else f"`{where}` is too short"
    if kind == "uniqueItems":
        return f"`{where}` holds the same item more than once"
    if kind == "const":
        return f"`{where}` must be `{_show(expected)}`"
    return f"`{where}`: {_show(error.message)}"


def _unexpected_keys(error: ValidationError) -> tuple[list[str], list[str]]:
    """The keys an additionalProperties failure is about, and the keys allowed there."""
    instance = error.instance if isinstance(error.instance, dict) else {}
    schema = error.schema if isinstance(error.schema, dict) else {}
    known = list(schema.get("properties", {}))
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    unexpected = [
        key
        for key in instance
        if key not in known and not any(p.search(key) for p in patterns)
    ]
    return unexpected, known


Hint = Callable[[str, list[str]], str]


def _first_hints() -> Hint:
    """`did_you_mean` for the first `HINTED_PER_ENTRY` keys asked about, "" for the rest."""
    asked = 0

    def hint(key: str, known: list[str]) -> str:
        nonlocal asked
        asked += 1
        return did_you_mean(key, known) if asked <= HINTED_PER_ENTRY else ""

    return hint


def _findings(error: ValidationError, hint: Hint) -> Iterator[Finding]:
    if error.validator in ("anyOf", "oneOf") and error.context:
        from jsonschema.exceptions import best_match

        chosen = best_match(error.context)
        if chosen is not None and list(chosen.absolute_path) != list(error.absolute_path):
            yield from _findings(chosen, hint)
            return
        if chosen is not None:
            yield Finding(jp.from_path(error.absolute_path), _message(chosen))
            return
    here = jp.from_path(error.absolute_path)
    if error.validator == "additionalProperties" and error.validator_value is False:
        unexpected, known = _unexpected_keys(error)
        for key in unexpected:
            spelt = hint(key, known) if isinstance(key, str) else ""
            yield Finding(jp.child(here, key), f"unknown key `{key}`{spelt}", at_key=True)
        return
    if error.validator == "required":
        required: Any = error.validator_value
        instance: Any = error.instance
        missing = [k for k in required if k not in (instance or {})]
        for key in missing:
            where = _where([*error.absolute_path, key])
            yield Finding(here, f"required field `{where}` is missing")
        return
    yield Finding(here, _message(error))


@rule("ET101", "schema-violation")
def schema_violation(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Entry does not conform to the entry schema.

    Every violation is reported at its own place, not only the first: wrong
    types, missing required fields, unknown keys, values outside an enum, dates
    that are not `YYYY-MM-DD`, rates outside 0..1. For `oneOf` choices (a graph
    reference is an id string *or* an object) the most relevant failure is shown.
    The first 32 unknown keys of an entry get a "did you mean" when a known key
    is spelt alike.

    ## Why is this bad?
    Tools that read the corpus (lookups, renderers, importers) rely on the shape
    the schema promises; an entry outside it breaks them or is silently skipped.

    ## Example
    ```yaml
    resolvable: yes
    confidence: 1.3
    first_seen: 2024-13-01
    ```

    ## Use instead
    ```yaml
    resolvable: "true"
    confidence: 0.9
    first_seen: "2024-12-01"
    ```
    """
    quick = quick_check(ctx.schema)
    if quick is not None and quick(entry.data):
        return  # valid: jsonschema is asked only for the messages and places of errors
    check = validator(ctx.schema)
    try:
        errors = list(check.iter_errors(entry.data))
    except RecursionError:
        raise ConfigError(
            f"schema {ctx.schema or 'of entrykit'}: checking {entry.path} against it recursed past Python's limit "
            "(a `$ref` that leads back to itself without going deeper into the entry does so on every entry)"
        ) from None
    seen: set[tuple[str, str]] = set()
    hint = _first_hints()
    for error in errors:
        for finding in _findings(error, hint):
            if (finding.pointer, finding.message) not in seen:
                seen.add((finding.pointer, finding.message))
                yield finding
