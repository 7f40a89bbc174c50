"""Package names and version schemes: canonical names, aliases, ordered vocabularies, dates.

A scheme turns a package's version tokens into `packaging` versions, so version
sets of ROS distros (`humble`) or dated APIs (`2024-01`) are compared with the
same PEP 440 machinery as release numbers. The built-in aliases and
vocabularies live in `entrykit/data/versions.toml`; config extends them.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from itertools import chain
from typing import Any

from packaging.version import InvalidVersion, Version

DATE = "date"  # the vocabulary value that makes a package's versions ISO dates

_SEPARATORS = re.compile(r"[\s_-]+")
_DATE_LIKE = re.compile(r"\d{4}-\d{1,2}(-\d{1,2})?\Z")
_DATE = re.compile(r"(\d{4})(?:[-./](\d{1,2})(?:[-./](\d{1,2}))?)?\Z")


def looks_like_date(token: str) -> bool:
    """Whether `token` is written as an ISO month or day (`2024-01`, `2024-01-15`): no PEP 440 release."""
    return _DATE_LIKE.match(token.strip()) is not None


def canonical_name(name: str) -> str:
    """A package name as entries write it: lower case, runs of spaces, `_` and `-` as one `-`."""
    return _SEPARATORS.sub("-", name.strip()).strip("-").lower()


class Scheme:
    """How one package's version tokens are written, checked and ordered."""

    name = "pep440"
    wildcards = True  # `2.*` and `~=2.1` mean something

    def parse(self, token: str) -> str:
        """The canonical spelling of `token`; ValueError saying why it is no version."""
        raw = token.strip()
        if looks_like_date(raw):
            raise ValueError(f"`{raw}` looks like a date; declare the package as \"date\" in `versions.vocabularies`")
        if len(raw) > 1 and raw[0] in "vV" and raw[1].isdigit():
            raw = raw[1:]
        try:
            return str(Version(raw))
        except InvalidVersion:
            raise ValueError(f"`{token}` is not a PEP 440 version") from None

    def key(self, canonical: str) -> Version:
        """The `packaging` version a canonical token stands for."""
        return Version(canonical)

    def show(self, version: str) -> str:
        """A version from `packaging` output, written back in this scheme."""
        return version


@dataclass(frozen=True)
class OrderedScheme(Scheme):
    """Release names in order (ROS distros): the n-th name stands for version n."""

    names: tuple[str, ...] = ()
    wildcards = False
    name = "ordered"
    _index: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {n.lower(): i for i, n in enumerate(self.names, 1)})

    def parse(self, token: str) -> str:
        number = self._index.get(token.strip().lower())
        if number is None:
            known = ", ".join(self.names[:4]) + (", ..." if len(self.names) > 4 else "")
            raise ValueError(f"`{token}` is not one of the package's release names ({known})")
        return self.names[number - 1]

    def key(self, canonical: str) -> Version:
        return Version(str(self._index[canonical.lower()]))

    def show(self, version: str) -> str:
        if version.isdigit() and 1 <= int(version) <= len(self.names):
            return self.names[int(version) - 1]
        return version


class DateScheme(Scheme):
    """ISO dates (`2024`, `2024-01`, `2024-01-15`), ordered by the calendar."""

    wildcards = False
    name = DATE

    def parse(self, token: str) -> str:
        match = _DATE.match(token.strip())
        if not match:
            raise ValueError(f"`{token}` is not a date (YYYY, YYYY-MM or YYYY-MM-DD)")
        year, month, day = match.groups()
        parts = [year]
        if month is not None:
            if not 1 <= int(month) <= 12:
                raise ValueError(f"`{token}` has no month {int(month)}")
            parts.append(f"{int(month):02d}")
        if day is not None:
            if not 1 <= int(day) <= 31:
                raise ValueError(f"`{token}` has no day {int(day)}")
            parts.append(f"{int(day):02d}")
        return "-".join(parts)

    def key(self, canonical: str) -> Version:
        return Version(".".join(str(int(p)) for p in canonical.split("-")))

    def show(self, version: str) -> str:
        parts = version.split(".")
        if all(p.isdigit() for p in parts) and 1 <= len(parts) <= 3:
            return "-".join([parts[0], *(f"{int(p):02d}" for p in parts[1:])])
        return version


PEP440 = Scheme()
DATED = DateScheme()


def make_scheme(vocabulary: Sequence[str] | str) -> Scheme:
    """The scheme a vocabulary value declares: a list of names, or `"date"`."""
    if vocabulary == DATE:
        return DateScheme()
    if isinstance(vocabulary, str):
        raise ValueError(f'a vocabulary is a list of release names or "{DATE}", got {vocabulary!r}')
    return OrderedScheme(tuple(vocabulary))


@dataclass(frozen=True, eq=False)  # compared (and hashed) by identity: parses are cached per naming
class Naming:
    """Which names are aliases of which package, and each package's version scheme."""

    aliases: Mapping[str, str] = field(default_factory=dict)  # alias -> canonical name
    schemes: Mapping[str, Scheme] = field(default_factory=dict)  # canonical name -> scheme

    def resolve(self, package: str) -> str:
        """The canonical package a (canonically spelled) name stands for."""
        return self.aliases.get(package, package)

    def scheme(self, package: str) -> Scheme:
        return self.schemes.get(self.resolve(package)) or self.schemes.get(package) or PEP440

    @cached_property
    def longest_name(self) -> int:
        """The length of the longest name this naming knows: `scheme` of a longer one is PEP 440."""
        return max(map(len, chain(self.aliases, self.schemes)), default=0)

    def extended(
        self,
        aliases: Mapping[str, Sequence[str]] | None = None,
        vocabularies: Mapping[str, Sequence[str] | str] | None = None,
    ) -> Naming:
        """This naming with more aliases (canonical -> names) and vocabularies; the new win."""
        table = dict(self.aliases)
        for canonical, names in (aliases or {}).items():
            target = canonical_name(canonical)
            table.pop(target, None)  # a name declared canonical is no longer an alias
            for name in names:
                table[canonical_name(name)] = target
        schemes = dict(self.schemes)
        for package, vocabulary in (vocabularies or {}).items():
            schemes[canonical_name(package)] = make_scheme(vocabulary)
        return Naming(table, schemes)


def check_aliases(value: Any, where: str) -> None:
    """Config check for an alias table: canonical name = [aliases]; ValueError naming `where`."""
    seen: dict[str, str] = {}
    for canonical, names in value.items():
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            raise ValueError(f"`{where}.{canonical}` must be a list of package names")
        for name in names:
            key = canonical_name(name)
            if key == canonical_name(canonical):
                raise ValueError(f"`{where}.{canonical}` lists the package itself")
            if key in seen and seen[key] != canonical:
                raise ValueError(f"`{where}`: `{name}` is an alias of both `{seen[key]}` and `{canonical}`")
            seen[key] = canonical


def check_vocabularies(value: Any, where: str) -> None:
    """Config check for vocabularies: package = [names, oldest first] or "date"."""
    for package, vocabulary in value.items():
        if vocabulary == DATE:
            continue
        if (
            not isinstance(vocabulary, list)
            or not vocabulary
            or not all(isinstance(n, str) and n.strip() for n in vocabulary)
        ):
            raise ValueError(f'`{where}.{package}` must be a list of release names or "{DATE}"')
        counts = Counter(n.strip().lower() for n in vocabulary)
        repeated = sorted(n for n, count in counts.items() if count > 1)
        if repeated:
            raise ValueError(f"`{where}.{package}` names `{repeated[0]}` twice")
        for name in vocabulary:
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_.-]*", name.strip()):
                raise ValueError(f"`{where}.{package}`: `{name}` is not a release name (a word)")


@lru_cache(maxsize=1)
def default_naming() -> Naming:
    """The built-in aliases and vocabularies from entrykit/data/versions.toml."""
    text = resources.files("entrykit").joinpath("data/versions.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    check_aliases(data.get("aliases", {}), "aliases")
    check_vocabularies(data.get("vocabularies", {}), "vocabularies")
    return Naming().extended(data.get("aliases", {}), data.get("vocabularies", {}))


def configured_naming(settings: Mapping[str, Any]) -> Naming:
    """The built-in naming extended by the `versions` settings (`aliases`, `vocabularies`)."""
    key = json.dumps([settings.get("aliases", {}), settings.get("vocabularies", {})], sort_keys=True)
    return _naming_for(key)


@lru_cache(maxsize=16)
def _naming_for(key: str) -> Naming:
    aliases, vocabularies = json.loads(key)
    return default_naming().extended(aliases, vocabularies)
