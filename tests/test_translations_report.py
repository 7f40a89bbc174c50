"""`entrykit translations`: the coverage report, its formats, and --mark-current."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from entrykit.cli import ExitCode, cli
from entrykit.loader import load
from entrykit.translation import translated_fields as translated
from entrykit.translation.coverage import CoverageReport, coverage, load_entries
from entrykit.translation.coverage_formats import FORMATTERS, as_data
from entrykit.translation.fingerprints import mark_current
from entrykit.translation.translated_fields import Settings

from .conftest import FIXTURES, lint_corpus, make_config, write_corpus

GOLDEN = Path(__file__).resolve().parent / "golden"
CORPUS = FIXTURES / "translations" / "corpus"

ENTRY = """\
id: git/not-a-repository
signature: "fatal: not a git repository"
signature_zh: "致命错误：不是 Git 仓库"
# the root cause is reviewed separately
root_cause: The command runs outside a Git working tree.
root_cause_zh: 命令在 Git 工作树之外运行。
workarounds:
  - action: Change into the repository folder first
    success_rate: 0.9
  - action: Run git init to create a repository here
    success_rate: 0.6
workarounds_zh:
  - 先进入仓库所在的文件夹
  - 运行 git init，在这里创建一个仓库
"""


def _report(
    tmp_path: Path, files: dict[str, str], table: dict[str, object] | None = None, only: list[str] | None = None
) -> CoverageReport:
    write_corpus(tmp_path, files)
    config = make_config(tmp_path, table)
    entries, _ = load_entries(None, config, tmp_path)
    return coverage(entries, Settings.from_section(config.settings["translation"]), only)


def test_counts_per_locale_and_field(tmp_path: Path) -> None:
    copied = ENTRY.replace("id: git/not-a-repository", "id: git/copy").replace(
        'signature_zh: "致命错误：不是 Git 仓库"', 'signature_zh: "fatal: not a git repository"'
    )
    short = ENTRY.replace("id: git/not-a-repository", "id: git/short").replace("  - 运行 git init，在这里创建一个仓库\n", "")
    bare = "id: git/bare\nsignature: \"fatal: bad object HEAD\"\nroot_cause: The repository is corrupt.\nworkarounds: []\n"
    report = _report(
        tmp_path,
        {"git/a.yaml": ENTRY, "git/copy.yaml": copied, "git/short.yaml": short, "git/bare.yaml": bare},
    )
    assert report.entries == 4 and report.locales == ("zh",)
    signature = report.cell("zh", "signature")
    assert (signature.total, signature.present, signature.missing, signature.untranslated, signature.stale) == (4, 3, 1, 1, 0)
    assert signature.percent(signature.missing) == 25.0 and signature.current == 2
    workarounds = report.cell("zh", "workarounds")
    assert (workarounds.total, workarounds.missing, workarounds.untranslated) == (3, 0, 1)  # bare has none to translate
    work = {(t.path, t.field, t.status) for t in report.tasks}
    assert work == {
        ("entries/git/bare.yaml", "signature", "missing"),
        ("entries/git/bare.yaml", "root_cause", "missing"),
        ("entries/git/copy.yaml", "signature", "untranslated"),
        ("entries/git/short.yaml", "workarounds", "untranslated"),
    }


def test_optional_locales_found_in_the_corpus_are_reported(tmp_path: Path) -> None:
    with_ja = ENTRY + "root_cause_ja: コマンドが Git の作業ツリーの外で実行されています。\n"
    report = _report(tmp_path, {"git/a.yaml": with_ja, "git/b.yaml": ENTRY.replace("git/not-a-repository", "git/b")})
    assert report.locales == ("zh", "ja")
    cell = report.cell("ja", "root_cause")
    assert (cell.required, cell.total, cell.present, cell.missing) == (False, 2, 1, 1)
    only = _report(tmp_path, {}, only=["ja"])
    assert only.locales == ("ja",)


def test_an_entry_in_the_locale_itself_needs_no_translation(tmp_path: Path) -> None:
    report = _report(tmp_path, {"git/zh.yaml": "id: git/zh\nlocale: zh\nsignature: 致命错误：不是 Git 仓库\n"})
    assert report.cell("zh", "signature").total == 0 and report.tasks == ()


def test_staleness_counts_only_when_tracked(tmp_path: Path) -> None:
    files = {"git/a.yaml": ENTRY}
    assert _report(tmp_path, files).cell("zh", "signature").stale == 0
    tracked = _report(tmp_path, files, {"translation": {"track_source": True}})
    assert all(c.stale == c.total == 1 for c in tracked.cells)  # nothing recorded yet


def _cli(monkeypatch: pytest.MonkeyPatch, folder: Path, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout


@pytest.mark.parametrize("fmt", sorted(FORMATTERS))
def test_report_formats_match_golden(monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    code, output = _cli(monkeypatch, CORPUS, "translations", "--format", fmt)
    assert code == ExitCode.CLEAN
    golden = GOLDEN / f"translations.{fmt}"
    if os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):
        golden.write_text(output, encoding="utf-8")
    assert output == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_summary_formats_match_golden(monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """`--summary`: the coverage table per locale and field, without the work list."""
    code, output = _cli(monkeypatch, CORPUS, "translations", "--summary", "--format", fmt)
    assert code == ExitCode.CLEAN
    golden = GOLDEN / f"translations.summary.{fmt}"
    if os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):
        golden.write_text(output, encoding="utf-8")
    assert output == golden.read_text(encoding="utf-8")
    _, whole = _cli(monkeypatch, CORPUS, "translations", "--format", fmt)
    if fmt == "json":
        data, full = json.loads(output), json.loads(whole)
        assert "work" not in data and full["work"] and data == {k: v for k, v in full.items() if k != "work"}
    else:
        table = [line for line in output.splitlines() if "zh" in line]
        assert table and all(line in whole.splitlines() for line in table)
        assert "To work on" not in output and "To work on" in whole


def test_json_report_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    _, output = _cli(monkeypatch, CORPUS, "translations", "--format", "json")
    data = json.loads(output)
    assert {"entries", "required", "track_source", "locales", "fields", "coverage", "work", "skipped"} <= set(data)
    cell = next(c for c in data["coverage"] if (c["locale"], c["field"]) == ("zh", "root_cause"))
    assert cell["present"] == cell["current"] + cell["untranslated"] + cell["stale"]
    assert {w["status"] for w in data["work"]} == {"missing", "untranslated", "stale"}
    assert data["skipped"][0]["path"] == "entries/git/broken.yaml"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["translations", "--mark-current"], "--mark-current needs the PATHS"),
        (["translations", "--locale", "cn"], "`cn` is not a locale babel knows"),
        (["translations", "nowhere.yaml"], "`nowhere.yaml` does not exist"),
    ],
)
def test_usage_errors_exit_two(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str], message: str) -> None:
    write_corpus(tmp_path, {"git/a.yaml": ENTRY})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == ExitCode.ERROR and message in result.output
    assert "Traceback" not in result.output


def test_mark_current_then_lint_is_clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    table = {"select": ["ET3"], "translation": {"track_source": True}}
    before = lint_corpus(tmp_path, {"git/a.yaml": ENTRY}, table)
    assert {d.code for d in before.diagnostics} == {"ET307"}
    (tmp_path / "pyproject.toml").write_text(
        '[tool.entrykit]\nroot = "entries"\n[tool.entrykit.translation]\ntrack_source = true\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["translations", "--mark-current", "entries/git/a.yaml"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN
    assert "marked root_cause_zh, signature_zh, workarounds_zh current" in result.output
    text = (tmp_path / "entries/git/a.yaml").read_text(encoding="utf-8")
    assert text.startswith(ENTRY)  # comments, order, quoting untouched; the table is appended
    recorded = yaml.safe_load(text)["translated_from"]
    assert recorded["workarounds_zh"] == [
        translated.fingerprint("Change into the repository folder first"),
        translated.fingerprint("Run git init to create a repository here"),
    ]
    after = lint_corpus(tmp_path, {}, {"select": ["ET3", "ET1"], "translation": {"track_source": True}})
    assert [d for d in after.diagnostics if d.code != "ET101"] == []
    assert not [d for d in after.diagnostics if d.pointer.startswith("/translated_from")]  # schema allows it
    again = CliRunner().invoke(cli, ["translations", "--mark-current", "entries"], catch_exceptions=False)
    assert "Marked 0 translations current in 0 of 1 files." in again.output
    assert (tmp_path / "entries/git/a.yaml").read_text(encoding="utf-8") == text


def test_mark_current_after_a_source_change_updates_only_that_fingerprint(tmp_path: Path) -> None:
    root = write_corpus(tmp_path, {"git/a.yaml": ENTRY})
    path = root / "git/a.yaml"
    marked = mark_current(load(path, "a.yaml"), Settings())  # type: ignore[arg-type]
    changed = marked.text.replace("outside a Git working tree.", "outside any Git working tree.", 1)
    path.write_text(changed, encoding="utf-8")
    again = mark_current(load(path, "a.yaml"), Settings())  # type: ignore[arg-type]
    assert again.marked == ("root_cause_zh",)
    old, new = yaml.safe_load(changed)["translated_from"], yaml.safe_load(again.text)["translated_from"]
    assert {k for k in old if old[k] != new[k]} == {"root_cause_zh"}


def test_mark_current_by_locale_and_json(tmp_path: Path) -> None:
    shutil.copytree(CORPUS / "entries", tmp_path / "entries")
    path = tmp_path / "entries/docker/permission-denied.json"
    entry = load(path, "x.json")
    only_ko = mark_current(entry, Settings(required=("zh", "ja")), ["ko"])  # type: ignore[arg-type]
    assert only_ko.marked == ("signature_ko",)
    data = json.loads(only_ko.text)
    assert list(data)[-1] == "translated_from" and list(data["translated_from"]) == ["signature_ko"]
    assert only_ko.text.startswith(path.read_text(encoding="utf-8").rstrip().rstrip("}").rstrip())


def test_mark_current_skips_lists_of_another_length(tmp_path: Path) -> None:
    shutil.copytree(CORPUS / "entries", tmp_path / "entries")
    entry = load(tmp_path / "entries/pip/no-matching-distribution.yaml", "pip.yaml")
    result = mark_current(entry, Settings())  # type: ignore[arg-type]
    assert result.skipped == (("workarounds_zh", "has 1 item but `workarounds` has 2"),)
    assert "  root_cause_zh: 56dbbf0d  # made from" not in result.text
    assert "# made from the shorter root cause" in result.text  # the comment survives the rewrite


def test_mark_current_exits_one_when_something_was_left(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    shutil.copytree(CORPUS, tmp_path / "corpus")
    monkeypatch.chdir(tmp_path / "corpus")
    result = CliRunner().invoke(cli, ["translations", "--mark-current", "entries"], catch_exceptions=False)
    assert result.exit_code == ExitCode.FINDINGS
    assert "entries/git/broken.yaml:3:1" in result.output
    assert "`workarounds_zh` not marked: it has 1 item but `workarounds` has 2" in result.output


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None)
@given(source=st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=60).filter(str.strip))
@example(source="source 2")  # fingerprint 92278656: all digits, so YAML must quote it
def test_marked_fingerprints_read_back_as_strings(tmp_path: Path, source: str) -> None:
    text = "id: t/x\nroot_cause: " + json.dumps(source, ensure_ascii=False) + "\nroot_cause_zh: 命令在 Git 工作树之外运行。\n"
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    entry = load(path, "x.yaml")
    assert not hasattr(entry, "message"), entry
    result = mark_current(entry, Settings())  # type: ignore[arg-type]
    assert yaml.safe_load(result.text)["translated_from"] == {"root_cause_zh": translated.fingerprint(source)}


def test_report_as_data_is_what_json_prints(tmp_path: Path) -> None:
    report = _report(tmp_path, {"git/a.yaml": ENTRY})
    assert json.loads(FORMATTERS["json"](report)) == as_data(report)


def test_mark_current_drops_fingerprints_of_translations_that_are_gone(tmp_path: Path) -> None:
    root = write_corpus(
        tmp_path,
        {"git/a.yaml": 'signature: "boom"\nsignature_zh: "爆炸"\ntranslated_from:\n  signature_zh: 5f3a2b1c\n  workarounds_zh: [0a0b0c0d]  # gone\n'},
    )
    result = mark_current(load(root / "git/a.yaml", "a.yaml"), Settings())  # type: ignore[arg-type]
    assert result.changed and result.marked == ("signature_zh",)
    assert result.text.endswith("\n")
    assert yaml.safe_load(result.text)["translated_from"] == {"signature_zh": translated.fingerprint("boom")}


def _outside_code_spans(line: str) -> str:
    """`line` with its code spans left out (as CommonMark pairs backtick runs)."""
    from entrykit.authoring.render import code_span_end

    out, at = [], 0
    while at < len(line):
        if line[at] == "`" and (at == 0 or line[at - 1] != "\\"):
            end = code_span_end(line, at)
            if end is not None:
                at = end
                continue
            while at < len(line) and line[at] == "`":
                at += 1
            continue
        out.append(line[at])
        at += 1
    return "".join(out)


def test_the_markdown_report_shows_entry_text_as_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ids, file names and quoted entry text go into the page a CI job summary or a pull
    request comment renders: nothing of them is read as a link, an image or raw HTML."""
    root = tmp_path / "entries" / "x"
    root.mkdir(parents=True)
    (tmp_path / "entrykit.toml").write_text('root = "entries"\n[translation]\nrequired = ["zh"]\n', encoding="utf-8")
    evil = "<img src=x onerror=alert(1)> ![p](https://evil.example/p.png)"
    (root / "a.json").write_text(json.dumps({"id": f"x/a {evil}", "signature": "E1 happened", "root_cause": "r"}), encoding="utf-8")
    quoted = f"`{evil}` the module could not be loaded"
    (root / "b.json").write_text(json.dumps({"id": "x/b", "signature": quoted, "signature_zh": quoted, "root_cause": "r"}), encoding="utf-8")
    (root / "`<img src=x onerror=alert(3)>`.json").write_text(json.dumps({"id": "x/c", "signature": "E3", "root_cause": "r"}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["translations", "--format", "markdown"])
    assert result.exit_code == 0, result.output
    assert result.output.count("<img") == 3  # all three are on the page...
    for line in result.output.splitlines():
        text = _outside_code_spans(line)
        for live in ("<", "![", "]("):
            assert all(text[at - 1] == "\\" for at in range(len(text)) if text.startswith(live, at)), line
