"""Documentation generated from the registry: the rule table, settings, `explain` text, the rules page."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from entrykit.registry import Option, Rule, Section

# Where the project lives (also `[project.urls]` in pyproject.toml; a test keeps them one),
# and the page of rule documentation in it, which SARIF reports link each rule to.
REPOSITORY_URL = "https://github.com/entrykit/entrykit"
RULES_PAGE = "docs/rules.md"


def _default(option: Option) -> str:
    return json.dumps(option.default, ensure_ascii=False)


def rules_markdown(rules: Sequence[Rule]) -> str:
    """The README's rule table."""
    lines = ["| Code | Name | Default | Summary |", "|---|---|---|---|"]
    for r in rules:
        lines.append(f"| {r.code} | `{r.name}` | {r.severity.value} | {r.summary} |")
    return "\n".join(lines) + "\n"


def settings_markdown(sections: Sequence[Section]) -> str:
    """The README's table of shared settings ([tool.entrykit.<section>])."""
    lines = ["| Setting | Default | Meaning |", "|---|---|---|"]
    for sec in sorted(sections, key=lambda s: s.name):
        for name, option in sec.options.items():
            lines.append(f"| `{sec.name}.{name}` | `{_default(option)}` | {option.doc} |")
    return "\n".join(lines) + "\n"


def explain(rule: Rule) -> str:
    """What `entrykit explain CODE` prints."""
    head = f"{rule.code} {rule.name}  ({rule.severity.value} by default, {rule.scope} rule)"
    parts = [head, "", rule.doc.strip()]
    if rule.options and "## Options" not in rule.doc:
        parts += ["", "## Options"]
        parts += [f"- `{n}` (default `{_default(o)}`): {o.doc}" for n, o in rule.options.items()]
    return "\n".join(parts) + "\n"


def rules_text(rules: Sequence[Rule]) -> str:
    width = max((len(r.name) for r in rules), default=0)
    return "".join(
        f"{r.code}  {r.name:<{width}}  {r.severity.value:<7}  {r.summary}\n" for r in rules
    )


def rules_json(rules: Sequence[Rule]) -> str:
    data = [
        {
            "code": r.code,
            "name": r.name,
            "severity": r.severity.value,
            "scope": r.scope,
            "summary": r.summary,
            "options": {n: o.default for n, o in r.options.items()},
        }
        for r in rules
    ]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def rule_anchor(rule: Rule) -> str:
    """The anchor of the rule's heading on the rules page, as GitHub makes it
    (`ET202 regex-misses-signature` -> `et202-regex-misses-signature`)."""
    return re.sub(r"[^a-z0-9 _-]", "", f"{rule.code} {rule.name}".lower()).replace(" ", "-")


def rule_url(rule: Rule) -> str:
    """The rule's documentation on the web: its section of the rules page."""
    return f"{REPOSITORY_URL}/blob/main/{RULES_PAGE}#{rule_anchor(rule)}"


def rules_page(rules: Sequence[Rule]) -> str:
    """`docs/rules.md`: every rule's documentation under its own heading."""
    parts = [
        "# entrykit rules",
        "",
        "Generated from the rules' documentation (`entrykit explain CODE` prints the same);",
        "SARIF reports link each rule here. Regenerate: `ENTRYKIT_UPDATE_GOLDEN=1 pytest tests/test_docs.py`.",
    ]
    for rule in rules:
        doc = re.sub(r"^## ", "### ", explain(rule).split("\n", 2)[2], flags=re.M)
        heading = f"## {rule.code} {rule.name}"
        parts += ["", heading, "", f"{rule.severity.value} by default, {rule.scope} rule.", "", doc.rstrip()]
    return "\n".join(parts) + "\n"
