"""One pattern for a part of an id: the id check, the schema's `domain` and new slugs agree."""

from __future__ import annotations

import re

import pytest

from entrykit.authoring import scaffold
from entrykit.paths import ID_PATTERN, SEGMENT, SEGMENT_PATTERN, is_valid_id
from entrykit.schema import load_schema, validator

SEGMENTS = [
    ("pip", True),
    ("pytorch", True),
    ("node18", True),
    ("ros2.humble", True),
    ("cuda_12-1", True),
    ("a", True),
    ("", False),
    ("Pip", False),  # uppercase
    ("-pip", False),
    ("pip-", False),  # a separator ends it
    ("pip--wheel", False),  # two separators in a row
    ("pip._x", False),
    ("pip wheel", False),
    ("pïp", False),
]


def test_the_schema_domain_pattern_is_the_segment_pattern() -> None:
    assert load_schema()["properties"]["domain"]["pattern"] == f"^{SEGMENT_PATTERN}$"
    assert scaffold.SEGMENT is SEGMENT


@pytest.mark.parametrize(("text", "valid"), SEGMENTS)
def test_segment_domain_and_id_agree(text: str, valid: bool) -> None:
    assert bool(SEGMENT.fullmatch(text)) is valid
    domain_errors = [e for e in validator().iter_errors({"domain": text}) if list(e.path) == ["domain"]]
    assert (not domain_errors) is valid
    assert is_valid_id(f"{text}/slug") is valid and is_valid_id(f"pip/{text}") is valid
    assert bool(ID_PATTERN.fullmatch(f"{text}/{text}")) is valid


def test_the_python_pattern_reads_the_same_in_the_schema_dialect() -> None:
    """The schema's pattern uses only syntax ECMAScript and Python read alike."""
    assert re.fullmatch(r"[a-z0-9\[\]()?:+*._\-]+", SEGMENT_PATTERN)
