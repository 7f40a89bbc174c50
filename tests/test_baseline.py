"""Baselines: record today's findings, then fail only on new ones, whatever edits move them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from entrykit.cli import cli
from entrykit.diagnostic import Diagnostic, Location, Severity
from entrykit.lint import baseline

from .conftest import DEADENDS, write_corpus

pytestmark = pytest.mark.slow

ENTRY = """\
id: pip/x
signature: "ERROR: boom in module x"
regex: "ERROR: boom in module x"
domain: pip
category: install_error
root_cause: It breaks.
workarounds:
  - action: Reinstall the package
    success_rate: 0.5
    how: Reinstall the package
versions:
  - version: PIP 23.x+
first_seen: "2024-01-01"
"""


def _lint(base: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["lint", "--today", "2026-11-30", "--format", "text", *args], catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_corpus(tmp_path, {"pip/x.yaml": ENTRY})
    (tmp_path / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    written = _lint(tmp_path, "--write-baseline", "baseline.json")
    assert written.exit_code == 0 and written.stdout == ""
    assert _lint(tmp_path).exit_code == 1  # there is something to baseline
    return tmp_path


def _codes(result: Result) -> list[str]:
    return [line.split(": ")[1].split(" ")[0] for line in result.stdout.splitlines() if line.startswith("entries/")]


def test_a_baselined_corpus_passes_and_says_what_it_covered(project: Path) -> None:
    result = _lint(project, "--baseline", "baseline.json")
    assert result.exit_code == 0 and result.stdout == "No problems in 1 file.\n"
    assert "findings in the baseline not shown" in result.stderr


def test_shifted_lines_and_a_moved_file_keep_their_findings(project: Path) -> None:
    entry = project / "entries" / "pip" / "x.yaml"
    entry.write_text("# a comment\n\n# and another\n" + ENTRY, encoding="utf-8")
    assert _lint(project, "--baseline", "baseline.json").exit_code == 0
    entry.rename(entry.with_suffix(".yml"))  # another file, the same entry
    result = _lint(project, "--baseline", "baseline.json", "--no-cache")
    assert result.exit_code == 0, result.stdout


def test_an_item_inserted_above_keeps_the_findings_below(project: Path) -> None:
    entry = project / "entries" / "pip" / "x.yaml"
    entry.write_text(
        ENTRY.replace("workarounds:\n", "workarounds:\n  - action: Upgrade pip first\n    success_rate: 0.4\n"),
        encoding="utf-8",
    )
    assert _lint(project, "--baseline", "baseline.json").exit_code == 0


def test_one_new_finding_fails_and_is_the_only_one_shown(project: Path) -> None:
    entry = project / "entries" / "pip" / "x.yaml"
    entry.write_text(ENTRY + "frobnicate: 1\n", encoding="utf-8")
    result = _lint(project, "--baseline", "baseline.json")
    assert result.exit_code == 1 and _codes(result) == ["ET101"] and "frobnicate" in result.stdout


def test_a_second_equal_finding_is_new(project: Path) -> None:
    """The baseline holds one `how` that repeats its action; a second one is reported, the later."""
    entry = project / "entries" / "pip" / "x.yaml"
    entry.write_text(
        ENTRY.replace(
            "versions:", "  - action: Clear the cache\n    success_rate: 0.4\n    how: Clear the cache\nversions:"
        ),
        encoding="utf-8",
    )
    result = _lint(project, "--baseline", "baseline.json", "--strict")
    assert result.exit_code == 1 and _codes(result) == ["ET605"]
    assert result.stdout.startswith("entries/pip/x.yaml:13:10: ET605")  # the second workaround's `how`


def test_a_changed_offending_value_is_a_new_finding(project: Path) -> None:
    entry = project / "entries" / "pip" / "x.yaml"
    entry.write_text(ENTRY.replace("PIP 23.x+", "PIP 24.x+"), encoding="utf-8")
    assert _lint(project, "--baseline", "baseline.json", "--strict").exit_code == 0  # numbers are left out
    entry.write_text(ENTRY.replace("PIP 23.x+", "Pipx 23.x+"), encoding="utf-8")
    result = _lint(project, "--baseline", "baseline.json", "--strict")
    assert result.exit_code == 1 and _codes(result) == ["ET401"] and "Pipx" in result.stdout


def test_a_fixed_finding_is_named_as_gone(project: Path) -> None:
    entry = project / "entries" / "pip" / "x.yaml"
    entry.write_text(ENTRY.replace("PIP 23.x+", "pip>=23"), encoding="utf-8")
    result = _lint(project, "--baseline", "baseline.json")
    assert result.exit_code == 0 and "1 in the baseline no longer occur" in result.stderr
    # a run over some files says nothing of the rest
    result = _lint(project, "--baseline", "baseline.json", "entries/pip/x.yaml")
    assert result.exit_code == 0 and "no longer occur" not in result.stderr


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not json", "is not JSON"),
        ('{"findings": []}', "is not an entrykit baseline"),
        ('{"entrykit_baseline": 2, "findings": {}}', "`findings` is not a list"),
        ('{"entrykit_baseline": 2, "findings": [{"code": "ET101"}]}', "finding 1 has no string `entry`"),
        (
            '{"entrykit_baseline": 2, "findings": [{"code": "E", "entry": "e", "pointer": "", "message": "m", "count": 0}]}',
            "finding 1 has no positive integer `count`",
        ),
    ],
)
def test_a_broken_baseline_is_one_line_and_exit_two(project: Path, text: str, says: str) -> None:
    (project / "bad.json").write_text(text, encoding="utf-8")
    result = _lint(project, "--baseline", "bad.json")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and says in result.stderr


def test_a_missing_baseline_is_exit_two(project: Path) -> None:
    result = _lint(project, "--baseline", "nowhere.json")
    assert result.exit_code == 2 and "cannot read baseline nowhere.json" in result.stderr


def _diagnostic(path: str, message: str, pointer: str = "/regex", related: tuple[Location, ...] = ()) -> Diagnostic:
    return Diagnostic(path, 3, 8, "ET501", "duplicate-id", Severity.ERROR, message, pointer, related)


def test_keys_leave_out_places_paths_and_numbers() -> None:
    here = _diagnostic(
        "entries/a.yaml", "id `x` is also claimed by entries/b.yaml (score 0.91)", "/aliases/2",
        (Location("entries/b.yaml", 1, 1),),
    )
    moved = _diagnostic(
        "../kb/a.yaml", "id `x` is also claimed by ../kb/other/b.yaml (score 0.87)", "/aliases/0",
        (Location("../kb/other/b.yaml", 9, 9),),
    )
    assert baseline.key_of(here, "pip/x") == baseline.key_of(moved, "pip/x")
    assert baseline.key_of(here, "pip/x").pointer == "/aliases/*"
    assert baseline.key_of(here, "pip/x") != baseline.key_of(here, "pip/y")
    other = _diagnostic("entries/a.yaml", "id `z` is also claimed by entries/b.yaml", related=(Location("entries/b.yaml", 1, 1),))
    assert baseline.key_of(here, "pip/x").message != baseline.key_of(other, "pip/x").message


def test_a_baseline_holds_from_any_folder(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file's shown name may be part of a path its message names (`x.yaml` in ET503's
    `pip/x.yaml`, seen from its own folder): the verdict is the same from anywhere."""
    moved = project / "entries" / "git" / "x.yaml"
    moved.parent.mkdir()
    (project / "entries" / "pip" / "x.yaml").rename(moved)  # ET503: it belongs in pip/x.yaml
    assert _lint(project, "--write-baseline", "baseline.json").exit_code == 0
    assert "ET503" in _lint(project).stdout
    assert _lint(project, "--baseline", "baseline.json", "entries/git/x.yaml").exit_code == 0
    monkeypatch.chdir(moved.parent)
    inside = _lint(project, "--baseline", "../../baseline.json", "x.yaml")
    assert inside.exit_code == 0 and "No problems" in inside.stdout, inside.stdout


def test_a_baseline_an_earlier_entrykit_wrote_is_named_so(project: Path) -> None:
    (project / "old.json").write_text('{"entrykit_baseline": 1, "findings": []}', encoding="utf-8")
    result = _lint(project, "--baseline", "old.json")
    assert result.exit_code == 2 and "an earlier entrykit wrote this one" in result.stderr


def test_compare_counts_each_key() -> None:
    one, two = _diagnostic("a.yaml", "m"), _diagnostic("a.yaml", "m")
    keys = baseline.keys([one, two], {"a.yaml": "pip/x"})
    held = baseline.Counter({keys[0]: 1})
    result = baseline.compare([one, two], keys, held)
    assert result.new == [two] and result.known == 1 and not result.gone
    result = baseline.compare([], [], baseline.Counter({keys[0]: 3}))
    assert result.gone == baseline.Counter({keys[0]: 3})


def test_the_file_is_stable_and_reads_back() -> None:
    found = [_diagnostic("a.yaml", "m"), _diagnostic("a.yaml", "m"), _diagnostic("b.yaml", "n", "/id")]
    keys = baseline.keys(found, {"a.yaml": "pip/x", "b.yaml": "pip/a"})
    text = baseline.render(keys)
    assert text == baseline.render(list(reversed(keys)))
    rows = json.loads(text)["findings"]
    assert [r["entry"] for r in rows] == ["pip/a", "pip/x"] and rows[1]["count"] == 2
    assert text.count("\n") == 2 + 5  # one finding a line (diffs review well), in a frame of five


# -- the imported deadends.dev corpus --------------------------------------------------------


@pytest.fixture(scope="module")
def deadends_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sixth of the deadends.dev canons (every sixth, in path order), imported."""
    if not DEADENDS.is_dir():
        pytest.skip("../shared/corpus/deadends-dev is not present")
    base = tmp_path_factory.mktemp("deadends-baseline")
    canons = sorted(DEADENDS.rglob("*.json"))[::6]
    (base / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
    imported = CliRunner().invoke(
        cli, ["import", "--from", "deadends", "--config", str(base / "pyproject.toml"), "--out", str(base / "entries"),
              *map(str, canons)], catch_exceptions=False,
    )
    assert imported.exit_code in (0, 1), imported.output
    return base


def test_deadends_adoption_path(deadends_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = Path(shutil.copytree(deadends_project, tmp_path / "project"))
    monkeypatch.chdir(project)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    before = CliRunner().invoke(cli, ["lint", "--today", "2026-11-30", "--format", "json"], catch_exceptions=False)
    found = json.loads(before.stdout)
    assert before.exit_code == 1 and len(found) > 400  # hundreds of findings to adopt (290 entries)
    written = _lint(project, "--write-baseline", "entrykit-baseline.json")
    assert written.exit_code == 0 and f"baseline of {len(found)} findings" in written.stderr
    quiet = _lint(project, "--baseline", "entrykit-baseline.json")
    assert quiet.exit_code == 0 and quiet.stdout.startswith("No problems in ")
    # lines shifted in entries whose findings rest on no clock (ET206 stops a match by CPU time)
    timed = {d["path"] for d in found if d["code"] == "ET206"}
    shifted = sorted({d["path"] for d in found} - timed)[:20]
    for shown in shifted:
        path = project / shown
        path.write_text("# reviewed\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    assert _lint(project, "--baseline", "entrykit-baseline.json").exit_code == 0
    # one new finding: exit 1, naming only it
    target = project / shifted[0]
    target.write_text(target.read_text(encoding="utf-8") + "frobnicate: 1\n", encoding="utf-8")
    result = _lint(project, "--baseline", "entrykit-baseline.json")
    assert result.exit_code == 1
    assert [line for line in result.stdout.splitlines() if ": ET" in line] == [
        line for line in result.stdout.splitlines() if line.startswith(f"{shifted[0]}:") and "frobnicate" in line
    ]
    assert len(_codes(result)) == 1
