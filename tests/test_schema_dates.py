"""The fast validity check answers plainly valid dates itself, as jsonschema would, and
checks valid entries without importing jsonschema."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import schema

from .conftest import REPO
from .test_schema_quick import VALID

pytest.importorskip("jsonschema_rs")


def _jsonschema_date(value: object) -> bool:
    from jsonschema import Draft202012Validator

    return bool(Draft202012Validator.FORMAT_CHECKER.conforms(value, "date"))


_DATES = st.one_of(
    st.from_regex(re.compile(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\n?\Z")),
    st.dates().map(str),
    st.text(alphabet=st.sampled_from(list("0129-:T /\n\u0661\uff11")), max_size=12),
    st.integers(),
    st.none(),
)


@settings(max_examples=1000, deadline=None)
@given(_DATES)
def test_a_plain_date_is_a_date_to_jsonschema(value: object) -> None:
    if schema._plain_date(value):
        assert _jsonschema_date(value)


@pytest.mark.parametrize(
    "value",
    [
        "2024-01-01",
        "2024-02-29",
        "2023-02-29",
        "2024-13-01",
        "0000-01-01",
        "2024-1-01",
        "2024-01-01\n",
        "2024-01-01T00:00",
        "\u0662\u0660\u0662\u0664-01-01",
        "20240101",
        "2024/01/01",
        "",
    ],
)
def test_the_date_format_answers_as_jsonschema_does(value: str) -> None:
    assert schema._conforms(None, "date")(value) == _jsonschema_date(value)


def test_checking_valid_entries_imports_no_jsonschema() -> None:
    probe = (
        "import json, sys\n"
        "from entrykit.schema import quick_check\n"
        "quick = quick_check(None)\n"
        f"entry = json.loads({json.dumps(VALID)!r})\n"
        "valid = quick(entry)\n"
        "before = 'jsonschema' in sys.modules\n"
        "odd = quick({**entry, 'first_seen': '2024-02-30'})\n"
        "print(json.dumps([valid, before, odd, 'jsonschema' in sys.modules]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=120, check=True
    )
    # a date jsonschema must judge brings it in, and its word stands
    assert json.loads(proc.stdout) == [True, False, False, True]
