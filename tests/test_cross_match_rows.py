"""`_rows` sorts out each regex's texts that timed out or failed only for the groups that have
any: what it returns is what sorting them out for every regex gives."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex.literal_index import Text, _rows

TEXTS = st.lists(st.builds(Text, st.integers(0, 7), st.sampled_from(["/signature", "/examples/0"]), st.just("t")), max_size=6)


def _plain_rows(
    groups: list[list[int]],
    ran: tuple[dict[int, list[Text]], dict[int, list[Text]], dict[int, list[tuple[Text, str]]]],
    asked: Callable[[int], Callable[[Text], bool] | None],
) -> tuple[dict[int, list[Text]], dict[int, list[Text]], dict[int, list[tuple[Text, str]]]]:
    """Every member of every group, each of the three lists worked out for it."""
    matched, timeouts, errors = ran
    rows, slow, failed = {}, {}, {}
    for key, members in enumerate(groups):
        for number in members:
            keep = asked(number)

            def wanted(text: Text, number: int = number, keep: Callable[[Text], bool] | None = keep) -> bool:
                return text.owner != number and (keep is None or keep(text))

            row = [t for t in matched.get(key, ()) if wanted(t)]
            late = [t for t in timeouts.get(key, ()) if wanted(t)]
            bad = [(t, e) for t, e in errors.get(key, ()) if wanted(t)]
            for out, found in ((rows, row), (slow, late), (failed, bad)):
                if found:
                    out[number] = found  # type: ignore[index]
    return dict(sorted(rows.items())), dict(sorted(slow.items())), dict(sorted(failed.items()))


@settings(max_examples=300, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 3), min_size=1, max_size=4),
    matched=st.lists(TEXTS, min_size=4, max_size=4),
    timeouts=st.lists(TEXTS, min_size=4, max_size=4),
    errors=st.lists(TEXTS, min_size=4, max_size=4),
    filtered=st.booleans(),
    kept_owners=st.sets(st.integers(0, 7)),
)
def test_rows_are_the_plain_per_regex_lists(
    sizes: list[int],
    matched: list[list[Text]],
    timeouts: list[list[Text]],
    errors: list[list[Text]],
    filtered: bool,
    kept_owners: set[int],
) -> None:
    groups, number = [], 0
    for size in sizes:
        groups.append(list(range(number, number + size)))
        number += size
    ran = (
        {key: texts for key, texts in enumerate(matched) if texts},
        {key: texts for key, texts in enumerate(timeouts) if texts},
        {key: [(t, "boom") for t in texts] for key, texts in enumerate(errors) if texts},
    )

    def asked(number: int) -> Callable[[Text], bool] | None:
        return (lambda text: (text.owner + number) % 3 != 0 or text.owner in kept_owners) if filtered else None

    rows, slow, failed = _rows(groups, ran, asked)
    plain_rows, plain_slow, plain_failed = _plain_rows(groups, ran, asked)
    assert {n: list(row) for n, row in rows.items()} == plain_rows
    assert (slow, failed) == (plain_slow, plain_failed)
