"""Where each value of an entry sits in its text: JSON Pointer -> 1-based (line, col).

Built only for files that have something to report (see `Entry.locate`): a token
scanner over JSON text, a libyaml node walk for YAML. Both also list the problems
the fast parsers noticed but could not place: duplicate keys, non-string keys and
non-finite numbers.
"""

from __future__ import annotations

import bisect
import json.decoder
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import yaml

from entrykit import pointer as jp


class Spot(NamedTuple):
    """Where a value starts, and where its key starts when it has one (1-based)."""

    line: int
    col: int
    key_line: int | None = None
    key_col: int | None = None


@dataclass(frozen=True)
class Irregularity:
    """Something well-formed enough to parse but not valid entry data."""

    kind: str  # "duplicate-key" | "nonstring-key" | "nonfinite-number" | "yaml-1.1-scalar"
    pointer: str
    line: int
    col: int
    detail: str


@dataclass
class PositionIndex:
    spots: dict[str, Spot] = field(default_factory=dict)
    irregularities: list[Irregularity] = field(default_factory=list)

    def locate(self, pointer: str, at_key: bool = False) -> tuple[int, int]:
        """Line and column of `pointer`, or of its nearest ancestor that exists."""
        current = pointer
        while True:
            spot = self.spots.get(current)
            if spot is not None:
                if at_key and spot.key_line is not None and spot.key_col is not None:
                    return spot.key_line, spot.key_col
                return spot.line, spot.col
            if not current:
                return 1, 1
            current = jp.parent(current)


def _line_starts(text: str) -> list[int]:
    """The offset each line of JSON text starts at: line n (1-based) of offset o is
    `bisect_right(starts, o)`, its column (in characters) `o - starts[n - 1] + 1`."""
    return [0] + [m.end() for m in re.finditer(r"\r\n|\n|\r", text)]


_WS = re.compile(r"[ \t\r\n]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_CONSTANTS = {"true": True, "false": False, "null": None}
_NONFINITE = ("NaN", "Infinity", "-Infinity")
# a key without escapes or control characters, its colon and the space after it
_PLAIN_KEY = re.compile(r'"([^"\\\x00-\x1f]*+)"[ \t\r\n]*+:[ \t\r\n]*+')


def first_nonfinite(text: str) -> Irregularity | None:
    """The first NaN, Infinity or number no double holds (`1e999`) in JSON text, with its place."""
    return next((i for i in json_positions(text).irregularities if i.kind == "nonfinite-number"), None)


def json_positions(text: str) -> PositionIndex:  # noqa: C901 - one scanning loop, its state in locals
    """Scan JSON text iteratively (no recursion limit) and record every value's place.

    Tolerant: on malformed text it stops and returns what it has seen.
    """
    index = PositionIndex()
    spots = index.spots
    starts = _line_starts(text)
    skip, plain_key, place = _WS.match, _PLAIN_KEY.match, bisect.bisect_right
    end = len(text)
    # Each frame: [is an object, pointer, keys seen (object) or next index (array)]
    stack: list[list[Any]] = []
    pos = skip(text, 0).end()  # type: ignore[union-attr]
    if text.startswith("\ufeff", pos):
        pos += 1
    pointer = ""
    key_line: int | None = None
    key_col: int | None = None
    try:
        while pos < end:
            pos = skip(text, pos).end()  # type: ignore[union-attr]
            if pos >= end:
                break
            ch = text[pos]
            # A value starts here (or a container closes / separator comes).
            if ch == "," and stack:
                pos += 1
                continue
            if ch == "}" or ch == "]":
                stack.pop()
                pos += 1
                continue
            if stack:
                frame = stack[-1]
                if frame[0]:
                    # Most keys hold no escape: one match reads the key, its colon and the space after.
                    found = plain_key(text, pos)
                    read = (found.group(1), found.end()) if found is not None else _escaped_key(text, pos)
                    if read is None:
                        break
                    key, after = read
                    # (what `jp.child` and a line map would give, worked out here: once per value)
                    pointer = frame[1] + "/" + (jp.escape(key) if "~" in key or "/" in key else key)
                    key_line = place(starts, pos)
                    key_col = pos - starts[key_line - 1] + 1
                    if key in frame[2]:
                        index.irregularities.append(Irregularity("duplicate-key", pointer, key_line, key_col, key))
                    frame[2].add(key)
                    pos = after
                    if pos >= end:
                        break
                    ch = text[pos]
                else:
                    pointer = f"{frame[1]}/{frame[2]}"
                    frame[2] += 1
                    key_line = key_col = None
            line = place(starts, pos)
            col = pos - starts[line - 1] + 1
            spots[pointer] = Spot(line, col, key_line, key_col)
            if ch == "{":
                stack.append([True, pointer, set()])
                pos += 1
            elif ch == "[":
                stack.append([False, pointer, 0])
                pos += 1
            elif ch == '"':
                pos = json.decoder.scanstring(text, pos + 1)[1]
            else:
                scalar_end = _json_scalar(text, pos, pointer, line, col, index)
                if scalar_end is None:
                    break
                pos = scalar_end
            if not stack:
                break
    except (ValueError, IndexError):
        pass
    return index


def _escaped_key(text: str, pos: int) -> tuple[str, int] | None:
    """Read the key at `pos` (escapes decoded) and its colon: the key and where its value
    starts; None if the text is malformed there."""
    if text[pos] != '"':
        return None
    key, pos = json.decoder.scanstring(text, pos + 1)
    pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
    if pos >= len(text) or text[pos] != ":":
        return None
    return key, _WS.match(text, pos + 1).end()  # type: ignore[union-attr]


def _json_scalar(text: str, pos: int, pointer: str, line: int, col: int, index: PositionIndex) -> int | None:
    """Read the number or constant at `pos` (noting a non-finite number): where it ends,
    None if there is neither."""
    for name in _NONFINITE:
        if text.startswith(name, pos):
            index.irregularities.append(Irregularity("nonfinite-number", pointer, line, col, name))
            return pos + len(name)
    for name in _CONSTANTS:
        if text.startswith(name, pos):
            return pos + len(name)
    match = _NUMBER.match(text, pos)
    if not match:
        return None
    if _overflows(match.group()):
        index.irregularities.append(Irregularity("nonfinite-number", pointer, line, col, match.group()))
    return match.end()


def _overflows(number: str) -> bool:
    """A JSON number literal (`1e999`) that no double holds: Python reads it as infinity."""
    return ("e" in number or "E" in number or "." in number) and float(number) in (float("inf"), float("-inf"))


def _walk_yaml(root: yaml.Node) -> Iterator[tuple[str, yaml.Node, yaml.Node | None]]:
    """Yield (pointer, value node, key node) for every node; aliases are not re-entered."""
    seen: set[int] = set()
    stack: list[tuple[str, yaml.Node, yaml.Node | None]] = [("", root, None)]
    while stack:
        pointer, node, key_node = stack.pop()
        yield pointer, node, key_node
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for k, v in reversed(node.value):
                stack.append((jp.child(pointer, _scalar_key(k)), v, k))
        elif isinstance(node, yaml.SequenceNode):
            for i in range(len(node.value) - 1, -1, -1):
                stack.append((jp.child(pointer, i), node.value[i], None))


def _scalar_key(node: yaml.Node) -> str:
    return str(node.value) if isinstance(node, yaml.ScalarNode) else "<complex key>"


_STR_TAG = "tag:yaml.org,2002:str"
_FLOAT_TAG = "tag:yaml.org,2002:float"


def yaml_positions(text: str, root: yaml.Node | None = None) -> PositionIndex:
    """Record every node's start mark; the nodes are `root` when the parse kept them,
    else composed again from `text` with libyaml."""
    from entrykit.parsing import EntryYamlLoader, YamlLines

    index = PositionIndex()
    place = YamlLines(text)
    loader = EntryYamlLoader("" if root is not None else text)  # (its resolver reads plain scalars below)
    try:
        if root is None:
            root = loader.get_single_node()
    except (yaml.YAMLError, ValueError, RecursionError):
        return index
    finally:
        loader.dispose()
    if root is None:
        return index
    keys_seen: dict[str, set[str]] = {}
    for pointer, node, key_node in _walk_yaml(root):
        line, col = place(node.start_mark.line, node.start_mark.column)
        if key_node is not None:
            key_line, key_col = place(key_node.start_mark.line, key_node.start_mark.column)
            spot = Spot(line, col, key_line, key_col)
            parent = jp.parent(pointer)
            key = _scalar_key(key_node)
            seen = keys_seen.setdefault(parent, set())
            if key in seen and isinstance(key_node, yaml.ScalarNode):
                index.irregularities.append(Irregularity("duplicate-key", pointer, key_line, key_col, key))
            seen.add(key)
            if key_node.tag != _STR_TAG:
                index.irregularities.append(Irregularity("nonstring-key", pointer, key_line, key_col, key))
        else:
            spot = Spot(line, col)
        index.spots.setdefault(pointer, spot)
        if isinstance(node, yaml.ScalarNode) and node.tag == _FLOAT_TAG and _nonfinite_yaml_float(node.value):
            index.irregularities.append(Irregularity("nonfinite-number", pointer, line, col, node.value))
        if key_node is not None and _yaml11_spelling(loader, key_node):
            index.irregularities.append(Irregularity("yaml-1.1-scalar", pointer, key_line, key_col, key_node.value))
        if _yaml11_spelling(loader, node):
            index.irregularities.append(Irregularity("yaml-1.1-scalar", pointer, line, col, node.value))
    return index


def yaml_place(
    root: yaml.Node, place: Any, pointer: str, at_key: bool = False, tables: dict[int, Any] | None = None
) -> tuple[int, int] | None:
    """What `yaml_positions(text, root).locate(pointer, at_key)` gives, found by following
    the pointer down the nodes instead of indexing them all (`place` is the text's
    `YamlLines`). Only for nodes without aliases; None where the pointer passes a key
    written twice (the index settles which place counts). `tables`, kept by the caller
    between calls on one tree, holds each mapping's pairs by key once read."""
    node, key_node = root, None
    tables = {} if tables is None else tables
    if pointer:
        for token in pointer[1:].split("/"):
            found = None
            if isinstance(node, yaml.MappingNode):
                table = tables.get(id(node))
                if table is None:
                    table = tables[id(node)] = _pairs_by_token(node)
                found = table.get(token)
                if found is _WRITTEN_TWICE:
                    return None
            elif (
                isinstance(node, yaml.SequenceNode)
                and token.isdigit()
                and str(int(token)) == token
                and int(token) < len(node.value)
            ):
                found = (None, node.value[int(token)])
            if found is None:
                break  # the nearest ancestor that exists
            key_node, node = found
    mark = key_node.start_mark if at_key and key_node is not None else node.start_mark
    line, col = place(mark.line, mark.column)
    return int(line), int(col)


def top_pairs(root: yaml.Node, tables: dict[int, Any]) -> dict[str, Any] | None:
    """The (key, value) pairs of a mapping root by their keys' pointer tokens (or
    `_WRITTEN_TWICE`), as `yaml_place` reads and keeps them in `tables`; None when the
    root is no mapping."""
    if not isinstance(root, yaml.MappingNode):
        return None
    table = tables.get(id(root))
    if table is None:
        table = tables[id(root)] = _pairs_by_token(root)
    return table


_WRITTEN_TWICE: Any = object()  # a key a mapping holds more than once, in `_pairs_by_token`


def _pairs_by_token(node: yaml.MappingNode) -> dict[str, Any]:
    """Each (key, value) pair of a mapping node by its key's pointer token, or `_WRITTEN_TWICE`."""
    pairs = node.value
    texts = [pair[0].value for pair in pairs]  # (a scalar's value is a text, a collection's a list)
    try:
        joined = "".join(texts)
    except TypeError:  # a key that is no scalar
        joined = "/"
    # Most mappings: keys of plain text, no two alike, that are their own pointer tokens.
    if "~" not in joined and "/" not in joined:
        plain = dict(zip(texts, pairs, strict=True))
        if len(plain) == len(pairs):
            return plain
    return _pairs_by_token_walked(pairs)


def _pairs_by_token_walked(pairs: list[tuple[yaml.Node, yaml.Node]]) -> dict[str, Any]:
    """`_pairs_by_token` of any mapping's pairs, key by key."""
    table: dict[str, Any] = {}
    for pair in pairs:
        key = pair[0]
        text = key.value if type(key) is _SCALAR_NODE and type(key.value) is str else _scalar_key(key)
        if "~" in text or "/" in text:
            text = jp.escape(text)
        table[text] = _WRITTEN_TWICE if text in table else pair
    return table


_SCALAR_NODE = yaml.ScalarNode


def _yaml11_spelling(loader: Any, node: yaml.Node) -> bool:
    """A plain scalar (its type not given by a tag) that YAML 1.1 reads as another value."""
    from entrykit.parsing import YAML11_SPELLING

    return (
        isinstance(node, yaml.ScalarNode)
        and not node.style  # plain: libyaml says '' (PyYAML None)
        and bool(YAML11_SPELLING.match(node.value))
        and node.tag == loader.resolve(yaml.ScalarNode, node.value, (True, False))
    )


def _nonfinite_yaml_float(text: str) -> bool:
    return text.lstrip("+-").lower() in (".inf", ".nan")


def build_index(text: str, fmt: str) -> PositionIndex:
    return json_positions(text) if fmt == "json" else yaml_positions(text)
