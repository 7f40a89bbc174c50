"""A suppression is a YAML comment on a line as findings count lines: the same words inside
a value suppress nothing, and no character in a value moves a directive to another line."""

from __future__ import annotations

from pathlib import Path

import pytest

from entrykit.lint import suppressions
from entrykit.lint.suppression_edits import plan_suppressions

from .conftest import lint_corpus

HEAD = 'id: test/case\nsignature: "RuntimeError: boom"\nregex: "ValueError"\n'  # ET202 on line 3


def _codes(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    result = lint_corpus(tmp_path, {"test/case.yaml": text}, {"select": ["ET002", "ET202"]})
    return sorted((d.line, d.code) for d in result.diagnostics)


@pytest.mark.parametrize(
    "value",
    [
        'examples: ["x # entrykit: disable-file=ET2"]\n',
        "examples:\n  - 'it said # entrykit: disable-file=ET2'\n",
        "root_cause: |\n  a line # entrykit: disable-file=ET2\n",
        'root_cause: "two\n  # entrykit: disable-file=ET2\n  lines"\n',
    ],
)
def test_the_words_of_a_directive_inside_a_value_suppress_nothing(tmp_path: Path, value: str) -> None:
    assert _codes(tmp_path, HEAD + value) == [(3, "ET202")]
    assert [d.code for d in suppressions.parse(HEAD + value).directives] == []


def test_a_comment_after_a_value_still_suppresses(tmp_path: Path) -> None:
    text = HEAD + 'examples: ["x # not one"]  # entrykit: disable-file=ET2\n'
    assert _codes(tmp_path, text) == []


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])  # (YAML holds no other controls)
def test_a_line_separator_in_a_value_moves_no_directive(tmp_path: Path, separator: str) -> None:
    text = f'id: test/case\nsignature: "RuntimeError:{separator}boom"\nregex: "ValueError"  # entrykit: disable=ET202\n'
    assert _codes(tmp_path, text) == []
    # and a directive for line 3 silences nothing on line 4
    text = (
        f'id: test/case\nroot_cause: "a{separator}b"\nevidence_count: 3  # entrykit: disable=ET101\n'
        'signature: "RuntimeError: boom"\nregex: "ValueError"\n'
    )
    assert (5, "ET202") in _codes(tmp_path, text)


def test_added_suppressions_land_on_the_lines_of_the_findings(tmp_path: Path) -> None:
    text = 'id: test/case\nroot_cause: "a\u2028b"\nsignature: "RuntimeError: boom"\nregex: "ValueError"\n'
    result = lint_corpus(tmp_path, {"test/case.yaml": text}, {"select": ["ET202"]})
    assert [(d.line, d.code) for d in result.diagnostics] == [(4, "ET202")]
    path = tmp_path / "entries" / "test" / "case.yaml"
    edits = plan_suppressions(result.diagnostics, {result.diagnostics[0].path: (path, text)})
    new = edits.texts[path]
    assert new.split("\n")[3] == 'regex: "ValueError"  # entrykit: disable=ET202'
    path.write_text(new, encoding="utf-8")
    assert lint_corpus(tmp_path, {}, {"select": ["ET002", "ET202"]}).diagnostics == []
