"""The literal analysis gives the queries and covers, and spends the steps, it always did.

`golden/literal_results.json` holds generated regexes (literal runs with characters
IGNORECASE folds specially, classes, fixed and optional repeats, alternations,
lookarounds, conditionals, scoped flags, and alternations and repeats at the edge of
`LITERAL_BUDGET`) with what `required` returned for them, `cover` of that query
without and with literal frequencies, and the steps the analysis spent, as the
analysis gave them before its work was cut down. The deadends.dev canons' regexes
are checked through one digest per flags value (skipped when ../shared is absent).
Steps matter as much as queries: past the budget a regex gets ET210 instead of a query.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from entrykit.regex import literal_index
from entrykit.regex.budget import TooComplex

from .conftest import counted_budgets

GOLDEN = json.loads((Path(__file__).resolve().parent / "golden" / "literal_results.json").read_text(encoding="utf-8"))


def _frequencies(query: literal_index.Query) -> dict[str, int]:
    """Made-up literal frequencies with many ties: which literal `cover` picks among equals
    depends on the order it meets them."""
    return {lit: sum(map(ord, lit)) % 4 for lit in literal_index.literals_of(query)}


def _analysed(pattern: str, flags: int) -> list[Any]:
    """`required`'s query (or why there is none), its covers, and the steps its budget spent."""
    literal_index._required.cache_clear()
    try:
        with counted_budgets(literal_index) as budgets:
            query = literal_index.required(pattern, flags)
    except TooComplex as exc:
        return ["too complex", exc.reason]
    except Exception as exc:  # does not parse
        return ["error", type(exc).__name__]
    finally:
        literal_index._required.cache_clear()
    plain, rare = literal_index.cover(query), literal_index.cover(query, _frequencies(query))
    found = [query, sorted(plain) if plain is not None else None, sorted(rare) if rare is not None else None]
    return json.loads(json.dumps([*found, budgets[0].used]))


def test_the_golden_file_holds_every_kind_of_answer() -> None:
    cases = GOLDEN["cases"]
    assert len(cases) > 1000
    answers = [case["expected"] for case in cases]
    assert sum(1 for a in answers if a[0] == "too complex") >= 8
    assert sum(1 for a in answers if len(a) == 4 and a[0] is None) > 100
    assert sum(1 for a in answers if len(a) == 4 and isinstance(a[0], list) and a[1] is not None) > 300
    assert max(a[3] for a in answers if len(a) == 4) > literal_index.LITERAL_BUDGET - 1000  # right at the edge


def test_required_gives_the_same_queries_covers_and_steps() -> None:
    wrong = [case for case in GOLDEN["cases"] if _analysed(case["regex"], case["flags"]) != case["expected"]]
    assert not wrong, wrong[:3]


# sha256 of one JSON line [regex, answer] per regex, in sorted order: the same under both flags
# (literals are folded either way; `re` parses literals alike with and without IGNORECASE)
_CANON_DIGEST = "848828e0df5c57fd947f11f8dfe8c95088fe09506e38b1ac0819e24e2ec05755"


@pytest.mark.parametrize("flags", [0, re.IGNORECASE])
def test_deadends_regexes_get_the_same_queries_for_the_same_steps(deadends_regexes: list[str], flags: int) -> None:
    patterns = deadends_regexes
    assert len(patterns) > 1000
    digest = hashlib.sha256()
    for pattern in patterns:
        line = json.dumps([pattern, _analysed(pattern, int(flags))], ensure_ascii=False)
        digest.update(line.encode() + b"\n")
    assert digest.hexdigest() == _CANON_DIGEST
