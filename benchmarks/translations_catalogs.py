"""The translation rules judged against real human translations of CLI error messages, one run.

    python benchmarks/translations_catalogs.py [--held-out] [--sample 40] [--json OUT]

Messages: the error-like messages of the gettext catalogs of apt, dpkg, bash,
grep, findutils, diffutils and binutils installed on this machine (see
`catalogs.py`), in zh_CN, ja, ko and ru, and in uk, sr and bg for telling
languages of one script apart; `--held-out` reads git, coreutils and gnupg2
instead, which nothing in entrykit was chosen on. Each message becomes an entry
(`signature` and `signature_<locale>` per locale), and so does each mutant of
it; `entrykit lint --select ET3` runs over them as a user would run it.

Reported: per code and locale, how many real translations get a finding (false
positives: a human translator wrote them), with a sample of them to judge; per
mutant kind and locale, how many mutants the expected code catches.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path

import catalogs

from entrykit.config import from_table
from entrykit.lint.engine import lint

EXPECTED = {
    catalogs.COPY: "ET302",
    catalogs.OTHER_SCRIPT: "ET304",
    catalogs.OTHER_LANGUAGE: "ET304",
    catalogs.DROPPED: "ET305",
    catalogs.HALF: "ET308",
}
CODES = ("ET302", "ET304", "ET305", "ET308")


def _slug(kind: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in kind.lower())


def run(tools: dict[str, tuple[str, ...]], locales: tuple[str, ...]) -> dict:
    found = catalogs.messages(tools, locales)
    numbers: dict[tuple[str, str], int] = {}
    for message in found:
        numbers.setdefault((message.tool, message.msgid), len(numbers))
    entries: dict[str, dict[str, str]] = defaultdict(dict)
    real: dict[tuple[str, str], catalogs.Message] = {}  # (file, locale) -> message
    planted: dict[tuple[str, str], catalogs.Mutant] = {}
    for message in found:
        name = f"{message.tool}/m{numbers[message.tool, message.msgid]}.json"
        entries[name].update({"id": name[:-5], "signature": message.source, f"signature_{message.locale}": message.text})
        real[name, message.locale] = message
    for mutant in catalogs.mutants(found):
        message = mutant.message
        name = f"{message.tool}/m{numbers[message.tool, message.msgid]}-{_slug(mutant.kind)}.json"
        entries[name].update({"id": name[:-5], "signature": message.source, f"signature_{message.locale}": mutant.text})
        planted[name, message.locale] = mutant
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "entries"
        for name, data in entries.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        config = from_table({"root": "entries", "select": ["ET3"], "translation": {"required": []}}, Path(tmp))
        result = lint(None, config, date(2026, 11, 30), cwd=root, jobs=2)
        codes: dict[tuple[str, str], set[str]] = defaultdict(set)
        messages: dict[tuple[str, str, str], str] = {}
        for d in result.diagnostics:
            if d.pointer.startswith("/signature_"):
                key = (d.path.replace("\\", "/"), d.pointer[len("/signature_") :])
                codes[key].add(d.code)
                messages[(*key, d.code)] = d.message
    return {"real": real, "planted": planted, "codes": codes, "messages": messages}


def report(outcome: dict, locales: tuple[str, ...], sample: int) -> dict:
    real, planted, codes = outcome["real"], outcome["planted"], outcome["codes"]
    totals: Counter[str] = Counter(locale for _, locale in real)
    flagged: Counter[tuple[str, str]] = Counter()
    flagged_any: Counter[str] = Counter()
    findings: list[tuple[str, str, str, catalogs.Message]] = []
    for (name, locale), message in sorted(real.items()):
        found = codes.get((name, locale), set())
        flagged_any[locale] += bool(found)
        for code in sorted(found):
            flagged[code, locale] += 1
            findings.append((code, locale, outcome["messages"][(name, locale, code)], message))
    print(f"Real translations: {sum(totals.values())} ({', '.join(f'{loc} {totals[loc]}' for loc in locales)})")
    print("findings per code (share of real translations):")
    print("code  " + "".join(f"{loc:>14}" for loc in locales) + f"{'all':>18}")
    table: dict[str, dict[str, int]] = {}
    for code in CODES:
        cells = [f"{flagged[code, loc]:>5} {100 * flagged[code, loc] / max(totals[loc], 1):>6.2f}%" for loc in locales]
        everywhere = sum(flagged[code, loc] for loc in locales)
        cells.append(f"{everywhere:>5} {100 * everywhere / max(sum(totals.values()), 1):>6.2f}%")
        print(f"{code} " + "".join(f"{c:>14}" for c in cells[:-1]) + f"{cells[-1]:>18}")
        table[code] = {loc: flagged[code, loc] for loc in locales}
    kinds: Counter[tuple[str, str]] = Counter()
    caught: Counter[tuple[str, str]] = Counter()
    for (name, locale), mutant in planted.items():
        kinds[mutant.kind, locale] += 1
        caught[mutant.kind, locale] += EXPECTED[mutant.kind] in codes.get((name, locale), set())
    print("\nMutants caught by the expected code:")
    print(f"{'kind':<36}" + "".join(f"{loc:>12}" for loc in locales) + f"{'all':>20}")
    detection: dict[str, dict[str, list[int]]] = {}
    for kind in catalogs.MUTANTS:
        cells = []
        for loc in locales:
            n, c = kinds[kind, loc], caught[kind, loc]
            cells.append(f"{c}/{n}" if n else "-")
        n = sum(kinds[kind, loc] for loc in locales)
        c = sum(caught[kind, loc] for loc in locales)
        cells.append(f"{c}/{n} {100 * c / max(n, 1):.1f}%")
        print(f"{kind + ' (' + EXPECTED[kind] + ')':<36}" + "".join(f"{x:>12}" for x in cells[:-1]) + f"{cells[-1]:>20}")
        detection[kind] = {loc: [caught[kind, loc], kinds[kind, loc]] for loc in locales}
    if sample and findings:
        print(f"\nA sample of the findings on real translations (every {max(len(findings) // sample, 1)}th):")
        for code, locale, text, message in findings[:: max(len(findings) // sample, 1)][:sample]:
            print(f"- {code} {locale} {message.tool}: {text}\n    en: {message.source}\n    {locale}: {message.text}")
    return {"totals": dict(totals), "findings": table, "detection": detection}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-out", action="store_true", help="git, coreutils and gnupg2 instead")
    parser.add_argument("--sample", type=int, default=40, help="findings on real translations to show")
    parser.add_argument("--json", type=Path, help="write the tables as JSON here")
    args = parser.parse_args()
    tools = catalogs.HELD_OUT if args.held_out else catalogs.TOOLS
    locales = catalogs.LOCALES + catalogs.LANGUAGE_LOCALES
    if not catalogs.available(tools, locales):
        sys.exit("no catalogs of these tools are installed")
    outcome = run(tools, locales)
    tables = report(outcome, locales, args.sample)
    if args.json:
        args.json.write_text(json.dumps(tables, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
