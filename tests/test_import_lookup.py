"""`import --from deadends` writes that corpus's settings into the project's configuration: its
lookup, and no required locale for a new corpus whose canons carry no translation."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from entrykit.authoring.config_edit import add_settings
from entrykit.authoring.importers import Imported, deadends
from entrykit.cli import ExitCode, cli
from entrykit.config import load_config
from entrykit.translation.translated_fields import Settings

from .test_import_deadends import CANON

WANTED = {"flags": ["IGNORECASE"], "mode": "search"}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "canon.json").write_text(json.dumps(CANON), encoding="utf-8")
    return tmp_path


def _import(*extra: str) -> Result:
    return CliRunner().invoke(cli, ["import", "--from", "deadends", "canon.json", *extra])


def test_a_project_without_configuration_gets_an_entrykit_toml(project: Path) -> None:
    result = _import("--out", "corpus")
    assert result.exit_code == ExitCode.CLEAN, result.output
    assert (
        'settings of the imported corpus written to entrykit.toml: [regex] flags = ["IGNORECASE"], mode = "search"; '
        "[translation] required = []" in result.output
    )
    config = load_config(project)
    assert config.source == project / "entrykit.toml" and config.root == (project / "corpus").resolve()
    assert config.settings["regex"]["flags"] == ["IGNORECASE"] and config.settings["regex"]["mode"] == "search"
    assert config.settings["translation"]["required"] == []
    before = (project / "entrykit.toml").read_bytes()
    again = _import("--out", "corpus", "--force")
    assert again.exit_code == ExitCode.CLEAN and "settings of the imported corpus" not in again.output
    assert (project / "entrykit.toml").read_bytes() == before


def test_a_pyproject_is_edited_keeping_every_byte_it_had(project: Path) -> None:
    text = '[project]\nname = "kb"  # the team\'s corpus\n\n[tool.entrykit]\nroot = "entries"\n# keep\n\n[tool.ruff]\nline-length = 100\n'
    (project / "pyproject.toml").write_text(text, encoding="utf-8")
    result = _import()
    assert result.exit_code == ExitCode.CLEAN, result.output
    edited = (project / "pyproject.toml").read_text(encoding="utf-8")
    assert edited.startswith(text) and not (project / "entrykit.toml").exists()
    data = tomllib.loads(edited)
    assert data["tool"]["entrykit"]["regex"] == WANTED and data["tool"]["ruff"] == {"line-length": 100}


def test_a_regex_table_gets_the_missing_keys_below_its_header(project: Path) -> None:
    text = "[tool.entrykit.regex]  # how we look up\ntimeout_ms = 50\n"
    (project / "pyproject.toml").write_text(text, encoding="utf-8")
    assert _import().exit_code == ExitCode.CLEAN
    edited = (project / "pyproject.toml").read_text(encoding="utf-8")
    assert edited == (
        '[tool.entrykit.regex]  # how we look up\nflags = ["IGNORECASE"]\nmode = "search"\ntimeout_ms = 50\n\n'
        + "".join(f"# {line}\n" for line in deadends.NO_TRANSLATION_REASON.splitlines())
        + "[tool.entrykit.translation]\nrequired = []\n"
    )


def test_a_configuration_with_crlf_line_ends_is_edited_in_them(project: Path) -> None:
    text = "[tool.entrykit.regex]  # how we look up\r\ntimeout_ms = 50\r\n"
    (project / "pyproject.toml").write_bytes(text.encode("utf-8"))
    assert _import().exit_code == ExitCode.CLEAN
    edited = (project / "pyproject.toml").read_bytes().decode("utf-8")
    assert tomllib.loads(edited)["tool"]["entrykit"]["regex"] == {**WANTED, "timeout_ms": 50}
    assert edited.count("\n") == edited.count("\r\n")  # every line ends as the file's did


def test_a_differing_setting_is_reported_and_kept(project: Path) -> None:
    text = '[regex]\nflags = ["MULTILINE"]  # our logs\nmode = "match"\n'
    (project / "entrykit.toml").write_text(text, encoding="utf-8")
    result = _import()
    assert result.exit_code == ExitCode.CLEAN
    assert 'warning: entrykit.toml sets `regex.flags = ["MULTILINE"]`' in result.output
    assert 'warning: entrykit.toml sets `regex.mode = "match"`' in result.output
    kept = (project / "entrykit.toml").read_text(encoding="utf-8")
    assert kept.startswith(text) and tomllib.loads(kept)["regex"] == {"flags": ["MULTILINE"], "mode": "match"}


def test_flags_in_another_order_or_case_are_the_same_setting(tmp_path: Path) -> None:
    (tmp_path / "entrykit.toml").write_text('[regex]\nflags = ["ignorecase"]\nmode = "search"\n', encoding="utf-8")
    edit = add_settings(tmp_path / "entrykit.toml", tmp_path, tmp_path / "entries", "regex", WANTED, "why")
    assert edit.text is None and edit.differing == [] and edit.problem is None


def test_a_form_the_edit_does_not_read_is_left_alone_and_said(project: Path) -> None:
    text = "[tool.entrykit]\nregex = { timeout_ms = 50 }\n"
    (project / "pyproject.toml").write_text(text, encoding="utf-8")
    result = _import()
    assert result.exit_code == ExitCode.CLEAN
    assert (
        "warning: pyproject.toml: `tool.entrykit.regex` is written in a form this edit does not read" in result.output
    )
    assert (project / "pyproject.toml").read_text(encoding="utf-8") == text


@pytest.mark.parametrize("flag", ["--no-settings", "--no-lookup-settings"])
def test_no_settings_leaves_the_configuration_alone(project: Path, flag: str) -> None:
    result = _import(flag)
    assert result.exit_code == ExitCode.CLEAN and not (project / "entrykit.toml").exists()


def test_an_import_into_a_corpus_that_holds_entries_requires_what_it_did(project: Path) -> None:
    (project / "entries" / "team").mkdir(parents=True)
    (project / "entries" / "team" / "ours.yaml").write_text("id: team/ours\n", encoding="utf-8")
    result = _import()
    assert result.exit_code == ExitCode.CLEAN, result.output
    assert "[translation]" not in result.output
    assert load_config(project).settings["translation"]["required"] == ["zh"]  # the default, still in force


def test_a_required_locale_the_configuration_sets_is_kept_and_said(project: Path) -> None:
    text = '[translation]\nrequired = ["zh"]  # our readers\n'
    (project / "entrykit.toml").write_text(text, encoding="utf-8")
    result = _import()
    assert result.exit_code == ExitCode.CLEAN, result.output
    assert (
        'warning: entrykit.toml sets `translation.required = ["zh"]`; the import would set required = []'
        in result.output
    )
    edited = tomllib.loads((project / "entrykit.toml").read_text(encoding="utf-8"))
    assert edited["translation"] == {"required": ["zh"]} and edited["regex"] == WANTED


def _imported(entry: dict[str, object]) -> Imported:
    return Imported(Path("canon.json"), entry)


def test_no_locale_is_required_only_of_a_new_corpus_without_translations() -> None:
    plain = [_imported({"id": "a/b", "signature": "E"}), _imported({"id": "a/c", "signature": "F"})]
    translated = [*plain, _imported({"id": "a/d", "signature": "G", "signature_ja": "G"})]
    sections = [t.section for t in deadends.corpus_tables(plain, Settings(), new_corpus=True)]
    assert sections == ["regex", "translation"]
    assert [t.section for t in deadends.corpus_tables(translated, Settings(), new_corpus=True)] == ["regex"]
    assert [t.section for t in deadends.corpus_tables(plain, Settings(), new_corpus=False)] == ["regex"]
    # nothing to say where nothing is required already
    assert [t.section for t in deadends.corpus_tables(plain, Settings(required=()), new_corpus=True)] == ["regex"]


def test_config_option_names_the_file_to_edit(project: Path) -> None:
    (project / "cfg").mkdir()
    (project / "cfg" / "team.toml").write_text('root = "../entries"\n', encoding="utf-8")
    result = _import("--config", "cfg/team.toml")
    assert result.exit_code == ExitCode.CLEAN, result.output
    assert tomllib.loads((project / "cfg" / "team.toml").read_text(encoding="utf-8"))["regex"] == WANTED
    assert (project / "entries" / "python" / "modulenotfounderror_py311-linux.yaml").is_file()


def _deep(path: Path) -> None:
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")


def _large(path: Path) -> None:
    path.write_text("[regex]\n" + "#" * (1 << 20) + "\n", encoding="utf-8")


def _folder(path: Path) -> None:
    path.mkdir()


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _not_toml(path: Path) -> None:
    path.write_text("x = \n", encoding="utf-8")


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (_deep, "nests arrays or tables too deep to read"),  # was an internal RecursionError
        (_large, "larger than 1,048,576 bytes"),  # was read whole, however large
        (_folder, "is not a regular file"),  # was "internal error: ConfigError"
        (_fifo, "is not a regular file"),
        (_not_toml, "is not valid TOML: Invalid value (at line 1, column 5)"),
    ],
)
def test_a_configuration_to_edit_that_is_none_is_an_error_and_nothing_is_written(
    project: Path, make: Callable[[Path], None], said: str
) -> None:
    if make is _fifo and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    (project / "sub").mkdir()
    make(project / "sub" / "entrykit.toml")
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    result = _import("--out", "sub/entries")
    assert result.exit_code == ExitCode.ERROR, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("entrykit: error: ") and "internal error" not in lines[0]
    assert said in lines[0] and "sub/entrykit.toml" in lines[0] and lines[0].endswith("; no entry was written")
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before
