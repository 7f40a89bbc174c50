"""Version rows as people type them, turned into `<package><specifier>`.

The scaffolder stores what a contributor types in canonical form through
`versionspec.normalize` (`CUDA 11.x+` -> `cuda>=11`, `pytorch 2.x` -> `torch==2.*`);
text it cannot read is only tidied (case, spacing), so ET401 reports it. The
importer keeps the source's wording (`row_from`), so lint shows the corpus as it is.
"""

from __future__ import annotations

import re

from entrykit.versions.specifiers import normalize

_OPERATOR = re.compile(r"(===|~=|==|!=|<=|>=|<|>)")
_ANY = {"", "any", "*", ">=any", "all"}


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
