"""ET209's summary names the most telling entries a regex also matches: those whose regex
matches back first, then those of other domains, then the rest, each group by id."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.rules.regex import _Labels, _most_telling

from .conftest import lint_corpus


def _entry(entry_id: str, signature: str, regex: str) -> str:
    return f'id: {entry_id}\nsignature: "{signature}"\nregex: \'{regex}\'\n'


def test_summary_names_mutual_then_other_domains_then_own_domain(tmp_path: Path) -> None:
    files = {
        "net/broad.yaml": _entry("net/broad", "connection refused by peer", "connection refused"),
        # same domain, matched one way only
        "net/b.yaml": _entry("net/b", "connection refused on port 2", "port 2"),
        "net/a.yaml": _entry("net/a", "connection refused on port 1", "port 1"),
        # other domains, matched one way only
        "redis/z.yaml": _entry("redis/z", "connection refused while saving", "while saving"),
        "db/y.yaml": _entry("db/y", "connection refused at startup", "at startup"),
        # same domain and matching back: the pair a lookup cannot tell apart
        "net/mutual.yaml": _entry("net/mutual", "connection refused by peer again", "refused by peer"),
    }
    result = lint_corpus(tmp_path, files, {"select": ["ET209"], "rules": {"ET209": {"max_pairs": 4}}})
    summary = [d for d in result.diagnostics if d.path.endswith("net/broad.yaml")]
    assert len(summary) == 1
    assert "of 5 other entries, such as `net/mutual`, `db/y`, `redis/z`, `net/a`" in summary[0].message
    assert [place.path.rsplit("/", 2)[-2:] for place in summary[0].related] == [
        ["net", "mutual.yaml"],
        ["db", "y.yaml"],
        ["redis", "z.yaml"],
        ["net", "a.yaml"],
    ]


class _Back:
    """A row that matches back the entries it names (`Row.matches_owner`'s one question)."""

    def __init__(self, owners: set[int]) -> None:
        self.owners = owners

    def matches_owner(self, owner: int) -> bool:
        return owner in self.owners


class _Named:
    def __init__(self, entry_id: str) -> None:
        self.id = entry_id
        self.path = f"{entry_id}.yaml"


@settings(max_examples=200, deadline=None)
@given(
    ids=st.lists(st.sampled_from(["net/a", "net/b", "db/a", "db/c", "x/a", ""]), min_size=2, max_size=12),
    backs=st.dictionaries(st.integers(0, 11), st.sets(st.integers(0, 11), max_size=4), max_size=12),
    order=st.randoms(use_true_random=False),
)
def test_most_telling_is_a_stable_sort_by_mutual_domain_and_name(
    ids: list[str], backs: dict[int, set[int]], order: random.Random
) -> None:
    # (ids repeat: entries alike in all three keys must keep the order they came in)
    labels = _Labels([_Named(entry_id) for entry_id in ids])  # type: ignore[misc]
    matched = {owner: _Back(of) for owner, of in backs.items() if owner < len(ids)}
    number, owners = 0, list(range(1, len(ids)))
    order.shuffle(owners)

    def key(owner: int) -> tuple[bool, bool, str]:
        other_domain, name = labels[owner]
        back = matched.get(owner)
        return (not (back is not None and back.matches_owner(number)), other_domain == labels[number][0], name)

    assert _most_telling(labels, matched, number, owners) == sorted(owners, key=key)  # type: ignore[arg-type]
