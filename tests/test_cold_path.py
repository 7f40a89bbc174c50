"""The cold path's shortcuts answer exactly what the long way answers."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import parsing
from entrykit.lint.corpus_summary import summary_entry
from entrykit.parsing import compose_yaml
from entrykit.positions import build_index
from entrykit.regex import redos, syntax
from entrykit.regex.breadth import probe_messages
from entrykit.regex.budget import Budget, TooComplex
from entrykit.regex.literal_index import fold, may_match, may_match_each, required
from entrykit.regex.runner import RegexSettings

_LITERALS = st.sampled_from(["", "a", "ab", "err", "error", "x", "no such", "中文", "ß", "İ"])
_QUERIES = st.recursive(
    st.none() | _LITERALS,
    lambda inner: st.tuples(st.sampled_from(["and", "or"]), st.lists(inner, max_size=4).map(tuple)),
    max_leaves=12,
)
_TEXTS = st.lists(
    st.text(alphabet="abexrotnsuchİß中文 ", max_size=24) | st.sampled_from(["Error: no such file", "中文 error"]),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(_QUERIES, _TEXTS)
def test_may_match_each_is_may_match_on_every_text(query: object, texts: list[str]) -> None:
    mask = may_match_each(query, [fold(text) for text in texts])  # type: ignore[arg-type]
    assert [bool(mask >> i & 1) for i in range(len(texts))] == [may_match(query, t) for t in texts]  # type: ignore[arg-type]
    assert mask >> len(texts) == 0


def test_may_match_each_on_real_regexes_and_probe_messages() -> None:
    messages = [probe.message for probe in probe_messages()]
    folded = [fold(m) for m in messages]
    held = 0
    for pattern in [r"No module named '(\w+)'", r"(error|fatal): .*not found", r"Permission denied", r"x"]:
        query = required(pattern, re.IGNORECASE)
        mask = may_match_each(query, folded)
        assert [bool(mask >> i & 1) for i in range(len(messages))] == [may_match(query, m) for m in messages]
        held += bin(mask).count("1")
    assert held > 0  # some of the real messages hold these literals: the masks were not all empty


_STARRED_YAML = [
    'id: a\nregex: "fail.*ed (a|b)*"\nsignature: "x * y"\n',  # stars, no alias: places along the nodes
    "id: a\nnote: |\n  *not an alias*\nlist: [1, '*', 3]\n",
    "a: &x 1\nb: *x\nc: [*x, 2]\n",  # an alias of a scalar: places from the index
    "a: &x [1, {k: v}]\nb:\n  - *x\n",
]


@pytest.mark.parametrize("text", _STARRED_YAML)
def test_places_of_a_summary_with_stars_equal_the_index(text: str, tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    path.write_text(text, encoding="utf-8")
    index = build_index(text, "yaml")
    wanted = {(p, k) for p in [*index.spots, "/list/9", "/b/0/k", "/c/0", "/nothing"] for k in (False, True)}
    summary = summary_entry("e.yaml", path, "yaml", {}, {})
    assert summary.places(wanted) == {(p, k): index.locate(p, k) for p, k in wanted}


def test_composed_nodes_are_kept_only_without_aliases() -> None:
    assert compose_yaml(_STARRED_YAML[0]) is not None
    assert compose_yaml(_STARRED_YAML[1]) is not None
    assert compose_yaml(_STARRED_YAML[2]) is None
    assert compose_yaml(_STARRED_YAML[3]) is None


# -- YAML: the direct construction of anchor-free documents is the loader's construction ------

_ODD_DOCUMENTS = [
    "id: a\nn: 017\nf: .inf\nb: !!bool yes\nz: ~\nx: 0x1F\ne: 1e3\n",
    "a: 1\na: 2\n1: int key\n? [1, 2]\n: complex key\n",
    "a: !!str 12\nb: !!int '7'\nc: !!float '1.5'\nd: !!null ''\n",
    "a: !custom x\nb: [1, !!map {k: v}]\n",
    "a: !!str {k: v}\n",
    "a: !!map x\n",
    "a: !!int nope\nb: [!!int 0b]\n",
    "a: [" * 60 + "]" * 60 + "\n",
    "a: &x [1]\nb: *x\n",
    "- 1\n- two\n",
    "just text\n",
    "a: {b: {c: {d: [1, 2, {e: f}]}}}\nyes: no\non: off\n",
    "'': empty key\n~: null key\ntrue: bool key\n.nan: nan key\n",
    "a: !!map {k: v}\nb: !!seq [1]\nc: [!!map {k: v}, !!seq [2], !!str x]\n!!str d: e\n",  # tags written out
    "! 12: a\nb: ! '12'\nc: ! x\n",  # the non-specific tag: resolved as a plain scalar
    "a: [.nan, .nan, .inf, -.inf]\nb: .nan\nc: -.0\nd: -0.0\n",  # non-finite numbers, each noted
    "a: 1e999\nb: 1e999\n",  # (a YAML 1.1 spelling too)
    "a: 1\nb: !!float 1\nc: 1\nd: !!int '1'\ne: !!bool 'true'\nf: true\n",  # one text, two tags
    "a: yes\nb: yes\nyes: 1\n",  # a YAML 1.1 spelling, noted every time
    "a: two words\nb: 'two words'\nc: true words\nd: 1 2\n",
]
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=12),
    st.sampled_from(["yes", "No", "017", "0o17", "1:30", "1e3", ".inf", "~", "null", "True", "0x1f", "-", "&a", "*a"]),
)
_DATA = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=4),
    max_leaves=20,
)


def _both_ways(text: str, nesting: int = 50) -> tuple[parsing.Parsed, parsing.Parsed]:
    fast = parsing.parse_yaml(text, max_nesting=nesting)
    original = parsing._plain_data
    parsing._plain_data = lambda *args: parsing._UNUSUAL  # every document the loader's way
    try:
        slow = parsing.parse_yaml(text, max_nesting=nesting)
    finally:
        parsing._plain_data = original
    return fast, slow


def _same(fast: parsing.Parsed, slow: parsing.Parsed) -> None:
    assert repr(fast.data) == repr(slow.data)
    assert (fast.problem, fast.needs_positions, fast.nodes is None) == (slow.problem, slow.needs_positions, slow.nodes is None)


@pytest.mark.parametrize("text", _ODD_DOCUMENTS)
def test_direct_yaml_construction_equals_the_loaders_on_odd_documents(text: str) -> None:
    _same(*_both_ways(text))
    _same(*_both_ways(text, nesting=3))


@pytest.mark.parametrize("text", _ODD_DOCUMENTS)
def test_a_parse_from_the_memos_is_a_parse_without_them(text: str) -> None:
    """What the memos of plain scalars' tags and of scalars' values hold makes no difference."""
    parsing._PLAIN_TAGS.clear()
    parsing._SCALAR_DATA.clear()
    first = parsing.parse_yaml(text)
    second = parsing.parse_yaml(text)
    _same(first, second)


@settings(max_examples=300, deadline=None)
@given(_DATA, st.sampled_from([None, True, False]), st.integers(min_value=1, max_value=6))
def test_direct_yaml_construction_equals_the_loaders(data: object, flow: bool | None, nesting: int) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)
    _same(*_both_ways(text, nesting))


def test_direct_yaml_construction_equals_the_loaders_on_rule_cases() -> None:
    cases = sorted((Path(__file__).parent / "rules" / "cases").glob("*.yaml"))
    texts = [case["entry"] for path in cases for case in yaml.safe_load(path.read_text(encoding="utf-8"))
             if isinstance(case.get("entry"), str)]
    assert len(texts) > 100
    for text in texts:
        _same(*_both_ways(text))


def test_an_ordinary_entry_is_built_directly() -> None:
    text = "id: a/b\nsignature: 'x: y'\nregex: a.*b\ntags: [x, y]\nversions:\n  - version: pkg>=1\n"
    loader = parsing.EntryYamlLoader(text)
    root = loader.get_single_node()
    loader.dispose()
    data = parsing._plain_data(loader, root, 50)
    assert data == {"id": "a/b", "signature": "x: y", "regex": "a.*b", "tags": ["x", "y"],
                    "versions": [{"version": "pkg>=1"}]}
    assert parsing._plain_data(loader, root, 1) is parsing._UNUSUAL  # nested past the limit: the loader's way


@pytest.mark.parametrize("text", ["a: [x, y, z]\nb: c\n", "a: [x, [y], z]\nb: c\n", "a: &x [x, y]\nb: c && d\n"])
def test_a_document_without_aliases_is_read_whatever_its_number_of_nodes(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The expansion limit is for aliases: a document of more nodes than it, none reached
    twice, is as large as its text (as a JSON entry of as many values would be)."""
    loader = parsing.EntryYamlLoader(text)
    root = loader.get_single_node()
    loader.dispose()
    monkeypatch.setattr(parsing, "MAX_EXPANDED_NODES", _count(root) - 1)
    assert parsing._plain_data(loader, root, 50, "&" in text) == yaml.safe_load(text)
    parsed = parsing.parse_yaml(text)
    assert parsed.problem is None and parsed.data == yaml.safe_load(text)


def test_aliases_that_expand_past_the_limit_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "a: &x [x, y, z]\nb: [*x, *x]\n"  # the mapping, 2 keys, 4 for [x, y, z], 1 + 2 x 4 for b's: 16
    monkeypatch.setattr(parsing, "MAX_EXPANDED_NODES", 16)
    assert parsing.parse_yaml(text).problem is None
    monkeypatch.setattr(parsing, "MAX_EXPANDED_NODES", 15)
    assert parsing.parse_yaml(text).problem == parsing.ParseProblem(1, 1, "YAML aliases expand to more than 15 nodes")


def _count(node: yaml.Node) -> int:
    if isinstance(node, yaml.MappingNode):
        return 1 + sum(_count(k) + _count(v) for k, v in node.value)
    if isinstance(node, yaml.SequenceNode):
        return 1 + sum(map(_count, node.value))
    return 1


@pytest.mark.parametrize(
    "section",
    [
        {},
        {"flags": ["IGNORECASE"], "mode": "match"},
        {"flags": ["ignorecase", "ASCII"], "timeout_ms": 250.0, "polynomial_degree": 4},
        {"measure": True},
        {"measure": 1},  # not `true`: no timing
        {"timeout_ms": 0},
    ],
)
def test_regex_settings_read_once_equal_settings_read_each_time(section: dict[str, object]) -> None:
    assert RegexSettings.of(section) == RegexSettings._read(section)
    assert RegexSettings.of(dict(section)) is RegexSettings.of(section)  # kept by the values


def test_regex_settings_flags_are_plain_ints() -> None:
    flags = RegexSettings.of({"flags": ["IGNORECASE"]}).flags
    assert type(flags) is int and flags == re.IGNORECASE


# -- the backtracking analysis: shortcuts build the same automaton for the same steps ---------

_PATTERNS = [
    r"(a+)+$", r"(\w+\s?)*$", r".*x.*y.*z", r"(a|ab)*c", r"^(?:foo|bar)?baz\d{2,5}[^x]*?q",
    r"(?i)Error: (?P<name>\w+) not found( in .*)?", r"(a)(?>a*)b|(?=c)d|\1?", r"x{0,3}y{2}(?:z|)*",
    r"[Ā-￠]+é\u2028", r"(a?){3}a{3}", r"ERROR: frobnicate failed" + ".*" * 6,
]


class _PlainBuilder(redos._Builder):
    def seq(self, nodes: syntax.Seq, flags: int) -> redos._Frag:  # every node by `concat`
        frag: redos._Frag = ({}, {}, 1)
        for node in nodes:
            frag = self.concat(frag, self.node(node, flags))
            if len(self.auto.masks) > redos._POSITION_LIMIT:
                raise TooComplex("too many positions")
        return frag


def _automaton(builder_class: type[redos._Builder], pattern: str, flags: int) -> tuple[object, ...]:
    parsed = syntax.parse(pattern, flags)
    budget = Budget(redos.STEP_BUDGET, "test")
    builder = builder_class(redos._alphabet_for(parsed.nodes, budget))
    first, last, nullable = builder.seq(parsed.nodes, flags | parsed.flags)
    auto = builder.auto
    follow = [list(out.items()) for out in auto.follow]
    return (auto.masks, auto.labels, auto.prefer, follow, auto.group_edges, list(first.items()),
            list(last.items()), nullable, budget.left, len(builder.nested))


def _real_patterns() -> list[str]:
    found = []
    for path in sorted((Path(__file__).resolve().parents[1] / "entries").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("regex"), str):
            found.append(data["regex"])
    return found


@pytest.mark.parametrize("flags", [0, re.IGNORECASE])
def test_literal_runs_build_the_automaton_concatenation_builds(flags: int) -> None:
    patterns = _PATTERNS + _real_patterns()
    assert len(patterns) > len(_PATTERNS)
    for pattern in patterns:
        assert _automaton(redos._Builder, pattern, flags) == _automaton(_PlainBuilder, pattern, flags), pattern


def test_literal_runs_build_the_automaton_on_deadends_regexes(deadends_dir: Path) -> None:
    documents = [json.loads(p.read_text(encoding="utf-8")) for p in deadends_dir.rglob("*.json")]
    patterns = sorted({d["error"]["regex"] for d in documents if isinstance(d.get("error", {}).get("regex"), str)})
    assert len(patterns) > 1000
    for pattern in patterns[::3]:  # a third keeps the test quick (benchmarks/compare_builds.py compares whole lint outputs)
        try:
            expected = _automaton(_PlainBuilder, pattern, re.IGNORECASE)
        except (re.error, TooComplex):
            continue
        assert _automaton(redos._Builder, pattern, re.IGNORECASE) == expected, pattern


def test_lower_preimages_by_blocks_equal_every_code_point_one_by_one() -> None:
    table: dict[int, list[int]] = {}
    for code in range(sys.maxunicode + 1):
        low = syntax.re_lower(code)
        if low != code:
            table.setdefault(low, []).append(code)
    assert list(redos._lower_preimages().items()) == [(low, tuple(codes)) for low, codes in table.items()]


def _reported(results: list[redos.Result], degree: int) -> list[redos.Result]:
    """What ET205 reports of `analyse`'s results."""
    return [r for r in results if not (r.finding.kind == "polynomial" and r.finding.degree < degree and not r.finding.group_repeat)]


def _same_reports(patterns: list[str], degree: int) -> int:
    pruned = 0
    for pattern in patterns:
        try:
            full = redos.analyse(pattern, re.IGNORECASE, "search")
        except (re.error, TooComplex):
            continue
        quick = redos.analyse(pattern, re.IGNORECASE, "search", report_from_degree=degree)
        assert _reported(quick, degree) == _reported(full, degree), pattern
        pruned += bool(full) and not quick
    return pruned


@pytest.mark.parametrize("degree", [2, 3, 4])
def test_unreported_candidates_are_not_attacked_and_the_reports_stay(degree: int) -> None:
    pruned = _same_reports(_PATTERNS + _real_patterns() + [r"(a|ab)*c", r".*a", r"(ab|a)+b.*c"], degree)
    assert pruned > 0 if degree > 2 else pruned == 0


def test_unreported_candidates_on_deadends_regexes(deadends_dir: Path) -> None:
    documents = [json.loads(p.read_text(encoding="utf-8")) for p in deadends_dir.rglob("*.json")]
    patterns = sorted({d["error"]["regex"] for d in documents if isinstance(d.get("error", {}).get("regex"), str)})
    assert _same_reports(patterns[1::3], 3) > 100


def test_a_schema_of_ones_own_is_still_checked_against_the_meta_schema(tmp_path: Path) -> None:
    from entrykit.errors import ConfigError
    from entrykit.schema import validator

    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": 5}), encoding="utf-8")
    with pytest.raises(ConfigError, match="is invalid"):
        validator(path)
    assert validator(None).is_valid({}) is False  # the bundled schema, unchecked here, still validates
