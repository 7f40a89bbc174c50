"""Canonical layout of entry files: schema key order, 2-space YAML, one quoting style.

`format_text` is pure (text in, text out) and idempotent. YAML goes through the
ruamel round-trip so comments survive; JSON stays JSON (2-space indent, UTF-8).
"""

from __future__ import annotations

import datetime
import difflib
import io
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import yaml as pyyaml
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.compat import ordereddict
from ruamel.yaml.error import CommentMark, MarkedYAMLError
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString
from ruamel.yaml.tokens import CommentToken

from entrykit import pointer as jp
from entrykit.config import MAX_LIMITS
from entrykit.errors import EntrykitError
from entrykit.loader import Limits, LoadFailure, file_format, load
from entrykit.output_safety import escape
from entrykit.parsing import YAML11_SPELLING, comments, offset_place, parse_yaml
from entrykit.positions import first_nonfinite
from entrykit.roundtrip import finite_float, make_yaml
from entrykit.schema import load_schema

STR_TAG = "tag:yaml.org,2002:str"
# Fields whose translations are `<field>_<locale>` keys (the schema's patternProperties).
TRANSLATED = ("signature", "root_cause", "workarounds", "dead_ends")
_LOCALE = re.compile(r"^[A-Za-z]{2,3}(?:_[A-Za-z0-9]+)*$")


class FormatError(EntrykitError):
    """A file that cannot be formatted because it does not parse; carries a position."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.col = col


# --- key order -------------------------------------------------------------


def translation_of(key: str, properties: Iterable[str]) -> str | None:
    """The source field if `key` is `<field>_<locale>` for a translated field, else None."""
    if key in properties:
        return None
    for source in TRANSLATED:
        prefix = source + "_"
        if key.startswith(prefix) and _LOCALE.match(key[len(prefix) :]):
            return source
    return None


def canonical_keys(keys: Iterable[str], node: Mapping[str, Any] | None) -> list[str]:
    """`keys` in schema order; translations right after their field (by locale); unknown keys last."""
    keys = list(keys)
    properties = list((node or {}).get("properties", {}))
    if not properties:
        return keys
    rank = {name: index for index, name in enumerate(properties)}
    top_level = "signature" in rank and "root_cause" in rank

    def sort_key(item: tuple[int, str]) -> tuple[int, int, str, int]:
        position, key = item
        if key in rank:
            return (0, rank[key], "", position)
        source = translation_of(key, rank) if top_level else None
        if source is not None and source in rank:
            return (0, rank[source], key, position)
        return (1, 0, "", position)

    return [key for _, key in sorted(enumerate(keys), key=sort_key)]


def _object_branch(node: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The sub-schema describing objects: the node itself, or its object `oneOf`/`anyOf` branch."""
    if not node:
        return None
    if "properties" in node:
        return node
    for keyword in ("oneOf", "anyOf"):
        for branch in node.get(keyword, []):
            if isinstance(branch, Mapping) and "properties" in branch:
                return branch
    return None


def _child_schema(node: Mapping[str, Any] | None, key: str) -> Mapping[str, Any] | None:
    if not node:
        return None
    found = node.get("properties", {}).get(key)
    if found is None:
        for pattern, sub in node.get("patternProperties", {}).items():
            if re.search(pattern, key):
                return sub
    return found


def order_data(data: Any, node: Mapping[str, Any] | None) -> Any:
    """Plain data with every mapping's keys in canonical order (for JSON and for new entries)."""
    branch = _object_branch(node)
    if isinstance(data, dict):
        ordered = canonical_keys(data, branch)
        return {k: order_data(data[k], _child_schema(branch, k)) for k in ordered}
    if isinstance(data, list):
        items = (node or {}).get("items") if isinstance(node, Mapping) else None
        return [order_data(item, items) for item in data]
    return data


# --- scalar style ----------------------------------------------------------

_RESOLVER_12 = VersionedResolver()
_RESOLVER_11 = pyyaml.resolver.Resolver()


def _resolves_to_string(text: str) -> bool:
    """True when a plain scalar reads back as this string in YAML 1.2 *and* YAML 1.1 (as
    ET006 reads 1.1: `y` and `n` are booleans there, which PyYAML's resolver misses)."""
    if YAML11_SPELLING.match(text) is not None or _RESOLVER_12.resolve(ScalarNode, text, (True, False)) != STR_TAG:
        return False
    return bool(_RESOLVER_11.resolve(pyyaml.ScalarNode, text, (True, False)) == STR_TAG)


_ANALYSER = make_yaml()  # its emitter decides what a scalar may look like, as when dumping


def _analysis(text: str) -> Any:
    return _ANALYSER.emitter.analyze_scalar(text)


# What YAML readers take for a line break besides LF: in a block a NEL or a line or
# paragraph separator would end the line (and a lone CR too), so the text read back would
# differ; in double quotes each is written as an escape.
_OTHER_BREAK = re.compile("[\r\x85\u2028\u2029]")


def styled(text: str) -> str:
    """The string as it should be emitted: plain where YAML allows, a literal block for
    multi-line text that a block can hold exactly, double quotes otherwise."""
    if "\n" in text:
        lines = text.split("\n")
        block_safe = (
            not text.startswith((" ", "\t"))
            and _OTHER_BREAK.search(text) is None
            and all(line == line.rstrip() for line in lines)
            and "\t" not in text
            and _analysis(text).allow_block
            and not text.endswith("\n\n")
        )
        return LiteralScalarString(text) if block_safe else DoubleQuotedScalarString(text)
    analysis = _analysis(text)
    plain = "".join([text])  # a plain `str`, whatever style the text was loaded with
    if text and analysis.allow_block_plain and _resolves_to_string(text):
        return plain
    return DoubleQuotedScalarString(plain)


def _scalar(value: Any) -> Any:
    """Strings restyled; dates (which YAML would read as timestamps) become quoted strings."""
    if isinstance(value, str):
        return styled(value)
    if isinstance(value, (datetime.date, datetime.datetime)):
        return DoubleQuotedScalarString(value.isoformat())
    if isinstance(value, float):
        return float(value)  # Python's shortest exact form (ruamel's own can lose digits)
    return value


# --- comments --------------------------------------------------------------


def _split_token(token: CommentToken | None) -> tuple[str, list[str]]:
    """(end-of-line part, following full-line comment lines) of a ruamel comment token."""
    if token is None or not isinstance(token.value, str):
        return "", []
    value = token.value
    if value.startswith("\n"):
        head, rest = "", value[1:]
    else:
        head, _, rest = value.partition("\n")
        head = head + "\n"
    lines = [line for line in rest.split("\n") if line.strip()]
    return head, lines


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _deepest_slot(node: Any, key: Any) -> tuple[dict[Any, Any], Any, int]:
    """Where the comment after a mapping value is stored: (ca.items, key, slot), deepest last."""
    value = node[key]
    if isinstance(value, CommentedMap) and len(value):
        return _deepest_slot(value, list(value)[-1])
    if isinstance(value, CommentedSeq) and len(value):
        return _deepest_seq_slot(value)
    return node.ca.items, key, 2


def _deepest_seq_slot(seq: CommentedSeq) -> tuple[dict[Any, Any], Any, int]:
    index = len(seq) - 1
    value = seq[index]
    if isinstance(value, CommentedMap) and len(value):
        return _deepest_slot(value, list(value)[-1])
    if isinstance(value, CommentedSeq) and len(value):
        return _deepest_seq_slot(value)
    return seq.ca.items, index, 0


def _get_token(slot: tuple[dict[Any, Any], Any, int]) -> CommentToken | None:
    items, key, index = slot
    entry = items.get(key)
    return entry[index] if entry and len(entry) > index else None


def _set_text(slot: tuple[dict[Any, Any], Any, int], head: str, lines: list[str]) -> None:
    items, key, index = slot
    text = (head or "\n") + "".join(line + "\n" for line in lines)
    token = _get_token(slot)
    if text == "\n":
        if token is not None:
            items[key][index] = None
        return
    if token is None:
        entry = items.setdefault(key, [None, None, None, None])
        while len(entry) <= index:
            entry.append(None)
        entry[index] = CommentToken(text, CommentMark(0), None)
    else:
        token.value = text


def _keep_comment_gaps(data: CommentedMap, lines: list[str]) -> None:
    """Each end-of-line comment keeps the spaces written before it, wherever the text before
    it now ends: ruamel writes one at the column it was read at, so a key or value written
    shorter (`"id":` unquoted) would leave it further away, and a longer one one space off."""
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, (CommentedMap, CommentedSeq)):
            stack.extend(node.values() if isinstance(node, CommentedMap) else node)
            tokens = [t for entry in node.ca.items.values() for t in (entry or ())]
            tokens.append(node.ca.comment[0] if node.ca.comment else None)
            for token in tokens:
                if isinstance(token, CommentToken):
                    _keep_gap(token, lines)


def _keep_gap(token: CommentToken, lines: list[str]) -> None:
    value, mark = token.value, token.start_mark
    line, column = getattr(mark, "line", None), getattr(mark, "column", None)
    if (
        not isinstance(value, str)
        or value.startswith("\n")
        or line is None
        or column is None
        or not 0 <= line < len(lines)
    ):
        return
    before = _columns(lines[line], column)
    gap = len(before) - len(before.rstrip())
    if not before.strip() or gap < 1:
        return  # (a comment on a line of its own)
    # Read at column 0, ruamel writes one space before the comment: the rest are its own.
    token.value = " " * (gap - 1) + value
    mark.column = 0  # (the token's own mark: the scanner makes one per token)


def _columns(line: str, column: int) -> str:
    """The first `column` columns of `line` as ruamel counts them: a byte order mark takes none."""
    taken = 0
    for at, char in enumerate(line):
        if taken == column:
            return line[:at]
        taken += char != "\ufeff"
    return line


def _following(
    node: CommentedMap, key: Any, column: int
) -> tuple[tuple[dict[Any, Any], Any, int], str, list[str], list[str]]:
    """The comment slot after `key`'s value, its end-of-line part, and its full-line
    comments split into those inside the value and those at this mapping's level."""
    slot = _deepest_slot(node, key)
    head, lines = _split_token(_get_token(slot))
    if slot[0] is node.ca.items:
        return slot, head, [], lines
    cut = next((i for i, line in enumerate(lines) if _indent(line) <= column), len(lines))
    return slot, head, lines[:cut], lines[cut:]


def _take_following(node: CommentedMap, key: Any, column: int) -> list[str]:
    """Remove and return the full-line comments after `key`'s value that belong to the
    key that follows it (those at this mapping's indentation or less)."""
    slot, head, inner, mine = _following(node, key, column)
    if mine:
        _set_text(slot, head, inner)
    return mine


def _comment_lines(node: CommentedMap) -> bool:
    """True if any full-line comment sits between this mapping's keys."""
    column = node.lc.col or 0
    for key in list(node)[:-1]:
        if _following(node, key, column)[3]:
            return True
    return any(len(entry) > 1 and entry[1] for entry in node.ca.items.values() if entry)


def _reorder(node: CommentedMap, order: list[str], root: bool) -> None:
    """Put `node`'s keys in `order`, moving each full-line comment with the key it precedes."""
    keys = list(node)
    if keys == order:
        return
    if not root and _comment_lines(node):
        # ruamel cannot place a comment before a nested key reliably; never move one to a
        # wrong line (a suppression comment applies to the next line): keep this order.
        return
    column = node.lc.col or 0
    before: dict[Any, list[str]] = {}
    for previous, key in pairwise(keys):
        lines = _take_following(node, previous, column)
        if lines:
            before[key] = lines
    trailing = _take_following(node, keys[-1], column)
    values = [(key, node[key]) for key in keys]
    comments = {key: node.ca.items.get(key) for key in keys}
    lookup = dict(values)
    for key in keys:
        del node[key]
    for key in order:
        node[key] = lookup[key]
        if comments.get(key) is not None:
            node.ca.items[key] = comments[key]
    for key, lines in before.items():
        entry = node.ca.items.setdefault(key, [None, None, None, None])
        entry[1] = [CommentToken("".join(line + "\n" for line in lines), CommentMark(0), None)]
    if trailing:
        slot = _deepest_slot(node, order[-1])
        head, lines = _split_token(_get_token(slot))
        _set_text(slot, head, lines + trailing)


def _plain_keys(node: CommentedMap) -> None:
    """Every key in `styled` style, in place: a key keeps the quotes it was written with
    (`"id":`, as JSON pasted into YAML has them) unless it is put back as a new object.
    Comments and positions are keyed by the key's text, which stays the same."""
    keys = list(node)
    wanted = [_key_style(key) for key in keys]
    if all(type(new) is type(old) for new, old in zip(wanted, keys, strict=True)):
        return
    values = [node[key] for key in keys]
    for key in keys:
        ordereddict.__delitem__(node, key)
    for key, value in zip(wanted, values, strict=True):
        ordereddict.__setitem__(node, key, value)


def _key_style(key: str) -> str:
    # (a key cannot be a block scalar: one with a line break stays in double quotes)
    return DoubleQuotedScalarString(key) if "\n" in key else styled(key)


def _assign(node: Any, key: Any, value: Any) -> None:
    """Set a value without ruamel carrying the old scalar's quoting over to the new one."""
    if isinstance(node, CommentedMap):
        ordereddict.__setitem__(node, key, value)
    else:
        list.__setitem__(node, key, value)


def _restyle(node: Any, schema: Mapping[str, Any] | None, root: bool = False) -> None:
    """Canonical order, block style and scalar style, in place, below `node`."""
    branch = _object_branch(schema)
    if isinstance(node, CommentedMap):
        _reorder(node, canonical_keys(list(node), branch), root)
        _plain_keys(node)
        if len(node):
            node.fa.set_block_style()
        for key in list(node):
            value = node[key]
            if isinstance(value, (CommentedMap, CommentedSeq)):
                _restyle(value, _child_schema(branch, key) if isinstance(key, str) else None)
            else:
                _assign(node, key, _scalar(value))
    elif isinstance(node, CommentedSeq):
        if len(node):
            node.fa.set_block_style()
        items = schema.get("items") if isinstance(schema, Mapping) else None
        for index, value in enumerate(node):
            if isinstance(value, (CommentedMap, CommentedSeq)):
                _restyle(value, items)
            else:
                _assign(node, index, _scalar(value))


# --- entry points ----------------------------------------------------------


@dataclass(frozen=True)
class Formatted:
    """The result of formatting one text."""

    text: str
    changed: bool


def _check_keys(data: CommentedMap) -> None:
    """FormatError at the first key that is not a string: there is no canonical place for it."""
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, CommentedMap):
            for key, value in node.items():
                if not isinstance(key, str):
                    line, col = node.lc.key(key) if key in node.lc.data else (0, 0)
                    raise FormatError(f"key `{key}` is not a string; quote it", line + 1, col + 1)
                stack.append(value)
        elif isinstance(node, CommentedSeq):
            stack.extend(node)


_LINE_BREAK = re.compile(r"\r\n?")


def format_yaml(text: str, schema: Mapping[str, Any]) -> str:
    yaml = make_yaml(2, 4, 2)
    # Line breaks as `fmt` writes them: YAML reads a CR or CR LF as LF everywhere but in a
    # comment, whose text would keep its CR and end its line differently from the rest.
    text = _LINE_BREAK.sub("\n", text)
    try:
        data = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise FormatError(f"cannot parse YAML: {exc.problem or exc}", line, col) from None
    except Exception as exc:  # ruamel raises a handful of non-marked errors too
        raise FormatError(f"cannot parse YAML: {exc}") from None
    if not isinstance(data, CommentedMap):
        raise FormatError("expected a mapping of fields at the top")
    _check_keys(data)
    _restyle(data, schema, root=True)
    _keep_comment_gaps(data, text.split("\n"))
    stream = io.StringIO()
    yaml.dump(data, stream)
    return reindent_comments(stream.getvalue())


_BLOCK_HEADER = re.compile(r"(?:^|[\s:-])[|>][-+0-9]*\s*(?:#.*)?$")


def reindent_comments(text: str) -> str:
    """Indent each full-line comment like the line it precedes (the line a suppression
    comment applies to), whatever layout the file had before; block scalars untouched."""
    lines = text.split("\n")
    out = list(lines)
    block_indent: int | None = None
    pending: list[int] = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None:
            if not stripped or indent > block_indent:
                continue
            block_indent = None
        if not stripped:
            continue
        if stripped.startswith("#"):
            pending.append(index)
            continue
        for held in pending:
            out[held] = " " * indent + lines[held].strip()
        pending = []
        if _BLOCK_HEADER.search(line):
            block_indent = indent
    for held in pending:
        out[held] = lines[held].strip()
    return "\n".join(out)


def format_json(text: str, schema: Mapping[str, Any]) -> str:
    try:
        data = json.loads(text, object_pairs_hook=_unique_pairs, parse_float=finite_float)
    except json.JSONDecodeError as exc:
        raise FormatError(f"cannot parse JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:
        if "not a finite number" in str(exc):
            raise _overflow(text) from None
        raise FormatError(str(exc)) from None
    if not isinstance(data, dict):
        raise FormatError("expected an object of fields at the top")
    return json.dumps(order_data(data, schema), indent=2, ensure_ascii=False) + "\n"


def _overflow(text: str) -> FormatError:
    """Where a JSON number no double holds (`1e999`) is: written back it would be `Infinity`."""
    where = first_nonfinite(text)
    number = f"`{where.detail}` " if where else "a number "
    line, col = (where.line, where.col) if where else (1, 1)
    return FormatError(f"{number}is not a finite number, which JSON cannot hold (ET005)", line, col)


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"cannot format: duplicate key `{key}`")
        result[key] = value
    return result


def format_text(text: str, fmt: str, schema: Mapping[str, Any] | None = None) -> Formatted:
    """Format an entry file's text (`fmt` is "yaml" or "json"); raises FormatError, also
    when the formatted YAML would not keep what the text holds (`_check_kept`)."""
    schema = schema if schema is not None else load_schema()
    if fmt == "json":
        result = format_json(text, schema)
    else:
        result = format_yaml(text, schema)
        if result != text:
            _check_kept(text, result, schema)
    return Formatted(result, result != text)


def _check_kept(original: str, formatted: str, schema: Mapping[str, Any]) -> None:
    """FormatError unless `formatted` reads back as the same data as `original` (as lint
    reads entries: YAML 1.2, timestamps as written), holds each of its comments, and
    formats to itself: a layout the round trip gets wrong leaves the file as it is."""
    # (as deep as any configuration allows: the file's own limit was applied when it was read)
    deepest = MAX_LIMITS["max_nesting"]
    before = parse_yaml(_LINE_BREAK.sub("\n", original), max_nesting=deepest)
    after = parse_yaml(formatted, max_nesting=deepest)
    if after.problem is not None or after.data != before.data:
        where = _first_difference(before.data, after.data) if after.problem is None else ""
        what = f"the value at `{where or '/'}`" if after.problem is None else "the file into one YAML cannot read"
        raise FormatError(f"formatting would change {what}; the file is left as it is")
    written = comments(original) or []
    kept = Counter(comment for _, comment in comments(formatted) or [])
    for at, comment in written:
        if kept[comment] <= 0:
            line, col = offset_place(original, at)
            raise FormatError(
                f"formatting would drop the comment `{comment[:40]}`; the file is left as it is", line, col
            )
        kept[comment] -= 1
    if written and format_yaml(formatted, schema) != formatted:
        raise FormatError("formatting would not settle (comments around flow collections); the file is left as it is")


def _first_difference(left: Any, right: Any, at: str = "") -> str:
    """The JSON pointer of the first place two documents differ ("" for the whole)."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in [*left, *(k for k in right if k not in left)]:
            if key not in left or key not in right:
                return jp.child(at, key)
            if left[key] != right[key]:
                return _first_difference(left[key], right[key], jp.child(at, key))
    elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            if a != b:
                return _first_difference(a, b, jp.child(at, index))
    return at


@dataclass(frozen=True)
class FileResult:
    """One file's original text and its formatted text (or the reason it has none)."""

    path: Path
    original: str
    formatted: str | None
    error: FormatError | None = None

    @property
    def changed(self) -> bool:
        return self.formatted is not None and self.formatted != self.original


def format_file(
    path: Path, schema: Mapping[str, Any] | None = None, limits: Limits | None = None, within: Path | None = None
) -> FileResult:
    """Read and format one entry file; never raises for bad content (see `error`).

    The file passes the loader's checks first (a regular file within the size,
    nesting and alias limits, UTF-8, no disallowed tags, a mapping at the top), so
    the round-trip parser only ever sees what `lint` accepts as an entry.
    """
    loaded = load(path, str(path), limits or Limits(), within=within)
    if isinstance(loaded, LoadFailure):
        return FileResult(path, "", None, FormatError(loaded.message, loaded.line, loaded.col))
    text = loaded.text
    try:
        return FileResult(path, text, format_text(text, file_format(path), schema).text)
    except FormatError as exc:
        return FileResult(path, text, None, exc)


def unified_diff(result: FileResult, shown: str) -> str:
    """A unified diff from the file as it is to the file as `fmt` would write it."""
    if result.formatted is None:
        return ""
    return "".join(
        difflib.unified_diff(
            result.original.splitlines(keepends=True),
            result.formatted.splitlines(keepends=True),
            fromfile=f"{escape(shown)}\t(original)",  # a file's name can hold a line break
            tofile=f"{escape(shown)}\t(formatted)",
        )
    )


def _commented(data: Any) -> Any:
    if isinstance(data, Mapping):
        node = CommentedMap()
        for key, value in data.items():
            ordereddict.__setitem__(node, key, _commented(value))
        return node
    if isinstance(data, list):
        return CommentedSeq(_commented(item) for item in data)
    return data


def dump_entry(data: Mapping[str, Any], fmt: str = "yaml", modeline: str | None = None) -> str:
    """A new entry file's text in the canonical layout, from plain data (what `fmt` would
    write for it, without parsing text first)."""
    schema = load_schema()
    ordered = order_data(dict(data), schema)
    if fmt == "json":
        return json.dumps(ordered, indent=2, ensure_ascii=False) + "\n"
    node = _commented(ordered)
    _restyle(node, schema, root=True)
    stream = io.StringIO()
    if modeline:
        stream.write(f"# yaml-language-server: $schema={modeline}\n")
    make_yaml(2, 4, 2).dump(node, stream)
    return stream.getvalue()
