"""Configuration in a file of entrykit's own (`.entrykit.toml`, `entrykit.toml`) or in pyproject.toml."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from entrykit import registry
from entrykit.config import find_config, load_config
from entrykit.errors import ConfigError

OWN = 'root = "corpus"\n\n[regex]\nflags = ["IGNORECASE"]  # the corpus looks errors up this way\n'
PYPROJECT = '[project]\nname = "x"\n\n[tool.entrykit]\nroot = "other"\n'


def _put(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def test_an_own_file_holds_at_its_top_level_what_tool_entrykit_holds(tmp_path: Path) -> None:
    _put(tmp_path, {"entrykit.toml": OWN, "corpus/a/.keep": ""})
    config = load_config(tmp_path / "corpus" / "a")  # found walking up
    assert config.source == tmp_path / "entrykit.toml"
    assert config.root == (tmp_path / "corpus").resolve()
    assert config.settings["regex"]["flags"] == ["IGNORECASE"]


@pytest.mark.parametrize(
    ("names", "chosen"),
    [
        ((".entrykit.toml", "entrykit.toml", "pyproject.toml"), ".entrykit.toml"),
        (("entrykit.toml", "pyproject.toml"), "entrykit.toml"),
        (("pyproject.toml",), "pyproject.toml"),
    ],
)
def test_in_one_folder_the_order_is_dot_file_file_pyproject(tmp_path: Path, names: tuple[str, ...], chosen: str) -> None:
    _put(tmp_path, {name: PYPROJECT if name == "pyproject.toml" else OWN for name in names})
    assert find_config(tmp_path) == tmp_path / chosen


def test_the_nearest_folder_wins_and_a_pyproject_without_the_table_is_passed_by(tmp_path: Path) -> None:
    _put(tmp_path, {"entrykit.toml": OWN, "sub/pyproject.toml": PYPROJECT, "sub/deeper/pyproject.toml": '[project]\nname = "y"\n'})
    assert find_config(tmp_path / "sub" / "deeper") == tmp_path / "sub" / "pyproject.toml"
    assert find_config(tmp_path) == tmp_path / "entrykit.toml"


def test_config_option_takes_either_kind(tmp_path: Path) -> None:
    _put(tmp_path, {"a/entrykit.toml": OWN, "b/pyproject.toml": PYPROJECT, "c/any-name.toml": OWN})
    assert load_config(tmp_path, tmp_path / "a" / "entrykit.toml").root.name == "corpus"
    assert load_config(tmp_path, tmp_path / "b" / "pyproject.toml").root.name == "other"
    assert load_config(tmp_path, tmp_path / "c" / "any-name.toml").settings["regex"]["flags"] == ["IGNORECASE"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[regex]\ntimout_ms = 5\n", "unknown key `{p}regex.timout_ms`; did you mean `timeout_ms`?"),
        ("max-file-bytes = 0\n", "`{p}max-file-bytes` must be a positive integer"),
        ('[regex]\nflags = ["IGNORCASE"]\n', "`{p}regex.flags`"),
        ("colour = 1\n", "unknown key `{p}colour`"),
        # a name no file system holds: every command would stop on it (a pull request can write it)
        (f'root = "{"r" * 300}"\n', "`{p}root` names a path that cannot be looked at (File name too long)"),
        (f'schema = "{"s" * 300}.json"\n', "`{p}schema` names a path that cannot be looked at (File name too long)"),
    ],
)
def test_errors_name_the_file_and_the_key_as_written_there(tmp_path: Path, body: str, message: str) -> None:
    """The same checks as in a pyproject.toml, where the same keys sit below [tool.entrykit]."""
    tabled = "[tool.entrykit]\n" + body.replace("[regex]", "[tool.entrykit.regex]")
    _put(tmp_path, {"own/entrykit.toml": body, "tool/pyproject.toml": tabled})
    for folder, name, prefix in (("own", "entrykit.toml", ""), ("tool", "pyproject.toml", "tool.entrykit.")):
        with pytest.raises(ConfigError) as raised:
            load_config(tmp_path / folder)
        assert str(raised.value).startswith(f"{tmp_path / folder / name}: ")
        assert message.format(p=prefix) in str(raised.value)
        assert prefix or "tool.entrykit" not in str(raised.value)


def test_rule_tables_checked_later_name_the_file_too(tmp_path: Path) -> None:
    import entrykit.rules  # noqa: F401  (registers the rules)

    _put(tmp_path, {"entrykit.toml": '[rules.ET999]\nseverity = "warning"\n'})
    config = load_config(tmp_path)
    with pytest.raises(ConfigError, match=re.escape(f"{tmp_path / 'entrykit.toml'}: unknown rule `rules.ET999`")):
        config.with_rules(registry.all_rules())


@pytest.mark.parametrize("name", ["entrykit.toml", ".entrykit.toml", "pyproject.toml"])
@pytest.mark.parametrize("kind", ["device", "dangling link", "folder"])
def test_a_configuration_name_that_is_no_regular_file_is_an_error_not_passed_over(
    tmp_path: Path, name: str, kind: str
) -> None:
    """Passed over, the file further up (here the parent's) would govern the project instead."""
    _put(tmp_path, {"entrykit.toml": 'root = "elsewhere"\n'})
    project = tmp_path / "project"
    project.mkdir()
    candidate = project / name
    if kind == "device":
        if not os.path.exists(os.devnull):
            pytest.skip("no null device")
        candidate.symlink_to(os.devnull)
    elif kind == "dangling link":
        candidate.symlink_to(project / "gone.toml")
    else:
        candidate.mkdir()
    with pytest.raises(ConfigError, match=re.escape(f"{candidate} is not a regular file")):
        load_config(project)
