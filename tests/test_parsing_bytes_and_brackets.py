"""Parsing shortcuts against the plain computations they replace: YAML read from the file's
UTF-8 bytes against YAML read from its text, and the JSON bracket scan against one regex."""

from __future__ import annotations

import codecs
import re
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from entrykit import loader, parsing
from entrykit.entry import Entry
from entrykit.loader import Limits, parse_text

_WORDS = st.sampled_from(
    [
        "a", "id", "key", "é", "中文", "emoji 🎉", "yes", "no", "on", "off", "y", "null", "~", "",
        "true", "False", "1", "017", "0o17", "0x1F", "1_000", "1e3", "1.5", "-.inf", ".nan",
        "2024-01-31", "1:30", "a b c", "x: y", "- z", "#c", "&anchor", "*alias", "\u2028", "\x85",
        "\t", "\x01", "[", "{", "'", '"', "\\", "|", ">",
    ]
)


@st.composite
def _scalar(draw: st.DrawFn) -> str:
    """A scalar as YAML writes it: plain, quoted (with escapes) or a flow of words."""
    words = draw(st.lists(_WORDS, min_size=1, max_size=3))
    text = " ".join(words)
    style = draw(st.sampled_from(["plain", "single", "double", "flow"]))
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    if style == "double":
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '\\u00e9"'
    if style == "flow":
        return "[" + ", ".join(words) + "]"
    return text


def _block(draw: st.DrawFn, depth: int, indent: str) -> list[str]:
    """Lines of a block mapping or list at `indent`, nested at most `depth` more levels."""
    lines: list[str] = []
    as_list = draw(st.booleans())
    for _ in range(draw(st.integers(1, 4))):
        lead = indent + ("- " if as_list else draw(st.sampled_from(["k", "id", "é", "k", "1", "k k"])) + ": ")
        anchor = draw(st.sampled_from(["", "", "", "&a ", "*a", "!!str ", "!x "]))
        kind = draw(st.sampled_from(["scalar", "scalar", "block", "nested"])) if depth > 0 else "scalar"
        if anchor == "*a":
            lines.append(lead + "*a")
        elif kind == "scalar":
            lines.append(lead + anchor + draw(_scalar()))
        elif kind == "block":
            lines.append(lead + anchor + draw(st.sampled_from(["|", ">", "|-", ">+"])))
            lines += [indent + "  " + draw(_WORDS) for _ in range(draw(st.integers(1, 3)))]
        else:
            lines.append(lead.rstrip() + (" " + anchor.strip() if anchor else ""))
            lines += _block(draw, depth - 1, indent + "  ")
    return lines


@st.composite
def yaml_documents(draw: st.DrawFn) -> str:
    """YAML documents: nested maps and lists, plain, quoted and block scalars, numbers,
    booleans, nulls, dates, keys written twice, anchors, aliases, tags, broken lines."""
    lines = _block(draw, 3, "")
    if draw(st.integers(0, 3)) == 0:
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(["  bad: [", "\tx: y", "::", "- a", "# c"])))
    return draw(st.sampled_from(["", "---\n", "%YAML 1.2\n---\n"])) + "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


def _tree(node: Any) -> Any:
    """Everything a composed node holds that a reader of places sees: kind, tag, value,
    style, marks; children in order (a node reached again once more, by its id)."""
    if node is None:
        return None
    marks = tuple((m.index, m.line, m.column) for m in (node.start_mark, node.end_mark))
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.tag, node.value, node.style, marks)
    if isinstance(node, yaml.MappingNode):
        return ("map", node.tag, node.flow_style, marks, [(_tree(k), _tree(v)) for k, v in node.value])
    return ("seq", node.tag, node.flow_style, marks, [_tree(v) for v in node.value])


def _summary(parsed: parsing.Parsed) -> tuple[Any, ...]:
    """A parse as comparable values: its data's repr (types and key order), problem, flag, nodes."""
    return (repr(parsed.data), parsed.problem, parsed.needs_positions, _tree(parsed.nodes))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_documents(), st.sampled_from([(50, 50), (2, 1)]))
def test_yaml_from_bytes_is_yaml_from_text(text: str, limits: tuple[int, int]) -> None:
    """libyaml reading the UTF-8 bytes gives what it gives reading the text: data, problem
    (its words too), flags and every node with its marks."""
    from_text = parsing.parse_yaml(text, *limits)
    from_bytes = parsing.parse_yaml(text, *limits, encoded=text.encode("utf-8"))
    assert _summary(from_bytes) == _summary(from_text)


def test_yaml_from_bytes_words_a_broken_text_as_from_text() -> None:
    """A problem libyaml words with the name of its input (a control character) reads as
    it does from the text."""
    for text in ("a: \x01\n", "é: b\n\x07", "a: [b\n"):
        assert parsing.parse_yaml(text, encoded=text.encode()).problem == parsing.parse_yaml(text).problem
    assert "<unicode string>" in str(parsing.parse_yaml("a: \x01\n", encoded=b"a: \x01\n").problem)


def _entry_summary(found: Entry | loader.LoadFailure) -> tuple[Any, ...]:
    """What a loaded file is, comparable: a failure whole, an entry's data, flag and nodes."""
    if isinstance(found, loader.LoadFailure):
        return ("failure", found.line, found.col, found.message)
    return ("entry", repr(found.data), found.needs_positions, _tree(found.nodes))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(yaml_documents(), st.booleans())
def test_load_of_bytes_is_load_of_text(tmp_path: Path, text: str, bom: bool) -> None:
    """`load` given a file's bytes (a BOM or not) parses as `load` given its text."""
    path = tmp_path / "entry.yaml"
    raw = (codecs.BOM_UTF8 if bom else b"") + ("id: x\n" + text).encode("utf-8")
    from_bytes = loader.load(path, "entry.yaml", raw=raw, keep_nodes=True)
    from_text = loader.load(path, "entry.yaml", text=raw.decode("utf-8-sig"), keep_nodes=True)
    assert _entry_summary(from_bytes) == _entry_summary(from_text)


def test_utf8_of_is_the_decoded_text_encoded() -> None:
    """`utf8_of` gives the UTF-8 of what `decode` reads, with and without a BOM."""
    for raw in (b"a: \xc3\xa9\n", codecs.BOM_UTF8 + b"a: \xc3\xa9\n", codecs.BOM_UTF8, b""):
        text, problem = loader.decode(raw)
        assert problem is None and text is not None
        assert loader.utf8_of(raw) == text.encode("utf-8")


# The single regex `json_brackets` replaces: a string, or a bracket.
_BRACKETS_REGEX = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet='"\\[]{}a\n', max_size=60))
def test_json_brackets_are_the_regex_brackets(text: str) -> None:
    """The scan finds the brackets the regex's `finditer` found, on any text of quotes,
    backslashes and brackets (closed strings, unclosed ones, escapes at the end)."""
    expected = [m.start() for m in _BRACKETS_REGEX.finditer(text) if m.group() in "[]{}"]
    assert list(parsing.json_brackets(text)) == expected


def test_json_deep_text_with_an_unclosed_string_is_placed() -> None:
    """A JSON text the reader gives up on deep in brackets, followed by 1 MB of escaped
    quotes no `"` closes, is placed past its brackets (one regex read it once per `"`:
    hours). The text is one line: the 1,001st bracket is its column. Within the limit, the
    reader's own stack ran out: the deepest bracket is the place, and the message says so."""
    hostile = '\\"\\aa' * 200_000
    text = "[" * 999 + hostile + "[[!"
    problem = parse_text(text, "json", Limits(nesting=1000)).problem
    assert problem == parsing.ParseProblem(1, 999 + len(hostile) + 2, "nesting deeper than 1000 levels")
    within = parse_text("[" * 999 + hostile + "!", "json", Limits(nesting=1000)).problem
    assert within == parsing.ParseProblem(1, 999, "nesting of 999 levels is deeper than the JSON reader can follow")


@settings(max_examples=200, deadline=None)
@given(yaml_documents(), st.sampled_from(["a: 1\na: 2\n", "1: x\n", "a: .inf\n", "a: yes\n", "a: b\n"]))
def test_what_a_loader_noticed_stays_with_it(text: str, before: str) -> None:
    """A parse says what it noticed (needs_positions) as it does after a parse that noticed
    something else: the flags' defaults belong to the class, what one loader sets to it."""
    alone = _summary(parsing.parse_yaml(text))
    parsing.parse_yaml(before)
    assert _summary(parsing.parse_yaml(text)) == alone
    loader = parsing.EntryYamlLoader(text)
    assert not (loader.saw_duplicate or loader.saw_nonstring_key or loader.saw_nonfinite or loader.saw_yaml11)
    loader.dispose()


def _the_loaders_way(text: str) -> parsing.Parsed:
    """The parse with every document built by PyYAML's constructor (the shape check's way)."""
    original = parsing._plain_data
    parsing._plain_data = lambda *args: parsing._UNUSUAL
    try:
        return parsing.parse_yaml(text)
    finally:
        parsing._plain_data = original


_LISTS = [
    "a: []\n", "a: [x]\n", "a: [1]\n", "a: [x, 1, true, null, 1.5]\n", "a: [{b: c}]\n", "a: [[x]]\n",
    "a:\n- x\n- !!str 1\n- !!int '2'\n- 'y'\n", "a: !!str [x]\n", "a: [!!str [x]]\n", "a: [!x y]\n",
    "a:\n- b: c\n  d: [e]\n- []\n- {}\n", "a: [yes, .inf, 0o17]\n", "a: [{b: 1, b: 2}]\n", "a: [{1: x}]\n",
]


@settings(max_examples=300, deadline=None)
@given(yaml_documents() | st.sampled_from(_LISTS))
def test_lists_are_built_as_the_loader_builds_them(text: str) -> None:
    """The direct construction of a list (none, one or many items; strings, numbers, tags,
    mappings and lists inside) gives the loader's data, problem and flags."""
    fast, slow = parsing.parse_yaml(text), _the_loaders_way(text)
    assert (repr(fast.data), fast.problem, fast.needs_positions) == (repr(slow.data), slow.problem, slow.needs_positions)
