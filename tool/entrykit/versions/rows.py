"""Version rows as people type them, turned into `<package><specifier>`.

`check_row` reads a row as it is typed (`entrykit new` asks again until it can):
its canonical form with aliases resolved (`CUDA 11.x+` -> `cuda>=11`, `pytorch 2.x`
-> `torch==2.*`), or why it is no row. Rows that come in whole (`--from`) are
stored through `normalize_version_row`: text it cannot read is only tidied (case,
spacing), so ET401 reports it. The importer keeps the source's wording
(`row_from`), so lint shows the corpus as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from entrykit.versions.package_names import Naming, default_naming
from entrykit.versions.specifiers import normalize, parse

_OPERATOR = re.compile(r"(===|~=|==|!=|<=|>=|<|>)")
_ANY = {"", "any", "*", ">=any", "all"}
# Words of a sentence, never of a package name: `It happens on every version of pip.`
# parses as the package `it-happens-on-every-version-of-pip.`, which no tool knows.
_PROSE = {"a", "an", "the", "of", "on", "in", "for", "with", "and", "or", "to", "from", "since", "every", "is",
          "are", "it", "this", "happens", "works", "version", "versions", "newer", "older"}
_MAX_NAME_WORDS = 3  # `Google Cloud SDK`


@dataclass(frozen=True)
class RowCheck:
    """A typed row: the canonical row to store, or why it is no row."""

    text: str
    canonical: str | None
    problem: str | None = None
    guessed: bool = False  # the canonical form reads more into the text (`torch 2.0` -> `torch==2.0`)


def check_row(text: str, naming: Naming | None = None) -> RowCheck:
    """Read `text` as one version row, the way ET401 reads it (aliases resolved)."""
    naming = naming or default_naming()
    parsed = parse(text, naming)
    spec = parsed.spec
    if spec is None:
        return RowCheck(text, None, f"`{text.strip()}` is not a version spec: {parsed.error}")
    if not spec.package:
        if not spec.clauses:
            return RowCheck(text, None, f"`{text.strip()}` is not `<package><specifier>`")
        return RowCheck(text, None, f"`{text.strip()}` names no package; write `<package>{spec}`")
    if _reads_as_prose(text):
        return RowCheck(text, None, f"`{text.strip()}` reads as a sentence, not as `<package><specifier>`")
    if parsed.unsatisfiable:
        return RowCheck(text, None, f"`{text.strip()}` matches no version")
    return RowCheck(text, str(spec.renamed(naming.resolve(spec.package))), guessed=parsed.guessed)


def _reads_as_prose(text: str) -> bool:
    """Whether the words before the first version or operator read as a sentence."""
    words: list[str] = []
    for word in text.split():
        if re.search(r"[\d<>=!~*]", word):
            break
        words.append(word)
    bare = {word.lower().strip(".,;:!?") for word in words}
    ends_sentence = len(words) == len(text.split()) and text.rstrip()[-1:] in tuple(".,;:!?")
    return len(words) > _MAX_NAME_WORDS or bool(_PROSE & bare) or ends_sentence


def normalize_version_row(text: str) -> str:
    """The canonical row for `text`, or `text` tidied when it cannot be read."""
    canonical = normalize(text)
    if canonical is not None:
        return canonical
    text = text.strip()
    match = _OPERATOR.search(text)
    if match is None:  # no specifier (`CUDA 11.x+`): keep what follows the name, for a reader
        name, _, rest = text.partition(" ")
        return _package(name) + (" " + re.sub(r"\s+", "", rest) if rest.strip() else "")
    package, spec = text[: match.start()], text[match.start() :]
    return _package(package) + re.sub(r"\s+", "", spec)


def row_from(package: str, version_range: str) -> str:
    """A row from a package name and a range given apart (`>=3.11,<3.13`, `any`, `3.x`)."""
    spec = version_range.strip()
    if spec.lower() in _ANY:
        return _package(package)
    if not _OPERATOR.match(spec):
        return _package(package) + " " + re.sub(r"\s+", "", spec)
    return _package(package) + re.sub(r"\s+", "", spec)


def _package(name: str) -> str:
    return re.sub(r"\s+", "-", name.strip().lower())
