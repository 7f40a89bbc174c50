"""Globs of the configuration are matched as sets (`globs.GlobSet`), each compiled once.

fnmatch compiles a glob again unless it is among the last 32,768 it compiled: with more
per-file-ignores or `dupes.allow` globs than that, every match compiled all of them anew
(40,000 of either took a lint of 2,500 entries past five minutes). A set answers what
fnmatch answers for each of its globs."""

from __future__ import annotations

import fnmatch
import os
import pickle
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.config import Config, from_table
from entrykit.errors import ConfigError
from entrykit.globs import GLOBS_LIMIT, GlobSet

_GLOBS = st.text(st.sampled_from("[]!-ab*?/."), max_size=10)
_TEXTS = st.text(st.sampled_from("[]!-ab/."), max_size=6)


@settings(max_examples=600, deadline=None)
@given(st.lists(_GLOBS, max_size=5), st.lists(_TEXTS, min_size=1, max_size=5))
@example(["a", "a", "*"], ["a", "b"])
@example(["[", "a[", "[]a]"], ["[", "a[", "]", "a"])
def test_a_set_answers_as_fnmatch_does_for_each_glob(patterns: list[str], texts: list[str]) -> None:
    cased, as_paths = GlobSet(patterns), GlobSet(patterns, paths=True)
    for text in texts:
        expected = [i for i, p in enumerate(patterns) if fnmatch.fnmatchcase(text, p)]
        assert cased.mask(text) == sum(1 << i for i in expected)
        assert cased.matches_any(text) == bool(expected)
        assert as_paths.matches_any(text) == any(fnmatch.fnmatch(text, p) for p in patterns)


def test_paths_compare_as_fnmatch_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os.path, "normcase", str.lower)  # (as on Windows)
    assert GlobSet(["Pip/*.YAML"], paths=True).matches_any("pip/x.yaml")
    assert not GlobSet(["Pip/*.YAML"]).matches_any("pip/x.yaml")


def test_each_glob_is_compiled_once_whatever_the_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    """fnmatch with a cache too small for the globs (made so here) compiles each glob per
    text; the set translates each once, and compiles them each alone only once a text is
    matched by one (then once)."""
    translated: list[str] = []
    real = fnmatch.translate

    def counted(pattern: str) -> str:
        translated.append(pattern)
        return real(pattern)

    monkeypatch.setattr(fnmatch, "translate", counted)
    monkeypatch.setattr(fnmatch, "_compile_pattern", lambda pattern: re.compile(fnmatch.translate(pattern)).match)
    patterns = [f"n{i}/*.yaml" for i in range(50)] + ["exact/x.yaml"]
    config = Config(base=Path("/b"), root=Path("/b/entries"), per_file_ignores=tuple((p, ("ET2",)) for p in patterns))
    for k in range(40):
        assert config.ignored_in_file(Path(f"/b/n{k}/x.yaml"), "ET205")
        assert not config.ignored_in_file(Path(f"/b/other{k}/x.yaml"), "ET205")
    assert sorted(translated) == sorted(patterns[:-1])  # the exact path is looked up

    allow = GlobSet(patterns)
    translated.clear()
    assert [allow.mask(f"x{k}/y") for k in range(40)] == [0] * 40
    assert len(translated) == 50
    assert allow.mask("n3/a.yaml") == 1 << 3 and allow.mask("n7/a.yaml") == 1 << 7
    assert allow.mask("exact/x.yaml") == 1 << 50
    assert len(translated) == 50  # (each compiled alone from its translation, not again)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(_GLOBS, st.lists(st.sampled_from(["ET1", "ET2", "ET205", "ET3"]), min_size=1, max_size=3)), max_size=5),
    st.text(st.sampled_from("[]!-ab"), min_size=1, max_size=6),
)
def test_a_file_ignores_the_codes_of_the_globs_it_matches(table: list[tuple[str, list[str]]], name: str) -> None:
    config = Config(base=Path("/b"), root=Path("/b/entries"), per_file_ignores=tuple((p, tuple(c)) for p, c in table))
    path = Path("/b") / "d" / name
    rel = path.relative_to("/b").as_posix()
    codes = {code for pattern, named in table if fnmatch.fnmatch(rel, pattern) for code in named}
    for code in ("ET101", "ET205", "ET301"):
        assert config.ignored_in_file(path, code) == any(code.startswith(c) for c in codes)


def test_a_set_is_copied_as_its_globs() -> None:
    allow = GlobSet([f"pip/{i}*" for i in range(300)] + ["x"], paths=True)
    assert allow.mask("pip/7a") == 1 << 7  # (compiled, and a mask kept)
    copied = pickle.loads(pickle.dumps(allow))
    assert copied.globs == allow.globs and copied.paths
    assert len(pickle.dumps(allow)) < len(pickle.dumps(allow.globs)) + 200
    assert copied.mask("pip/7a") == 1 << 7 and copied.matches_any("x") and not copied.matches_any("y")


def test_an_allow_list_longer_than_a_mask_holds_is_refused(tmp_path: Path) -> None:
    at_limit = [f"pip/{i}*" for i in range(GLOBS_LIMIT)]
    config = from_table({"dupes": {"allow": at_limit}}, tmp_path)
    assert config.settings["dupes"]["allow"] == at_limit
    with pytest.raises(ConfigError, match=re.escape(f"holds {GLOBS_LIMIT + 1:,} patterns, more than the {GLOBS_LIMIT:,} it may hold")):
        from_table({"dupes": {"allow": [*at_limit, "x*"]}}, tmp_path)



def test_per_file_ignores_of_more_globs_than_a_setting_may_hold_are_refused(tmp_path: Path) -> None:
    """Each file's path is tried against every glob: their number is bounded, as `dupes.allow`'s."""
    at_limit = {f"*q{i}*": ["ET6"] for i in range(GLOBS_LIMIT)}
    assert len(from_table({"per-file-ignores": at_limit}, tmp_path).per_file_ignores) == GLOBS_LIMIT
    with pytest.raises(ConfigError, match=re.escape(f"holds {GLOBS_LIMIT + 1:,} patterns, more than the {GLOBS_LIMIT:,} it may hold")):
        from_table({"per-file-ignores": {**at_limit, "x*": ["ET6"]}}, tmp_path)
