"""ET209's shortcuts for regexes written alike give what the plain computation gives: the
first texts of a shared window (`Row.shared_first_texts`), the order of its entries
(`_Telling.order`) and the summary's names (`_Telling.such_as`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex.literal_index import Row, Text, _Matched, _rows
from entrykit.rules.regex import _Labels, _most_telling, _such_as, _Telling

from .conftest import lint_corpus

POINTERS = ["/signature", "/examples/0", "/examples/1"]
texts_strategy = st.lists(
    st.builds(Text, st.integers(0, 7), st.sampled_from(POINTERS), st.just("t")), max_size=30
)


def _plain_first(row: Row, among: int) -> list[tuple[int, Text]]:
    """What ET209 took before the shortcut: a walk over the row's texts."""
    first: dict[int, Text] = {}
    for text in row:
        if text.owner not in first or text.pointer == "/signature":
            first[text.owner] = text
        if len(first) > among:
            break
    return list(first.items())


@settings(max_examples=300, deadline=None)
@given(texts=texts_strategy, among=st.integers(1, 5), regexes=st.integers(1, 3))
def test_first_texts_are_the_plain_walk_and_the_shared_window_agrees(
    texts: list[Text], among: int, regexes: int
) -> None:
    # (texts in any order: owners interleaved, examples before signatures)
    matched = _Matched(texts, regexes)
    for owner in range(9):
        row = Row(matched, owner)
        plain = _plain_first(row, among)
        assert list(row.first_texts(among).items()) == plain
        shared = row.shared_first_texts(among)
        if shared is not None:
            assert list(shared.items()) == plain


class _Named:
    def __init__(self, entry_id: str) -> None:
        self.id = entry_id
        self.path = f"{entry_id or 'anonymous'}.yaml"


@settings(max_examples=300, deadline=None)
@given(
    ids=st.lists(st.sampled_from(["net/a", "net/b", "db/a", "db/c", "x/a", ""]), min_size=10, max_size=10),
    groups=st.lists(st.sets(st.integers(0, 9), min_size=1, max_size=8), min_size=1, max_size=4),
    found=st.lists(texts_strategy, min_size=4, max_size=4),
    among=st.integers(1, 4),
    limit=st.integers(1, 3),
)
def test_telling_order_and_names_are_those_of_the_plain_sort(
    ids: list[str], groups: list[set[int]], found: list[list[Text]], among: int, limit: int
) -> None:
    # regexes written alike: each number in one group at most
    members: list[list[int]] = []
    seen: set[int] = set()
    for group in groups:
        members.append(sorted(group - seen))
        seen |= group
    members = [m for m in members if m]
    matched = {key: texts for key, texts in enumerate(found[: len(members)]) if texts}
    rows, _, _ = _rows(members, (matched, {}, {}))
    entries = [_Named(entry_id) for entry_id in ids]
    labels = _Labels(entries)  # type: ignore[arg-type]
    telling = _Telling(labels, rows)
    for number, row in sorted(rows.items()):  # (one `_Telling` for all: as ET209 asks it)
        window = row.shared_first_texts(among)
        if window is None:
            continue
        order = telling.order(number, window)
        assert order == _most_telling(_Labels(entries), rows, number, window)  # type: ignore[arg-type]
        assert telling.such_as(order, window, limit) == _such_as(entries, order[:limit], window)  # type: ignore[arg-type]


def _entry(entry_id: str, signature: str, regex: str) -> str:
    return f'id: {entry_id}\nsignature: "{signature}"\nregex: \'{regex}\'\n'


def _template_corpus() -> dict[str, str]:
    """80 entries of one template in three domains, and a few whose regexes match some of them
    back: the entries past the first `TELLING_AMONG` + 1 share one window, and their domains
    and the entries matching them back differ (files in path order, domains interleaved)."""
    files: dict[str, str] = {}
    domains = ["net", "db", "io"]
    for number in range(80):
        entry_id = f"{domains[number % 3]}/e{number:02d}"
        template = r"^disk \w+ failed on node \d+$"
        files[f"e{number:02d}.yaml"] = _entry(entry_id, f"disk d{number} failed on node {number}", template)
    for number, tail in enumerate(["1\\d", "7\\d", "[25]"]):
        entry_id = f"{domains[number]}/back{number}"
        files[f"back{number}.yaml"] = _entry(entry_id, f"disk b{number} failed on node 9{number}", f"failed on node {tail}$")
    return files


def _et209(tmp_path: Path, max_pairs: int) -> list[tuple[str, str, str, tuple[tuple[str, str], ...]]]:
    result = lint_corpus(tmp_path, _template_corpus(), {"select": ["ET209"], "rules": {"ET209": {"max_pairs": max_pairs}}})
    return [
        (d.path, d.pointer, d.message, tuple((r.path, r.pointer) for r in d.related)) for d in result.diagnostics
    ]


@pytest.mark.parametrize("max_pairs", [5, 2])
def test_et209_on_a_template_corpus_is_what_the_plain_computation_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, max_pairs: int
) -> None:
    fast = _et209(tmp_path / "fast", max_pairs)
    with monkeypatch.context() as patched:
        patched.setattr(Row, "shared_first_texts", lambda self, among: None)  # every regex the plain way
        plain = _et209(tmp_path / "plain", max_pairs)
    assert len(fast) > 80  # (one summary per entry, and the back ones)
    assert fast == plain
