"""Reading an action run by run gives what reading its hidden text whole gives: a run of
lowercase snake_case is one code span without `_CODE`, and each run's items are read once."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.similarity import actions

_RUN = st.text(alphabet=st.sampled_from([*"ab_z09_Y.-(é"]), max_size=12)


@settings(max_examples=400, deadline=None)
@given(_RUN)
@example("replica_device")
@example("_foo")
@example("foo_")
@example("a__b")
@example("CUDA_x")
def test_a_snake_run_is_the_one_span_code_finds(run: str) -> None:
    """Where `_one_snake_span` says so, `_CODE` finds one span, the whole run."""
    if actions._one_snake_span(run):
        assert [m.group(0) for m in actions._CODE.finditer(run)] == [run]
        assert actions._run_codes(run) == (["", ""], [run])


def _whole(text: str) -> list[actions._Item]:
    """The items of the text's hidden form, read whole (the plain reading)."""
    hidden, codes = actions.hide_codes(text)
    return actions._items_of(actions._words(), actions._TOKEN.findall(hidden), codes)


_WORDS = st.sampled_from(
    ["Set", "not", "--force", "-f", "A_B=1", "foo.bar()", "a.b-", "-", "--", "x-", "-x", "(not", "e.g.", "Peru", "3",
     "1.2.0", "90%", "replica_device", "host_account,", "camelCase", "to", "é", "", ",", "—", "a.b-c.d", "f()-g()"]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(_WORDS, max_size=12).map(" ".join))
@example("Do it - then rest")
@example("Do it - - then rest")
@example("a.b- next")
@example("- start")
@example("end -")
def test_items_read_run_by_run_are_those_of_the_whole_text(text: str) -> None:
    """`_spaced_items` gives the items of the whole hidden text, or None (and the whole text is read)."""
    words = actions._words()
    for _ in range(2):  # (the second time from the runs kept)
        found = actions._spaced_items(words, text)
        if found is not None:
            assert found == _whole(text)
    assert actions._action_tokens.__wrapped__(text) == actions._read(_whole(text))
