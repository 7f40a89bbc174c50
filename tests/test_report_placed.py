"""A run's diagnostics read a file at a time (`Diagnostics.by_file`: each place and a
diagnostic equal from its code on, shared by every file reporting one finding) are the
diagnostics read one by one, and the JSON report of them is the report of the list."""

from __future__ import annotations

import io
from pathlib import Path

from entrykit import registry
from entrykit.diagnostic import Diagnostic, Tally
from entrykit.lint import engine
from entrykit.lint.records import FileRecord, RelatedPlace, StoredFinding, StoredFix
from entrykit.lint.reporters import report_json

from .conftest import make_config


def _record(key: str, findings: list[StoredFinding], **fields: object) -> FileRecord:
    record = FileRecord(key, f"shown/{key}", Path("/corpus", key), "yaml", results=findings, **fields)  # type: ignore[arg-type]
    return record


def _as_read(diagnostics: engine.Diagnostics) -> list[tuple[str, int, int, tuple[object, ...]]]:
    return [(d.path, d.line, d.col, d[3:]) for d in diagnostics]


def _as_placed(diagnostics: engine.Diagnostics) -> list[tuple[str, int, int, tuple[object, ...]]]:
    return [(path, line, col, like[3:]) for path, placed in diagnostics.by_file() for line, col, like in placed]


def _report(diagnostics: object) -> str:
    out = io.StringIO()
    report_json(diagnostics, registry.all_rules(), out)  # type: ignore[arg-type]
    return out.getvalue()


def test_diagnostics_by_file_are_the_diagnostics_in_order(tmp_path: Path) -> None:
    """One finding (one object) in three files: the same diagnostic after its place where it
    names other files, the reporting file's own name where it names the file itself (key
    None) or a file no record has; a fix, suppressions, unused ones (ET002), a load failure
    (ET001), and two records of one shown name, each as reading them one by one gives."""
    other = (RelatedPlace("c.yaml", 2, 12, "/signature"),)
    shared = StoredFinding("ET502", 4, 1, "warning", "near-duplicate", "/signature", other, None)
    own = StoredFinding("ET502", 3, 9, "warning", "near-duplicate", "/id", (RelatedPlace(None, 7, 3, "/id"),), None)
    gone = StoredFinding("ET502", 3, 9, "warning", "near-duplicate", "/id", (RelatedPlace("gone.yaml", 1, 1, ""),), None)
    fixed = StoredFinding("ET214", 1, 1, "error", "fix me", "/x", (), StoredFix("/x", [1, "a"], "set x", True))
    early = StoredFinding("ET101", 1, 5, "error", "b before a", "/a", (), None)
    records = [
        _record("a.yaml", [shared, own, gone, fixed, early]),
        _record("b.yaml", [own, shared, gone, early]),
        _record("c.yaml", [gone, shared, own], directives=[(1, 1, 4, "ET502"), (9, 1, None, "ET999")]),
        _record("d.yaml", [], failure=None),
        FileRecord("e.yaml", "shown/e.yaml", Path("/corpus/e.yaml"), "yaml", failure=engine.Failure(2, 3, "broken")),
        _record("f.yaml", [shared]),
        FileRecord("f2.yaml", "shown/f.yaml", Path("/corpus/f2.yaml"), "yaml", results=[own]),
    ]
    corpus_found = {"b.yaml": [shared.plain(), own.plain()]}
    config = engine.configured(make_config(tmp_path))
    lazy = engine.Diagnostics(records, records, corpus_found, config)
    read = list(engine.Diagnostics(records, records, corpus_found, config))
    assert {d.code for d in read} >= {"ET001", "ET002", "ET502", "ET101", "ET214"}
    assert _as_placed(lazy) == _as_read(engine.Diagnostics(records, records, corpus_found, config))
    assert lazy.tally == Tally.of(read)  # counted as read by file
    again = engine.Diagnostics(records, records, corpus_found, config)
    assert again[0] == read[0] and _as_placed(again) == _as_read(again)  # made first: read from the list
    likes = [like for _, placed in lazy.by_file() for *_, like in placed]
    assert len({id(like) for like in likes}) < len(likes)  # one finding's diagnostic shared by files
    assert _report(engine.Diagnostics(records, records, corpus_found, config)) == _report(read)


def test_diagnostics_by_file_of_a_run_are_its_list(tmp_path: Path) -> None:
    """Of a run over the repository's entries (every rule): in order, counted alike, and
    reported alike, read before or after the list."""
    import shutil

    from .conftest import REPO, TODAY

    shutil.copytree(REPO / "entries", tmp_path / "entries")
    lazy = engine.lint(None, make_config(tmp_path), TODAY, cwd=tmp_path).diagnostics
    assert isinstance(lazy, engine.Diagnostics)
    placed = _as_placed(lazy)
    made: list[Diagnostic] = list(lazy)
    assert placed == [(d.path, d.line, d.col, d[3:]) for d in made] and placed
    assert lazy.tally == Tally.of(made)
    assert _report(lazy) == _report(made)
