"""A corpus's cross-matching runs at most `UNCOVERED_LIMIT` distinct regexes without a cover
(each on every text), the first in corpus order: a corpus where some share of the regexes has
none stays linear. ET209 warns on each regex left unchecked, in a full and a focused run alike."""

from __future__ import annotations

from pathlib import Path

from entrykit.regex.literal_index import UNCOVERED_LIMIT

from .conftest import lint_corpus

EXTRA = 4  # regexes without a cover past the limit


def _files(count: int) -> dict[str, str]:
    """`count` entries whose regexes need no literal of two characters (`\\d{3}-\\d{k}`), each
    matching the signatures with at least k digits after the dash: every other one, or some."""
    files = {}
    for k in range(1, count + 1):
        digits = "7" * k
        files[f"net/e{k:02d}.yaml"] = (
            f"id: net/e{k:02d}\nsignature: 'code 123-{digits} refused'\nregex: '\\d{{3}}-\\d{{{k}}}'\n"
        )
    return files


def _by_path(result: object, code: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for d in result.diagnostics:  # type: ignore[attr-defined]
        if d.code == code:
            out.setdefault(d.path.rsplit("/", 1)[-1], []).append(d.message)
    return out


def test_regexes_past_the_limit_are_left_unchecked_with_a_warning(tmp_path: Path) -> None:
    count = UNCOVERED_LIMIT + EXTRA
    result = lint_corpus(tmp_path, _files(count), {"select": ["ET209"]})
    found = _by_path(result, "ET209")
    unchecked = [f"e{k:02d}.yaml" for k in range(UNCOVERED_LIMIT + 1, count + 1)]
    for name in unchecked:
        assert found[name] == [
            "regex was not checked against other entries: entrykit finds no literal text of 2 characters "
            f"or more that a match needs, and runs only the first {UNCOVERED_LIMIT} such regexes of a "
            "corpus on every other entry's texts"
        ]
    # the first ones ran, on every other entry's signature (those of the unchecked ones too):
    # each matches those with as many digits or more
    for k in range(1, UNCOVERED_LIMIT + 1):
        messages = found[f"e{k:02d}.yaml"]
        if count - k > 5:  # (max_pairs: one summary with the count)
            assert messages == [m for m in messages if f"of {count - k} other entries" in m] != []
        else:
            assert sorted(messages) == [f"regex also matches the signature of `net/e{j:02d}`" for j in range(k + 1, count + 1)]
    warnings = [d for d in result.diagnostics if "not checked" in d.message]
    assert {d.severity.value for d in warnings} == {"warning"}


def test_a_focused_run_leaves_out_the_same_regexes(tmp_path: Path) -> None:
    count = UNCOVERED_LIMIT + EXTRA
    full = lint_corpus(tmp_path / "full", _files(count), {"select": ["ET209"]})
    for k in (1, UNCOVERED_LIMIT, UNCOVERED_LIMIT + 1, count):
        name = f"e{k:02d}.yaml"
        focused = lint_corpus(tmp_path / name, _files(count), {"select": ["ET209"]}, targets=[f"net/{name}"])
        assert _by_path(focused, "ET209").get(name) == _by_path(full, "ET209").get(name)


def test_regexes_written_alike_count_once(tmp_path: Path) -> None:
    files = _files(UNCOVERED_LIMIT)
    # the same regex as the first entry's, written again by entries that come later
    for extra in range(EXTRA):
        files[f"web/x{extra}.yaml"] = f"id: web/x{extra}\nsignature: 'code 123-7 reset'\nregex: '\\d{{3}}-\\d{{1}}'\n"
    result = lint_corpus(tmp_path, files, {"select": ["ET209"]})
    assert not [d for d in result.diagnostics if "not checked" in d.message]
