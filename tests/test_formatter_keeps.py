"""`fmt` writes a file only when what it wrote reads back as the same data, holds each of
the file's comments and formats to itself; otherwise it names the file and leaves it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from entrykit.authoring.formatter import FormatError, format_text
from entrykit.cli import ExitCode, cli

HEAD = "id: x/a\nsignature: boom\n"

CASES = {
    # a full-line comment before a flow mapping whose keys move, and one after it
    "data": (HEAD + "workarounds:\n  # c1\n  - {success_rate: 0.88, action: Go}   # c2\n", "YAML cannot read"),
    "comment between a key and its value": (HEAD + "regex:\n  # c1\n  foo.*bar\n", "drop the comment `# c1`"),
    "comment inside a flow mapping": (HEAD + "workarounds:\n  - {action: Go,\n     # c3\n     success_rate: 0.5}\n", "drop the comment `# c3`"),
    "a comment after a flow mapping": (HEAD + "workarounds:\n  - {action: Go, success_rate: 0.8}   # note\n", "not settle"),
    "a timestamp read as text": (HEAD + "first_seen: 2026-08-12T10:00:00Z\n", "the value at `/first_seen`"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_what_formatting_would_lose_is_refused(name: str) -> None:
    text, said = CASES[name]
    with pytest.raises(FormatError, match="the file is left as it is") as raised:
        format_text(text, "yaml")
    assert said in str(raised.value)


def test_fmt_names_the_file_and_leaves_it_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "entries" / "x").mkdir(parents=True)
    (tmp_path / "entrykit.toml").write_text('root = "entries"\n', encoding="utf-8")
    text = CASES["comment between a key and its value"][0]
    target = tmp_path / "entries" / "x" / "a.yaml"
    target.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["fmt"])
    assert result.exit_code == ExitCode.ERROR
    assert "entries/x/a.yaml:4:3: cannot format: formatting would drop the comment `# c1`" in result.output
    assert target.read_text(encoding="utf-8") == text


def test_a_comment_that_only_moves_is_kept_and_the_file_formatted() -> None:
    text = "signature: boom  # the message\nid: x/a\n# about the regex\nregex: boom\n"
    formatted = format_text(text, "yaml").text
    assert formatted == "id: x/a\nsignature: boom  # the message\n# about the regex\nregex: boom\n"
    assert format_text(formatted, "yaml").text == formatted
