"""Translation rules on real human translations: the system's gettext catalogs, read at run time.

The catalogs of apt, dpkg, bash, grep, findutils, diffutils and binutils (see
`benchmarks/catalogs.py`): their error-like messages, placeholders filled alike
on both sides, and mutants of each translation. Tests skip where the catalogs
are not installed; nothing of them is stored in the project.
"""

from __future__ import annotations

import sys
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from entrykit import registry
from entrykit.config import from_table
from entrykit.entry import Entry

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import catalogs  # noqa: E402

LOCALES = catalogs.LOCALES + catalogs.LANGUAGE_LOCALES
CODES = ("ET302", "ET304", "ET305", "ET308")
EXPECTED = {
    catalogs.COPY: "ET302",
    catalogs.OTHER_SCRIPT: "ET304",
    catalogs.OTHER_LANGUAGE: "ET304",
    catalogs.DROPPED: "ET305",
    catalogs.HALF: "ET308",
}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not catalogs.available(catalogs.TOOLS, LOCALES), reason="no gettext catalogs installed"),
]


def _rules() -> list[tuple[registry.Rule, registry.Context]]:
    config = from_table({"root": ".", "translation": {"required": []}}, Path("."))
    settings = {"translation": config.settings.get("translation", {})}
    return [
        (rule, registry.Context(date(2026, 11, 30), config.options_for(rule), settings))
        for rule in registry.all_rules()
        if rule.code in CODES and rule.func is not None
    ]


RULES = _rules()


def _codes(source: str, texts: dict[str, str]) -> dict[str, set[str]]:
    """The codes the translation rules give each `signature_<locale>` of one entry."""
    data = {"id": "tool/message", "signature": source, **{f"signature_{loc}": t for loc, t in texts.items()}}
    entry = Entry("tool/message.json", Path("/corpus/tool/message.json"), "json", data, "")
    found: dict[str, set[str]] = {loc: set() for loc in texts}
    for rule, ctx in RULES:
        assert rule.func is not None
        for finding in rule.func(entry, ctx):
            found[finding.pointer.removeprefix("/signature_")].add(rule.code)
    return found


@pytest.fixture(scope="module")
def messages() -> list[catalogs.Message]:
    return catalogs.messages(catalogs.TOOLS, LOCALES)


@pytest.fixture(scope="module")
def real_findings(messages: list[catalogs.Message]) -> tuple[Counter[str], Counter[tuple[str, str]]]:
    by_source: dict[tuple[str, str], dict[str, str]] = {}
    for message in messages:
        by_source.setdefault((message.tool, message.msgid), {"": message.source})[message.locale] = message.text
    totals: Counter[str] = Counter(m.locale for m in messages)
    flagged: Counter[tuple[str, str]] = Counter()
    for texts in by_source.values():
        source = texts.pop("")
        for locale, codes in _codes(source, texts).items():
            for code in codes:
                flagged[code, locale] += 1
    return totals, flagged


def test_the_catalogs_give_thousands_of_messages(messages: list[catalogs.Message]) -> None:
    counts = Counter(m.locale for m in messages)
    assert sum(counts[loc] for loc in catalogs.LOCALES) > 3000
    assert set(counts) == set(LOCALES)


def test_human_translations_get_almost_no_findings(real_findings: tuple[Counter[str], Counter[tuple[str, str]]]) -> None:
    totals, flagged = real_findings
    for locale in LOCALES:
        assert flagged["ET304", locale] == 0, locale  # no human translation is in the wrong language
    for locale in catalogs.LOCALES:
        assert flagged["ET305", locale] <= 0.003 * totals[locale], (locale, flagged["ET305", locale])
        assert flagged["ET308", locale] <= 0.003 * totals[locale], (locale, flagged["ET308", locale])
        assert flagged["ET302", locale] <= 0.001 * totals[locale] + 1, locale  # catalogs hold a few English copies


@pytest.fixture(scope="module")
def mutant_findings(messages: list[catalogs.Message]) -> Counter[tuple[str, str, bool]]:
    """(kind, locale, caught by the expected code) -> how many mutants; the mutants of one
    message and kind share an entry, as in the benchmark."""
    grouped: dict[tuple[str, str, str], dict[str, str]] = {}
    for mutant in catalogs.mutants(messages):
        key = (mutant.kind, mutant.message.tool, mutant.message.msgid)
        grouped.setdefault(key, {"": mutant.message.source})[mutant.message.locale] = mutant.text
    counts: Counter[tuple[str, str, bool]] = Counter()
    for (kind, _, _), texts in grouped.items():
        source = texts.pop("")
        for locale, codes in _codes(source, texts).items():
            counts[kind, locale, EXPECTED[kind] in codes] += 1
    return counts


def _share(counts: Counter[tuple[str, str, bool]], kind: str, locales: tuple[str, ...]) -> float:
    caught = sum(counts[kind, loc, True] for loc in locales)
    return caught / max(caught + sum(counts[kind, loc, False] for loc in locales), 1)


@pytest.mark.parametrize(
    ("kind", "least"),
    # Measured with benchmarks/translations_catalogs.py; bounds a little below it.
    [
        (catalogs.COPY, 1.0),
        (catalogs.OTHER_SCRIPT, 0.999),
        (catalogs.OTHER_LANGUAGE, 0.85),
        (catalogs.DROPPED, 0.95),
        (catalogs.HALF, 0.99),
    ],
)
def test_mutants_are_caught(mutant_findings: Counter[tuple[str, str, bool]], kind: str, least: float) -> None:
    assert _share(mutant_findings, kind, catalogs.LOCALES) >= least


def test_same_script_languages_are_told_apart(mutant_findings: Counter[tuple[str, str, bool]]) -> None:
    """Chinese is told from Japanese both ways; Ukrainian from Russian where the text has
    a letter only Ukrainian writes, and so on."""
    share = {loc: _share(mutant_findings, catalogs.OTHER_LANGUAGE, (loc,)) for loc in LOCALES if loc != "ko"}
    assert share["zh_CN"] >= 0.99 and share["ja"] >= 0.8
    assert min(share[loc] for loc in ("ru", "uk", "sr", "bg")) >= 0.5
