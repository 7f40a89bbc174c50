"""Each translation rule's context reads its own settings: equal ones are one object, and
each is the settings its section makes."""

from __future__ import annotations

from datetime import date
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import registry
from entrykit.rules import translation as rules
from entrykit.translation import translated_fields as tf

TODAY = date(2026, 11, 30)

_SECTIONS = st.fixed_dictionaries(
    {},
    optional={
        "required": st.lists(st.sampled_from(["zh", "ja", "ru", "zh_Hant"]), max_size=3),
        "fields": st.lists(st.sampled_from(["signature", "root_cause", "workarounds"]), max_size=3),
        "track_source": st.booleans(),
        "glossary": st.dictionaries(
            st.sampled_from(["zh", "ja"]), st.dictionaries(st.sampled_from(["HEAD", "CPU"]), st.just("头"), max_size=2), max_size=2
        ),
    },
)


@settings(max_examples=200, deadline=None)
@given(_SECTIONS, _SECTIONS)
def test_each_context_reads_the_settings_its_section_makes(first: dict[str, Any], second: dict[str, Any]) -> None:
    for section in (first, second, first):
        ctx = registry.Context(TODAY, {}, {"translation": section})
        assert rules._settings(ctx) == tf.Settings.from_section(section)


@settings(max_examples=100, deadline=None)
@given(_SECTIONS)
def test_equal_settings_of_two_contexts_are_one_object(section: dict[str, Any]) -> None:
    first = registry.Context(TODAY, {}, {"translation": section})
    second = registry.Context(TODAY, {}, {"translation": dict(section)})
    assert rules._settings(first) is rules._settings(second)
