"""Fast parsing of entry text (JSON via the stdlib, YAML via libyaml) into plain data.

Parse failures are returned as `ParseProblem` values, never raised. Data follows
the YAML 1.2 core schema (as ruamel.yaml does), except that timestamps stay strings,
so both formats yield the same JSON-compatible values.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

try:  # libyaml is what makes YAML cheap; the pure loader is the fallback.
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]


@dataclass(frozen=True)
class ParseProblem:
    """Why a text is not an entry, and where (1-based)."""

    line: int
    col: int
    message: str


@dataclass
class Parsed:
    """Data parsed from a text, plus what the fast parser noticed but could not place."""

    data: Any = None
    problem: ParseProblem | None = None
    # The fast parsers cannot say *where* these are; the position index can.
    needs_positions: bool = False
    # YAML only: the composed nodes, where each value starts (None when a node is reached
    # through an alias, whose place the position index settles).
    nodes: Any = None


class _ParseFailure(Exception):
    def __init__(self, problem: ParseProblem) -> None:
        self.problem = problem


# YAML 1.2 core schema resolvers (what ruamel.yaml applies by default), minus
# timestamps: dates stay the strings the schema checks with `format: date`.
_YAML12_RESOLVERS: list[tuple[str, re.Pattern[str], str]] = [
    ("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), "tTfF"),
    (
        "tag:yaml.org,2002:float",
        re.compile(
            r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
            |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
            |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
            |[-+]?\.(?:inf|Inf|INF)
            |\.(?:nan|NaN|NAN))$""",
            re.X,
        ),
        "-+0123456789.",
    ),
    (
        "tag:yaml.org,2002:int",
        re.compile(
            r"""^(?:[-+]?0b[0-1_]+
            |[-+]?0o?[0-7_]+
            |[-+]?[0-9_]+
            |[-+]?0x[0-9a-fA-F_]+)$""",
            re.X,
        ),
        "-+0123456789",
    ),
    ("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), "~nN\0"),
]


# Plain scalars that YAML 1.1 readers (PyYAML's `safe_load`, Go's yaml.v2, many others)
# and YAML 1.2 readers (entrykit, ruamel.yaml, and the 1.2 core schema) read as different
# values: 1.1 booleans (`yes`, `off`, `y`), octal written `017` (1.1) or `0o17` (1.2),
# other leading zeros, sexagesimal numbers (`1:30`), and exponents 1.1 does not read as
# numbers (`1e3`, `1.0e3`). ET006 reports them.
YAML11_SPELLING = re.compile(
    r"""^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF
    |[-+]?0o[0-7_]+
    |[-+]?0[0-9_]+
    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+
    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
    |[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?[eE][0-9]+
    |[-+]?[0-9]+[eE][-+][0-9]+)$""",
    re.X,
)
_YAML11_FIRST = frozenset("yYnNoO0123456789+-")


_STR, _SEQ, _MAP = "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"


class EntryYamlLoader(_BaseLoader):
    """libyaml loader with YAML 1.2 scalars, string dates and duplicate-key detection."""

    yaml_implicit_resolvers: dict[str | None, list[tuple[str, re.Pattern[str]]]] = {}

    # What the loader noticed: False until it notices (a class default, not four stores per
    # file; a loader that notices sets its own).
    saw_duplicate = False
    saw_nonstring_key = False
    saw_nonfinite = False
    saw_yaml11 = False

    # PyYAML's composers call these around every node, for path resolvers, which this
    # class has none of (its hooks would return at once): C callables that do nothing
    # harmful cost a Python call less per node. A type is no descriptor, so `self.x` is it.
    descend_resolver = slice  # type: ignore[assignment]  # (parent, index) -> a slice, dropped
    ascend_resolver = tuple  # type: ignore[assignment]  # () -> the empty tuple

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        # PyYAML's resolver, for the resolvers of this class (it has no path resolvers):
        # libyaml calls it for every node. A quoted scalar is a string; a short plain one
        # (keys above all) is looked up in a memo of what its text resolves to, which
        # holds no text YAML 1.1 reads otherwise (those are noted every time).
        if kind is _SCALAR_NODE:
            if not implicit[0]:
                return _STR
            tag = _PLAIN_TAGS.get(value)
            if tag is None:
                tag, yaml11 = _plain_tag(value)
                if yaml11:
                    self.saw_yaml11 = True
                elif len(value) <= _PLAIN_MEMO_CHARS:
                    if len(_PLAIN_TAGS) >= _PLAIN_MEMO_KEPT:
                        _PLAIN_TAGS.clear()
                    _PLAIN_TAGS[value] = tag
            return tag
        if kind is _MAPPING_NODE:
            return _MAP
        if kind is _SEQUENCE_NODE:
            return _SEQ
        return super().resolve(kind, value, implicit)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        if not isinstance(node, yaml.MappingNode):  # `!!map` on a scalar: the base class says why not
            return super().construct_mapping(node, deep=deep)
        mapping: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)  # a complex key whole, not half-built
            if not isinstance(key, str):
                self.saw_nonstring_key = True
                key = _key_text(key)
            if key in mapping:
                self.saw_duplicate = True
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


def _key_text(key: Any) -> str:
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    try:
        hash(key)
    except TypeError:
        return repr(key)
    return str(key)


for _tag, _regexp, _first in _YAML12_RESOLVERS:
    for _ch in _first:
        EntryYamlLoader.yaml_implicit_resolvers.setdefault(
            None if _ch == "\0" else _ch, []
        ).append((_tag, _regexp))
# An empty plain scalar has no first character; PyYAML looks it up under "".
EntryYamlLoader.yaml_implicit_resolvers.setdefault("", []).append(
    ("tag:yaml.org,2002:null", re.compile(r"^$"))
)
# What PyYAML's resolver tries for a plain scalar, by its first character ("" when empty):
# the resolvers of that character, then those of any character.
_IMPLICIT_ANY = tuple(EntryYamlLoader.yaml_implicit_resolvers.get(None, []))
_IMPLICIT = {
    first: tuple(resolvers) + _IMPLICIT_ANY
    for first, resolvers in EntryYamlLoader.yaml_implicit_resolvers.items()
    if first is not None
}

_SCALAR_NODE, _MAPPING_NODE, _SEQUENCE_NODE = yaml.ScalarNode, yaml.MappingNode, yaml.SequenceNode
_PLAIN_MEMO_CHARS = 64  # plain scalars up to this long are remembered (keys, words, numbers)
_PLAIN_MEMO_KEPT = 4096
_PLAIN_TAGS: dict[str, str] = {}  # a plain scalar's text -> its tag (no text with a YAML 1.1 spelling)


def _plain_tag(value: str) -> tuple[str, bool]:
    """The tag of a plain scalar (the first resolver, by first character, whose regex
    matches: PyYAML's order), and whether YAML 1.1 reads its text otherwise (ET006)."""
    if " " in value:  # no resolver's pattern and no 1.1 spelling holds a space: prose
        return _STR, False
    yaml11 = bool(value) and value[0] in _YAML11_FIRST and YAML11_SPELLING.match(value) is not None
    for tag, regexp in _IMPLICIT.get(value[:1], _IMPLICIT_ANY):
        if regexp.match(value):
            return tag, yaml11
    return _STR, yaml11


# Python-specific and timestamp constructors are never reachable: only these tags load.
EntryYamlLoader.yaml_constructors = {
    k: v
    for k, v in yaml.SafeLoader.yaml_constructors.items()
    if k
    in {
        "tag:yaml.org,2002:null",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:str",
        "tag:yaml.org,2002:seq",
        "tag:yaml.org,2002:map",
    }
}
EntryYamlLoader.add_constructor(None, lambda loader, node: _reject_tag(node))


def _reject_tag(node: yaml.Node) -> Any:
    mark = node.start_mark
    raise _ParseFailure(
        ParseProblem(mark.line + 1, mark.column + 1, f"tag `{node.tag}` is not allowed in an entry")
    )


def _yaml_int(loader: EntryYamlLoader, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node)).replace("_", "")
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    if text.startswith("0b"):
        return sign * int(text[2:], 2)
    if text.startswith("0x"):
        return sign * int(text[2:], 16)
    if text.startswith("0o"):
        return sign * int(text[2:], 8)
    return sign * int(text)  # YAML 1.2: `017` is seventeen (ET006 says 1.1 reads fifteen)


def _yaml_float(loader: EntryYamlLoader, node: yaml.ScalarNode) -> float:
    value: float = yaml.SafeLoader.construct_yaml_float(loader, node)
    if not math.isfinite(value):
        loader.saw_nonfinite = True
    return value


EntryYamlLoader.add_constructor("tag:yaml.org,2002:int", _yaml_int)
EntryYamlLoader.add_constructor("tag:yaml.org,2002:float", _yaml_float)

_YAML11_BOOLEANS = {"y": True, "yes": True, "on": True, "n": False, "no": False, "off": False}


def yaml_readings(text: str) -> tuple[Any, Any]:
    """What YAML 1.2 (entrykit, ruamel.yaml) and YAML 1.1 (PyYAML's `safe_load`, the 1.1
    spec's booleans) make of the plain scalar `text`."""
    modern = parse_yaml(f"v: {text}\n").data
    older: Any = _YAML11_BOOLEANS.get(text.lower())
    if older is None:
        try:
            older = yaml.load(f"v: {text}\n", Loader=yaml.SafeLoader)["v"]  # noqa: S506 (the safe loader)
        except (yaml.YAMLError, TypeError, KeyError, ValueError):
            older = text
    return (modern or {}).get("v", text), older


DEFAULT_MAX_NESTING = 50
DEFAULT_MAX_ALIASES = 50
MAX_EXPANDED_NODES = 1_000_000


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _at(mark: Any, message: str) -> ParseProblem:
    return ParseProblem(mark.line + 1, mark.column + 1, message) if mark else ParseProblem(1, 1, message)


def _alias_problem(text: str, max_aliases: int) -> ParseProblem | None:
    """Where an alias closes a cycle, or is one alias of a collection too many (from libyaml's events)."""
    collections: set[str] = set()
    open_anchors: list[str | None] = []
    count = 0
    for event in yaml.parse(text, Loader=_BaseLoader):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if event.anchor is not None:
                collections.add(event.anchor)
            open_anchors.append(event.anchor)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            open_anchors.pop()
        elif isinstance(event, yaml.AliasEvent) and event.anchor in collections:
            if event.anchor in open_anchors:
                return _at(event.start_mark, f"alias `*{event.anchor}` refers to a node that contains it")
            count += 1
            if count > max_aliases:
                return _at(event.start_mark, f"more than {max_aliases} aliases of collections")
    return None


def _yaml_too_deep(text: str, max_nesting: int, fallback: Any = None) -> ParseProblem:
    """Where YAML text first opens a collection deeper than `max_nesting` (from libyaml's
    events; else `fallback`, a mark inside the deep part, e.g. where libyaml gave up)."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_BaseLoader):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > max_nesting:
                    return _at(event.start_mark, f"nesting deeper than {max_nesting} levels")
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        pass
    return _at(fallback, f"nesting deeper than {max_nesting} levels")


def _shape_problem(text: str, root: yaml.Node, max_nesting: int, max_aliases: int) -> tuple[ParseProblem | None, bool]:
    """Nesting deeper than `max_nesting`, recursive or too many aliases, or an alias bomb;
    and whether any node is reached twice (an alias).

    One iterative walk over the composed nodes; a node reached again is an alias and
    is not walked twice, so an alias bomb costs linear time.
    """
    heights: dict[int, int] = {}
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    aliases = 0
    aliased = False
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, leaving = stack.pop()
        key = id(node)
        if leaving:
            on_path.discard(key)
            kids = _children(node)
            heights[key] = 1 + max((heights[id(k)] for k in kids), default=0)
            sizes[key] = min(MAX_EXPANDED_NODES + 1, 1 + sum(sizes[id(k)] for k in kids))
            continue
        if key in on_path:
            return _alias_problem(text, max_aliases) or _at(node.start_mark, "a YAML alias refers to a node that contains it"), True
        if key in heights:  # a second way to the same node: an alias
            aliased = True
            if isinstance(node, yaml.CollectionNode):
                aliases += 1
                if aliases > max_aliases:
                    return _alias_problem(text, max_aliases) or _at(node.start_mark, f"more than {max_aliases} aliases of collections"), True
            if depth - 1 + heights[key] > max_nesting:
                return _at(node.start_mark, f"nesting deeper than {max_nesting} levels (through an alias)"), True
            continue
        if not isinstance(node, yaml.CollectionNode):
            heights[key], sizes[key] = 0, 1
            continue
        if depth > max_nesting:
            return _at(node.start_mark, f"nesting deeper than {max_nesting} levels"), aliased
        on_path.add(key)
        stack.append((node, depth, True))
        stack.extend((kid, depth + 1, False) for kid in reversed(_children(node)))
    # (a document without aliases is as large as its text, which `max_file_bytes` bounds:
    # a JSON entry of as many values is read too)
    if aliased and sizes[id(root)] > MAX_EXPANDED_NODES:
        return ParseProblem(1, 1, f"YAML aliases expand to more than {MAX_EXPANDED_NODES:,} nodes"), True
    return None, aliased


_YAML_BREAKS = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
_LINE_BREAKS = re.compile(r"\r\n|\n|\r")
_ODD_BREAKS = ("\x85", "\u2028", "\u2029")


def line_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each line of `text`, its line break left out: the lines editors show
    and findings are placed on (`YamlLines`), ended by a CR LF, a LF or a CR alone, never
    by a U+2028 or a form feed inside a value (as `str.splitlines` would)."""
    start = 0
    for found in _LINE_BREAKS.finditer(text):
        yield start, found.start()
        start = found.end()
    yield start, len(text)


def scalar_spans(text: str) -> list[tuple[int, int]] | None:
    """Where each scalar of YAML text starts and ends (character offsets, in order: a quoted
    one with its quotes, a block scalar its lines below the `|` or `>`), or None if
    libyaml cannot read the text."""
    loader = _BaseLoader(text)
    spans: list[tuple[int, int]] = []
    try:
        while (event := loader.get_event()) is not None:
            if isinstance(event, yaml.ScalarEvent) and event.start_mark and event.end_mark:
                start, end = event.start_mark.index, event.end_mark.index
                if event.style in ("|", ">"):  # its lines: a comment may follow its `|` or `>`
                    below = _LINE_BREAKS.search(text, start, end)
                    start = below.end() if below is not None else end
                spans.append((start, end))
    except (yaml.YAMLError, ValueError, RecursionError):
        return None
    finally:
        loader.dispose()
    return spans


def comments(text: str) -> list[tuple[int, str]] | None:
    """Each comment of YAML text, in order: where its `#` is (a character offset) and its
    text to the end of its line; None if libyaml cannot read the text. A `#` inside a value
    (a quoted string, a line of a block scalar) is a character of it, and one that follows
    no space is part of a word."""
    spans = scalar_spans(text)
    if spans is None:
        return None
    found: list[tuple[int, str]] = []
    for start, end in line_spans(text):
        at = text.find("#", start, end)
        while at != -1:
            place = bisect.bisect_right(spans, (at, len(text))) - 1
            inside = place >= 0 and spans[place][0] <= at < spans[place][1]
            if (at == start or text[at - 1] in " \t") and not inside:
                found.append((at, text[at:end].rstrip()))
                break
            at = text.find("#", at + 1, end)
    return found


class YamlLines:
    """libyaml's 0-based (line, column) -> the 1-based place editors and other tools show.

    YAML also breaks lines at NEL, LS and PS; nothing else does, so in a text holding
    one of them libyaml's line numbers run ahead of the file's.
    """

    def __init__(self, text: str) -> None:
        self.plain = not any(c in text for c in _ODD_BREAKS)
        if not self.plain:
            self.yaml_starts = [0] + [m.end() for m in _YAML_BREAKS.finditer(text)]
            self.starts = [0] + [m.end() for m in _LINE_BREAKS.finditer(text)]

    def __call__(self, line: int, column: int) -> tuple[int, int]:
        if self.plain:
            return line + 1, column + 1
        offset = self.yaml_starts[min(max(line, 0), len(self.yaml_starts) - 1)] + max(column, 0)
        found = bisect.bisect_right(self.starts, offset)
        return found, offset - self.starts[found - 1] + 1


def parse_yaml(
    text: str,
    max_nesting: int = DEFAULT_MAX_NESTING,
    max_aliases: int = DEFAULT_MAX_ALIASES,
    encoded: bytes | None = None,
) -> Parsed:
    """Parse YAML text with libyaml; one document, mapping at the top.

    The document is composed first and its shape checked (nesting, aliases) before
    any value is constructed. `encoded`: the text's UTF-8 bytes, when the caller has
    them (a file's, its BOM left out), which libyaml reads without encoding the text.
    """
    parsed = _parse_yaml(text, max_nesting, max_aliases, encoded)
    if parsed.problem is not None and encoded is not None:
        # libyaml names its input in some messages ("<byte string>"): a broken text is
        # read again as text, for the words a text's parse gives.
        parsed = _parse_yaml(text, max_nesting, max_aliases)
    found = parsed.problem
    if found is not None:
        line, col = YamlLines(text)(found.line - 1, found.col - 1)
        lines = _LINE_BREAKS.split(text)
        if line > len(lines):  # libyaml places an error at the end of the text on the line after it
            line, col = len(lines), len(lines[-1]) + 1
        parsed.problem = ParseProblem(line, min(col, len(lines[line - 1]) + 1), found.message)
    return parsed


_UNUSUAL: Any = object()  # what `_plain_data` says of a document it leaves to the loader
_SCALARS = frozenset(
    {"tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}
)
_SCALAR_DATA: dict[str, tuple[str, Any]] = {}  # a null, bool, int or float text -> (its tag, its value)


def _plain_data(loader: EntryYamlLoader, root: yaml.Node, max_nesting: int, anchored: bool = False) -> Any:
    """The data of a document in which no node is reached twice (no alias), built straight
    from its nodes with the loader's own scalar constructors; `_UNUSUAL` for anything else
    (an alias, another tag, a collection as a key, nesting past `max_nesting`, an error),
    which the shape check and the loader's constructor settle, in their order. PyYAML's
    constructor goes through generators and a state machine for every collection; entries
    are plain mappings of strings and lists.

    `anchored`: the text may hold an anchor (it has a `&`), so every node is first checked for
    a second way to it. Most such texts have none: `&&` and `&` in commands and prose."""
    if anchored and _reached_twice(root):
        return _UNUSUAL
    builder = _PlainBuilder(loader, max_nesting)
    try:
        data = builder.value(root, 1)
    except Exception:  # _Unusual, or an error the loader's constructor reports in its own order
        return _UNUSUAL
    return data


class _PlainBuilder:
    """`_plain_data`'s walk. Methods, not nested functions that call themselves: those
    would be a reference cycle holding the loader and its nodes until the cycle
    collector runs, for every file.

    A string, the commonest node by far, is read in its collection's loop: a node whose
    tag is the very `_STR` the resolver answers is a scalar the resolver made a string (a
    tag written in the text is a string of its own). Anything else goes through `value`
    or `key`."""

    def __init__(self, loader: EntryYamlLoader, max_nesting: int) -> None:
        self.loader = loader
        self.constructors = loader.yaml_constructors
        self.max_nesting = max_nesting

    def value(self, node: yaml.Node, depth: int) -> Any:
        kind, tag = type(node), node.tag
        if kind is _SCALAR_NODE:
            if tag == _STR:
                return node.value
            if tag not in _SCALARS:
                raise _Unusual
            # What the constructor of a tag makes of a text depends on nothing else: a short
            # text's value is remembered (with the tag it was made for, told by identity:
            # the resolver's own), a non-finite float's is not (its constructor notes it).
            text = node.value
            known = _SCALAR_DATA.get(text)
            if known is not None and known[0] is tag:
                return known[1]
            data = self.constructors[tag](self.loader, node)
            if len(text) <= _PLAIN_MEMO_CHARS and (type(data) is not float or math.isfinite(data)):
                if len(_SCALAR_DATA) >= _PLAIN_MEMO_KEPT:
                    _SCALAR_DATA.clear()
                _SCALAR_DATA[text] = (tag, data)
            return data
        if kind is _MAPPING_NODE and tag == _MAP:
            return self.mapping(node, depth)
        if kind is _SEQUENCE_NODE and tag == _SEQ:
            return self.sequence(node, depth)
        raise _Unusual

    def key(self, node: yaml.Node) -> str:
        if type(node) is not _SCALAR_NODE:
            raise _Unusual
        key = self.value(node, 0)
        if not isinstance(key, str):
            self.loader.saw_nonstring_key = True
            key = _key_text(key)
        return key

    def sequence(self, node: yaml.Node, depth: int) -> list[Any]:
        items = node.value
        if depth > self.max_nesting:
            raise _Unusual
        depth += 1
        # A loop, not a comprehension: most lists hold one item or none, and a
        # comprehension is a call of a function of its own.
        values: list[Any] = []
        for item in items:
            tag = item.tag
            if tag is _STR:
                values.append(item.value)
            elif tag is _MAP:
                values.append(self.mapping(item, depth))
            else:
                values.append(self.value(item, depth))
        return values

    def mapping(self, node: yaml.Node, depth: int) -> dict[str, Any]:
        pairs = node.value
        if depth > self.max_nesting:
            raise _Unusual
        depth += 1
        mapping: dict[str, Any] = {}
        for key_node, value_node in pairs:
            key = key_node.value if key_node.tag is _STR else self.key(key_node)
            tag = value_node.tag
            if tag is _STR:
                mapping[key] = value_node.value
            elif tag is _MAP:
                mapping[key] = self.mapping(value_node, depth)
            elif tag is _SEQ:
                mapping[key] = self.sequence(value_node, depth)
            else:
                mapping[key] = self.value(value_node, depth)
        if len(mapping) != len(pairs):  # a key written twice
            self.loader.saw_duplicate = True
        return mapping


class _Unusual(Exception):
    pass


def compose_yaml(text: str) -> yaml.Node | None:
    """The composed nodes of YAML text (for places), or None if libyaml cannot compose it
    or a node is reached through an alias (the position index settles those places)."""
    loader = EntryYamlLoader(text)
    try:
        root = loader.get_single_node()
    except (yaml.YAMLError, ValueError, RecursionError):
        return None
    finally:
        loader.dispose()
    return None if root is None or _reached_twice(root) else root


def _reached_twice(root: yaml.Node) -> bool:
    """Whether some node is reached along two paths: the composer hands an alias the node
    of its anchor. Each node is walked once, so a text of aliases costs its size."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return True
        seen.add(id(node))
        stack.extend(_children(node))
    return False


def _parse_yaml(text: str, max_nesting: int, max_aliases: int, encoded: bytes | None = None) -> Parsed:
    """`parse_yaml`'s parse, its problem placed as libyaml counts lines; libyaml reads
    `encoded` (the text's UTF-8) when given, else the text."""
    loader = EntryYamlLoader(text if encoded is None else encoded)
    try:
        root = loader.get_single_node()
        if root is None:
            return Parsed(data=None)
        data = _plain_data(loader, root, max_nesting, "&" in text)
        aliased = False  # no node reached twice
        if data is _UNUSUAL:
            loader.saw_duplicate = loader.saw_nonstring_key = loader.saw_nonfinite = False
            problem, aliased = _shape_problem(text, root, max_nesting, max_aliases)
            if problem is not None:
                return Parsed(problem=problem)
            data = loader.construct_document(root)
    except _ParseFailure as failure:
        return Parsed(problem=failure.problem)
    except yaml.MarkedYAMLError as exc:
        if "maximum nesting depth" in str(exc.problem):  # libyaml's own limit (1,000 levels)
            return Parsed(problem=_yaml_too_deep(text, max_nesting, exc.problem_mark))
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(str(exc.problem or exc.context or "invalid YAML").split())
        return Parsed(problem=ParseProblem(line, col, f"invalid YAML: {message}"))
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
        return Parsed(problem=ParseProblem(1, 1, f"invalid YAML: {' '.join(str(exc).split())}"))
    except RecursionError:
        return Parsed(problem=_yaml_too_deep(text, max_nesting))
    finally:
        loader.dispose()
    return Parsed(
        data=data,
        needs_positions=loader.saw_duplicate or loader.saw_nonstring_key or loader.saw_nonfinite or loader.saw_yaml11,
        nodes=None if aliased else root,
    )


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_JSON_STRING_OR_BRACKET = re.compile(r'["\[\]{}]')
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def _json_deeper_than(data: Any, limit: int) -> bool:
    """True if arrays and objects nest more than `limit` deep in parsed JSON (level by level)."""
    depth = 0
    level = [data] if isinstance(data, (dict, list)) else []
    while level:
        depth += 1
        if depth > limit:
            return True
        below: list[Any] = []
        for value in level:
            items = value.values() if type(value) is dict else value
            below += [v for v in items if type(v) is dict or type(v) is list]
        level = below
    return False


def _json_too_deep(text: str, max_nesting: int) -> ParseProblem:
    """Where JSON text first opens an array or object deeper than `max_nesting`; else (the
    reader ran out of stack first: a limit set near 1,000) where it is nested deepest."""
    depth = deepest = deepest_at = 0
    for at in json_brackets(text):
        if text[at] in "[{":
            depth += 1
            if depth > max_nesting:
                line, col = offset_place(text, at)
                return ParseProblem(line, col, f"nesting deeper than {max_nesting} levels")
            if depth > deepest:
                deepest, deepest_at = depth, at
        else:
            depth -= 1
    line, col = offset_place(text, deepest_at)
    return ParseProblem(line, col, f"nesting of {deepest} levels is deeper than the JSON reader can follow")


def json_brackets(text: str) -> Iterator[int]:
    """Where each bracket (`[]{}`) outside a JSON string is: a `"` starts a string up to the
    next `"` no backslash escapes, else (no such `"`) it is a character like any other.

    Past a `"` that closes no string, none does: each later `"` is escaped along that
    `"`'s scan, and a scan from it takes the same steps to the same end. So the rest is
    read once for its brackets, where one regex trying every `"` anew read it once per
    `"` (quadratic): a text the JSON reader gave up on deep in brackets (its recursion
    limit) is read on past the place it broke off."""
    at = 0
    while (token := _JSON_STRING_OR_BRACKET.search(text, at)) is not None:
        at = token.start()
        if text[at] != '"':
            yield at
            at += 1
            continue
        string = _JSON_STRING.match(text, at)
        if string is None:
            yield from (bracket.start() for bracket in _JSON_BRACKET.finditer(text, at + 1))
            return
        at = string.end()


def parse_json(text: str, max_nesting: int = DEFAULT_MAX_NESTING) -> Parsed:
    """Parse JSON text with the stdlib; duplicate keys and NaN are noticed, not lost."""
    noticed = {"duplicate": False, "constant": False}

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(items)
        if len(result) != len(items):
            noticed["duplicate"] = True
        return result

    def constant(name: str) -> float:
        noticed["constant"] = True
        return float(name)

    def number(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):  # `1e999`: more than a double holds
            noticed["constant"] = True
        return value

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_constant=constant, parse_float=number)
    except json.JSONDecodeError as exc:
        line, col = offset_place(text, exc.pos)
        return Parsed(problem=ParseProblem(line, col, f"invalid JSON: {exc.msg}"))
    except RecursionError:
        return Parsed(problem=_json_too_deep(text, max_nesting))
    except (ValueError, TypeError) as exc:
        return Parsed(problem=ParseProblem(1, 1, f"invalid JSON: {exc}"))
    if _json_deeper_than(data, max_nesting):
        return Parsed(problem=_json_too_deep(text, max_nesting))
    if _SURROGATE_ESCAPE.search(text) and _has_surrogate(data):
        return Parsed(problem=_surrogate_problem(text))
    return Parsed(data=data, needs_positions=noticed["duplicate"] or noticed["constant"])


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")
_PAIR = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _has_surrogate(data: Any) -> bool:
    """A string (key or value) holding half a UTF-16 surrogate pair, which no UTF-8 text can."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return True
        elif isinstance(value, dict):
            stack.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def _surrogate_problem(text: str) -> ParseProblem:
    """Where a `\\uD800`-style escape stands alone (not half of a pair)."""
    paired: set[int] = set()
    for pair in _PAIR.finditer(text):
        paired.update((pair.start(), pair.start() + 6))
    spot = next((m.start() for m in _SURROGATE_ESCAPE.finditer(text) if m.start() not in paired), 0)
    line, col = offset_place(text, spot)
    return ParseProblem(line, col, "a `\\u` escape stands for half a surrogate pair, which is no character")


def offset_place(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, col) of a character offset; lines end at CRLF, LF or CR."""
    before = text[:offset]
    starts = [m.end() for m in _LINE_BREAKS.finditer(before)]
    start = starts[-1] if starts else 0
    if start == offset and before.endswith("\r") and text[offset : offset + 1] == "\n":
        starts.pop()  # the offset is inside a CRLF: it ends the line before
        start = starts[-1] if starts else 0
    return len(starts) + 1, offset - start + 1
