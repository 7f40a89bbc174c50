"""Version rows as people type them, tidied lightly into `<package><specifier>`.

Only case and spacing are touched here (`Python >= 3.11` -> `python>=3.11`); judging
whether the specifier is valid PEP 440 is the version rules' job. Scaffolding and
importers both go through `normalize_version_row`, so a stricter normaliser can
replace it in one place.
"""

from __future__ import annotations

import re

_OPERATOR = re.compile(r"(===|~=|==|!=|<=|>=|<|>)")
_ANY = {"", "any", "*", ">=any", "all"}


def normalize_version_row(text: str) -> str:
    """`<package><specifier>` with the package lowercased and spaces removed."""
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
