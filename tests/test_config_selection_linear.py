"""Whether a code is selected, and whether a file's per-file-ignores leave it out, are
answered by a look-up per prefix of the code: `select`/`ignore` as sets, and the codes of
the patterns a file matches found once for the file, not once per finding. Both were a
pass over the configuration per question: 8,000 per-file-ignores patterns and 8,000
findings linted in 87 s CPU; a `select` of 8,000 codes and 8,000 suppressions in 12.8 s.
Same answers as before."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.config import Config
from entrykit.globs import GLOBS_LIMIT, GlobSet

from .conftest import lint_corpus, make_config
from .hostile import entry_text

_PREFIXES = st.sampled_from(["E", "ET", "ET2", "ET20", "ET205", "ET206", "ET3", "ET301", "X", "ET2050"])
_CODES = st.sampled_from(["ET205", "ET206", "ET301", "ET001", "E", "ET", "X1"])
_GLOBS = st.sampled_from(["*", "pip/*", "*.yaml", "pip/x.yaml", "git/*.json", "?it/*", "[pg]*/x.*", "*/y.yaml"])
_FILES = st.sampled_from(["pip/x.yaml", "git/x.yaml", "git/y.json", "pip/y.yaml", "x.yaml"])


def _enabled_as_before(config: Config, code: str) -> bool:
    """`Config.enabled` as it was: a pass over `select` and `ignore`."""
    best_select = max((len(p) for p in config.select if code.startswith(p)), default=-1)
    best_ignore = max((len(p) for p in config.ignore if code.startswith(p)), default=-1)
    return best_select >= 0 and best_select > best_ignore


def _ignored_as_before(config: Config, abspath: Path, code: str) -> bool:
    """`Config.ignored_in_file` as it was: every pattern matched for every question."""
    rel = abspath.relative_to(config.base).as_posix()
    return any(fnmatch.fnmatch(rel, p) and any(code.startswith(c) for c in codes) for p, codes in config.per_file_ignores)


@settings(max_examples=600, deadline=None)
@given(st.lists(_PREFIXES, min_size=1, max_size=6), st.lists(_PREFIXES, max_size=6), st.lists(_CODES, max_size=8))
def test_selection_is_as_before(select: list[str], ignore: list[str], codes: list[str]) -> None:
    config = replace(Config(base=Path("/b"), root=Path("/b/entries")), select=tuple(select), ignore=tuple(ignore))
    for code in codes:
        assert config.enabled(code) == _enabled_as_before(config, code)


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.tuples(_GLOBS, st.lists(_PREFIXES, max_size=3).map(tuple)), max_size=5),
    st.lists(st.tuples(_FILES, _CODES), max_size=12),
)
def test_per_file_ignores_are_as_before(patterns: list[tuple[str, tuple[str, ...]]], questions: list[tuple[str, str]]) -> None:
    base = Path("/b")
    config = Config(base=base, root=base / "entries", per_file_ignores=tuple(patterns))
    for name, code in questions:  # (files asked about in any order: the kept file changes)
        abspath = base / name
        assert config.ignored_in_file(abspath, code) == _ignored_as_before(config, abspath, code)
    outside = Path("/elsewhere/pip/x.yaml")
    assert config.ignored_in_file(outside, "ET205") == any(
        fnmatch.fnmatch(outside.as_posix(), p) and any("ET205".startswith(c) for c in codes) for p, codes in patterns
    )


class _CountedTuple(tuple[str, ...]):
    """A tuple of codes that counts the items read by iterating it."""

    read = 0

    def __iter__(self) -> Iterator[str]:
        for item in super().__iter__():
            _CountedTuple.read += 1
            yield item


def test_each_question_costs_no_pass_over_select_and_ignore() -> None:
    count = 2_000
    written = [f"ET{n % 900 + 100}" for n in range(count)]
    config = replace(
        Config(base=Path("/b"), root=Path("/b/entries")), select=_CountedTuple(["ET", *written]), ignore=_CountedTuple(written)
    )
    _CountedTuple.read = 0
    assert not any(config.enabled(code) for code in written)
    assert config.enabled("ET99") and not config.enabled("ET1000") and not config.enabled("X")
    assert _CountedTuple.read <= 2 * (count + 1)  # (a pass per question read 8M codes)


def test_each_file_matches_each_pattern_once(monkeypatch: Any) -> None:
    """A file's path is matched once per code its per-file-ignores name (all of that code's
    globs as one regex), and each glob is translated once, whatever the questions."""
    asked: list[str] = []
    translated: list[str] = []
    real_any, real_translate = GlobSet.matches_any, fnmatch.translate

    def counted_any(self: GlobSet, text: str) -> bool:
        asked.append(text)
        return real_any(self, text)

    def counted_translate(pattern: str) -> str:
        translated.append(pattern)
        return real_translate(pattern)

    monkeypatch.setattr(GlobSet, "matches_any", counted_any)
    monkeypatch.setattr(fnmatch, "translate", counted_translate)
    patterns = tuple((f"x{n}/*.yaml", ("ET6",)) for n in range(500))
    base = Path("/b")
    config = Config(base=base, root=base / "entries", per_file_ignores=(*patterns, ("pip/*", ("ET2",))))
    for name in ("pip/x.yaml", "git/x.yaml"):
        answers = [config.ignored_in_file(base / name, code) for code in ["ET205", "ET601", "ET301"] * 300]
        assert answers == [name == "pip/x.yaml", False, False] * 300
    assert sorted(asked) == ["git/x.yaml"] * 2 + ["pip/x.yaml"] * 2  # (a pass per question matched 900K globs)
    assert len(translated) == len(patterns) + 1


def test_thousands_of_patterns_and_findings_go_through_lint(tmp_path: Path) -> None:
    count = 3_000
    text = entry_text("pip/x", examples=[f"no match {n}" for n in range(count)])
    patterns = {f"x{n}/*.yaml": ["ET6"] for n in range(GLOBS_LIMIT - 1)}  # (as many as a setting may hold)
    table = {"per_file_ignores": {**patterns, "*/pip/*": ["ET1"]}}
    result = lint_corpus(tmp_path, {"pip/x.yaml": text}, table)
    codes = sorted({d.code for d in result.diagnostics})
    assert codes == ["ET203", "ET301"] and len(result.diagnostics) == count + 1
    assert make_config(tmp_path, table).ignored_in_file(tmp_path / "entries/pip/x.yaml", "ET101")
