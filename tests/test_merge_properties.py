"""Properties of merging over generated entries: nothing lost, coverage kept, numbers independent of
the order of merges, no new version finding, deterministic, no dangling references."""

from __future__ import annotations

import copy
import itertools
import re
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from entrykit import pointer as jp
from entrykit.authoring import merge
from entrykit.authoring.merge_apply import apply_plan, find_entry, plan_merge
from entrykit.authoring.merge_report import report_text
from entrykit.config import from_table
from entrykit.entry import Entry
from entrykit.lint.engine import check, lint, load_plan
from entrykit.loader import parse_text

pytestmark = pytest.mark.slow

ACTIONS = [
    "Run git init again", "run git init again.", "Reinstall the package", "Pin the package version",
    "Pin the package versions", "Clear the build cache", "Set GIT_DIR explicitly", "Restart the daemon",
    "Use --allow-unrelated-histories flag", "Use --allow-unrelated-histories flag on merge or pull",
]  # fmt: skip
TEXTS = ["It does not help.", "The cause is elsewhere.", "It hides the real problem."]
URLS = [f"https://example.org/{n}" for n in range(6)]
CONDITIONS = ["", "on Windows", "with Docker"]
VERSIONS = {
    "git": ["git>=2.30", "git>=2.40", "git>=2.40,<3", "git 2.x", "git>=2.20,<2.45"],
    "python": ["python>=3.11", "cpython>=3.9", "python>=3.9,<3.13"],
    "torch": ["torch>=2.0", "pytorch>=2.1", "torch>=1.12,<2.3"],
}
MESSAGES = [
    "fatal: not a git repository (or any of the parent directories): .git",
    "fatal: not a git repository: /home/me/project/.git",
    "fatal: not a git repository: '/srv/app/.git'",
    "fatal: Not a git repository (or any parent up to mount point /)",
    "error: pathspec 'main' did not match any file(s) known to git",
]
REGEXES = [
    "not a git repository", r"\(or any of the parent", r"not a git repository: \S+", "(?i)not a git repository",
    "pathspec '.*' did not match", r"mount point /\)", "fatal: Not",
]  # fmt: skip
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
    packages = draw(st.lists(st.sampled_from(sorted(VERSIONS)), unique=True, max_size=3))
    data: dict[str, Any] = {
        "id": entry_id,
        "signature": draw(st.sampled_from(MESSAGES)),
        "regex": draw(st.sampled_from(REGEXES)),
        "domain": "git",
        "category": draw(st.sampled_from(["usage_error", "config_error"])),
        "root_cause": draw(st.sampled_from(TEXTS)),
        "dead_ends": dead_ends,
        "workarounds": workarounds,
        "first_seen": draw(st.sampled_from(["2022-01-01", "2023-06-01"])),
        "last_confirmed": draw(st.sampled_from(["2024-01-01", "2025-06-01"])),
        "evidence_count": draw(st.integers(0, 5)),
        "confidence": draw(rate),
        "fix_success_rate": draw(rate),
        "tags": draw(st.lists(st.sampled_from(["git", "repo", "cli", "env"]), unique=True, max_size=3)),
        "examples": draw(st.lists(st.sampled_from(MESSAGES), unique=True, max_size=2)),
        # one row per package: an input's own table has no ET404 of its own
        "versions": [
            {"version": draw(st.sampled_from(VERSIONS[p])), "status": draw(st.sampled_from(["active", "deprecated"]))}
            for p in packages
        ],
    }
    for row in data["versions"]:
        if row["status"] == "deprecated":
            row["deprecated"] = None
            row["status"] = "active"
    if draw(st.booleans()):
        data["signature_zh"] = "致命错误：" + data["signature"][-12:]
    if draw(st.booleans()):
        data["root_cause_zh"] = "原因：" + data["root_cause"]
    for name, items in (("workarounds", workarounds), ("dead_ends", dead_ends)):
        for locale in draw(st.lists(st.sampled_from(["zh", "ja"]), unique=True, max_size=2)):
            data[f"{name}_{locale}"] = [f"{locale}:{entry_id}:{n}:{i['action'][:8]}" for n, i in enumerate(items)]
    return data


pairs = st.tuples(entries("git/a"), entries("git/b"))
triples = st.tuples(entries("git/a"), entries("git/b"), entries("git/c"))
prefer = st.sampled_from(["into", "other"])


def _strings(value: Any, pointer: str = "") -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(pointer, value)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(v, jp.child(pointer, k))]
    if isinstance(value, list):
        return [s for i, v in enumerate(value) for s in _strings(v, jp.child(pointer, i))]
    return []


def _ancestors(pointer: str) -> list[str]:
    out = [pointer]
    while pointer:
        pointer = jp.parent(pointer)
        out.append(pointer)
    return out


@settings(max_examples=120, deadline=None)
@given(pairs, prefer)
def test_every_text_is_kept_or_named_in_full(pair: tuple[dict[str, Any], dict[str, Any]], side: str) -> None:
    a, b = pair
    result = merge.merge_entries(a, b, prefer=side)
    assert not result.report.unresolved
    kept = {text for _, text in _strings(result.data)}
    placed = {(p.side, p.source) for p in result.report.ledger}
    named = {(d.side, d.pointer): d.value for d in result.report.dropped}
    for label, data in zip(result.labels, (a, b), strict=True):
        for pointer, text in _strings(data):
            if text in kept or not text.strip():
                continue
            assert any((label, p) in named or (label, p) in placed for p in _ancestors(pointer)), f"{label} {pointer} {text!r}"
    for message in [b["signature"], *a["examples"], *b["examples"]]:
        assert message == result.data["signature"] or message in result.data["examples"]
    for key, value in result.data.items():  # every translated list stays aligned with its source list
        if key.startswith(("workarounds_", "dead_ends_")):
            assert len(value) == len(result.data[key.rsplit("_", 1)[0]])
    assert result.data["aliases"] == ["git/b"]
    assert result.data["evidence_count"] == a["evidence_count"] + b["evidence_count"]


@settings(max_examples=80, deadline=None)
@given(pairs, prefer)
def test_regex_coverage_after_contains_coverage_before(pair: tuple[dict[str, Any], dict[str, Any]], side: str) -> None:
    a, b = pair
    result = merge.merge_entries(a, b, prefer=side)
    pattern = re.compile(result.data["regex"])
    for data in (a, b):
        own = re.compile(data["regex"])
        for message in [d["signature"] for d in (a, b)] + [m for d in (a, b) for m in d["examples"]]:
            if own.search(message):
                assert pattern.search(message), (data["regex"], result.data["regex"], message)
    assert result.report.regex is not None and result.report.regex.lost == []


# Regexes of one message, alike but for one part: a class, a repeat or a branch narrower or
# wider than the other's, as near-duplicate entries write them.
_WORDS = ["port", "exit code", "manifest", "not found", "nil", "failed"]
_PARTS = [
    "\\d+", "\\d", "[0-9]", "\\d{1,2}", ".*", ".+", "\\S+", "\\w+", "[a-z]+", "[a-z]{2,3}", " ", "(unknown|not found)",
    "(?:error|failed)",
]  # fmt: skip


@st.composite
def _alike_regexes(draw: st.DrawFn) -> tuple[str, str]:
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=2, max_size=4))
    joins = draw(st.lists(st.sampled_from(_PARTS), min_size=len(words) - 1, max_size=len(words) - 1))
    regexes = []
    for _ in range(2):
        changed = list(joins)
        changed[draw(st.integers(0, len(joins) - 1))] = draw(st.sampled_from(_PARTS))
        extra = draw(st.sampled_from(["", "", "|nil", "|unknown"]))
        regexes.append("".join(w + j for w, j in zip(words, [*changed, ""], strict=True)) + extra)
    return regexes[0], regexes[1]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_alike_regexes(), st.data())
def test_texts_an_absorbed_regex_finds_are_found_after_the_merge(regexes: tuple[str, str], data: st.DataObject) -> None:
    """Texts written from the absorbed regex (Hypothesis, not the merge's own spelling) that it
    finds, the merged regex finds: the merge lost no lookup it does not report. The messages
    are a text of each regex, the absorbed one's found by the survivor's regex where one is."""
    survivor, absorbed = regexes
    assume(survivor != absorbed)
    texts = data.draw(st.lists(st.from_regex(re.compile(absorbed)), min_size=8, max_size=8), label="texts")
    signatures = [data.draw(st.from_regex(re.compile(r)).filter(lambda t: "\n" not in t)) for r in regexes]
    shared = [t for t in texts if re.search(survivor, t) and "\n" not in t]
    if shared:
        signatures[1] = shared[0]
    a, b = (
        {"id": f"go/{n}", "signature": sig, "regex": r, "domain": "go", "category": "usage_error", "root_cause": TEXTS[0],
         "dead_ends": [], "workarounds": [], "first_seen": "2024-01-01", "last_confirmed": "2025-01-01"}
        for n, sig, r in zip("ab", signatures, regexes, strict=True)
    )  # fmt: skip
    merged = re.compile(merge.merge_entries(a, b, prefer="into").data["regex"])
    for text in texts:
        if re.search(absorbed, text):
            assert merged.search(text), (survivor, absorbed, merged.pattern, text)


def _numbers(data: dict[str, Any]) -> dict[str, Any]:
    items = {
        (name, a_item["action"].casefold().rstrip(".")): a_item.get("fail_rate", a_item.get("success_rate"))
        for name in ("dead_ends", "workarounds") for a_item in data[name]
    }  # fmt: skip
    return {"confidence": data["confidence"], "fix_success_rate": data["fix_success_rate"], "evidence_count": data["evidence_count"], "items": items}


@settings(max_examples=60, deadline=None)
@given(triples)
def test_one_pass_and_every_order_of_two_way_merges_agree_on_numbers(triple: tuple[dict[str, Any], ...]) -> None:
    a, b, c = triple
    one_pass = _numbers(merge.merge_entries(a, [b, c], prefer="into").data)
    for first, second in itertools.permutations((b, c)):
        step = merge.merge_entries(merge.merge_entries(a, first, prefer="into").data, second, prefer="into").data
        numbers = _numbers(step)
        for key in ("confidence", "fix_success_rate", "evidence_count"):
            assert numbers[key] == one_pass[key]
        for action, value in numbers["items"].items():  # items both merges keep under one wording
            if action in one_pass["items"]:
                assert value == one_pass["items"][action], action


def _version_findings(data: dict[str, Any]) -> set[tuple[str, str]]:
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    parsed = parse_text(text, "yaml")
    entry = Entry("git/x.yaml", Path("/nonexistent/git/x.yaml"), "yaml", parsed.data, text, parsed.needs_positions)
    config = from_table({"root": "entries", "select": ["ET401", "ET404", "ET405"]}, Path("/nonexistent"))
    return {(d.code, d.message) for d in check([entry], [entry], config, date(2026, 11, 30))}


@settings(max_examples=60, deadline=None)
@given(pairs, prefer)
def test_a_merge_adds_no_version_finding(pair: tuple[dict[str, Any], dict[str, Any]], side: str) -> None:
    a, b = pair
    result = merge.merge_entries(a, b, prefer=side)
    after = _version_findings(result.data)
    assert [f for f in after if f[0] in ("ET404", "ET405")] == []
    before = _version_findings(a) | _version_findings(b)
    assert {code for code, _ in after} <= {code for code, _ in before}


@settings(max_examples=60, deadline=None)
@given(pairs, prefer)
def test_merge_is_deterministic_and_pure(pair: tuple[dict[str, Any], dict[str, Any]], side: str) -> None:
    a, b = pair
    before = copy.deepcopy(pair)
    first = merge.merge_entries(a, b, prefer=side)
    second = merge.merge_entries(copy.deepcopy(a), copy.deepcopy(b), prefer=side)
    assert (a, b) == before
    assert first.data == second.data
    assert report_text(first) == report_text(second)


ids = st.sampled_from(["git/a", "git/b", "git/c", "git/old-b"])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
        apply_plan(plan_merge(loaded.entries, survivor, other, result, config, date(2026, 11, 30)), config.root)
        after = lint(None, config, date(2026, 11, 30), cwd=base)
        assert [d for d in after.diagnostics if d.code in ("ET501", "ET504")] == []
        assert not (base / "entries/git/b.yaml").exists()
