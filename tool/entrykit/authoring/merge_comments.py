"""Comments of merged YAML files: which value each belongs to, and carrying them into the survivor.

A full-line comment belongs to the value on the next line with content (the line a
suppression comment applies to); an end-of-line comment to the value on its line;
comments above the first field to the file. An absorbed file's comment moves to where
its value went in the merged entry (one line above it), unless the survivor has the same
comment beside that value already, if that value survived; the
others are listed in the report, and so is a file-wide suppression (`# entrykit:
disable-file=...`), which would silence the survivor's findings too, and a suppression
whose value went into one the survivor already had (the merged regex, an item merged
with the survivor's), where it would silence the survivor's findings on that value.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from entrykit import pointer as jp
from entrykit.lint.suppressions import is_directive, is_file_wide
from entrykit.parsing import EntryYamlLoader, line_spans


@dataclass(frozen=True)
class Comment:
    """One comment of a file: its text (from `#`), its 1-based line, the value it belongs to."""

    text: str
    line: int
    pointer: str | None  # None: the file as a whole (above the first field)
    end_of_line: bool


def _nodes(text: str) -> list[tuple[str, Any, Any]]:
    loader = EntryYamlLoader(text)
    try:
        root = loader.get_single_node()
    except (yaml.YAMLError, ValueError, RecursionError):
        return []
    finally:
        loader.dispose()
    found: list[tuple[str, Any, Any]] = []
    stack: list[tuple[str, Any, Any]] = [("", root, None)] if root is not None else []
    seen: set[int] = set()
    while stack:
        pointer, node, key = stack.pop()
        found.append((pointer, node, key))
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode):
                    stack.append((jp.child(pointer, k.value), v, k))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                stack.append((jp.child(pointer, index), item, None))
    return found


def line_owners(text: str) -> dict[int, str]:
    """For each 0-based line where a field or list item starts, the outermost pointer starting there."""
    owners: dict[int, str] = {}
    for pointer, node, key in _nodes(text):
        if not pointer:
            continue
        line = key.start_mark.line if key is not None else node.start_mark.line
        known = owners.get(line)
        if known is None or len(jp.split(pointer)) < len(jp.split(known)):
            owners[line] = pointer
    return owners


_LINE_END = re.compile(r"\r\n|\r|\n")


def _scalar_spans(text: str) -> list[tuple[int, int]]:
    """Where each scalar's text is. A block scalar's starts on the line after its header
    (`|`, `>`, their indicators), where a comment may follow the header."""
    spans = []
    for _, node, key in _nodes(text):
        for part in (node, key):
            if isinstance(part, yaml.ScalarNode):
                start = part.start_mark.index
                if part.style in ("|", ">"):
                    header = _LINE_END.search(text, start)
                    start = header.end() if header is not None else part.end_mark.index
                spans.append((start, part.end_mark.index))
    return sorted(spans)


_HASH = re.compile(r"(?:^|(?<=[ \t]))#")


def comments(text: str) -> list[Comment]:
    """Every comment of a YAML text, with the value it belongs to."""
    spans = _scalar_spans(text)
    starts = [s for s, _ in spans]
    owners = line_owners(text)
    first_field = min(owners) if owners else None
    found: list[tuple[int, str, bool]] = []
    for number, (offset, end) in enumerate(line_spans(text)):
        line = text[offset:end]
        for match in _HASH.finditer(line):
            at = offset + match.start()
            place = bisect.bisect_right(starts, at) - 1
            if place >= 0 and spans[place][0] <= at < spans[place][1]:
                continue  # a `#` inside a value
            found.append((number, line[match.start() :].rstrip(), bool(line[: match.start()].strip())))
            break
    out: list[Comment] = []
    for number, body, end_of_line in found:
        if end_of_line:
            owner = owners.get(number) or _owner_above(owners, number)
        elif first_field is None or number < first_field:
            owner = None
        else:
            below = [n for n in owners if n > number]
            owner = owners[min(below)] if below else _owner_above(owners, number)
        out.append(Comment(body, number + 1, owner, end_of_line))
    return out


def _owner_above(owners: dict[int, str], number: int) -> str | None:
    above = [n for n in owners if n <= number]
    return owners[max(above)] if above else None


def insert_comments(text: str, placed: list[tuple[str | None, str]]) -> str:
    """`text` with each (pointer, comment) written on its own line above the value's first
    line, indented like it; pointer None puts the comment at the top of the file."""
    owners = line_owners(text)
    spans = list(line_spans(text))
    lines = [text[start:end] for start, end in spans]
    # each line keeps the break it ends with (LF, CRLF or CR); a comment line takes its neighbour's
    breaks = [text[end:next_start] for (_, end), (next_start, _) in zip(spans, spans[1:], strict=False)] + [""]
    newline = next((b for b in breaks if b), "\n")
    by_pointer: dict[str, int] = {}
    for number, pointer in owners.items():
        by_pointer.setdefault(pointer, number)
    for pointer, _, key in _nodes(text):
        line = key.start_mark.line if key is not None else None
        if line is not None:
            by_pointer.setdefault(pointer, line)
    above: dict[int, list[str]] = {}
    top: list[str] = []
    for where, body in placed:
        if where is None or where not in by_pointer:
            top.append(body)
            continue
        number = by_pointer[where]
        indent = len(lines[number]) - len(lines[number].lstrip(" "))
        above.setdefault(number, []).append(" " * indent + body)
    out: list[str] = []
    head = 0
    while head < len(lines) and lines[head].lstrip().startswith("#"):
        out += [lines[head], breaks[head] or newline]
        head += 1
    out += [part for body in top for part in (body, newline)]
    for number in range(head, len(lines)):
        out += [part for body in above.get(number, []) for part in (body, newline)]
        out += [lines[number], breaks[number]]
    return "".join(out)


@dataclass
class CommentOutcome:
    """What became of the inputs' comments: carried into the survivor, or listed."""

    carried: list[tuple[str, Comment, str | None]]  # (input, comment, pointer in the merged entry)
    lost: list[tuple[str, Comment, str]]  # (input, comment, why)


def carry_comments(
    survivor_text: str,
    inputs: list[tuple[str, str, str]],
    target: Callable[[str, str], str | None],
) -> tuple[str, CommentOutcome]:
    """Put the absorbed inputs' comments into the survivor's (YAML) text where their values
    went. `inputs` are (label, text, format) with the survivor first; `target(label,
    pointer)` is where that input's value is in the merged entry, or None if it is not."""
    outcome = CommentOutcome([], [])
    have = {(c.text, c.pointer) for c in comments(survivor_text)}  # (a comment already beside its value)
    survivors_own = {pointer for pointer, _, _ in _nodes(inputs[0][1])}  # (its values before the merge)
    placed: list[tuple[str | None, str]] = []
    for label, text, fmt in inputs[1:]:
        if fmt != "yaml":
            continue
        for comment in comments(text):
            where = None if comment.pointer is None else target(label, comment.pointer)
            if (comment.text, where) in have:
                outcome.carried.append((label, comment, where))
                continue
            if is_file_wide(comment.text):
                outcome.lost.append((label, comment, "a suppression of the absorbed file: it would hide the merged entry's own findings"))
                continue
            if comment.pointer is not None and where is None:
                outcome.lost.append((label, comment, "the value it belongs to is not in the merged entry"))
                continue
            if is_directive(comment.text) and (where is None or where in survivors_own):
                why = "a suppression of a value merged into the survivor's: it would hide the survivor's findings there"
                outcome.lost.append((label, comment, why))
                continue
            placed.append((where, comment.text))
            have.add((comment.text, where))
            outcome.carried.append((label, comment, where))
    return (insert_comments(survivor_text, placed) if placed else survivor_text), outcome
