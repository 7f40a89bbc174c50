"""What a lint run keeps of one file and of each finding: the records the per-file
pipeline makes, the cache keeps and the engine turns into diagnostics.

The cache writes records with `marshal`, which takes plain tuples only: each named
record here has `plain()` (as the cache writes it; `cache.encode` makes the same of a
record handed over as it is) and `read()` (from what the cache holds, checked:
ValueError or TypeError for anything that is not one).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from entrykit.diagnostic import Finding, Severity
from entrykit.entry import Entry
from entrykit.registry import known

# (mtime_ns, size, inode, ctime_ns) of a file, and the ctime_ns of the link to it (0: no link).
# A change time no one can set back: an edit in place with its mtime put back, or a file
# unpacked over another (its mtime the archive's, its inode the freed one's), is a change.
Stat = tuple[int, int, int, int, int]


class Rerun(enum.Enum):
    """Which entry rules a check of one file runs."""

    ALL = "all"  # every entry rule: a file reported on without current results
    DATED = "dated"  # only the rules that read today: results of another day
    NONE = "none"  # none: a file only corpus rules see, or results that are current


class Failure(NamedTuple):
    """Why a file did not load (ET001), and where."""

    line: int
    col: int
    message: str

    @classmethod
    def read(cls, item: Any) -> Failure:
        line, col, message = item
        return cls(int(line), int(col), str(message))


class RelatedPlace(NamedTuple):
    """A second place a finding points at, resolved: `key` None is the finding's own file."""

    key: str | None
    line: int
    col: int
    pointer: str

    @classmethod
    def read(cls, item: Any) -> RelatedPlace:
        key, line, col, pointer = item
        return cls._make((None if key is None else str(key), int(line), int(col), str(pointer)))


class StoredFix(NamedTuple):
    """A finding's fix as records keep it (see `diagnostic.Fix`)."""

    pointer: str
    value: Any
    description: str
    safe: bool


class StoredFinding(NamedTuple):
    """A finding as records keep it: its place resolved and its severity decided."""

    code: str
    line: int
    col: int
    severity: str
    message: str
    pointer: str
    related: tuple[RelatedPlace, ...]
    fix: StoredFix | None

    @classmethod
    def of(
        cls, code: str, finding: Finding, place: tuple[int, int], related: tuple[RelatedPlace, ...], severity: Severity
    ) -> StoredFinding:
        fix = finding.fix
        kept = StoredFix(fix.pointer, fix.value, fix.description, fix.safe) if fix is not None else None
        return cls(code, place[0], place[1], severity.value, finding.message, finding.pointer, related, kept)

    @staticmethod
    def plain_of(
        code: str, finding: Finding, place: tuple[int, int], related: tuple[tuple[Any, ...], ...], severity: str
    ) -> tuple[Any, ...]:
        """`of(code, finding, place, related, Severity(severity)).plain()`, made at once from
        `related` already plain: the corpus phase stores every corpus finding this way."""
        fix = finding.fix
        return (
            code, place[0], place[1], severity, finding.message, finding.pointer, related,
            (fix.pointer, fix.value, fix.description, fix.safe) if fix is not None else None,
        )

    def plain(self) -> tuple[Any, ...]:
        return (
            self.code, self.line, self.col, self.severity, self.message, self.pointer,
            tuple(tuple(r) for r in self.related), tuple(self.fix) if self.fix is not None else None,
        )

    @classmethod
    def read(cls, item: Any) -> StoredFinding:
        code, line, col, severity, message, pointer, related, fix = item
        Severity(severity)
        if not known(code):  # no finding of this entrykit: whatever its shape, no record of ours
            raise ValueError(f"no rule has the code {code!r}")
        # (`_make`: a warm run over a large corpus reads every finding of every file)
        return cls._make((
            str(code), int(line), int(col), severity, str(message), str(pointer),
            tuple(map(RelatedPlace.read, related)) if related else (),
            StoredFix._make(fix) if fix is not None else None,
        ))


def shared_findings(findings: list[StoredFinding], pool: dict[Any, Any]) -> list[StoredFinding]:
    """The findings, each the pool's one copy of an equal finding (its texts the pool's
    copies of equal texts when it has a fix, which may hold a list): findings from a
    worker process come with copies of their own, a rule says the same of many files,
    and a large corpus holds every file's findings until its diagnostics are made.
    `pool` holds findings and texts only."""
    out = []
    for f in findings:
        if f.fix is None:
            known = pool.get(f)
            if known is not None:  # (its texts the pool's already: no copy to make)
                out.append(known)
                continue
        f = f._replace(
            code=pool.setdefault(f.code, f.code),
            severity=pool.setdefault(f.severity, f.severity),
            message=pool.setdefault(f.message, f.message),
            pointer=pool.setdefault(f.pointer, f.pointer),
        )
        out.append(pool.setdefault(f, f) if f.fix is None else f)
    return out


def plain_findings(findings: list[StoredFinding]) -> list[tuple[Any, ...]]:
    return [f.plain() for f in findings]


def read_findings(items: Any, pool: dict[Any, StoredFinding] | None = None) -> list[StoredFinding]:
    """Findings from what the cache holds (ValueError, TypeError if they are not findings).

    With `pool`, equal items (without a fix) are read once, into one finding for all: a
    rule says the same of many files, and a warm run reads every finding of a corpus."""
    if pool is None:
        return [StoredFinding.read(item) for item in items]
    out = []
    for item in items:
        found = None
        # (no item with a fix: its value 1 equals 1.0 and True, which JSON tells apart)
        if type(item) is tuple and len(item) == 8 and item[7] is None:
            try:
                found = pool.get(item)
                if found is None:
                    found = pool[item] = StoredFinding.read(item)
            except TypeError:  # a list inside: read on its own below
                pass
        out.append(found or StoredFinding.read(item))
    return out


class Dated(NamedTuple):
    """The findings of the rules that read today, and the day they were made on."""

    day: str
    findings: list[StoredFinding]


@dataclass(slots=True)  # (a large corpus keeps one per file)
class FileRecord:
    """Everything a run needs of one file.

    A record depends only on the file's content, its path, and the run's environment
    (entrykit version, config, schema; and for rules that read today, the day), so it
    is what the cache keeps.
    """

    key: str  # path below the corpus root: what the cache files it under
    shown: str  # how diagnostics name it
    # The file's absolute path (`abspath`): in text until a `Path` is asked for, which a
    # warm run over a large corpus never does of most files.
    where: Path | str
    fmt: str
    digest: str = ""
    stat: Stat | None = None  # None when the file changed too recently to trust it
    sdigest: str = ""  # digest of the summary: what corpus rules see of the file
    failure: Failure | None = None
    summary: dict[str, Any] | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    results: list[StoredFinding] | None = None  # entry rules that do not read today; None: not run
    dated: Dated | None = None  # findings of the rules that read today
    directives: list[tuple[int, int, int | None, str]] = field(default_factory=list)
    memo: dict[str, Any] = field(default_factory=dict)  # memo items added while checking it (a batch's: `Checker.check_entries`)
    entry: Entry | None = None  # the parsed entry, when the caller keeps entries
    text: str | None = None  # content that stands in for the file (fixer, merge)

    @property
    def abspath(self) -> Path:
        where = self.where
        if type(where) is str:
            where = self.where = Path(where)
        return where  # type: ignore[return-value]

    @abspath.setter
    def abspath(self, value: Path) -> None:
        self.where = value

    def findings(self) -> list[StoredFinding]:
        """The entry rules' findings: those that do not read today, then those that do."""
        return [*(self.results or []), *(self.dated.findings if self.dated else [])]

    def result_data(self) -> dict[str, Any]:
        """What the cache keeps of the file's results. The findings are the record's own,
        not copies: the cache holds every file's until it writes them, and makes them
        plain tuples only then, a shard at a time (`cache.encode`)."""
        return {
            "d": self.digest,
            "st": self.stat,
            "sd": self.sdigest,
            "fmt": self.fmt,
            "f": tuple(self.failure) if self.failure is not None else None,
            "r": self.results,
            "dr": (self.dated.day, self.dated.findings) if self.dated is not None else None,
            "sup": self.directives,
        }

    def index_data(self) -> dict[str, Any] | None:
        """What the cache keeps of the file's summary and facts (None for a failure)."""
        if self.failure is not None or self.summary is None:
            return None
        return {"d": self.digest, "s": self.summary, "x": self.facts}

    @classmethod
    def from_data(
        cls,
        key: str,
        shown: str,
        abspath: Path | str,
        data: dict[str, Any],
        with_results: bool = True,
        pool: dict[Any, StoredFinding] | None = None,
    ) -> FileRecord | None:
        """A record (without its summary) from the cache, or None if the data are not a record's.

        Without `with_results` the findings are left out (a file not reported on); `pool`
        as `read_findings` takes it."""
        try:
            failure, results, dated = data["f"], None, None
            if with_results:
                results = read_findings(data["r"], pool) if data["r"] is not None else None
                dated = data["dr"]
                dated = Dated(str(dated[0]), read_findings(dated[1], pool)) if dated is not None else None
            # (every field by position: a warm run over a large corpus makes a record of every file)
            return cls(
                key, shown, abspath, str(data["fmt"]), str(data["d"]), _stat(data["st"]), str(data.get("sd") or ""),
                Failure.read(failure) if failure is not None else None, None, {}, results, dated,
                [(int(a), int(b), c if c is None else int(c), str(d)) for a, b, c, d in data["sup"]],
            )
        except (KeyError, TypeError, ValueError, IndexError):
            return None

    @classmethod
    def from_row(
        cls, key: str, shown: str, abspath: Path | str, row: Any, stat: Stat | None = None
    ) -> FileRecord | None:
        """A record without results or summary from the cache's `files` table (`cache.row_of`),
        or None if the row is not one. `stat`: the file's stat as just taken, which the caller
        found equal to the row's (taken as it is: a pre-commit run in a large corpus makes a
        record of every file's row)."""
        try:
            digest, stored, sdigest, fmt, failure = row
            if not isinstance(digest, str) or not isinstance(fmt, str):
                return None
            # (every field by position: a dataclass's keywords and defaults cost more)
            return cls(
                key, shown, abspath, fmt, digest, stat if stat is not None else _stat(stored), str(sdigest or ""),
                Failure.read(failure) if failure is not None else None,
            )
        except (TypeError, ValueError, IndexError):
            return None

    def add_index(self, data: dict[str, Any] | None) -> bool:
        """Take the summary and facts from the cache if they are of this content; False if not."""
        if not isinstance(data, dict) or data.get("d") != self.digest:
            return False
        summary, facts = data.get("s"), data.get("x")
        if not isinstance(summary, dict) or not isinstance(facts, dict):
            return False
        self.summary, self.facts = summary, dict(facts)
        return True

    def merged_with(self, old: FileRecord) -> FileRecord:
        """This record of unchanged content, with what its check did not redo taken from `old`."""
        if self.failure is None and old.failure is not None:
            self.failure = old.failure
        if self.failure is not None:
            return self
        if self.summary is None and old.summary is not None:
            self.summary, self.facts = old.summary, old.facts
        if not self.sdigest:
            self.sdigest = old.sdigest
        if self.results is None:
            self.results, self.directives = old.results, old.directives
            if self.dated is None:
                self.dated = old.dated
        return self


def _stat(value: Any) -> Stat | None:
    """A stored stat; None for none, or one of another shape (an earlier entrykit's: the file is read again)."""
    if value is None or len(value) != 5:
        return None
    return (int(value[0]), int(value[1]), int(value[2]), int(value[3]), int(value[4]))
