"""Entry text cannot steer entrykit's output: no forged lines, workflow commands or escape sequences.

A corpus whose entries (and one file name) hold line breaks followed by GitHub Actions
workflow commands, ANSI and OSC escape sequences, C1 controls and bidirectional
overrides goes through every command and every output format; no line of what they
print may start a workflow command or hold a control character a terminal obeys.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from entrykit.cli import cli
from entrykit.diagnostic import Diagnostic, Location, Severity
from entrykit.lint.reporters import REPORTERS, ReportOptions
from entrykit.output_safety import dumps, escape, escape_lines, json_safe

from .conftest import write_corpus

# What a CI log or a terminal would obey.
INJECTIONS = [
    "fine\n::error file=entries/x.yaml,line=1,title=FORGED::forged annotation",
    "fine\r\n  ::add-mask::secret-value",
    "fine\n##[error]old-style command",
    "::warning::at the very start",
    "\x1b[2J\x1b[31mred and the screen cleared\x1b[0m",
    "\x1b]0;window title\x07 and \x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",
    "C1 \x9b31m CSI and \x9d0;title\x9c OSC, NEL\x85::error::after NEL",
    "bidi \u202eevil\u202c and line\u2028::error::separator",
    "bidi marks \u200fright-to-left\u200e, \u061carabic letter mark",
    "bell\x07 backspace\x08 nul\x00 del\x7f",
]
# A line that starts a workflow command, as the runner reads it (leading white space trimmed).
COMMAND_LINE = re.compile(r"^\s*(::|##\[)")
OWN_ANNOTATION = re.compile(r"::(error|warning|notice) file=[^:,]*,line=\d+,col=\d+,title=ET\d{3} [a-z0-9-]+::")
# Controls a terminal obeys; SGR colour codes are entrykit's own only where colour is on.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def assert_safe(output: str, where: str) -> None:
    for number, line in enumerate(output.split("\n"), start=1):
        assert not COMMAND_LINE.match(line), f"{where}, line {number} starts a workflow command: {line!r}"
        assert not RAW_CONTROL.search(line), f"{where}, line {number} holds a raw control: {line!r}"


# -- the escaping function -------------------------------------------------------------------

unsafe_texts = st.text(
    alphabet=st.one_of(
        st.sampled_from(list(":#[ \t\n\r\x1b\x07\x85\x9b\x9d\u061c\u200e\u200f\u2028\u2029\u202e\u2066")),
        st.characters(min_codepoint=0, max_codepoint=0x3000),
    ),
    max_size=40,
)


@given(unsafe_texts)
def test_escape_leaves_nothing_to_obey(text: str) -> None:
    shown = escape(text)
    assert "\n" not in shown and "\r" not in shown
    assert not RAW_CONTROL.search(shown)
    assert not COMMAND_LINE.match(shown) and not shown.lstrip().startswith(":")
    assert escape(shown) == shown  # idempotent


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x2000, blacklist_characters=":#\x7f"),
               max_size=40))
def test_escape_is_the_identity_on_ordinary_text(text: str) -> None:
    if not RAW_CONTROL.search(text):
        assert escape(text) == text


@given(st.lists(unsafe_texts, max_size=5))
def test_escape_lines_keeps_the_lines_entrykit_wrote(parts: list[str]) -> None:
    text = "\n".join(escape(p) for p in parts) + "\n"
    shown = escape_lines(text)
    assert shown.count("\n") == text.count("\n")
    assert_safe(shown, "escape_lines")


@given(st.recursive(unsafe_texts, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(unsafe_texts, inner, max_size=3)))
def test_json_stays_exact_and_safe(value: object) -> None:
    encoded = dumps({"v": value}, indent=2)
    assert json.loads(encoded) == {"v": value}
    assert not RAW_CONTROL.search(encoded)
    assert json_safe(encoded) == encoded


# -- every reporter, on diagnostics made of hostile text ----------------------------------------

diagnostics = st.lists(
    st.builds(
        Diagnostic,
        path=unsafe_texts.filter(bool),
        line=st.integers(1, 99),
        col=st.integers(1, 99),
        code=st.sampled_from(["ET101", "ET202", "ET501"]),
        name=st.just("some-rule"),
        severity=st.sampled_from(list(Severity)),
        message=unsafe_texts,
        pointer=unsafe_texts.map(lambda t: "/" + t),
        related=st.lists(
            st.builds(Location, path=unsafe_texts, line=st.integers(1, 9), col=st.integers(1, 9), pointer=st.just("")),
            max_size=2,
        ).map(tuple),
        fix=st.none(),
    ),
    max_size=4,
)


@given(diagnostics, st.booleans())
def test_text_reporter_one_line_per_place(found: list[Diagnostic], color: bool) -> None:
    import io

    out = io.StringIO()
    REPORTERS["text"](found, [], out, ReportOptions(color=color, cwd=Path("/work")))
    text = out.getvalue()
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)  # entrykit's own colours, and nothing else
    assert_safe(plain, "text")
    assert text.count("\n") == sum(1 + len(d.related) for d in found)


@given(diagnostics)
def test_github_reporter_one_command_per_diagnostic(found: list[Diagnostic]) -> None:
    import io

    out = io.StringIO()
    REPORTERS["github"](found, [], out)
    lines = out.getvalue().splitlines()
    assert len(lines) == len(found)
    for line, d in zip(lines, found, strict=True):
        assert re.match(r"::(error|warning|notice) file=", line)
        assert not RAW_CONTROL.search(line)
        # what the runner shows: its own decoding of the message (%0A, %0D, %25)
        message = line.split("::", 2)[2]
        decoded = message.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")
        assert decoded == escape(d.message)


@given(diagnostics)
def test_json_and_sarif_keep_exact_values(found: list[Diagnostic]) -> None:
    import io

    out = io.StringIO()
    REPORTERS["json"](found, [], out)
    assert [d["message"] for d in json.loads(out.getvalue())] == [d.message for d in found]
    assert not RAW_CONTROL.search(out.getvalue())
    out = io.StringIO()
    REPORTERS["sarif"](found, [], out, ReportOptions(cwd=Path("/work"), base=Path("/work")))
    assert not RAW_CONTROL.search(out.getvalue())
    messages = sorted(r["message"]["text"] for r in json.loads(out.getvalue())["runs"][0]["results"])
    if not any(d.related for d in found):  # (SARIF names related files in messages its own way)
        assert messages == sorted(d.message for d in found)


# -- every command, on a corpus of hostile entries ---------------------------------------------


def _hostile_corpus(base: Path) -> None:
    files = {}
    for number, text in enumerate(INJECTIONS):
        files[f"pip/e{number}.yaml"] = "\n".join(
            [
                f"id: {json.dumps('pip/e' + str(number) + text)}",
                f"signature: {json.dumps('ERROR: failure ' + text)}",
                f"regex: {json.dumps('ERROR: failure ' + re.escape(text))}",
                f"root_cause: {json.dumps(text)}",
                f"resolvable: {json.dumps(text)}",
                "workarounds:",
                f"  - action: {json.dumps('Do ' + text)}",
                "    success_rate: 0.5",
                f"    how: {json.dumps('Do ' + text)}",
                f"    sources: [{json.dumps('http://localhost/' + text)}]",
                "versions:",
                f"  - version: {json.dumps('torch ' + text)}",
                "transition_graph:",
                f"  leads_to: [{json.dumps('pip/gone' + text)}]",
                f"signature_zh: {json.dumps(text)}",
                "",
            ]
        )
    # a file whose very name forges a command, and one that does not parse
    files["pip/x\n::error title=FORGED::name.yaml"] = "id: pip/y\nsignature: \"ERROR: failure\"\nregex: ERROR\n"
    files["pip/broken.yaml"] = "signature: [\x1b]0;t\x07\n"
    write_corpus(base, files)
    (base / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")


COMMANDS = [
    ["lint", "--format", "text"],
    ["lint", "--format", "github"],
    ["lint", "--format", "json"],
    ["lint", "--format", "sarif"],
    ["lint", "--format", "text", "--statistics"],
    ["lint", "--diff"],
    ["match", "ERROR: failure fine"],
    ["match", "--format", "json", "ERROR: failure fine"],
    ["match", "-"],
    ["regex", "ERROR: failure \x1b[31m\n::error::x"],
    ["regex", "--format", "json", "ERROR: failure"],
    ["dupes"],
    ["dupes", "--format", "json"],
    ["translations"],
    ["translations", "--format", "json"],
    ["translations", "--format", "markdown"],
    ["translations", "--summary"],
    ["merge", "pip/e0\n::error file=entries/x.yaml,line=1,title=FORGED::forged annotation", "entries/pip/e1.yaml", "--dry-run"],
    ["merge", "entries/pip/e2.yaml", "entries/pip/e3.yaml", "--dry-run", "--prefer", "into"],
    ["fmt", "--check"],
    ["fmt", "--diff"],
    ["render", "entries/pip/e5.yaml"],
    ["render", "entries/pip/e6.yaml", "--html"],
    ["render", "entries/pip/broken.yaml"],
    ["lint", "entries/pip/missing\n::error::file.yaml"],
]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("hostile-output")
    _hostile_corpus(base)
    return base


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:3]).replace("\n", "/")[:40])
def test_no_command_prints_what_entry_text_would_make_it(
    hostile: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(hostile)
    for name in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    stdin = "\n".join(INJECTIONS) + "\n" if args[-1] == "-" else None
    result = CliRunner().invoke(cli, [*args, "--no-cache"] if args[0] == "lint" else args, input=stdin,
                                catch_exceptions=False)
    assert result.exit_code in (0, 1, 2), result.output
    if "github" in args:  # every line one annotation of entrykit's, its properties encoded
        for line in result.stdout.splitlines():
            assert OWN_ANNOTATION.match(line), line
            assert not RAW_CONTROL.search(line), line
    else:
        assert_safe(result.stdout, f"{args} stdout")
    assert_safe(result.stderr, f"{args} stderr")
    if args[0] == "lint" and "--diff" not in args and len(args) > 1 and args[1] == "--format":
        assert result.exit_code == 1 and result.stdout.strip()  # it did report the hostile entries


def test_the_hostile_values_are_still_shown_escaped(hostile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Escaped is not hidden: a reader sees what the entry holds."""
    monkeypatch.chdir(hostile)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result = CliRunner().invoke(cli, ["lint", "--no-cache", "--format", "text"], catch_exceptions=False)
    assert "`torch fine\\n::error file=entries/x.yaml,line=1,title=FORGED::forged annotation`" in result.stdout
    assert "pip/x\\n\\x3a:error title=FORGED::name.yaml" not in result.stdout  # mid-line: only the break escaped
    assert "pip/x\\n::error title=FORGED::name.yaml" in result.stdout


# -- `new`: the corpus's ids, domains and categories, and --from's values as defaults ----------

FORGED = "\n::error file=README.md,line=1::forged annotation"


def _matching_corpus(base: Path) -> None:
    """Two entries whose regexes match `Some error` + FORGED; the first holds it as its signature."""
    write_corpus(
        base,
        {
            "t/held.yaml": "\n".join(
                [
                    f"id: {json.dumps('t' + FORGED + '/held')}",
                    f"signature: {json.dumps('Some error' + FORGED)}",
                    'regex: "Some error"',
                    "root_cause: rc",
                    f"category: {json.dumps('c' + FORGED)}",
                    "",
                ]
            ),
            "t/other.yaml": "\n".join(
                [
                    f"id: {json.dumps('t/other' + INJECTIONS[5])}",
                    'signature: "Some error, other"',
                    'regex: "Some"',
                    "root_cause: rc",
                    "",
                ]
            ),
        },
    )
    (base / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")


def test_new_prints_no_entry_text_raw_when_it_refuses_an_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _matching_corpus(tmp_path)
    (tmp_path / "entries" / "t" / "other.yaml").unlink()
    monkeypatch.chdir(tmp_path)
    args = ["new", "--no-input", "--signature", "Some error" + FORGED, "--root-cause", "r", "--domain", "t"]
    result = CliRunner().invoke(cli, [*args, "--on-match", "example"], catch_exceptions=False)
    assert result.exit_code == 0 and result.stdout.count("\n") == 1, result.output
    assert "t\\n::error file=README.md,line=1::forged annotation/held already holds this message" in result.stdout
    assert_safe(result.stdout, "new stdout")


def test_new_at_a_prompt_prints_no_entry_text_raw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every prompt of `new`, its defaults, the matches it offers and the entry it shows."""
    _matching_corpus(tmp_path)
    answers = {
        "signature": "Some error" + FORGED,
        "category": "c" + FORGED,
        "regex": "Some" + FORGED,
        "root_cause": "r" + FORGED,
        "signature_zh": INJECTIONS[4],
        "dead_ends": [{"action": "d" + FORGED, "why_fails": "w" + FORGED, "fail_rate": 0.5}],
        "workarounds": [{"action": "w" + FORGED, "success_rate": 0.5, "how": INJECTIONS[6]}],
    }
    (tmp_path / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    typed = [
        "",  # the signature given
        "e",  # add it as an example
        escape("t" + FORGED + "/held"),  # refused: that entry holds the message
        "c",  # continue with a new entry
        "t",  # domain
        "",  # id
        "",  # the category given, which is no snake_case
        "c",
        "Some error",  # for the regex given, which does not match the signature
        "",
        "",  # root cause
        "",  # dead end 2
        "",  # workaround 2
        "",  # version row 1
        "",  # signature (zh)
        "x",  # root_cause (zh)
        "y",  # workaround (zh)
        "",  # evidence
        "",  # confidence
        "",  # first seen
        "",  # last confirmed
        "y",  # write
    ]
    result = CliRunner().invoke(
        cli, ["new", "--from", "answers.json"], input="\n".join(typed) + "\n", catch_exceptions=False
    )
    assert "wrote entries/t/" in result.stdout, result.output
    assert "already holds this message as its signature" in result.stdout
    assert_safe(result.stdout, "new stdout")
    assert_safe(result.stderr, "new stderr")
