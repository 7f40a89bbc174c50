"""`entrykit fmt`: canonical layout, idempotent, comments kept, meaning unchanged, JSON stays JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from entrykit.authoring.formatter import canonical_keys, dump_entry, format_text
from entrykit.cli import ExitCode, cli
from entrykit.parsing import parse_json, parse_yaml
from entrykit.schema import load_schema

from .conftest import FIXTURES, REPO, lint_corpus

ENTRIES = REPO / "entries"

MESSY = """\
# yaml-language-server: $schema=../../schema/entry.schema.json
# entrykit: disable-file=ET607
regex: 'ERROR: boom'   # entrykit: disable=ET202
id: pip/x
# the signature, verbatim
signature: "ERROR: boom now"
tags: [b, a]
workarounds:
    -   success_rate: 0.5
        action: "Do it"   # end of line
    -   action: other
        success_rate: 1
# before dead ends
dead_ends: []
first_seen: 2024-01-01
root_cause: |
  line one
  line two
root_cause_zh: 第一行
domain: pip
signature_zh: "错误：boom"
category: 'runtime_error'
last_confirmed: '2024-02-01'
# trailing comment
"""


def _fmt(text: str, kind: str = "yaml") -> str:
    return format_text(text, kind).text


def _comments(text: str) -> list[str]:
    return sorted(line.split("#", 1)[1].strip() for line in text.splitlines() if "# " in line)


def test_entries_are_formatted() -> None:
    """CI: every bundled entry is already in the canonical layout."""
    result = CliRunner().invoke(cli, ["fmt", "--check", str(ENTRIES)], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN, result.output


def test_canonical_layout_of_a_messy_file() -> None:
    out = _fmt(MESSY)
    keys = [line.split(":")[0] for line in out.splitlines() if re.match(r"^[a-z_]+:", line)]
    assert keys == [
        "id", "signature", "signature_zh", "regex", "domain", "category", "root_cause",
        "root_cause_zh", "dead_ends", "workarounds", "first_seen", "last_confirmed", "tags",
    ]
    assert "regex: \"ERROR: boom\"" in out  # double quotes where plain is impossible
    assert "category: runtime_error\n" in out  # plain where YAML allows it
    assert 'first_seen: "2024-01-01"' in out  # dates stay strings for every YAML reader
    assert "  - action: Do it" in out and "    success_rate: 0.5" in out  # 2-space layout
    assert out.endswith("# trailing comment\n")


def test_comments_survive_and_move_with_their_key() -> None:
    out = _fmt(MESSY)
    assert _comments(out) == _comments(MESSY)
    lines = out.splitlines()
    assert lines[:2] == [
        "# yaml-language-server: $schema=../../schema/entry.schema.json",
        "# entrykit: disable-file=ET607",
    ]
    assert lines[lines.index("# the signature, verbatim") + 1].startswith("signature:")
    assert lines[lines.index("# before dead ends") + 1].startswith("dead_ends:")
    assert re.search(r"^regex: .*# entrykit: disable=ET202$", out, re.M)


def test_formatting_keeps_lint_results(tmp_path: Path) -> None:
    """Suppressions still silence the same findings after the keys moved."""
    before = lint_corpus(tmp_path / "a", {"pip/x.yaml": MESSY})
    after = lint_corpus(tmp_path / "b", {"pip/x.yaml": _fmt(MESSY)})
    assert [(d.code, d.pointer) for d in before.diagnostics] == [(d.code, d.pointer) for d in after.diagnostics]


def test_fmt_twice_changes_nothing() -> None:
    once = _fmt(MESSY)
    assert _fmt(once) == once


def test_an_end_of_line_comment_keeps_the_spaces_written_before_it() -> None:
    """Wherever the text before it now ends: keys unquoted, a value unquoted, an item indented less."""
    text = '"id": a/b    # four\n\'domain\': a  # two\nworkarounds:\n    -   action: "Do it"   # three\n'
    out = _fmt(text)
    assert "id: a/b    # four\n" in out and "domain: a  # two\n" in out and "  - action: Do it   # three\n" in out
    assert _fmt(out) == out


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_a_file_with_other_line_breaks_comes_out_with_line_feeds_only(newline: str) -> None:
    """A comment's line ended as the rest do, not with the carriage return it was read with."""
    text = newline.join(['"id": a/b', "domain: git    # four", "category: config_error  # two", "# last", ""])
    out = _fmt(text)
    assert "\r" not in out and "domain: git    # four\n" in out and out.endswith("# last\n")
    assert _fmt(out) == out


def test_a_line_separator_in_a_value_does_not_move_the_comments_below_it() -> None:
    """ruamel counts lines by their line feeds alone (U+2028 inside quotes is none)."""
    out = _fmt('id: a/b\nsignature: "x\u2028y"\n"domain": git    # four\n')
    assert "domain: git    # four\n" in out and _fmt(out) == out


def test_nested_comment_lines_pin_their_mapping() -> None:
    text = "id: a/b\nworkarounds:\n  - success_rate: 1\n    # why\n    action: x\n"
    out = _fmt(text)
    assert "    # why\n    action: x" in out and _fmt(out) == out


FILES = sorted(
    p
    for folder in (ENTRIES, FIXTURES / "seed001", FIXTURES / "golden")
    for p in folder.rglob("*")
    if p.suffix in (".yaml", ".json") and p.name not in ("broken.json", "expected.yaml")
)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_fixtures_keep_their_data_and_are_idempotent(path: Path) -> None:
    kind = "json" if path.suffix == ".json" else "yaml"
    text = path.read_text(encoding="utf-8")
    once = _fmt(text, kind)
    assert _fmt(once, kind) == once
    parse = parse_json if kind == "json" else parse_yaml
    assert parse(once).data == parse(text).data
    assert once.endswith("\n") and not once.endswith("\n\n")


def test_json_stays_json() -> None:
    text = '{"regex": "x", "id": "pip/x",\n "signature": "é"}'
    out = _fmt(text, "json")
    assert out == '{\n  "id": "pip/x",\n  "signature": "é",\n  "regex": "x"\n}\n'
    assert json.loads(out) == json.loads(text)


def test_translations_follow_their_field_in_locale_order() -> None:
    schema = load_schema()
    keys = ["workarounds_zh", "root_cause_type", "root_cause_pt_BR", "root_cause", "root_cause_ja", "x_custom", "id"]
    assert canonical_keys(keys, schema) == [
        "id", "root_cause", "root_cause_ja", "root_cause_pt_BR", "root_cause_type", "workarounds_zh", "x_custom",
    ]


def test_cli_check_diff_and_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "entries" / "pip"
    folder.mkdir(parents=True)
    (folder / "x.yaml").write_text(MESSY, encoding="utf-8")
    (folder / "ok.yaml").write_text(_fmt(MESSY), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    check = runner.invoke(cli, ["fmt", "--check"], catch_exceptions=False)
    assert check.exit_code == ExitCode.FINDINGS
    assert "would reformat entries/pip/x.yaml" in check.output and "ok.yaml" not in check.stdout
    diff = runner.invoke(cli, ["fmt", "--diff", "entries/pip/x.yaml"], catch_exceptions=False)
    assert diff.exit_code == ExitCode.FINDINGS and "+++ entries/pip/x.yaml\t(formatted)" in diff.output
    assert (folder / "x.yaml").read_text(encoding="utf-8") == MESSY  # --check/--diff write nothing
    write = runner.invoke(cli, ["fmt"], catch_exceptions=False)
    assert write.exit_code == ExitCode.CLEAN and "reformatted entries/pip/x.yaml" in write.output
    assert (folder / "x.yaml").read_text(encoding="utf-8") == _fmt(MESSY)
    assert runner.invoke(cli, ["fmt", "--check"]).exit_code == ExitCode.CLEAN


def test_cli_unparsable_file_is_exit_two_with_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bad.yaml").write_text("id: a/b\nsignature: [unclosed\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["fmt", "bad.yaml"])
    assert result.exit_code == ExitCode.ERROR
    assert re.search(r"bad\.yaml:\d+:\d+: cannot format:", result.output)
    assert "Traceback" not in result.output


# --- properties ------------------------------------------------------------

_TEXT = st.lists(
    st.sampled_from(list("abcXYZ019 :#-'\"[]{}|>&*!%@`,.?_/\\中文é\t") + ["\n", ": ", " #", "yes", "null", "1.5"]),
    max_size=12,
).map("".join)
_VALUE = st.one_of(_TEXT, st.integers(-5, 5), st.floats(0, 1, allow_nan=False), st.booleans(), st.none())
_ITEM = st.fixed_dictionaries(
    {"action": _TEXT}, optional={"success_rate": st.floats(0, 1), "how": _TEXT, "sources": st.lists(_TEXT, max_size=2)}
)
_ENTRY = st.fixed_dictionaries(
    {},
    optional={
        "id": _TEXT, "signature": _TEXT, "signature_zh": _TEXT, "regex": _TEXT, "domain": _TEXT,
        "root_cause": _TEXT, "root_cause_type": _VALUE, "first_seen": st.dates().map(str),
        "workarounds": st.lists(_ITEM, max_size=3), "workarounds_zh": st.lists(_TEXT, max_size=3),
        "tags": st.lists(_TEXT, max_size=3), "x_unknown": _VALUE, "confidence": _VALUE,
        "os_specific": st.dictionaries(_TEXT, _TEXT, max_size=2),
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entry=_ENTRY, order=st.randoms(use_true_random=False), style=st.sampled_from([None, '"', "'"]),
       flow=st.booleans())
def test_fmt_keeps_meaning_and_is_idempotent(entry: dict, order: object, style: str | None, flow: bool) -> None:
    keys = list(entry)
    order.shuffle(keys)  # type: ignore[attr-defined]
    shuffled = {k: entry[k] for k in keys}
    text = yaml.safe_dump(shuffled, sort_keys=False, allow_unicode=True, default_style=style,
                          default_flow_style=flow, width=4096)
    before = parse_yaml(text)
    if before.problem is not None or not isinstance(before.data, dict):
        return  # PyYAML wrote something the 1.2 reader sees otherwise; nothing to compare
    once = _fmt(text)
    assert parse_yaml(once).data == before.data
    assert _fmt(once) == once
    # canonical: the same data written in another style (quoted keys included) formats alike
    plain = yaml.safe_dump(shuffled, sort_keys=False, allow_unicode=True, width=4096)
    if parse_yaml(plain).data == before.data:
        assert _fmt(plain) == once
    as_json = json.dumps(shuffled, ensure_ascii=False)
    assert json.loads(format_text(as_json, "json").text) == shuffled


# What YAML readers take for a line break (LF, CR, NEL, line and paragraph separators),
# mixed with text a block scalar would otherwise hold.
_BREAKING_TEXT = st.lists(
    st.sampled_from(["line", " ", "x:", "\n", "\r", "\r\n", "\x85", "\u2028", "\u2029", "\t", "中"]), max_size=10
).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=_BREAKING_TEXT)
def test_new_entries_read_back_as_written_whatever_their_line_breaks(text: str) -> None:
    """`new`, `import` and `merge` write with `dump_entry`: what entrykit reads back, and what
    `fmt` leaves alone, is the text given, a NEL or a separator inside multi-line text too."""
    data = {
        "id": "t/x",
        "signature": text,
        "root_cause": text,
        "workarounds": [{"action": text, "how": text}],
        "tags": [text],
        "os_specific": {f"k{text}": text},
    }
    written = dump_entry(data)
    back = parse_yaml(written)
    assert back.problem is None and back.data == data, written
    assert format_text(written, "yaml").text == written


@pytest.mark.parametrize("spelling", ["y", "n", "Y", "N", "yes", "No", "OFF", "on", "017", "0o17", "1:30", "1e3", "1.0e3"])
def test_a_string_yaml_1_1_reads_as_another_value_is_written_quoted(tmp_path: Path, spelling: str) -> None:
    """What `fmt`, `new`, `import` and `merge` write draws no ET006: a plain `y` is a
    boolean to YAML 1.1 readers (the spec's, though not PyYAML's)."""
    data = {"id": "t/x", "signature": spelling, "tags": [spelling], "os_specific": {spelling: spelling}}
    written = dump_entry(data)
    assert parse_yaml(written).data == data
    result = lint_corpus(tmp_path, {"t/x.yaml": written}, {"select": ["ET006"]})
    assert result.diagnostics == [], written


@pytest.mark.parametrize("number", [1e-05, 5e-324, 1e20, 1.5e300, 0.5, 3.0])
def test_a_float_is_written_so_yaml_1_1_reads_a_float(tmp_path: Path, number: float) -> None:
    """`1e-05` is a string to YAML 1.1 (its floats need a point): entrykit writes `1.0e-05`."""
    data = {"id": "t/x", "signature": "s", "confidence": number}
    written = dump_entry(data)
    assert parse_yaml(written).data == data
    assert isinstance(yaml.safe_load(written)["confidence"], float), written  # (PyYAML reads YAML 1.1)
    assert lint_corpus(tmp_path, {"t/x.yaml": written}, {"select": ["ET006"]}).diagnostics == [], written
    assert format_text(written, "yaml").text == written
