"""ET205's shortcut: a regex whose shape proves it has no reported finding is not analysed.

`redos.provably_unreported` must never be true where the analysis would report a
finding or run past its budget (ET210): that is checked against the analysis itself,
on generated regexes, on the deadends canons' regexes, and on the shapes that cost the
analysis most at the shortcut's size limits.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import redos, syntax
from entrykit.regex.budget import Budget, TooComplex

MODES = ("search", "match", "fullmatch")


def _analysis_reports(pattern: str, mode: str, from_degree: int) -> bool | str:
    """What the full analysis says: True if it has a reported candidate, the reason if too complex."""
    try:
        candidates = redos.structural(pattern, 0, mode, Budget(redos.STEP_BUDGET, "test"))
    except TooComplex as exc:
        return str(exc)
    return any(redos.reported(c, from_degree) for c in candidates)


def _shortcut(pattern: str, mode: str, from_degree: int) -> bool:
    return redos.provably_unreported(syntax.parse(pattern, 0), mode, from_degree)


ATOMS = st.sampled_from(["a", "b", "ab", ".", r"\d", r"\w", "[a-c]", "[^x]", r"\s", "é", "中"])


@st.composite
def regexes(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["atom", "loop", "optional", "bounded", "group", "alt", "loop-group"]))
        atom = draw(ATOMS)
        if kind == "atom":
            parts.append(atom)
        elif kind == "loop":
            parts.append(f"(?:{atom})" + draw(st.sampled_from(["*", "+", "*?", "{2,}"])) if len(atom) > 1 and atom[0] != "[" and atom[0] != "\\" else atom + draw(st.sampled_from(["*", "+", "*?", "{2,}"])))
        elif kind == "optional":
            parts.append(f"(?:{atom})?")
        elif kind == "bounded" and depth < 2:
            parts.append(f"(?:{draw(regexes(depth + 1))}){{1,{draw(st.integers(1, 3))}}}")
        elif kind in ("group", "loop-group") and depth < 2:
            suffix = "+" if kind == "loop-group" else ""
            parts.append(f"({draw(regexes(depth + 1))}){suffix}")
        elif kind == "alt" and depth < 2:
            parts.append(f"(?:{draw(regexes(depth + 1))}|{draw(regexes(depth + 1))})")
        else:
            parts.append(atom)
    return "".join(parts)


@settings(max_examples=200, deadline=None)
@given(regexes(), st.sampled_from(MODES), st.integers(2, 4))
def test_the_shortcut_never_hides_a_finding(pattern: str, mode: str, from_degree: int) -> None:
    if _shortcut(pattern, mode, from_degree):
        assert _analysis_reports(pattern, mode, from_degree) is False, pattern


@pytest.mark.parametrize(
    ("pattern", "mode", "from_degree", "expected"),
    [
        (r"Error: .* not found", "search", 3, True),  # the start loop and one loop: degree 2
        (r"Error: .* not found", "search", 2, False),  # degree 2 is reported from 2 on
        (r"a.*b.*c", "search", 3, False),  # three loops in a row may be degree 3
        (r"a.*b.*c", "match", 3, True),
        (r"(?:x.*y|z.*w)", "search", 3, True),  # alternatives are not in a row
        (r"(a.*){2}", "search", 3, False),  # a bounded repeat copies its loop
        (r"(ab)+", "search", 3, False),  # a repeated group: quadratic ones are reported
        (r"(?=a.*)b", "search", 3, False),  # lookarounds are analysed on their own
        (r"(a)\1", "search", 3, False),
    ],
)
def test_which_shapes_the_shortcut_takes(pattern: str, mode: str, from_degree: int, expected: bool) -> None:
    assert _shortcut(pattern, mode, from_degree) is expected


def _at_the_limits() -> dict[str, str]:
    n = redos._SHORTCUT_POSITIONS
    half = n // 2
    return {
        "optional characters": "(?:a?)" * n,
        "a bounded optional": f"(?:a?){{{redos._EXPAND_LIMIT // 2}}}",
        "optionals around a loop": "a?" * (half - 1) + ".*" + "b?" * half,
        "optional classes": "".join(f"[{chr(0x100 + 3 * i)}-{chr(0x101 + 3 * i)}]?" for i in range(n)),
        "optional alternations": "(?:[ab]?|c)" * half,
        "distinct characters": "".join(f"{chr(0x100 + i)}?" for i in range(n)),
        "one alternation": "(?:" + "|".join(f"x{i:02d}" for i in range(n // 3)) + ")",
        "class items": "[" + "".join(chr(0x100 + 2 * i) for i in range(redos._SHORTCUT_CLASS_ITEMS)) + "]?" + "a?" * (n - 1),
    }


@pytest.mark.parametrize("name", sorted(_at_the_limits()))
def test_the_shapes_at_the_limits_stay_well_within_the_budget(name: str) -> None:
    pattern = _at_the_limits()[name]
    assert _shortcut(pattern, "search", 3)
    budget = Budget(redos.STEP_BUDGET, "test")
    redos.structural(pattern, 0, "search", budget)
    assert budget.used < redos.STEP_BUDGET // 2, (name, budget.used)


def test_past_the_limits_the_analysis_runs() -> None:
    assert not _shortcut("(?:a?)" * (redos._SHORTCUT_POSITIONS + 1), "search", 3)
    assert not _shortcut("[" + "".join(chr(0x100 + 2 * i) for i in range(redos._SHORTCUT_CLASS_ITEMS + 1)) + "]", "search", 3)
    assert not _shortcut("[\U00010000-\U0010ffff]", "search", 3)


def _canon_regexes(root: Path) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        error = data.get("error") if isinstance(data.get("error"), dict) else data
        pattern = error.get("regex")
        if isinstance(pattern, str):
            try:
                re.compile(pattern)
            except re.error:
                continue
            out.append(pattern)
    return out


def test_the_shortcut_agrees_with_the_analysis_on_the_deadends_regexes(deadends_dir: Path) -> None:
    taken = 0
    for pattern in _canon_regexes(deadends_dir):
        for from_degree in (2, 3):
            if _shortcut(pattern, "search", from_degree):
                taken += 1
                assert _analysis_reports(pattern, "search", from_degree) is False, pattern
    assert taken > 500  # it is taken for most of them: the point of it
