"""`uniqueItems` is checked in linear time (`schema_keywords.unique_items`), as jsonschema decides it.

jsonschema compares every pair of items it cannot sort: an entry whose `tags` were
5,000 mappings took 27.7 s to lint, 20,000 more than five minutes (now 0.66 s and
1.55 s). The same items are unique, and the diagnostics are the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from entrykit.schema import validator
from entrykit.schema_keywords import all_unique

from .conftest import lint_corpus
from .hostile import entry_text

_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, 1.0, -1.5, 2.0]), st.sampled_from(["", "a", "1", "true"])
)
_VALUES = st.recursive(
    _LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b", "1"]), inner, max_size=3), max_leaves=8
)
_PLAIN = Draft202012Validator({"uniqueItems": True})


@settings(max_examples=1500, deadline=None)
@given(st.lists(_VALUES, max_size=6))
@example([1, True])
@example([1, 1.0])
@example([0, False, None, "0"])
@example([{"a": 1}, {"a": 1.0}])
@example([{"a": [True]}, {"a": [1]}])
@example([[1, "a"], [1.0, "a"]])
@example([{"a": 1, "b": 2}, {"b": 2, "a": 1}])
def test_items_are_unique_as_jsonschema_says(items: list[Any]) -> None:
    assert all_unique(items) == _PLAIN.is_valid(items)
    assert validator().is_valid({"tags": items}) == (
        Draft202012Validator(validator().schema, format_checker=Draft202012Validator.FORMAT_CHECKER).is_valid({"tags": items})
    )


def test_no_pair_of_items_is_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    from jsonschema import _utils

    compared = 0
    real = _utils.equal

    def counted(one: Any, two: Any) -> bool:
        nonlocal compared
        compared += 1
        return bool(real(one, two))

    monkeypatch.setattr(_utils, "equal", counted)
    items = [{"n": n} for n in range(400)]
    errors = [e for e in validator().iter_errors({"tags": items}) if e.validator != "required"]
    assert {e.validator for e in errors} == {"type"} and len(errors) == 400
    assert compared == 0  # (jsonschema compared 79,800 pairs)
    repeated = list(validator().iter_errors({"tags": [*items, {"n": 7}]}))
    assert [e.validator for e in repeated].count("uniqueItems") == 1


def test_a_repeated_item_is_reported_as_before(tmp_path: Path) -> None:
    files = {"pip/x.yaml": entry_text("pip/x", tags=[{"a": 1}, {"a": 1.0}, [1, 2]])}
    shown = [d.message for d in lint_corpus(tmp_path, files).diagnostics if d.code == "ET101"]
    assert "`tags` holds the same item more than once" in shown
