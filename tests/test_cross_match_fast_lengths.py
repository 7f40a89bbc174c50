"""`corpus_cross_matches` reads each entry's `longest_fast_text` from its regex fact without
asking `regex_fact` a second time: what it hands `cross_matches` is `fast_length`'s answer."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.entry import Entry
from entrykit.regex import literal_index
from entrykit.regex.literal_index import CrossMatches, corpus_cross_matches, fast_length
from entrykit.regex.runner import RegexRunner

FLAGS = 2  # re.IGNORECASE
REGEXES = ["abc", "a(b", "x+y", "(a+)+$", None]
# known facts as a worker (or a cache read back from JSON: lists) leaves them, some for other flags
FACTS = st.one_of(
    st.none(),
    st.builds(
        lambda flags, ok, longest, as_list: (list if as_list else tuple)((flags, ok, "abc", ("abc",), longest)),
        st.sampled_from([FLAGS, 0]),
        st.booleans(),
        st.sampled_from([7, -1, None, 2.5, "9"]),
        st.booleans(),
    ),
)


def _entry(number: int, regex: str | None, fact: Any) -> Entry:
    data = {"signature": f"text {number}"} | ({"regex": regex} if regex is not None else {})
    entry = Entry(f"e{number}.yaml", Path(f"e{number}.yaml"), "yaml", data, "")
    if fact is not None:
        entry.facts["regex"] = fact
    return entry


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(REGEXES), FACTS), min_size=1, max_size=6))
def test_cross_matches_get_each_entry_fast_length(specs: list[tuple[str | None, Any]]) -> None:
    entries = [_entry(number, regex, fact) for number, (regex, fact) in enumerate(specs)]
    plain = copy.deepcopy(entries)
    handed: dict[str, Any] = {}

    def record(*args: Any, **kwargs: Any) -> CrossMatches:
        handed.update(kwargs)
        return CrossMatches({}, {}, {}, 0, 0)

    with RegexRunner() as runner, mock.patch.object(literal_index, "cross_matches", record):
        corpus_cross_matches(entries, FLAGS, "search", runner)
        expected = [fast_length(entry, FLAGS, runner) for entry in plain]
    assert handed["longest"] == expected
