"""ET6xx: what an entry says is consistent: dates, rates, repeated or contradicting actions, sources, freshness."""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Iterator
from datetime import date
from functools import lru_cache
from itertools import pairwise
from typing import Any
from urllib.parse import urlsplit

from entrykit import pointer as jp
from entrykit.diagnostic import Finding, Related, Severity
from entrykit.entry import Entry
from entrykit.registry import Context, Option, rule
from entrykit.similarity.actions import (
    SAME_ACTION_IN_ENTRY,
    action_similarity,
    alike_pairs,
)
from entrykit.similarity.phrases import normalize_phrase

DATE_FIELDS = ("first_seen", "last_confirmed", "last_updated")


def _date(value: Any) -> date | None:
    if not isinstance(value, str) or len(value) != 10:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _rate(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


@rule("ET601", "dates-out-of-order", dated=True)
def dates_out_of_order(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Dates are out of order or in the future.

    `first_seen` <= `last_confirmed` <= `last_updated`, and none of them after
    today (`--today` sets today for reproducible runs).

    ## Why is this bad?
    Readers judge how current an entry is from its dates; an error confirmed
    before it was first seen, or a date in the future, makes every date suspect.

    ## Example
    ```yaml
    first_seen: "2024-06-01"
    last_confirmed: "2023-08-20"
    ```

    ## Use instead
    ```yaml
    first_seen: "2023-08-20"
    last_confirmed: "2024-06-01"
    ```
    """
    dated = [(name, _date(entry.data.get(name))) for name in DATE_FIELDS]
    present = [(name, value) for name, value in dated if value is not None]
    for (earlier, first), (later, second) in pairwise(present):
        if second < first:
            yield Finding(
                f"/{later}",
                f"`{later}` {second.isoformat()} is before `{earlier}` {first.isoformat()}",
            )
    for name, value in present:
        if value > ctx.today:
            yield Finding(f"/{name}", f"`{name}` {value.isoformat()} is in the future (today is {ctx.today.isoformat()})")


@rule(
    "ET602",
    "verdict-inconsistent",
    severity=Severity.WARNING,
    options={
        "min_resolvable_rate": Option(
            0.5, "Lowest `fix_success_rate` an entry marked `resolvable: \"true\"` may have.", float
        ),
        "max_unresolvable_rate": Option(
            0.2, "Highest `fix_success_rate` an entry marked `resolvable: \"false\"` may have.", float
        ),
    },
)
def verdict_inconsistent(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Verdict fields contradict each other.

    Checks that `resolvable` agrees with `fix_success_rate` (a `"true"` entry
    needs a rate of at least `min_resolvable_rate` and at least one workaround; a
    `"false"` entry at most `max_unresolvable_rate`), and that `fix_success_rate`
    is not above what the workarounds reach together: the sum of their
    `success_rate`s (at most 1), which for one workaround is its own rate.
    Trying a second workaround when the first fails fixes more cases than either
    alone (0.9 and 0.8 can reach 0.98), so a rate above the best single one is
    no contradiction; a rate above the sum is, whatever the workarounds share.

    ## Why is this bad?
    Agents decide from the verdict whether to try a fix at all; a "resolvable"
    error that is rarely fixed, or a fix rate the workarounds cannot reach, misleads them.

    ## Example
    ```yaml
    resolvable: "true"
    fix_success_rate: 0.95
    workarounds:
      - action: Load the same checkpoint on every rank
        success_rate: 0.8
    ```

    ## Use instead
    ```yaml
    resolvable: "true"
    fix_success_rate: 0.8
    workarounds:
      - action: Load the same checkpoint on every rank
        success_rate: 0.8
    ```

    ## Options
    - `min_resolvable_rate` (float, default 0.5)
    - `max_unresolvable_rate` (float, default 0.2)
    """
    resolvable = entry.data.get("resolvable")
    rate = _rate(entry.data.get("fix_success_rate"))
    workarounds = [w for w in entry.list_field("workarounds") if isinstance(w, dict)]
    if resolvable == "true":
        if rate is not None and rate < ctx.options["min_resolvable_rate"]:
            yield Finding(
                "/resolvable",
                f"`resolvable` is `true` but `fix_success_rate` is only {rate:g}",
            )
        if not workarounds:
            yield Finding("/resolvable", "`resolvable` is `true` but there is no workaround")
    elif resolvable == "false" and rate is not None and rate > ctx.options["max_unresolvable_rate"]:
        yield Finding(
            "/resolvable", f"`resolvable` is `false` but `fix_success_rate` is {rate:g}"
        )
    rates = [r for r in (_rate(w.get("success_rate")) for w in workarounds) if r is not None]
    if rate is None or not rates:
        return
    # Rounded so that 0.3 + 0.6 is 0.9, as the writer meant, and not 0.8999999999999999.
    reachable = min(1.0, round(math.fsum(rates), 9))
    if rate > reachable:
        if len(rates) == 1:
            why = f"its one workaround's `success_rate` {rates[0]:g}"
        else:
            why = f"what its workarounds reach together ({reachable:g}, the sum of their `success_rate`s)"
        yield Finding("/fix_success_rate", f"`fix_success_rate` {rate:g} is above {why}")


@rule(
    "ET603",
    "confidence-unsupported",
    severity=Severity.WARNING,
    options={
        "max_confidence": Option(
            [0.5, 0.75, 0.9],
            "Highest `confidence` for 0, 1, 2, ... pieces of evidence; beyond the list, any.",
            list,
            items=float,
        ),
    },
)
def confidence_unsupported(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Confidence is higher than the evidence supports.

    `confidence` may be at most `max_confidence[evidence_count]`: by default 0.5
    with no evidence, 0.75 with one report, 0.9 with two, anything with three or
    more. Entries without `evidence_count` are not checked.

    ## Why is this bad?
    A single unconfirmed report presented with 87% confidence tells agents to
    trust a root cause nobody has reproduced twice.

    ## Example
    ```yaml
    confidence: 0.87
    evidence_count: 1
    ```

    ## Use instead
    ```yaml
    confidence: 0.87
    evidence_count: 3
    ```

    ## Options
    - `max_confidence` (list of floats, default `[0.5, 0.75, 0.9]`)
    """
    confidence = _rate(entry.data.get("confidence"))
    evidence = entry.data.get("evidence_count")
    if confidence is None or isinstance(evidence, bool) or not isinstance(evidence, int):
        return
    limits = ctx.options["max_confidence"]
    if 0 <= evidence < len(limits) and confidence > limits[evidence]:
        plural = "report" if evidence == 1 else "reports"
        yield Finding(
            "/confidence",
            f"`confidence` {confidence:g} is above {limits[evidence]:g}, the most that "
            f"{evidence} {plural} of evidence supports",
        )


def _actions(entry: Entry, field: str) -> Iterator[tuple[int, str, Any]]:
    """(index, action, item) of each item with an action (its pointer is made for a finding only)."""
    for index, item in enumerate(entry.list_field(field)):
        if isinstance(item, dict) and isinstance(item.get("action"), str):
            yield index, item["action"], item


COMPARISON_BUDGET = 5_000  # action pairs compared per entry: a list of any length costs bounded steps


@rule("ET604", "repeated-action", severity=Severity.WARNING)
def repeated_action(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """The same action appears twice in `dead_ends` or in `workarounds`, in the same or other words.

    Actions are compared by what they say (entrykit's action similarity: commands,
    flags and identifiers whole, other words folded, negation and contrasts read), at the
    bar used within one entry, so "Use the `--allow-unrelated-histories` flag" and "Use
    `--allow-unrelated-histories` flag on merge or pull" are one action, while "on all
    blocks" and "on one block" are not. An action listed both as a dead end and as a
    workaround is ET608.

    ## Why is this bad?
    A repeated item inflates the list and skews the rates; readers try the same thing
    twice, and a merge of two entries cannot tell which wording to keep.

    ## Example
    ```yaml
    workarounds:
      - action: Use --allow-unrelated-histories flag
        success_rate: 0.95
      - action: "Use --allow-unrelated-histories flag: git merge main --allow-unrelated-histories"
        success_rate: 0.9
    ```

    ## Use instead
    ```yaml
    workarounds:
      - action: Use --allow-unrelated-histories flag
        success_rate: 0.95
        how: git merge main --allow-unrelated-histories
    ```
    """
    for field in ("dead_ends", "workarounds"):
        found = list(_actions(entry, field))
        pairs = alike_pairs([action for _, action, _ in found], SAME_ACTION_IN_ENTRY, COMPARISON_BUDGET)
        reported: set[int] = set()
        for pair in pairs:
            if pair.second in reported:
                continue
            reported.add(pair.second)
            index, action, _ = found[pair.second]
            earlier = jp.join(field, found[pair.first][0], "action")
            how = "repeats" if pair.score == 1.0 else "says again, in other words,"
            yield Finding(jp.join(field, index, "action"), f"action {how} `{earlier.lstrip('/')}`: `{action[:60]}`")


def _condition(item: dict[str, Any]) -> str:
    value = item.get("condition")
    return normalize_phrase(value) if isinstance(value, str) else ""


@rule("ET608", "action-both-dead-end-and-workaround", severity=Severity.WARNING)
def action_both_dead_end_and_workaround(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """An action is listed both as a dead end and as a workaround, and no condition tells them apart.

    Actions are compared as ET604 compares them, in the same or other words. A dead end
    and a workaround that each state a `condition`, and different ones, are not
    reported: the conditions say when which holds.

    ## Why is this bad?
    The entry says the same step fails (`fail_rate`) and works (`success_rate`); a
    reader cannot tell whether to try it. It happens when two entries are merged whose
    authors judged the step differently.

    ## Example
    ```yaml
    dead_ends:
      - action: Set CUDA_LAUNCH_BLOCKING=1
        fail_rate: 0.55
    workarounds:
      - action: Set CUDA_LAUNCH_BLOCKING=1 to get the exact failing line
        success_rate: 0.93
    ```

    ## Use instead
    ```yaml
    dead_ends:
      - action: Set CUDA_LAUNCH_BLOCKING=1
        fail_rate: 0.55
        condition: the GPU is in an unknown error state
    workarounds:
      - action: Set CUDA_LAUNCH_BLOCKING=1 to get the exact failing line
        success_rate: 0.93
        condition: a device-side assert was triggered
    ```
    """
    dead = list(_actions(entry, "dead_ends"))
    work = list(_actions(entry, "workarounds"))
    steps = 0
    for w_index, w_action, w_item in work:
        for d_index, d_action, d_item in dead:
            if steps >= COMPARISON_BUDGET:
                return
            steps += 1
            if _condition(w_item) and _condition(d_item) and _condition(w_item) != _condition(d_item):
                continue
            same = normalize_phrase(w_action) == normalize_phrase(d_action)
            if same or action_similarity(w_action, d_action) >= SAME_ACTION_IN_ENTRY:
                w_where, d_where = jp.join("workarounds", w_index, "action"), jp.join("dead_ends", d_index, "action")
                yield Finding(
                    w_where,
                    f"action is also the dead end `{d_where.lstrip('/')}` (`{d_action[:60]}`); give each a `condition` or keep one",
                    related=(Related(entry.path, d_where),),
                )
                break


@rule("ET605", "how-repeats-action", severity=Severity.WARNING)
def how_repeats_action(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """A workaround's `how` repeats its `action` word for word.

    `how` is for the steps the one-line `action` cannot hold; a copy of the
    action adds nothing.

    ## Why is this bad?
    Rendered pages and agents show both fields, so readers read the same sentence
    twice and look in vain for the steps.

    ## Example
    ```yaml
    - action: Load the same checkpoint on every rank
      how: Load the same checkpoint on every rank
    ```

    ## Use instead
    ```yaml
    - action: Load the same checkpoint on every rank
      how: "On rank 0 save the state dict; barrier; load it with map_location='cpu' on every rank."
    ```
    """
    for index, item in enumerate(entry.list_field("workarounds")):
        if not isinstance(item, dict):
            continue
        action, how = item.get("action"), item.get("how")
        if not (isinstance(action, str) and isinstance(how, str) and how.strip()):
            continue
        if normalize_phrase(action) == normalize_phrase(how):
            yield Finding(jp.join("workarounds", index, "how"), "`how` repeats `action` word for word")


_PRIVATE_SUFFIXES = (".localhost", ".local", ".internal", ".lan", ".home", ".corp", ".intranet")


MAX_KEPT_URL = 2048  # characters of a URL whose verdict is kept (a long one is judged each time)


def url_problem(url: str) -> str | None:
    """Why a source URL is unfit for a public entry, or None."""
    return _kept_url_problem(url) if len(url) <= MAX_KEPT_URL else _url_problem(url)


@lru_cache(maxsize=4096)  # entries of one corpus cite the same few pages
def _kept_url_problem(url: str) -> str | None:
    return _url_problem(url)


def _url_problem(url: str) -> str | None:
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname or ""
    except ValueError:
        return "is not a valid URL"
    if parts.scheme.lower() not in ("http", "https"):
        return "is not an http(s) URL"
    if not host:
        return "has no host"
    address = ip_address_of(host)
    if address is None:
        single_label = "." not in host
        if host == "localhost" or single_label or host.endswith(_PRIVATE_SUFFIXES):
            return f"points at the private host `{host}`"
        return None
    if not address.is_global:
        return f"points at the non-public address `{host}`"
    return None


_DOTTED_DIGITS = frozenset("0123456789.")


def ip_address_of(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a URL's host names, if it is one (`127.0.0.1`, `::1`, `2130706433`)."""
    if ":" not in host and not host.isdigit() and not _DOTTED_DIGITS.issuperset(host):
        return None  # a name: neither IPv4 (digits and dots) nor IPv6 (colons), without raising twice to learn it
    try:
        return ipaddress.ip_address(int(host) if host.isdigit() else host)
    except ValueError:
        return None


def _urls(entry: Entry) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(pointer tokens, URL) of each source (the pointer is made for a finding only)."""
    doc = entry.data.get("official_doc_url")
    if isinstance(doc, str) and doc:
        yield ("official_doc_url",), doc
    for field in ("dead_ends", "workarounds"):
        for index, item in enumerate(entry.list_field(field)):
            if not isinstance(item, dict) or not isinstance(item.get("sources"), list):
                continue
            for number, url in enumerate(item["sources"]):
                if isinstance(url, str):
                    yield (field, index, "sources", number), url


@rule("ET606", "unsafe-source-url")
def unsafe_source_url(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """A source URL is not http(s) or points at a private or loopback host.

    Checked: `official_doc_url` and every `sources` item of dead ends and
    workarounds. Private means loopback, link-local, private and reserved IP
    ranges (also written as a bare number), `localhost`, single-label hosts and
    hosts under `.local`, `.internal`, `.lan` and similar.

    ## Why is this bad?
    Readers and agents follow sources; `file:`, `javascript:` or intranet links
    are dead for them at best and an attack at worst.

    ## Example
    ```yaml
    sources:
      - http://127.0.0.1:8080/notes
      - file:///home/me/fix.txt
    ```

    ## Use instead
    ```yaml
    sources:
      - https://pytorch.org/docs/stable/fsdp.html
    ```
    """
    for where, url in _urls(entry):
        problem = url_problem(url)
        if problem:
            yield Finding(jp.join(*where), f"source `{url[:80]}` {problem}")


@rule(
    "ET607",
    "entry-not-confirmed",
    severity=Severity.WARNING,
    dated=True,
    options={
        "max_age_days": Option(730, "Days since `last_confirmed` after which an entry is stale.", int)
    },
)
def entry_not_confirmed(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Entry has not been confirmed for longer than the configured age.

    `last_confirmed` older than `max_age_days` (default 730) before today.

    ## Why is this bad?
    Errors change with versions; an entry nobody has reproduced for years may
    describe a message the tool no longer prints, or a fix that no longer works.

    ## Example
    ```yaml
    last_confirmed: "2022-01-10"
    ```

    ## Use instead
    Reproduce the error, then:
    ```yaml
    last_confirmed: "2026-11-30"
    ```

    ## Options
    - `max_age_days` (int, default 730)
    """
    confirmed = _date(entry.data.get("last_confirmed"))
    if confirmed is None:
        return
    age = (ctx.today - confirmed).days
    if age > ctx.options["max_age_days"]:
        yield Finding(
            "/last_confirmed",
            f"`last_confirmed` {confirmed.isoformat()} is {age} days old "
            f"(limit {ctx.options['max_age_days']})",
        )
