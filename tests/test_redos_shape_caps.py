"""ET205's shape shortcut stops walking a regex once part of it is past what it may prove.

`redos.provably_unreported` walks a regex's shape with caps (loops along one path,
positions, class items) and gives up as soon as a part is past them; it must answer what
the plain walk of the whole shape (`_plain_shape`, the walk it replaces) answers: on
generated regexes, `X{0}` (which counts none of what it holds) included, and on the
corpora's and deadends canons' regexes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import redos, syntax

MODES = ("search", "match", "fullmatch")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DEGREES = (1, 2, 3, 4)


def _plain_shape(nodes: syntax.Seq) -> tuple[int, int, int] | None:
    """(most loops along one path, positions, class items), every part walked."""
    loops = positions = items = 0
    for node in nodes:
        shape = _plain_node_shape(node)
        if shape is None:
            return None
        loops, positions, items = loops + shape[0], positions + shape[1], items + shape[2]
    return loops, positions, items


def _plain_node_shape(node: syntax.Node) -> tuple[int, int, int] | None:
    if isinstance(node, syntax.CHARACTER_NODES):
        if isinstance(node, syntax.CharClass):
            if any(isinstance(i, syntax.CharRange) and i.high > 0xFFFF for i in node.items):
                return None
            return 0, 1, len(node.items)
        return 0, 1, 0
    if isinstance(node, syntax.Anchor):
        return 0, 0, 0
    if isinstance(node, syntax.Group):
        return _plain_shape(node.body)
    if isinstance(node, syntax.Alternation):
        shapes = [_plain_shape(branch) for branch in node.branches]
        if any(shape is None for shape in shapes):
            return None
        known = [shape for shape in shapes if shape is not None]
        return max(s[0] for s in known), sum(s[1] for s in known), sum(s[2] for s in known)
    if isinstance(node, syntax.Repeat) and node.kind != syntax.POSSESSIVE:
        body = _plain_shape(node.body)
        if body is None:
            return None
        high = node.high
        if high is None or high * max(syntax.count_nodes(node.body), 1) > redos._EXPAND_LIMIT:
            if len(node.body) != 1 or not isinstance(node.body[0], syntax.CHARACTER_NODES):
                return None
            return 1, node.low + 1, body[2]
        return body[0] * high, body[1] * high, body[2]
    return None


def _plainly_unreported(parsed: syntax.Parsed, mode: str, from_degree: int) -> bool:
    """`provably_unreported` from the plain walk of the whole shape."""
    shape = _plain_shape(parsed.nodes)
    if shape is None:
        return False
    loops, positions, items = shape
    if positions > redos._SHORTCUT_POSITIONS or items > redos._SHORTCUT_CLASS_ITEMS:
        return False
    return loops + (1 if mode == "search" else 0) < max(from_degree, 2)


def _check(pattern: str) -> None:
    try:
        parsed = syntax.parse(pattern, 0)
    except Exception:  # noqa: BLE001 - a regex that does not parse is never analysed
        return
    assert redos._loop_shape(parsed.nodes) == _plain_shape(parsed.nodes), pattern
    for mode in MODES:
        for degree in DEGREES:
            expected = _plainly_unreported(parsed, mode, degree)
            assert redos.provably_unreported(parsed, mode, degree) is expected, (pattern, mode, degree)


ATOMS = st.sampled_from(["a", "b", ".", r"\d", "[a-c]", "[^x]", "[\U00010000-\U00010010]", "^", "$", r"\b", "(?=a)"])
QUANTIFIERS = st.sampled_from(["*", "+", "?", "*?", "{0}", "{1}", "{0,2}", "{2,3}", "{2,}", "{0,400}", "{150}", "*+"])


@st.composite
def regexes(draw: st.DrawFn, depth: int = 0) -> str:
    """Small regexes over a few characters: loops, counted repeats (`{0}` too), groups,
    alternations, classes and anchors, nested up to three deep."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["atom", "repeat", "group", "alt"] if depth < 3 else ["atom", "repeat"]))
        if kind == "atom":
            parts.append(draw(ATOMS))
        elif kind == "repeat":
            parts.append(f"(?:{draw(ATOMS)})" + draw(QUANTIFIERS))
        elif kind == "group":
            parts.append(f"(?:{draw(regexes(depth + 1))})" + draw(st.sampled_from(["", *QUANTIFIERS.elements])))  # type: ignore[attr-defined]
        else:
            parts.append(f"(?:{draw(regexes(depth + 1))}|{draw(regexes(depth + 1))})")
    return "".join(parts)


@settings(max_examples=500, deadline=None)
@given(regexes())
def test_the_capped_walk_answers_as_the_whole_shape(pattern: str) -> None:
    _check(pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        "(?:a*b*c*){0}x",  # past the loop cap inside `{0}`, which counts none of it
        "(?:(?:.*.*){0}|a)b*",
        "(?:a{150}){0}b{60}",  # past the position cap inside `{0}`
        "(?:.*){0}(?=x)",  # None after a `{0}` past the caps: still None
        "(?:a*b*){1}",
        "a*b*c*d*(?=x)",  # past the caps before the part that is None
        "(?:a.*b|c.*d.*e|f)",
        "x{0,400}y",
        "[a-z]" * 201,
        "(?:[abc]{70}){3}",
    ],
)
def test_shapes_at_the_caps(pattern: str) -> None:
    _check(pattern)


def _corpus_patterns() -> list[str]:
    """The regexes of the generated corpora, where they are here."""
    found: list[str] = []
    for root in (Path("/tmp/s46/diverse-2500-yaml"), Path("/tmp/s46/template-2500-yaml")):
        for path in sorted(root.rglob("*.yaml")) if root.is_dir() else []:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
            if isinstance(data, dict) and isinstance(data.get("regex"), str):
                found.append(data["regex"])
    return found


def test_the_corpora_regexes_get_the_same_answer(deadends_regexes: list[str]) -> None:
    patterns = deadends_regexes
    patterns += _corpus_patterns()
    assert len(patterns) > 1000
    for pattern in patterns:
        _check(pattern)
