"""Corpus rules stay linear in the corpus: on a one-template corpus, where every pair of
entries looks alike, each entry still gets a bounded number of findings, whose counts add up."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from entrykit.lint.engine import lint
from entrykit.similarity import near_duplicates as dupes

from .conftest import REPO, TODAY, make_config

sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # noqa: E402

COUNT = dupes.EXACT_LIMIT + 200  # above it: the MinHash LSH path
CODES = ["ET209", "ET501", "ET502"]


@pytest.fixture(scope="module")
def one_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object, object]:
    base = tmp_path_factory.mktemp("one-template")
    generate.write_corpus(base / "entries", COUNT, "json", seed=1, one_template=True)
    config = make_config(base, {"select": CODES})
    return base, config, lint(None, config, TODAY, cwd=base, jobs=1)


def _groups(root: Path) -> tuple[dict[str, list[str]], dict[str, str], dict[str, str]]:
    """Paths by the name in their signature (entries that differ only in numbers), and each path's id and name."""
    by_name: dict[str, list[str]] = defaultdict(list)
    ids: dict[str, str] = {}
    names: dict[str, str] = {}
    for path in sorted(root.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        shown = str(path.relative_to(root.parent))
        names[shown] = re.search(r"'(\w+)'", data["signature"]).group(1)  # type: ignore[union-attr]
        by_name[names[shown]].append(shown)
        ids[shown] = data["id"]
    return by_name, ids, names


def test_one_template_findings_are_bounded_per_entry_and_add_up(one_template: tuple[Path, object, object]) -> None:
    base, _, full = one_template
    diagnostics = full.diagnostics  # type: ignore[attr-defined]
    by_name, ids, names = _groups(base / "entries")
    per_file = Counter((d.path, d.code) for d in diagnostics)
    codes = Counter(d.code for d in diagnostics)
    # every regex matches every signature: one summary per entry, with the exact count
    assert codes["ET209"] == COUNT and max(n for (_, c), n in per_file.items() if c == "ET209") == 1
    assert all(f"of {COUNT - 1} other entries" in d.message for d in diagnostics if d.code == "ET209")
    # one id held by a fiftieth of the corpus: each holder names three others and counts the rest
    holders = [p for p, i in ids.items() if i == "python/cuda-oom-0"]
    assert len(holders) == COUNT // generate.ONE_TEMPLATE_ID_EVERY
    assert sorted(d.path for d in diagnostics if d.code == "ET501") == sorted(holders)
    assert all(d.message.endswith(f" and {len(holders) - 4} more") and len(d.related) == 3 for d in diagnostics if d.code == "ET501")
    # entries that differ only in numbers: the closest three each, and one count of the others
    near = [d for d in diagnostics if d.code == "ET502"]
    assert max(n for (_, c), n in per_file.items() if c == "ET502") == dupes.PER_ENTRY + 1
    for path, name in names.items():
        mine = [d for d in near if d.path == path]
        alike = [p for p in by_name[name] if p != path and ids[p] != ids[path]]  # one id twice is ET501's
        if not alike:
            assert mine == []
            continue
        more = [int(re.search(r"of (\d+) more", d.message).group(1)) for d in mine if " more " in d.message]  # type: ignore[union-attr]
        shown = [d for d in mine if " more " not in d.message]
        assert len(shown) == min(dupes.PER_ENTRY, len(alike)) and sum(more) == len(alike) - len(shown)
        assert {r.path for d in shown for r in d.related} == set(sorted(alike, key=lambda p: (ids[p], p))[: len(shown)])
    assert len(near) <= (dupes.PER_ENTRY + 1) * COUNT


def test_a_one_file_run_reports_what_the_full_run_reports_on_it(one_template: tuple[Path, object, object]) -> None:
    base, config, full = one_template
    by_name, ids, _ = _groups(base / "entries")
    holder = next(p for p, i in sorted(ids.items()) if i == "python/cuda-oom-0" and p.endswith("-50.json"))
    plain = by_name[next(iter(sorted(by_name)))][3]
    for target in (holder, plain):
        one = lint([base / target], config, TODAY, cwd=base, jobs=1)
        expected = [d for d in full.diagnostics if d.path == target]  # type: ignore[attr-defined]
        assert one.diagnostics == expected and expected
