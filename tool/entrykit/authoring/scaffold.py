"""Scaffolding for `entrykit new`: suggestions from an error message, answers to an entry.

Everything here is pure (data in, data or text out); the prompts, the final write
and the exit status live in `cli/new.py`.
"""

from __future__ import annotations

import builtins
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ruamel.yaml.comments import CommentedSeq

from entrykit.authoring.formatter import styled
from entrykit.entry import Entry
from entrykit.paths import SEGMENT, is_valid_id, shown
from entrykit.regex.compiling import compile_pattern
from entrykit.regex.counting import MATCH_STEPS
from entrykit.regex.lookup import Lookup
from entrykit.regex.runner import Job, RegexSettings, Status
from entrykit.regex.suggest import suggest_regex
from entrykit.roundtrip import NotEditable, editable_document
from entrykit.versions.rows import normalize_version_row

_ERROR_LINE = re.compile(r"(error|exception|fatal|failed|denied|not found|unable|cannot|can't|invalid)", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_STOP = {"a", "an", "the", "of", "to", "in", "on", "for", "is", "are", "was", "be", "by", "at", "or", "and", "it", "this", "that", "with"}
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`")
_APOSTROPHE = re.compile(r"(?<=[A-Za-z])['’](?=[A-Za-z])")  # can't, user's: one word
_PLURAL_MARK = re.compile(r"(?<=[A-Za-z])\((?:s|es)\)", re.IGNORECASE)  # type(s), match(es)
_HEX = re.compile(r"\b0x[0-9A-Fa-f]+\b")  # 0xff would leave the word `xff`
# An exception class as messages name it, with its module path: `json.decoder.JSONDecodeError`.
_EXCEPTION = re.compile(r"(?<![\w.])((?:[A-Za-z_]\w*\.)*)([A-Z][A-Za-z0-9]*(?:Error|Exception|Warning))\b")
# Message shapes that name their tool, for a domain guess when no corpus domain is named.
_DOMAIN_HINTS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(fatal|error|hint): |\bgit\b", re.M), "git"),
    (re.compile(r"\bpip\b|^ERROR: (Could not|No matching distribution|Invalid requirement)", re.M), "pip"),
    (re.compile(r"^npm (ERR!|error)|\bnode:|\bnode_modules\b", re.M), "node"),
    (re.compile(r"\bsqlite\b|^(Parse|Runtime) error( near line \d+)?:", re.M | re.I), "sqlite3"),
    (re.compile(r"^Traceback \(most recent call last\)|^[A-Z]\w*(Error|Exception|Warning): ", re.M), "python"),
]


def pick_signature(pasted: str) -> str:
    """From pasted output (a traceback, a log), the line that states the error."""
    lines = [line.rstrip() for line in pasted.strip("\n").splitlines() if line.strip()]
    if not lines:
        return ""
    for line in reversed(lines):
        if _ERROR_LINE.search(line) and not line.lstrip().startswith(("File ", "at ", "^")):
            return line.strip()
    return lines[-1].strip()


def guess_domain(message: str, domains: Iterable[str]) -> str | None:
    """A corpus domain the message names as a word, else one its shape suggests."""
    words = {w.lower() for w in re.findall(r"[A-Za-z0-9._-]+", message)}
    for domain in sorted(domains, key=len, reverse=True):
        if domain in words:
            return domain
    for pattern, domain in _DOMAIN_HINTS:
        if pattern.search(message):
            return domain
    return None


def suggest_slug(message: str, words: int = 6) -> str:
    """`ModuleNotFoundError: No module named 'x'` -> `modulenotfounderror-no-module-named`.

    Quoted names, numbers, hex values, module paths of exception classes, plural
    marks (`type(s)`) and apostrophes (`can't`) leave no word behind, nor do single letters.
    """
    line = pick_signature(message) or message
    line = _EXCEPTION.sub(lambda found: found.group(2), line)
    line = _PLURAL_MARK.sub("", _APOSTROPHE.sub("", line))
    line = _HEX.sub(" ", _QUOTED.sub(" ", line))
    tokens = [w.lower() for w in _WORD.findall(line)]
    kept = [t for t in tokens if t not in _STOP and len(t) > 1][:words]
    slug = "-".join(kept)
    return slug if SEGMENT.fullmatch(slug) else "error"


def exception_class(message: str) -> str | None:
    """The exception class the message names first (`TypeError`), without its module."""
    found = _EXCEPTION.search(pick_signature(message) or message)
    return found.group(2) if found else None


def _snake(name: str) -> str:
    """`ModuleNotFoundError` -> `module_not_found_error`, `JSONDecodeError` -> `json_decode_error`."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def _exception_lineage(name: str) -> list[str]:
    """The class and, for a Python built-in exception, its bases up to `Exception`."""
    found = getattr(builtins, name, None)  # a name lookup only: nothing is imported or run
    if not (isinstance(found, type) and issubclass(found, BaseException)):
        return [name]
    stop = {"Exception", "BaseException", "object"}
    return [cls.__name__ for cls in found.__mro__ if cls.__name__ not in stop]


def category_from_exception(message: str, known: Sequence[str]) -> str | None:
    """The category of the exception the message names: the first of the class and its
    built-in bases (`ModuleNotFoundError` -> `import_error`) that `known` holds, else
    the class in snake_case (`TypeError` -> `type_error`); None when it names none."""
    name = exception_class(message)
    if name is None:
        return None
    lineage = [_snake(cls) for cls in _exception_lineage(name)]
    return next((category for category in lineage if category in known), lineage[0])


def unique_id(domain: str, slug: str, taken: Iterable[str]) -> str:
    """`<domain>/<slug>`, with `-2`, `-3`, ... if that id is taken."""
    taken = set(taken)
    candidate, number = f"{domain}/{slug}", 2
    while candidate in taken:
        candidate, number = f"{domain}/{slug}-{number}", number + 1
    return candidate


def entries_matching(message: str, entries: Iterable[Entry], regex_settings: Mapping[str, Any]) -> list[Entry]:
    """Entries whose regex already recognises `message`, most specific first, the way
    `entrykit match` finds them (the corpus regex index, each regex under the budget)."""
    regex = RegexSettings.of(regex_settings)
    found, _ = Lookup(list(entries), regex.flags, regex.mode, regex.runner()).match(message)
    return [m.entry for m in found]


def signatures_matched(pattern: str, entries: Iterable[Entry], regex_settings: Mapping[str, Any]) -> list[str]:
    """Ids of the entries whose signature `pattern` matches (one budgeted batch)."""
    regex = RegexSettings.of(regex_settings)
    if not regex.runner().compiles(pattern, regex.flags):
        return []
    named = [(e.id, e.str_field("signature")) for e in entries if e.id and e.str_field("signature")]
    outcomes = regex.runner().run([Job(pattern, regex.flags, regex.mode, str(sig)) for _, sig in named])
    return [str(entry_id) for (entry_id, _), outcome in zip(named, outcomes, strict=True) if outcome.status is Status.MATCH]


@dataclass(frozen=True)
class RegexCheck:
    """What a candidate regex does with the message: compiles? matches? where?"""

    error: str | None
    matched: str | None

    @property
    def ok(self) -> bool:
        return self.error is None and self.matched is not None


def check_regex(pattern: str, message: str, regex_settings: Mapping[str, Any]) -> RegexCheck:
    """Compile `pattern` and run it on `message` under the budgets."""
    regex = RegexSettings.of(regex_settings)
    runner = regex.runner()
    compiled = runner.compile_check(pattern, regex.flags)
    if compiled.status is Status.TIMEOUT:
        return RegexCheck(f"compiling it takes longer than the {regex.timeout_ms} ms time budget", None)
    if compiled.status is Status.ERROR:
        return RegexCheck(compiled.error, None)
    [outcome] = runner.run([Job(pattern, regex.flags, regex.mode, message)])
    if outcome.status is Status.TIMEOUT:
        return RegexCheck(f"needs more than the budget of {MATCH_STEPS:,} matching steps on the message", None)
    if outcome.status is not Status.MATCH:
        return RegexCheck(None, None)
    # The same regex, text and mode just finished within the step budget: running it
    # again here takes no more steps than that.
    found = getattr(compile_pattern(pattern, regex.flags), regex.mode)(message)
    return RegexCheck(None, found.group(0) if found else message)


def parse_rate(text: str) -> float:
    """`0.8`, `80%` or `80` -> 0.8; ValueError outside 0..1 (0..100 %)."""
    raw = text.strip()
    is_percent = raw.endswith("%")
    try:
        value = float(raw.rstrip("%").strip())
    except ValueError:
        raise ValueError(f"`{text}` is not a rate between 0 and 1 (or 0% and 100%)") from None
    if is_percent or value > 1:
        value = value / 100
    if not 0 <= value <= 1:
        raise ValueError(f"`{text}` is not a rate between 0 and 1 (or 0% and 100%)")
    return round(value, 4)


# A version row as typed (`torch>=2.0`), or a `versions` item given whole (`new --from`)
VersionRow = str | dict[str, Any]


def version_row(row: VersionRow) -> dict[str, Any]:
    """A `versions` item from a row as typed (its status `active`), or from an item given
    whole, its other fields kept as given (lint checks them against the schema)."""
    if isinstance(row, str):
        return {"version": normalize_version_row(row), "status": "active"}
    return {"status": "active", **row, "version": normalize_version_row(str(row["version"]))}


@dataclass
class Answers:
    """What the contributor told `entrykit new` (or a script passed in)."""

    signature: str
    entry_id: str
    category: str
    regex: str
    root_cause: str
    dead_ends: list[dict[str, Any]] = field(default_factory=list)
    workarounds: list[dict[str, Any]] = field(default_factory=list)
    versions: list[VersionRow] = field(default_factory=list)
    translations: dict[str, Any] = field(default_factory=dict)  # `signature_zh` -> text, ...
    first_seen: date | None = None
    last_confirmed: date | None = None
    evidence_count: int = 1
    confidence: float | None = None
    fix_success_rate: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # other schema fields from --from


def build_entry(answers: Answers, today: date) -> dict[str, Any]:
    """The entry's data; key order is left to the writer (schema order)."""
    if not is_valid_id(answers.entry_id):
        raise ValueError(f"id `{shown(answers.entry_id)}` is not `<domain>/<slug>`")
    domain = answers.entry_id.split("/")[0]
    rates = [w["success_rate"] for w in answers.workarounds if isinstance(w.get("success_rate"), (int, float))]
    fix_rate = answers.fix_success_rate if answers.fix_success_rate is not None else (max(rates) if rates else None)
    entry: dict[str, Any] = dict(answers.extra)
    entry.update(
        {
            "id": answers.entry_id,
            "signature": answers.signature,
            "regex": answers.regex,
            "domain": domain,
            "category": answers.category,
            "root_cause": answers.root_cause,
            "dead_ends": answers.dead_ends,
            "workarounds": answers.workarounds,
            "first_seen": (answers.first_seen or today).isoformat(),
            "last_confirmed": (answers.last_confirmed or today).isoformat(),
            "last_updated": today.isoformat(),
            "evidence_count": answers.evidence_count,
            "resolvable": "true" if answers.workarounds else "false",
        }
    )
    if answers.versions:
        entry["versions"] = [version_row(row) for row in answers.versions]
    if fix_rate is not None:
        entry["fix_success_rate"] = fix_rate
    if answers.confidence is not None:
        entry["confidence"] = answers.confidence
    for key, value in answers.translations.items():
        if value not in (None, "", []):
            entry[key] = value
    return entry


def corpus_categories(entries: Sequence[Entry], domain: str | None = None) -> list[str]:
    """Categories used in the corpus, most used first (within `domain` first, if given)."""
    counts: Counter[str] = Counter()
    for entry in entries:
        category = entry.str_field("category")
        if category:
            bonus = 1000 if domain and entry.str_field("domain") == domain else 0
            counts[category] += 1 + bonus
    return [name for name, _ in counts.most_common()]


def held_message(entry: Entry, message: str) -> str | None:
    """Where `entry` already holds `message` (`its signature`, `its example 2`), or None."""
    wanted = message.strip()
    if (entry.str_field("signature") or "").strip() == wanted:
        return "its signature"
    for number, example in enumerate(entry.list_field("examples"), 1):
        if isinstance(example, str) and example.strip() == wanted:
            return f"its example {number}"
    return None


def add_example(text: str, fmt: str, message: str) -> str:
    """An existing entry's text with `message` appended to its `examples` (comments kept);
    NotEditable if the round-trip editor cannot load it, or its `examples` is there but is
    no list to append to (an absent `examples` is added)."""
    document = editable_document(text, fmt)
    data = document.data
    examples = data.get("examples")
    if "examples" in data:
        _check_appendable(data, examples)
    if isinstance(examples, list):
        if message not in examples:
            examples.append(styled(message) if fmt == "yaml" else message)
        return document.dump()
    if fmt == "json":
        data["examples"] = [message]
        return document.dump()
    keys = list(data)
    position = keys.index("regex") + 1 if "regex" in keys else len(keys)
    data.insert(position, "examples", CommentedSeq([styled(message)]))
    return document.dump()


def _check_appendable(data: Any, examples: Any) -> None:
    """NotEditable unless `examples` is a list no other value of the document shares."""
    if not isinstance(examples, list):
        raise NotEditable("`examples` is not a list")
    # An anchored list (`&e`, `*e`, `<<: *base`) is also another field's value: appending
    # to it would add the message there too.
    anchor = getattr(examples, "anchor", None)
    if (anchor is not None and anchor.value is not None) or _occurrences(data, examples) > 1:
        raise NotEditable("`examples` is a YAML anchor or alias: appending to it would change other fields")


def _occurrences(data: Any, target: Any) -> int:
    """How many places of `data` hold the very object `target`."""
    count = 0
    stack = [data]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        children = list(node.values()) if isinstance(node, dict) else list(node)
        count += sum(child is target for child in children)
        stack.extend(child for child in children if isinstance(child, (dict, list)))
    return count


def suggested_regex(signature: str, regex_settings: Mapping[str, Any]) -> str:
    """The regex `new` offers for `signature`, written for the configured flags."""
    return suggest_regex(signature, flags=RegexSettings.of(regex_settings).flags)
