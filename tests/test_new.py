"""`entrykit new`: driven through a real pseudo-terminal, interrupted, and scripted."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from entrykit.authoring import scaffold
from entrykit.cli import ExitCode, cli
from entrykit.config import from_table
from entrykit.lint.engine import lint
from entrykit.loader import load

from .conftest import TODAY, write_corpus
from .pty_session import PtySession

EXISTING = """\
id: git/not-a-repository
signature: "fatal: not a git repository (or any of the parent directories): .git"
regex: "fatal: not a git repository"
domain: git
category: config_error
root_cause: The command ran outside a git work tree.
dead_ends: []
workarounds: []
first_seen: "2024-01-01"
last_confirmed: "2024-01-01"
"""
TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "<string>", line 1, in <module>',
    "ModuleNotFoundError: No module named 'yaml_missing'",
]
SIGNATURE = TRACEBACK[-1]
NEW_ID = "python/modulenotfounderror-no-module-named"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_corpus(tmp_path, {"git/not-a-repository.yaml": EXISTING, "python/placeholder.yaml": EXISTING.replace(
        "git/not-a-repository", "python/placeholder").replace("domain: git", "domain: python").replace(
        "category: config_error", "category: import_error").replace("fatal: not a git", "placeholder: not a git")})
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "entry.schema.json").write_text("{}", encoding="utf-8")
    return tmp_path


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def _session(project: Path) -> PtySession:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COLUMNS", "LINES"))}
    env.update({"TERM": "dumb", "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"})
    argv = [sys.executable, "-m", "entrykit", "new", "--today", "2026-11-30"]
    return PtySession(argv, str(project), env)


def _answer_until_root_cause(session: PtySession) -> None:
    session.expect(r"then an empty line:")
    for line in TRACEBACK:
        session.sendline(line)
    session.sendline("")
    session.expect(r"Signature \(the line that states the error\) \[ModuleNotFoundError: No module named 'yaml_missing'\]: ")
    session.sendline("")
    session.expect("No entry in the corpus matches this message yet.")
    session.expect(r"Domain \[python\]: ")
    session.sendline("")
    session.expect(rf"Id \[{NEW_ID}\]: ")
    session.sendline("")
    session.expect(r"Category \[import_error\]: ")
    session.sendline("")
    session.expect(r"  matches: ModuleNotFoundError: No module named 'yaml_missing'")
    session.expect(r"Regex \[.*\]: ")
    session.sendline("")
    session.expect(r"Root cause \(why it happens\): ")


def test_new_end_to_end_in_a_terminal(project: Path) -> None:
    session = _session(project)
    _answer_until_root_cause(session)
    session.sendline("The module is not installed for the interpreter that runs the code.")
    session.expect(r"Dead end 1: ")
    session.sendline("Reinstall Python")
    session.expect(r"Why does it fail: ")
    session.sendline("A fresh interpreter does not have the package either.")
    session.expect(r"Fail rate \(0-1 or %\): ")
    session.sendline("lots")
    session.expect(r"is not a rate")
    session.sendline("90%")
    session.expect(r"Dead end 2: ")
    session.sendline("")
    session.expect(r"Workaround 1: ")
    session.sendline("Install the package with the interpreter that runs the code")
    session.expect(r"Success rate \(0-1 or %\): ")
    session.sendline("0.95")
    session.expect(r"How, step by step \(optional\): ")
    session.sendline("python -m pip install pyyaml")
    session.expect(r"Workaround 2: ")
    session.sendline("")
    session.expect(r"Version row 1: ")
    session.sendline("Python >= 3.8")
    session.expect(r"-> python>=3.8")
    session.expect(r"Version row 2: ")
    session.sendline("")
    session.expect(r"signature \(zh\) for: ")
    session.sendline("ModuleNotFoundError：没有名为 'yaml_missing' 的模块")
    session.expect(r"root_cause \(zh\) for: ")
    session.sendline("运行代码的解释器没有安装这个模块。")
    session.expect(r"workaround \(zh\) for: ")
    session.sendline("用运行代码的那个解释器安装这个包")
    for prompt in (r"Evidence count", r"Confidence", r"First seen", r"Last confirmed"):
        session.expect(prompt + r".*: ")
        session.sendline("")
    session.expect(r"Write entries/python/modulenotfounderror-no-module-named\.yaml\? \[Y/n\]: ")
    session.sendline("y")
    session.expect(r"wrote entries/python/modulenotfounderror-no-module-named\.yaml")
    assert session.wait() == ExitCode.CLEAN, session.output

    written = project / "entries" / "python" / "modulenotfounderror-no-module-named.yaml"
    text = written.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../schema/entry.schema.json\n")
    data = load(written, "x").data  # type: ignore[union-attr]
    assert data["signature"] == SIGNATURE and data["id"] == NEW_ID
    assert data["dead_ends"][0]["fail_rate"] == 0.9 and data["workarounds"][0]["how"] == "python -m pip install pyyaml"
    assert data["versions"] == [{"version": "python>=3.8", "status": "active"}]
    assert data["workarounds_zh"] == ["用运行代码的那个解释器安装这个包"]
    assert data["last_confirmed"] == "2026-11-30"
    result = lint([written], from_table({"root": "entries"}, project), TODAY, cwd=project)
    assert [d for d in result.diagnostics] == []


@pytest.mark.parametrize("key", ["\x03", "\x04"], ids=["ctrl-c", "eof"])
def test_interrupted_new_writes_nothing(project: Path, key: str) -> None:
    before = _files(project)
    session = _session(project)
    _answer_until_root_cause(session)
    session.interrupt(key)
    session.expect("aborted; nothing written")
    assert session.wait() == ExitCode.ERROR
    assert _files(project) == before


def test_interrupted_in_a_loop_writes_nothing(project: Path) -> None:
    before = _files(project)
    session = _session(project)
    _answer_until_root_cause(session)
    session.sendline("Root cause.")
    session.expect(r"Dead end 1: ")
    session.sendline("Something")
    session.expect(r"Why does it fail: ")
    session.interrupt("\x03")
    session.expect("aborted; nothing written")
    assert session.wait() == ExitCode.ERROR
    assert _files(project) == before


def test_message_already_in_the_corpus_can_stop(project: Path) -> None:
    before = _files(project)
    session = _session(project)
    session.expect(r"then an empty line:")
    session.sendline("fatal: not a git repository (or any of the parent directories): .git")
    session.sendline("")
    session.expect(r"Signature .*: ")
    session.sendline("")
    session.expect(r"git/not-a-repository")
    session.expect(r"\[s\]top, .*: ")
    session.sendline("s")
    session.expect("already in the corpus")
    assert session.wait() == ExitCode.CLEAN
    assert _files(project) == before


TYPE_ERROR = "TypeError: unsupported operand type(s) for +: 'int' and 'str'"


def test_new_gets_id_category_and_version_rows_right_in_a_terminal(project: Path) -> None:
    """The id has no `-type-s`, the category comes from the exception class (the corpus has
    no `type_error`), and version rows that are no rows are refused as they are typed."""
    session = _session(project)
    session.expect(r"then an empty line:")
    session.sendline(TYPE_ERROR)
    session.sendline("")
    session.expect(r"Signature \(the line that states the error\) \[.*\]: ")
    session.sendline("")
    session.expect(r"Domain \[python\]: ")
    session.sendline("")
    session.expect(r"Id \[python/typeerror-unsupported-operand-type\]: ")
    session.sendline("")
    session.expect(r"Categories in the corpus: import_error")
    session.expect(r"Category \[type_error\]: ")
    session.sendline("")
    session.expect(r"Regex \[.*\]: ")
    session.sendline("")
    session.expect(r"Root cause \(why it happens\): ")
    session.sendline("`+` does not convert an int to text.")
    session.expect(r"Dead end 1: ")
    session.sendline("")
    session.expect(r"Workaround 1: ")
    session.sendline("")
    session.expect(r"Version row 1: ")
    session.sendline("latest")
    session.expect(r"`latest` is not a version spec: `latest` moves with every release")
    session.expect(r"Version row 1: ")
    session.sendline("It happens on every version of Python.")
    session.expect(r"reads as a sentence, not as `<package><specifier>`")
    session.expect(r"Version row 1: ")
    session.sendline("torch>=2.3,<2.0")
    session.expect(r"`torch>=2.3,<2.0` matches no version")
    session.expect(r"Version row 1: ")
    session.sendline("Python >= 3.8")
    session.expect(r"  -> python>=3\.8\n")
    session.expect(r"Version row 2: ")
    session.sendline("PyTorch 2.0")
    session.expect(r"  -> torch==2\.0 \(that release only")
    session.expect(r"Version row 3: ")
    session.sendline("")
    for prompt in (r"signature \(zh\)", r"root_cause \(zh\)", r"Evidence count", r"Confidence", r"First seen", r"Last confirmed"):
        session.expect(prompt + r".*: ")
        session.sendline("")
    session.expect(r"Write entries/python/typeerror-unsupported-operand-type\.yaml\? \[Y/n\]: ")
    session.sendline("y")
    session.expect(r"wrote entries/python/typeerror-unsupported-operand-type\.yaml")
    session.wait()
    data = load(project / "entries" / "python" / "typeerror-unsupported-operand-type.yaml", "x").data  # type: ignore[union-attr]
    assert data["category"] == "type_error"
    assert [row["version"] for row in data["versions"]] == ["python>=3.8", "torch==2.0"]
    result = lint(None, from_table({"root": "entries"}, project), TODAY, cwd=project)
    assert [d for d in result.diagnostics if d.code.startswith("ET4")] == []


def test_example_refuses_a_message_the_entry_already_holds(project: Path) -> None:
    before = _files(project)
    session = _session(project)
    session.expect(r"then an empty line:")
    session.sendline("fatal: not a git repository (or any of the parent directories): .git")
    session.sendline("")
    session.expect(r"Signature .*: ")
    session.sendline("")
    session.expect(r"\[s\]top, .*: ")
    session.sendline("e")
    session.expect(r"git/not-a-repository already holds this message as its signature; there is nothing to add")
    session.expect(r"\[s\]top, .*: ")
    session.sendline("s")
    session.expect("already in the corpus")
    assert session.wait() == ExitCode.CLEAN
    assert _files(project) == before


# --- scripted --------------------------------------------------------------


def _invoke(project: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(project)
    result = CliRunner().invoke(cli, ["new", "--no-input", "--today", "2026-11-30", *args], catch_exceptions=False)
    return result.exit_code, result.output


def test_no_input_with_options(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _invoke(
        project, monkeypatch, "--signature", SIGNATURE, "--root-cause", "Not installed.",
        "--workaround", "Install it | 90% | python -m pip install x", "--dead-end", "Reinstall Python | Same problem | 0.8",
        "--version", "Python>=3.8", "--translation", "signature_zh=没有模块",
        "--translation", "workarounds_zh=安装它",
    )
    assert code == ExitCode.CLEAN, out
    data = load(project / "entries" / "python" / "modulenotfounderror-no-module-named.yaml", "x").data  # type: ignore[union-attr]
    assert data["category"] == "import_error"  # the domain's category in the corpus
    assert data["fix_success_rate"] == 0.9 and data["resolvable"] == "true"
    assert data["signature_zh"] == "没有模块" and data["workarounds_zh"] == ["安装它"]


def test_no_input_from_json(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = {"signature": SIGNATURE, "id": "python/no-yaml", "category": "import_error", "root_cause": "Not installed.",
               "workarounds": [{"action": "Install it", "success_rate": 0.9}], "tags": ["imports"]}
    (project / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
    code, out = _invoke(project, monkeypatch, "--from", "answers.json", "--category", "runtime_error")
    assert code == ExitCode.CLEAN, out
    data = load(project / "entries" / "python" / "no-yaml.yaml", "x").data  # type: ignore[union-attr]
    assert data["category"] == "runtime_error" and data["tags"] == ["imports"]  # options override the file


def test_no_input_stops_on_a_match_or_adds_an_example(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message = "fatal: not a git repository (or any parent up to mount point /)"
    before = _files(project)
    code, out = _invoke(project, monkeypatch, "--signature", message, "--root-cause", "x")
    assert code == ExitCode.FINDINGS and "git/not-a-repository" in out and _files(project) == before
    code, out = _invoke(project, monkeypatch, "--signature", message, "--root-cause", "x", "--on-match", "example")
    assert code == ExitCode.CLEAN
    data = load(project / "entries" / "git" / "not-a-repository.yaml", "x").data  # type: ignore[union-attr]
    assert data["examples"] == [message]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "--no-input needs --signature"),
        (("--signature", "boom"), "--no-input needs --root-cause"),
        (("--signature", "boom", "--root-cause", "x"), "cannot tell the domain"),
        (("--signature", "boom", "--root-cause", "x", "--id", "../etc"), "is not `<domain>/<slug>`"),
        (("--signature", "boom", "--root-cause", "x", "--id", "a/b", "--workaround", "x | lots"), "is not a rate"),
    ],
)
def test_no_input_usage_errors(project: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], message: str) -> None:
    monkeypatch.chdir(project)
    result = CliRunner().invoke(cli, ["new", "--no-input", *args])
    assert result.exit_code == ExitCode.ERROR and message in result.output, result.output


def test_no_input_refuses_a_message_the_entry_holds_as_an_example(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message = "fatal: not a git repository (or any parent up to mount point /)"
    code, _ = _invoke(project, monkeypatch, "--signature", message, "--root-cause", "x", "--on-match", "example")
    assert code == ExitCode.CLEAN
    text = (project / "entries" / "git" / "not-a-repository.yaml").read_text(encoding="utf-8")
    code, out = _invoke(project, monkeypatch, "--signature", message, "--root-cause", "x", "--on-match", "example")
    assert code == ExitCode.CLEAN and "already holds this message as its example 1" in out, out
    assert (project / "entries" / "git" / "not-a-repository.yaml").read_text(encoding="utf-8") == text


def test_no_input_suggests_a_regex_written_for_the_configured_flags(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = '[tool.entrykit]\nroot = "entries"\n[tool.entrykit.regex]\nflags = ["VERBOSE"]\n'
    (project / "pyproject.toml").write_text(config, encoding="utf-8")
    message = "DiskError: shape [2 x 3] full # retry"
    code, out = _invoke(project, monkeypatch, "--signature", message, "--root-cause", "x", "--id", "disk/full")
    assert code == ExitCode.CLEAN, out
    data = load(project / "entries" / "disk" / "full.yaml", "x").data  # type: ignore[union-attr]
    assert re.search(data["regex"], message, re.VERBOSE)


@pytest.mark.parametrize(
    ("row", "problem"),
    [("latest", "`latest` is not a version spec"), ("works with every version", "reads as a sentence"),
     ("torch>=2,<1", "matches no version"), (">=2.0", "names no package")],
)
def test_no_input_refuses_a_version_row_that_is_no_row(
    project: Path, monkeypatch: pytest.MonkeyPatch, row: str, problem: str
) -> None:
    before = _files(project)
    code, out = _invoke(project, monkeypatch, "--signature", SIGNATURE, "--root-cause", "x", "--version", row)
    assert code == ExitCode.ERROR and problem in out and out.count("\n") == 1, out
    assert _files(project) == before


def test_no_input_category_and_id_come_from_the_exception(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _invoke(project, monkeypatch, "--signature", TYPE_ERROR, "--root-cause", "x", "--version", "PyTorch 2.x")
    assert code == ExitCode.CLEAN, out
    data = load(project / "entries" / "python" / "typeerror-unsupported-operand-type.yaml", "x").data  # type: ignore[union-attr]
    assert data["category"] == "type_error" and data["versions"][0]["version"] == "torch==2.*"


def test_a_version_row_given_whole_in_from_keeps_its_other_fields(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [{"version": "PyTorch 2.x", "status": "deprecated", "introduced": "2.0", "deprecated": "2.3"}, "python>=3.8"]
    (project / "answers.json").write_text(json.dumps({"versions": rows}), encoding="utf-8")
    code, out = _invoke(project, monkeypatch, "--signature", SIGNATURE, "--root-cause", "x", "--from", "answers.json")
    assert code == ExitCode.CLEAN, out
    data = load(project / "entries" / "python" / "modulenotfounderror-no-module-named.yaml", "x").data  # type: ignore[union-attr]
    assert data["versions"] == [
        {"version": "torch==2.*", "introduced": "2.0", "deprecated": "2.3", "status": "deprecated"},
        {"version": "python>=3.8", "status": "active"},
    ]


def test_the_modeline_is_written_where_the_project_has_no_schema_file_yet(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "schema" / "entry.schema.json").unlink()
    code, out = _invoke(project, monkeypatch, "--signature", SIGNATURE, "--root-cause", "x")
    assert code == ExitCode.CLEAN, out
    written = project / "entries" / "python" / "modulenotfounderror-no-module-named.yaml"
    assert written.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=../../schema/entry.schema.json\n")
    assert "`entrykit schema --output schema/entry.schema.json`" in out
    assert CliRunner().invoke(cli, ["schema", "--output", "schema/entry.schema.json"]).exit_code == ExitCode.CLEAN
    assert json.loads((project / "schema" / "entry.schema.json").read_text(encoding="utf-8"))["title"] == "entrykit entry"


# --- --from values of the wrong kind ------------------------------------------------


def _invoke_from(project: Path, monkeypatch: pytest.MonkeyPatch, text: str, *args: str) -> tuple[int, str]:
    (project / "answers.json").write_text(text, encoding="utf-8")
    return _invoke(project, monkeypatch, "--from", "answers.json", "--domain", "t", "--category", "c", *args)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ('"evidence_count": [1]', "`evidence_count` must be a whole number"),
        ('"evidence_count": null', "`evidence_count` must be a whole number"),
        ('"evidence_count": 1e30', "`evidence_count` must be a whole number from 0 to 9007199254740992"),
        ('"evidence_count": 2.5', "`evidence_count` must be a whole number"),
        ('"evidence_count": -1', "`evidence_count` must be a whole number"),
        ('"evidence_count": true', "`evidence_count` must be a whole number"),
        ('"workarounds": [1]', "`workarounds[0]` must be an object"),
        ('"dead_ends": [{"action": "a", "why_fails": "b", "fail_rate": 1}, "x"]', "`dead_ends[1]` must be an object"),
        ('"workarounds": [{"action": ["a"], "success_rate": 1}]', "`workarounds[0].action` must be a string"),
        ('"workarounds": [{"action": "a", "success_rate": "90%"}]', "`workarounds[0].success_rate` must be a number"),
        ('"confidence": "high"', "`confidence` must be a number"),
        ('"fix_success_rate": [0.5]', "`fix_success_rate` must be a number"),
        ('"versions": [3]', "`versions[0]` must be a string or an object"),
        ('"versions": [{"version": 3}]', "`versions[0].version` must be a string"),
        ('"first_seen": "last week"', "`first_seen` must be a date (YYYY-MM-DD)"),
        ('"last_confirmed": "2024-02-30"', "`last_confirmed` must be a date (YYYY-MM-DD)"),
        ('"evidence_count": 1e999', "answers.json:1:66: `1e999` is not a finite number (ET005)"),
        ('"confidence": NaN, "fix_success_rate": 1e999', "answers.json:1:62: `NaN` is not a finite number (ET005)"),
        ('"fix_success_rate": -Infinity', "`-Infinity` is not a finite number (ET005)"),
        ('"workarounds": [{"action": "a", "success_rate": 1e999}]', "`1e999` is not a finite number (ET005)"),
        ('"tags": [1e400]', "`1e400` is not a finite number (ET005)"),
    ],
)
def test_a_from_value_of_the_wrong_kind_is_one_line_naming_it(
    project: Path, monkeypatch: pytest.MonkeyPatch, fields: str, message: str
) -> None:
    before = _files(project / "entries")
    code, out = _invoke_from(project, monkeypatch, '{"signature": "Some error", "root_cause": "r", ' + fields + "}")
    assert code == ExitCode.ERROR and message in out and out.count("\n") == 1, out
    assert _files(project / "entries") == before


def test_a_whole_number_written_with_a_point_is_a_count(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _invoke_from(
        project, monkeypatch, '{"signature": "Some error", "root_cause": "r", "evidence_count": 3.0}'
    )
    assert code == ExitCode.CLEAN, out
    text = (project / "entries" / "t" / "some-error.yaml").read_text(encoding="utf-8")
    assert "\nevidence_count: 3\n" in text


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["action", "success_rate", "fail_rate", "why_fails", "how", "version"]), inner
        )
    ),
    max_leaves=8,
)
_FROM_FIELDS = st.dictionaries(
    st.sampled_from(
        [
            "evidence_count",
            "confidence",
            "fix_success_rate",
            "first_seen",
            "last_confirmed",
            "regex",
            "workarounds",
            "dead_ends",
            "versions",
            "tags",
            "signature_zh",
            "workarounds_zh",
        ]
    ),
    _JSON_VALUES,
    max_size=3,
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=_FROM_FIELDS)
def test_any_from_file_is_written_or_refused_in_one_line(
    project: Path, monkeypatch: pytest.MonkeyPatch, fields: dict[str, object]
) -> None:
    target = project / "entries" / "t" / "x.yaml"
    target.unlink(missing_ok=True)
    answers = json.dumps({"signature": "Some error", "root_cause": "r", **fields})
    code, out = _invoke_from(project, monkeypatch, answers, "--id", "t/x")
    if code == ExitCode.ERROR:
        assert out.startswith("entrykit: error: ") and out.count("\n") == 1 and not target.exists(), out
    else:
        assert target.exists() and "ET005" not in out, out


# --- --on-match example on an entry that cannot be edited ---------------------------


@pytest.mark.parametrize(
    ("name", "text", "reason"),
    [
        (
            "dup.yaml",
            "id: zz/dup\nsignature: Frobnicator exploded badly\nregex: Frobnicator exploded\nroot_cause: x\n"
            "root_cause: y\n",
            'found duplicate key "root_cause" with value "y" (original value: "x") at line 5',
        ),
        (
            "inf.json",
            '{"id": "zz/inf", "signature": "Frobnicator exploded badly", "regex": "Frobnicator exploded", '
            '"root_cause": "x", "confidence": 1e999}\n',
            "`1e999` is not a finite number, which JSON cannot hold (ET005)",
        ),
    ],
)
def test_an_example_is_not_added_to_an_entry_that_cannot_be_edited(
    project: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, reason: str
) -> None:
    write_corpus(project, {f"zz/{name}": text})
    before = {p: p.read_bytes() for p in (project / "entries").rglob("*") if p.is_file()}
    args = ("--signature", "Frobnicator exploded twice", "--root-cause", "r", "--domain", "zz")
    code, out = _invoke(project, monkeypatch, *args, "--on-match", "example")
    assert code == ExitCode.CLEAN and out.count("\n") == 1, out  # a refused add, as for a message already held
    assert out == f"nothing written: zz/{name[:3]} cannot be edited ({reason}); fix entries/zz/{name} first\n"
    assert {p: p.read_bytes() for p in (project / "entries").rglob("*") if p.is_file()} == before


def _refused_example(project: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str) -> str:
    """What `new --on-match example` says of an entry it must not add the message to."""
    write_corpus(project, {f"zz/{name}": text})
    before = {p: p.read_bytes() for p in (project / "entries").rglob("*") if p.is_file()}
    args = ("--signature", "Frobnicator exploded twice", "--root-cause", "r", "--domain", "zz")
    code, out = _invoke(project, monkeypatch, *args, "--on-match", "example")
    assert code == ExitCode.CLEAN and out.count("\n") == 1, out
    assert {p: p.read_bytes() for p in (project / "entries").rglob("*") if p.is_file()} == before
    return out


_OLD = "id: zz/old\nsignature: Frobnicator exploded badly\nregex: Frobnicator exploded\n"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("old.yaml", _OLD + 'examples: "Frobnicator exploded once"\n'),
        ("old.yaml", _OLD + "examples: null\n"),
        ("old.yaml", _OLD + "examples: {a: 1}\n"),
        ("old.json", json.dumps({"id": "zz/old", "signature": "Frobnicator exploded badly",
                                 "regex": "Frobnicator exploded", "examples": {"keep": "me"}})),
    ],
)
def test_an_example_is_not_added_over_examples_that_are_no_list(
    project: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str
) -> None:
    out = _refused_example(project, monkeypatch, name, text)
    assert out == f"nothing written: zz/old cannot be edited (`examples` is not a list); fix entries/zz/{name} first\n"


@pytest.mark.parametrize(
    "shared",
    [
        'examples: &e ["Frobnicator exploded once"]\ncounterexamples: *e\n',
        'aliases: &a ["Frobnicator exploded once"]\nexamples: *a\n',
        'base: &b\n  examples: ["Frobnicator exploded once"]\n<<: *b\n',
        'examples: &e ["Frobnicator exploded once"]\n',
    ],
)
def test_an_example_is_not_added_to_examples_a_yaml_anchor_shares(
    project: Path, monkeypatch: pytest.MonkeyPatch, shared: str
) -> None:
    out = _refused_example(project, monkeypatch, "old.yaml", _OLD + shared)
    reason = "`examples` is a YAML anchor or alias: appending to it would change other fields"
    assert out == f"nothing written: zz/old cannot be edited ({reason}); fix entries/zz/old.yaml first\n"


def test_at_a_prompt_an_entry_that_cannot_be_edited_is_refused_and_asked_again(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (
        "id: zz/dup\nsignature: Frobnicator exploded badly\nregex: Frobnicator exploded\nroot_cause: x\nroot_cause: y\n"
    )
    write_corpus(project, {"zz/dup.yaml": text})
    monkeypatch.chdir(project)
    args = ["new", "--signature", "Frobnicator exploded twice"]
    result = CliRunner().invoke(cli, args, input="\ne\ns\n", catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN, result.output
    assert "  zz/dup cannot be edited (found duplicate key" in result.output
    assert result.output.count("[s]top, add it as an [e]xample") == 2
    assert (project / "entries" / "zz" / "dup.yaml").read_text(encoding="utf-8") == text


# --- suggestions -----------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "slug"),
    [
        (TYPE_ERROR, "typeerror-unsupported-operand-type"),
        ("error: pathspec 'nope' did not match any file(s) known to git", "error-pathspec-did-not-match-any"),
        ("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
         "unicodedecodeerror-codec-cant-decode-byte-position"),
        ("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
         "jsondecodeerror-expecting-value-line-column-char"),
        ("Error: user's match(es) don't work, e.g. here", "error-users-match-dont-work-here"),
        ("!!! ??? 123", "error"),
    ],
)
def test_suggested_slugs_carry_no_punctuation_artefacts(message: str, slug: str) -> None:
    assert scaffold.suggest_slug(message) == slug


@pytest.mark.parametrize(
    ("message", "known", "category"),
    [
        (TYPE_ERROR, ["runtime_error"], "type_error"),
        ("ModuleNotFoundError: No module named 'x'", ["import_error", "module_error"], "import_error"),
        ("ModuleNotFoundError: No module named 'x'", [], "module_not_found_error"),
        ("UnicodeDecodeError: 'utf-8' codec can't decode byte", ["value_error"], "value_error"),
        ("json.decoder.JSONDecodeError: Expecting value", ["value_error"], "json_decode_error"),
        ("Uncaught TypeError: Cannot read properties of null (reading 'x')", [], "type_error"),
        ("torch.cuda.OutOfMemoryError: CUDA out of memory.", ["memory_error"], "out_of_memory_error"),
        ("fatal: not a git repository", ["config_error"], None),
        ("Error: in prepare, no such table: nope", ["database_error"], None),
    ],
)
def test_category_comes_from_the_exception_class(message: str, known: list[str], category: str | None) -> None:
    assert scaffold.category_from_exception(message, known) == category
