"""Write inline suppressions for findings a corpus accepts (`lint --add-suppressions`).

Suppressions are line comments (`lint.suppressions`), so each one is written as a line
edit: `# entrykit: disable=CODES` at the end of the diagnostic's line (joining a
directive already there), or, where that would fall inside a multi-line value, on a
line of its own just above it. Nothing else of the file changes. Each edited text is
checked before it is offered: it parses to the same data as before, and its
directives cover every finding they were written for; a line that cannot take one is
left alone and named. JSON has no comments: its findings come back for
`per-file-ignores`. Nothing here writes files (the CLI writes the texts atomically).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from entrykit.diagnostic import Diagnostic
from entrykit.lint import suppressions
from entrykit.parsing import line_spans, parse_yaml

# Codes a suppression cannot sensibly silence: a file that does not load has no lines to
# speak of, and an unused suppression is fixed by removing it.
NOT_SUPPRESSED = frozenset({"ET001", "ET002"})
# Characters of trial texts parsed to place a file's suppressions line by line (each trial
# parses the whole file): a file of thousands of findings inside multi-line values took
# minutes. Real files need far less (a 5 KB entry, 50 such lines: 0.5M).
TRIAL_BUDGET = 16 * 1024 * 1024
OVER_BUDGET = "too many findings inside multi-line values in this file to place each one"
_EXISTING = re.compile(r"(#\s*entrykit:\s*disable\s*=\s*)(?P<codes>[A-Za-z0-9_, -]*)")


@dataclass
class SuppressionEdits:
    """New texts by file, what was added, and what could not be."""

    texts: dict[Path, str] = field(default_factory=dict)
    added: list[tuple[str, int, tuple[str, ...]]] = field(default_factory=list)  # (shown path, line, codes)
    skipped: list[tuple[str, int, str]] = field(default_factory=list)  # (shown path, line, why)
    json_codes: dict[str, set[str]] = field(default_factory=dict)  # JSON file (shown) -> codes

    @property
    def count(self) -> int:
        return sum(len(codes) for _, _, codes in self.added)


def _split_ending(line: str) -> tuple[str, str]:
    body = line.rstrip("\r\n")
    return body, line[len(body) :]


def _at_end(line: str, codes: Sequence[str]) -> str:
    """`line` with `codes` silenced by a comment at its end (joining a directive there)."""
    body, ending = _split_ending(line)
    existing = _EXISTING.search(body)
    if existing is not None:
        present = [c.strip() for c in existing.group("codes").split(",") if c.strip()]
        joined = ",".join([*present, *(c for c in codes if c not in present)])
        return body[: existing.start("codes")] + joined + body[existing.end("codes") :] + ending
    return f"{body}  # entrykit: disable={','.join(codes)}{ending}"


def _above(line: str, codes: Sequence[str]) -> str:
    """A comment line that silences `codes` on `line`, indented like it."""
    body, ending = _split_ending(line)
    indent = body[: len(body) - len(body.lstrip(" "))]
    return f"{indent}# entrykit: disable={','.join(codes)}{ending or chr(10)}"


def _same_data(text: str, original: object) -> bool:
    parsed = parse_yaml(text)
    return parsed.problem is None and repr(parsed.data) == repr(original)


def _covered(text: str, wanted: Mapping[int, Sequence[str]]) -> bool:
    found = suppressions.parse(text)
    return all(found.suppresses(line, code) for line, codes in wanted.items() for code in codes)


def _edit(lines: list[str], plan: Mapping[int, Sequence[str]], above: set[int]) -> tuple[str, dict[int, Sequence[str]]]:
    """The text with each planned line silenced (at its end, or above it for lines in
    `above`), and where each planned line is now."""
    out: list[str] = []
    moved: dict[int, Sequence[str]] = {}
    for number, line in enumerate(lines, start=1):
        codes = plan.get(number)
        if codes is None:
            out.append(line)
        elif number in above:
            out.append(_above(line, codes))
            out.append(line)
        else:
            out.append(_at_end(line, codes))
        if codes is not None:
            moved[len(out)] = codes
    return "".join(out), moved


def _file_edit(text: str, plan: dict[int, list[str]], shown: str, edits: SuppressionEdits) -> str | None:
    """The file's text with suppressions for `plan` (line -> codes), or None if none fits."""
    original = parse_yaml(text)
    if original.problem is not None:
        edits.skipped += [(shown, line, "the file does not parse") for line in plan]
        return None
    # (lines as findings count them, each with its line break: never cut at a U+2028 in a value)
    starts = [start for start, _ in line_spans(text)] + [len(text)]
    lines = [text[start:stop] for start, stop in zip(starts, starts[1:], strict=False) if start < stop]
    plan = {line: codes for line, codes in plan.items() if 1 <= line <= len(lines)}
    new, moved = _edit(lines, plan, set())
    if _same_data(new, original.data) and _covered(new, moved):
        edits.added += [(shown, line, tuple(codes)) for line, codes in sorted(plan.items())]
        return new
    # Some line ends inside a multi-line value: decide line by line, on the text so far.
    placed: dict[int, list[str]] = {}
    above: set[int] = set()
    budget = TRIAL_BUDGET
    for line, codes in sorted(plan.items()):
        if budget < 0:
            edits.skipped.append((shown, line, OVER_BUDGET))
            continue
        for where in ("end", "above"):
            trial_above = above | ({line} if where == "above" else set())
            trial, moved = _edit(lines, {**placed, line: codes}, trial_above)
            budget -= len(trial)
            if _same_data(trial, original.data) and _covered(trial, moved):
                placed[line] = codes
                above = trial_above
                break
        else:
            edits.skipped.append((shown, line, "a comment there would change the entry's data"))
    if not placed:
        return None
    edits.added += [(shown, line, tuple(codes)) for line, codes in sorted(placed.items())]
    return _edit(lines, placed, above)[0]


def plan_suppressions(diagnostics: Sequence[Diagnostic], files: Mapping[str, tuple[Path, str]]) -> SuppressionEdits:
    """Suppressions for `diagnostics`; `files` maps each shown path to (absolute path, text)."""
    edits = SuppressionEdits()
    by_file: dict[str, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for d in diagnostics:
        if d.code in NOT_SUPPRESSED:
            edits.skipped.append((d.path, d.line, f"{d.code} is not silenced by a suppression"))
            continue
        if d.path not in files:
            edits.skipped.append((d.path, d.line, "the file could not be read again"))
            continue
        abspath, _ = files[d.path]
        if abspath.suffix.lower() == ".json":
            edits.json_codes.setdefault(d.path, set()).add(d.code)
            continue
        codes = by_file[d.path][d.line]
        if d.code not in codes:
            codes.append(d.code)
    for shown in sorted(by_file):
        abspath, text = files[shown]
        new = _file_edit(text, dict(by_file[shown]), shown, edits)
        if new is not None and new != text:
            edits.texts[abspath] = new
    return edits
