"""Carry a merge out on files: the survivor in `fmt` layout, references rewritten in place, a lint
compared by code and place, ordered atomic writes."""

from __future__ import annotations

import json
import os
from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from entrykit import pointer as jp
from entrykit.authoring.formatter import FormatError, format_text
from entrykit.authoring.merge import ReferenceMoves, reference_changes
from entrykit.authoring.merge_comments import Comment, CommentOutcome, carry_comments, comments
from entrykit.authoring.merge_model import Dropped, MergeResult, plain
from entrykit.authoring.reference_edits import edit_references
from entrykit.config import Config
from entrykit.diagnostic import Diagnostic, Severity
from entrykit.entry import Entry
from entrykit.errors import UsageError
from entrykit.lint.engine import check, configured
from entrykit.loader import parse_text
from entrykit.paths import is_valid_id, shown
from entrykit.roundtrip import Document, NotEditable, editable_document
from entrykit.rules.regex import TELLING_AMONG
from entrykit.schema import load_schema
from entrykit.writing import write_files

# ET202 (the regex misses the signature) and ET203 (it misses an example) are one finding
# once the absorbed signature is an example: each is placed at the text the regex misses
# (ET202 itself points at the regex).
_SAME_FINDING = {"ET203": "ET202"}
_MISSED_TEXT = {"ET202": "/signature"}


@dataclass(frozen=True)
class Place:
    """A finding's code and where it is, in the files as they will be after the merge."""

    code: str
    path: str
    pointer: str


@dataclass
class LintDelta:
    """Findings after the merge that no input had at the same place, and those that are gone."""

    new: list[Diagnostic] = field(default_factory=list)
    gone: list[Diagnostic] = field(default_factory=list)

    @property
    def new_errors(self) -> list[Diagnostic]:
        return [d for d in self.new if d.severity is Severity.ERROR]


@dataclass
class MergePlan:
    """Everything a merge will write, computed and linted before the first byte is written."""

    survivor: Entry
    others: list[Entry]
    result: MergeResult
    texts: dict[Path, str]  # written in this order: references first, the survivor last
    delete: list[Path]
    rewritten: list[Entry]  # files whose references are rewritten
    comments: CommentOutcome
    edits: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict)  # by path: reference_changes
    before: list[Diagnostic] = field(default_factory=list)
    after: list[Diagnostic] = field(default_factory=list)
    delta: LintDelta = field(default_factory=LintDelta)

    @property
    def new_errors(self) -> list[Diagnostic]:
        """Errors of the merged files that no input had (same code at the same place)."""
        return self.delta.new_errors

    @property
    def survivor_text(self) -> str:
        return self.texts[self.survivor.abspath]

    def sections(self) -> list[tuple[str, list[str]]]:
        """The report's sections about files: what is written, comments, the lint delta."""
        files = [f"  write   {self.survivor.path} (the merged entry, in `fmt` layout)"]
        files += [f"  rewrite {e.path} (references to {', '.join(f'`{o.id}`' for o in self.others)})" for e in self.rewritten]
        files += [f"  delete  {e.path}" for e in self.others]
        comment_lines = [
            f"  kept    `{label}` line {c.line}: {c.text}" + (f" -> above {where}" if where else "")
            for label, c, where in self.comments.carried if label != self.result.labels[0]
        ]  # fmt: skip
        comment_lines += [f"  LISTED  `{label}` line {c.line}: {c.text}  ({why})" for label, c, why in self.comments.lost]
        lint = [f"  new     {_shown(d)}" for d in self.delta.new] or ["  no new finding"]
        lint += [f"  gone    {_shown(d)}" for d in self.delta.gone]
        return [
            ("Files:", files),
            ("Comments of the absorbed and rewritten files:" if comment_lines else "Comments of the absorbed and rewritten files: none", comment_lines),
            ("Lint (findings by code and place, before -> after):", lint),
        ]

    def summary(self) -> dict[str, Any]:
        """The same, for the JSON report."""
        return {
            "files": {
                "write": self.survivor.path,
                "rewrite": [e.path for e in self.rewritten],
                "delete": [e.path for e in self.others],
            },
            "comments": {
                "kept": [{"input": label, "line": c.line, "text": c.text, "above": where} for label, c, where in self.comments.carried],
                "listed": [{"input": label, "line": c.line, "text": c.text, "why": why} for label, c, why in self.comments.lost],
            },
            "lint": {"new": [_record(d) for d in self.delta.new], "gone": [_record(d) for d in self.delta.gone]},
        }


def _shown(d: Diagnostic) -> str:
    return f"{d.path}:{d.line}:{d.col}: {d.code} [{d.severity.value}] {d.message}"


def _record(d: Diagnostic) -> dict[str, Any]:
    return {"path": d.path, "line": d.line, "col": d.col, "code": d.code, "severity": d.severity.value, "message": d.message, "pointer": d.pointer}


def find_entry(argument: str, entries: Sequence[Entry]) -> Entry:
    """The entry an argument names: a file path, else an id (or alias). Either way
    the entry's own id must be a valid id: a merge records it and rewrites references
    to it, so an id that could be read as a path is refused before anything is written."""
    return _checked(_named(argument, entries))


def _checked(entry: Entry) -> Entry:
    if not is_valid_id(entry.id):
        raise UsageError(
            f"{entry.path}: id `{shown(str(entry.id))}` is not `<domain>/<slug>`; fix it before merging"
        )
    return entry


def _named(argument: str, entries: Sequence[Entry]) -> Entry:
    path = Path(argument)
    if "\0" not in argument and path.suffix and path.exists():
        wanted = os.path.realpath(path)  # never raises on a link loop, unlike resolve()
        for entry in entries:
            if os.path.realpath(entry.abspath) == wanted:
                return entry
        raise UsageError(f"`{shown(argument)}` is not an entry of the corpus")
    if not is_valid_id(argument):
        raise UsageError(f"`{shown(argument)}` is neither an entry file nor an id (`<domain>/<slug>`)")
    by_id = [e for e in entries if e.id == argument]
    if not by_id:
        by_id = [e for e in entries if argument in e.list_field("aliases")]
    if not by_id:
        raise UsageError(f"no entry has the id `{argument}`")
    if len(by_id) > 1:
        raise UsageError(f"id `{argument}` names {len(by_id)} entries; pass a file path instead")
    return by_id[0]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _key_order() -> list[str]:
    return list(load_schema().get("properties", {}))


class _Ranks:
    """Where a key goes among an entry's fields: the schema's order, a translated field
    (`signature_zh`) right after its source, any other key last."""

    def __init__(self, order: list[str]) -> None:
        self.index: dict[str, int] = {}
        for at, key in enumerate(order):
            self.index.setdefault(key, at)
        self.longest_first = sorted(self.index, key=len, reverse=True)
        self.last = len(order)

    def __call__(self, key: str) -> tuple[int, int]:
        if key in self.index:
            return self.index[key], 0
        base = next((k for k in self.longest_first if key.startswith(k + "_")), None)
        return (self.index[base], 1) if base is not None else (self.last, 0)


def _placed(keys: list[str], added: list[str], rank: _Ranks) -> list[str]:
    """`keys` with each of `added` in turn put after the last key ranked no later than it
    (first if there is none), in one pass over the keys and a sort of the new ones.

    `floor[i]` is the least rank from `keys[i]` on: it never decreases, so a binary search
    finds the gap after the last of `keys` ranked no later than a new key. New keys put
    in turn in one gap come out sorted by rank, in turn among equal ranks."""
    floor = [rank(key) for key in keys]
    for at in range(len(floor) - 2, -1, -1):
        floor[at] = min(floor[at], floor[at + 1])
    gaps: dict[int, list[tuple[tuple[int, int], int, str]]] = {}
    for turn, key in enumerate(added):
        mine = rank(key)
        gaps.setdefault(bisect_right(floor, mine), []).append((mine, turn, key))
    placed: list[str] = []
    for at in range(len(keys) + 1):
        placed.extend(key for _, _, key in sorted(gaps.get(at, ())))
        if at < len(keys):
            placed.append(keys[at])
    return placed


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def _update(container: Any, key: Any, new: Any) -> None:
    """Set container[key] to `new`, touching as little of the old value as possible
    (so comments of what did not change survive the round trip)."""
    old = container[key]
    if _plain(old) == new:
        return
    if isinstance(old, MutableMapping) and isinstance(new, Mapping):
        for sub in [k for k in old if k not in new]:
            del old[sub]
        for sub, value in new.items():
            if sub in old:
                _update(old, sub, value)
            else:
                old[sub] = value
        return
    if isinstance(old, list) and isinstance(new, list) and len(new) >= len(old):
        for index in range(len(old)):
            _update(old, index, new[index])
        old.extend(new[len(old) :])
        return
    container[key] = new


def _editable(entry: Entry, why: str = "it is merged") -> Document:
    """The entry's file loaded for editing, or a UsageError naming why it cannot be (nothing written)."""
    try:
        return editable_document(entry.text, entry.fmt)
    except NotEditable as exc:
        raise UsageError(f"`{entry.path}` cannot be edited ({exc}) but {why}; fix it first") from None


def rewrite_text(entry: Entry, data: Mapping[str, Any]) -> str:
    """The entry's file with its fields set to `data`, in `fmt` layout; its comments stay
    with the values they belong to."""
    doc = _editable(entry)
    fields = doc.data
    for key in [k for k in fields if k not in data]:
        del fields[key]
    added = [key for key in data if key not in fields]
    for key, value in data.items():
        if key in fields:
            _update(fields, key, value)
    # New keys go in their place among the fields (one reordering, not one insertion each:
    # a mapping's `insert` reorders the keys after it, and 2,000 new keys took 37 s).
    order = _placed(list(fields), added, _Ranks(_key_order()))
    if added and isinstance(fields, CommentedMap):
        for key in added:
            fields[key] = data[key]
        for key in order:  # (comments stay with their keys)
            fields.move_to_end(key)
    elif added:  # JSON: a plain dict, rebuilt in order
        new = set(added)
        items = {key: data[key] if key in new else fields[key] for key in order}
        fields.clear()
        fields.update(items)
    return _formatted(doc.dump(), entry)


def _formatted(text: str, entry: Entry) -> str:
    try:
        return format_text(text, entry.fmt).text
    except FormatError as exc:
        raise UsageError(f"the merged text of `{entry.path}` cannot be laid out: {exc}") from None


def _in_memory(entry: Entry, text: str) -> Entry:
    parsed = parse_text(text, entry.fmt)
    if parsed.problem is not None or not isinstance(parsed.data, dict):
        raise UsageError(f"the merged text of `{entry.path}` does not parse: {parsed.problem}")
    return Entry(entry.path, entry.abspath, entry.fmt, parsed.data, text, parsed.needs_positions)


class _Targets:
    """Where a value of an input is in the merged entry (the report's ledger, then equal values)."""

    def __init__(self, result: MergeResult) -> None:
        self.result = result
        self.placed = {(p.side, p.source): p.target for p in result.report.ledger}
        self.inputs = dict(zip(result.labels, result.inputs, strict=True))

    def __call__(self, label: str, pointer: str) -> str | None:
        tokens = jp.split(pointer)
        for cut in range(len(tokens), 0, -1):
            target = self.placed.get((label, jp.from_path(tokens[:cut])))
            if target is None:
                continue
            deeper = jp.join(*jp.split(target), *tokens[cut:])
            return deeper if jp.resolve(self.result.data, deeper, None) is not None else target
        here = jp.resolve(self.result.data, pointer, None)
        if label == self.result.labels[0]:
            return pointer if here is not None else None  # the survivor's values stay where they are
        mine = jp.resolve(self.inputs.get(label, {}), pointer, None)
        return pointer if mine is not None and here == mine else None


def _survivor_text(survivor: Entry, others: Sequence[Entry], result: MergeResult, targets: _Targets) -> tuple[str, CommentOutcome]:
    text = rewrite_text(survivor, result.data)
    labels = result.labels
    inputs = [(labels[0], survivor.text, survivor.fmt)] + [(label, e.text, e.fmt) for label, e in zip(labels[1:], others, strict=True)]
    outcome = CommentOutcome([], [])
    if survivor.fmt == "yaml":
        text, outcome = carry_comments(text, inputs, targets)
        text = _formatted(text, survivor)
    else:
        for label, other_text, fmt in inputs[1:]:
            if fmt == "yaml":
                outcome.lost += [(label, c, "the survivor is JSON, which holds no comments") for c in comments(other_text)]
    final = {c.text for c in comments(text)} if survivor.fmt == "yaml" else set()
    carried: list[Any] = []
    for label, comment, where in outcome.carried:
        if comment.text in final:
            carried.append((label, comment, where))
        else:
            outcome.lost.append((label, comment, "it did not survive the layout"))
    outcome.carried = carried
    if survivor.fmt == "yaml":
        outcome.lost += _own_comments_astray(survivor, text, result, targets)
    return text, outcome


def _changed_under(pointer: str, survivor: Entry, beside: str, result: MergeResult) -> bool:
    """Whether the value a comment stands beside now differs from the one it was written for:
    a text or number, or a list item (a row, a workaround), not a whole field's list or table,
    which a merge adds to."""
    written_for = jp.resolve(survivor.data, pointer, None)
    item = jp.split(pointer)[-1].isdigit()
    if isinstance(written_for, (dict, list)) and not item:
        return False
    return bool(jp.resolve(result.data, beside, None) != written_for)


def _own_comments_astray(
    survivor: Entry, text: str, result: MergeResult, targets: _Targets
) -> list[tuple[str, Comment, str]]:
    """The survivor's comments the merged text does not keep beside the value they were
    written for: gone with their value, or (the file is rewritten in place, and a list or
    a value changed under them) now beside a value they were not written for."""
    label = result.labels[0]
    now: dict[str, list[Comment]] = {}
    for comment in comments(text):
        now.setdefault(comment.text, []).append(comment)
    astray = []
    for comment in comments(survivor.text):
        found = now.get(comment.text)
        if not found:
            astray.append((label, comment, "the value it belongs to is not in the merged entry"))
            continue
        there = found.pop(0)
        if comment.pointer is None:
            continue
        beside = there.pointer
        if beside is None or beside != targets(label, comment.pointer) or _changed_under(comment.pointer, survivor, beside, result):
            astray.append((label, comment, f"it now stands beside `{beside}`, which does not hold the value it was written for: check it"))
    return astray


def plan_merge(
    entries: Sequence[Entry],
    survivor: Entry,
    others: Entry | Sequence[Entry],
    result: MergeResult,
    config: Config,
    today: date,
) -> MergePlan:
    """The new texts of the survivor and of every entry that referred to the others, linted.
    The reference items and comments those other files lose join the report (`dropped`,
    the listed comments)."""
    others = [others] if isinstance(others, Entry) else list(others)
    if any(o is survivor for o in others) or len({id(o) for o in others}) != len(others):
        raise UsageError("an entry cannot be merged into itself")
    for other in others:
        if _same_file(survivor.abspath, other.abspath):  # two names (hard links) of one file
            raise UsageError(
                f"`{survivor.path}` and `{other.path}` are the same file; an entry cannot be merged into itself"
            )
    names = set(result.data.get("aliases") or [])  # (an alias that is another entry's id is not one)
    old_ids = [
        i for other in others for i in [other.id, *other.list_field("aliases")] if isinstance(i, str) and i != survivor.id and i in names
    ]
    gone = {id(o) for o in others}
    texts: dict[Path, str] = {}
    replaced: dict[Path, Entry] = {}
    rewritten: list[Entry] = []
    lost: list[tuple[str, Comment, str]] = []
    edits: dict[str, list[tuple[str, str | None]]] = {}
    for entry in entries:
        if entry is survivor or id(entry) in gone or not survivor.id:
            continue
        changes = reference_changes(entry.data, old_ids, survivor.id)
        if not changes:
            continue  # no reference to rewrite: the file is not even parsed again
        edited = edit_references(entry.text, entry.fmt, old_ids, survivor.id)
        if edited is None:
            continue
        texts[entry.abspath] = edited
        replaced[entry.abspath] = _in_memory(entry, edited)
        rewritten.append(entry)
        edits[entry.path] = changes
        result.report.dropped += _removed_references(entry, changes, survivor.id)
        lost += _lost_comments(entry, edited)
    targets = _Targets(result)
    texts[survivor.abspath], outcome = _survivor_text(survivor, others, result, targets)
    outcome.lost += lost
    new_survivor = _in_memory(survivor, texts[survivor.abspath])
    linted = _every_lookup_named(config)
    before = check(list(entries), [survivor, *others, *rewritten], linted, today)
    after_entries = [new_survivor if e is survivor else replaced.get(e.abspath, e) for e in entries if id(e) not in gone]
    after = check(after_entries, [new_survivor, *replaced.values()], linted, today)
    plan = MergePlan(survivor, others, result, texts, [o.abspath for o in others], rewritten, outcome, edits, before, after)
    plan.delta = lint_delta(plan, targets)
    return plan


def _removed_references(entry: Entry, changes: Sequence[tuple[str, str | None]], new_id: str) -> list[Dropped]:
    """The reference items another entry's file loses, each in full (a `condition` or a
    `distinction` is that entry's claim), for the report's `dropped`. Their texts are not
    folded into the reference the file keeps: two conditions or probabilities may disagree,
    and settling that in a file the merge does not own would be a guess."""
    data = plain(entry.data)
    why = f"`{entry.path}` refers to `{new_id}` earlier in this list once the merged ids are rewritten (a repeat is removed)"
    return [Dropped(str(entry.id), pointer, jp.resolve(data, pointer, None), why) for pointer, new in changes if new is None]


def _lost_comments(entry: Entry, edited: str) -> list[tuple[str, Comment, str]]:
    """The comments of another entry's YAML file that its rewritten text no longer holds."""
    if entry.fmt != "yaml":
        return []
    left = Counter(c.text for c in comments(edited))
    lost = []
    for comment in comments(entry.text):
        if left[comment.text]:
            left[comment.text] -= 1
        else:
            lost.append((str(entry.id), comment, f"it went with a repeated reference removed from `{entry.path}`"))
    return lost


def _every_lookup_named(config: Config) -> Config:
    """`config` with ET209 naming each entry a regex also matches in a finding of its own
    (up to the 64 it names at most), as the merge lints before and after: a summary of more
    than `max_pairs` names only some, and an entry it left unnamed would, once the merge
    brings the count down, look like one the merge added."""
    config = configured(config)
    options = dict(config.rule_options.get("ET209", {}))
    options["max_pairs"] = max(int(options.get("max_pairs", 0)), TELLING_AMONG)
    return replace(config, rule_options={**config.rule_options, "ET209": options})


def lint_delta(plan: MergePlan, targets: _Targets) -> LintDelta:
    """Compare findings by code and place: an input's finding moves with the value it is
    on (through the report's ledger; in a rewritten file, past the reference items removed
    before it), so a merge is charged only with what it adds."""
    labels = {plan.survivor.path: plan.result.labels[0]}
    labels.update({o.path: label for o, label in zip(plan.others, plan.result.labels[1:], strict=True)})
    moves = {path: ReferenceMoves.of(changes) for path, changes in plan.edits.items()}

    def place(path: str, pointer: str, before: bool) -> tuple[str, str]:
        label = labels.get(path)
        if label is not None:
            return plan.survivor.path, targets(label, pointer) or pointer
        if before and path in moves:
            moved = moves[path].after(pointer)
            return path, f"(removed) {pointer}" if moved is None else moved  # (a place no finding after has)
        return path, pointer

    def key(d: Diagnostic, before: bool) -> Place:
        where = place(d.path, _MISSED_TEXT.get(d.code, d.pointer), before)
        return Place(_SAME_FINDING.get(d.code, d.code), where[0], where[1])

    def related(d: Diagnostic, before: bool) -> set[tuple[str, str]]:
        return {place(r.path, r.pointer, before) for r in d.related}

    known: dict[Place, set[tuple[str, str]]] = {}
    for d in plan.before:
        known.setdefault(key(d, True), set()).update(related(d, True))
    after_keys = {key(d, False) for d in plan.after}
    delta = LintDelta()
    for d in plan.after:
        k = key(d, False)
        if k not in known or not related(d, False) <= known[k]:
            delta.new.append(d)
    seen: set[Place] = set()
    for d in plan.before:
        k = key(d, True)
        if k not in after_keys and k not in seen:
            seen.add(k)
            delta.gone.append(d)
    return delta


def apply_plan(plan: MergePlan, within: Path) -> None:
    """Write every new text (references first, the survivor last) and remove the absorbed
    files, as one change, inside the corpus root `within`: if any step fails, every file
    is as it was before."""
    order = [p for p in plan.texts if p != plan.survivor.abspath] + [plan.survivor.abspath]
    read = {e.abspath: e.text for e in [plan.survivor, *plan.others, *plan.rewritten]}
    write_files({path: plan.texts[path] for path in order}, delete=plan.delete, within=within, read=read)
