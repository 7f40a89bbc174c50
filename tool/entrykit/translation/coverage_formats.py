"""Formatters for the translation coverage report: text, JSON and Markdown (each whole, or
with `summary`, the coverage table alone)."""

from __future__ import annotations

import json
from itertools import groupby
from typing import Any, Protocol

from entrykit.markdown_text import code_span, plain
from entrykit.output_safety import escape
from entrykit.translation.coverage import STATUSES, CoverageReport, Task


class Formatter(Protocol):
    def __call__(self, report: CoverageReport, summary: bool = False) -> str: ...


_COLUMNS = ("present", *STATUSES)


def _locale_label(report: CoverageReport, locale: str) -> str:
    return locale if locale in report.required else f"{locale} (optional)"


def _heading(report: CoverageReport) -> str:
    tracked = "" if report.track_source else "; staleness not tracked (translation.track_source)"
    names = ", ".join(_locale_label(report, loc) for loc in report.locales) or "none"
    return f"Translation coverage of {report.entries} entries in {names}{tracked}."


def _by_entry(tasks: tuple[Task, ...]) -> list[tuple[tuple[str, str | None], list[Task]]]:
    return [(key, list(group)) for key, group in groupby(tasks, key=lambda t: (t.path, t.entry_id))]


def _task_text(task: Task) -> str:
    return f"{escape(task.locale)} {escape(task.field)}: {task.status}"


def _work_text(tasks: tuple[Task, ...]) -> list[str]:
    if not tasks:
        return ["Nothing to work on."]
    lines = [f"To work on ({len(tasks)} translations in {len(_by_entry(tasks))} entries):"]
    for (path, entry_id), items in _by_entry(tasks):
        lines.append(f"  {escape(path)}" + (f" ({escape(entry_id)})" if entry_id else ""))
        lines += [f"    {_task_text(task)}: {escape(task.detail)}" for task in items]
    return lines


def render_text(report: CoverageReport, summary: bool = False) -> str:
    """A table per locale and field, then the entries to work on (not with `summary`)."""
    lines = [_heading(report), ""]
    header = ["locale", "field", "total", *_COLUMNS]
    rows = [header]
    for cell in report.cells:
        counts = {"present": cell.present, "missing": cell.missing, "untranslated": cell.untranslated, "stale": cell.stale}
        rows.append(
            [escape(cell.locale), escape(cell.field), str(cell.total)]
            + [f"{counts[c]} ({cell.percent(counts[c]):.1f}%)" for c in _COLUMNS]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        lines.append("  ".join(v.ljust(w) if i < 2 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths, strict=True))).rstrip())
    if not summary:
        lines += ["", *_work_text(report.tasks)]
    elif report.skipped:
        lines.append("")
    for path, why in report.skipped:
        lines.append(f"skipped {escape(path)}: {escape(why)}")
    return "\n".join(lines) + "\n"


def as_data(report: CoverageReport, summary: bool = False) -> dict[str, Any]:
    """The report as JSON-ready data (the documented `--format json` shape; no `work`
    with `summary`)."""
    data = {
        "entries": report.entries,
        "required": list(report.required),
        "track_source": report.track_source,
        "locales": list(report.locales),
        "fields": list(report.fields),
        "coverage": [
            {
                "locale": c.locale,
                "field": c.field,
                "required": c.required,
                "total": c.total,
                "present": c.present,
                "missing": c.missing,
                "untranslated": c.untranslated,
                "stale": c.stale,
                "current": c.current,
                "percent": {
                    name: c.percent(getattr(c, name)) for name in ("present", *STATUSES, "current")
                },
            }
            for c in report.cells
        ],
        "work": [
            {
                "path": t.path,
                "id": t.entry_id,
                "locale": t.locale,
                "field": t.field,
                "status": t.status,
                "detail": t.detail,
            }
            for t in report.tasks
        ],
        "skipped": [{"path": p, "reason": why} for p, why in report.skipped],
    }
    if summary:
        del data["work"]
    return data


def render_json(report: CoverageReport, summary: bool = False) -> str:
    return json.dumps(as_data(report, summary), indent=2, ensure_ascii=False) + "\n"


def _code(text: str) -> str:
    """Entry-derived text as a code span on one line of a Markdown table or list (`|` escaped:
    a table cell ends at one even inside a code span)."""
    return code_span(escape(text)).replace("|", "\\|") if text else "—"


def render_markdown(report: CoverageReport, summary: bool = False) -> str:
    """A Markdown page: the coverage table and a checklist of entries to work on (not
    with `summary`)."""
    lines = ["# Translation coverage", "", _heading(report), ""]
    lines.append("| Locale | Field | Total | " + " | ".join(c.capitalize() for c in _COLUMNS) + " |")
    lines.append("|---|---|---:|" + "---:|" * len(_COLUMNS))
    for cell in report.cells:
        counts = {"present": cell.present, "missing": cell.missing, "untranslated": cell.untranslated, "stale": cell.stale}
        values = " | ".join(f"{counts[c]} ({cell.percent(counts[c]):.1f}%)" for c in _COLUMNS)
        lines.append(f"| {plain(_locale_label(report, cell.locale))} | {_code(cell.field)} | {cell.total} | {values} |")
    if not summary:
        lines += ["", "## To work on", ""]
    if not report.tasks and not summary:
        lines.append("Nothing to work on.")
    for (path, entry_id), tasks in _by_entry(() if summary else report.tasks):
        lines.append(f"- [ ] {_code(path)}" + (f" ({plain(entry_id)})" if entry_id else ""))
        for task in tasks:
            lines.append(f"  - {plain(task.locale)} {_code(task.field)}: {task.status}: {plain(task.detail)}")
    if report.skipped:
        lines += ["", "## Skipped", ""]
        lines += [f"- {_code(path)}: {plain(why)}" for path, why in report.skipped]
    return "\n".join(lines) + "\n"


FORMATTERS: dict[str, Formatter] = {
    "text": render_text,
    "json": render_json,
    "markdown": render_markdown,
}
