"""ET206 reads what it needs of an entry's facts without the detours it took before: whether
the regex compiles (`_compiles`) is `regex_fact`'s answer, and the fact is left as it leaves it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.entry import Entry
from entrykit.regex.literal_index import regex_fact
from entrykit.regex.runner import RegexRunner
from entrykit.rules.regex import _compiles

FLAGS = 2  # re.IGNORECASE
# known facts as a worker (or a cache read back from JSON: lists) leaves them, some for other flags
FACTS = st.one_of(
    st.none(),
    st.just("not a fact"),
    st.builds(
        lambda flags, ok, as_list: (list if as_list else tuple)((flags, ok, "abc", ["abc"], 3)),
        st.sampled_from([FLAGS, 0]),
        st.sampled_from([True, False, 0, 1]),
        st.booleans(),
    ),
)


@settings(max_examples=100, deadline=None)
@given(regex=st.sampled_from(["abc", "a(b", "x+y", None]), fact=FACTS)
def test_compiles_is_regex_facts_answer(regex: str | None, fact: Any) -> None:
    entry = Entry("e.yaml", Path("e.yaml"), "yaml", {"regex": regex} if regex is not None else {}, "")
    if fact is not None:
        entry.facts["regex"] = fact
    plain = copy.deepcopy(entry)
    with RegexRunner() as runner:
        assert _compiles(entry, FLAGS, runner) is regex_fact(plain, FLAGS, runner)[0]
    assert entry.facts == plain.facts
