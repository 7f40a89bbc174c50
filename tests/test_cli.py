"""The command line: exit codes, selection, formats, explain, errors without tracebacks."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit.cli import ExitCode, cli

from .conftest import write_corpus

GOOD = """\
id: pip/ok
signature: "ERROR: boom"
regex: "ERROR: boom"
"""
WARNING_ONLY = """\
id: pip/warn
signature: "ERROR: boom"
regex: "ERROR: boom"
workarounds:
  - action: Do the thing
    how: Do the thing
"""
BROKEN = """\
id: pip/broken
signature: "ERROR: boom"
regex: "ValueError: invalid frobnicate literal"
"""


def invoke(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], *args: str, table: str = "") -> tuple[int, str]:
    write_corpus(tmp_path, files)
    (tmp_path / "pyproject.toml").write_text(f"[tool.entrykit]\nroot = \"entries\"\nselect = [\"ET2\", \"ET6\", \"ET0\"]\n{table}", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result = CliRunner().invoke(cli, ["lint", "--today", "2026-11-30", *args], catch_exceptions=False)
    return result.exit_code, result.output


def test_clean_corpus_exits_zero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = invoke(tmp_path, monkeypatch, {"pip/ok.yaml": GOOD})
    assert code == ExitCode.CLEAN
    assert "No problems in 1 file." in out


def test_errors_exit_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = invoke(tmp_path, monkeypatch, {"pip/broken.yaml": BROKEN})
    assert code == ExitCode.FINDINGS
    assert "entries/pip/broken.yaml:3:8: ET202" in out


def test_warnings_pass_unless_strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _ = invoke(tmp_path, monkeypatch, {"pip/warn.yaml": WARNING_ONLY})
    assert code == ExitCode.CLEAN
    code, _ = invoke(tmp_path, monkeypatch, {"pip/warn.yaml": WARNING_ONLY}, "--strict")
    assert code == ExitCode.FINDINGS


def test_exit_zero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = invoke(tmp_path, monkeypatch, {"pip/broken.yaml": BROKEN}, "--exit-zero")
    assert code == ExitCode.CLEAN
    assert "ET202" in out


def test_select_and_ignore_by_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"pip/broken.yaml": BROKEN, "pip/warn.yaml": WARNING_ONLY}
    _, out = invoke(tmp_path, monkeypatch, files, "--select", "ET6")
    assert "ET605" in out and "ET202" not in out
    _, out = invoke(tmp_path, monkeypatch, files, "--ignore", "ET20,ET605")
    assert "ET605" not in out and "ET202" not in out


def test_longest_prefix_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"pip/broken.yaml": BROKEN, "pip/warn.yaml": WARNING_ONLY}
    _, out = invoke(tmp_path, monkeypatch, files, "--ignore", "ET2", table="")
    assert "ET202" not in out
    _, out = invoke(tmp_path, monkeypatch, files, "--select", "ET202", "--ignore", "ET2")
    assert "ET202" in out


def test_per_file_ignores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = '[tool.entrykit.per-file-ignores]\n"entries/pip/broken.yaml" = ["ET202"]\n'
    code, out = invoke(tmp_path, monkeypatch, {"pip/broken.yaml": BROKEN}, table=table)
    assert code == ExitCode.CLEAN and "ET202" not in out


def test_severity_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = '[tool.entrykit.rules.ET605]\nseverity = "error"\n'
    code, out = invoke(tmp_path, monkeypatch, {"pip/warn.yaml": WARNING_ONLY}, table=table)
    assert code == ExitCode.FINDINGS and "ET605 [error]" in out


def test_auto_format_under_github_actions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_corpus(tmp_path, {"pip/broken.yaml": BROKEN})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = CliRunner().invoke(cli, ["lint", "--select", "ET2"], catch_exceptions=False)
    assert result.output.startswith("::error file=entries/pip/broken.yaml,line=3,col=8,title=ET202")


def test_json_output_contract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, out = invoke(tmp_path, monkeypatch, {"pip/broken.yaml": BROKEN}, "--format", "json")
    [item] = json.loads(out)
    assert {"path", "line", "col", "code", "severity", "message", "related"} <= set(item)
    assert (item["path"], item["line"], item["col"], item["code"], item["severity"]) == (
        "entries/pip/broken.yaml", 3, 8, "ET202", "error"
    )


def test_paths_are_relative_to_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_corpus(tmp_path, {"pip/broken.yaml": BROKEN})
    monkeypatch.chdir(tmp_path / "entries" / "pip")
    result = CliRunner().invoke(cli, ["lint", "--select", "ET2", "--format", "json", "broken.yaml"])
    assert json.loads(result.output)[0]["path"] == "broken.yaml"


def test_unknown_config_key_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_corpus(tmp_path, {"pip/ok.yaml": GOOD})
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\ncolour = "red"\n')
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint"])
    assert result.exit_code == ExitCode.ERROR
    assert "unknown key `tool.entrykit.colour`" in result.output


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("[tool.entrykit.regex]\nflags = [\"NOCASE\"]\n", "`tool.entrykit.regex.flags` must be one of"),
        ("[tool.entrykit.rules.ET607]\nmax_age_days = \"long\"\n", "must be a int"),
        ("[tool.entrykit.rules.ET999]\n", "unknown rule `tool.entrykit.rules.ET999`"),
        ("[tool.entrykit.rules.ET607]\nseverity = \"fatal\"\n", "must be error, warning or info"),
        ("select = [\"XX1\"]\n", "matches no rule code"),
    ],
)
def test_bad_config_is_exit_two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, message: str) -> None:
    write_corpus(tmp_path, {"pip/ok.yaml": GOOD})
    head = '[tool.entrykit]\nroot = "entries"\n'
    (tmp_path / "pyproject.toml").write_text(head + table)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint"])
    assert result.exit_code == ExitCode.ERROR
    assert message in result.output
    assert "Traceback" not in result.output


def test_missing_path_is_exit_two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["lint", "nowhere.yaml"])
    assert result.exit_code == ExitCode.ERROR
    assert "does not exist" in result.output


def test_rules_and_explain() -> None:
    runner = CliRunner()
    listing = runner.invoke(cli, ["rules"], catch_exceptions=False).output
    assert "ET202  regex-misses-signature" in listing
    doc = runner.invoke(cli, ["explain", "ET202"], catch_exceptions=False).output
    assert doc.startswith("ET202 regex-misses-signature")
    assert "## Why is this bad?" in doc
    by_name = runner.invoke(cli, ["explain", "regex-misses-signature"], catch_exceptions=False).output
    assert by_name == doc
    unknown = runner.invoke(cli, ["explain", "ET999"])
    assert unknown.exit_code == ExitCode.ERROR


@pytest.mark.parametrize("command", [["rules"], ["explain", "ET202"]])
def test_rule_documentation_in_a_fresh_process(command: list[str]) -> None:
    """`rules` and `explain` register the rules themselves: nothing else in the process has."""
    done = subprocess.run([sys.executable, "-m", "entrykit", *command], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "ET202" in done.stdout and "regex-misses-signature" in done.stdout


def test_rule_crash_names_rule_and_file_without_traceback(tmp_path: Path) -> None:
    """A bug in a rule exits 2 with one line naming the rule and the file."""
    write_corpus(tmp_path, {"pip/ok.yaml": GOOD})
    script = (
        "import entrykit.rules.content as c, entrykit.registry as r\n"
        "rule = r.get('ET605')\n"
        "def boom(entry, ctx):\n    raise ZeroDivisionError('bug')\n"
        "r._RULES['ET605'] = type(rule)(**{**rule.__dict__, 'func': boom})\n"
        "from entrykit.cli import main\nmain()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, "lint", "--root", "entries"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == ExitCode.ERROR
    assert "rule ET605 crashed on entries/pip/ok.yaml" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_malformed_corpus_never_tracebacks(tmp_path: Path) -> None:
    """Every kind of broken file in one corpus: exit 1, one ET001/ET003 each, no traceback."""
    root = tmp_path / "entries" / "bad"
    root.mkdir(parents=True)
    files = {
        "truncated.yaml": b'id: bad/truncated\nsignature: "open\n',
        "utf8.yaml": b"id: bad/utf8\nsignature: caf\xe9\n",
        "binary.json": bytes(range(256)) * 4,
        "empty.yaml": b"",
        "list.yaml": b"- a\n- b\n",
        "dupe.json": b'{"id": "bad/dupe", "id": "bad/dupe"}',
        "dupe.yaml": b"id: bad/dupe-yaml\nid: bad/dupe-yaml\n",
    }
    for name, raw in files.items():
        (root / name).write_bytes(raw)
    proc = subprocess.run(
        [sys.executable, "-m", "entrykit", "lint", "--root", "entries", "--select", "ET0", "--format", "json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == ExitCode.FINDINGS
    assert "Traceback" not in proc.stderr
    found = {(Path(d["path"]).name, d["code"]) for d in json.loads(proc.stdout)}
    assert found == {
        ("truncated.yaml", "ET001"), ("utf8.yaml", "ET001"), ("binary.json", "ET001"),
        ("empty.yaml", "ET001"), ("list.yaml", "ET001"), ("dupe.json", "ET003"), ("dupe.yaml", "ET003"),
    }


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("3", "3")])
def test_numpy_s_blas_runs_one_thread_unless_the_user_says_otherwise(
    tmp_path: Path, given: str | None, expected: str
) -> None:
    """The command line tells OpenBLAS one thread (its idle threads spin on cores the lint's own
    processes use) before any command imports numpy; a value the user set is kept."""
    script = (
        "import os, sys\nfrom entrykit.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(os.environ.get('OPENBLAS_NUM_THREADS'), 'numpy' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    proc = subprocess.run(
        [sys.executable, "-c", script, "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env
    )
    assert proc.stdout.splitlines()[-1] == f"{expected} False"


@pytest.mark.skipif(os.name != "posix", reason="removes the directory a running process is in")
@pytest.mark.parametrize("command", [["lint"], ["fmt", "--check"], ["match", "boom"]])
def test_a_removed_working_directory_is_said_not_crashed_on(tmp_path: Path, command: list[str]) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()

    def leave_behind() -> None:  # (in the child: a shell still in a folder someone removed)
        os.chdir(gone)
        os.rmdir(gone)

    done = subprocess.run(
        [sys.executable, "-m", "entrykit", *command], capture_output=True, preexec_fn=leave_behind, timeout=300,
        env={**os.environ, "GITHUB_ACTIONS": "", "NO_COLOR": "1"},
    )
    assert done.returncode == ExitCode.ERROR and done.stdout == b""
    assert done.stderr.decode() == (
        "entrykit: error: cannot read the current directory (No such file or directory); change to one that exists\n"
    )


@pytest.mark.parametrize(
    "command", [["lint"], ["lint", "--fix"], ["fmt"], ["dupes"], ["translations"], ["render"]]
)
def test_a_path_argument_the_system_will_not_look_at_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    write_corpus(tmp_path, {"pip/ok.yaml": GOOD})
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    too_long = f"entries/{'a' * 300}.yaml"  # (longer than any file name may be)
    result = CliRunner().invoke(cli, [*command, too_long], catch_exceptions=False)
    assert result.exit_code == ExitCode.ERROR
    assert f"`{too_long}` cannot be looked at (File name too long)" in result.stderr
    assert "internal error" not in result.stderr
    if command[0] in ("lint", "dupes", "translations"):  # (the commands with --root)
        result = CliRunner().invoke(cli, [*command, "--root", too_long], catch_exceptions=False)
        assert result.exit_code == ExitCode.ERROR
        assert f"--root `{too_long}` cannot be looked at (File name too long)" in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("option", ["--write-baseline", "--output-file"])
def test_a_report_or_baseline_is_never_written_over_a_pipe_or_device(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    pipe = tmp_path / "out.json"
    os.mkfifo(pipe)
    value = str(pipe) if option == "--write-baseline" else f"json={pipe}"
    code, _ = invoke(tmp_path, monkeypatch, {"pip/ok.yaml": GOOD}, option, value)
    assert code == ExitCode.ERROR
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)  # still the pipe: nothing renamed onto it
