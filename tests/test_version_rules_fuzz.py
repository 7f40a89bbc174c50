"""The version rules never crash, whatever a version table holds."""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import lint_corpus

_PIECES = st.sampled_from(
    ["torch", "ros2", "CUDA", "pytorch", " ", ">=", "<", "==", "!=", "~=", "===", ",", "2", "2.0",
     "1.12", ".x", "+", "*", "humble", "rolling", "any", "v", "rc1", "2023-01", "-", "^", "latest"]
)
_TEXT = st.one_of(st.lists(_PIECES, max_size=6).map("".join), st.text(max_size=12))
_VALUE = st.one_of(st.none(), _TEXT, st.integers(), st.floats(allow_nan=False))
_ROW = st.fixed_dictionaries(
    {"version": _VALUE},
    optional={
        "introduced": _VALUE, "deprecated": _VALUE, "removed": _VALUE,
        "status": st.one_of(st.sampled_from(["active", "deprecated", "removed", "Active"]), _VALUE),
        "behavior_change": _VALUE,
    },
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(_ROW, _TEXT), max_size=5))
def test_version_rules_never_crash(rows: list[object]) -> None:
    text = yaml.safe_dump({"id": "test/case", "domain": "test", "versions": rows}, allow_unicode=True)
    with tempfile.TemporaryDirectory() as folder:
        result = lint_corpus(Path(folder), {"test/case.yaml": text}, {"select": ["ET4"]})
    for diagnostic in result.diagnostics:
        assert diagnostic.code.startswith("ET4") and diagnostic.line >= 1
