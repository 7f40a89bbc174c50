"""ET208 runs a regex only on the generic probes that hold every literal a match needs:
the generic message it names (or the empty string) must be the one running the regex on
every probe, in order, would name."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex.breadth import generic_probes, too_broad
from entrykit.regex.runner import RegexRunner
from tests.conftest import DEADENDS
from tests.pattern_strategies import joined_patterns

WORDS = ["error", "Error", "failed", "fatal", "exception", "denied", "not found", "x", "e", ""]
JOINERS = ["", " ", ".*", ": ", r"\s+", "|", "?", ".?", "[:]", "(?:", ")"]
PATTERNS = joined_patterns(WORDS, JOINERS, 4)


def _first_generic(pattern: str, flags: int) -> str | None:
    """The reason of the first probe the regex matches, running it on every probe."""
    compiled = re.compile(pattern, flags)
    for probe in ("", *generic_probes()):
        if compiled.search(probe):
            if probe == "":
                return "matches the empty string, so it matches every message"
            return f"matches the generic message `{probe}`"
    return None


def _generic_reason(pattern: str, flags: int, runner: RegexRunner) -> str | None:
    found = too_broad(pattern, flags, "search", runner)
    if found is None or not found.reason.startswith(("matches the generic", "matches the empty")):
        return None
    return found.reason


@pytest.fixture(scope="module")
def runner() -> RegexRunner:
    with RegexRunner() as shared:
        yield shared


@settings(max_examples=300, deadline=None)
@given(pattern=PATTERNS, flags=st.sampled_from([0, re.IGNORECASE]))
def test_the_same_generic_message_as_running_every_probe(pattern: str, flags: int, runner: RegexRunner) -> None:
    try:
        re.compile(pattern, flags)
    except re.error:
        return
    assert _generic_reason(pattern, flags, runner) == _first_generic(pattern, flags)


@pytest.mark.skipif(not DEADENDS.is_dir(), reason="the deadends canons are not here")
def test_the_same_generic_message_for_the_canons(runner: RegexRunner) -> None:
    named = 0
    for path in sorted(DEADENDS.rglob("*.json"))[::3]:
        pattern = (json.loads(path.read_text(encoding="utf-8")).get("error") or {}).get("regex")
        if not isinstance(pattern, str):
            continue
        expected = _first_generic(pattern, re.IGNORECASE)
        assert _generic_reason(pattern, re.IGNORECASE, runner) == expected, path.name
        named += expected is not None
    assert named > 0
