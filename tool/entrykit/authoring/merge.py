"""Merge entries into one: a pure function from the entries' data to the merged data and a report.

The survivor (the first input) keeps its id, file and signature; every other input is
absorbed in one pass, so `merge A B C` and any order of two-way merges give the same
numbers. The README's "Merging" section says the same as this list:

- identity: the absorbed ids and their aliases join `aliases` (not an alias that is
  another entry's id: it names that entry);
- messages: the other signatures and every example become `examples`; the regex keeps
  matching every message any input's regex matched (`merge_regex`);
- dead ends and workarounds: items naming the same action (`similarity.actions`) become
  one item; an action that is a dead end in one input and a workaround in another is a
  conflict, and so are conditions that differ (`merge_items`);
- translations follow the text they translate, and each `translated_from` fingerprint
  its translation (`merge_fingerprints`);
- versions: rows in canonical form, redundant rows folded, contradicting rows a conflict
  (`merge_versions`);
- numbers: `evidence_count` summed, `first_seen` the earliest, `last_confirmed` and
  `last_updated` the latest, `verification_tier` the lowest, and every rate the most
  cautious of the inputs' (lowest `confidence`, `fix_success_rate` and `success_rate`,
  highest `fail_rate`): the same whatever the order of merges; inputs further apart than
  `rate_gap` are reported;
- any other value the inputs disagree on is a conflict, settled by `prefer`, by `choices`,
  or left open (the survivor's value stands in until someone decides).

Every item of every input is placed in the report's ledger, and every text that does not
reach the merged entry is in `report.dropped`, in full, with the reason.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from entrykit import pointer as jp
from entrykit.authoring import merge_fingerprints, merge_items, merge_regex, merge_versions
from entrykit.authoring.merge_model import (
    KEEP_BOTH,
    SKIP,
    Conflict,
    Dropped,
    MergeReport,
    MergeResult,
    Option,
    Placement,
    RateReport,
    Resolution,
    is_rate,
    labels_for,
    missing,
    plain,
    union,
    value_key,
)
from entrykit.authoring.merge_report import differences
from entrykit.errors import UsageError
from entrykit.paths import shown
from entrykit.schema import validator
from entrykit.versions.package_names import Naming, default_naming

__all__ = [
    "KEEP_BOTH", "SKIP", "Conflict", "Dropped", "MergeReport", "MergeResult", "Option", "Placement",
    "RateReport", "ReferenceMoves", "Resolution", "merge_entries", "pointer_after", "reference_changes", "rewrite_references",
    "shape_problem",
]  # fmt: skip

TRANSLATED_SCALARS = ("signature", "root_cause")
GRAPH_LISTS = ("leads_to", "preceded_by", "frequently_confused_with")
TIERS = ("ai_generated", "auto_generated", "human_reviewed", "expert_reviewed")
RATE_GAP = 0.2  # inputs whose rates differ by more than this are reported


# -- the merge in progress -------------------------------------------------------------


class Merger:
    """One merge in progress: the inputs, the conflict choices, the report being built.

    The `merge_*` modules each handle one part and call back into `settle`, `place`
    and `drop`.
    """

    def __init__(
        self,
        inputs: Sequence[Mapping[str, Any]],
        prefer: str | None,
        choices: Mapping[str, Any],
        flags: int,
        mode: str,
        naming: Naming,
        rate_gap: float,
        taken: Collection[str] = (),
    ) -> None:
        self.inputs: list[dict[str, Any]] = [plain(data) for data in inputs]
        self.labels = labels_for(self.inputs)
        self.prefer = prefer
        self.choices = dict(choices)
        self.flags, self.mode = flags, mode
        self.naming = naming
        self.rate_gap = rate_gap
        self.taken = frozenset(taken) - {data.get("id") for data in self.inputs}
        self.report = MergeReport(self.labels[0], self.labels[1:])
        self.out: dict[str, Any] = {}
        self.handled: set[str] = set()  # keys decided on, kept or not
        self.role_conflicts: list[tuple[str, int, int]] = []  # (pointer, dead end, workaround)
        self.version_conflicts: list[tuple[str, int, int]] = []  # (pointer, row, row)

    @property
    def survivor(self) -> dict[str, Any]:
        return self.inputs[0]

    def sides(self) -> Iterator[tuple[int, str, dict[str, Any]]]:
        for number, (label, data) in enumerate(zip(self.labels, self.inputs, strict=True)):
            yield number, label, data

    # -- conflicts ----------------------------------------------------------------

    def decide(self, conflict: Conflict) -> Option | Resolution:
        """Record a conflict and settle it if a choice or the preference says how.

        Returns the chosen option, a Resolution for an edit, or (unresolved) the
        first option, which stands in until someone decides."""
        self.report.conflicts.append(conflict)
        choice = self.choices.get(conflict.pointer)
        if isinstance(choice, tuple) and choice and choice[0] == "edit":
            resolution = Resolution("edit", choice[1], choice[2] if len(choice) > 2 else "edited")
            self.report.resolutions[conflict.pointer] = resolution
            return resolution
        if isinstance(choice, tuple) and choice and choice[0] == "choose":
            choice, how = choice[1], choice[2] if len(choice) > 2 else "chosen"
        else:
            how = "chosen"
        if isinstance(choice, str):
            picked = conflict.option(choice) or self._by_side(conflict, choice)
            if picked is not None:
                self.report.resolutions[conflict.pointer] = Resolution(picked.source, picked.value, how)
                return picked
        if self.prefer in ("into", "other") and conflict.kind == "role":
            # Which role an action has is a judgement on its content, not a side's value:
            # a preference keeps both items (nothing dropped on a guess); the report shows it.
            both = conflict.option(KEEP_BOTH)
            if both is not None:
                self.report.resolutions[conflict.pointer] = Resolution(KEEP_BOTH, None, f"--prefer {self.prefer}: both kept")
                return both
        if self.prefer in ("into", "other"):
            picked = self._by_side(conflict, self.prefer)
            if picked is not None:
                self.report.resolutions[conflict.pointer] = Resolution(picked.source, picked.value, f"--prefer {self.prefer}")
                return picked
        return conflict.options[0]

    def _by_side(self, conflict: Conflict, side: str) -> Option | None:
        """`into`: the survivor's option (else the first); `other`: the first option only an
        absorbed input holds (else one an absorbed input holds too, else the first: the
        options are one input's own repeats)."""
        survivor = self.labels[0]
        sources = [o for o in conflict.options if o.source != KEEP_BOTH]
        if side == "into":
            return next((o for o in sources if survivor in (o.source, *o.holders)), sources[0] if sources else None)
        if side == "other":
            absorbed = [o for o in sources if any(h != survivor for h in (o.source, *o.holders))]
            fallback = absorbed[0] if absorbed else (sources[0] if sources else None)
            return next((o for o in absorbed if survivor not in (o.source, *o.holders)), fallback)
        return None

    def settle(
        self, pointer: str, values: Sequence[tuple[str, Any]], follows: tuple[str, ...] = (), about: str = ""
    ) -> tuple[str | None, Any]:
        """One value from the inputs' values at `pointer`: (label of the input it came
        from, or None for an edit; the value). Equal or one-sided values merge; absent and
        empty values never stand in for a present one; different values are a conflict."""
        present = [(label, value) for label, value in values if not missing(value)]
        distinct: dict[str, tuple[str, Any]] = {}
        holders: dict[str, list[str]] = {}
        for label, value in present:
            distinct.setdefault(value_key(value), (label, value))
            holders.setdefault(value_key(value), []).append(label)
        if not distinct:
            first = next(((label, v) for label, v in values if v is not SKIP), (None, SKIP))
            return first
        if len(distinct) == 1:
            return next(iter(distinct.values()))
        options = tuple(Option(label, value, tuple(holders[key])) for key, (label, value) in distinct.items())
        picked = self.decide(Conflict(pointer, "value", options, about, follows))
        if isinstance(picked, Resolution):
            return None, picked.value
        return picked.source, picked.value

    # -- the ledger ---------------------------------------------------------------

    def place(self, side: str, kind: str, source: str, value: Any, target: str, merged: bool = False) -> None:
        self.report.ledger.append(Placement(side, kind, source, value, target, merged))

    def drop(self, side: str, pointer: str, value: Any, why: str) -> None:
        if value is SKIP:
            return
        self.report.dropped.append(Dropped(side, pointer, value, why))

    def note(self, text: str) -> None:
        self.report.notes.append(text)

    def forget_item(self, lists: Collection[str], index: int, why: str, drops: Callable[[Placement], bool]) -> None:
        """After item `index` left the merged lists `lists`: the placements into it are dropped
        for `why` (those `drops` names) or forgotten, and later ones move up by one."""
        ledger: list[Placement] = []
        for place in self.report.ledger:
            tokens = jp.split(place.target)
            if tokens[:1] and tokens[0] in lists and len(tokens) > 1 and tokens[1].isdigit():
                at = int(tokens[1])
                if at == index:
                    if drops(place):
                        self.drop(place.side, place.source, place.value, why)
                    continue
                if at > index:
                    tokens[1] = str(at - 1)
                    place = Placement(place.side, place.kind, place.source, place.value, jp.from_path(tokens), place.merged)
            ledger.append(place)
        self.report.ledger = ledger

    # -- the parts ------------------------------------------------------------------

    def identity(self) -> None:
        survivor = self.survivor
        self.out["id"] = survivor.get("id")
        self.handled.update(["id", "domain", "aliases"])
        if any("domain" in data for data in self.inputs):
            domain = survivor.get("domain", next((d["domain"] for d in self.inputs if "domain" in d), None))
            self.out["domain"] = domain
            for _, label, data in list(self.sides())[1:]:
                if not missing(data.get("domain", SKIP)) and data.get("domain") != domain:
                    self.drop(label, "/domain", data["domain"], f"the survivor's id names the domain `{domain}`")
        own = {survivor.get("id")}
        aliases: list[Any] = []
        for number, label, data in self.sides():
            names = list(data.get("aliases") or []) if number == 0 else [data.get("id"), *(data.get("aliases") or [])]
            for index, name in enumerate(names):
                if not isinstance(name, str) or name in own:
                    continue
                source = "/id" if number and index == 0 else jp.join("aliases", index - (1 if number else 0))
                if name in self.taken:
                    self.not_a_name(number, label, source, name)
                    if number:
                        continue
                if name not in aliases:
                    aliases.append(name)
                self.place(label, "alias", source, name, jp.join("aliases", aliases.index(name)))
        if aliases or "aliases" in survivor:
            self.out["aliases"] = aliases

    def not_a_name(self, number: int, label: str, source: str, name: str) -> None:
        """An alias that is another entry's id names that entry, not the merged one: its
        references stay with it. The survivor's own alias stays where it is."""
        why = f"`{name}` is the id of another entry, which this merge leaves alone: references to it are not rewritten"
        if number:
            self.drop(label, source, name, why)
        else:
            self.note(f"`{label}`'s alias {why}")

    @staticmethod
    def is_translation(key: str, name: str) -> bool:
        return key.startswith(name + "_") and not (name == "root_cause" and key == "root_cause_type")

    def translated_scalar(self, name: str) -> None:
        """A text field and its translations (`root_cause`, `root_cause_zh`): one choice for all.

        The chosen text brings its own translations; a translation of a text that was not
        chosen does not translate the merged entry and is dropped (in the report)."""
        locales = sorted({k for data in self.inputs for k in data if self.is_translation(k, name)})
        self.handled.update([name, *locales])
        if name == "signature":
            self.signature_translations(locales)
            return
        values = [(label, data.get(name, SKIP)) for _, label, data in self.sides()]
        source, chosen = self.settle(jp.join(name), values, tuple(locales), f"which `{name}` the merged entry states")
        if chosen is not SKIP:
            self.out[name] = chosen
        self.place_or_drop(name, chosen, f"the merged entry states another `{name}`")
        carriers = [
            label for _, label, data in self.sides()
            if source is not None and chosen is not SKIP and value_key(data.get(name, SKIP)) == value_key(chosen)
        ]  # fmt: skip
        for loc in locales:
            carried = [(label, data.get(loc, SKIP)) for _, label, data in self.sides() if label in carriers]
            value = self.settle(jp.join(loc), carried)[1] if carried else SKIP
            if value is not SKIP:
                self.out[loc] = value
            for _, label, data in self.sides():
                if loc not in data:
                    continue
                if value_key(data[loc]) == value_key(value):
                    self.place(label, "translation", jp.join(loc), data[loc], jp.join(loc))
                elif label in carriers:
                    self.drop(label, jp.join(loc), data[loc], "another translation of the same text was chosen")
                else:
                    self.drop(label, jp.join(loc), data[loc], f"it translates a `{name}` the merged entry does not state")
            if value is SKIP and name in self.out:
                self.note(f"`{loc}` is left out: no input translated the `{name}` the merged entry states; translate it again")

    def signature_translations(self, locales: list[str]) -> None:
        """The survivor's signature stays, with its translations; another input's translation
        of the same signature text may fill a gap; translations of other signatures are dropped
        (their signature becomes an example, and examples carry no translations)."""
        signature = self.survivor.get("signature", SKIP)
        if signature is not SKIP:
            self.out["signature"] = signature
        for loc in locales:
            same = [(label, data.get(loc, SKIP)) for _, label, data in self.sides() if data.get("signature", SKIP) == signature]
            value = self.settle(jp.join(loc), same)[1]
            if value is not SKIP:
                self.out[loc] = value
            for _, label, data in self.sides():
                if loc not in data:
                    continue
                if value_key(data[loc]) == value_key(value):
                    self.place(label, "translation", jp.join(loc), data[loc], jp.join(loc))
                elif data.get("signature", SKIP) != signature:
                    self.drop(label, jp.join(loc), data[loc], "it translates a signature that is now an example; examples carry no translations")
                else:
                    self.drop(label, jp.join(loc), data[loc], "another translation of the same signature was chosen")

    def messages(self) -> None:
        """Every other signature and every example become `examples`; counterexamples unite."""
        self.handled.update(["examples", "counterexamples"])
        signature = self.survivor.get("signature")
        examples: list[Any] = []
        for number, label, data in self.sides():
            found = [(jp.join("examples", i), m) for i, m in enumerate(data.get("examples") or [])]
            if number and data.get("signature") is not None:
                found.insert(0, ("/signature", data.get("signature")))
            for source, message in found:
                if message == signature:
                    self.place(label, "example", source, message, "/signature", merged=True)
                    continue
                if message not in examples:
                    examples.append(message)
                self.place(label, "example", source, message, jp.join("examples", examples.index(message)))
        if examples or "examples" in self.survivor:
            self.out["examples"] = examples
        counter = union(*[data.get("counterexamples") or [] for data in self.inputs])
        for _, label, data in self.sides():
            for index, message in enumerate(data.get("counterexamples") or []):
                self.place(label, "counterexample", jp.join("counterexamples", index), message,
                           jp.join("counterexamples", counter.index(message)))  # fmt: skip
        for message in counter:
            if message in examples or message == signature:
                self.note(f"`{message}` is both a message and a counterexample; no regex can satisfy both")
        if counter or "counterexamples" in self.survivor:
            self.out["counterexamples"] = counter

    def tags(self) -> None:
        self.handled.add("tags")
        if not any("tags" in data for data in self.inputs):
            return
        tags = union(*[data.get("tags") or [] for data in self.inputs])
        for _, label, data in self.sides():
            for index, tag in enumerate(data.get("tags") or []):
                self.place(label, "tag", jp.join("tags", index), tag, jp.join("tags", tags.index(tag)))
        self.out["tags"] = tags

    def graph(self) -> None:
        self.handled.add("transition_graph")
        if all(data.get("transition_graph") is None for data in self.inputs):
            return
        graphs: list[dict[str, Any]] = [
            g if isinstance(g := data.get("transition_graph"), dict) else {} for data in self.inputs
        ]
        selves = {data.get("id") for data in self.inputs} | (set(self.out.get("aliases") or []) - self.taken)
        names = list(dict.fromkeys(name for g in graphs for name in g))
        graph: dict[str, Any] = {}
        for name in names:
            items: list[Any] = []
            owners: list[str] = []
            sources: list[str] = []  # where in its first owner each item is
            targets: list[str] = []
            for label, g in zip(self.labels, graphs, strict=True):
                refs = g.get(name)
                for index, ref in enumerate(refs if isinstance(refs, list) else []):
                    source = jp.join("transition_graph", name, index)
                    target_id = ref.get("error_id") if isinstance(ref, dict) else ref
                    if isinstance(target_id, str) and target_id in selves:
                        self.drop(label, source, ref, "it points at an entry this merge makes one")
                        continue
                    key = value_key(target_id)  # under a key the schema does not know, a reference may be anything
                    if key in targets:
                        at = targets.index(key)
                        where = jp.join("transition_graph", name, at)
                        items[at] = self.merge_reference(where, (owners[at], items[at], sources[at]), (label, ref), source)
                        self.place(label, "graph edge", source, ref, where, merged=True)
                    else:
                        targets.append(key)
                        items.append(ref)
                        owners.append(label)
                        sources.append(source)
                        self.place(label, "graph edge", source, ref, jp.join("transition_graph", name, len(items) - 1))
            graph[name] = items
        self.out["transition_graph"] = graph

    def merge_reference(self, pointer: str, kept: tuple[str, Any, str], new: tuple[str, Any], source: str) -> Any:
        """Two references to one entry as one, field by field; each field's value not kept is
        dropped (named), the kept reference's (`kept`: its first owner and where it is there) as
        well as the new one's."""
        (kept_label, kept_ref, kept_source), (label, ref) = kept, new
        if not isinstance(ref, dict):
            return kept_ref
        if not isinstance(kept_ref, dict):
            return ref
        merged = dict(kept_ref)
        for key, value in ref.items():
            before = kept_ref.get(key, SKIP)
            chosen = self.settle(jp.child(pointer, key), [(kept_label, before), (label, value)])[1]
            merged[key] = chosen
            for side, at, lost in ((kept_label, kept_source, before), (label, source, value)):
                if lost is not SKIP and not missing(lost) and value_key(lost) != value_key(chosen):
                    self.drop(side, jp.child(at, key), lost, "the merged reference keeps another value")
        return merged

    def keyed_map(self, name: str) -> None:
        """`os_specific`: a mapping whose keys merge one by one."""
        self.handled.add(name)
        if all(data.get(name) is None for data in self.inputs):
            return
        maps: list[dict[str, Any]] = [m if isinstance(m := data.get(name), dict) else {} for data in self.inputs]
        merged: dict[str, Any] = {}
        for key in dict.fromkeys(k for m in maps for k in m):
            values = [(label, m.get(key, SKIP)) for label, m in zip(self.labels, maps, strict=True)]
            value = self.settle(jp.join(name, key), values)[1]
            merged[key] = value
            for label, m in zip(self.labels, maps, strict=True):
                if key in m and value_key(m[key]) != value_key(value):
                    self.drop(label, jp.join(name, key), m[key], "another value was chosen")
        self.out[name] = merged

    def numbers_and_dates(self) -> None:
        for name, pick in (("first_seen", min), ("last_confirmed", max), ("last_updated", max)):
            self.handled.add(name)
            values = [v for v in (data.get(name) for data in self.inputs) if isinstance(v, str) and v]
            if values:
                self.out[name] = pick(values)
                which = "earliest" if pick is min else "latest"
                for _, label, data in self.sides():
                    if isinstance(data.get(name), str) and data[name] and data[name] != self.out[name]:
                        self.drop(label, jp.join(name), data[name], f"`{name}` is the {which} of the inputs' ({self.out[name]})")
            elif name in self.survivor:
                self.out[name] = self.survivor[name]
        self.evidence_count()
        for name in ("confidence", "fix_success_rate"):
            self.handled.add(name)
            if any(name in data for data in self.inputs):
                value = self.rate(jp.join(name), [(label, data.get(name, SKIP)) for _, label, data in self.sides()], "lowest")
                self.out[name] = value
        self.handled.add("verification_tier")
        tiers = [(label, data.get("verification_tier", SKIP)) for _, label, data in self.sides()]
        known = [(label, t) for label, t in tiers if t in TIERS]
        if known and len(known) == len([t for _, t in tiers if t is not SKIP]):
            lowest = min((t for _, t in known), key=TIERS.index)
            self.out["verification_tier"] = lowest
            if len({t for _, t in known}) > 1:
                self.note(f"`verification_tier` is the lowest of the inputs' ({', '.join(t for _, t in known)}): part of the merged entry was only `{lowest}`")
        elif any(t is not SKIP for _, t in tiers):
            value = self.settle("/verification_tier", tiers)[1]
            if value is not SKIP:
                self.out["verification_tier"] = value

    def evidence_count(self) -> None:
        """The sum of the inputs' counts; a whole number written as a float (`7.0`, which
        the schema takes for an integer) counts, anything else is reported, not summed."""
        self.handled.add("evidence_count")
        counts: list[int] = []
        for _, label, data in self.sides():
            value = data.get("evidence_count")
            if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
                counts.append(int(value))
            elif value is not None:
                self.drop(label, "/evidence_count", value, "it is not a whole number, so it is not in the sum")
        if counts:
            self.out["evidence_count"] = sum(counts)

    def rate(self, pointer: str, values: Sequence[tuple[str, Any]], rule: str) -> Any:
        """The most cautious of the inputs' rates (`lowest` or `highest`): the same in any
        order of merges. A rate that is not a number is settled like any value."""
        numbers = [(label, float(v)) for label, v in values if is_rate(v) and math.isfinite(v)]
        others = [v for _, v in values if v is not SKIP and v is not None and not (is_rate(v) and math.isfinite(v))]
        if others:
            return self.settle(pointer, values)[1]
        if not numbers:
            return next((v for _, v in values if v is not SKIP), None)
        pick = min if rule == "lowest" else max
        result = pick(v for _, v in numbers)
        original = next(v for _, v in values if is_rate(v) and math.isfinite(v) and float(v) == result)
        if len(numbers) > 1:
            spread = max(v for _, v in numbers) - min(v for _, v in numbers)
            self.report.rates.append(RateReport(pointer, tuple(numbers), result, rule, spread > self.rate_gap + 1e-9))
        return original

    def rest(self) -> None:
        """Every other key: known scalars and unknown fields alike."""
        done = set(self.out) | self.handled
        names = list(dict.fromkeys(k for data in self.inputs for k in data))
        for name in names:
            if name in done:
                continue
            values = [(label, data.get(name, SKIP)) for _, label, data in self.sides()]
            if all(isinstance(v, list) or v is SKIP for _, v in values):
                self.out[name] = union(*[v for _, v in values if isinstance(v, list)])
                continue
            value = self.settle(jp.join(name), values)[1]
            if value is not SKIP:
                self.out[name] = value
            self.place_or_drop(name, value, f"the merged entry has another `{name}`")

    def place_or_drop(self, name: str, value: object, reason: str) -> None:
        """Each input's field `name`: placed where it equals the merged `value`, else (when it
        says something) dropped for `reason`."""
        for _, label, data in self.sides():
            if name not in data:
                continue
            if value_key(data[name]) == value_key(value):
                self.place(label, "field", jp.join(name), data[name], jp.join(name))
            elif not missing(data[name]):
                self.drop(label, jp.join(name), data[name], reason)

    def run(self) -> MergeResult:
        self.identity()
        self.messages()
        for name in TRANSLATED_SCALARS:
            self.translated_scalar(name)
        merge_items.merge_items(self)
        merge_versions.merge_versions(self)
        self.tags()
        self.graph()
        self.keyed_map("os_specific")
        self.numbers_and_dates()
        merge_regex.merge_regex(self)
        merge_items.apply_role_choices(self)
        merge_versions.apply_version_choices(self)
        merge_fingerprints.merge_fingerprints(self)  # (after every choice of which items stay)
        self.rest()
        order = [*(k for data in self.inputs for k in data), *self.out]
        data = {k: self.out[k] for k in dict.fromkeys(order) if k in self.out}
        sweep_dropped(self, data)
        self.report.differences = differences(self.inputs, self.labels)
        return MergeResult(data, self.report, self.inputs, self.labels)


def _strings(value: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    stack: list[tuple[str, Any]] = [(pointer, value)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, str):
            yield where, node
        elif isinstance(node, dict):
            stack.extend((jp.child(where, k), v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((jp.child(where, i), v) for i, v in reversed(list(enumerate(node))))


def sweep_dropped(merger: Merger, result: Mapping[str, Any]) -> None:
    """Name every text of an input that reached the merged entry nowhere and no part of the
    merge has named yet, so nothing leaves without a word."""
    kept = {text for _, text in _strings(result)}
    named = {(d.side, d.pointer) for d in merger.report.dropped}
    named |= {(p.side, p.source) for p in merger.report.ledger if p.kind == "regex"}  # kept as an alternative
    for _, label, data in merger.sides():
        for where, text in _strings(data):
            if text in kept or not text.strip():
                continue
            if any((label, p) in named for p in _ancestors(where)):
                continue
            merger.drop(label, where, text, "not carried into the merged entry")
            named.add((label, where))


def _ancestors(pointer: str) -> Iterator[str]:
    while True:
        yield pointer
        if not pointer:
            return
        pointer = jp.parent(pointer)


def merge_entries(
    into: Mapping[str, Any],
    other: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    prefer: str | None = None,
    choices: Mapping[str, Any] | None = None,
    flags: int = 0,
    mode: str = "search",
    naming: Naming | None = None,
    rate_gap: float = RATE_GAP,
    taken: Collection[str] = (),
) -> MergeResult:
    """Merge `other` (one entry, or several) into `into`, the survivor. Pure: inputs are not changed.

    `prefer` ("into" or "other") settles every conflict one way; `choices` maps a
    conflict's pointer to an option's source (an input's label, or `both`), to
    ("choose", source, how) or to ("edit", value[, how]). Conflicts neither settles stay
    in `report.unresolved` and the first option (the survivor's) stands in. `taken` are the
    ids of the corpus's other entries: an alias that is one of them is no name of the
    merged entry.
    """
    if prefer not in (None, "into", "other"):
        raise ValueError(f"prefer must be 'into' or 'other', not {prefer!r}")
    others = [other] if isinstance(other, Mapping) else list(other)
    if not others:
        raise ValueError("nothing to merge into the survivor")
    for data in (into, *others):
        wrong = shape_problem(data)
        if wrong is not None:
            raise UsageError(f"`{shown(str(data.get('id')))}`: {wrong}; fix the entry before merging")
    return Merger([into, *others], prefer, choices or {}, flags, mode, naming or default_naming(), rate_gap, taken).run()


def shape_problem(data: Mapping[str, Any]) -> str | None:
    """The first value of a type the schema does not allow (a merge needs the shapes right), or None."""
    for error in validator().iter_errors(plain(data)):
        if error.validator in ("type", "oneOf", "anyOf"):
            where = jp.from_path(list(error.absolute_path)) or "/"
            expected = error.validator_value
            if error.validator != "type":
                return f"`{shown(where)}` is none of the forms the schema allows"
            wanted = " or ".join(expected) if isinstance(expected, list) else str(expected)
            return f"`{shown(where)}` must be {wanted}"
    return None


def reference_changes(data: Any, old_ids: Iterable[str], new_id: str) -> list[tuple[str, str | None]]:
    """The edits that turn `transition_graph` references to any of `old_ids` into `new_id`:
    (pointer, new id) to rewrite a reference, (pointer, None) to remove one that would
    then repeat another in its list. Only lists that refer to an old id change."""
    old = set(old_ids)
    graph = data.get("transition_graph") if isinstance(data, Mapping) else None
    if not isinstance(graph, Mapping):
        return []
    changes: list[tuple[str, str | None]] = []
    for name in GRAPH_LISTS:
        items = graph.get(name)
        if not isinstance(items, list):
            continue
        targets = [item.get("error_id") if isinstance(item, Mapping) else item for item in items]
        if not any(isinstance(t, str) and t in old for t in targets):
            continue
        seen = False
        for index, (item, target) in enumerate(zip(items, targets, strict=True)):
            at = jp.join("transition_graph", name, index, "error_id") if isinstance(item, Mapping) else jp.join("transition_graph", name, index)
            is_old = isinstance(target, str) and target in old
            if (is_old or target == new_id) and seen:
                changes.append((jp.join("transition_graph", name, index), None))
                continue
            if is_old:
                changes.append((at, new_id))
            if is_old or target == new_id:
                seen = True
    return changes


def pointer_after(changes: Sequence[tuple[str, str | None]], pointer: str) -> str | None:
    """Where `pointer` into the data before `changes` (`reference_changes`) points after
    them: an item after a removed one in its list moves up; one removed is gone (None)."""
    return ReferenceMoves.of(changes).after(pointer)


@dataclass(frozen=True)
class ReferenceMoves:
    """The items `reference_changes` removes, by list, sorted: read once for the many
    pointers asked about (each pointer read them all again before)."""

    removed: dict[tuple[str, str], list[int]]

    @classmethod
    def of(cls, changes: Sequence[tuple[str, str | None]]) -> ReferenceMoves:
        """The removals among `changes`."""
        removed: dict[tuple[str, str], set[int]] = {}
        for at, new in changes:
            if new is None:
                tokens = jp.split(at)
                removed.setdefault((tokens[0], tokens[1]), set()).add(int(tokens[2]))
        return cls({where: sorted(indices) for where, indices in removed.items()})

    def after(self, pointer: str) -> str | None:
        """`pointer_after` of `pointer`."""
        tokens = jp.split(pointer)
        if len(tokens) < 3 or tokens[0] != "transition_graph" or not tokens[2].isdigit():
            return pointer
        index = int(tokens[2])
        removed = self.removed.get((tokens[0], tokens[1]), [])
        earlier = bisect.bisect_left(removed, index)
        if earlier < len(removed) and removed[earlier] == index:
            return None
        return jp.from_path([*tokens[:2], index - earlier, *tokens[3:]])


def rewrite_references(data: Any, old_ids: Iterable[str], new_id: str) -> bool:
    """Apply `reference_changes` to plain or round-trip data, in place; whether anything changed."""
    changes = reference_changes(data, old_ids, new_id)
    for pointer, value in sorted(changes, key=lambda c: _pointer_order(c[0]), reverse=True):
        tokens = jp.split(pointer)
        parent = jp.resolve(data, jp.from_path(tokens[:-1]))
        key: Any = int(tokens[-1]) if isinstance(parent, list) else tokens[-1]
        if value is None:
            del parent[key]
        else:
            parent[key] = value
    return bool(changes)


def _pointer_order(pointer: str) -> tuple[Any, ...]:
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in jp.split(pointer))
