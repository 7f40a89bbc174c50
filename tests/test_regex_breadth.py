"""ET208's measures: literal information across scripts, and the probe corpus of real messages."""

from __future__ import annotations

import pytest

from entrykit.regex.breadth import probe_messages, too_broad
from entrykit.regex.information import information, least_information
from entrykit.regex.literal_index import required
from entrykit.regex.runner import RegexRunner


def test_weights_are_fair_across_scripts() -> None:
    assert information("abc") == 3
    assert information("銀行") == 5  # two ideographs: about two short words
    assert information("한국") == 4.8
    assert information("ふぐ") == 2.6
    assert information("911") == pytest.approx(2.1)
    assert information("a b") == 2.25


@pytest.mark.parametrize(
    ("pattern", "worth", "literal"),
    [
        ("日本.*銀行.*口座", 5.0, "日本"),  # the most telling literal a match must hold
        ("(tipping|팁.*문화)", 4.8, "문화"),  # the least telling alternative
        ("6.4", 0.7, "6"),
        (r"\d+", 0.0, None),
    ],
)
def test_least_information(pattern: str, worth: float, literal: str | None) -> None:
    assert least_information(required(pattern)) == (pytest.approx(worth), literal)


def test_probe_messages_say_where_they_come_from() -> None:
    probes = probe_messages()
    assert len(probes) >= 100
    assert len({p.ecosystem for p in probes}) >= 20
    for probe in probes:
        assert probe.key in probe.message, probe
        assert probe.origin, probe
        assert "\n" not in probe.message


def test_a_probe_named_by_the_entry_is_its_own_error() -> None:
    with RegexRunner() as runner:
        pattern = "KeyError|ZeroDivisionError"
        broad = too_broad(pattern, 0, "search", runner, 3, ["ZeroDivisionError: division by zero"])
        assert broad is not None and broad.by_probe_message and "KeyError" in broad.reason
        assert too_broad(pattern, 0, "search", runner, 3, ["ZeroDivisionError: x", "KeyError: 'a'"]) is None
