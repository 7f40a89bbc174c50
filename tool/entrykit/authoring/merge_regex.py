"""The merged entry's regex: it matches every message any input's regex matched.

Coverage is counted on the messages of all inputs (signatures and examples), each regex
run as lookups run it (flags, match mode, time budget). The survivor's regex stays when it
covers what every input's regex covered; otherwise the regexes that cover more are added
as alternatives, in input order, and the combination is checked on every message. The
messages are the evidence that one regex finds what another finds: an outermost
alternative of an input's regex (`a|b`) is kept too when it matches no message, or matches
a text that no regex already kept finds (a part of a message, a text spelled from the
alternative: each branch, each kind of character of a class, each repeat its fewest times
and once more; or the shortest text the automata of the regexes show it finds and the kept
ones do not, once `re` agrees), unless the kept regexes are proven to find everything it
finds (`regex.subsumption` for literal text, `regex.inclusion` for their automata);
dropping it could lose every log line it was written for. Of an input's regex only the
alternatives kept are added, where it can be taken apart. An input's regex is never
replaced by text derived from a signature. A message no input's regex matched stays
unmatched (the input already had that finding), and the report says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from entrykit import pointer as jp
from entrykit.authoring.merge_model import Conflict, CoveredText, Option, RegexOutcome
from entrykit.regex.inclusion import missed_text, others_find_all
from entrykit.regex.runner import Job, Outcome, Status, shared_runner
from entrykit.regex.subsumption import finds_all
from entrykit.regex.syntax import top_alternatives
from entrykit.regex.witness import branch_texts

if TYPE_CHECKING:
    from entrykit.authoring.merge import Merger

_GLOBAL_FLAGS = re.compile(r"\A\(\?([aiLmsux]+)\)")
_SCOPABLE = set("imsx")


def scoped(pattern: str) -> str:
    """`pattern` with leading global inline flags (`(?i)...`) turned into a scoped group
    (`(?i:...)`), so it can stand as one alternative among others."""
    found = _GLOBAL_FLAGS.match(pattern)
    if not found or not set(found.group(1)) <= _SCOPABLE:
        return pattern
    return f"(?{found.group(1)}:{pattern[found.end():]})"


def alternation(patterns: Sequence[str]) -> str:
    unique = list(dict.fromkeys(patterns))
    return unique[0] if len(unique) == 1 else "|".join(f"(?:{scoped(p)})" for p in unique)


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
    outcomes = _outcomes(pattern, texts, flags, mode)
    return None if outcomes is None else {i for i, o in enumerate(outcomes) if o.status is Status.MATCH}


def _outcomes(pattern: str | None, texts: Sequence[str], flags: int, mode: str) -> list[Outcome] | None:
    runner = shared_runner()
    if pattern is None or not runner.compiles(pattern, flags):
        return None
    return runner.run([Job(pattern, flags, mode, text) for text in texts])


def alternatives_alone(pattern: str | None, texts: Sequence[str], flags: int, mode: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each outermost alternative of `pattern` as a regex of its own (under the pattern's
    leading global flags), with the part of each of `texts` it matches. An alternative that
    does not compile alone (a backreference to another's group) matches none; under VERBOSE,
    whose `|` may sit in a comment, the whole pattern is the one alternative."""
    if pattern is None:
        return []
    found = _GLOBAL_FLAGS.match(pattern)
    leading = found.group(0) if found else ""
    if "x" in (found.group(1) if found else "") or flags & re.VERBOSE:
        alone: tuple[str, ...] = (pattern,)
    else:
        branches = top_alternatives(pattern[len(leading):])
        alone = tuple(leading + branch for branch in branches) if len(branches) > 1 else (pattern,)
    return [(regex, _matched_parts(regex, texts, flags, mode)) for regex in alone]


def _matched_parts(pattern: str, texts: Sequence[str], flags: int, mode: str) -> tuple[str, ...]:
    outcomes = _outcomes(pattern, texts, flags, mode)
    if outcomes is None:
        return ()  # (does not compile: it matches nothing)
    return tuple(text[o.start : o.end] for text, o in zip(texts, outcomes, strict=True) if o.status is Status.MATCH)


def unvouched(alternatives: Sequence[tuple[str, tuple[str, ...]]], kept: Sequence[str], flags: int, mode: str) -> list[str]:
    """The alternatives no regex of `kept` is shown to find all of: none provably finds
    everything it finds (`finds_all`), and it matched no message, or no kept regex finds
    some text it matched: a part of a message (`torch.cuda.OutOfMemoryError` beside `CUDA
    out of memory`, although both match `torch.cuda.OutOfMemoryError: CUDA out of memory`),
    or one spelled from it (`witness.branch_texts`: `manifest not found` for `manifest
    (unknown|not found)` where the messages only hold `manifest unknown`), or one found in
    the regexes' automata (`_missed`), or it is not spelled (a lookaround)."""
    left = []
    for regex, parts in alternatives:
        if any(finds_all(other, regex, flags, mode) for other in kept) or others_find_all(regex, kept, flags, mode):
            continue
        spelled = branch_texts(regex, flags) if parts else None
        if spelled is None:  # (it matched no message, or it is not spelled: nothing shows it covered)
            left.append(regex)
            continue
        texts = parts + _matched_parts(regex, spelled, flags, mode)
        found: set[int] = set()
        for other in kept:
            found |= matched(other, texts, flags, mode) or set()
        if len(found) < len(texts) or _missed(regex, kept, flags, mode):
            left.append(regex)
    return left


def _missed(regex: str, kept: Sequence[str], flags: int, mode: str) -> bool:
    """Whether the automata of the regexes show a text `regex` finds and no kept regex finds
    (`inclusion.missed_text`), and `re` agrees: `port 000 is` for `port \\d+ is` beside
    `port \\d{1,2} is`, which no message or spelled text shows."""
    text = missed_text(regex, kept, flags, mode)
    if text is None or not matched(regex, [text], flags, mode):
        return False
    return not any(matched(other, [text], flags, mode) for other in kept)


def _chosen(
    patterns: Sequence[str | None], covered: Sequence[set[int]], texts: Sequence[str], merger: Merger
) -> tuple[list[int], dict[int, str], dict[int, list[str]]]:
    """The inputs whose regexes the merged one holds, in input order: the survivor's, and each
    other that matches a message those before it miss or has an alternative they are not
    shown to find all of (`unvouched`); what each adds to the merged regex (`_piece`); and
    those alternatives of each."""
    chosen: list[int] = []
    pieces: dict[int, str] = {}
    unproven: dict[int, list[str]] = {}
    have: set[int] = set()
    for side, pattern in enumerate(patterns):
        if pattern is None or any(patterns[c] == pattern for c in chosen):
            continue
        alone: list[tuple[str, tuple[str, ...]]] = []
        left: list[str] = []
        if side and chosen:
            kept = [pieces[c] for c in chosen]
            alone = alternatives_alone(pattern, texts, merger.flags, merger.mode)
            left = unvouched(alone, kept, merger.flags, merger.mode)
        if side == 0 or covered[side] - have or left:
            pieces[side] = _piece(pattern, [regex for regex, _ in alone], left, merger.flags) if chosen else pattern
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
    each a regex of its own), those the regexes before it are not shown to find all of
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
    evidence (`split`: those of which only such alternatives are kept)."""
    names = ", ".join(merger.labels[i] for i in chosen)
    how = f"the regexes of {names} as alternatives: each matches messages the others miss"
    if unproven:
        how += ", or has an alternative the others are not shown to find all of"
    for side, regexes in unproven.items():
        if side in split:
            spelled = ", ".join(f"`{regex}`" for regex in regexes)
            merger.note(
                f"`{merger.labels[side]}`'s alternatives {spelled} are kept: nothing shows that the other regexes "
                "find what they find (each matches no message, or a text they do not find)"
            )
        else:
            merger.note(
                f"`{merger.labels[side]}`'s regex is kept as an alternative: nothing shows that the other regexes "
                f"find what its `{regexes[0]}` finds (it matches no message, or a text they do not find)"
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
    chosen, pieces, unproven = _chosen(patterns, covered, texts, merger)
    whole = alternation([str(patterns[i]) for i in chosen])
    pattern = alternation([pieces[i] for i in chosen])
    after = _matched(pattern, texts, merger)
    if pattern != whole and (after is None or not wanted <= after):
        pieces = {i: str(patterns[i]) for i in chosen}  # taken apart, it loses a match: all of each
        pattern = whole
        after = _matched(pattern, texts, merger)
    if after is None or not wanted <= after:
        # The combination does not compile (flags that cannot be scoped) or loses a match.
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
            left_out = [regex for regex, _ in alternatives_alone(original, [], merger.flags, "search") if regex not in kept]
            spelled = ", ".join(f"`{regex}`" for regex in left_out)
            merger.drop(label, "/regex", original, f"its alternatives {spelled} are left out: the other regexes are shown to find all they find")
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
