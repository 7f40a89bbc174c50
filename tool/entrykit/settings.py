"""The shared settings tables of `[tool.entrykit]`: what each may hold, its defaults and checks.

Commands and rules both read these tables (`Config.settings`), so they are declared
here, with the configuration, and not with any one rule: reading a configuration
then needs the vocabularies of the analyses it configures (regex flags and modes,
locales, package names), never the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from entrykit.deferred import deferred
from entrykit.globs import GLOBS_LIMIT
from entrykit.regex.compiling import FLAG_NAMES, MODES
from entrykit.regex.runner import DEFAULT_TIMEOUT_MS
from entrykit.registry import Option, Section

if TYPE_CHECKING:
    from entrykit.translation import locales
    from entrykit.versions import package_names
else:  # loaded by the first check of a table that names them (babel, packaging): most runs have none
    locales = deferred("entrykit.translation.locales")
    package_names = deferred("entrykit.versions.package_names")

# Engines ET207 can check a regex against (`regex.portable_to`).
ENGINES = ("re2", "ecmascript")


def _check_locales(value: Any, where: str) -> None:
    """A list of locales: ValueError naming `where`, the bad locale and what was probably meant."""
    for item in value:
        problem = locales.problem_with_hint(item)
        if problem:
            raise ValueError(f"`{where}`: {item!r} {problem}")


def _check_aliases(value: Any, where: str) -> None:
    package_names.check_aliases(value, where)


def _check_vocabularies(value: Any, where: str) -> None:
    package_names.check_vocabularies(value, where)


def _check_allow(value: Any, where: str) -> None:
    """At most `GLOBS_LIMIT` patterns: an id that one of them matches is tried against each."""
    if len(value) > GLOBS_LIMIT:
        raise ValueError(f"`{where}` holds {len(value):,} patterns, more than the {GLOBS_LIMIT:,} it may hold")


def _check_glossary(value: Any, where: str) -> None:
    """The glossary: locale -> term -> a translation or a list of them."""
    _check_locales(list(value), where)
    for locale, terms in value.items():
        if not isinstance(terms, dict):
            raise ValueError(f"`{where}.{locale}` must be a table of terms, got {terms!r}")
        for term, accepted in terms.items():
            if not (isinstance(accepted, str) or (isinstance(accepted, list) and all(isinstance(a, str) for a in accepted))):
                raise ValueError(f"`{where}.{locale}.{term}` must be a string or a list of strings, got {accepted!r}")


_DECLARED = (
    Section(
        "dupes",
        {
            "threshold": Option(
                0.6,
                "Lowest score (0 to 1) at which two entries are reported as near-duplicates.",
                float,
                minimum=0.0,
                maximum=1.0,
            ),
            "candidate": Option(
                0.5,
                "Shingle Jaccard the MinHash LSH candidate search is tuned for (lower finds more, slower).",
                float,
                minimum=0.05,
                maximum=1.0,
            ),
            "allow": Option(
                [],
                "Id patterns (`*` globs) of intentional families: pairs whose two ids match one pattern are "
                "not reported, unless their signatures are one once normalised (a lookup cannot tell them "
                f"apart). At most {GLOBS_LIMIT:,} patterns.",
                list,
                items=str,
                validate=_check_allow,
                unique=True,
            ),
        },
        "What ET502 and `entrykit dupes` count as near-duplicate entries.",
    ),
    Section(
        "merge",
        {
            "rate_gap": Option(
                0.2,
                "`merge` reports rates (`confidence`, `fix_success_rate`, an item's rate) on which its inputs "
                "differ by more than this.",
                float,
                minimum=0.0,
                maximum=1.0,
            ),
        },
        "How `entrykit merge` reconciles near-duplicate entries.",
    ),
    Section(
        "regex",
        {
            "flags": Option(
                [],
                "Flags every lookup compiles regexes with (`IGNORECASE`, `MULTILINE`, `DOTALL`, "
                "`VERBOSE`, `ASCII`).",
                kind=list,
                items=str,
                choices=tuple(FLAG_NAMES),
                unique=True,
            ),
            "mode": Option(
                "search",
                "How lookups apply a regex: `search` anywhere in the text, `match` at its "
                "start, `fullmatch` the whole text.",
                choices=MODES,
            ),
            "timeout_ms": Option(
                DEFAULT_TIMEOUT_MS,
                "Time budget of compiling one regex, in milliseconds (counted in compile steps "
                "of about a microsecond, ET206), and of each `measure` timing. Matching is not "
                "timed: its budget is 500,000 counted steps of CPython's matcher (ET206).",
                kind=int,
                minimum=1,
                maximum=60_000,
            ),
            "polynomial_degree": Option(
                3,
                "ET205 reports polynomial backtracking of this degree or higher as a warning "
                "(lower degrees from a repeated group as info).",
                kind=int,
                minimum=2,
                maximum=100,
            ),
            "measure": Option(
                False,
                "Also time each ET205 attack at growing sizes in the regex worker and add what it "
                "took to the message (a finding the timing does not confirm is one level milder). "
                "Reads a clock, so output differs between runs and machines; off by default.",
                kind=bool,
            ),
            "portable_to": Option(
                [],
                "Engines every regex must also compile in and mean the same in (`re2`, "
                "`ecmascript`); empty turns ET207 off.",
                kind=list,
                items=str,
                choices=ENGINES,
                unique=True,
            ),
        },
        "How lookups run entry regexes; every regex rule follows these settings.",
    ),
    Section(
        "translation",
        {
            "required": Option(
                ["zh"],
                "Locales every entry must be translated into (babel form: `zh`, `ja`, `pt_BR`).",
                kind=list,
                items=str,
                validate=_check_locales,
                unique=True,
            ),
            "fields": Option(
                ["signature", "root_cause", "workarounds"],
                "Fields that are translated; a list field's translation holds one string per item.",
                kind=list,
                items=str,
                unique=True,
            ),
            "track_source": Option(
                False,
                "Record in `translated_from` a fingerprint of the source each translation was made "
                "from, and warn (ET307) when the source has changed since.",
                kind=bool,
            ),
            "glossary": Option(
                {},
                "Translations of terms the project accepts in place of the term (ET305), per locale: "
                '`glossary.zh = { HEAD = "头指针" }` (a string or a list of strings).',
                kind=dict,
                validate=_check_glossary,
            ),
        },
        "Which locales and fields translations are required for.",
    ),
    Section(
        "versions",
        {
            "aliases": Option(
                {},
                "More package aliases, `canonical = [aliases]` (added to the built-in table in "
                "`entrykit/data/versions.toml`; a name given here as canonical is no alias).",
                kind=dict,
                validate=_check_aliases,
            ),
            "vocabularies": Option(
                {},
                'Version vocabularies of packages not numbered by PEP 440: `package = [names, oldest '
                'first]` or `package = "date"` (added to the built-in ones, e.g. `ros2`).',
                kind=dict,
                validate=_check_vocabularies,
            ),
        },
        "How version rows name packages and order versions that are not PEP 440 numbers.",
    ),
)

SECTIONS: dict[str, Section] = {section.name: section for section in _DECLARED}
