"""A warm run (everything from the cache) reports what a cold one does, and does only what
it must: counts without making diagnostics, one JSON line written field by field equal to
the documented encoding, no jsonschema loaded."""

from __future__ import annotations

import gc
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from entrykit import loader, registry
from entrykit.diagnostic import Diagnostic, Fix, Location, Severity, Tally, tally
from entrykit.lint import engine, pipeline
from entrykit.lint.records import StoredFinding, read_findings
from entrykit.lint.reporters import _ONE_LINE, REPORTERS, diagnostic_json, diagnostic_line, summary_line
from entrykit.loader import display_path
from entrykit.output_safety import _UNSAFE_IN_JSON, json_safe

from .conftest import ELSEWHERE, REPO, TODAY, collections_watched, make_config

ET001_TEXT = "id: [unclosed\n"


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Any]:
    """The bundled entries with every kind of thing a report decides on: a file that does
    not load, an id twice (a corpus finding), a file-wide suppression that is used and one
    that names no rule, and a per-file ignore. Its files count as old: a file changed
    within the last moment would be read again by every run (`pipeline.RACY_NS`)."""
    monkeypatch.setattr(pipeline, "RACY_NS", -(10**18))
    root = tmp_path / "entries"
    shutil.copytree(REPO / "entries", root)
    (root / "git" / "broken.yaml").write_text(ET001_TEXT)
    twin = root / "git" / "ambiguous-argument-again.yaml"
    twin.write_text((root / "git" / "ambiguous-argument.yaml").read_text())
    suppressed = root / "pytorch" / "fsdp-param-mismatch.yaml"
    suppressed.write_text("# entrykit: disable-file=ET607\n# entrykit: disable-file=ET399\n" + suppressed.read_text())
    config = make_config(tmp_path, {"per-file-ignores": {"entries/git/ambiguous-argument.yaml": ["ET5"]}})
    return tmp_path, config


def _json(diagnostics: Any, name: str = "json") -> str:
    out = io.StringIO()
    REPORTERS[name](diagnostics, registry.all_rules(), out)
    return out.getvalue()


def test_the_tally_is_counted_without_making_a_diagnostic(
    corpus: tuple[Path, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    base, config = corpus
    result = engine.lint(None, config, TODAY, cwd=base)
    made = list(result.diagnostics)
    codes = {d.code for d in made}
    assert {"ET001", "ET002", "ET501", "ET607"} <= codes  # every kind of decision is in play
    assert not [d for d in made if d.code == "ET607" and d.path.endswith("fsdp-param-mismatch.yaml")]
    assert not [d for d in made if d.code.startswith("ET5") and d.path.endswith("git/ambiguous-argument.yaml")]

    again = engine.lint(None, config, TODAY, cwd=base).diagnostics
    assert isinstance(again, engine.Diagnostics)

    def no_diagnostic(*args: Any) -> Diagnostic:
        raise AssertionError("a diagnostic was made to count them")

    monkeypatch.setattr(engine, "_diagnostics", no_diagnostic)
    assert again.tally == Tally.of(made)
    assert len(again) == len(made) and bool(again)
    assert tally(again) == tally(made) and summary_line(again, 9) == summary_line(made, 9)
    monkeypatch.undo()
    assert list(again) == made

    # read in full before anything asks for the counts: counted as they were made
    third = engine.lint(None, config, TODAY, cwd=base).diagnostics
    assert isinstance(third, engine.Diagnostics)
    assert list(third) == made
    monkeypatch.setattr(engine.Diagnostics, "_reported", no_diagnostic)  # no second pass over the files
    assert third.tally == Tally.of(made) and len(third) == len(made)
    monkeypatch.undo()
    fourth = engine.lint(None, config, TODAY, cwd=base).diagnostics
    assert next(iter(fourth)) == made[0]  # a read that stops early counts nothing
    assert fourth.tally == Tally.of(made)


def test_a_warm_run_reports_what_a_cold_one_does(corpus: tuple[Path, Any], tmp_path_factory: pytest.TempPathFactory) -> None:
    base, config = corpus
    cache = tmp_path_factory.mktemp("warm-cache")
    cold = engine.lint(None, config, TODAY, cwd=base, use_cache=True, cache_dir=cache)
    cold_json = _json(cold.diagnostics)

    def no_check(*args: Any) -> Any:
        raise AssertionError("a warm run checked a file")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "run_tasks", no_check)
        patch.setattr(engine, "_corpus_findings", no_check)
        warm = engine.lint(None, config, TODAY, cwd=base, use_cache=True, cache_dir=cache)
    assert _json(warm.diagnostics) == cold_json
    for name in REPORTERS:  # every format: the same report of the same diagnostics
        assert _json(warm.diagnostics, name) == _json(cold.diagnostics, name), name
    assert warm.diagnostics.tally == cold.diagnostics.tally  # type: ignore[attr-defined]
    uncached = engine.lint(None, config, TODAY, cwd=base)
    assert _json(uncached.diagnostics) == cold_json
    assert json.loads(cold_json) == [diagnostic_json(d) for d in uncached.diagnostics]


texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
numbers = st.integers(min_value=0, max_value=10**6)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)
diagnostics = st.builds(
    Diagnostic,
    path=texts,
    line=numbers,
    col=numbers,
    code=texts,
    name=texts,
    severity=st.sampled_from(list(Severity)),
    message=texts,
    pointer=texts,
    related=st.lists(st.builds(Location, texts, numbers, numbers, texts), max_size=3).map(tuple),
    fix=st.none() | st.builds(Fix, texts, json_values, texts, st.booleans()),
)


@given(diagnostics)
def test_a_json_line_is_the_documented_encoding(d: Diagnostic) -> None:
    assert diagnostic_line(d) == _ONE_LINE.encode(diagnostic_json(d))


@given(st.lists(diagnostics, max_size=4), st.integers(min_value=0, max_value=2))
def test_the_json_report_is_one_line_per_diagnostic(items: list[Diagnostic], copies: int) -> None:
    """Across the batches the report writes at once, too (1024 lines)."""
    many = items * (copies * 700 + 1)
    lines = [json_safe(_ONE_LINE.encode(diagnostic_json(d))) for d in many]
    expected = "[\n" + ",\n".join(lines) + "\n]\n" if lines else "[]\n"
    report = _json(many)
    assert report == expected
    assert json.loads(report) == [json.loads(line) for line in lines]


def _json_safe_by_regex(encoded: str) -> str:
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


@given(st.text(st.characters(blacklist_categories=("Cs",))) | st.text("ab\x7f\x80\x9f\u2028\u202e\u2069\u4e2d\n"))
def test_json_safe_escapes_what_the_regex_finds(text: str) -> None:
    assert json_safe(text) == _json_safe_by_regex(text)


def test_a_warm_lint_does_not_load_jsonschema(tmp_path: Path) -> None:
    """jsonschema is for the messages of entries that fail the schema: a run that takes
    every file from the cache has none to explain."""
    shutil.copytree(REPO / "entries", tmp_path / "entries")
    cache = tmp_path / "cache"
    lint = [sys.executable, "-m", "entrykit", "lint", "--root", "entries", "--format", "json", "--exit-zero"]
    lint += ["--cache-dir", str(cache)]
    cold = subprocess.run(lint, cwd=tmp_path, capture_output=True, text=True, check=True, timeout=300)
    probe = (
        "import json, sys\nfrom entrykit.cli import main\n"
        f"sys.argv = ['entrykit', *{lint[3:]!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'jsonschema')), file=sys.stderr)\n"
    )
    warm = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True, timeout=300
    )
    assert warm.stdout == cold.stdout and json.loads(warm.stdout)
    assert json.loads(warm.stderr.strip().splitlines()[-1]) == []


def test_equal_findings_are_read_once_and_shared() -> None:
    plain = ("ET502", 2, 12, "warning", "entry looks like a near-duplicate", "/signature", (("a/b.yaml", 2, 12, "/s"),), None)
    fixed = ("ET607", 3, 1, "warning", "old", "/last_confirmed", (), ("/x", 1, "set it", True))
    with_list = ("ET502", 2, 12, "warning", "m", "/signature", [("a/b.yaml", 2, 12, "/s")], None)
    pool: dict[Any, StoredFinding] = {}
    first = read_findings([plain, fixed, with_list], pool)
    second = read_findings([tuple(plain), fixed, with_list], pool)
    assert first == second == [StoredFinding.read(plain), StoredFinding.read(fixed), StoredFinding.read(with_list)]
    assert first[0] is second[0]  # read once
    assert first[1] is not second[1]  # a fix's value 1 equals True: never shared
    with pytest.raises((TypeError, ValueError)):
        read_findings([(*plain[:3], "fatal", *plain[4:])], pool)  # what is no finding is refused as before


parts = st.lists(st.sampled_from(["a", "b", "c", "entries", "..", "..x", "."]), max_size=5)


@given(st.lists(st.sampled_from(["a", "b", "c"]), max_size=4), parts, st.sampled_from(["x.yaml", "a", "..x.json"]))
def test_a_file_outside_the_working_directory_is_named_as_display_path_names_it(
    here: list[str], folder: list[str], base: str
) -> None:
    cwd = Path("/", *here)
    name = str(Path("/", *folder, base))  # as a run names a file: absolute, `..` kept
    real = os.path.normpath(name)
    assume(real != str(cwd) and not str(cwd).startswith(real.rstrip("/") + "/"))  # a file, not a folder of cwd
    run = SimpleNamespace(_here=str(cwd).rstrip("/") + "/", _folders={}, cwd=cwd)
    for _ in range(2):  # once to learn the folder's name, once from what it learnt
        assert engine._Run._shown(run, name) == display_path(Path(name), cwd)  # type: ignore[arg-type]


@given(st.lists(st.lists(st.sampled_from(["a", "b", "x.yaml", "..", ".", "é"]), max_size=4), max_size=6), st.booleans())
def test_discovered_names_become_the_paths_they_name(names: list[list[str]], absolute: bool) -> None:
    written = [("/" if absolute else "") + "/".join(parts) for parts in names if parts]
    assert loader.paths_of(written) == [Path(name) for name in written]
    assert [str(p) for p in loader.paths_of(written)] == [str(Path(name)) for name in written]


def test_the_collector_is_paused_while_the_cache_is_read(
    corpus: tuple[Path, Any], tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """And the caller is told when what was read may be left alone (a command line freezes
    it); not after files were checked in this process, which may leave cycles behind."""
    base, config = corpus
    cache = tmp_path_factory.mktemp("warm-cache")
    engine.lint(None, config, TODAY, cwd=base, use_cache=True, cache_dir=cache)
    settled: list[bool] = []
    watched = {"plan": (engine._Run, "_plan"), "reuse": (engine, "_reuse_corpus")}
    with collections_watched(monkeypatch, watched) as seen:
        warm = engine.lint(
            None, config, TODAY, cwd=base, use_cache=True, cache_dir=cache, settle=lambda: settled.append(gc.isenabled())
        )
        assert gc.isenabled()
        collected_inside = [place for place in seen.started if place != ELSEWHERE]
        assert collected_inside == [] and settled == [False, False]  # paused: planning, then corpus findings
        edited = base / "entries" / "git" / "not-a-repository.yaml"
        edited.write_text(edited.read_text() + "# reviewed\n")
        settled.clear()
        again = engine.lint(
            None, config, TODAY, cwd=base, use_cache=True, cache_dir=cache, settle=lambda: settled.append(gc.isenabled())
        )
        assert settled == [False]  # a file was checked: only what was read before it
    assert _json(warm.diagnostics) == _json(again.diagnostics)
