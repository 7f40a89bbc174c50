"""The merge report: deepdiff's path-by-path differences, and the report as text and as JSON.

Every value is shown in full; every list is in a stable order (differences by path,
conflicts and items in the order the merge met them), so the same merge prints the same
report on any machine.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from entrykit import pointer as jp
from entrykit.authoring.merge_model import Conflict, Difference, MergeResult, RegexOutcome, Resolution


def differences(inputs: Sequence[dict[str, Any]], labels: Sequence[str]) -> list[Difference]:
    """Every path where an absorbed input differs from the survivor, from deepdiff's tree
    view, with both values in full (absent values as None), sorted by path."""
    from deepdiff import (
        DeepDiff,  # imported here: it pulls in numpy, and lint never needs it
    )
    from deepdiff.helper import notpresent

    found: list[Difference] = []
    survivor = inputs[0]
    for label, data in zip(labels[1:], inputs[1:], strict=True):
        tree = DeepDiff(survivor, data, view="tree", verbose_level=2)
        rows = []
        for levels in tree.values():
            for level in levels:
                path = level.path(output_format="list")
                before = None if level.t1 is notpresent else level.t1
                after = None if level.t2 is notpresent else level.t2
                rows.append((_order(path), Difference(label, jp.from_path(path), before, after)))
        found += [row for _, row in sorted(rows, key=lambda r: r[0])]
    return found


def _order(path: Sequence[Any]) -> tuple[tuple[int, int, str], ...]:
    return tuple((0, t, "") if isinstance(t, int) else (1, 0, str(t)) for t in path)


_ITEM_FIELDS = frozenset(
    {"dead_ends", "workarounds", "versions", "examples", "counterexamples", "tags", "transition_graph", "aliases", "sources"}
)


def full(value: Any, indent: str = "      ") -> str:
    """A value in full: text as it is (continuation lines indented), anything else as JSON."""
    if value is None:
        return "(absent)"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text.replace("\n", "\n" + indent)


def _outcome(result: MergeResult, diff: Difference) -> str:
    """What became of a differing path, as far as the path itself says."""
    report = result.report
    top = jp.split(diff.pointer)[0] if diff.pointer else ""
    if top in _ITEM_FIELDS or top.startswith(("workarounds_", "dead_ends_")):
        return "see where each item went"  # items are matched by meaning, not by position
    for conflict in report.conflicts:
        if diff.pointer == conflict.pointer or diff.pointer.startswith(conflict.pointer + "/"):
            return f"conflict at {conflict.pointer}"
    merged = jp.resolve(result.data, diff.pointer, None)
    if merged is None:
        return "not in the merged entry (see Dropped)"
    if merged == diff.into:
        return "the survivor's"
    if merged == diff.value:
        return f"`{diff.other}`'s"
    return f"combined: {full(merged)}"


def report_text(result: MergeResult, sections: Sequence[tuple[str, list[str]]] = ()) -> str:
    """The report for people: differences, conflicts and how each was settled, where every
    item went, what was dropped and why, regex coverage, rates, notes, then `sections`
    (files, comments, lint) from the caller."""
    report = result.report
    absorbed = ", ".join(f"`{label}`" for label in report.absorbed)
    lines = [f"Merging {absorbed} into `{report.survivor}`"]
    lines += ["", "Differences (deepdiff, path by path):" if report.differences else "Differences: none"]
    current = None
    for diff in report.differences:
        if diff.other != current:
            current = diff.other
            lines.append(f"  `{report.survivor}` -> `{diff.other}`:")
        lines.append(f"    {diff.pointer or '/'}  [{_outcome(result, diff)}]")
        lines.append(f"      {report.survivor}: {full(diff.into, '        ')}")
        lines.append(f"      {diff.other}: {full(diff.value, '        ')}")
    lines += ["", "Conflicts:" if report.conflicts else "Conflicts: none"]
    for conflict in report.conflicts:
        lines += _conflict_lines(conflict, report.resolutions.get(conflict.pointer))
    moved = [p for p in report.ledger if p.side != report.survivor and p.source != "/id"]
    lines += ["", "Where the absorbed entries' items went:" if moved else "Where the absorbed entries' items went: nothing to place"]
    for place in moved:
        verb = "merged into" if place.merged else "now"
        lines.append(f"  `{place.side}` {place.kind} {place.source} -> {verb} {place.target}")
    lines += ["", "Not in the merged entry:" if report.dropped else "Not in the merged entry: nothing"]
    for dropped in report.dropped:
        lines.append(f"  `{dropped.side}` {dropped.pointer or '/'}: {full(dropped.value, '      ')}")
        lines.append(f"      because {dropped.why}")
    if report.regex is not None:
        lines += _regex_lines(report.regex)
    if report.rates:
        lines += ["", "Rates (the most cautious of the inputs'; `!` marks inputs further apart than the gap):"]
        for rate in report.rates:
            values = ", ".join(f"{label} {value:g}" for label, value in rate.values)
            lines.append(f"  {'!' if rate.gap else ' '} {rate.pointer}: {values} -> {rate.result:g} ({rate.rule})")
    if report.notes:
        lines += ["", "Notes:"] + [f"  - {note}" for note in report.notes]
    for title, body in sections:
        lines += ["", title] + body
    return "\n".join(lines) + "\n"


def _conflict_lines(conflict: Conflict, resolution: Resolution | None) -> list[str]:
    lines = [f"  {conflict.pointer} ({conflict.kind}){': ' + conflict.about if conflict.about else ''}"]
    for option in conflict.options:
        holders = f" [{', '.join(option.holders)}]" if option.holders and option.holders != (option.source,) else ""
        value = "keep both" if option.value is None and option.source == "both" else full(option.value, "        ")
        lines.append(f"    {option.source}{holders}: {value}")
    if resolution is None:
        lines.append(f"    -> unresolved (`{conflict.options[0].source}` stands in)")
    elif resolution.choice == "edit":
        lines.append(f"    -> edited ({resolution.how}): {full(resolution.value, '        ')}")
    else:
        lines.append(f"    -> {resolution.choice} ({resolution.how})")
    if conflict.follows:
        lines.append(f"    (the translations {', '.join(conflict.follows)} follow the choice)")
    return lines


def _regex_lines(outcome: RegexOutcome) -> list[str]:
    lines = ["", f"Regex: {outcome.how}", f"  {outcome.pattern}", "  Messages (matched before by -> matched after):"]
    for text in outcome.texts:
        before = ", ".join(text.before) or "no input's regex"
        lines.append(f"    {'yes' if text.after else 'NO '}  {full(text.text, '         ')}")
        lines.append(f"         from {'; '.join(text.sources)}; before: {before}")
    lost = outcome.lost
    lines.append("  Coverage kept: every message an input's regex matched is matched" if not lost else f"  COVERAGE LOST: {len(lost)} message(s)")
    return lines


def report_json(result: MergeResult, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report as one JSON object (documented in the README's "Merging" section)."""
    report = result.report
    regex = report.regex
    data: dict[str, Any] = {
        "survivor": report.survivor,
        "absorbed": list(report.absorbed),
        "differences": [
            {"other": d.other, "pointer": d.pointer, "survivor": d.into, "value": d.value, "outcome": _outcome(result, d)}
            for d in report.differences
        ],
        "conflicts": [
            {
                "pointer": c.pointer, "kind": c.kind, "about": c.about, "follows": list(c.follows),
                "options": [{"choice": o.source, "value": o.value, "holders": list(o.holders)} for o in c.options],
                "resolution": None if c.pointer not in report.resolutions else {
                    "choice": report.resolutions[c.pointer].choice,
                    "value": report.resolutions[c.pointer].value,
                    "how": report.resolutions[c.pointer].how,
                },
            }
            for c in report.conflicts
        ],
        "unresolved": [c.pointer for c in report.unresolved],
        "placements": [
            {"input": p.side, "kind": p.kind, "from": p.source, "to": p.target, "merged": p.merged, "value": p.value}
            for p in report.ledger
        ],
        "dropped": [{"input": d.side, "pointer": d.pointer, "value": d.value, "why": d.why} for d in report.dropped],
        "regex": None if regex is None else {
            "pattern": regex.pattern, "how": regex.how, "counterexamples": regex.counterexamples,
            "messages": [{"text": t.text, "from": list(t.sources), "before": list(t.before), "after": t.after} for t in regex.texts],
            "coverage_lost": [t.text for t in regex.lost],
        },
        "rates": [
            {"pointer": r.pointer, "values": [{"input": label, "value": v} for label, v in r.values],
             "result": r.result, "rule": r.rule, "beyond_gap": r.gap}
            for r in report.rates
        ],
        "notes": list(report.notes),
        "merged": result.data,
    }
    if extra:
        data.update(extra)
    return data
