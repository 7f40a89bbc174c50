"""Read a page written by `entrykit render` back into an entry (the fields the page shows)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from entrykit.authoring.importers import Imported, ImportProblem
from entrykit.authoring.render import (
    CELL_PADDING,
    CONDITION_LABEL,
    HEADER_FIELDS,
    NONE,
    NULLABLE_VERSION_FIELDS,
    SEPARATOR,
    STATS_HEADINGS,
    VERSION_FIELDS,
    BadValue,
    code_span_end,
    count_from,
    rate_from,
    read_code_span,
    text_lines,
    unescape,
    unescape_cell,
)
from entrykit.loader import Limits, decode, read_entry_bytes

_FENCE = re.compile(r"^(`{3,})text$")
_ITEM = re.compile(r"^(\d+)\. ?")
_LOCALE_HEADING = re.compile(r"^(.*) \(([A-Za-z]{2,3}(?:_[A-Za-z0-9]+)*)\)$")
_RATE_PREFIX = re.compile(r"^\*\*(.+?) (success|fail)\*\* — ?")
_SIGNATURE_LABEL = re.compile(r"^Signature \((.*), ([A-Za-z]{2,3}(?:_[A-Za-z0-9]+)*)\):(?: (.*))?$")


class PageError(Exception):
    """The text is not a page in the rendered layout; carries a 1-based line."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class _Lines:
    """The page's lines with a cursor."""

    lines: list[str]
    pos: int = 0

    def done(self) -> bool:
        return self.pos >= len(self.lines)

    def peek(self) -> str:
        return self.lines[self.pos] if not self.done() else ""

    def take(self) -> str:
        line = self.peek()
        self.pos += 1
        return line

    def skip_blank(self) -> None:
        while not self.done() and self.peek() == "":
            self.pos += 1

    def error(self, message: str) -> PageError:
        return PageError(min(self.pos, len(self.lines) - 1) + 1, message)


@contextmanager
def _at_line(line: int) -> Iterator[None]:
    """A value the page shows that no entry holds (BadValue) as a PageError at `line`."""
    try:
        yield
    except BadValue as exc:
        raise PageError(line, str(exc)) from None


def _code_block(cursor: _Lines, indent: str = "") -> str:
    """The text of the fenced block at the cursor (lines de-indented by `indent`)."""
    opening = cursor.take()
    match = _FENCE.match(opening[len(indent) :]) if opening.startswith(indent) else None
    if match is None:
        raise cursor.error("expected a ```text block")
    fence = indent + match.group(1)
    body: list[str] = []
    while True:
        if cursor.done():
            raise cursor.error("code block is not closed")
        line = cursor.take()
        if line == fence:
            return "\n".join(body)
        body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip(" "))


def _is_fence(line: str, indent: str = "") -> bool:
    return line.startswith(indent) and bool(_FENCE.match(line[len(indent) :]))


def _value(cursor: _Lines, indent: str = "") -> str:
    """A paragraph (one escaped line) or a code block, at the cursor."""
    if _is_fence(cursor.peek(), indent):
        return _code_block(cursor, indent)
    return unescape(cursor.take()[len(indent) :])


def _table(cursor: _Lines, columns: Sequence[str]) -> list[tuple[int, list[str]]]:
    """Rows of the pipe table at the cursor (header and rule skipped), each of the width
    of `columns`, with its line; PageError for a row with more or fewer cells."""
    rows: list[tuple[int, list[str]]] = []
    cursor.take()
    cursor.take()
    while cursor.peek().startswith("|"):
        line_number = cursor.pos + 1
        line = cursor.take().strip()
        cells = [cell.strip(CELL_PADDING) for cell in re.split(r"(?<!\\)\|", line[1:-1])]
        if len(cells) != len(columns):
            raise PageError(line_number, f"the table row has {len(cells)} cells, not {len(columns)}")
        rows.append((line_number, cells))
    return rows


@dataclass
class _Item:
    """A numbered item: the text after its marker, its further values, its condition."""

    line: int
    head: str
    values: list[str]
    condition: str | None = None


def _items(cursor: _Lines) -> list[_Item]:
    """The numbered items at the cursor."""
    items: list[_Item] = []
    while True:
        cursor.skip_blank()
        match = _ITEM.match(cursor.peek())
        if match is None:
            return items
        item_line = cursor.pos + 1
        line = cursor.take()
        indent = " " * len(f"{match.group(1)}. ")
        item = _Item(item_line, line[match.end() :], [])
        while True:
            cursor.skip_blank()
            nxt = cursor.peek()
            if cursor.done() or not nxt.startswith(indent):
                break
            if nxt[len(indent) :].startswith(CONDITION_LABEL):
                label_line = cursor.take()[len(indent) + len(CONDITION_LABEL) :]
                if label_line:
                    item.condition = unescape(label_line[1:])
                else:
                    cursor.skip_blank()
                    item.condition = _code_block(cursor, indent)
                continue
            item.values.append(_value(cursor, indent))
        items.append(item)


def _split_item(item: _Item, kind: str) -> tuple[float | None, str, list[str]]:
    """(rate, action, rest) of a workaround or dead-end item."""
    match = _RATE_PREFIX.match(item.head)
    if match is None or match.group(2) != kind:
        raise PageError(item.line, f"expected an item starting `**N% {kind}** —`")
    with _at_line(item.line):
        rate = rate_from(match.group(1))
    rest = item.head[match.end() :]
    if rest:
        return rate, unescape(rest), item.values
    if not item.values:
        raise PageError(item.line, "item has no text")
    return rate, item.values[0], item.values[1:]


def _plain_items(cursor: _Lines) -> list[str]:
    out = []
    for item in _items(cursor):
        out.append(unescape(item.head) if item.head else (item.values[0] if item.values else ""))
    return out


def _header_parts(line: str) -> list[str]:
    """The header's values, split at the separators between code spans: a value may hold ` · `."""
    parts: list[str] = []
    start = 0
    while True:
        end = start + len(NONE) if line.startswith(NONE, start) else code_span_end(line, start)
        if end is None:
            rest = line[start:].split(SEPARATOR, 1)[0]
            raise PageError(1, f"`{rest[:40]}` is not a code span")
        parts.append(line[start:end])
        if not line.startswith(SEPARATOR, end):
            return parts if end == len(line) else []  # [] is no header: text after a value
        start = end + len(SEPARATOR)


def _header(line: str, entry: dict[str, Any]) -> None:
    parts = _header_parts(line)
    if len(parts) != len(HEADER_FIELDS):
        raise PageError(1, "the first line is not `domain · category · tier · resolvable`")
    for key, part in zip(HEADER_FIELDS, parts, strict=True):
        if part != NONE:
            value = read_code_span(part)
            if value is None:
                raise PageError(1, f"`{part[:40]}` is not a code span")
            entry[key] = value


def parse_page(text: str) -> dict[str, Any]:
    """The entry fields a rendered page shows; PageError if it is not such a page."""
    cursor = _Lines(text_lines(text))
    entry: dict[str, Any] = {}
    cursor.skip_blank()
    _header(cursor.take(), entry)
    cursor.skip_blank()
    title = cursor.take()
    if not title.startswith("# "):
        raise cursor.error("expected the signature as a `# ` title")
    cursor.skip_blank()
    entry["signature"] = _code_block(cursor) if _is_fence(cursor.peek()) else unescape(title[2:])
    _labels(cursor, entry)
    _stats(cursor, entry)
    section = ""
    last_list = ""
    while True:
        cursor.skip_blank()
        if cursor.done():
            break
        line = cursor.take()
        if line.startswith("## "):
            section = line[3:]
            if section in ("Workarounds", "Dead Ends"):
                last_list = section
            _section(cursor, section, entry)
        elif line.startswith("### ") and (found := _LOCALE_HEADING.match(line[4:])):
            code = found.group(2)
            cursor.skip_blank()
            if section == "Root Cause":
                entry[f"root_cause_{code}"] = _value(cursor)
            elif section == "Dead Ends":
                entry[f"dead_ends_{code}"] = _plain_items(cursor)
            else:
                raise cursor.error(f"unexpected translation heading in `{section}`")
        elif section == "Root Cause" and (kind := read_code_span(line)) is not None:
            entry["root_cause_type"] = kind
        else:
            raise cursor.error(f"unexpected line `{line[:40]}`")
    if last_list == "":
        raise cursor.error("no Workarounds section")
    return entry


def _labels(cursor: _Lines, entry: dict[str, Any]) -> None:
    while True:
        cursor.skip_blank()
        line = cursor.peek()
        if line.startswith("ID: "):
            cursor.take()
            entry["id"] = read_code_span(line[4:]) or unescape(line[4:])
        elif line == "Regex:":
            cursor.take()
            cursor.skip_blank()
            entry["regex"] = _code_block(cursor)
        elif line.startswith("Regex: "):
            cursor.take()
            value = read_code_span(line[7:])
            if value is None:
                raise cursor.error("the regex is not a code span")
            entry["regex"] = value
        elif match := _SIGNATURE_LABEL.match(line):
            cursor.take()
            if match.group(3) is None:
                cursor.skip_blank()
                entry[f"signature_{match.group(2)}"] = _code_block(cursor)
            else:
                entry[f"signature_{match.group(2)}"] = unescape(match.group(3))
        else:
            return


def _stats(cursor: _Lines, entry: dict[str, Any]) -> None:
    cursor.skip_blank()
    if not cursor.peek().startswith("| Fix Rate"):
        raise cursor.error("expected the table `| Fix Rate | Confidence | Evidence | First Seen |`")
    line_number = cursor.pos + 1
    rows = _table(cursor, STATS_HEADINGS)
    if len(rows) != 1:
        raise PageError(line_number, f"the table `| Fix Rate | ...` has {len(rows)} rows, not 1")
    row_line, (fix, confidence, evidence, first_seen) = rows[0]
    with _at_line(row_line):
        values = {
            "fix_success_rate": rate_from(fix),
            "confidence": rate_from(confidence),
            "evidence_count": count_from(evidence),
            "first_seen": unescape_cell(first_seen),
        }
    entry.update((key, value) for key, value in values.items() if value is not None)


def _section(cursor: _Lines, name: str, entry: dict[str, Any]) -> None:
    cursor.skip_blank()
    if name == "Version Compatibility":
        rows = _table(cursor, VERSION_FIELDS) if cursor.peek().startswith("|") else []
        versions = []
        for row_line, cells in rows:
            row: dict[str, Any] = {}
            for key, cell in zip(VERSION_FIELDS, cells, strict=True):
                with _at_line(row_line):
                    value = unescape_cell(cell)
                if value is not None or key in NULLABLE_VERSION_FIELDS:
                    row[key] = value
            versions.append(row)
        entry["versions"] = versions
    elif name == "Root Cause":
        entry["root_cause"] = _value(cursor)
    elif name == "Official Documentation":
        line = cursor.peek()
        if line.startswith("<") and line.endswith(">"):
            entry["official_doc_url"] = cursor.take()[1:-1]
        else:
            entry["official_doc_url"] = _value(cursor)
    elif name == "Workarounds":
        entry["workarounds"] = [_list_entry(item, "success", "success_rate", "how") for item in _items(cursor)]
    elif name == "Dead Ends":
        if cursor.peek() == "Common approaches that don't work:":
            cursor.take()
        entry["dead_ends"] = [_list_entry(item, "fail", "fail_rate", "why_fails") for item in _items(cursor)]
    elif found := _LOCALE_HEADING.match(name):
        entry[f"workarounds_{found.group(2)}"] = _plain_items(cursor)
    else:
        raise cursor.error(f"unknown section `{name}`")


def _list_entry(item: _Item, kind: str, rate_key: str, more_key: str) -> dict[str, Any]:
    """A workaround or dead end from its item: rate, action, `how`/`why_fails`, condition."""
    rate, action, rest = _split_item(item, kind)
    out: dict[str, Any] = {"action": action}
    if rate is not None:
        out[rate_key] = rate
    if rest:
        out[more_key] = rest[0]
    if item.condition is not None:
        out["condition"] = item.condition
    return out


def import_pages(paths: Iterable[Path], limits: Limits | None = None) -> tuple[list[Imported], list[ImportProblem]]:
    """Read each page (files, or `*.md` below folders) into an entry."""
    limits = limits or Limits()
    imported: list[Imported] = []
    problems: list[ImportProblem] = []
    for given in paths:
        files = sorted(given.rglob("*.md")) if given.is_dir() else [given]
        for path in files:
            raw = read_entry_bytes(path, limits.file_bytes, given if given.is_dir() else None)  # (no link out of it)
            if isinstance(raw, str):
                problems.append(ImportProblem(path, 1, 1, raw))
                continue
            text, problem = decode(raw)
            if text is None:
                line, col, message = problem or (1, 1, "cannot decode file")
                problems.append(ImportProblem(path, line, col, message))
                continue
            try:
                entry = parse_page(text)
            except PageError as exc:
                problems.append(ImportProblem(path, max(exc.line, 1), 1, f"not a rendered entry page: {exc}"))
                continue
            if "id" not in entry:
                problems.append(ImportProblem(path, 1, 1, "the page shows no `ID:`"))
                continue
            imported.append(Imported(path, entry))
    return imported, problems
