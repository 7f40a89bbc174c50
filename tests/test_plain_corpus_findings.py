"""`Diagnostics` reads corpus findings in their plain form, by position, as it reads a
`StoredFinding`: what it reports is what it reports of the same findings read back into
`StoredFinding`s (the conversion it no longer makes)."""

from __future__ import annotations

import io
import shutil
from operator import attrgetter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit import registry
from entrykit.diagnostic import Diagnostic, Fix, Location, Severity
from entrykit.lint import engine, pipeline
from entrykit.lint.records import FileRecord, StoredFinding
from entrykit.lint.reporters import REPORTERS

from .conftest import REPO, TODAY, make_config


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What a cold run over the bundled entries hands to `Diagnostics`: with corpus findings
    (an id three times), left out by a per-file ignore, a suppression on their line and a
    file-wide one."""
    monkeypatch.setattr(pipeline, "RACY_NS", -(10**18))
    root = tmp_path / "entries"
    shutil.copytree(REPO / "entries", root)
    text = (root / "git" / "ambiguous-argument.yaml").read_text()
    (root / "git" / "ambiguous-argument-again.yaml").write_text(text)
    line = "id: git/ambiguous-argument\n"
    assert line in text
    once_more = text.replace(line, "id: git/ambiguous-argument  # entrykit: disable=ET501\n")
    (root / "git" / "ambiguous-argument-once-more.yaml").write_text(once_more)
    suppressed = root / "pytorch" / "fsdp-param-mismatch.yaml"
    suppressed.write_text("# entrykit: disable-file=ET501\n" + suppressed.read_text())
    config = make_config(tmp_path, {"per-file-ignores": {"entries/git/ambiguous-argument.yaml": ["ET5"]}})
    made: dict[str, Any] = {}
    plain_init = engine.Diagnostics.__init__

    def keep(self: engine.Diagnostics, records: Any, targets: Any, found: Any, config: Any) -> None:
        made.update(records=records, targets=targets, found=found, config=config)
        plain_init(self, records, targets, found, config)

    monkeypatch.setattr(engine.Diagnostics, "__init__", keep)
    engine.lint(None, config, TODAY, cwd=tmp_path)
    monkeypatch.undo()
    return made


def _read_back(found: dict[str, list[Any]]) -> dict[str, list[Any]]:
    return {key: [StoredFinding.read(item) for item in items] for key, items in found.items()}


def _placed(diagnostics: engine.Diagnostics) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """`by_file`, each `like` from its code on (what it stands for in every file)."""
    return [(path, [(line, col, like[3:]) for line, col, like in placed]) for path, placed in diagnostics.by_file()]


def _report(diagnostics: Any, name: str) -> str:
    out = io.StringIO()
    REPORTERS[name](diagnostics, registry.all_rules(), out)
    return out.getvalue()


def test_plain_corpus_findings_report_what_stored_ones_do(run: dict[str, Any]) -> None:
    found = run["found"]
    assert found and all(type(item) is tuple for items in found.values() for item in items)
    assert any(item[6] for items in found.values() for item in items)  # related places in play
    codes = [item[0] for items in found.values() for item in items]
    assert "ET501" in codes

    def diagnostics(corpus_found: dict[str, list[Any]]) -> engine.Diagnostics:
        return engine.Diagnostics(run["records"], run["targets"], corpus_found, run["config"])

    plain, stored = diagnostics(found), diagnostics(_read_back(found))
    made = list(stored)
    assert list(plain) == made
    assert any(d.related for d in made if d.code == "ET501")
    assert diagnostics(found).tally == diagnostics(_read_back(found)).tally
    assert _placed(diagnostics(found)) == _placed(diagnostics(_read_back(found)))
    for name in REPORTERS:
        assert _report(diagnostics(found), name) == _report(diagnostics(_read_back(found)), name)
    # a per-file ignore and a suppression leave out corpus findings as they are read
    ignored = [d for d in made if d.code == "ET501" and d.path.endswith("git/ambiguous-argument.yaml")]
    suppressed = [d for d in made if d.code == "ET501" and d.path.endswith("fsdp-param-mismatch.yaml")]
    on_line = [d for d in made if d.code == "ET501" and d.path.endswith("ambiguous-argument-once-more.yaml")]
    assert not ignored and not suppressed and not on_line
    assert [d for d in made if d.code == "ET501" and d.path.endswith("ambiguous-argument-again.yaml")]


_texts = st.text(max_size=6)
_places = st.tuples(st.one_of(st.none(), st.sampled_from(["a.yaml", "b.yaml"])), st.integers(1, 9), st.integers(1, 9), _texts)
_plain = st.tuples(
    st.sampled_from(["ET501", "ET502", "ET209"]), st.integers(1, 9), st.integers(1, 9),
    st.sampled_from(["error", "warning", "info"]), _texts, _texts, st.lists(_places, max_size=3).map(tuple),
    st.one_of(st.none(), st.tuples(_texts, st.integers(), _texts, st.booleans())),
)


def _reference(record: FileRecord, f: StoredFinding, shown_of: dict[str, str], names: dict[str, str]) -> Diagnostic:
    """The diagnostic of a stored finding, read by its fields' names."""
    related = tuple(
        Location(shown_of.get(r.key, record.shown) if r.key is not None else record.shown, r.line, r.col, r.pointer)
        for r in f.related
    )
    return Diagnostic(
        record.shown, f.line, f.col, f.code, names[f.code], Severity(f.severity), f.message, f.pointer, related,
        Fix(*f.fix) if f.fix is not None else None,
    )


@given(st.lists(_plain, max_size=6))
def test_a_plain_finding_reads_as_its_stored_form(items: list[tuple[Any, ...]]) -> None:
    record = FileRecord("a.yaml", "shown/a.yaml", Path("/r/a.yaml"), "yaml")
    shown_of = {"a.yaml": "shown/a.yaml", "b.yaml": "shown/b.yaml"}
    names = {code: code.lower() for code in ("ET501", "ET502", "ET209")}
    stored = [StoredFinding.read(item) for item in items]
    expected = [_reference(record, finding, shown_of, names) for finding in stored]
    assert engine._diagnostics(record, items, shown_of, names, {}) == expected
    assert engine._diagnostics(record, stored, shown_of, names, {}) == expected
    by_attribute = attrgetter("line", "col", "code", "message")
    assert [engine._by_place_in_file(item) for item in items] == [by_attribute(item) for item in stored]
    assert [engine._finding_severity(item) for item in items] == [item.severity for item in stored]
