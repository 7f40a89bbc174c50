"""The merged entry's regex: it matches every message any input's regex matched.

Coverage is counted on the messages of all inputs (signatures and examples), each regex
run as lookups run it (flags, match mode, time budget). The survivor's regex stays when it
covers what every input's regex covered; otherwise the regexes that cover more are added
as alternatives, in input order, and the combination is checked on every message. An
outermost alternative of an input's regex (`a|b`) is kept too unless the kept regexes are
proven to find everything it finds (`regex.subsumption` for literal text,
`regex.inclusion` for their automata where those are read exactly): messages and texts
spelled from it show only some of the texts it finds, and dropping it on their word lost
every log line it was written for (`fatal: not a git repository` beside
`fatal: not a git repository$`). Of an input's regex only the alternatives kept are added,
where it can be taken apart. An input's regex is never replaced by text derived from a
signature. A message no input's regex matched stays unmatched (the input already had that
finding), and the report says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from entrykit import pointer as jp
from entrykit.authoring.merge_model import Conflict, CoveredText, Option, RegexOutcome
from entrykit.regex.budget import TooComplex
from entrykit.regex.inclusion import others_find_all
from entrykit.regex.runner import Job, Status, shared_runner
from entrykit.regex.subsumption import finds_all
from entrykit.regex.syntax import Backref, Conditional, parse, renumbered, top_alternatives, walk

if TYPE_CHECKING:
    from entrykit.authoring.merge import Merger

_GLOBAL_FLAGS = re.compile(r"\A\(\?([aiLmsux]+)\)")
_SCOPABLE = set("aimsux")  # (`L` is for bytes patterns only)


def scoped(pattern: str) -> str:
    """`pattern` with leading global inline flags (`(?i)...`) turned into a scoped group
    (`(?i:...)`), so it can stand as one alternative among others."""
    found = _GLOBAL_FLAGS.match(pattern)
    if not found or not set(found.group(1)) <= _SCOPABLE:
        return pattern
    # Under VERBOSE a `#` comment runs to the end of its line: the group ends on the next.
    end = "\n)" if "x" in found.group(1) else ")"
    return f"(?{found.group(1)}:{pattern[found.end():]}{end}"


_UNPARSED = (re.error, TooComplex, RecursionError, OverflowError, ValueError, TypeError)


def alternation(patterns: Sequence[str], flags: int = 0) -> str | None:
    """The patterns as alternatives of one regex, each referring to its own groups: a
    backreference or conditional of a later one renumbered past the groups before it. None
    where that cannot be done (`renumbered`) or the result refers to other groups than the
    patterns did (a VERBOSE comment read as pattern): such a combination would find other
    texts than they did."""
    unique = list(dict.fromkeys(patterns))
    if len(unique) == 1:
        return unique[0]
    try:
        counts = [parse(p, flags).groups for p in unique]
    except _UNPARSED:
        return "|".join(f"(?:{scoped(p)})" for p in unique)  # it does not compile: a conflict
    shifted = [renumbered(p, sum(counts[:i])) for i, p in enumerate(unique)]
    if any(p is None for p in shifted):
        return None
    joined = "|".join(f"(?:{scoped(str(p))})" for p in shifted)
    wanted = [n + sum(counts[:i]) for i, p in enumerate(unique) for n in _references(p, flags)]
    try:
        return joined if _references(joined, flags) == wanted else None
    except _UNPARSED:
        return joined  # it does not compile (a group name defined twice): a conflict


def _references(pattern: str, flags: int) -> list[int]:
    """The group of each backreference and conditional of `pattern`, in pattern order."""
    return [node.group for node, _ in walk(parse(pattern, flags).nodes) if isinstance(node, Backref | Conditional)]


def _messages(merger: Merger) -> list[tuple[str, list[str]]]:
    """Every input message once, with where it comes from ("<label> <pointer>")."""
    found: dict[str, list[str]] = {}
    for _, label, data in merger.sides():
        texts = [("/signature", data.get("signature"))]
        texts += [(jp.join("examples", i), m) for i, m in enumerate(data.get("examples") or [])]
        for where, text in texts:
            if isinstance(text, str):
                found.setdefault(text, []).append(f"{label} {where}")
    return list(found.items())


def _matched(pattern: str | None, texts: Sequence[str], merger: Merger) -> set[int] | None:
    """Indices of `texts` the pattern matches, or None if it does not compile in the budget."""
    return matched(pattern, texts, merger.flags, merger.mode)


def matched(pattern: str | None, texts: Sequence[str], flags: int, mode: str) -> set[int] | None:
    """Indices of `texts` the pattern matches as lookups run it, or None if it does not
    compile in the budget."""
    runner = shared_runner()
    if pattern is None or not runner.compiles(pattern, flags):
        return None
    outcomes = runner.run([Job(pattern, flags, mode, text) for text in texts])
    return {i for i, o in enumerate(outcomes) if o.status is Status.MATCH}


def alternatives_alone(pattern: str | None, flags: int) -> list[str]:
    """Each outermost alternative of `pattern` as a regex of its own (under the pattern's
    leading global flags). Under VERBOSE, whose `|` may sit in a comment, the whole pattern
    is the one alternative."""
    if pattern is None:
        return []
    found = _GLOBAL_FLAGS.match(pattern)
    leading = found.group(0) if found else ""
    if "x" in (found.group(1) if found else "") or flags & re.VERBOSE:
        return [pattern]
    branches = top_alternatives(pattern[len(leading):])
    return [leading + branch for branch in branches] if len(branches) > 1 else [pattern]


def unvouched(
    alternatives: Sequence[str], kept: Sequence[str], flags: int, mode: str, held: set[str] | None = None
) -> list[str]:
    """The alternatives the regexes of `kept` are not proven to find every text of: by
    holding it as one of their own outermost alternatives (a regex merged before, merged
    again), by literal text (`finds_all`), or by their automata read exactly
    (`others_find_all`: no anchor, lookaround or atomic part in `kept`). A search of the
    automata that finds no text is no proof where they are read as more than `re` finds,
    and neither are the messages: `fatal: not a git repository$` finds the message `fatal:
    not a git repository` but not `fatal: not a git repository (or any of the parent
    directories)`. `held`: the kept regexes' `_branches`, when the caller has them."""
    held = _branches(kept, flags) if held is None else held
    return [
        regex for regex in alternatives
        if not _held(regex, held)
        and not any(finds_all(other, regex, flags, mode) for other in kept)
        and not others_find_all(regex, kept, flags, mode)
    ]  # fmt: skip


def _branches(kept: Sequence[str], flags: int) -> set[str]:
    """The outermost alternatives of the regexes of `kept`, each as a regex of its own."""
    return {branch for other in kept for branch in alternatives_alone(other, flags)}


def _held(regex: str, branches: set[str]) -> bool:
    """Whether `regex` is one of `branches` as written, or as a merge writes an alternative
    (`(?:...)`, its flags scoped): a regex that holds it so finds every text it finds."""
    return regex in branches or f"(?:{scoped(regex)})" in branches


def _chosen(
    patterns: Sequence[str | None], covered: Sequence[set[int]], merger: Merger
) -> tuple[list[int], dict[int, str], dict[int, list[str]]]:
    """The inputs whose regexes the merged one holds, in input order: the survivor's, and each
    other that matches a message those before it miss or has an alternative they are not
    proven to find all of (`unvouched`); what each adds to the merged regex (`_piece`); and
    those alternatives of each."""
    chosen: list[int] = []
    pieces: dict[int, str] = {}
    unproven: dict[int, list[str]] = {}
    have: set[int] = set()
    for side, pattern in enumerate(patterns):
        if pattern is None or any(patterns[c] == pattern for c in chosen):
            continue
        alone: list[str] = []
        left: list[str] = []
        if side and chosen:
            kept = [pieces[c] for c in chosen]
            held = _branches(kept, merger.flags)
            if _held(pattern, held):  # merged before, merged again: nothing to add
                continue
            alone = alternatives_alone(pattern, merger.flags)
            left = unvouched(alone, kept, merger.flags, merger.mode, held)
        if side == 0 or covered[side] - have or left:
            pieces[side] = _piece(pattern, alone, left, merger.flags) if chosen else pattern
            chosen.append(side)
            have |= covered[side]
            if left:
                unproven[side] = left
    if not chosen:
        first = next(i for i, p in enumerate(patterns) if p is not None)
        chosen, pieces = [first], {first: str(patterns[first])}
    return chosen, pieces, unproven


def _piece(pattern: str, alone: Sequence[str], left: Sequence[str], flags: int) -> str:
    """What an absorbed regex adds to the merged one: of its outermost alternatives (`alone`,
    each a regex of its own), those the regexes before it are not proven to find all of
    (`left`), their flags scoped, where it is taken apart cleanly (no backreference, every
    alternative compiles alone); else all of it."""
    runner = shared_runner()
    if (
        not left
        or len(left) == len(alone)
        or _BACKREFERENCE.search(pattern)
        or not all(runner.compiles(regex, flags) for regex in alone)
    ):
        return pattern
    return "|".join(map(scoped, left))


# `\1`, `(?P=name)`, `(?(1)...)`: a part that refers to a group, whose number or name the
# other parts may hold once the regex is taken apart.
_BACKREFERENCE = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")


def _as_alternatives(merger: Merger, chosen: Sequence[int], unproven: dict[int, list[str]], split: set[int]) -> str:
    """How the merged regex was made of the chosen regexes; a note for each kept for want of
    a proof (`split`: those of which only such alternatives are kept)."""
    names = ", ".join(merger.labels[i] for i in chosen)
    how = f"the regexes of {names} as alternatives: each matches messages the others miss"
    if unproven:
        how += ", or has an alternative the others are not proven to find all of"
    for side, regexes in unproven.items():
        if side in split:
            spelled = ", ".join(f"`{regex}`" for regex in regexes)
            merger.note(
                f"`{merger.labels[side]}`'s alternatives {spelled} are kept: nothing proves that the other regexes "
                "find what they find"
            )
        else:
            merger.note(
                f"`{merger.labels[side]}`'s regex is kept as an alternative: nothing proves that the other regexes "
                f"find what its `{regexes[0]}` finds"
            )
    return how


def merge_regex(merger: Merger) -> None:
    merger.handled.add("regex")
    messages = _messages(merger)
    texts = [text for text, _ in messages]
    patterns = [data.get("regex") if isinstance(data.get("regex"), str) else None for data in merger.inputs]
    if all(p is None for p in patterns):
        return
    covered = [_matched(p, texts, merger) or set() for p in patterns]
    wanted = set().union(*covered)
    chosen, pieces, unproven = _chosen(patterns, covered, merger)
    whole = alternation([str(patterns[i]) for i in chosen], merger.flags)
    pattern = alternation([pieces[i] for i in chosen], merger.flags)
    after = _matched(pattern, texts, merger)
    if pattern != whole and (after is None or not wanted <= after):
        pieces = {i: str(patterns[i]) for i in chosen}  # taken apart, it loses a match: all of each
        pattern = whole
        after = _matched(pattern, texts, merger)
    if pattern is None or after is None or not wanted <= after:
        # The combination does not compile (flags that cannot be scoped), loses a match, or
        # cannot keep each regex's group references its own.
        options = tuple(Option(merger.labels[i], p, (merger.labels[i],)) for i, p in enumerate(patterns) if p is not None)
        about = "no combination of the inputs' regexes keeps every match; write one (`value`) that matches them all"
        picked = merger.decide(Conflict("/regex", "value", options, about))
        pattern = str(picked.value)
        after = _matched(pattern, texts, merger) or set()
        how = "chosen: the inputs' regexes do not combine"
    elif chosen == [0]:
        how = "the survivor's: it matches every message any input's regex matched"
    else:
        split = {side for side in chosen[1:] if pieces[side] != patterns[side]}
        how = _as_alternatives(merger, chosen, unproven, split)
    merger.out["regex"] = pattern
    for side, (label, original) in enumerate(zip(merger.labels, patterns, strict=True)):
        if original is None:
            continue
        if side in pieces and pieces[side] != original:
            kept = unproven[side]
            left_out = [regex for regex in alternatives_alone(original, merger.flags) if regex not in kept]
            spelled = ", ".join(f"`{regex}`" for regex in left_out)
            merger.drop(label, "/regex", original, f"its alternatives {spelled} are left out: the other regexes are proven to find all they find")
            merger.place(label, "regex", "/regex", original, "/regex", merged=True)
        elif side in chosen or original == pattern:
            merger.place(label, "regex", "/regex", original, "/regex", merged=side != chosen[0])
        else:
            reason = "the merged regex matches every message it matched" if covered[side] <= after else "another regex was chosen"
            merger.drop(label, "/regex", original, reason)
            merger.place(label, "regex", "/regex", original, "/regex", merged=True)
    counter = [m for m in merger.out.get("counterexamples") or [] if isinstance(m, str)]
    outcome = RegexOutcome(pattern, how, counterexamples=len(counter))
    for number, (text, sources) in enumerate(messages):
        before = tuple(merger.labels[i] for i in range(len(patterns)) if number in covered[i])
        outcome.texts.append(CoveredText(text, tuple(sources), before, number in after))
    merger.report.regex = outcome
    unmatched = [t for t in outcome.texts if not t.before and not t.after]
    for missed in unmatched:
        merger.note(f"no input's regex matched `{missed.text}` ({', '.join(missed.sources)}), and the merged one does not either")
    if counter:
        hits = _matched(pattern, counter, merger) or set()
        for index in sorted(hits):
            merger.note(f"the merged regex matches the counterexample `{counter[index]}`")
