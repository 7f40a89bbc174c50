"""The entry schema: valid draft 2020-12, documented everywhere, accepts the reference entry."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator

from entrykit.schema import load_schema

from .conftest import FIXTURES


def _properties(node: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for table in ("properties", "patternProperties"):
            for name, sub in node.get(table, {}).items():
                yield f"{where}/{name}", sub
                yield from _properties(sub, f"{where}/{name}")
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                yield from _properties(node[key], f"{where}/{key}")
        for key in ("oneOf", "anyOf", "allOf"):
            for index, sub in enumerate(node.get(key, [])):
                yield from _properties(sub, f"{where}/{key}/{index}")


def test_schema_is_valid_draft_2020_12() -> None:
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_property_has_a_description() -> None:
    missing = [where for where, sub in _properties(load_schema()) if "description" not in sub]
    assert not missing, missing


def test_reference_entry_is_accepted_field_for_field() -> None:
    seed = json.loads((FIXTURES / "seed001/json/pytorch/fsdp-param-mismatch.json").read_text("utf-8"))
    validator = Draft202012Validator(load_schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)
    assert list(validator.iter_errors(seed)) == []
    assert set(seed) <= set(load_schema()["properties"]) | {"signature_zh", "root_cause_zh", "workarounds_zh"}


def test_dates_are_enforced() -> None:
    validator = Draft202012Validator(load_schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)
    seed = json.loads((FIXTURES / "seed001/json/pytorch/fsdp-param-mismatch.json").read_text("utf-8"))
    seed["first_seen"] = "2024-02-30"
    assert [e.validator for e in validator.iter_errors(seed)] == ["format"]


def test_every_property_has_an_example_for_editors_that_the_property_accepts() -> None:
    """Editors show `description` and `examples` on hover; an example the schema rejects would teach a mistake."""
    missing, rejected = [], []
    for where, sub in _properties(load_schema()):
        examples = sub.get("examples")
        if not isinstance(examples, list) or not examples:
            missing.append(where)
            continue
        check = Draft202012Validator(sub, format_checker=Draft202012Validator.FORMAT_CHECKER)
        rejected += [f"{where}: {example!r}" for example in examples if not check.is_valid(example)]
    assert not missing, missing
    assert not rejected, rejected


def test_an_entry_built_from_the_examples_is_a_valid_entry() -> None:
    """The first example of every top-level field, put together, is an entry the schema accepts."""
    schema = load_schema()
    entry = {name: sub["examples"][0] for name, sub in schema["properties"].items()}
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    assert [error.message for error in validator.iter_errors(entry)] == []
