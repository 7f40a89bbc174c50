"""An entry as a Markdown page for reviewers, in the layout of a deadends.dev error page.

The page is written so that `importers.markdown` reads every field it shows back
exactly: text is backslash-escaped, values with line breaks or edge whitespace go
in fenced code blocks, rates are printed as exact percentages. A line break is one
wherever Markdown reads one (LF, CR LF, CR): entry text never starts a block of the
page, and outside table cells each comes back as a line feed.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, TypeGuard

from babel import Locale, UnknownLocaleError

from entrykit.markdown_text import code_span
from entrykit.parsing import line_spans

NONE = "—"  # an absent value in a table or the header
SEPARATOR = " · "
# What the page shows, in its order: the header line, the stats table, a version row.
HEADER_FIELDS = ("domain", "category", "verification_tier", "resolvable")
STATS_HEADINGS = ("Fix Rate", "Confidence", "Evidence", "First Seen")
VERSION_HEADINGS = ("Version", "Status", "Introduced", "Deprecated", "Notes")
VERSION_FIELDS = ("version", "status", "introduced", "deprecated", "behavior_change")
NULLABLE_VERSION_FIELDS = ("introduced", "deprecated", "behavior_change")  # a null one is shown as `—`
_ESCAPED = set("\\`*_[]<|#~&$")
_LINE_START = re.compile(r"^(?:[-+=>]|\d+[.)])")
# What pads a table cell's text: the importer strips it from a cell's edges, so
# `escape_cell` writes it there as character references. Only these: a cell's other edge
# characters (U+00A0, U+3000, U+2028, ...) are its value's, written and read as they are.
CELL_PADDING = " \t"
_ENTITIES = {" ": "&#32;", "\t": "&#9;"}
# The largest count the page shows: 15 digits, which every JSON reader (doubles too) holds exactly.
MAX_COUNT = 10**15 - 1


class BadValue(ValueError):
    """Page text that no entry value reads from (a rate beyond 0% to 100%, a character
    reference to no character a value holds): the importer reports it at its line."""


# --- the text codec shared with the Markdown importer ----------------------


def _breaks_line(text: str) -> bool:
    """Whether `text` holds a line break as Markdown reads one (CommonMark: LF, CR LF or CR)."""
    return "\n" in text or "\r" in text


def text_lines(text: str) -> list[str]:
    """The lines of `text`, split at every line break Markdown reads."""
    return [text[start:end] for start, end in line_spans(text)]


def needs_block(text: str) -> bool:
    """Whether a value must go in a code block to come back exactly."""
    return text == "" or _breaks_line(text) or text != text.strip() or "\t" in text


def escape(text: str) -> str:
    """One line of text as Markdown that shows (and reads back as) exactly that text."""
    out = "".join("\\" + char if char in _ESCAPED else char for char in text)
    match = _LINE_START.match(out)
    if match:
        end = match.end()
        out = out[: end - 1] + "\\" + out[end - 1 :]
    return out


def unescape(text: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def escape_cell(value: Any) -> str:
    """A table cell: `—` for null; line breaks as `<br>`, edge spaces as entities."""
    if value is None:
        return NONE
    text = str(value)
    if text == NONE:
        return "&#8212;"
    body = escape(text).replace("\r", "&#13;").replace("\n", "<br>")
    core = body.strip(CELL_PADDING)
    start = body.find(core) if core else len(body)
    head, tail = body[:start], body[start + len(core) :]
    edge = "".join(_ENTITIES[c] for c in head), "".join(_ENTITIES[c] for c in tail)
    return edge[0] + core.replace("\t", "&#9;") + edge[1]


_CELL_TOKEN = re.compile(r"\\([!-/:-@\[-`{-~])|<br>|&#([0-9]+);")
_CELL_CONTROLS = "\t\n\r"  # the only control characters a cell holds (`escape_cell` writes them)


def unescape_cell(cell: str) -> str | None:
    """The value of a table cell (None for `—`); BadValue for a character reference to no
    character a value holds."""
    if cell == NONE:
        return None

    def token(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return match.group(1)
        if match.group(2) is not None:
            return _referenced(match.group(2))
        return "\n"

    return _CELL_TOKEN.sub(token, cell)


def _clipped(text: str) -> str:
    """Page text for a message: its first 20 characters."""
    return text if len(text) <= 20 else text[:20] + "…"


def _referenced(digits: str) -> str:
    """The character `&#<digits>;` names: a code point that is no surrogate half (which no
    UTF-8 file holds) and no control character but a tab or line break."""
    number = digits.lstrip("0") or "0"
    code = int(number) if len(number) <= 7 else None  # (int() of thousands of digits is refused)
    if code is not None and code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
        char = chr(code)
        if unicodedata.category(char) != "Cc" or char in _CELL_CONTROLS:
            return char
    raise BadValue(f"`&#{_clipped(digits)};` is no character a value holds")


_BACKTICKS = re.compile(r"`+")


def code_span_end(line: str, start: int) -> int | None:
    """Where the code span opening at `start` ends (after the first backtick run as long as
    its opening one), or None if none opens or closes there. Read by runs of backticks, not
    by a backtracking regex, so that a line of thousands of backticks is read in one pass."""
    opening = _BACKTICKS.match(line, start)
    if opening is None:
        return None
    width = len(opening.group())
    return next((run.end() for run in _BACKTICKS.finditer(line, opening.end()) if len(run.group()) == width), None)


def read_code_span(text: str) -> str | None:
    """The text of `text` if it is one code span as `code_span` writes it, else None."""
    if text == "``":  # what `code_span` writes for empty text
        return ""
    if code_span_end(text, 0) != len(text):
        return None  # no span, or one that ends before the text does
    width = len(text) - len(text.lstrip("`"))
    body = text[width:-width]
    if len(body) >= 2 and body.startswith(" ") and body.endswith(" ") and body.strip():
        body = body[1:-1]
    return body


def code_block(text: str, indent: str = "") -> list[str]:
    """A fenced block holding `text`, each of its lines (`text_lines`) indented for a list item."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    body = [indent + line if line else "" for line in text_lines(text)]
    return [f"{indent}{fence}text", *body, f"{indent}{fence}"]


def _is_rate(value: Any) -> bool:
    """A number from 0 to 1, as the schema's rates are."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and 0 <= value <= 1


def percent(rate: Any) -> str:
    """0.855 -> `85.5%`, exactly (the importer divides back without rounding); `—` for
    anything but a rate from 0 to 1, which the importer would refuse."""
    if not _is_rate(rate):
        return NONE
    text = format((Decimal(repr(rate)) * 100).normalize(), "f")
    return f"{text}%"


def rate_from(text: str) -> float | None:
    """The rate a percentage shows (`85.5%` -> 0.855), None for `—`; BadValue for text that
    is no percentage from 0% to 100%."""
    text = text.strip()
    if text == NONE:
        return None
    match = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)%", text)
    if match is None or Decimal(match.group(1)) > 100:
        raise BadValue(f"`{_clipped(text)}` is no rate from 0% to 100%")
    return float(Decimal(match.group(1)) / 100)


def shown_count(value: Any) -> int | None:
    """`value` if it is a count the page shows (0 to `MAX_COUNT`), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT:
        return value
    return None


def count_from(text: str) -> int | None:
    """The count a cell shows, None for `—`; BadValue for text that is no count (ASCII digits
    only: `²` is a digit to `str.isdigit`, and no count)."""
    text = text.strip()
    if text == NONE:
        return None
    if not re.fullmatch(r"[0-9]+", text) or len(text.lstrip("0")) > len(str(MAX_COUNT)):
        raise BadValue(f"`{_clipped(text)}` is no count from 0 to {MAX_COUNT:,}")
    return int(text)


def locale_name(code: str) -> str:
    """The locale's own name for itself (`zh` -> `中文`), or the code."""
    try:
        name = Locale.parse(code).get_display_name(code)
    except (UnknownLocaleError, ValueError, TypeError):
        return code
    return name or code


def steps_heading(code: str) -> str:
    name = locale_name(code)
    return f"{name}步骤 ({code})" if code.split("_")[0] == "zh" else f"Workarounds in {name} ({code})"


# --- the page ----------------------------------------------------------------


def not_an_entry(data: Mapping[str, Any]) -> str | None:
    """Why `data` is no entry to show (a workflow, a package.json), or None.

    An entry being written may still lack fields, but one with neither a `signature`
    nor an `id` string is some other file; a page of it would be a page of nothing.
    """
    if isinstance(data.get("signature"), str) or isinstance(data.get("id"), str):
        return None
    keys = ", ".join(f"`{key}`" for key in sorted(str(k) for k in data)[:3])
    found = f" (its keys: {keys}{', ...' if len(data) > 3 else ''})" if data else ""
    return f"it has neither a `signature` nor an `id`{found}"


def _labelled(label: str, text: str) -> list[str]:
    if needs_block(text):
        return [f"{label}:", "", *code_block(text), ""]
    return [f"{label}: {escape(text)}", ""]


def _paragraph(text: str, indent: str = "") -> list[str]:
    if needs_block(text):
        return code_block(text, indent)
    return [indent + escape(text)]


CONDITION_LABEL = "*Condition:*"  # escaped text never starts with `*`, so the label is unambiguous


def _labelled_item_text(label: str, text: str, indent: str) -> list[str]:
    if needs_block(text):
        return [f"{indent}{label}", "", *code_block(text, indent)]
    return [f"{indent}{label} {escape(text)}"]


def _list_item(
    number: int, prefix: str, text: str, more: Sequence[str] = (), code: str = "", condition: str = ""
) -> list[str]:
    """A numbered item: the text after `prefix`, then paragraphs, a code block, a condition."""
    marker = f"{number}. "
    indent = " " * len(marker)
    lines: list[str]
    if needs_block(text):
        lines = [f"{marker}{prefix}".rstrip(), "", *code_block(text, indent)]
    else:
        lines = [f"{marker}{prefix}{escape(text)}"]
    for extra in more:
        lines += ["", *_paragraph(extra, indent)]
    if code:
        lines += ["", *code_block(code, indent)]
    if condition:
        lines += ["", *_labelled_item_text(CONDITION_LABEL, condition, indent)]
    return lines + [""]


def _single_line(value: Any) -> TypeGuard[str]:
    """Whether `value` is text that fits on one line (a code span, a label): with no line
    break, it can never start a Markdown block (a heading, a list item) of its own."""
    return isinstance(value, str) and not _breaks_line(value)


def _cell_code(value: Any) -> str:
    return code_span(value) if _single_line(value) and value else NONE  # ("``" opens a span, not an empty one)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines + [""]


def _text(item: Mapping[str, Any], key: str) -> str:
    value = item.get(key)
    return value if isinstance(value, str) else ""


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _dicts(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list) else []


def render_entry(entry: Mapping[str, Any], locales: Sequence[str] = ("zh",)) -> str:
    """The entry as a Markdown page; translations shown for `locales` where present."""
    lines = [
        *_header_lines(entry, locales),
        *_stats_lines(entry),
        *_version_lines(entry),
        *_root_cause_lines(entry, locales),
        *_documentation_lines(entry),
        *_workaround_lines(entry, locales),
        *_dead_end_lines(entry, locales),
    ]
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def _header_lines(entry: Mapping[str, Any], locales: Sequence[str]) -> list[str]:
    """The labels line, the signature as the title, the ID, the regex and the translated signatures."""
    lines = [SEPARATOR.join(_cell_code(entry.get(key)) for key in HEADER_FIELDS), ""]
    signature = entry.get("signature")
    signature = signature if isinstance(signature, str) else ""
    if needs_block(signature):
        first = text_lines(signature.strip())[0] if signature.strip() else "(no signature)"
        lines += [f"# {escape(first.strip())} …", "", *code_block(signature), ""]
    else:
        lines += [f"# {escape(signature)}", ""]
    if _single_line(entry.get("id")):
        lines += [f"ID: {code_span(entry['id'])}", ""]
    if isinstance(entry.get("regex"), str):
        regex = entry["regex"]
        lines += [f"Regex: {code_span(regex)}", ""] if _single_line(regex) and regex else _labelled("Regex", regex)
    for code in locales:
        translated = entry.get(f"signature_{code}")
        if isinstance(translated, str):
            lines += _labelled(f"Signature ({locale_name(code)}, {code})", translated)
    return lines


def _stats_lines(entry: Mapping[str, Any]) -> list[str]:
    evidence = entry.get("evidence_count")
    first_seen = entry.get("first_seen")
    stats = [
        percent(entry.get("fix_success_rate")),
        percent(entry.get("confidence")),
        NONE if shown_count(evidence) is None else str(evidence),
        escape_cell(first_seen) if isinstance(first_seen, str) else NONE,
    ]
    return _table(STATS_HEADINGS, [stats])


def _version_lines(entry: Mapping[str, Any]) -> list[str]:
    if not isinstance(entry.get("versions"), list):
        return []
    rows = [[escape_cell(row.get(key)) for key in VERSION_FIELDS] for row in _dicts(entry["versions"])]
    return ["## Version Compatibility", "", *_table(VERSION_HEADINGS, rows)]


def _root_cause_lines(entry: Mapping[str, Any], locales: Sequence[str]) -> list[str]:
    root_cause = entry.get("root_cause")
    if not isinstance(root_cause, str):
        return []
    lines = ["## Root Cause", "", *_paragraph(root_cause), ""]
    kind = entry.get("root_cause_type")
    if _single_line(kind):
        lines += [code_span(kind), ""]
    for code in locales:
        translated = entry.get(f"root_cause_{code}")
        if isinstance(translated, str):
            lines += [f"### {locale_name(code)} ({code})", "", *_paragraph(translated), ""]
    return lines


def _documentation_lines(entry: Mapping[str, Any]) -> list[str]:
    url = entry.get("official_doc_url")
    if not isinstance(url, str):
        return []
    shown = f"<{url}>" if re.fullmatch(r"https?://[^\s<>]+", url) else _paragraph(url)[0]
    lines = ["## Official Documentation", ""]
    return lines + ([shown, ""] if not needs_block(url) else [*code_block(url), ""])


def _workaround_lines(entry: Mapping[str, Any], locales: Sequence[str]) -> list[str]:
    lines = ["## Workarounds", ""]
    for number, item in enumerate(_dicts(entry.get("workarounds")), 1):
        lines += _list_item(
            number,
            f"**{percent(item.get('success_rate'))} success** — ",
            _text(item, "action"),
            code=_text(item, "how"),
            condition=_text(item, "condition"),
        )
    for code in locales:
        steps = entry.get(f"workarounds_{code}")
        if isinstance(steps, list):
            lines += [f"## {steps_heading(code)}", "", *_step_lines(steps)]
    return lines


def _dead_end_lines(entry: Mapping[str, Any], locales: Sequence[str]) -> list[str]:
    lines = ["## Dead Ends", "", "Common approaches that don't work:", ""]
    for number, item in enumerate(_dicts(entry.get("dead_ends")), 1):
        why = _text(item, "why_fails")
        lines += _list_item(
            number,
            f"**{percent(item.get('fail_rate'))} fail** — ",
            _text(item, "action"),
            [why] if why else [],
            condition=_text(item, "condition"),
        )
    for code in locales:
        steps = entry.get(f"dead_ends_{code}")
        if isinstance(steps, list):
            lines += [f"### {locale_name(code)} ({code})", "", *_step_lines(steps)]
    return lines


def _step_lines(steps: list[Any]) -> list[str]:
    """A translated list: its strings, numbered."""
    lines: list[str] = []
    for number, step in enumerate(_strings(steps), 1):
        lines += _list_item(number, "", step, [])
    return lines


def _shown_text(text: str) -> str:
    """Text as the page shows it and the importer reads it back: a CR LF or a CR alone is a
    line break to Markdown, read back as a line feed (a table cell keeps it: `&#13;`)."""
    return "\n".join(text_lines(text))


def shown_fields(entry: Mapping[str, Any], locales: Sequence[str] = ("zh",)) -> dict[str, Any]:
    """The part of `entry` that `render_entry` shows, as the Markdown importer reads it back
    (a version row's unshown `removed` dropped, its empty cells as null; empty `how`,
    `why_fails` and `condition` not shown; line breaks outside table cells as line feeds)."""
    out = _shown_labels(entry)
    out.update(_shown_stats(entry))
    if isinstance(entry.get("versions"), list):
        out["versions"] = [_shown_version(row) for row in _dicts(entry["versions"])]
    out["workarounds"] = _shown_items(entry.get("workarounds"), "success_rate", "how")
    out["dead_ends"] = _shown_items(entry.get("dead_ends"), "fail_rate", "why_fails")
    for code in locales:
        out.update(_shown_translations(entry, code, with_root_cause="root_cause" in out))
    return out


def _shown_labels(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The header labels, the signature, ID and regex, the root cause and its type, the link."""
    out: dict[str, Any] = {key: entry[key] for key in HEADER_FIELDS if _single_line(entry.get(key)) and entry[key]}
    for key in ("signature", "root_cause", "official_doc_url"):
        if isinstance(entry.get(key), str):
            out[key] = _shown_text(entry[key])
    out.setdefault("signature", "")
    if _single_line(entry.get("id")):
        out["id"] = entry["id"]
    if isinstance(entry.get("regex"), str):
        out["regex"] = _shown_text(entry["regex"])
    if "root_cause" in out and _single_line(entry.get("root_cause_type")):
        out["root_cause_type"] = entry["root_cause_type"]
    return out


def _shown_stats(entry: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        key: entry[key] for key in ("fix_success_rate", "confidence") if percent(entry.get(key)) != NONE
    }
    evidence = entry.get("evidence_count")
    if shown_count(evidence) is not None:
        out["evidence_count"] = evidence
    if isinstance(entry.get("first_seen"), str):
        out["first_seen"] = entry["first_seen"]
    return out


def _shown_version(row: Mapping[str, Any]) -> dict[str, Any]:
    shown_row: dict[str, Any] = {}
    for key in VERSION_FIELDS:
        value = row.get(key)
        value = value if value is None or isinstance(value, str) else str(value)
        if value is not None or key in NULLABLE_VERSION_FIELDS:
            shown_row[key] = value
    return shown_row


def _shown_items(items: Any, rate_key: str, more_key: str) -> list[dict[str, Any]]:
    """Workarounds or dead ends: action, rate, and `more_key` and condition where not empty."""
    shown = []
    for item in _dicts(items):
        action = item.get("action")
        shown_item: dict[str, Any] = {"action": _shown_text(action) if isinstance(action, str) else ""}
        if percent(item.get(rate_key)) != NONE:
            shown_item[rate_key] = item[rate_key]
        for key in (more_key, "condition"):
            if isinstance(item.get(key), str) and item[key]:
                shown_item[key] = _shown_text(item[key])
        shown.append(shown_item)
    return shown


def _shown_translations(entry: Mapping[str, Any], code: str, *, with_root_cause: bool) -> dict[str, Any]:
    """The fields translated into `code` (a root cause's only with the root cause)."""
    out: dict[str, Any] = {}
    for field in ("signature", "root_cause"):
        value = entry.get(f"{field}_{code}")
        if isinstance(value, str) and (field == "signature" or with_root_cause):
            out[f"{field}_{code}"] = _shown_text(value)
    for field in ("workarounds", "dead_ends"):
        value = entry.get(f"{field}_{code}")
        if isinstance(value, list):
            out[f"{field}_{code}"] = [_shown_text(step) for step in _strings(value)]
    return out
