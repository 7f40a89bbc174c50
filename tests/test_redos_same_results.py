"""The backtracking analysis and its model give the results, and spend the steps, they always did.

`golden/redos_results.json` holds generated regexes (every construct the analysis
reads, under several flags and modes) with what `redos.analyse` returned for them and
the steps it spent, and model runs with their verdict, steps and span, as the analysis
gave them before its work was cut down. The deadends.dev canons' regexes are checked
through one digest per setting (skipped when ../shared is absent). Steps matter as much
as findings: the budget they are spent from decides ET210, and a model run's limit.
A regex read from its shape (`provably_unreported`, `literal_chains`) spends fewer steps
than its automaton would: since `literal_chains`, the plain literals `a\\.` and `ab` spend
none, and the canons' findings are also checked without their steps, against what they
were before it.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import backtracking, redos, syntax
from entrykit.regex.budget import TooComplex

from .conftest import counted_budgets

GOLDEN = json.loads((Path(__file__).resolve().parent / "golden" / "redos_results.json").read_text(encoding="utf-8"))


def _analysed(pattern: str, flags: int, mode: str, report_from_degree: int | None) -> list[Any]:
    """`analyse`'s results as plain data, and the steps its budget spent."""
    with counted_budgets(redos) as budgets:
        try:
            found: Any = [
                result.to_data() for result in redos.analyse(pattern, flags, mode, report_from_degree=report_from_degree)
            ]
        except TooComplex as exc:
            found = "too complex: " + exc.reason
    return json.loads(json.dumps([found, budgets[0].used]))


def test_the_golden_file_holds_findings_and_every_mode() -> None:
    cases = GOLDEN["analyses"]
    assert len(cases) == 200
    assert sum(1 for case in cases if case["expected"][0] and not isinstance(case["expected"][0], str)) > 50
    assert {case["mode"] for case in cases} == {"search", "match", "fullmatch"}
    assert {backtracking.Verdict(run["expected"][0]) for run in GOLDEN["model_runs"]} == set(backtracking.Verdict)


@pytest.mark.parametrize("case", GOLDEN["analyses"], ids=lambda case: case["regex"][:40])
def test_analyse_gives_the_same_findings_for_the_same_steps(case: dict[str, Any]) -> None:
    assert _analysed(case["regex"], case["flags"], case["mode"], case["report_from_degree"]) == case["expected"]


def test_the_model_runs_to_the_same_verdict_span_and_steps() -> None:
    for case in GOLDEN["model_runs"]:
        model = backtracking.Model(syntax.parse(case["regex"], case["flags"]))
        run = model.run(case["text"], case["mode"], case["steps"])
        assert [run.verdict.value, run.steps, run.start, run.end] == case["expected"], case


# -- a start whose first character every test refuses is counted, not run -------------------

_ATOMS = ["a", "b", "ab", ".", r"\d", r"\w", "[a-c]", "[^x]", r"\s", "é", "K", "(?i:k)", "^", "$", r"\b", "(?=a)", r"(a)\1"]


@st.composite
def _regexes(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        atom = draw(st.sampled_from(_ATOMS))
        kind = draw(st.sampled_from(["atom", "loop", "group", "alt"] if depth < 2 else ["atom", "loop"]))
        if kind == "loop":
            parts.append(f"(?:{atom})" + draw(st.sampled_from(["*", "+", "*?", "?", "{2,}", "*+", "{0,2}"])))
        elif kind == "group":
            parts.append(f"({draw(_regexes(depth + 1))})" + draw(st.sampled_from(["", "*", "+?"])))
        elif kind == "alt":
            parts.append(f"(?:{draw(_regexes(depth + 1))}|{draw(_regexes(depth + 1))})")
        else:
            parts.append(atom)
    return "".join(parts)


@settings(max_examples=300, deadline=None)
@given(
    _regexes(),
    st.text(alphabet="abxK é.\n0", max_size=12),
    st.sampled_from(["search", "match", "fullmatch"]),
    st.sampled_from([0, re.IGNORECASE]),
    st.sampled_from([3, 20, 200, 100_000]),
)
def test_counting_refused_starts_runs_as_running_them(pattern: str, text: str, mode: str, flags: int, steps: int) -> None:
    try:
        parsed = syntax.parse(pattern, flags)
    except re.error:
        return
    counted = backtracking.Model(parsed).run(text, mode, steps)
    every_start = backtracking.Model(parsed)
    every_start.refused = lambda limit: None  # type: ignore[method-assign]
    assert counted == every_start.run(text, mode, steps)


def test_refused_starts_are_counted_only_where_an_attempt_reads_one_character() -> None:
    plain = backtracking.Model(syntax.parse("(?:ab|c.*d)x", 0))
    found = plain.refused(1000)
    assert found is not None and found[0] > 0 and len(found[1]) == 2  # `a` and `c`, each tried once
    for pattern in (r"\bab", "(?=a)b", r"(a)\1", "a*"):  # an anchor, a lookahead, a backreference, an empty match
        assert backtracking.Model(syntax.parse(pattern, 0)).refused(1000) is None, pattern
    assert backtracking.Model(syntax.parse("(?:|){1,30}x", 0)).refused(5) is None  # over its limit: run every start


# -- the deadends.dev canons ------------------------------------------------------------------

_CANON_DIGESTS = {  # sha256 of one JSON line [regex, [results, steps]] per regex, in sorted order
    (0, 3): "73438a0cc49eb8d545e1c5112de11f3e408894982974439727c5da50ab4e4d66",
    (0, None): "834405671f56bf6db3ff345cfc3e875ae191997d0acce3df95522a0f2ecedc13",
    (re.IGNORECASE, 3): "193c473d6cc4775d257e7959956635dc5f8187663113477440712b426f73bf05",
    (re.IGNORECASE, None): "119a0b1e17f36e6b490e29f02728a3ddc9c5bdbb975a04a7f9b132699a7811a5",
}


# The same lines without the steps, as they were before a search for literal texts joined by
# `.*` was read from its shape (`regex.literal_chains`): that spends fewer steps, and must
# find the same.
_CANON_FINDINGS_DIGESTS = {
    (0, 3): "be20d6b56fcc76f1fa9e7de08d5f1fe93207703f8be17f4cdba8555902b33ec8",
    (0, None): "a8bd1a9cfc3bfb4209039963798a6aad39b5e3d6267825d44a5b81de22b5d0e7",
    (re.IGNORECASE, 3): "963d1fa62d55d55f67d8fd7ea2573f0a9adacada9ed86ece5f25f3ccd54e3126",
    (re.IGNORECASE, None): "a444f032969905036d8a6a029b3c4cc25e1325aff6e680abd8d8335b76265c96",
}


@pytest.mark.parametrize(("flags", "report_from_degree"), list(_CANON_DIGESTS))
def test_deadends_regexes_get_the_same_findings_for_the_same_steps(
    deadends_regexes: list[str], flags: int, report_from_degree: int | None
) -> None:
    patterns = deadends_regexes
    assert len(patterns) > 1000
    digest = hashlib.sha256()
    for pattern in patterns:
        line = json.dumps([pattern, _analysed(pattern, int(flags), "search", report_from_degree)], ensure_ascii=False)
        digest.update(line.encode() + b"\n")
    assert digest.hexdigest() == _CANON_DIGESTS[(flags, report_from_degree)]


@pytest.mark.parametrize(("flags", "report_from_degree"), list(_CANON_FINDINGS_DIGESTS))
def test_deadends_regexes_get_the_findings_they_got_before_the_shape_shortcut(
    deadends_regexes: list[str], flags: int, report_from_degree: int | None
) -> None:
    digest = hashlib.sha256()
    for pattern in deadends_regexes:
        found, _steps = _analysed(pattern, int(flags), "search", report_from_degree)
        digest.update(json.dumps([pattern, found], ensure_ascii=False).encode() + b"\n")
    assert digest.hexdigest() == _CANON_FINDINGS_DIGESTS[(flags, report_from_degree)]
