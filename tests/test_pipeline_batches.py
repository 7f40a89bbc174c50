"""Files are checked in batches, stage by stage (`Checker.check_files`): each record is the
one checking its file alone gives, and `PerEntry` keeps a batch's values for the rules
that read them in turn."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from entrykit import registry
from entrykit.config import load_config
from entrykit.lint import engine, pipeline
from entrykit.lint.records import FileRecord, Rerun
from entrykit.registry import ENTRIES_KEPT, PerEntry

REPO = Path(__file__).resolve().parent.parent
DAY = date(2026, 12, 5)

_FLAWED = """id: demo/flawed
signature: "Error 7: something failed"
regex: "Error \\\\d+: something failed ("
root_cause: A cause.
last_confirmed: "2020-01-01"
workarounds:
  - action: Restart it
  - action: Restart it
confidence: 1.5
"""
_SUPPRESSED = """id: demo/suppressed
signature: "Error 9: quiet"  # entrykit: disable=ET202
regex: "Error 8"
"""
_BROKEN = "id: demo/broken\nsignature: [unclosed\n"


def _corpus(tmp_path: Path) -> Path:
    """The repository's entries, and a flawed, a suppressed and a broken one among them."""
    root = tmp_path / "corpus"
    shutil.copytree(REPO / "entries", root / "entries")
    for name, text in (("flawed", _FLAWED), ("suppressed", _SUPPRESSED), ("broken", _BROKEN)):
        (root / "entries" / "git" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return root


def _tasks(root: Path, rerun: Rerun = Rerun.NONE, cached: dict[str, str] | None = None) -> list[pipeline.Task]:
    """A task per file of the corpus, in path order; `cached`: a digest to take as the cached one, by key."""
    entries = root / "entries"
    return [
        pipeline.Task(
            path, path.name, path.relative_to(entries).as_posix(), "yaml", want=True, rerun=rerun,
            facts=cached is None, cached_digest=(cached or {}).get(path.relative_to(entries).as_posix()),
        )
        for path in sorted(entries.rglob("*.yaml"))
    ]


def _kept(record: FileRecord) -> tuple[Any, ...]:
    return (record.key, record.digest, record.failure, record.summary, record.facts, record.results, record.dated,
            record.directives, record.sdigest)


def _checker(root: Path) -> pipeline.Checker:
    return pipeline.Checker(engine.configured(load_config(root)), DAY)


def test_a_batch_of_files_gives_the_records_of_each_file_checked_alone(tmp_path: Path) -> None:
    root = _corpus(tmp_path)
    tasks = _tasks(root)
    assert len(tasks) <= pipeline.BATCH_FILES  # (one batch)
    together = _checker(root).check_files(tasks)
    alone_checker = _checker(root)
    alone = [alone_checker.check_file(task) for task in tasks]
    assert [_kept(r) for r in together] == [_kept(r) for r in alone]
    # what the batch added to the memo travels with its last record checked, all of it
    assert {k: v for r in together for k, v in r.memo.items()} == {k: v for r in alone for k, v in r.memo.items()}
    assert [bool(r.memo) for r in together].count(True) == 1
    by_key = {r.key: r for r in together}
    assert by_key["git/broken.yaml"].failure is not None and by_key["git/broken.yaml"].summary is None
    assert by_key["git/suppressed.yaml"].directives
    assert len({len(r.results or []) for r in together}) > 2  # (files with different findings)


def test_files_of_a_batch_unchanged_since_the_cache_ask_only_for_what_they_miss(tmp_path: Path) -> None:
    root = _corpus(tmp_path)
    first = _checker(root).check_files(_tasks(root))
    digests = {r.key: r.digest for r in first}
    for rerun in Rerun:
        again = _checker(root).check_files(_tasks(root, rerun, digests))
        for before, now in zip(first, again, strict=True):
            assert now.digest == before.digest
            if rerun is Rerun.NONE:  # nothing asked of an unchanged file: it is not parsed
                assert now.failure is None and now.summary is None and now.results is None and now.dated is None
                continue
            if before.failure is not None:  # (asked for findings, it is parsed again, and fails again)
                assert now.failure == before.failure
                continue
            assert now.summary is None and now.facts == {}  # (not asked for)
            assert now.results == (before.results if rerun is Rerun.ALL else None)
            assert now.dated is not None and before.dated is not None and now.dated.findings == before.dated.findings


def test_lint_gives_the_same_diagnostics_however_many_files_a_batch_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _corpus(tmp_path)
    config = load_config(root)
    batched = list(engine.lint(None, config, DAY, cwd=root).diagnostics)
    monkeypatch.setattr(pipeline, "BATCH_FILES", 1)
    alone = list(engine.lint(None, config, DAY, cwd=root).diagnostics)
    assert batched == alone and len({d.code for d in batched}) > 5


class _Entry:
    """Stands for an entry: `PerEntry` reads nothing of it but who it is."""


def test_per_entry_keeps_the_values_of_as_many_entries_as_a_batch_holds() -> None:
    made: list[tuple[int, str]] = []
    entries = [_Entry() for _ in range(ENTRIES_KEPT)]
    number = {id(e): n for n, e in enumerate(entries)}

    def make(entry: Any, setting: str) -> tuple[int, str]:
        made.append((number[id(entry)], setting))
        return number[id(entry)], setting

    kept: PerEntry[str, tuple[int, str]] = PerEntry(make)
    setting = "s"
    for _ in range(3):  # three rules, each over the batch in turn
        assert [kept.get(e, setting) for e in entries] == [(n, "s") for n in range(ENTRIES_KEPT)]
    assert len(made) == ENTRIES_KEPT  # each made once
    assert kept.get(entries[0], "".join(["s"])) == (0, "s") and len(made) == ENTRIES_KEPT  # (an equal setting)
    assert kept.get(entries[0], "t") == (0, "t") and made[-1] == (0, "t")  # another setting: made again
    assert kept.get(entries[0], "t") == (0, "t") and len(made) == ENTRIES_KEPT + 1


def test_per_entry_lets_go_of_the_entry_asked_about_first_and_holds_no_more() -> None:
    entries = [_Entry() for _ in range(ENTRIES_KEPT + 1)]
    made: list[int] = []

    def make(entry: Any, setting: None) -> int:
        made.append(id(entry))
        return id(entry)

    kept: PerEntry[None, int] = PerEntry(make)
    for entry in entries:
        assert kept.get(entry, None) == id(entry)
    assert len(kept._kept) == ENTRIES_KEPT
    assert kept.get(entries[-1], None) == id(entries[-1]) and len(made) == len(entries)  # (still kept)
    assert kept.get(entries[0], None) == id(entries[0]) and len(made) == len(entries) + 1  # let go: made again
    assert len(kept._kept) == ENTRIES_KEPT
    kept.forget()
    assert kept._kept == {}


def test_a_batch_is_no_larger_than_what_per_entry_keeps() -> None:
    assert pipeline.BATCH_FILES <= ENTRIES_KEPT and pipeline.MAX_CHUNK <= ENTRIES_KEPT


def test_a_batch_holds_no_more_characters_of_parsed_files_than_allowed_but_a_larger_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _corpus(tmp_path)
    tasks = _tasks(root)
    whole = _checker(root).check_files(tasks)
    sizes = sorted(len(path.read_text(encoding="utf-8")) for path in (root / "entries").rglob("*.yaml"))
    limit = sizes[len(sizes) // 2] * 3  # (a few files of the median's size)
    checked: list[list[int]] = []
    real = pipeline.Checker.check_entries

    def spy(checker: pipeline.Checker, checks: Any) -> None:
        checked.append([len(check.entry.text) for check in checks])
        real(checker, checks)

    monkeypatch.setattr(pipeline, "BATCH_CHARACTERS", limit)
    monkeypatch.setattr(pipeline.Checker, "check_entries", spy)
    held = _checker(root).check_files(tasks)
    assert [_kept(r) for r in held] == [_kept(r) for r in whole]
    assert len(checked) > 2 and all(sum(batch) <= limit or len(batch) == 1 for batch in checked)
    assert any(len(batch) > 1 for batch in checked)
    assert sum(len(batch) for batch in checked) == sum(r.failure is None for r in whole)


def test_what_rules_derived_of_a_batch_s_entries_is_let_go_once_it_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _corpus(tmp_path)
    held: list[int] = []
    real = pipeline.Checker.findings

    def spy(checker: pipeline.Checker, checks: Any) -> Any:
        found = real(checker, checks)
        held.append(sum(len(kept._kept) for kept in registry._PER_ENTRY))
        return found

    monkeypatch.setattr(pipeline.Checker, "findings", spy)
    _checker(root).check_files(_tasks(root))
    assert held and held[0] > 0  # (the rules kept values while the batch was checked)
    assert all(not kept._kept for kept in registry._PER_ENTRY)


def test_entries_are_checked_a_batch_of_at_most_batch_files_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _corpus(tmp_path)
    whole = _checker(root).check_files(_tasks(root))
    sizes: list[int] = []
    real = pipeline.Checker._check_batch

    def spy(checker: pipeline.Checker, checks: Any) -> None:
        sizes.append(len(checks))
        real(checker, checks)

    monkeypatch.setattr(pipeline, "BATCH_FILES", 3)
    monkeypatch.setattr(pipeline.Checker, "_check_batch", spy)
    held = _checker(root).check_files(_tasks(root))
    assert [_kept(r) for r in held] == [_kept(r) for r in whole]
    assert max(sizes) == 3 and sum(sizes) == sum(r.failure is None for r in whole)
