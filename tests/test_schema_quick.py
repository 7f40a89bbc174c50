"""The fast validity check never passes data that jsonschema finds an error in."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from entrykit.parsing import parse_json, parse_yaml
from entrykit.schema import load_schema, quick_check, validator

from .conftest import DEADENDS, REPO

pytest.importorskip("jsonschema_rs")

CASES = Path(__file__).resolve().parent / "rules" / "cases"
VALID = {
    "id": "pip/no-matching-distribution",
    "signature": "ERROR: No matching distribution found for torch==9.9",
    "regex": "ERROR: No matching distribution found for \\S+",
    "domain": "pip",
    "category": "install_error",
    "root_cause": "No release of the package matches the requested version.",
    "dead_ends": [],
    "workarounds": [],
    "first_seen": "2024-01-01",
    "last_confirmed": "2024-02-01",
}


def _agrees(data: Any) -> None:
    """The contract: quick True implies no jsonschema error."""
    quick = quick_check(None)
    assert quick is not None
    if quick(data):
        errors = [e.message for e in validator(None).iter_errors(data)]
        assert errors == [], f"quick check passed {data!r}, jsonschema says {errors}"


def test_the_sample_entry_is_valid_both_ways() -> None:
    quick = quick_check(None)
    assert quick is not None and quick(VALID)
    assert validator(None).is_valid(VALID)


def _case_entries() -> list[Any]:
    out = []
    for case_file in sorted(CASES.glob("*.yaml")):
        for case in yaml.safe_load(case_file.read_text(encoding="utf-8")) or []:
            texts = [(case.get("path", "x.yaml"), case["entry"])] if "entry" in case else list(case.get("files", {}).items())
            for path, text in texts:
                parsed = parse_json(text) if str(path).endswith(".json") else parse_yaml(text)
                if isinstance(parsed.data, dict):
                    out.append(parsed.data)
    return out


def test_every_rule_case_entry() -> None:
    entries = _case_entries()
    assert len(entries) > 100
    invalid = 0
    for data in entries:
        _agrees(data)
        invalid += not validator(None).is_valid(data)
    assert invalid > 10  # the cases hold many schema violations: the check has seen them


def test_bundled_and_deadends_entries_agree_exactly() -> None:
    """On real entries the fast check gives jsonschema's verdict, not only a safe one."""
    files = sorted((REPO / "entries").rglob("*.yaml"))
    if DEADENDS.is_dir():
        files += sorted(DEADENDS.rglob("*.json"))[:400]
    quick = quick_check(None)
    assert quick is not None
    for path in files:
        text = path.read_text(encoding="utf-8")
        data = parse_json(text).data if path.suffix == ".json" else parse_yaml(text).data
        assert quick(data) == validator(None).is_valid(data), path


def _edits() -> st.SearchStrategy[tuple[str, Any]]:
    awkward = st.text(alphabet=st.sampled_from(list("az09_.-\n\r\u2028\u0130İK\u212a ")), max_size=12)
    dates = st.from_regex(re.compile(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\n?\Z"))
    values = st.one_of(awkward, dates, st.integers(-(2**70), 2**70), st.floats(allow_nan=True), st.none(), st.booleans())
    keys = st.one_of(
        st.sampled_from(["id", "domain", "category", "first_seen", "last_confirmed", "translated_from", "locale"]),
        st.builds(lambda a, b: a + b, st.sampled_from(["signature_", "root_cause_", "workarounds_", "dead_ends_"]), awkward),
    )
    return st.tuples(keys, values)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_edits(), max_size=4))
def test_awkward_values_never_pass_wrongly(edits: list[tuple[str, Any]]) -> None:
    data = dict(VALID)
    for key, value in edits:
        data[key] = value
    _agrees(data)


def test_keys_the_fast_engine_cannot_take_count_as_unknown() -> None:
    quick = quick_check(None)
    assert quick is not None
    assert quick({**VALID, 1: "x"}) is False
    assert quick({**VALID, "first_seen": "0000-01-01"}) is False  # jsonschema's date check decides


def test_a_schema_with_regexes_of_its_own_has_no_quick_check(tmp_path: Path) -> None:
    schema = load_schema(None)
    own = json.loads(json.dumps(schema))
    own["properties"]["id"]["pattern"] = "^x.*$"
    path = tmp_path / "own.json"
    path.write_text(json.dumps(own), encoding="utf-8")
    assert quick_check(path) is None
    same = tmp_path / "same.json"
    same.write_text(json.dumps(schema), encoding="utf-8")
    assert quick_check(same) is not None
