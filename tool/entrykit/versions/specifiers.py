"""Parse and normalise `<package><specifier>` version specs (`torch>=2.0,<2.3`).

`parse` reads the canonical form and the common informal ones (`CUDA 11.x+`,
`NCCL 2.10+`, `torch 2.x`, `Torch >= 2.0, < 2.3`, `>=any`) into a `VersionSpec`
whose `str()` is the canonical form; `normalize` also resolves package aliases.
Importers and the scaffolder call `normalize` to store rows as typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from packaging.ranges import VersionRange
from packaging.specifiers import InvalidSpecifier, Specifier, SpecifierSet

from entrykit.versions.package_names import (
    DATED,
    PEP440,
    Naming,
    Scheme,
    canonical_name,
    default_naming,
    looks_like_date,
)

_OPERATORS = ("===", "~=", "==", "!=", "<=", ">=", "=>", "=<", "<", ">", "=", "^", "~")
_RESPELLED = {"=>": ">=", "=<": "<=", "=": "=="}
# The blanks after an operator belong to it: with `\s*` on both sides of an optional
# operator, a clause of blanks and no token tried every split of them (a long spec hung).
_CLAUSE = re.compile(
    r"\s*(?:(?P<op>" + "|".join(re.escape(o) for o in _OPERATORS) + r")\s*)?(?P<token>[^\s,<>=!~^]+)\s*"
)
_ANY = frozenset({"any", "all", "*", "x"})
_ANY_SPEC = re.compile(r"(?:>=|==|=)?\s*(?:any|all|\*|x)\Z", re.I)
_WORD = re.compile(r"(?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._+-]*\Z", re.I)
# Words that name a moving target, not a version: a row must say which versions.
_MOVING = frozenset({"latest", "stable", "nightly", "lts", "current", "newest", "master", "main", "head"})
_WILDCARD = re.compile(r"(?P<prefix>.+?)\.[x*]\Z", re.I)
_RELEASE = re.compile(r"\d+(\.\d+)*\Z")
_OPERATOR_START = re.compile(r"[<>=!~^]")
_TOKEN_TEXT = re.compile(r"[^\s,<>=!~^]+")
# Lower bounds first, then pins, then upper bounds: how people read a range.
_OPERATOR_RANK = {">=": 0, ">": 0, "~=": 1, "==": 1, "===": 1, "<=": 2, "<": 2, "!=": 3}


@dataclass(frozen=True)
class Clause:
    """One canonical `<operator><version>` clause (`>=2.0`, `==2.*`)."""

    op: str
    version: str

    def __str__(self) -> str:
        return self.op + self.version


@dataclass(frozen=True)
class VersionSpec:
    """A package and its version clauses; `str()` is the canonical text.

    `package` is `""` when the text named none. Versions are in the package's
    scheme (`humble` for ROS 2); `specifier_set` maps them into PEP 440.
    """

    package: str
    clauses: tuple[Clause, ...]
    scheme: Scheme = PEP440

    @property
    def specifier(self) -> str:
        return ",".join(str(c) for c in self.clauses)

    def __str__(self) -> str:
        return self.package + self.specifier

    def renamed(self, package: str) -> VersionSpec:
        return VersionSpec(package, self.clauses, self.scheme)

    @cached_property
    def specifier_set(self) -> SpecifierSet:
        """The clauses as a PEP 440 set (vocabulary names and dates mapped to numbers)."""
        mapped = []
        for clause in self.clauses:
            if clause.version.endswith(".*"):
                mapped.append(str(clause))
            else:
                mapped.append(clause.op + str(self.scheme.key(clause.version)))
        return SpecifierSet(",".join(mapped))

    @property
    def range(self) -> VersionRange:
        return self.specifier_set.to_range()

    def contains(self, version: str) -> bool:
        """Whether the canonical `version` (in this spec's scheme) is inside the range."""
        return self.specifier_set.contains(self.scheme.key(version), prereleases=True)

    def describe(self, versions: VersionRange) -> str:
        """A range (say, an overlap) written as a specifier in this spec's scheme."""
        spec = versions.to_specifier_set()
        if spec is None:
            return repr(versions)
        if not len(spec):
            return "every version"
        clauses = sorted(spec, key=lambda s: (_OPERATOR_RANK.get(s.operator, 4), s.version))
        return ",".join(s.operator + self.scheme.show(s.version) for s in clauses)


@dataclass(frozen=True)
class Parsed:
    """What `parse` made of a text: a spec, or why there is none.

    `guessed` marks canonical forms that read more into the text than it says
    (a bare `torch 2.0` becomes `torch==2.0`, though the writer may mean 2.0.x).
    """

    text: str
    spec: VersionSpec | None = None
    error: str | None = None
    guessed: bool = False

    @property
    def canonical(self) -> str | None:
        return str(self.spec) if self.spec is not None else None

    @property
    def is_canonical(self) -> bool:
        return self.spec is not None and str(self.spec) == self.text

    @cached_property
    def unsatisfiable(self) -> bool:
        return self.spec is not None and self.spec.specifier_set.is_unsatisfiable()


class _Unparsable(ValueError):
    pass


def _looks_like_version(word: str, scheme: Scheme) -> bool:
    core = word[:-1] if word.endswith("+") else word
    if core.lower() in _ANY or core.lower() in _MOVING:
        return True
    wildcard = _WILDCARD.match(core)
    if wildcard and _RELEASE.match(wildcard["prefix"].lstrip("vV")):
        return True
    for candidate in (scheme, PEP440):
        try:
            candidate.parse(core)
        except ValueError as exc:
            if "looks like a date" in str(exc):
                return True
            continue
        return True
    return False


def _split(text: str, naming: Naming) -> tuple[str, str]:
    """(package words, specifier text): at the first operator, else at the first version word."""
    found = _OPERATOR_START.search(text)
    if found:
        return text[: found.start()], text[found.start() :]
    words = text.split()
    longest = naming.longest_name
    # `canonical_name` of the words before `word`, built a word at a time (the canonical words
    # joined by `-`); past the longest name the naming knows, it is left to grow no further
    name = ""
    for index, word in enumerate(words):
        if _looks_like_version(word, naming.scheme(name) if name and len(name) <= longest else PEP440):
            return " ".join(words[:index]), " ".join(words[index:])
        if len(name) <= longest:
            piece = canonical_name(word)
            name = f"{name}-{piece}" if name and piece else name or piece
    return text, ""


def _package(words: str) -> str:
    for word in words.split():
        if not _WORD.match(word):
            raise _Unparsable(f"`{words.strip()}` is not a package name")
    return canonical_name(words)


def _clause(op: str | None, token: str, scheme: Scheme) -> tuple[Clause, bool]:
    """One clause in canonical form, and whether its operator was guessed."""
    _reject_unorderable(op, token)
    plus = token.endswith("+") and len(token) > 1
    core = token[:-1] if plus else token
    op = _RESPELLED.get(op or "", op)
    wildcard = _WILDCARD.match(core)
    if wildcard and scheme.wildcards:
        return _series_clause(op, token, wildcard["prefix"], plus), False
    return _release_clause(op, token, core, plus, scheme)


def _reject_unorderable(op: str | None, token: str) -> None:
    """_Unparsable for operators and words that name no range PEP 440 can compare."""
    if op in ("^", "~"):
        raise _Unparsable(f"`{op}` ranges are not PEP 440; write both bounds (`>=1.2,<2`)")
    if op == "===":
        raise _Unparsable("arbitrary equality `===` cannot be compared with other versions")
    if token.lower() in _MOVING:
        raise _Unparsable(f"`{token}` moves with every release; name the versions")


def _series_clause(op: str | None, token: str, prefix: str, plus: bool) -> Clause:
    """The clause of a wildcard series (`2.x`, `>=11.*`, `2.x+`) whose release is `prefix`."""
    prefix = prefix.lstrip("vV")
    if not _RELEASE.match(prefix):
        raise _Unparsable(f"`{token}` is not a version series")
    prefix = ".".join(str(int(p)) for p in prefix.split("."))
    if plus and op not in (None, ">="):
        raise _Unparsable(f"`{op}{token}` mixes `{op}` with a trailing `+`")
    if plus or op == ">=":
        return Clause(">=", prefix)
    if op in (None, "=="):
        return Clause("==", prefix + ".*")
    if op in ("!=", "<"):
        return Clause(op, prefix + (".*" if op == "!=" else ""))
    raise _Unparsable(f"`{op}{token}` has no PEP 440 form")


def _release_clause(op: str | None, token: str, core: str, plus: bool, scheme: Scheme) -> tuple[Clause, bool]:
    """The clause of one version (`core`, `token` less its trailing `+`), and whether its
    operator was guessed."""
    try:
        version = scheme.parse(core)
    except ValueError as exc:
        raise _Unparsable(str(exc)) from None
    guessed = False
    if plus:
        if op not in (None, ">="):
            raise _Unparsable(f"`{op}{token}` mixes `{op}` with a trailing `+`")
        op = ">="
    elif op is None:
        op, guessed = "==", scheme is PEP440 or scheme.name == "date"
    if not scheme.wildcards and op == "~=":
        raise _Unparsable(f"`~=` needs release numbers, not `{token}`")
    if scheme is PEP440 or scheme.wildcards:
        try:
            Specifier(op + version)
        except InvalidSpecifier:
            raise _Unparsable(f"`{op}{version}` is not a valid PEP 440 clause") from None
    return Clause(op, version), guessed


def _clauses(rest: str, scheme: Scheme) -> tuple[tuple[Clause, ...], bool]:
    rest = rest.strip()
    if not rest or _ANY_SPEC.match(rest):
        return (), False
    clauses: list[Clause] = []
    guessed = False
    for part in rest.split(","):
        if not part.strip():
            raise _Unparsable("empty clause between commas")
        position = 0
        while position < len(part):
            match = _CLAUSE.match(part, position)
            if not match or match.end() == position:
                raise _Unparsable(f"cannot read `{part[position:].strip()}`")
            clause, guess = _clause(match["op"], match["token"], scheme)
            clauses.append(clause)
            guessed = guessed or guess
            position = match.end()
    return tuple(clauses), guessed


def _scheme(package: str, rest: str, naming: Naming) -> Scheme:
    """The package's declared scheme; for an undeclared one written wholly in ISO dates, dates.

    `2023-01` is no PEP 440 release (it would read as the post-release `2023.post1`),
    so a spec whose every version is a month or a day (`stripe-api>=2023-10-16`) can
    only mean dates; a spec that mixes dates and numbers still needs a vocabulary.
    """
    if not package:
        return PEP440
    scheme = naming.scheme(package)
    if scheme is PEP440:
        tokens = [t.removesuffix("+") for t in _TOKEN_TEXT.findall(rest)]
        if tokens and all(looks_like_date(t) for t in tokens):
            return DATED
    return scheme


def parse(text: str, naming: Naming | None = None) -> Parsed:
    """Read a version spec, canonical or informal; never raises on bad text."""
    return _parse(text, naming or default_naming())


SPECS_KEPT = 4096  # specs `parse` keeps (the most recent)


@lru_cache(maxsize=SPECS_KEPT)  # every version rule reads an entry's rows: each spec is parsed once
def _parse(text: str, naming: Naming) -> Parsed:
    if not text.strip():
        return Parsed(text, error="the spec is empty")
    try:
        words, rest = _split(text.strip(), naming)
        package = _package(words) if words.strip() else ""
        scheme = _scheme(package, rest, naming)
        clauses, guessed = _clauses(rest, scheme)
    except _Unparsable as exc:
        return Parsed(text, error=str(exc))
    return Parsed(text, VersionSpec(package, clauses, scheme), guessed=guessed)


def parse_version(text: str, scheme: Scheme = PEP440) -> tuple[str | None, str | None]:
    """(canonical version, None) or (None, why it is no version) for a lifecycle value."""
    try:
        return scheme.parse(text), None
    except ValueError as exc:
        return None, str(exc)


def normalize(text: str, naming: Naming | None = None) -> str | None:
    """The canonical form with aliases resolved (`PyTorch 2.x` -> `torch==2.*`), or None."""
    naming = naming or default_naming()
    parsed = parse(text, naming)
    if parsed.spec is None or not parsed.spec.package:
        return None
    canonical = str(parsed.spec.renamed(naming.resolve(parsed.spec.package)))
    # a form that reads as something else is none: `0_` names a package `0`, but `0` is a version
    again = parse(canonical, naming).spec
    return canonical if again is not None and again.package and str(again) == canonical else None
