"""The result cache: reuse, invalidation (content, config, schema, version, day), damage, concurrency."""

from __future__ import annotations

import errno
import json
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from entrykit import schema
from entrykit.config import Config
from entrykit.lint import cache, engine, pipeline
from entrykit.lint.engine import lint

from .conftest import TODAY, make_config, write_corpus

pytestmark = pytest.mark.slow

GOOD = """\
id: pip/no-matching-dist
signature: "ERROR: No matching distribution found for torch==9.9"
regex: "No matching distribution found for \\\\S+"
domain: pip
category: install_error
first_seen: "2024-01-02"
last_confirmed: "2026-06-01"
aliases: [pip/no-dist]
transition_graph:
  leads_to: [pip/wheel-build-failed]
"""
OTHER = """\
id: pip/wheel-build-failed
signature: "ERROR: Could not build wheels for lxml, which is required to install pyproject.toml-based projects"
regex: "Could not build wheels for \\\\w+"
domain: pip
last_confirmed: "2026-06-01"
transition_graph:
  leads_to: [pip/nowhere]
"""
BROKEN = "id: [unclosed\n"


def _files() -> dict[str, str]:
    return {"pip/no-matching-dist.yaml": GOOD, "pip/wheel-build-failed.yaml": OTHER, "pip/broken.yaml": BROKEN}


def _rows(result: Any) -> list[tuple[Any, ...]]:
    return [(d.path, d.line, d.col, d.code, d.severity.value, d.message, d.related) for d in result.diagnostics]


def _run(root: Path, config: Config, today: date = TODAY, paths: list[Path] | None = None, **kw: Any) -> Any:
    return lint(paths, config, today, cwd=root.parent, use_cache=True, **kw)


def _reference(root: Path, config: Config, today: date = TODAY, paths: list[Path] | None = None) -> Any:
    return lint(paths, config, today, cwd=root.parent)


class _Counter:
    """Counts the files a run had to check (not served from the cache)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.checked: list[str] = []
        original = pipeline.Checker.check_files

        def spy(checker: pipeline.Checker, tasks: Sequence[pipeline.Task]) -> list[pipeline.FileRecord]:
            self.checked.extend(task.key for task in tasks)
            return original(checker, tasks)

        monkeypatch.setattr(pipeline.Checker, "check_files", spy)


@pytest.fixture
def old_files(monkeypatch: pytest.MonkeyPatch) -> None:
    # Files written by a test are "racy" (changed within the last moment): the cache
    # would re-hash them on every run. Pretend they are older.
    monkeypatch.setattr(pipeline, "RACY_NS", -(10**18))


def test_second_run_reads_everything_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old_files: None
) -> None:
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    first = _run(root, config)
    assert _rows(first) == _rows(_reference(root, config))
    assert {d.code for d in first.diagnostics} >= {"ET001", "ET504"}
    counter = _Counter(monkeypatch)
    second = _run(root, config)
    assert counter.checked == []
    assert _rows(second) == _rows(first)
    assert sorted(p.name for p in tmp_path.rglob("*") if p.name.startswith(".")) == []  # nothing in the project
    store = engine.open_store(config)
    assert store is not None and store.folder.is_dir() and tmp_path not in store.folder.parents


def test_no_cache_writes_nothing(tmp_path: Path) -> None:
    write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    lint(None, config, TODAY, cwd=tmp_path)
    store = engine.open_store(config)
    assert store is not None and not store.folder.exists()


def test_a_changed_file_is_checked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old_files: None) -> None:
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    _run(root, config)
    (root / "pip/wheel-build-failed.yaml").write_text(OTHER.replace("pip/nowhere", "pip/no-dist"))
    counter = _Counter(monkeypatch)
    after = _run(root, config)
    assert counter.checked == ["pip/wheel-build-failed.yaml"]
    assert "ET504" not in {d.code for d in after.diagnostics}
    assert _rows(after) == _rows(_reference(root, config))


def test_same_size_same_mtime_edit_is_noticed_when_racy(tmp_path: Path) -> None:
    """A file edited within its mtime tick is re-hashed: the cache never trusts a fresh stat."""
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    _run(root, config)
    target = root / "pip/wheel-build-failed.yaml"
    before = target.stat()
    target.write_text(OTHER.replace("pip/nowhere", "pip/nowhe_e"))
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert "pip/nowhe_e" in " ".join(d.message for d in _run(root, config).diagnostics)


def test_an_edit_in_place_with_its_mtime_put_back_is_noticed(tmp_path: Path, old_files: None) -> None:
    """Same size, same inode, the mtime set back (`touch -d`, or an archive unpacked over the
    file with its author's mtime): the change time tells, which no one can set back."""
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    target = root / "pip/wheel-build-failed.yaml"
    _run(root, config)
    before = target.stat()
    with target.open("r+", encoding="utf-8") as stream:  # (in place: the same inode)
        stream.write(OTHER.replace("pip/nowhere", "pip/nowhe_e"))
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = target.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)
    assert _rows(_run(root, config)) == _rows(_reference(root, config))
    assert "pip/nowhe_e" in " ".join(d.message for d in _run(root, config).diagnostics)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_link_written_anew_to_the_same_file_is_noticed(tmp_path: Path, old_files: None) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "thing.yaml").write_text(GOOD, encoding="utf-8")
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    link = root / "pip" / "linked.yaml"
    link.symlink_to("../../outside/thing.yaml")
    _run(root, config)
    link.unlink()
    link.symlink_to("../.././outside/../outside/thing.yaml")
    assert _rows(_run(root, config)) == _rows(_reference(root, config))


def test_config_change_invalidates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old_files: None) -> None:
    root = write_corpus(tmp_path, _files())
    _run(root, make_config(tmp_path))
    changed = make_config(tmp_path, {"rules": {"ET504": {"severity": "warning"}}})
    counter = _Counter(monkeypatch)
    after = _run(root, changed)
    assert sorted(counter.checked) == sorted(k for k in _files())
    assert {d.severity.value for d in after.diagnostics if d.code == "ET504"} == {"warning"}
    assert _rows(after) == _rows(_reference(root, changed))


def test_schema_change_invalidates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old_files: None) -> None:
    root = write_corpus(tmp_path, _files())
    schema_path = tmp_path / "schema.json"
    schema_path.write_text(json.dumps({"type": "object"}))
    config = make_config(tmp_path, {"schema": "schema.json"})
    assert "ET101" not in {d.code for d in _run(root, config).diagnostics}
    schema_path.write_text(json.dumps({"type": "object", "required": ["never_there"]}))
    schema.load_schema.cache_clear()  # a new process would read it afresh
    schema.validator.cache_clear()
    counter = _Counter(monkeypatch)
    after = _run(root, config)
    assert len(counter.checked) == len(_files())
    assert "ET101" in {d.code for d in after.diagnostics}


def test_version_change_invalidates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old_files: None) -> None:
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    _run(root, config)
    engine.code_digest()
    monkeypatch.setattr(engine, "code_digest", lambda: "another-version-of-the-code")
    counter = _Counter(monkeypatch)
    _run(root, config)
    assert len(counter.checked) == len(_files())


def test_rules_that_read_today_are_run_again_on_another_day(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old_files: None
) -> None:
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    early = _run(root, config, today=date(2026, 7, 1))
    assert "ET607" not in {d.code for d in early.diagnostics}
    later_day = date(2029, 1, 1)
    after = _run(root, config, today=later_day)
    assert "ET607" in {d.code for d in after.diagnostics}
    assert _rows(after) == _rows(_reference(root, config, later_day))


def test_deleted_files_are_forgotten(tmp_path: Path, old_files: None) -> None:
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    _run(root, config)
    (root / "pip/no-matching-dist.yaml").unlink()
    after = _run(root, config)
    assert _rows(after) == _rows(_reference(root, config))
    store = engine.open_store(config)
    assert store is not None and "pip/no-matching-dist.yaml" not in store.known()


def _cache_files(config: Config) -> list[tuple[Path, str]]:
    """Every record file of the corpus's cache, with the name its tag is made for."""
    store = engine.open_store(config)
    assert store is not None
    files = [(p, f"env/{p.name}") for p in store.folder.iterdir()]
    files += [(p, f"format/{p.name}") for p in store.folder.parents[1].glob("memo-*")]
    return files


def _damage(config: Config, how: str) -> int:
    damaged = 0
    store = engine.open_store(config)
    assert store is not None
    for path, name in _cache_files(config):
        blob = path.read_bytes()
        if how == "garbage":
            path.write_bytes(os.urandom(len(blob)))
        elif how == "truncated":
            path.write_bytes(blob[: len(blob) // 2])
        elif how == "flipped":
            middle = len(blob) // 2
            path.write_bytes(blob[:middle] + bytes([blob[middle] ^ 0xFF]) + blob[middle + 1 :])
        elif how == "empty":
            path.write_bytes(b"")
        elif how == "wrong-shape":  # a well-formed cache file holding the wrong data
            path.write_bytes(cache.encode(["not", "a", {"record": 1}], store.key, name))
        elif how == "wrong-records":
            path.write_bytes(
                cache.encode({"pip/no-matching-dist.yaml": {"d": 1, "r": [[1, 2]], "s": 3}}, store.key, name)
            )
        elif how == "forged":  # a well-formed file tagged with another key: never decoded
            path.write_bytes(cache.encode({}, b"k" * 32, name))
        elif how == "foreign-codes":  # records of another entrykit: findings of rules this one has not
            try:
                payload = cache.decode(blob, store.key, name)
            except ValueError:  # (a memo shard another test left damaged: no record of this run)
                continue
            path.write_bytes(cache.encode(_foreign(payload), store.key, name))
        damaged += 1
    return damaged


def _foreign(value: Any) -> Any:
    """`value` with the rule code of every finding in it (a tuple of 8 starting with a code)
    one that names no rule."""
    if isinstance(value, tuple) and len(value) == 8 and isinstance(value[0], str) and value[0].startswith("ET"):
        return ("ET999", *value[1:])
    if isinstance(value, (list, tuple)):
        return type(value)(_foreign(v) for v in value)
    if isinstance(value, dict):
        return {k: _foreign(v) for k, v in value.items()}
    return value


_DAMAGE = ["garbage", "truncated", "flipped", "empty", "wrong-shape", "wrong-records", "forged", "foreign-codes"]


@pytest.mark.parametrize("how", _DAMAGE)
def test_a_damaged_cache_is_ignored_and_rebuilt(tmp_path: Path, how: str, old_files: None) -> None:
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    expected = _rows(_reference(root, config))
    _run(root, config)
    assert _damage(config, how) > 0
    assert _rows(_run(root, config)) == expected
    # rebuilt: the next run reads it again
    store = engine.open_store(config)
    assert store is not None and store.known() == {k for k in _files()}


@pytest.mark.parametrize("how", _DAMAGE)
def test_a_damaged_cache_never_changes_a_pre_commit_run(tmp_path: Path, how: str, old_files: None) -> None:
    """A run over one file reads the other files' rows from the cache's files table."""
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    target = [root / "pip" / "no-matching-dist.yaml"]
    expected = _rows(_reference(root, config, paths=target))
    _run(root, config)
    assert _rows(_run(root, config, paths=target)) == expected
    assert _damage(config, how) > 0
    assert _rows(_run(root, config, paths=target)) == expected


def _many_files() -> dict[str, str]:
    """`_files()` and copies of its good entry under other names: duplicate ids, so that
    corpus rules find something on most files, spread over the cache's shards."""
    files = _files()
    for n in range(24):
        files[f"pip/copy-{n}.yaml"] = GOOD
    return files


def test_a_pre_commit_run_reads_only_its_files_of_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old_files: None
) -> None:
    """After a full run, a run over one edited file reads the files table, the corpus
    phase's head, the shards of that one file, and the corpus shards of the files its
    findings point at (for their digests then): no other file's results or findings."""
    root = write_corpus(tmp_path, _many_files())
    config = make_config(tmp_path)
    target = root / "pip" / "copy-7.yaml"
    _run(root, config)
    target.write_text(GOOD + "# reviewed\n")  # an edit corpus rules do not see: findings reused
    expected = _rows(_reference(root, config, paths=[target]))
    assert any(row[3] == "ET501" for row in expected)  # a corpus finding, from the last full run
    loaded: list[str] = []
    real = cache.Store._load

    def spy(store: cache.Store, place: str, name: str) -> Any:
        loaded.append(name)
        return real(store, place, name)

    read: list[int] = []
    real_read = engine.read_findings

    def count(items: Any, *rest: Any) -> Any:
        found = real_read(items, *rest)
        read.append(len(found))
        return found

    monkeypatch.setattr(cache.Store, "_load", spy)
    monkeypatch.setattr(engine, "read_findings", count)
    monkeypatch.setattr(engine, "_corpus_findings", None)  # the corpus rules never run
    assert _rows(_run(root, config, paths=[target])) == expected
    assert 0 < sum(read) <= len(expected)  # the corpus findings of the target, not of every file
    shard = f"{cache.shard_of('pip/copy-7.yaml'):02d}"
    own = {f"cor-{shard}", f"res-{shard}", f"idx-{cache.index_shard_of('pip/copy-7.yaml'):03d}"}  # (its new summary)
    rows = {f"files-{n:02d}" for n in range(cache.SHARDS)}
    pointed = {Path(place.path).relative_to(root.name).as_posix() for row in expected for place in row[6]}
    assert pointed - {"pip/copy-7.yaml"}  # (ET501 names the other files of the id)
    digests = {f"cor-{cache.shard_of(key):02d}" for key in pointed}
    assert {n for n in loaded if not n.startswith("memo-")} <= {*rows, "corpus", *own, *digests}
    assert f"cor-{shard}" in loaded


def test_a_pre_commit_run_places_related_findings_in_an_edited_file_it_does_not_report_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old_files: None
) -> None:
    """Lines added above the id of a file that a target's corpus findings point at, and the
    target left alone: the run takes the findings from the last full run, and the places
    in the edited file are looked up again (its digest then, read from its corpus shard,
    is not its digest now), as a fresh run finds them."""
    root = write_corpus(tmp_path, _many_files())
    config = make_config(tmp_path)
    target = root / "pip" / "copy-7.yaml"
    _run(root, config)
    before = _rows(_run(root, config, paths=[target]))
    pointed = sorted({place.path for row in before for place in row[6] if place.path != f"{root.name}/pip/copy-7.yaml"})
    assert pointed
    edited = root.parent / pointed[0]
    edited.write_text("# reviewed\n# twice\n" + edited.read_text())  # its places move, its summary does not
    monkeypatch.setattr(engine, "_corpus_findings", None)  # the corpus rules never run
    after = _rows(_run(root, config, paths=[target]))
    monkeypatch.undo()
    assert after == _rows(_reference(root, config, paths=[target]))
    lines = {place.line for row in after for place in row[6] if place.path == pointed[0]}
    assert lines and lines.isdisjoint({place.line for row in before for place in row[6] if place.path == pointed[0]})


@pytest.mark.parametrize("which", ["a shard", "the head"])
def test_corpus_findings_of_another_writing_are_never_taken(
    tmp_path: Path, which: str, monkeypatch: pytest.MonkeyPatch, old_files: None
) -> None:
    """Each writing of the corpus findings names itself in its head and every shard: a run
    that sees a shard of one writing and the head of another (a writer stopped midway, or
    two at once) runs the corpus rules again rather than take findings of another state."""
    root = write_corpus(tmp_path, _many_files())
    config = make_config(tmp_path)
    target = root / "pip" / "copy-7.yaml"
    _run(root, config)
    store = engine.open_store(config)
    assert store is not None
    name = "corpus" if which == "the head" else f"cor-{cache.shard_of('pip/copy-7.yaml'):02d}"
    path = store.folder / name
    payload = cache.decode(path.read_bytes(), store.key, f"env/{name}")
    assert isinstance(payload.get("written"), str)
    payload["written"] = "another writing"
    if which == "a shard":
        payload["findings"], payload["places"] = {}, {}  # what it would claim: nothing to report
    path.write_bytes(cache.encode(payload, store.key, f"env/{name}"))
    expected = _rows(_reference(root, config, paths=[target]))
    calls: list[int] = []
    real = engine._corpus_findings

    def spy(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(engine, "_corpus_findings", spy)
    assert _rows(_run(root, config, paths=[target])) == expected
    assert calls == [1]


def test_a_pre_commit_plan_names_the_rest_of_the_corpus_as_discovery_finds_it(tmp_path: Path) -> None:
    from entrykit.loader import discover
    from entrykit.targets import plan

    root = write_corpus(tmp_path, _many_files())
    config = make_config(tmp_path)
    target = root / "pip" / "copy-7.yaml"
    files = plan([target], config)
    everything = list(discover([root]))
    assert files.targets == [target] and files.size == len(everything)
    assert files.corpus == [target, *(p for p in everything if p != target)]
    assert files.others == [str(p) for p in everything if p != target]
    whole = plan(None, config)
    assert whole.targets == whole.corpus == everything and whole.others == []


def test_an_unusable_cache_folder_does_not_fail_the_run(tmp_path: Path) -> None:
    root = write_corpus(tmp_path, _files())
    where = tmp_path.parent / f"{tmp_path.name}-not-a-folder"
    where.write_text("a file where the folder should be")
    config = make_config(tmp_path)
    result = _run(root, config, cache_dir=where)
    assert _rows(result) == _rows(_reference(root, config))
    assert len(result.notes) == 1 and "cannot be used" in result.notes[0]


def test_a_cache_that_cannot_be_written_is_said_and_the_lint_is_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk while the cache is saved: the same findings, a note saying the cache was
    not saved, and the next run (with room again) as right as ever."""
    from entrykit import private_folder

    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    expected = _rows(_reference(root, config))

    def full(self: Any, name: str, data: Any) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patched:
        patched.setattr(private_folder.Folder, "write", full)
        result = _run(root, config)
    assert _rows(result) == expected
    assert len(result.notes) == 1
    assert "was not saved in full (No space left on device)" in result.notes[0]
    again = _run(root, config)
    assert _rows(again) == expected and again.notes == []


def test_cache_files_hold_plain_data_only(tmp_path: Path) -> None:
    """The format never unpickles: a file naming a callable is data that fails the shape check."""
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    _run(root, config)
    store = engine.open_store(config)
    assert store is not None
    for path in store.folder.glob("res-*"):
        assert path.read_bytes().startswith(cache.MAGIC)
        assert isinstance(cache.decode(path.read_bytes(), store.key, f"env/{path.name}"), dict)
        with pytest.raises(ValueError):  # the tag is made for one name: a file moved is no file
            cache.decode(path.read_bytes(), store.key, "env/res-99")
    with pytest.raises(ValueError):
        cache.decode(b"\x80\x04\x95" + b"cos\nsystem\n", store.key, "env/res-00")


_WORKER_SCRIPT = """
import json, sys
from datetime import date
from pathlib import Path
from entrykit.config import from_table
from entrykit.lint.engine import lint
base, rounds, which = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
config = from_table({"root": "entries"}, base)
out = []
for n in range(rounds):
    paths = [base / "entries" / w for w in which] if n % 2 else None
    result = lint(paths, config, date(2026, 11, 30), cwd=base, use_cache=True)
    out.append([[d.path, d.line, d.col, d.code, d.message] for d in result.diagnostics])
print(json.dumps(out))
"""


def test_two_processes_at_once_never_change_results(tmp_path: Path) -> None:
    files = _files()
    for n in range(12):
        files[f"pip/extra-{n}.yaml"] = OTHER.replace("pip/wheel-build-failed", f"pip/extra-{n}").replace(
            "lxml", f"lxml{n}"
        )
    write_corpus(tmp_path, files)
    config = make_config(tmp_path)
    full = [[d.path, d.line, d.col, d.code, d.message] for d in lint(None, config, TODAY, cwd=tmp_path).diagnostics]
    picks = [["pip/extra-1.yaml", "pip/broken.yaml"], ["pip/no-matching-dist.yaml", "pip/extra-7.yaml"]]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER_SCRIPT, str(tmp_path), "8", *pick],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for pick in picks
    ]
    for proc, pick in zip(procs, picks, strict=True):
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        runs = json.loads(out)
        for n, rows in enumerate(runs):
            expected = full if n % 2 == 0 else [r for r in full if r[0] in {f"entries/{p}" for p in pick}]
            assert rows == expected
    store = engine.open_store(config)
    assert store is not None and store.known() == set(files)
    assert not [p for p in store.folder.parents[1].rglob("*.tmp")]


def test_records_round_trip(tmp_path: Path) -> None:
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path)
    _run(root, config)
    store = engine.open_store(config)
    assert store is not None
    data = store.result("pip/no-matching-dist.yaml")
    index = store.index("pip/no-matching-dist.yaml")
    assert data is not None and index is not None
    record = pipeline.FileRecord.from_data("pip/no-matching-dist.yaml", "x", root / "x", data)
    assert record is not None and record.result_data() == data
    assert record.add_index(index) and record.index_data() == index


class _Tripwire:
    """Stands in for `ctx.today` in rules that say they do not read it."""

    def _fail(self, *args: object) -> Any:
        raise AssertionError("read ctx.today without dated=True")

    __lt__ = __le__ = __gt__ = __ge__ = __sub__ = __rsub__ = __add__ = __radd__ = _fail
    __eq__ = _fail  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]

    def __getattr__(self, name: str) -> Any:
        self._fail()


def test_rules_that_do_not_say_dated_never_read_today() -> None:
    """Cached results of undated rules are reused on any day: they must not depend on it."""
    import yaml as pyyaml

    from entrykit import registry
    from entrykit.loader import load

    cases = Path(__file__).resolve().parent / "rules" / "cases"
    texts = []
    for case_file in sorted(cases.glob("*.yaml")):
        for case in pyyaml.safe_load(case_file.read_text(encoding="utf-8")) or []:
            texts += [case["entry"]] if "entry" in case else list(case.get("files", {}).values())
    seeds = Path(__file__).resolve().parent / "fixtures"
    texts += [p.read_text(encoding="utf-8") for p in sorted(seeds.rglob("*.yaml")) if "expected" not in p.name]
    config = make_config(Path.cwd())
    checked = 0
    for number, text in enumerate(texts):
        entry = load(Path(f"/nowhere/x/case{number}.yaml"), "case.yaml", text=text)
        if not hasattr(entry, "data"):
            continue
        for rule in registry.all_rules():
            if rule.func is None or rule.scope != "entry" or rule.dated:
                continue
            ctx = registry.Context(
                today=_Tripwire(),  # type: ignore[arg-type]
                options=config.options_for(rule),
                settings=config.settings,
            )
            list(rule.func(entry, ctx))
            checked += 1
    assert checked > 1000


# Every option of every configuration table, each at a value other than its default.
NON_DEFAULT: dict[str, dict[str, Any]] = {
    "dupes.threshold": {"dupes": {"threshold": 0.3}},
    "dupes.candidate": {"dupes": {"candidate": 0.3}},
    "dupes.allow": {"dupes": {"allow": ["pip/*"]}},
    "merge.rate_gap": {"merge": {"rate_gap": 0.05}},
    "regex.flags": {"regex": {"flags": ["IGNORECASE", "MULTILINE"]}},
    "regex.mode": {"regex": {"mode": "match"}},
    # every flag lookups may compile with, and the third mode
    "regex.flags (all)": {"regex": {"flags": ["IGNORECASE", "MULTILINE", "DOTALL", "VERBOSE", "ASCII"]}},
    "regex.mode (fullmatch)": {"regex": {"mode": "fullmatch"}},
    "regex.timeout_ms": {"regex": {"timeout_ms": 250}},
    "regex.measure": {"regex": {"measure": True}},
    "regex.polynomial_degree": {"regex": {"polynomial_degree": 2}},
    "regex.portable_to": {"regex": {"portable_to": ["re2", "ecmascript"]}},
    "translation.required": {"translation": {"required": ["zh", "ja"]}},
    "translation.fields": {"translation": {"fields": ["signature"]}},
    "translation.track_source": {"translation": {"track_source": True}},
    "translation.glossary": {"translation": {"glossary": {"zh": {"pip": ["包管理器"]}}}},
    "versions.aliases": {"versions": {"aliases": {"pip": ["pip3"]}}},
    "versions.vocabularies": {"versions": {"vocabularies": {"android": ["pie", "q", "r"]}}},
    "ET208.min_literal": {"rules": {"ET208": {"min_literal": 6}}},
    "ET209.max_pairs": {"rules": {"ET209": {"max_pairs": 1}}},
    "ET502.max_pairs": {"rules": {"ET502": {"max_pairs": 1}}},
    "ET305.kinds": {"rules": {"ET305": {"kinds": ["url", "path"]}}},
    "ET308.share": {"rules": {"ET308": {"share": 0.2}}},
    "ET602.min_resolvable_rate": {"rules": {"ET602": {"min_resolvable_rate": 0.9}}},
    "ET602.max_unresolvable_rate": {"rules": {"ET602": {"max_unresolvable_rate": 0.05}}},
    "ET603.max_confidence": {"rules": {"ET603": {"max_confidence": [0.3, 0.5, 0.7]}}},
    "ET607.max_age_days": {"rules": {"ET607": {"max_age_days": 30}}},
    "severity": {"rules": {"ET607": {"severity": "error"}}},
    "select": {"select": ["ET1", "ET2", "ET6"]},
    "ignore": {"ignore": ["ET607", "ET3"]},
    "per-file-ignores": {"per-file-ignores": {"entries/pip/*": ["ET2"]}},
    "max-file-bytes": {"max-file-bytes": 1500},
    "max-nesting": {"max-nesting": 3},
    "max-aliases": {"max-aliases": 0},
}


def test_the_option_table_names_every_option() -> None:
    from entrykit import registry
    from entrykit.settings import SECTIONS

    declared = {f"{name}.{option}" for name, section in SECTIONS.items() for option in section.options}
    declared |= {f"{rule.code}.{option}" for rule in registry.all_rules() for option in rule.options}
    assert declared <= set(NON_DEFAULT), sorted(declared - set(NON_DEFAULT))


@pytest.mark.parametrize("option", [*NON_DEFAULT, "all at once"])
def test_every_option_gives_the_same_findings_with_the_cache(tmp_path: Path, option: str, old_files: None) -> None:
    """Cold and warm cached runs equal a run without the cache, whatever the configuration."""
    from .conftest import REPO

    tables = list(NON_DEFAULT.values()) if option == "all at once" else [NON_DEFAULT[option]]
    table: dict[str, Any] = {}
    for part in tables:
        for key, value in part.items():
            if isinstance(value, dict) and isinstance(table.get(key), dict):
                table[key] = {**table[key], **value}
            else:
                table[key] = value
    for domain in ("pip", "git"):
        for source in sorted((REPO / "entries" / domain).glob("*.yaml")):
            write_corpus(tmp_path, {f"{domain}/{source.name}": source.read_text(encoding="utf-8")})
    root = write_corpus(tmp_path, _files())
    config = make_config(tmp_path, table)
    expected = _rows(_reference(root, config))
    assert _rows(_run(root, config)) == expected  # cold: the cache is written
    assert _rows(_run(root, config)) == expected  # warm: read back
    one = [root / "pip" / "no-matching-dist.yaml"]
    assert _rows(_run(root, config, paths=one)) == _rows(_reference(root, config, paths=one))


@pytest.mark.parametrize("seed", range(20))
def test_a_shard_checked_in_shape_is_what_filtering_its_items_leaves(seed: int) -> None:
    """A shard whose keys are all text (and, for results, whose records are all dicts) is
    taken as it is; any other keeps what the item-by-item filter keeps."""
    rng = random.Random(seed)
    kinds = ["key", 7, b"key", None, ("k",), 1.5]
    values = [{"d": "x"}, [1], "text", None, {}]
    shard = {}
    for n in range(rng.randrange(0, 12)):
        key = rng.choice(kinds) if rng.random() < 0.2 else f"file-{n}.yaml"
        shard[key if not isinstance(key, str) else f"{key}-{n}"] = rng.choice(values) if rng.random() < 0.2 else {"d": n}
    assert cache._str_keys(shard) == {k: v for k, v in shard.items() if isinstance(k, str)}
    assert cache._dict_of_dicts(shard) == {
        k: v for k, v in shard.items() if isinstance(k, str) and isinstance(v, dict)
    }
    assert cache._str_keys([("a", 1)]) == {} == cache._dict_of_dicts("shard")


def test_a_files_summary_shard_is_one_of_four_that_split_its_results_shard() -> None:
    keys = [f"folder-{n % 7}/entry-{n}.yaml" for n in range(2000)]
    assert all(cache.index_shard_of(key) % cache.SHARDS == cache.shard_of(key) for key in keys)
    assert {cache.index_shard_of(key) for key in keys} == set(range(cache.INDEX_SHARDS))
