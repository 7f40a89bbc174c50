"""Merge dead ends and workarounds by meaning: one item per action, contradictions as conflicts.

Items of the survivor come first, each its own group; each absorbed input's items then
join the group whose action reads as the same (`similarity.actions.SAME_ACTION`, one
item per input per group, best scores first), or start a new group. Within one input,
only items that repeat one action are folded together, at the bar lint rules read one
entry with (`SAME_ACTION_IN_ENTRY`): an entry's own items that read alike are usually
contrasts its author meant ("Pull and rebase", "Pull with merge"). A group becomes one
item: the first wording of the action (the others are reported), the sources united, the
most cautious rate, every other field settled like any value. A condition is part of
what an item says: groups whose conditions differ are a conflict, empty ("always")
against stated included. An action that is a dead end in one input and a workaround in
another is a `role` conflict, unless both state different conditions, or one input holds
both as a contrast of its own. Translated lists (`workarounds_zh`) are rebuilt group by
group.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from entrykit import pointer as jp
from entrykit.authoring.merge_model import (
    KEEP_BOTH,
    SKIP,
    Conflict,
    Option,
    union,
    value_key,
)
from entrykit.similarity.actions import SAME_ACTION, SAME_ACTION_IN_ENTRY, action_similarity
from entrykit.similarity.phrases import normalize_phrase

if TYPE_CHECKING:
    from entrykit.authoring.merge import Merger

ITEM_LISTS = ("dead_ends", "workarounds")
RATE_KEYS = {"dead_ends": ("fail_rate", "highest"), "workarounds": ("success_rate", "lowest")}
KINDS = {"dead_ends": "dead end", "workarounds": "workaround"}
COMPARISON_BUDGET = 20_000  # action pairs compared per merge; beyond it only equal wordings join
# Item pairs (a dead end, a workaround) a merge looks at for role conflicts: beyond, it looks
# for no more. Each group of one list is read against each of the other, the product of the
# lists (4M pairs for two entries of 2,000 each); real entries hold at most 5 of each.
ROLE_VISITS = 1_000_000


@dataclass(frozen=True)
class Member:
    """One input's item in a group: which input, where in it, the item."""

    side: int
    index: int
    item: Any

    @property
    def action(self) -> str | None:
        value = self.item.get("action") if isinstance(self.item, dict) else None
        return value if isinstance(value, str) else None


@dataclass
class RoleConflict:
    """A dead-end group and a workaround group naming the same action in different inputs."""

    dead_end: int
    workaround: int
    pointer: str


def _group(merger: Merger, name: str, budget: list[int]) -> list[list[Member]] | None:
    """Items of all inputs grouped by action. Each input's own repeats are folded first, the
    same whatever it is merged with; then each input's groups join the best-matching group
    so far (read against every wording it holds), at most one per group. So a merge in two
    steps may keep apart what one pass folds: the first step's result holds one wording
    per group, the others reported, and a third input's item that reads as one of those
    starts a group of its own (3 of 21 triples of deadends.dev near-duplicates)."""
    if not any(name in data for data in merger.inputs):
        return None
    wordings = _Wordings()
    groups = _own_groups(0, list(merger.survivor.get(name) or []), budget, wordings)
    for side in range(1, len(merger.inputs)):
        own = _own_groups(side, list(merger.inputs[side].get(name) or []), budget, wordings)
        scored = _scored(own, groups, budget, wordings)
        taken_groups: set[int] = set()
        placed: dict[int, int] = {}
        for _, g, j in sorted(scored, key=lambda t: (-t[0], t[1], t[2])):
            if g not in taken_groups and j not in placed:
                taken_groups.add(g)
                placed[j] = g
        for j, local in enumerate(own):
            if j in placed:
                groups[placed[j]].extend(local)
            else:
                groups.append(local)
    return groups


def _scored(own: list[list[Member]], groups: list[list[Member]], budget: list[int], wordings: _Wordings) -> list[tuple[float, int, int]]:
    """(score, group, own group) for each of an input's groups and each group so far that read
    as the same action. Once the budget is spent only equal wordings count: the groups sharing
    one are then looked up by wording, not each group asked in turn (the square of the lists)."""
    scored: list[tuple[float, int, int]] = []
    holding: dict[str, list[int]] | None = None  # wording -> the groups holding it, once needed
    for j, local in enumerate(own):
        actions = [m.action for m in local if m.action is not None]
        for g, members in enumerate(groups):
            if budget[0] <= 0:
                holding = _holding(groups, wordings) if holding is None else holding
                scored.extend((1.0, k, j) for k in _sharing(actions, holding, g))
                break
            score = max((_best(action, members, budget, wordings) for action in actions), default=0.0)
            if score >= SAME_ACTION:
                scored.append((score, g, j))
    return scored


def _holding(groups: list[list[Member]], wordings: _Wordings) -> dict[str, list[int]]:
    """Each wording -> the groups holding it, in order."""
    out: dict[str, list[int]] = {}
    for g, members in enumerate(groups):
        for wording in wordings.of(members):
            out.setdefault(wording, []).append(g)
    return out


def _sharing(actions: list[str], holding: dict[str, list[int]], start: int) -> list[int]:
    """The groups from `start` on holding the wording of one of `actions`, in order."""
    return sorted({g for action in actions for g in holding.get(normalize_phrase(action), ()) if g >= start})


def _own_groups(side: int, items: list[Any], budget: list[int], wordings: _Wordings) -> list[list[Member]]:
    """One input's items, those that repeat one action (`SAME_ACTION_IN_ENTRY`) folded together, in list order."""
    groups: list[list[Member]] = []
    first_holding: dict[str, int] = {}  # wording -> the first group holding it
    for j, item in enumerate(items):
        member = Member(side, j, item)
        action = member.action
        home = None if action is None else _home(action, groups, first_holding, budget, wordings)
        if home is None:
            groups.append([member])
            home = len(groups) - 1
        else:
            groups[home].append(member)
        if action is not None:
            wording = normalize_phrase(action)
            first_holding[wording] = min(first_holding.get(wording, home), home)
    return groups


def _home(
    action: str, groups: list[list[Member]], first_holding: dict[str, int], budget: list[int], wordings: _Wordings
) -> int | None:
    """The first group of one input's items that repeats `action`: once the budget is spent,
    the first holding its wording (what asking each group in turn finds then)."""
    if budget[0] <= 0:
        return first_holding.get(normalize_phrase(action))
    return next(
        (g for g, members in enumerate(groups) if _best(action, members, budget, wordings) >= SAME_ACTION_IN_ENTRY), None
    )


class _Wordings:
    """Each group's wordings (normalised actions) and how many actions come before the first of
    each, read as members join: `_best` finds an equal wording without reading every member."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[list[Member], dict[str, int], list[int]]] = {}

    def of(self, members: list[Member]) -> dict[str, int]:
        """Each wording of `members` -> the actions before its first."""
        known = self._known.get(id(members))
        if known is None or known[0] is not members:  # (the list is kept: its id stays its own)
            known = self._known[id(members)] = (members, {}, [0, 0])
        _, firsts, read = known  # read: members read, actions among them
        for member in members[read[0] :]:
            action = member.action
            if action is not None:
                firsts.setdefault(normalize_phrase(action), read[1])
                read[1] += 1
        read[0] = len(members)
        return firsts


def _best(action: str, members: list[Member], budget: list[int], wordings: _Wordings) -> float:
    """How alike `action` reads to the most alike of `members`: 1.0 for an equal wording, which
    costs the budget the comparisons of the actions before it; else the best score of those the
    budget still pays for, in order."""
    before = wordings.of(members).get(normalize_phrase(action))
    if before is not None:
        budget[0] -= min(max(budget[0], 0), before)
        return 1.0
    best = 0.0
    for member in members:
        if budget[0] <= 0:
            break
        other = member.action
        if other is None:
            continue
        budget[0] -= 1
        best = max(best, action_similarity(other, action))
    return best


def _condition(item: Any) -> str:
    value = item.get("condition") if isinstance(item, dict) else None
    return normalize_phrase(value) if isinstance(value, str) else ""


def _roles(merger: Merger, dead: list[list[Member]], work: list[list[Member]], budget: list[int]) -> list[tuple[int, int]]:
    """Pairs (dead-end group, workaround group) that name one action in different inputs, of
    those found within `ROLE_VISITS` item pairs looked at."""
    scored: list[tuple[float, int, int]] = []
    visits = [ROLE_VISITS]
    for d, dead_members in enumerate(dead):
        for w, work_members in enumerate(work):
            if visits[0] <= 0:
                break
            best = _role_score(dead_members, work_members, budget, visits)
            if best >= SAME_ACTION:
                scored.append((best, d, w))
    pairs: list[tuple[int, int]] = []
    used_d: set[int] = set()
    used_w: set[int] = set()
    for _, d, w in sorted(scored, key=lambda t: (-t[0], t[1], t[2])):
        if d not in used_d and w not in used_w:
            used_d.add(d)
            used_w.add(w)
            pairs.append((d, w))
    return sorted(pairs)


def _role_score(dead_members: list[Member], work_members: list[Member], budget: list[int], visits: list[int]) -> float:
    """How alike the most alike action of a dead-end group and of a workaround group read,
    of two inputs and conditions that do not tell them apart; `visits` counts the item pairs
    looked at, down to none.

    A pair does not count when one input already holds both sides as a contrast: when the
    workaround reads at least as much like a workaround of the dead end's own input in the
    group, or the dead end like a dead end of the workaround's input. That input wrote both
    (an entry merged with a copy of itself holds each of its contrasts twice), and the
    other input agrees with it."""
    best = 0.0
    sides: tuple[dict[int, list[Member]], dict[int, list[Member]]] | None = None  # (made once needed)
    for x in dead_members:
        for y in work_members:
            if visits[0] <= 0:
                return best
            visits[0] -= 1
            if x.side == y.side or x.action is None or y.action is None:
                continue
            if _condition(x.item) and _condition(y.item) and _condition(x.item) != _condition(y.item):
                continue  # each says when it applies: no contradiction
            score = _alike(x.action, y.action, budget)
            if score < SAME_ACTION or score <= best:
                continue
            sides = sides or (_by_side(dead_members), _by_side(work_members))
            if _contrasted(score, y.action, sides[1].get(x.side, ()), budget, visits):
                continue
            if _contrasted(score, x.action, sides[0].get(y.side, ()), budget, visits):
                continue
            best = score
    return best


def _by_side(members: list[Member]) -> dict[int, list[Member]]:
    """A group's members by the input they come from."""
    out: dict[int, list[Member]] = {}
    for member in members:
        out.setdefault(member.side, []).append(member)
    return out


def _alike(a: str, b: str, budget: list[int]) -> float:
    """How alike two actions read: 1.0 for an equal wording, else their score while the budget lasts."""
    if normalize_phrase(a) == normalize_phrase(b):
        return 1.0
    if budget[0] <= 0:
        return 0.0
    budget[0] -= 1
    return action_similarity(a, b)


def _contrasted(score: float, action: str, own: Sequence[Member], budget: list[int], visits: list[int]) -> bool:
    """Whether `action` reads at least `score` alike to one of `own` (one input's items of the
    other role's group), each looked at counted in `visits`."""
    for member in own:
        if visits[0] <= 0:
            return False
        visits[0] -= 1
        if member.action is not None and _alike(action, member.action, budget) >= score:
            return True
    return False


def merge_items(merger: Merger) -> None:
    """Dead ends and workarounds, with their translated lists kept aligned."""
    budget = [COMPARISON_BUDGET]
    groups = {name: _group(merger, name, budget) for name in ITEM_LISTS}
    for name in ITEM_LISTS:
        found = groups[name]
        merger.handled.add(name)
        if found is None:
            continue
        merger.out[name] = [_merge_group(merger, name, k, members) for k, members in enumerate(found)]
        _place(merger, name, found)
        _translations(merger, name, found)
    dead, work = groups["dead_ends"], groups["workarounds"]
    if dead and work:
        for d, w in _roles(merger, dead, work, budget):
            _role_conflict(merger, d, w, dead[d], work[w])


def _place(merger: Merger, name: str, groups: list[list[Member]]) -> None:
    for k, members in enumerate(groups):
        target = jp.join(name, k)
        merged = merger.out[name][k]
        for position, member in enumerate(members):
            label = merger.labels[member.side]
            merger.place(label, KINDS[name], jp.join(name, member.index), member.item, target, merged=position > 0)
            sources = member.item.get("sources") if isinstance(member.item, dict) else None
            kept = merged.get("sources") or [] if isinstance(merged, dict) else []
            for s, url in enumerate(sources if isinstance(sources, list) else []):
                at = kept.index(url) if url in kept else 0
                merger.place(label, "source", jp.join(name, member.index, "sources", s), url, jp.join(name, k, "sources", at))


def _merge_group(merger: Merger, name: str, k: int, members: list[Member]) -> Any:
    first = members[0]
    if len(members) == 1 or not all(isinstance(m.item, dict) for m in members):
        return first.item
    where = jp.join(name, k)
    rate_key, rule = RATE_KEYS[name]
    item: dict[str, Any] = {}
    keys = list(dict.fromkeys(key for m in members for key in m.item))
    for key in keys:
        values = [(merger.labels[m.side], m.item.get(key, SKIP)) for m in members]
        if key == "action":
            item[key] = first.item.get("action", next(v for _, v in values if v is not SKIP))
            for member in members[1:]:
                if member.action is not None and member.action != item[key]:
                    merger.drop(
                        merger.labels[member.side], jp.join(name, member.index, "action"), member.action,
                        f"the same action as {where} (`{item[key]}`), which keeps the first wording",
                    )  # fmt: skip
        elif key == rate_key:
            item[key] = merger.rate(jp.child(where, key), values, rule)
        elif key == "sources":
            item[key] = union(*[v for _, v in values if isinstance(v, list)])
        elif key == "condition":
            item[key] = _merge_condition(merger, name, jp.child(where, key), members)
        else:
            item[key] = merger.settle(jp.child(where, key), values)[1]
            for member in members:
                value = member.item.get(key, SKIP)
                if value is not SKIP and value not in (None, "") and value_key(value) != value_key(item[key]):
                    merger.drop(merger.labels[member.side], jp.join(name, member.index, key), value, f"{where}/{key} keeps another value")
    return item


def _merge_condition(merger: Merger, name: str, pointer: str, members: list[Member]) -> Any:
    """Equal conditions (an absent one is "always", like an empty one) stay; different
    ones are a conflict, never joined: a condition limits what the item claims."""
    by_key: dict[str, tuple[str, Any, list[str]]] = {}
    for member in members:
        raw = member.item.get("condition", "")
        text = raw if isinstance(raw, str) else ""
        label = merger.labels[member.side]
        entry = by_key.setdefault(normalize_phrase(text), (label, text, []))
        entry[2].append(label)
    if len(by_key) == 1:
        return next(iter(by_key.values()))[1]
    options = tuple(Option(label, text, tuple(holders)) for label, text, holders in by_key.values())
    about = "which condition the merged item states (empty: it applies always)"
    chosen = merger.decide(Conflict(pointer, "condition", options, about)).value
    for member in members:
        text = member.item.get("condition", "")
        if isinstance(text, str) and text.strip() and normalize_phrase(text) != normalize_phrase(str(chosen or "")):
            merger.drop(merger.labels[member.side], jp.join(name, member.index, "condition"), text, "the merged item states another condition")
    return chosen


def _translations(merger: Merger, name: str, groups: list[list[Member]]) -> None:
    """`<name>_<locale>` lists rebuilt group by group: the translation of the wording kept,
    else one of another member's wording (named), else an empty string to translate. An
    empty item is no translation: any member's real one comes first, in any merge order."""
    locales = sorted({k for data in merger.inputs for k in data if k.startswith(name + "_")})
    merger.handled.update(locales)
    for loc in locales:
        lists = [data.get(loc) if isinstance(data.get(loc), list) else None for data in merger.inputs]
        out: list[Any] = []
        gaps = 0
        for k, members in enumerate(groups):
            chosen: Any = None
            for position, member in enumerate(members):
                texts = lists[member.side]
                if texts is None or member.index >= len(texts):
                    continue
                text, label = texts[member.index], merger.labels[member.side]
                if text is None or isinstance(text, str) and not text.strip():
                    continue  # no translation: an item left to translate (a merge writes "" so)
                source = jp.join(loc, member.index)
                if chosen is None:
                    chosen = text
                    merger.place(label, "translation", source, text, jp.join(loc, k))
                    if position > 0:
                        merger.note(f"{jp.join(loc, k)} translates the wording of `{label}` ({jp.join(name, member.index)}); check it against {jp.join(name, k)}")
                elif value_key(text) != value_key(chosen):
                    merger.drop(label, source, text, f"{jp.join(loc, k)} keeps the translation of the wording kept")
                else:
                    merger.place(label, "translation", source, text, jp.join(loc, k), merged=True)
            if chosen is None:
                chosen = ""
                gaps += 1
            out.append(chosen)
        for side, texts in enumerate(lists):
            items = merger.inputs[side].get(name) or []
            for extra in range(len(items), len(texts or [])):
                assert texts is not None
                merger.drop(merger.labels[side], jp.join(loc, extra), texts[extra], f"`{loc}` has more items than `{name}`")
        if gaps:
            merger.note(f"`{loc}` has {gaps} empty item(s) for {name} no input translated: translate them")
        merger.out[loc] = out


def _role_conflict(merger: Merger, d: int, w: int, dead: list[Member], work: list[Member]) -> None:
    dead_holders = tuple(dict.fromkeys(merger.labels[m.side] for m in dead))
    work_holders = tuple(dict.fromkeys(merger.labels[m.side] for m in work))
    later_is_work = min(m.side for m in work) > min(m.side for m in dead)
    pointer = jp.join("workarounds", w) if later_is_work else jp.join("dead_ends", d)
    action = (work if later_is_work else dead)[0].action
    about = (
        f"`{action}` is a dead end in {', '.join(dead_holders)} and a workaround in {', '.join(work_holders)}: "
        "keep it as `dead_ends`, as `workarounds`, or `both` (then give each a condition)"
    )
    options = (
        Option("dead_ends", merger.out["dead_ends"][d], dead_holders),
        Option("workarounds", merger.out["workarounds"][w], work_holders),
        Option(KEEP_BOTH, None),
    )
    merger.decide(Conflict(pointer, "role", options, about))
    merger.role_conflicts.append((pointer, d, w))


def apply_role_choices(merger: Merger) -> None:
    """Remove the side a role conflict's choice drops (after every pointer was named)."""
    removals: list[tuple[str, int]] = []
    for pointer, d, w in merger.role_conflicts:
        resolution = merger.report.resolutions.get(pointer)
        if resolution is None:
            continue
        choice = resolution.choice
        if choice == "dead_ends":
            removals.append(("workarounds", w))
        elif choice == "workarounds":
            removals.append(("dead_ends", d))
        elif choice == "edit":
            merger.note(f"{pointer}: a role conflict cannot be edited; both items are kept")
    for name, index in sorted(removals, key=lambda r: (r[0], -r[1])):
        remove_item(merger, name, index, f"the merged entry keeps this action as {'a dead end' if name == 'workarounds' else 'a workaround'}")


def remove_item(merger: Merger, name: str, index: int, why: str) -> None:
    """Take item `index` out of the merged list `name` (and its translations), naming every
    input item that was in it as dropped and moving later ledger targets up by one."""
    merger.out[name].pop(index)
    for key in [k for k in merger.out if k.startswith(name + "_") and isinstance(merger.out[k], list)]:
        if index < len(merger.out[key]):
            merger.out[key].pop(index)
    lists = {name, *(k for k in merger.out if k.startswith(name + "_"))}
    merger.forget_item(lists, index, why, lambda place: place.kind in ("dead end", "workaround"))
