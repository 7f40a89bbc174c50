"""`entrykit rules` and `entrykit explain`: the rules' documentation."""

from __future__ import annotations

import click

import entrykit.rules  # noqa: F401  (importing the rule families registers every rule)
from entrykit import registry
from entrykit import rule_docs as docs
from entrykit.cli.common import CommandError


@click.command("rules")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True
)
def rules_command(output_format: str) -> None:
    """List every rule: code, name, default severity, summary."""
    rules = registry.all_rules()
    render = {"text": docs.rules_text, "markdown": docs.rules_markdown, "json": docs.rules_json}
    click.echo(render[output_format](rules), nl=False)


@click.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print a rule's documentation (by code, e.g. ET202, or by name)."""
    try:
        found = registry.get(code)
    except KeyError:
        raise CommandError(f"no rule `{code}`; `entrykit rules` lists them") from None
    click.echo(docs.explain(found), nl=False)
