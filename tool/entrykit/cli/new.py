"""`entrykit new`: write a new entry from prompts or from options."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from entrykit import registry
from entrykit.authoring import formatter, scaffold
from entrykit.cli.common import (
    CommandError,
    ExitCode,
    command_config,
    config_option,
    corpus_entries,
    root_option,
    write_failure,
)
from entrykit.cli.entry_files import schema_ref, write_entry
from entrykit.config import Config
from entrykit.corpus import Corpus
from entrykit.diagnostic import Severity
from entrykit.entry import Entry
from entrykit.errors import EntrykitError
from entrykit.lint.engine import configured
from entrykit.lint.engine import lint as run_lint
from entrykit.lint.reporters import REPORTERS, summary_line
from entrykit.loader import decode, display_path, read_entry_bytes
from entrykit.output_safety import escape, escape_lines
from entrykit.parsing import parse_json
from entrykit.paths import entry_path, is_valid_id
from entrykit.positions import first_nonfinite
from entrykit.roundtrip import NotEditable
from entrykit.schema import project_schema
from entrykit.versions.package_names import Naming, configured_naming
from entrykit.versions.rows import check_row
from entrykit.writing import atomic_write


def _prompt(label: str, default: Any = None, **options: Any) -> Any:
    """`click.prompt`, its default shown escaped: defaults come from --from and the corpus."""
    shown = label if default is None or default == "" else f"{label} [{escape(str(default))}]"
    return click.prompt(shown, default=default, show_default=False, **options)


def _ask_rate(label: str, default: float | None = None) -> float:
    while True:
        text = _prompt(label, None if default is None else str(default))
        try:
            return scaffold.parse_rate(text)
        except ValueError:
            click.echo(f"  `{escape(text)}` is not a rate: give 0.8 or 80%")


def _ask_required(label: str, default: str | None = None) -> str:
    while True:
        value = _prompt(label, default or None).strip()
        if value:
            return value


def _ask_optional(label: str, default: str = "") -> str:
    return str(_prompt(label, default)).strip()


def _read_message(default: str | None) -> str:
    """The pasted error output: lines up to the first empty line."""
    if default:
        return _ask_required("Error message", default)
    click.echo("Paste the error message (a traceback is fine), then an empty line:")
    lines: list[str] = []
    while True:
        line = click.prompt("", default="", show_default=False, prompt_suffix="")
        if not line.strip():
            if lines:
                return "\n".join(lines)
            continue
        lines.append(line)


def _show_matches(found: list[Entry]) -> None:
    click.echo("Already in the corpus (their regex matches this message):")
    for entry in found:
        click.echo(f"  {escape(str(entry.id))}  ({escape(entry.path)})")


def _on_match_interactive(found: list[Entry], message: str) -> str:
    """`stop` or `continue`, as the contributor chooses; _AddExample if they choose to add the
    message to an entry's examples and it can be."""
    _show_matches(found)
    while True:
        choice = click.prompt(
            "[s]top, add it as an [e]xample of an existing entry, or [c]ontinue with a new entry",
            type=click.Choice(["s", "e", "c"]), default="s",
        )
        if choice != "e":
            return {"s": "stop", "c": "continue"}[choice]
        target = found[0]
        if len(found) > 1:
            shown_ids = [escape(str(e.id)) for e in found]  # the choices are shown: ids from the corpus
            answer = click.prompt("Which entry", type=click.Choice(shown_ids), default=shown_ids[0])
            target = found[shown_ids.index(answer)]
        click.echo(f"  {escape(_offer_example(target, message))}")


def _offer_example(target: Entry, message: str) -> str:
    """_AddExample with `target`'s text holding `message` in its examples; where there is
    nothing to add or the file cannot be edited, why not."""
    held = scaffold.held_message(target, message)
    if held is not None:
        return f"{target.id} already holds this message as {held}; there is nothing to add"
    try:
        text = scaffold.add_example(target.text, target.fmt, message)
    except NotEditable as exc:
        return f"{target.id} cannot be edited ({exc}); fix {target.path} first"
    raise _AddExample(target, text)


def _add_as_example(entry: Entry, text: str, root: Path) -> None:
    atomic_write(entry.abspath, text, within=root)
    click.echo(f"added the message to the examples of {escape(str(entry.id))} ({escape(entry.path)})")


def _interactive_answers(
    start: dict[str, Any], config: Config, corpus: list[Entry], today: date
) -> scaffold.Answers:
    """Ask for every field, with `start` (from --from and options) as defaults."""
    regex_settings = config.settings.get("regex", {})
    signature = _ask_signature(start, corpus, regex_settings)
    domain = _ask_domain(start, signature, Corpus(corpus).domains())
    entry_id = _ask_id(start, signature, domain, corpus)
    category = _ask_category(start, signature, scaffold.corpus_categories(corpus, domain))
    regex = _ask_regex(start, signature, corpus, regex_settings)
    root_cause = _ask_required("Root cause (why it happens)", start.get("root_cause"))
    dead_ends = _ask_dead_ends(list(start.get("dead_ends", [])))
    workarounds = _ask_workarounds(list(start.get("workarounds", [])))
    naming = configured_naming(config.settings.get("versions", {}))
    versions = _ask_versions(_checked_rows(start.get("versions", []), naming), naming)
    translations = _ask_translations(
        start, config.settings.get("translation", {}).get("required", []), signature, root_cause, workarounds
    )
    evidence = _prompt(
        "Evidence count (independent reports)", int(start.get("evidence_count", 1)), type=click.IntRange(0)
    )
    confidence = _ask_rate("Confidence that the root cause is right (0-1)", start.get("confidence", 0.7))
    first_seen = _prompt(
        "First seen (YYYY-MM-DD)", str(start.get("first_seen", today.isoformat())), type=click.DateTime(["%Y-%m-%d"])
    )
    confirmed = _prompt(
        "Last confirmed (YYYY-MM-DD)",
        str(start.get("last_confirmed", today.isoformat())),
        type=click.DateTime(["%Y-%m-%d"]),
    )
    return scaffold.Answers(
        signature=signature, entry_id=entry_id, category=category, regex=regex, root_cause=root_cause,
        dead_ends=dead_ends, workarounds=workarounds, versions=versions, translations=translations,
        first_seen=first_seen.date(), last_confirmed=confirmed.date(), evidence_count=evidence,
        confidence=confidence, extra=_extra_fields(start),
    )


def _ask_signature(start: dict[str, Any], corpus: list[Entry], regex_settings: Mapping[str, Any]) -> str:
    """The signature, from the pasted message; _Stopped or _AddExample if the contributor
    chooses so for an entry that already matches it."""
    signature = start.get("signature") or scaffold.pick_signature(_read_message(None))
    signature = _ask_required("Signature (the line that states the error)", signature)
    found = scaffold.entries_matching(signature, corpus, regex_settings)
    if not found:
        click.echo("No entry in the corpus matches this message yet.")
        return signature
    if _on_match_interactive(found, signature) == "stop":
        raise _Stopped("nothing written: the error is already in the corpus")
    return signature


def _ask_domain(start: dict[str, Any], signature: str, domains: list[str]) -> str:
    if domains:
        click.echo(f"Domains in the corpus: {escape(', '.join(domains))}")
    guessed = start.get("id", "").split("/")[0] if start.get("id") else scaffold.guess_domain(signature, domains)
    while True:
        domain = _ask_required("Domain", guessed)
        if scaffold.SEGMENT.fullmatch(domain):
            return domain
        click.echo("  a domain is lowercase letters and digits joined by `-`, `_` or `.`")


def _ask_id(start: dict[str, Any], signature: str, domain: str, corpus: list[Entry]) -> str:
    taken = {str(e.id) for e in corpus if e.id}
    suggested = start.get("id") or scaffold.unique_id(domain, scaffold.suggest_slug(signature), taken)
    while True:
        entry_id = _ask_required("Id", suggested)
        if not is_valid_id(entry_id) or not entry_id.startswith(domain + "/"):
            click.echo(f"  an id is `{domain}/<slug>` in lowercase letters, digits, `-`, `_`, `.`")
        elif entry_id in taken:
            click.echo(f"  `{escape(entry_id)}` is taken")
        else:
            return entry_id


def _ask_category(start: dict[str, Any], signature: str, categories: list[str]) -> str:
    if categories:
        click.echo(f"Categories in the corpus: {escape(', '.join(categories))}")
    default_category = start.get("category") or _default_category(signature, categories) or "runtime_error"
    while True:
        category = _ask_required("Category", default_category)
        if re.fullmatch(r"[a-z][a-z0-9_]*", category):
            return category
        click.echo("  a category is snake_case")


def _ask_regex(start: dict[str, Any], signature: str, corpus: list[Entry], regex_settings: Mapping[str, Any]) -> str:
    """A regex that compiles and matches the signature, shown against the corpus each time."""
    regex = start.get("regex") or scaffold.suggested_regex(signature, regex_settings)
    while True:
        check = scaffold.check_regex(regex, signature, regex_settings)
        if check.error:
            click.echo(f"  does not compile: {escape(str(check.error))}")
        elif not check.ok:
            click.echo("  does not match the signature")
        else:
            click.echo(f"  matches: {escape(str(check.matched))}")
            others = scaffold.signatures_matched(regex, corpus, regex_settings)
            if others:
                click.echo(f"  also matches the signature of: {escape(', '.join(str(o) for o in others))}")
        answer = _ask_required("Regex", regex)
        if answer == regex and check.ok:
            return regex
        regex = answer


def _ask_dead_ends(dead_ends: list[Any]) -> list[Any]:
    """`dead_ends` and those the contributor adds."""
    click.echo("Dead ends: what people try that does not fix it (empty action to finish).")
    while True:
        action = _ask_optional(f"Dead end {len(dead_ends) + 1}")
        if not action:
            return dead_ends
        why = _ask_required("  Why does it fail")
        dead_ends.append({"action": action, "why_fails": why, "fail_rate": _ask_rate("  Fail rate (0-1 or %)")})


def _ask_workarounds(workarounds: list[Any]) -> list[Any]:
    """`workarounds` and those the contributor adds."""
    click.echo("Workarounds: what does fix it (empty action to finish).")
    while True:
        action = _ask_optional(f"Workaround {len(workarounds) + 1}")
        if not action:
            return workarounds
        item: dict[str, Any] = {"action": action, "success_rate": _ask_rate("  Success rate (0-1 or %)")}
        how = _ask_optional("  How, step by step (optional)")
        if how:
            item["how"] = how
        workarounds.append(item)


def _ask_versions(versions: list[scaffold.VersionRow], naming: Naming) -> list[scaffold.VersionRow]:
    """`versions` and the rows the contributor adds, each in canonical form."""
    click.echo("Versions it applies to, one `<package><specifier>` row each (empty to finish).")
    while True:
        typed = _ask_optional(f"Version row {len(versions) + 1}")
        if not typed:
            return versions
        row = check_row(typed, naming)
        if row.canonical is None:
            click.echo(f"  {escape(str(row.problem))}; e.g. `python>=3.11`, `torch>=2.0,<2.3`, `CUDA 11.x+`")
            continue
        versions.append(row.canonical)
        if row.guessed:
            click.echo(f"  -> {escape(row.canonical)} (that release only; add `.*` for the whole series)")
        else:
            click.echo(f"  -> {escape(row.canonical)}")


def _ask_translations(
    start: dict[str, Any], locales: list[str], signature: str, root_cause: str, workarounds: list[Any]
) -> dict[str, Any]:
    """The translations given in `start`, and those asked for into each required locale."""
    translations = {k: v for k, v in start.items() if re.match(r"^(signature|root_cause|workarounds|dead_ends)_", k) and k != "root_cause_type"}
    for locale in locales:
        click.echo(f"Translations into `{locale}` (empty: leave it for a translator; lint will say it is missing).")
        for field_name, source in (("signature", signature), ("root_cause", root_cause)):
            key = f"{field_name}_{locale}"
            value = _ask_optional(f"{field_name} ({locale}) for: {escape(source)}", translations.get(key, ""))
            translations[key] = value
        steps = []
        for item in workarounds:
            steps.append(_ask_optional(f"workaround ({locale}) for: {escape(str(item.get('action', '')))}"))
        translations[f"workarounds_{locale}"] = steps if all(steps) else []
    return translations


_ANSWERED = {
    "id", "signature", "regex", "domain", "category", "root_cause", "dead_ends", "workarounds", "versions",
    "first_seen", "last_confirmed", "last_updated", "evidence_count", "confidence", "fix_success_rate", "resolvable",
}


def _extra_fields(start: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in start.items() if k not in _ANSWERED and not re.match(r"^(signature|root_cause|workarounds|dead_ends)_(?!type$)", k)}


def _default_category(signature: str, categories: list[str]) -> str | None:
    """The category of the exception the message names, else the corpus's most used one."""
    return scaffold.category_from_exception(signature, categories) or (categories[0] if categories else None)


class _Stopped(Exception):
    """The contributor chose not to write a new entry."""


class _AddExample(Exception):
    """The contributor chose to add the message to `target`'s examples: its edited text."""

    def __init__(self, target: Entry, text: str) -> None:
        super().__init__(str(target.id))
        self.target = target
        self.text = text


def _json_object(path: Path, config: Config) -> Any:
    """The JSON in `path`, read as the loader reads entries (a regular file within the limits)."""
    raw = read_entry_bytes(path, config.max_file_bytes)
    if isinstance(raw, str):
        raise CommandError(f"cannot read {path}: {raw}")
    text, problem = decode(raw)
    if text is None:
        line, col, message = problem or (1, 1, "cannot decode file")
        raise CommandError(f"cannot read {path}:{line}:{col}: {message}")
    parsed = parse_json(text, config.max_nesting)
    if parsed.problem is not None:
        found = parsed.problem
        raise CommandError(f"cannot read {path}:{found.line}:{found.col}: {found.message}")
    nonfinite = first_nonfinite(text) if parsed.needs_positions else None
    if nonfinite is not None:  # an entry written with it would hold `.nan` or `.inf`
        raise CommandError(
            f"{path}:{nonfinite.line}:{nonfinite.col}: `{nonfinite.detail}` is not a finite number (ET005)"
        )
    return parsed.data


def _checked_rows(rows: list[Any], naming: Naming) -> list[scaffold.VersionRow]:
    """The canonical form of rows given by options or --from (an item given whole keeps its
    other fields: `status`, `introduced`, ...); CommandError for one that is no row."""
    checked: list[scaffold.VersionRow] = []
    for given in rows:
        text = given.get("version") if isinstance(given, dict) else given
        row = check_row(text if isinstance(text, str) else "", naming)
        if row.canonical is None:
            raise CommandError(f"version row: {row.problem}")
        checked.append({**given, "version": row.canonical} if isinstance(given, dict) else row.canonical)
    return checked


def _split_option(value: str, parts: int, what: str) -> list[str]:
    pieces = [p.strip() for p in value.split("|")]
    if len(pieces) < parts - 1 or len(pieces) > parts:
        raise CommandError(f"{what} `{value}` is not `{' | '.join(['…'] * parts)}`")
    return pieces + [""] * (parts - len(pieces))


def _scripted_answers(start: dict[str, Any], config: Config, corpus: list[Entry], today: date) -> scaffold.Answers:
    """Answers from --from and options alone (--no-input): defaults where sensible, else an error."""
    signature = start.get("signature")
    if not signature:
        raise CommandError("--no-input needs --signature (or `signature` in --from)")
    root_cause = start.get("root_cause")
    if not root_cause:
        raise CommandError("--no-input needs --root-cause (or `root_cause` in --from)")
    domains = Corpus(corpus).domains()
    entry_id = start.get("id")
    if not entry_id:
        domain = start.get("domain") or scaffold.guess_domain(signature, domains)
        if not domain:
            raise CommandError("cannot tell the domain from the message; give --id or --domain")
        entry_id = scaffold.unique_id(domain, scaffold.suggest_slug(signature), {str(e.id) for e in corpus if e.id})
    domain = entry_id.split("/")[0]
    category = start.get("category") or _default_category(signature, scaffold.corpus_categories(corpus, domain))
    if not category:
        raise CommandError("give --category (the message names no exception and the corpus has no category)")
    regex = start.get("regex") or scaffold.suggested_regex(signature, config.settings.get("regex", {}))
    def day(key: str) -> date | None:
        value = start.get(key)
        return date.fromisoformat(value) if isinstance(value, str) else None
    return scaffold.Answers(
        signature=signature, entry_id=entry_id, category=category, regex=regex, root_cause=root_cause,
        dead_ends=list(start.get("dead_ends", [])), workarounds=list(start.get("workarounds", [])),
        versions=_checked_rows(start.get("versions", []), configured_naming(config.settings.get("versions", {}))),
        translations={k: v for k, v in start.items() if re.match(r"^(signature|root_cause|workarounds|dead_ends)_(?!type$)", k)},
        first_seen=day("first_seen"), last_confirmed=day("last_confirmed"),
        evidence_count=int(start.get("evidence_count", 1)), confidence=start.get("confidence"),
        fix_success_rate=start.get("fix_success_rate"), extra=_extra_fields(start),
    )


@dataclass(frozen=True)
class _Kind:
    """What a value in the --from file must be: the words an error says it with, and the test."""

    wanted: str
    fits: Callable[[Any], bool]


_LARGEST_COUNT = 2**53  # every JSON reader holds whole numbers up to it exactly


def _is_count(value: Any) -> bool:
    if isinstance(value, float):  # JSON's `3.0` is a whole number; `1e30` is one too, out of range
        return value.is_integer() and 0 <= value <= _LARGEST_COUNT
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _LARGEST_COUNT


def _is_date(value: Any) -> bool:
    if not (isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:  # `2024-02-30`
        return False
    return True


_TEXT = _Kind("a string", lambda value: isinstance(value, str))
_LIST = _Kind("a list", lambda value: isinstance(value, list))
_OBJECT = _Kind("an object", lambda value: isinstance(value, dict))
_ROW = _Kind("a string or an object with a `version`", lambda value: isinstance(value, (str, dict)))
_DATE = _Kind("a date (YYYY-MM-DD)", _is_date)
_COUNT = _Kind(f"a whole number from 0 to {_LARGEST_COUNT}", _is_count)
# (a number no double holds, `NaN` or `Infinity` is refused where the file is read: ET005)
_NUMBER = _Kind("a number", lambda value: isinstance(value, (int, float)) and not isinstance(value, bool))

# The kinds of the fields `new` reads from --from, by place: `workarounds[]` is each item of
# `workarounds`, `workarounds[].how` its `how`. A place comes after the place holding it.
_FROM_TYPES: dict[str, _Kind] = {
    **dict.fromkeys(("signature", "id", "domain", "category", "regex", "root_cause"), _TEXT),
    **dict.fromkeys(("first_seen", "last_confirmed"), _DATE),
    "evidence_count": _COUNT,
    **dict.fromkeys(("confidence", "fix_success_rate"), _NUMBER),
    **dict.fromkeys(("dead_ends", "workarounds", "versions"), _LIST),
    **dict.fromkeys(("dead_ends[]", "workarounds[]"), _OBJECT),
    **dict.fromkeys(
        ("dead_ends[].action", "dead_ends[].why_fails", "workarounds[].action", "workarounds[].how"), _TEXT
    ),
    **dict.fromkeys(("dead_ends[].fail_rate", "workarounds[].success_rate"), _NUMBER),
    "versions[]": _ROW,
    "versions[].version": _TEXT,
}


def _values_at(data: dict[str, Any], place: str) -> list[tuple[str, Any]]:
    """The values at `place` (`workarounds[].how`) in the --from data, each with where it is
    (`workarounds[1].how`)."""
    found: list[tuple[str, Any]] = [("", data)]
    for step in re.findall(r"\[\]|[^.\[\]]+", place):
        if step == "[]":
            found = [
                (f"{at}[{n}]", item) for at, value in found if isinstance(value, list) for n, item in enumerate(value)
            ]
        else:
            found = [
                (f"{at}.{step}" if at else step, value[step])
                for at, value in found
                if isinstance(value, dict) and step in value
            ]
    return found


@click.command("new")
@click.option("--no-input", is_flag=True, help="Ask nothing: take every answer from options and --from.")
@click.option("--from", "from_file", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              help="A JSON object of entry fields: answers (with --no-input) or defaults for the prompts.")
@click.option("--signature", help="The error message, verbatim.")
@click.option("--id", "entry_id", help="`<domain>/<slug>` (default: suggested from the message).")
@click.option("--domain", help="The domain, when --id is not given.")
@click.option("--category", help="snake_case kind of error (default: the corpus's most used in the domain).")
@click.option("--regex", help="Default: derived from the message.")
@click.option("--root-cause", help="Why the error happens.")
@click.option("--dead-end", "dead_ends", multiple=True, metavar="ACTION | WHY | RATE", help="Repeatable.")
@click.option("--workaround", "workarounds", multiple=True, metavar="ACTION | RATE [| HOW]", help="Repeatable.")
@click.option("--version", "versions", multiple=True, metavar="ROW", help="`<package><specifier>`; repeatable.")
@click.option("--translation", "translations", multiple=True, metavar="FIELD_LOCALE=TEXT",
              help="e.g. `signature_zh=…`; `workarounds_zh=…` repeated, one per workaround.")
@click.option("--on-match", type=click.Choice(["stop", "example", "continue"]), default="stop", show_default=True,
              help="With --no-input, when an entry already matches the message.")
@click.option("--force", is_flag=True, help="Overwrite the entry's file if it exists (default: refuse).")
@click.option("--today", type=click.DateTime(formats=["%Y-%m-%d"]), help="Date to treat as today (YYYY-MM-DD).")
@config_option
@root_option
def new_command(
    no_input: bool, from_file: Path | None, signature: str | None, entry_id: str | None, domain: str | None,
    category: str | None, regex: str | None, root_cause: str | None, dead_ends: tuple[str, ...],
    workarounds: tuple[str, ...], versions: tuple[str, ...], translations: tuple[str, ...], on_match: str,
    force: bool, today: datetime | None, config_path: Path | None, root: Path | None,
) -> None:
    """Write a new entry: paste the error, see what already matches, answer a few questions.

    Writes `<root>/<domain>/<slug>.yaml`, lints it and shows the result. Ctrl-C or
    EOF at any prompt writes nothing.
    """
    try:
        config = configured(command_config(config_path, root))  # checked before anything is written
    except EntrykitError as exc:
        raise CommandError(str(exc)) from None
    day = today.date() if today else date.today()
    start = _from_file_fields(from_file, config) if from_file is not None else {}
    given = {"signature": signature, "id": entry_id, "domain": domain, "category": category, "regex": regex,
             "root_cause": root_cause}
    start.update({k: v for k, v in given.items() if v})
    _add_item_options(start, dead_ends, workarounds, versions)
    _add_translation_options(start, translations)
    corpus = corpus_entries(config)
    try:
        if no_input:
            answers = _scripted_answers(start, config, corpus, day)
            _stop_at_a_match(answers.signature, corpus, config, on_match)
        else:
            answers = _interactive_answers(start, config, corpus, day)
        written = _write_answers(answers, config, day, confirm=not no_input, force=force)
    except click.Abort:
        click.echo("\naborted; nothing written", err=True)
        click.get_current_context().exit(int(ExitCode.ERROR))
    except _Stopped as exc:
        click.echo(escape(str(exc)))  # it can name an entry of the corpus
        return
    except _AddExample as exc:
        try:
            _add_as_example(exc.target, exc.text, config.root)
        except OSError as error:
            raise CommandError(f"{write_failure(error)}; no file was changed") from None
        return
    except (ValueError, EntrykitError) as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"{write_failure(exc)}; nothing written") from None
    click.echo(f"wrote {escape(display_path(written))}")
    _report_written(written, config, day)


def _from_file_fields(from_file: Path, config: Config) -> dict[str, Any]:
    """The entry fields in the --from file; CommandError for one of the wrong type."""
    start = _json_object(from_file, config)
    if not isinstance(start, dict):
        raise CommandError(f"{from_file} must hold a JSON object of entry fields")
    for place, kind in _FROM_TYPES.items():
        for at, value in _values_at(start, place):
            if not kind.fits(value):
                raise CommandError(f"{from_file}: `{at}` must be {kind.wanted}")
    return start


def _add_item_options(
    start: dict[str, Any], dead_ends: tuple[str, ...], workarounds: tuple[str, ...], versions: tuple[str, ...]
) -> None:
    """The --dead-end and --workaround options added to `start`'s lists; --version rows replace its rows."""
    for value in dead_ends:
        action, why, rate = _split_option(value, 3, "--dead-end")
        start.setdefault("dead_ends", []).append({"action": action, "why_fails": why, "fail_rate": _rate_option(rate)})
    for value in workarounds:
        action, rate, how = _split_option(value, 3, "--workaround")
        item: dict[str, Any] = {"action": action, "success_rate": _rate_option(rate)}
        if how:
            item["how"] = how
        start.setdefault("workarounds", []).append(item)
    if versions:
        start["versions"] = [{"version": v} for v in versions]


def _add_translation_options(start: dict[str, Any], translations: tuple[str, ...]) -> None:
    """Each --translation into `start`: a text field set, a list's item appended."""
    for value in translations:
        key, sep, text = value.partition("=")
        if not sep or not re.fullmatch(r"(signature|root_cause|workarounds|dead_ends)_[A-Za-z]{2,3}(_[A-Za-z0-9]+)*", key):
            raise CommandError(f"--translation `{value}` is not `<field>_<locale>=TEXT`")
        if key.startswith(("workarounds_", "dead_ends_")):
            start.setdefault(key, []).append(text)
        else:
            start[key] = text


def _stop_at_a_match(signature: str, corpus: list[Entry], config: Config, on_match: str) -> None:
    """With --no-input, what --on-match says for entries whose regex already matches the
    message: _AddExample, _Stopped, or exit with the matches shown (nothing for `continue`)."""
    found = scaffold.entries_matching(signature, corpus, config.settings.get("regex", {}))
    if not found or on_match == "continue":
        return
    if on_match == "example" and len(found) == 1:
        raise _Stopped(f"nothing written: {_offer_example(found[0], signature)}")
    _show_matches(found)
    click.echo("nothing written (--on-match continue writes a new entry anyway)", err=True)
    click.get_current_context().exit(int(ExitCode.FINDINGS))


def _write_answers(answers: scaffold.Answers, config: Config, day: date, *, confirm: bool, force: bool) -> Path:
    """The entry built from `answers`, written (shown and confirmed first if `confirm`); its path."""
    data = scaffold.build_entry(answers, day)
    target = entry_path(config.root, answers.entry_id)
    if target.exists() and not force:
        raise CommandError(f"`{display_path(target)}` exists; choose another id (--force overwrites it)")
    if confirm:
        click.echo(escape_lines(formatter.dump_entry(data, "yaml", schema_ref(target, config))))
        verb = "Overwrite" if target.exists() else "Write"
        if not click.confirm(f"{verb} {escape(display_path(target))}?", default=True):
            raise _Stopped("nothing written")
    return write_entry(config.root, data, config, "yaml", overwrite=force)


def _report_written(written: Path, config: Config, day: date) -> None:
    """Where the schema for editors is, and the new entry's lint; exit 1 on an error finding."""
    schema_file = project_schema(config.base, config.schema)
    if not schema_file.is_file():
        shown_schema = escape(display_path(schema_file))
        click.echo(f"editors check it against {shown_schema} once `entrykit schema --output {shown_schema}` writes it")
    result = run_lint([written], config, day)
    out = io.StringIO()
    REPORTERS["text"](result.diagnostics, registry.all_rules(), out)
    out.write(summary_line(result.diagnostics, len(result.files)) + "\n")
    click.echo(out.getvalue(), nl=False)
    if result.count(Severity.ERROR):
        click.get_current_context().exit(int(ExitCode.FINDINGS))


def _rate_option(text: str) -> float:
    try:
        return scaffold.parse_rate(text)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
