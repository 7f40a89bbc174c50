"""Properties of merging over generated entry pairs: nothing lost, deterministic, no dangling references."""

from __future__ import annotations

import copy
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

import yaml
from entrykit import pointer as jp
from entrykit.authoring import merge
from entrykit.authoring.merge_apply import apply_plan, find_entry, plan_merge
from entrykit.config import from_table
from entrykit.lint.engine import lint, load_plan
from entrykit.similarity.phrases import phrase_similarity
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ACTIONS = [
    "Run git init again", "run git init again.", "Reinstall the package", "Pin the package version",
    "Pin the package versions", "Clear the build cache", "Set GIT_DIR explicitly", "Restart the daemon",
]  # fmt: skip
TEXTS = ["It does not help.", "The cause is elsewhere.", "It hides the real problem."]
URLS = [f"https://example.org/{n}" for n in range(6)]
CONDITIONS = ["", "on Windows", "with Docker"]
VERSIONS = ["git>=2.30", "git>=2.40", "git < 2", "python>=3.11"]
MESSAGES = [
    "fatal: not a git repository (or any of the parent directories): .git",
    "fatal: not a git repository: /home/me/project/.git",
    "fatal: not a git repository: '/srv/app/.git'",
    "fatal: Not a git repository (or any parent up to mount point /)",
]
rate = st.integers(0, 100).map(lambda n: n / 100)


def _item(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    fields: dict[str, Any] = {
        "action": st.sampled_from(ACTIONS),
        "fail_rate" if kind == "dead_ends" else "success_rate": rate,
    }
    optional: dict[str, Any] = {
        "condition": st.sampled_from(CONDITIONS),
        "sources": st.lists(st.sampled_from(URLS), unique=True, max_size=3),
        "why_fails" if kind == "dead_ends" else "how": st.sampled_from(TEXTS),
    }
    return st.fixed_dictionaries(fields, optional=optional)


@st.composite
def entries(draw: st.DrawFn, entry_id: str) -> dict[str, Any]:
    dead_ends = draw(st.lists(_item("dead_ends"), max_size=4))
    workarounds = draw(st.lists(_item("workarounds"), max_size=4))
    data: dict[str, Any] = {
        "id": entry_id,
        "signature": draw(st.sampled_from(MESSAGES)),
        "regex": "not a git repository",
        "domain": "git",
        "category": draw(st.sampled_from(["usage_error", "config_error"])),
        "root_cause": draw(st.sampled_from(TEXTS)),
        "dead_ends": dead_ends,
        "workarounds": workarounds,
        "first_seen": draw(st.sampled_from(["2022-01-01", "2023-06-01"])),
        "last_confirmed": draw(st.sampled_from(["2024-01-01", "2025-06-01"])),
        "evidence_count": draw(st.integers(0, 5)),
        "confidence": draw(rate),
        "tags": draw(st.lists(st.sampled_from(["git", "repo", "cli", "env"]), unique=True, max_size=3)),
        "examples": draw(st.lists(st.sampled_from(MESSAGES), unique=True, max_size=2)),
        "versions": [
            {"version": v, "status": draw(st.sampled_from(["active", "deprecated"]))}
            for v in draw(st.lists(st.sampled_from(VERSIONS), unique=True, max_size=3))
        ],
    }
    if draw(st.booleans()):
        data["signature_zh"] = "致命错误：" + data["signature"][-12:]
    if draw(st.booleans()):
        data["root_cause_zh"] = "原因：" + data["root_cause"]
    for name, items in (("workarounds", workarounds), ("dead_ends", dead_ends)):
        for locale in draw(st.lists(st.sampled_from(["zh", "ja"]), unique=True, max_size=2)):
            data[f"{name}_{locale}"] = [f"{locale}:{entry_id}:{n}:{i['action'][:8]}" for n, i in enumerate(items)]
    return data


pairs = st.tuples(entries("git/a"), entries("git/b"))
prefer = st.sampled_from(["into", "other"])


def _items(data: dict[str, Any]) -> list[tuple[str, Any]]:
    """(pointer, value) of every item the merge must not lose."""
    out: list[tuple[str, Any]] = []
    for name in ("dead_ends", "workarounds", "versions", "tags", "examples"):
        for n, item in enumerate(data.get(name, [])):
            out.append((jp.join(name, n), item))
            if isinstance(item, dict):
                out += [(jp.join(name, n, "sources", s), url) for s, url in enumerate(item.get("sources", []))]
    for key, value in data.items():
        if isinstance(value, list) and key.startswith(("workarounds_", "dead_ends_")):
            out += [(jp.join(key, n), text) for n, text in enumerate(value)]
    return out


@settings(max_examples=150, deadline=None)
@given(pairs, prefer)
def test_merge_keeps_every_distinct_item(pair: tuple[dict[str, Any], dict[str, Any]], side: str) -> None:
    a, b = pair
    result = merge.merge_entries(a, b, prefer=side)
    out = result.data
    ledger = {(p.side, p.source): p for p in result.report.ledger}
    assert not result.report.unresolved
    for who, data in (("into", a), ("other", b)):
        for source, value in _items(data):
            placed = ledger.get((who, source))
            assert placed is not None, f"{who} {source} is not in the report"
            found = jp.resolve(out, placed.target)
            kind = source.split("/")[1]
            if kind in ("dead_ends", "workarounds") and source.count("/") == 2:
                assert phrase_similarity(found["action"], value["action"]) >= merge.ITEM_SIMILARITY
            elif "/sources/" in source:
                assert value in jp.resolve(out, jp.parent(placed.target))
            elif kind == "versions":
                assert found["version"] == value["version"]
            elif kind == "examples":
                assert value == found
            elif not placed.merged:
                assert found == value
    for message in [b["signature"], *a["examples"], *b["examples"]]:
        assert message == out["signature"] or message in out["examples"]
    for key, value in out.items():  # every translated list stays aligned with its source list
        if key.startswith(("workarounds_", "dead_ends_")):
            assert len(value) == len(out[key.rsplit("_", 1)[0]])
    if "signature_zh" in b and b["signature"] != a["signature"] and b.get("signature_zh") != a.get("signature_zh"):
        assert ("other", "/signature_zh") in ledger
    assert out["aliases"] == ["git/b"]
    assert out["evidence_count"] == a["evidence_count"] + b["evidence_count"]
    assert out["first_seen"] == min(a["first_seen"], b["first_seen"])
    assert out["last_confirmed"] == max(a["last_confirmed"], b["last_confirmed"])


@settings(max_examples=75, deadline=None)
@given(pairs, prefer)
def test_merge_is_deterministic_and_pure(pair: tuple[dict[str, Any], dict[str, Any]], side: str) -> None:
    a, b = pair
    before = copy.deepcopy(pair)
    first = merge.merge_entries(a, b, prefer=side)
    second = merge.merge_entries(copy.deepcopy(a), copy.deepcopy(b), prefer=side)
    assert (a, b) == before
    assert first.data == second.data
    assert merge.report_text(first, a, b) == merge.report_text(second, a, b)


ids = st.sampled_from(["git/a", "git/b", "git/c", "git/old-b"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs, st.lists(st.tuples(st.sampled_from(["git/a", "git/b", "git/c"]), ids), max_size=6), prefer)
def test_merging_leaves_no_dangling_reference(
    pair: tuple[dict[str, Any], dict[str, Any]], edges: list[tuple[str, str]], side: str
) -> None:
    a, b = pair
    b["aliases"] = ["git/old-b"]
    c = {"id": "git/c", "signature": "You are in 'detached HEAD' state.", "regex": "detached HEAD", "domain": "git",
         "category": "usage_error", "root_cause": "A commit is checked out.", "dead_ends": [], "workarounds": [],
         "first_seen": "2023-01-01", "last_confirmed": "2025-01-01"}  # fmt: skip
    by_id = {"git/a": a, "git/b": b, "git/c": c}
    for source, target in edges:
        if target not in (source, *by_id[source].get("aliases", [])):
            graph = by_id[source].setdefault("transition_graph", {})
            refs = graph.setdefault("leads_to", [])
            if target not in refs:
                refs.append(target)
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        for entry_id, data in by_id.items():
            path = base / "entries" / f"{entry_id}.yaml"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        config = from_table({"root": "entries"}, base)
        loaded = load_plan(None, config, base)
        survivor, other = find_entry("git/a", loaded.entries), find_entry("git/b", loaded.entries)
        result = merge.merge_entries(survivor.data, other.data, prefer=side)
        apply_plan(plan_merge(loaded.entries, survivor, other, result, config, date(2026, 11, 30)))
        after = lint(None, config, date(2026, 11, 30), cwd=base)
        assert [d for d in after.diagnostics if d.code in ("ET501", "ET504")] == []
        assert not (base / "entries/git/b.yaml").exists()
