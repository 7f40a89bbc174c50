"""Scale machinery keeps results exact: --jobs, pre-commit runs (focus), cache, planted defects."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from entrykit.config import Config
from entrykit.lint import engine, pipeline
from entrykit.lint.engine import lint
from entrykit.similarity import near_duplicates as dupes

from .conftest import REPO, TODAY, make_config

sys.path.insert(0, str(REPO / "benchmarks"))

import generate  # noqa: E402

pytestmark = pytest.mark.slow

CORPUS_CODES = {"ET206", "ET209", "ET501", "ET502", "ET504"}


def _rows(result: Any) -> list[tuple[Any, ...]]:
    return [(d.path, d.line, d.col, d.code, d.severity.value, d.message, d.pointer, d.related, d.fix) for d in result.diagnostics]


def _corpus(tmp_path: Path, count: int, defects: float = 0.08) -> tuple[Path, Config, dict[str, Any]]:
    root = tmp_path / "entries"
    generate.write_corpus(root, count, "yaml", seed=3, duplicates=0.08, regex_style="mixed", defects=defects)
    truth = json.loads((tmp_path / "entries.defects.json").read_text())
    return root, make_config(tmp_path), truth


@pytest.fixture(scope="module", autouse=True)
def _lsh_from_a_hundred_entries() -> Iterator[None]:
    """Near-duplicates take the MinHash LSH path above 100 entries here, not 400: the same
    code on a corpus a third the size (pool workers are forked, so they see it too)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dupes, "EXACT_LIMIT", 100)
        yield


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Config, dict[str, Any], Any]:
    """A corpus above dupes.EXACT_LIMIT (MinHash LSH path), with duplicates and defects."""
    base = tmp_path_factory.mktemp("big")
    assert dupes.EXACT_LIMIT == 100
    root, config, truth = _corpus(base, dupes.EXACT_LIMIT + 60, defects=0.2)  # every kind of defect
    full = lint(None, config, TODAY, cwd=base, jobs=1)
    return root, config, truth, full


def test_planted_defects_are_reported(big: tuple[Path, Config, dict[str, Any], Any]) -> None:
    root, _, truth, full = big
    found = {(d.path, d.code) for d in full.diagnostics}
    assert truth["planted"], "the generator planted nothing"
    missing = [p for p in truth["planted"] if (f"entries/{p['path']}", p["code"]) not in found]
    assert not missing
    assert {p["kind"] for p in truth["planted"]} == set(generate.DEFECTS)


def test_jobs_give_the_same_diagnostics_in_the_same_order(
    big: tuple[Path, Config, dict[str, Any], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, config, _, full = big
    seen: list[int] = []
    original = pipeline.run_tasks

    def spy(tasks: Any, checker: Any, jobs: int, memo: Any, size: int) -> Any:
        seen.append(jobs if len(tasks) >= pipeline.POOL_MIN_FILES else 1)
        return original(tasks, checker, jobs, memo, size)

    monkeypatch.setattr("entrykit.lint.engine.run_tasks", spy)
    prepared: list[int] = []
    prepare = dupes.prepare_band_keys
    monkeypatch.setattr(dupes, "prepare_band_keys", lambda *a: (prepared.append(os.getpid()), prepare(*a))[1])
    parallel = lint(None, config, TODAY, cwd=root.parent, jobs=2)
    assert seen == [2]  # the pool really ran
    assert prepared == [os.getpid()]  # the band tables were made once, before the workers forked
    assert _rows(parallel) == _rows(full)


def _targets(full: Any, root: Path, rng: random.Random) -> list[str]:
    """Files with corpus findings (every code), and a few without."""
    by_code: dict[str, list[str]] = {}
    for d in full.diagnostics:
        if d.code in CORPUS_CODES:
            by_code.setdefault(d.code, []).append(d.path)
    assert set(by_code) >= {"ET209", "ET502"}, sorted(by_code)
    picked = {paths[0] for paths in by_code.values()}
    picked.update(rng.sample(sorted({p for paths in by_code.values() for p in paths}), 6))
    every = sorted(str(p.relative_to(root.parent)) for p in root.rglob("*.yaml"))
    picked.update(rng.sample(every, 4))
    return sorted(picked)


@pytest.mark.parametrize("use_cache", [False, True])
def test_a_pre_commit_run_reports_what_a_full_run_reports_on_its_files(
    big: tuple[Path, Config, dict[str, Any], Any], use_cache: bool
) -> None:
    root, config, _, full = big
    rng = random.Random(5)
    targets = _targets(full, root, rng)
    if use_cache:
        lint(None, config, TODAY, cwd=root.parent, use_cache=True)
    for group in ([t] for t in targets[:8]):
        result = lint([root.parent / t for t in group], config, TODAY, cwd=root.parent, use_cache=use_cache)
        expected = [r for r in _rows(full) if r[0] in group]
        assert _rows(result) == expected, group
    several = targets[8:]
    result = lint([root.parent / t for t in several], config, TODAY, cwd=root.parent, use_cache=use_cache)
    assert _rows(result) == [r for r in _rows(full) if r[0] in several]


def test_a_pre_commit_run_after_an_edit_matches_a_full_run(
    big: tuple[Path, Config, dict[str, Any], Any], tmp_path: Path
) -> None:
    """Edit a file so that it collides with others; the focused run over the cached corpus
    must still report exactly what a fresh full run reports on it."""
    root, config, _, full = big
    lint(None, config, TODAY, cwd=root.parent, use_cache=True)
    files = sorted(root.rglob("*.yaml"))
    regex_trouble = {d.path for d in full.diagnostics if d.code in ("ET201", "ET202", "ET501")}
    victim = files[11]
    model = next(f for f in files[12:] if str(f.relative_to(root.parent)) not in regex_trouble)
    original = victim.read_text()
    victim_id = re.search(r"^id: (.*)$", original, re.M)
    model_id = re.search(r"^id: (.*)$", model.read_text(), re.M)
    assert victim_id and model_id
    shown = str(victim.relative_to(root.parent))
    try:
        # the other entry's text under this entry's id: near-duplicate, regexes match each other
        victim.write_text(model.read_text().replace(f"id: {model_id[1]}", f"id: {victim_id[1]}"))
        focused = lint([victim], config, TODAY, cwd=root.parent, use_cache=True)
        fresh = lint(None, config, TODAY, cwd=root.parent)
        assert {"ET502", "ET209"} <= {d.code for d in focused.diagnostics}
        assert _rows(focused) == [r for r in _rows(fresh) if r[0] == shown]
        # and the other entry's own id: a duplicate id
        victim.write_text(model.read_text())
        focused = lint([victim], config, TODAY, cwd=root.parent, use_cache=True)
        fresh = lint(None, config, TODAY, cwd=root.parent)
        assert "ET501" in {d.code for d in focused.diagnostics}
        assert _rows(focused) == [r for r in _rows(fresh) if r[0] == shown]
    finally:
        victim.write_text(original)


def test_an_edit_outside_the_summary_reuses_corpus_findings_at_their_new_places(
    big: tuple[Path, Config, dict[str, Any], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines added to a file and to the file its finding points at (fields corpus rules do not
    read): the pre-commit run takes the corpus findings from the last full run without running
    corpus rules, and reports them where a fresh full run does."""
    root, config, _, full = big
    lint(None, config, TODAY, cwd=root.parent, use_cache=True)
    victim = next(d for d in full.diagnostics if d.code in ("ET502", "ET209") and d.related)
    files = [root.parent / victim.path, root.parent / victim.related[0].path]
    originals = [f.read_text() for f in files]
    calls: list[int] = []
    real = engine._corpus_findings

    def spy(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        return real(*args, **kw)

    try:
        for f, text in zip(files, originals, strict=True):
            head, rest = text.split("\n", 1)
            f.write_text(f"{head}\n# reviewed\n# again\n{rest}".replace("root_cause:", "# note\nroot_cause:"))
        monkeypatch.setattr(engine, "_corpus_findings", spy)
        focused = lint([files[0]], config, TODAY, cwd=root.parent, use_cache=True)
        assert calls == []  # served from the snapshot
        warm_full = lint(None, config, TODAY, cwd=root.parent, use_cache=True)
        assert calls == []
        fresh = lint(None, config, TODAY, cwd=root.parent)
        assert _rows(focused) == [r for r in _rows(fresh) if r[0] == victim.path]
        assert _rows(warm_full) == _rows(fresh)
        moved = [r for r in _rows(fresh) if r[0] == victim.path and r[3] == victim.code]
        assert moved and moved[0][1] != victim.line  # the places really moved
        # a change corpus rules do see runs them again
        calls.clear()
        files[0].write_text(files[0].read_text().replace("signature: ", "signature: changed ", 1))
        lint([files[0]], config, TODAY, cwd=root.parent, use_cache=True)
        assert calls == [1]
    finally:
        for f, text in zip(files, originals, strict=True):
            f.write_text(text)


def test_small_corpus_pre_commit_matches_full(tmp_path: Path) -> None:
    """Below EXACT_LIMIT near-duplicates compare all pairs: the focused path must agree there too."""
    root, config, _ = _corpus(tmp_path, 80)
    assert dupes.EXACT_LIMIT > 80
    full = lint(None, config, TODAY, cwd=tmp_path)
    targets = _targets(full, root, random.Random(2))
    for target in targets:
        result = lint([tmp_path / target], config, TODAY, cwd=tmp_path)
        assert _rows(result) == [r for r in _rows(full) if r[0] == target], target


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.6, 0.85])
@pytest.mark.parametrize("num_perm", [64, 128])
def test_band_layout_equals_datasketch(threshold: float, num_perm: int) -> None:
    from datasketch import MinHashLSH

    dupes.band_layout.cache_clear()
    index = MinHashLSH(threshold=threshold, num_perm=num_perm)
    assert dupes.band_layout(threshold, num_perm) == (index.b, index.r)


def test_minhash_equals_datasketch() -> None:
    from datasketch import MinHash

    rng = random.Random(4)
    for size in [0, 1, 2, 5, 30, 200]:
        shingles = {f"w{rng.randrange(10_000)} {rng.random()}" for _ in range(size)} | ({"中文"} if size else set())
        reference = MinHash(num_perm=dupes.NUM_PERM)
        reference.update_batch([t.encode("utf-8") for t in sorted(shingles)])
        ours = dupes.minhash(shingles)
        assert ours.dtype == reference.hashvalues.dtype
        assert ours.tolist() == reference.hashvalues.tolist()


def test_checking_files_does_not_import_datasketch(tmp_path: Path) -> None:
    """It pulls in scipy: seconds of start-up in every process of a run. The MinHash path is
    taken above EXACT_LIMIT entries: lowered in the child, a small corpus takes it too."""
    import subprocess

    _corpus(tmp_path, 60)
    code = (
        "import sys; from entrykit.lint.engine import lint; from entrykit.config import load_config; "
        "from entrykit.similarity import near_duplicates as dupes; dupes.EXACT_LIMIT = 40; "
        "banded = []; band_array = dupes._band_array; "
        "dupes._band_array = lambda *args: banded.append(1) or band_array(*args); "
        f"from pathlib import Path; lint(None, load_config(Path({str(tmp_path)!r})), jobs=1); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('datasketch', 'scipy')), len(banded) > 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True)
    assert done.stdout.strip() == "[] True"  # the MinHash path ran, without datasketch


def test_band_keys_equal_datasketch_bulk() -> None:
    """Per-entry band keys (cached per file) equal those of MinHash over the whole corpus."""
    import numpy as np
    from datasketch import MinHash

    sets = [frozenset({f"w{i}", f"w{i + 1}", f"w{i * 7 % 13}", "shared"}) for i in range(40)]
    bands, rows = dupes.band_layout(0.5)
    hashes = MinHash.bulk([[t.encode() for t in sorted(s)] for s in sets], num_perm=dupes.NUM_PERM)
    matrix = np.vstack([m.hashvalues for m in hashes]).astype(np.uint64)
    mix = np.random.default_rng(7).integers(1, 2**63, size=rows, dtype=np.uint64) | np.uint64(1)
    for n, shingles in enumerate(sets):
        with np.errstate(over="ignore"):
            expected = tuple(
                int((matrix[n, band * rows : (band + 1) * rows] * mix).sum()) for band in range(bands)
            )
        assert dupes.band_keys(shingles, 0.5) == expected
