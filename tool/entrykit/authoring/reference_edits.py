"""Rewrite `transition_graph` references in an entry file's text, touching only those references.

A merge renames the absorbed ids in every other file that refers to them. Those files are
not the merge's: they keep every byte except the id being rewritten (in the same quoting)
and the list item removed where the rewrite would repeat a reference already there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from entrykit import pointer as jp
from entrykit.authoring.merge import reference_changes, rewrite_references
from entrykit.loader import parse_text
from entrykit.parsing import EntryYamlLoader, line_spans


@dataclass(frozen=True)
class Span:
    """Where a value's text is: [start, end) offsets; `flow` for items of a flow list."""

    start: int
    end: int
    flow: bool = False


def _yaml_spans(text: str) -> dict[str, Span]:
    loader = EntryYamlLoader(text)
    try:
        root = loader.get_single_node()
    finally:
        loader.dispose()
    spans: dict[str, Span] = {}
    stack: list[tuple[str, Any, bool]] = [("", root, False)]
    while stack:
        pointer, node, flow = stack.pop()
        if node is None:
            continue
        spans[pointer] = Span(node.start_mark.index, node.end_mark.index, flow)
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and (pointer or key.value == "transition_graph"):
                    stack.append((jp.child(pointer, key.value), value, False))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                stack.append((jp.child(pointer, index), item, bool(node.flow_style)))
    return spans


_WS = " \t\r\n"


def _json_spans(text: str) -> dict[str, Span]:
    """Spans of every JSON value (an iterative scan; the text is valid JSON)."""
    decoder = json.JSONDecoder()
    spans: dict[str, Span] = {}
    pos = 0

    def skip(at: int) -> int:
        while at < len(text) and text[at] in _WS:
            at += 1
        return at

    # frames: [pointer, kind, next index or key, start]
    stack: list[list[Any]] = []
    pointer = ""
    pos = skip(pos)
    while True:
        pos = skip(pos)
        ch = text[pos]
        if ch in "{[":
            stack.append([pointer, ch, 0, pos])
            pos = skip(pos + 1)
            if text[pos] in "}]":
                frame = stack.pop()
                spans[frame[0]] = Span(frame[3], pos + 1, True)
                pos += 1
            else:
                if ch == "{":
                    key, pos = decoder.raw_decode(text, pos)
                    pos = skip(pos) + 1  # the colon
                    pointer = jp.child(stack[-1][0], key)
                else:
                    pointer = jp.child(stack[-1][0], 0)
                continue
        else:
            _, end = decoder.raw_decode(text, pos)
            spans[pointer] = Span(pos, end, True)
            pos = end
        while stack:
            pos = skip(pos)
            frame = stack[-1]
            if text[pos] == ",":
                pos = skip(pos + 1)
                if frame[1] == "{":
                    key, pos = decoder.raw_decode(text, pos)
                    pos = skip(pos) + 1
                    pointer = jp.child(frame[0], key)
                else:
                    frame[2] += 1
                    pointer = jp.child(frame[0], frame[2])
                break
            stack.pop()
            spans[frame[0]] = Span(frame[3], pos + 1, True)
            pos += 1
        else:
            return spans


def _replacement(token: str, new_id: str, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(new_id, ensure_ascii=False)
    if token[:1] in ("'", '"'):
        return token[0] + new_id + token[0]
    return new_id


def _line_start(text: str, at: int) -> int:
    return max((start for start, _ in line_spans(text) if start <= at), default=0)


def _next_line(text: str, at: int) -> int:
    """Where the line after the one holding `at` starts (the end of `text` on the last line)."""
    return next((start for start, _ in line_spans(text) if start > at), len(text))


def _removal(text: str, spans: dict[str, Span], pointer: str) -> tuple[int, int]:
    """The [start, end) of text that removes the list item at `pointer` cleanly."""
    span = spans[pointer]
    parent, index = jp.parent(pointer), int(jp.split(pointer)[-1])
    after = spans.get(jp.child(parent, index + 1))
    if span.flow:
        if after is not None:
            return span.start, after.start
        before = spans[jp.child(parent, index - 1)]
        return before.end, span.end
    dash = text.rfind("-", 0, span.start)
    start = _line_start(text, dash)
    if after is not None:
        return start, _line_start(text, text.rfind("-", 0, after.start))
    last = span.end
    while last > span.start and text[last - 1] in _WS:
        last -= 1
    return start, _next_line(text, last)


def edit_references(text: str, fmt: str, old_ids: Iterable[str], new_id: str) -> str | None:
    """`text` with its references to `old_ids` rewritten to `new_id`, or None if nothing
    refers to them. Falls back to a round trip only if the surgical edit would not read
    back as the intended data."""
    parsed = parse_text(text, fmt)
    if parsed.problem is not None or not isinstance(parsed.data, dict):
        return None
    old = list(old_ids)
    changes = reference_changes(parsed.data, old, new_id)
    if not changes:
        return None
    spans = _json_spans(text) if fmt == "json" else _yaml_spans(text)
    edits: list[tuple[int, int, str]] = []
    for pointer, value in changes:
        if value is None:
            start, end = _removal(text, spans, pointer)
            edits.append((start, end, ""))
        else:
            span = spans[pointer]
            edits.append((span.start, span.end, _replacement(text[span.start : span.end], value, fmt)))
    edited = text
    for start, end, new in sorted(edits, key=lambda e: e[0], reverse=True):
        edited = edited[:start] + new + edited[end:]
    expected = json.loads(json.dumps(parsed.data))
    rewrite_references(expected, old, new_id)
    check = parse_text(edited, fmt)
    if check.problem is None and check.data == expected:
        return edited
    return _round_trip(text, fmt, old, new_id)


def _round_trip(text: str, fmt: str, old: Sequence[str], new_id: str) -> str:
    from entrykit.roundtrip import load_document

    document = load_document(text, fmt)
    rewrite_references(document.data, old, new_id)
    return document.dump()
