"""The prefiltered cross-match equals naive all-pairs exactly; folding follows re's IGNORECASE."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex.literal_index import (
    RegexIndex,
    Text,
    cover,
    cross_matches,
    fold,
    may_match_each,
    naive_cross_matches,
    required,
    satisfied,
)
from entrykit.regex.runner import RegexRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from generate import make_entries  # noqa: E402

pytestmark = pytest.mark.slow


def _pairs(found: dict[int, list[Text]]) -> set[tuple[int, int, str]]:
    return {(a, t.owner, t.pointer) for a, texts in found.items() for t in texts}


def _compiles(pattern: str | None, flags: int) -> str | None:
    if pattern is None:
        return None
    try:
        re.compile(pattern, flags)
    except re.error:
        return None
    return pattern


def _assert_same(patterns: list[str | None], texts: list[Text], flags: int, mode: str, fewer: int = 20) -> Any:
    with RegexRunner(1000) as runner:
        fast = cross_matches(patterns, texts, flags, mode, runner)
    assert not fast.timeouts and not fast.errors
    naive = naive_cross_matches(patterns, texts, flags, mode)
    assert _pairs(fast.pairs) == _pairs(naive)
    # the prefilter must actually filter: far fewer runs than all pairs
    assert fast.tried < len(patterns) * len(texts) / fewer
    return fast


def test_deadends_sample_equals_naive_all_pairs(deadends_dir: Path) -> None:
    """The canon JSON files as they are: error.regex against error.signature, IGNORECASE
    (every third canon: the naive side runs every regex on every signature)."""
    files = sorted(deadends_dir.rglob("*.json"))[::3]
    assert len(files) >= 500
    patterns: list[str | None] = []
    texts: list[Text] = []
    for number, path in enumerate(files):
        error = json.loads(path.read_text(encoding="utf-8"))["error"]
        patterns.append(_compiles(error.get("regex"), re.IGNORECASE))
        texts.append(Text(number, "/signature", error["signature"]))
    _assert_same(patterns, texts, re.IGNORECASE, "search")


def test_deadends_sample_case_sensitive_match_mode(deadends_dir: Path) -> None:
    files = sorted(deadends_dir.rglob("*.json"))[1::3]  # the canons the test above leaves out
    patterns: list[str | None] = []
    texts: list[Text] = []
    for number, path in enumerate(files):
        error = json.loads(path.read_text(encoding="utf-8"))["error"]
        patterns.append(_compiles(error.get("regex"), 0))
        texts.append(Text(number, "/signature", error["signature"]))
    with RegexRunner(1000) as runner:
        fast = cross_matches(patterns, texts, 0, "match", runner)
    assert _pairs(fast.pairs) == _pairs(naive_cross_matches(patterns, texts, 0, "match"))


@pytest.mark.parametrize(
    ("style", "flags"), [("mixed", re.IGNORECASE), ("mixed", 0), ("template", re.IGNORECASE)]
)
def test_generated_corpus_equals_naive_all_pairs(style: str, flags: int) -> None:
    entries = make_entries(600, seed=7, regex_style=style)
    patterns: list[str | None] = [e["regex"] for e in entries]
    texts = [Text(i, "/signature", e["signature"]) for i, e in enumerate(entries)]
    # examples count too: some entries get another entry's message, shouted or as it is
    texts += [Text(i, "/examples/0", entries[(i * 7) % 600]["signature"].upper()) for i in range(0, 600, 3)]
    texts += [Text(i, "/examples/1", entries[(i * 11) % 600]["signature"]) for i in range(1, 600, 6)]
    fast = _assert_same(patterns, texts, flags, "search", 20 if style == "mixed" else 5)
    pairs = sum(len(v) for v in fast.pairs.values())
    if style == "mixed":  # covers the fallback path and both kinds of text
        assert fast.fallback >= 1 and pairs > (200 if flags == re.IGNORECASE else 50)
    else:  # one regex per message shape: the examples of other entries match it too
        assert pairs > 200


def test_case_folding_traps() -> None:
    patterns: list[str | None] = ["file not found", "kelvin", "long s", "ı am"]
    texts = [
        Text(10, "/signature", "FİLE NOT FOUND"),  # 'FİLE'.lower() holds no 'file', re matches
        Text(11, "/signature", "\u212aELVIN"),  # Kelvin sign
        Text(12, "/signature", "LONG \u017f"),  # long s
        Text(13, "/signature", "I AM"),  # dotless i
    ]
    assert "file" not in "FİLE".lower()
    with RegexRunner(1000) as runner:
        fast = cross_matches(patterns, texts, re.IGNORECASE, "search", runner)
    assert _pairs(fast.pairs) == {(0, 10, "/signature"), (1, 11, "/signature"), (2, 12, "/signature"), (3, 13, "/signature")}
    assert _pairs(naive_cross_matches(patterns, texts, re.IGNORECASE, "search")) == _pairs(fast.pairs)


SPECIAL = "İıIiſSsKkKµμΜßẞǅǄǆΣσςΩΩÅÅﬅ"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=SPECIAL + "abcxyzABCXYZ", min_size=1, max_size=1), st.text(alphabet=SPECIAL + "abcxyzABCXYZ", min_size=1, max_size=1))
def test_fold_agrees_with_re_ignorecase(pattern_char: str, text_char: str) -> None:
    matches = re.fullmatch(re.escape(pattern_char), text_char, re.IGNORECASE) is not None
    assert (fold(pattern_char) == fold(text_char)) == matches


def test_fold_is_lower_on_ascii() -> None:
    ascii_text = "".join(chr(c) for c in range(128))
    assert fold(ascii_text) == ascii_text.lower() == ascii_text.translate({c: ord(fold(chr(c) + "é")[0]) for c in range(128)})


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        ("fatal: not a git repository", {"fatal: not a git repository"}),
        ("precondition.*failed", {"precondition", "failed"}),  # AND: either one is a cover
        ("(foo|bar)baz", {"foobaz", "barbaz"}),
        ("a?bcd", {"bcd", "abcd"}),
        ("x*yz", None),  # only two characters are required and they are not contiguous with x
        ("(?:abc)?def", {"def", "abcdef"}),
        ("\\w+ error", {" error"}),
        ("(abc|\\d+)", None),  # a branch without any literal
        ("(?=.*needle)hay", {"needle", "hay"}),
        ("(?!abc)xyz", {"xyz"}),
    ],
)
def test_required_literals(pattern: str, literals: set[str] | None) -> None:
    found = cover(required(pattern), min_len=3)
    if literals is None:
        assert found is None
    else:
        assert found is not None and found <= literals


def test_match_lists_matching_regexes_only() -> None:
    patterns: list[str | None] = ["CUDA out of memory", "out of memory", "No module named '\\w+'", None]
    index = RegexIndex(patterns, re.IGNORECASE, "search", ["x"])
    with RegexRunner(1000) as runner:
        outcomes = index.match("torch.OutOfMemoryError: CUDA out of memory. Tried", runner)
    assert {n for n, o in outcomes.items() if o.matched} == {0, 1}
    assert 2 not in outcomes  # never run: its literal is absent


def test_pairs_run_in_small_chunks_equal_one_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs go to the runner a few regexes at a time: the pairs are those of one big run."""
    import entrykit.regex.literal_index as regex_index

    entries = make_entries(600, seed=7, regex_style="mixed")
    patterns: list[str | None] = [e["regex"] for e in entries]
    texts = [Text(i, "/signature", e["signature"]) for i, e in enumerate(entries)]
    texts += [Text(i, "/examples/0", entries[(i * 7) % 600]["signature"].upper()) for i in range(0, 600, 3)]
    with RegexRunner(1000) as runner:
        whole = cross_matches(patterns, texts, re.IGNORECASE, "search", runner)
        calls: list[int] = []
        real_run = runner.run

        def counting_run(jobs: Any, remember: bool = True, fast: Any = None) -> Any:
            calls.append(len(jobs))
            return real_run(jobs, remember, fast)

        monkeypatch.setattr(runner, "run", counting_run)
        monkeypatch.setattr(regex_index, "RUN_CHUNK", 50)
        chunked = cross_matches(patterns, texts, re.IGNORECASE, "search", runner)
    assert len(calls) > 3 and sum(calls) == whole.tried == chunked.tried
    assert _pairs(chunked.pairs) == _pairs(whole.pairs) and sum(len(v) for v in whole.pairs.values()) > 0
    assert chunked.timeouts == whole.timeouts and chunked.errors == whole.errors


@given(
    st.lists(st.text(alphabet="ab\0c", max_size=6), max_size=6),
    st.text(alphabet="ab\0c", max_size=3),
    st.text(alphabet="abc", min_size=1, max_size=2),
)
def test_may_match_each_tells_which_texts_hold_the_literals(texts: list[str], literal: str, other: str) -> None:
    for query in (literal, ("and", (literal, other)), ("or", (literal, other))):
        holding = may_match_each(query, texts)
        for number, text in enumerate(texts):
            has = [part in text for part in ((literal,) if isinstance(query, str) else query[1])]
            expected = all(has) if isinstance(query, str) or query[0] == "and" else any(has)
            assert bool(holding >> number & 1) == expected


def _holds(query: Any, present: set[str], folded: str) -> bool:
    """What `satisfied` answers, spelt out: every part of an "and", one part of an "or"."""
    if query is None:
        return True
    if isinstance(query, str):
        return query in present if len(query) >= 2 else query in folded
    found = [_holds(part, present, folded) for part in query[1]]
    return all(found) if query[0] == "and" else any(found)


_LITERALS = st.sampled_from(["a", "b", "ab", "ba", "abc", "c"])
_QUERIES = st.recursive(
    _LITERALS, lambda inner: st.tuples(st.sampled_from(["and", "or"]), st.lists(inner, min_size=1, max_size=4).map(tuple))
)


@given(_QUERIES, st.text(alphabet="abc", max_size=8))
def test_satisfied_is_every_part_of_an_and_and_one_part_of_an_or(query: Any, folded: str) -> None:
    present = {lit for lit in ("ab", "ba", "abc") if lit in folded}
    assert satisfied(query, present, folded) is _holds(query, present, folded)
