"""Near-duplicate detection: normalisation, candidates, scoring, the `dupes` command, real and generated corpora."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from entrykit.cli import ExitCode, cli
from entrykit.entry import Entry
from entrykit.loader import discover, load
from entrykit.regex.runner import shared_runner
from entrykit.similarity import near_duplicates as dupes

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import deadends  # noqa: E402
import generate  # noqa: E402


def entry(data: dict, path: str | None = None) -> Entry:
    name = path or f"{data['id']}.yaml"
    return Entry(name, Path("/corpus") / name, "yaml", data, "")


@pytest.mark.parametrize(
    ("signature", "normalized"),
    [
        (
            "RuntimeError: FSDP parameter mismatch across ranks. Expected parameter 'model.fc.weight' "
            "to have shape [100, 256] but got [100, 128] on rank 2.",
            "runtimeerror fsdp parameter mismatch across ranks expected parameter vquoted "
            "to have shape vshape but got vshape on rank vnum",
        ),
        ("Segfault at 0x7ffd5e8c in /usr/lib/libfoo.so.1", "segfault at vhex in vpath"),
        ("see https://example.org/a?b=1 for `cfg.yaml`", "see vurl for vquoted"),
        ('level=error msg="cannot open cache"', "level error msg cannot open cache"),
        ("No module named 'X'", "no module named vquoted"),
    ],
)
def test_normalize_signature(signature: str, normalized: str) -> None:
    assert dupes.normalize_signature(signature) == normalized


@pytest.mark.parametrize(
    ("entry_id", "key"),
    [
        ("nginx/ssl-certificate-error-nginx1.24-linux", "nginx/ssl-certificate-error"),
        ("nginx/ssl-certificate-error-nginx1-linux", "nginx/ssl-certificate-error"),
        ("python/modulenotfounderror-py311-linux", "python/modulenotfounderror"),
        ("communication/eu-roaming-like-at-home-at", "communication/eu-roaming-like-at-home"),
        ("python/import-error-000017", None),
        ("pip/not-logged-in", None),
        ("pytorch/fsdp-param-mismatch", None),
    ],
)
def test_variant_key(entry_id: str, key: str | None) -> None:
    assert dupes.variant_key(entry_id) == key


def test_small_corpora_are_compared_exactly() -> None:
    sets = [frozenset({"a", "b", "c", "d"}), frozenset({"a", "b", "c", "e"}), frozenset({"x", "y"}), frozenset()]
    assert list(dupes.lsh_candidates(sets, 0.5)) == [(0, 1)]  # Jaccard 3/5


def test_lsh_finds_similar_sets_without_trying_every_pair() -> None:
    rng = random.Random(3)
    vocabulary = [f"w{n}" for n in range(20000)]
    sets = [frozenset(rng.sample(vocabulary, 20)) for _ in range(3000)]
    near = set(list(sets[0])[:18]) | {"x1", "x2"}
    sets.append(frozenset(near))  # Jaccard 18/22 with sets[0]
    sets.append(frozenset(sets[5]))  # identical to sets[5]
    pairs = set(dupes.lsh_candidates(sets, 0.5))
    assert (0, 3000) in pairs and (5, 3001) in pairs
    assert len(pairs) < 100  # 3002 sets hold 4.5 million pairs


def test_score_reasons_for_the_seed_pair() -> None:
    import yaml

    a = entry(yaml.safe_load((REPO / "entries/pytorch/fsdp-param-mismatch.yaml").read_text(encoding="utf-8")))
    b = entry(yaml.safe_load((REPO / "entries/pytorch/fsdp-parameter-mismatch.yaml").read_text(encoding="utf-8")))
    pair = dupes.score_pair(a, b)
    codes = [r.code for r in pair.reasons]
    assert codes[:2] == ["similar-signature", "similar-id"] and "same-domain" in codes
    assert 0.6 <= pair.score < 1


def test_subset_of_a_message_is_not_a_duplicate() -> None:
    # A token-set ratio scores any subset at 100; shingle Jaccard does not.
    short = entry({"id": "api/not-found", "domain": "api", "signature": "NOT_FOUND: resource not found"})
    long = entry({
        "id": "android/resource-linking-failed", "domain": "android",
        "signature": "error: resource not found: android:attr/lStar. AAPT: error: resource linking failed "
        "(NOT_FOUND) while processing values-v31.xml",
    })
    assert dupes.find_duplicates([short, long]) == []


def test_pairs_related_by_alias_are_not_reported() -> None:
    sig = "fatal: not a git repository (or any of the parent directories): .git"
    a = entry({"id": "git/not-a-repo", "domain": "git", "signature": sig, "aliases": ["git/no-repo"]})
    b = entry({"id": "git/no-repo-here", "domain": "git", "signature": sig})
    assert len(dupes.find_duplicates([a, b])) == 1
    c = entry({"id": "git/no-repo", "domain": "git", "signature": sig})
    assert [(p.a.id, p.b.id) for p in dupes.find_duplicates([a, c])] == []


def test_clusters_join_pairs() -> None:
    sig = "fatal: not a git repository (or any of the parent directories): .git"
    found = dupes.find_duplicates([entry({"id": f"git/repo-{n}", "domain": "git", "signature": sig}) for n in "abc"])
    groups = dupes.clusters(found)
    assert len(found) == 3 and len(groups) == 1 and [e.id for e in groups[0].members] == ["git/repo-a", "git/repo-b", "git/repo-c"]


def test_dupes_command_reports_the_fsdp_pair_with_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    args = ["dupes", "entries", "tests/fixtures/seed001/json", "tests/fixtures/seed001/yaml"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == ExitCode.FINDINGS
    assert "`pytorch/fsdp-param-mismatch` ~ `pytorch/fsdp-parameter-mismatch`" in result.output
    assert "similar signatures (Jaccard 0.51)" in result.output and "similar ids (0.90)" in result.output
    report = json.loads(CliRunner().invoke(cli, [*args, "--format", "json"], catch_exceptions=False).output)
    ids = {frozenset((p["a"]["id"], p["b"]["id"])) for c in report["clusters"] for p in c["pairs"]}
    assert frozenset(("pytorch/fsdp-param-mismatch", "pytorch/fsdp-parameter-mismatch")) in ids
    same = [p for c in report["clusters"] for p in c["pairs"] if p["a"]["id"] == p["b"]["id"]]
    assert len(same) == 3 and all("same-id" in [r["code"] for r in p["reasons"]] for p in same)
    bundled = sum(1 for p in (REPO / "entries").rglob("*") if p.suffix in (".yaml", ".json"))
    assert report["entries"] == bundled + 2


def test_dupes_command_on_a_clean_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "entries" / "git"
    folder.mkdir(parents=True)
    (folder / "a.yaml").write_text('id: git/a\nsignature: "fatal: bad object HEAD"\n', encoding="utf-8")
    (folder / "b.yaml").write_text('id: git/b\nsignature: "error: pathspec did not match"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["dupes", "--root", "entries"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN
    assert result.output == "No near-duplicates among 2 entries.\n"


def test_planted_duplicates_are_found(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    generate.write_corpus(root, 3000, "json", seed=5, duplicates=0.05)
    planted = {frozenset((p["a"], p["b"])) for p in json.loads((tmp_path / "corpus.duplicates.json").read_text())["pairs"]}
    entries = [load(p, str(p)) for p in discover([root])]
    found = {frozenset((p.a.id, p.b.id)) for p in dupes.find_duplicates(entries)}  # type: ignore[arg-type]
    hits = len(found & planted)
    assert len(planted) > 100
    assert hits / len(planted) >= 0.9 and hits / len(found) >= 0.9


def test_deadends_sample_pairs(deadends_dir: Path) -> None:
    data = deadends.convert(deadends_dir)
    entries = [entry(d) for d in data]
    found = {frozenset((p.a.id, p.b.id)): p for p in dupes.find_duplicates(entries)}
    same = found[frozenset(("cmake/compiler-not-found", "cmake/no-cxx-compiler-found"))]
    assert same.reasons[0].code == "same-signature"
    assert frozenset(("api/cors-preflight-failure", "networking/cors-preflight-failed")) in found
    variant = found[frozenset(("nginx/ssl-certificate-error-nginx1-linux", "nginx/ssl-certificate-error-nginx1.24-linux"))]
    assert "same-slug" in [r.code for r in variant.reasons]


def test_regexes_matching_each_others_signature_pair_entries_across_domains() -> None:
    a = entry({"id": "redis/cluster-redirect", "domain": "redis", "signature": "MOVED 3999 127.0.0.1:6381", "regex": "MOVED|ASK"})
    b = entry({"id": "net/moved", "domain": "net", "signature": "ASK 3999 10.0.0.2:6381 redirection", "regex": "(MOVED|ASK) \\d+"})
    assert dupes.find_duplicates([a, b], matched=[]) == []  # different domains, different words
    assert dupes.signature_matches([a, b], 0, "search", shared_runner()) == {(0, 1), (1, 0)}
    found = dupes.find_duplicates([a, b])  # the regex index finds the pair by itself
    assert "regex-matches-both" in [r.code for r in found[0].reasons]
