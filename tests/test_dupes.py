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
from entrykit.lint.engine import load_plan
from entrykit.loader import discover, load
from entrykit.regex.runner import shared_runner
from entrykit.similarity import dupes_report
from entrykit.similarity import near_duplicates as dupes

from .conftest import REPO, make_config

sys.path.insert(0, str(REPO / "benchmarks"))
import deadends  # noqa: E402
import generate  # noqa: E402


def entry(data: dict, path: str | None = None) -> Entry:
    name = path or f"{data['id']}.yaml"
    return Entry(name, Path("/corpus") / name, "yaml", data, "")


@pytest.mark.parametrize(
    ("signature", "normalized"),
    [
        (  # names stay; numbers, shapes, sizes with their units become placeholders
            "RuntimeError: FSDP parameter mismatch across ranks. Expected parameter 'model.fc.weight' "
            "to have shape [100, 256] but got [100, 128] on rank 2 (20.00 MiB).",
            "runtimeerror fsdp parameter mismatch across ranks expected parameter model fc weight "
            "to have shape vshape but got vshape on rank vnum vnum",
        ),
        ("Segfault at 0x7ffd5e8c in /usr/lib/libfoo.so.1", "segfault at vhex in vpath"),
        ("see https://example.org/a?b=1 for `cfg.yaml`", "see vurl for vpath"),
        ('level=error msg="cannot open cache"', "level error msg cannot open cache"),
        ("No module named 'X'", "no module named x"),
        ("TypeError: 'coroutine' object is not subscriptable", "typeerror coroutine object is not subscriptable"),
        ("out of memory: 16GB used", "out of memory vnum used"),
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


def test_one_lead_with_other_details_is_no_pair_by_its_ids_alone() -> None:
    """The bundled FSDP entries share their first words and near-identical ids, but one is
    about shapes, the other about names: their signatures alone (Jaccard 0.37) make no pair."""
    import yaml

    a = entry(yaml.safe_load((REPO / "entries/pytorch/fsdp-param-mismatch.yaml").read_text(encoding="utf-8")))
    b = entry(yaml.safe_load((REPO / "entries/pytorch/fsdp-parameter-mismatch.yaml").read_text(encoding="utf-8")))
    pair = dupes.score_pair(a, b)
    assert [r.code for r in pair.reasons] == ["similar-signature"] and pair.score < dupes.MIN_BASE
    shapes = "RuntimeError: FSDP parameter mismatch across ranks. Expected parameter 'model.fc.weight' to have shape [64, 32] but got [64, 16] on rank 5."
    c = entry({**a.data, "id": "pytorch/fsdp-shapes-differ", "signature": shapes})
    same = dupes.score_pair(a, c)
    assert same.reasons[0].code == "same-signature" and same.score == 1.0


def test_subset_of_a_message_is_not_a_duplicate() -> None:
    # A token-set ratio scores any subset at 100; shingle Jaccard does not.
    short = entry({"id": "api/not-found", "domain": "api", "signature": "NOT_FOUND: resource not found"})
    long = entry({
        "id": "android/resource-linking-failed", "domain": "android",
        "signature": "error: resource not found: android:attr/lStar. AAPT: error: resource linking failed "
        "(NOT_FOUND) while processing values-v31.xml",
    })
    assert dupes.find_duplicates([short, long]).pairs == []


def test_pairs_related_by_alias_are_not_reported() -> None:
    sig = "fatal: not a git repository (or any of the parent directories): .git"
    a = entry({"id": "git/not-a-repo", "domain": "git", "signature": sig, "aliases": ["git/no-repo"]})
    b = entry({"id": "git/no-repo-here", "domain": "git", "signature": sig})
    assert len(dupes.find_duplicates([a, b]).pairs) == 1
    c = entry({"id": "git/no-repo", "domain": "git", "signature": sig})
    assert dupes.find_duplicates([a, c]).pairs == []


def test_one_signature_is_reported_even_when_linked_but_similar_ones_are_not() -> None:
    sig = "fatal: not a git repository (or any of the parent directories): .git"
    link = {"frequently_confused_with": [{"error_id": "git/no-repo-here", "distinction": "boilerplate"}]}
    a = entry({"id": "git/not-a-repo", "domain": "git", "signature": sig, "transition_graph": link})
    b = entry({"id": "git/no-repo-here", "domain": "git", "signature": sig + "!"})
    assert [r.code for r in dupes.find_duplicates([a, b]).pairs[0].reasons][0] == "same-signature"
    c = entry({"id": "git/no-repo-here", "domain": "git", "signature": sig + " (or a worktree)"})
    assert dupes.score_pair(a, c).score >= 0.6  # alike enough, but the link says they are known
    assert dupes.find_duplicates([a, c]).pairs == []


def test_similar_ids_alone_make_no_pair() -> None:
    a = entry({"id": "llm/prompt-injection-detected", "domain": "llm", "signature": "Prompt injection attempt detected in user input"})
    b = entry({"id": "security/sql-injection-detected", "domain": "security", "signature": "SQL injection detected in user input"})
    assert dupes.score_pair(a, b).score < 0.6  # across domains alike slugs name a topic
    c = entry({"id": "docker/manifest-not-found", "domain": "docker", "signature": "Error response from daemon: manifest for image:tag not found"})
    d = entry({"id": "docker/network-not-found", "domain": "docker", "signature": "Error response from daemon: network X not found"})
    pair = dupes.score_pair(c, d)
    assert pair.score < 0.6 and "similar-id" not in [r.code for r in pair.reasons]  # no support below MIN_BASE


def test_a_named_value_makes_a_family_and_a_placeholder_does_not() -> None:
    made = [
        entry({"id": f"emergency/911-{c.lower().replace(' ', '-')}", "domain": "emergency",
               "signature": f"AI tells someone in {c} to call 911 in an emergency"})
        for c in ("Vietnam", "Hong Kong", "South Africa", "Peru")
    ]
    found = dupes.find_duplicates(made)
    assert found.pairs == [] and len(found.families) == 1
    family = found.families[0]
    assert family.template == "ai tells someone in … to call vnum in an emergency"
    assert [" ".join(v) for v in family.values] == ["", "peru", "south africa", "vietnam"]  # beside hong-kong
    generic = entry({"id": "python/no-attribute", "domain": "python", "signature": "AttributeError: 'NoneType' object has no attribute 'method'"})
    split = entry({"id": "python/no-attribute-split", "domain": "python", "signature": "AttributeError: 'NoneType' object has no attribute 'split'"})
    tensor = entry({"id": "python/tensor-no-split", "domain": "python", "signature": "AttributeError: 'Tensor' object has no attribute 'split'"})
    found = dupes.find_duplicates([generic, split, tensor])
    assert {(p.a.id, p.b.id) for p in found.pairs} == {("python/no-attribute", "python/no-attribute-split")}
    assert [sorted(found.entries[n].id for n in f.members) for f in found.families] == [
        ["python/no-attribute-split", "python/tensor-no-split"]
    ]


def test_each_entry_gets_its_closest_pairs_and_a_count_of_the_rest() -> None:
    sig = "fatal: not a git repository (or any of the parent directories): .git"
    made = [entry({"id": f"git/repo-{n:02d}", "domain": "git", "signature": sig}) for n in range(12)]
    made.append(entry({"id": "git/repo-00", "domain": "git", "signature": sig}, "git/repo-00-again.yaml"))
    found = dupes.find_duplicates(made, per_entry=3)
    for number, shown in found.closest.items():
        others = sorted(p.b.id if p.a is made[number] else p.a.id for p in shown)
        assert len(shown) == 3
        assert others == sorted(others)[:3] and made[number].id not in others
    assert found.counts[1] == 12 and found.more(1) == 9  # 13 entries: all but itself
    assert found.counts[0] == 11 and found.counts[12] == 11  # one id twice is ET501's, not a pair
    both = dupes.find_duplicates(made, per_entry=3, same_id=True)
    assert both.counts[0] == 12 and "same-id" in [r.code for r in both.clique_pair(0, 12).reasons]


def test_clusters_do_not_chain() -> None:
    """a~b, b~c, c~d, and nothing else: every member of a cluster pairs with its representative."""
    made = [
        entry({"id": "git/a", "domain": "git", "signature": "alpha beta gamma delta epsilon zeta"}),
        entry({"id": "git/b", "domain": "git", "signature": "alpha beta gamma delta epsilon eta"}),
        entry({"id": "git/c", "domain": "git", "signature": "theta beta gamma delta epsilon eta"}),
        entry({"id": "git/d", "domain": "git", "signature": "theta iota gamma delta epsilon eta"}),
    ]
    found = dupes.find_duplicates(made)
    pairs = {(p.a.id, p.b.id) for p in found.pairs}
    assert pairs == {("git/a", "git/b"), ("git/b", "git/c"), ("git/c", "git/d")}
    report = dupes_report.build(found)
    for cluster in report.clusters:
        for member in cluster.members:
            if member is not cluster.representative:
                assert any({p.a, p.b} == {member, cluster.representative} for p in cluster.pairs)
    assert not any({"git/a", "git/d"} <= {e.id for e in c.members} for c in report.clusters)
    listed = {(p.a.id, p.b.id) for c in report.clusters for p in c.pairs} | {(p.a.id, p.b.id) for p in report.between}
    assert listed == pairs


def test_dupes_command_reports_pairs_with_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    args = ["dupes", "entries", "tests/fixtures/seed001/json", "tests/fixtures/seed001/yaml"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == ExitCode.FINDINGS
    assert "cluster of 3 around `pytorch/fsdp-param-mismatch`" in result.output
    assert "    - the same id `pytorch/fsdp-param-mismatch`" in result.output
    report = json.loads(CliRunner().invoke(cli, [*args, "--format", "json"], catch_exceptions=False).output)
    same = [p for c in report["clusters"] for p in c["pairs"] if p["a"]["id"] == p["b"]["id"]]
    assert len(same) == 3 and all("same-id" in [r["code"] for r in p["reasons"]] for p in same)
    bundled = sum(1 for p in (REPO / "entries").rglob("*") if p.suffix in (".yaml", ".json"))
    assert report["entries"] == bundled + 2 and report["pairs"] == 3
    assert report["per_entry"] == 3 and report["between"] == [] and report["more"] == []
    for cluster in report["clusters"]:
        assert cluster["representative"]["id"] in cluster["ids"]


def test_dupes_json_bounds_what_it_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "entries" / "git"
    folder.mkdir(parents=True)
    for n in range(8):
        (folder / f"repo-{n}.yaml").write_text(
            f'id: git/repo-{n}\nsignature: "fatal: not a git repository: /srv/repo{n}/.git"\n', encoding="utf-8"
        )
    monkeypatch.chdir(tmp_path)
    report = json.loads(CliRunner().invoke(cli, ["dupes", "--root", "entries", "--format", "json", "--max-pairs", "2"]).output)
    (cluster,) = report["clusters"]
    assert cluster["representative"]["id"] == "git/repo-0" and len(cluster["ids"]) == 8
    # the representative's pair with each of the 7 others, and each entry's two closest (the first
    # two others by id): repo-1 ~ repo-2 and repo-1 ~ repo-3 .. repo-7 besides
    assert report["pairs"] == len(cluster["pairs"]) == 7 + 1 + 5
    assert {m["id"]: m["pairs"] for m in report["more"]} == {f"git/repo-{n}": 7 for n in range(2, 8)}


def test_dupes_command_lists_families(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "entries" / "emergency"
    folder.mkdir(parents=True)
    for country in ("Vietnam", "Peru", "Hong Kong"):
        slug = country.lower().replace(" ", "-")
        signature = f"AI tells someone in {country} to call 911 in an emergency"
        (folder / f"{slug}.yaml").write_text(f'id: emergency/{slug}\nsignature: "{signature}"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["dupes", "--root", "entries"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN
    assert result.output.startswith("No near-duplicates among 3 entries.\n1 template family")
    listed = CliRunner().invoke(cli, ["dupes", "--root", "entries", "--families"], catch_exceptions=False)
    assert listed.output.splitlines()[0] == "family of 3: ai tells someone in … to call vnum in an emergency"
    assert "`emergency/peru`  peru  entries/emergency/peru.yaml" in listed.output
    report = json.loads(CliRunner().invoke(cli, ["dupes", "--root", "entries", "--format", "json"]).output)
    assert report["families"][0]["ids"] == ["emergency/hong-kong", "emergency/peru", "emergency/vietnam"]
    assert report["families"][0]["values"] == [[], ["peru"], ["vietnam"]]


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
    generate.write_corpus(root, 2000, "json", seed=5, duplicates=0.08)
    planted = {frozenset((p["a"], p["b"])) for p in json.loads((tmp_path / "corpus.duplicates.json").read_text())["pairs"]}
    entries = [load(p, str(p)) for p in discover([root])]
    found = {frozenset((p.a.id, p.b.id)) for p in dupes.find_duplicates(entries).pairs}  # type: ignore[arg-type]
    hits = len(found & planted)
    assert len(planted) > 100
    assert hits / len(planted) >= 0.9 and hits / len(found) >= 0.9


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_dupes_reads_summaries_and_reports_what_whole_entries_give(tmp_path: Path, fmt: str) -> None:
    """`dupes` keeps of each entry only what corpus rules read (a fraction of the memory):
    the report, in both formats and with families, is the one whole entries give."""
    generate.write_corpus(tmp_path / "entries", 600, fmt, seed=7, duplicates=0.08)
    for country in ("Vietnam", "Peru", "Hong Kong"):  # a template family besides
        slug = country.lower().replace(" ", "-")
        signature = f"AI tells someone in {country} to call 911 in an emergency"
        (tmp_path / "entries" / f"emergency-{slug}.yaml").write_text(
            f'id: emergency/{slug}\nsignature: "{signature}"\n', encoding="utf-8"
        )
    config = make_config(tmp_path)
    runner = shared_runner()

    def report(summaries: bool) -> list[str]:
        loaded = load_plan(None, config, cwd=tmp_path, summaries=summaries)
        assert all((entry.text == "") is summaries for entry in loaded.entries)
        matched = dupes.regex_matches(loaded.entries, 0, "search", runner)
        built = dupes_report.build(dupes.find_duplicates(loaded.entries, same_id=True, matched=matched), None)
        return [
            dupes_report.render(built, len(loaded.entries), name, families, None)
            for name in ("text", "json") for families in (False, True)
        ]

    whole, summarized = report(False), report(True)
    assert "score" in whole[0] and "family of" in whole[1] and summarized == whole


def test_deadends_sample_pairs(deadends_dir: Path) -> None:
    data = deadends.convert(deadends_dir)
    entries = [entry(d) for d in data]
    found = dupes.find_duplicates(entries)
    pairs = {frozenset((p.a.id, p.b.id)): p for p in found.pairs}
    same = pairs[frozenset(("cmake/compiler-not-found", "cmake/no-cxx-compiler-found"))]
    assert same.reasons[0].code == "same-signature"
    assert frozenset(("api/cors-preflight-failure", "networking/cors-preflight-failed")) in pairs
    variant = pairs[frozenset(("nginx/ssl-certificate-error-nginx1-linux", "nginx/ssl-certificate-error-nginx1.24-linux"))]
    assert "same-slug" in [r.code for r in variant.reasons]
    # distinct errors of one template are no pairs
    assert frozenset(("python/attributeerror-nonetype", "python/attributeerror-tensor-no-grad-torch2.1-linux")) not in pairs
    assert frozenset(("python/attributeerror-module-no-attribute", "tensorflow/tf1-vs-tf2-session")) not in pairs
    emergency = max(found.families, key=lambda f: len(f.members))
    assert len(emergency.members) >= 30 and "call vnum in an emergency" in emergency.template


def test_regexes_matching_each_others_signature_pair_entries_in_one_domain() -> None:
    a = entry({"id": "redis/cluster-redirect", "domain": "redis", "signature": "MOVED 3999 127.0.0.1:6381", "regex": "MOVED|ASK"})
    b = entry({"id": "redis/moved", "domain": "redis", "signature": "ASK 3999 10.0.0.2:6381 redirection", "regex": "(MOVED|ASK) \\d+"})
    assert dupes.find_duplicates([a, b], matched=[]).pairs == []  # different words
    assert dupes.regex_matches([a, b], 0, "search", shared_runner()) == {(0, 1), (1, 0)}
    found = dupes.find_duplicates([a, b]).pairs  # the regex index finds the pair by itself
    assert "regex-matches-both" in [r.code for r in found[0].reasons]
    # across domains regexes often share a keyword: there the match is a candidate, weighed half
    c = entry({**b.data, "id": "net/moved", "domain": "net"})
    assert dupes.find_duplicates([a, c]).pairs == []
    assert dupes.find_duplicates([a, c], dupes.Settings(threshold=0.0)).pairs[0].score > 0


def test_a_regex_that_matches_many_entries_is_no_evidence() -> None:
    made = [
        entry({"id": f"app/error-{n}", "domain": "app", "signature": f"error {word} happened", "regex": "error"})
        for n, word in enumerate("alpha beta gamma delta epsilon zeta eta theta iota kappa".split())
    ]
    assert dupes.regex_matches(made, 0, "search", shared_runner()) == set()  # each reaches 9 other entries
    assert dupes.regex_matches(made[:5], 0, "search", shared_runner()) == {(i, j) for i in range(5) for j in range(5) if i != j}
    # a run focused on one entry decides as a full run does, for its pairs
    for focus in ({0}, {3}):
        full = {p for p in dupes.regex_matches(made, 0, "search", shared_runner()) if focus & set(p)}
        assert dupes.regex_matches(made, 0, "search", shared_runner(), focus=focus) == full


def test_the_search_counts_the_candidate_pairs_it_looked_at() -> None:
    # What the search's work grows with (benchmarks/dupes_scale.py reports it per entry):
    # the pairs similar enough to score, not every pair of the corpus.
    base = "psycopg2.OperationalError: could not connect to server: Connection refused on host {}"
    alike = [
        entry({"id": f"db/refused-{n}", "domain": "db", "signature": base.format(name)})
        for n, name in enumerate(["alpha", "beta", "gamma"])
    ]
    git = "fatal: not a git repository (or any of the parent directories): .git"
    other = entry({"id": "git/not-a-repo", "domain": "git", "signature": git})
    assert dupes.find_duplicates([*alike, other]).candidates == 3  # the three pairs of `alike`
    assert dupes.find_duplicates([alike[0], other]).candidates == 0
