"""Rule documentation: every docstring complete, the README's generated tables current."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import entrykit.rules  # noqa: F401  (registers every rule)
from entrykit import registry
from entrykit import rule_docs as docs
from entrykit.settings import SECTIONS as SETTINGS

README = Path(__file__).resolve().parents[1] / "README.md"
SECTIONS = ("## Why is this bad?", "## Example", "## Use instead")


@pytest.mark.parametrize("rule", registry.all_rules(), ids=lambda r: r.code)
def test_rule_docstring_has_every_part(rule: registry.Rule) -> None:
    first = rule.doc.splitlines()[0]
    assert first and first.endswith("."), "line 1 is a one-sentence summary"
    for part in SECTIONS:
        assert part in rule.doc, f"{rule.code} lacks {part!r}"
    for name in rule.options:
        assert "## Options" in rule.doc and f"`{name}`" in rule.doc, f"{rule.code} does not document {name}"
    assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)+", rule.name), "names are kebab-case problems"


def _block(marker: str, current: str) -> str:
    """The README block between markers; ENTRYKIT_UPDATE_GOLDEN=1 rewrites it first."""
    text = README.read_text(encoding="utf-8")
    if os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):
        text = re.sub(
            rf"(<!-- {marker}:start -->\n).*?(<!-- {marker}:end -->)",
            lambda m: m.group(1) + current + m.group(2),
            text,
            flags=re.S,
        )
        README.write_text(text, encoding="utf-8")
    match = re.search(rf"<!-- {marker}:start -->\n(.*?)<!-- {marker}:end -->", text, re.S)
    assert match, f"README lacks the {marker} block"
    return match.group(1)


def test_readme_rule_table_is_current() -> None:
    current = docs.rules_markdown(registry.all_rules())
    assert _block("rules", current) == current, "regenerate: ENTRYKIT_UPDATE_GOLDEN=1 pytest tests/test_docs.py"


def test_readme_settings_table_is_current() -> None:
    current = docs.settings_markdown(list(SETTINGS.values()))
    assert _block("settings", current) == current


def test_ci_runs_the_readme_test_command() -> None:
    readme = README.read_text(encoding="utf-8")
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    command = next(line for line in ci.splitlines() if "pytest" in line)
    assert command in readme


def test_readme_names_the_static_checks_ci_runs() -> None:
    readme = README.read_text(encoding="utf-8")
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    checks = [line for line in ci.splitlines() if "ruff" in line or "mypy" in line]
    assert len(checks) == 2
    for command in checks:
        assert command in readme


RULES_PAGE = README.parent / docs.RULES_PAGE


def test_rules_page_is_current() -> None:
    """docs/rules.md, which SARIF's helpUri links each rule to, says what `explain` says."""
    current = docs.rules_page(registry.all_rules())
    if os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):
        RULES_PAGE.write_text(current, encoding="utf-8")
    assert RULES_PAGE.read_text(encoding="utf-8") == current, "regenerate: ENTRYKIT_UPDATE_GOLDEN=1 pytest tests/test_docs.py"


def _github_anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives a page's headings (lower case, punctuation dropped, spaces to `-`)."""
    headings = re.findall(r"^#{1,6} (.+)$", re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_every_help_uri_names_a_heading_of_the_rules_page() -> None:
    anchors = _github_anchors(RULES_PAGE.read_text(encoding="utf-8"))
    for rule in registry.all_rules():
        url = docs.rule_url(rule)
        assert url.startswith(f"{docs.REPOSITORY_URL}/blob/main/{docs.RULES_PAGE}#")
        assert url.rsplit("#", 1)[1] in anchors, rule.code


def test_repository_url_is_the_projects() -> None:
    import tomllib

    project = tomllib.loads((README.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["urls"]["Repository"] == docs.REPOSITORY_URL
    assert project["urls"]["Documentation"].startswith(docs.REPOSITORY_URL)
