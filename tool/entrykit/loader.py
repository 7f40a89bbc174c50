"""Find entry files and turn each into an `Entry` or a `LoadFailure` (never an exception)."""

from __future__ import annotations

import codecs
import errno
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path

from entrykit.entry import Entry
from entrykit.parsing import (
    DEFAULT_MAX_ALIASES,
    DEFAULT_MAX_NESTING,
    Parsed,
    parse_json,
    parse_yaml,
)
from entrykit.regular_files import read_regular

ENTRY_SUFFIXES = (".yaml", ".yml", ".json")
SKIPPED_DIRS = frozenset({".entrykit_cache", "__pycache__", "node_modules"})
DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """What one file may cost before it is ET001 instead of an entry."""

    file_bytes: int = DEFAULT_MAX_FILE_BYTES
    nesting: int = DEFAULT_MAX_NESTING  # arrays and mappings inside each other
    aliases: int = DEFAULT_MAX_ALIASES  # YAML aliases of collections


@dataclass(frozen=True)
class LoadFailure:
    """A file that is not an entry at all: ET001 at (line, col)."""

    path: str
    abspath: Path
    line: int
    col: int
    message: str


def display_path(path: Path, cwd: Path | None = None) -> str:
    """The path diagnostics show: relative to the current directory (with `..` where the
    file is not below it), absolute only where the two share no folder but `/`."""
    cwd = cwd or Path.cwd()
    text, folder = str(path), str(cwd)
    if os.sep == "/" and text.startswith(folder.rstrip("/") + "/") and path.is_absolute():
        return text[len(folder.rstrip("/")) + 1 :]  # the common case, without pathlib's cost
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        pass
    absolute = os.path.abspath(path)
    try:
        shared = os.path.commonpath([absolute, os.path.abspath(cwd)])
        rel = os.path.relpath(absolute, cwd)
    except ValueError:  # another drive
        return path.as_posix()
    return Path(rel).as_posix() if shared != os.path.dirname(shared) else Path(absolute).as_posix()


def refused(path: Path) -> str | None:
    """Why the system will not look at `path` (a name too long, a folder it may not
    search, a NUL byte in it), or None: the path is there, missing, or a dangling link."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as exc:
        return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return None


def given_problem(given: Path) -> str | None:
    """Why a path named on the command line cannot be used, in words that follow its name
    (`does not exist`, `cannot be looked at (File name too long)`), or None when it is
    there. A dangling link is there: loading it says why it is not read."""
    why = refused(given)
    if why is not None:
        return f"cannot be looked at ({why})"
    return None if os.path.lexists(given) else "does not exist"


def is_folder(path: Path) -> bool:
    """`path.is_dir()`, but False where the system refuses to look (a name too long, a
    folder it may not search) instead of raising: loading the path then says why."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def is_entry_file(path: Path) -> bool:
    return path.suffix.lower() in ENTRY_SUFFIXES


def discover(paths: Iterable[Path]) -> Iterator[Path]:
    """Entry files named or found below the given paths, each once, in a stable order.

    Hidden directories and tool caches are skipped; symlinked directories are not
    followed. A directory that cannot be listed is yielded itself, so that loading
    it reports why (its entries would otherwise vanish without a word).
    """
    given_paths = list(paths)
    seen: set[Path] = set()
    for given in given_paths:
        candidates = paths_of(discover_names(given)) if is_folder(given) else [given.absolute()]
        if len(given_paths) == 1:  # nothing to find twice
            yield from candidates
            continue
        for key in candidates:
            if key not in seen:
                seen.add(key)
                yield key


def paths_of(names: list[str]) -> list[Path]:
    """`Path(name)` of each name: each folder's path made once and each file's name joined
    to it, which parses one part instead of all (a large corpus's every file is a name)."""
    folders: dict[str, Path] = {}
    out = []
    for name in names:
        folder, sep, base = name.rpartition(os.sep)
        parent = folders.get(folder)
        if parent is None:
            parent = folders[folder] = Path(folder or sep)
        out.append(parent / base)
    return out


def discover_names(folder: Path) -> list[str]:
    """The entry files below the folder as `discover` finds them, as absolute paths in
    text: a run over a large corpus makes a `Path` only of the files it reads."""
    found: list[str] = []
    _walk(str(folder.absolute()), found)
    return found


def _walk(folder: str, found: list[str]) -> None:
    """Append the entry files below `folder` to `found`, sorted as paths sort (by parts):
    each directory's names in order, a subdirectory's files at its name's place. A
    directory that cannot be listed is appended itself. A loop over a stack of listings,
    not a call per level: a checkout may nest folders deeper than Python's recursion."""
    stack = [iter(_listing(folder, found))]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            continue
        name = item.name
        try:
            is_dir = item.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if not name.startswith(".") and name not in SKIPPED_DIRS and not item.is_symlink():
                stack.append(iter(_listing(item.path, found)))
        elif is_entry_name(name):
            found.append(item.path)


def _listing(folder: str, found: list[str]) -> list[os.DirEntry[str]]:
    """A folder's entries sorted by name; none, and the folder appended to `found`, if it
    cannot be listed."""
    try:
        with os.scandir(folder) as listing:
            return sorted(listing, key=_name_of)  # (names in one folder differ: no tie)
    except OSError:
        found.append(folder)
        return []


_name_of = attrgetter("name")


def is_entry_name(name: str) -> bool:
    """Whether a file's name (no folder) has an entry suffix, as `os.path.splitext` finds
    one: a name that is nothing but dots before its last dot (`.yaml`) has none. Without
    splitext's generic path handling: a walk asks it of every file of a corpus."""
    dot = name.rfind(".")
    if dot <= 0 or name[dot:].lower() not in ENTRY_SUFFIXES:
        return False
    return name[0] != "." or name[:dot].strip(".") != ""


def _line_col(data: bytes, offset: int) -> tuple[int, int]:
    """1-based (line, col) of a byte offset; lines end at CRLF, LF or CR, as positions count them."""
    before = data[:offset]
    line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
    start = max(before.rfind(b"\n"), before.rfind(b"\r")) + 1
    col = len(before[start:].decode("utf-8", errors="replace")) + 1
    return line, col


_FOREIGN_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def decode(raw: bytes) -> tuple[str | None, tuple[int, int, str] | None]:
    """UTF-8 text (BOM removed), or a (line, col, message) problem."""
    for bom, name in _FOREIGN_BOMS:
        if raw.startswith(bom):
            return None, (1, 1, f"file is {name}-encoded; entries must be UTF-8")
    raw = utf8_of(raw)
    nul = raw.find(b"\x00")
    if nul >= 0:
        line, col = _line_col(raw, nul)
        return None, (line, col, "file contains a NUL byte; entries are text")
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line, col = _line_col(raw, exc.start)
        return None, (line, col, f"invalid UTF-8 byte `0x{raw[exc.start]:02x}`")


def parse_text(text: str, fmt: str, limits: Limits | None = None, encoded: bytes | None = None) -> Parsed:
    """Parse an entry's text as `fmt` within `limits`; `encoded`: its UTF-8 bytes, when
    the caller has them (YAML reads them without encoding the text again)."""
    limits = limits or Limits()
    if fmt == "json":
        return parse_json(text, limits.nesting)
    return parse_yaml(text, limits.nesting, limits.aliases, encoded)


def utf8_of(raw: bytes) -> bytes:
    """The UTF-8 of the text `decode` makes of `raw` (a file's bytes it reads as UTF-8): the
    bytes without their BOM."""
    return raw[len(codecs.BOM_UTF8) :] if raw.startswith(codecs.BOM_UTF8) else raw


def file_format(path: Path) -> str:
    return "json" if path.suffix.lower() == ".json" else "yaml"


def _outside(path: Path, folder: Path | None, link: os.stat_result | None = None) -> bool:
    """True if `path` is a symbolic link inside `folder` that leads out of it (`link`: what
    `os.lstat` said of it just now, when the caller asked it already)."""
    if folder is None or not (stat.S_ISLNK(link.st_mode) if link is not None else path.is_symlink()):
        return False
    base = os.path.realpath(folder)

    def inside(place: str) -> bool:
        return os.path.commonpath([base, place]) == base

    return inside(os.path.realpath(path.parent)) and not inside(os.path.realpath(path))


def read_entry_bytes(
    abspath: Path,
    max_bytes: int,
    within: Path | None = None,
    info: os.stat_result | None = None,
    link: os.stat_result | None = None,
) -> bytes | str:
    """The file's bytes, or why they cannot be read as an entry (never blocks, never reads
    more than `max_bytes` + 1 bytes, never follows a link out of `within`). `info` and
    `link`: what `os.stat` and `os.lstat` said of the file just now, when the caller asked
    them already."""
    try:
        if _outside(abspath, within, link):
            return f"symbolic link to `{os.readlink(abspath)}`, outside the corpus; not read"
        if info is None:
            info = abspath.stat()
        if stat.S_ISDIR(info.st_mode):
            try:
                os.scandir(abspath).close()
            except OSError as exc:
                return f"cannot list directory: {exc.strerror or exc}"
            return "is a directory, not an entry file"
        if not stat.S_ISREG(info.st_mode):
            return "is not a regular file (a pipe, socket or device); not read"
        if info.st_size > max_bytes:
            return f"file is {info.st_size:,} bytes, over the limit of {max_bytes:,}"
        # (unbuffered: a buffered file is a second object, and asks the system whether the
        # file is a terminal, for one read)
        with open(abspath, "rb", buffering=0) as stream:
            # Sized by what stat says, not by the limit: `read(n)` allocates n bytes first,
            # and a buffer of the limit for every file cost more than the read itself.
            raw = read_up_to(stream.read, info.st_size + 1)
            if len(raw) > info.st_size:  # it grew since stat, or stat does not know its size
                raw += read_up_to(stream.read, max_bytes + 1 - len(raw))
    except OSError as exc:
        return f"cannot read file: {exc.strerror or exc}"
    if len(raw) > max_bytes:  # it grew since stat, or stat does not know its size
        return f"file is over the limit of {max_bytes:,} bytes"
    return raw


def read_up_to(read: Callable[[int], bytes | None], count: int) -> bytes:
    """`count` bytes of an unbuffered file (its `read`) from where it stands, fewer only at
    its end: what a buffered `read(count)` gives (a read may return less than asked)."""
    first = read(count) or b""
    if not first or len(first) == count:
        return first
    chunks = [first]
    count -= len(first)
    while count > 0 and (chunk := read(count)):
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


def read_small_file(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (a configuration, a schema):
    never blocks on a pipe, never reads more than `limit` + 1 bytes. OSError saying why not."""
    data = read_regular(path, limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", str(path))
    return data


def not_an_entry(data: dict[str, object]) -> str | None:
    """Why a mapping is some other file (a workflow, a package.json), or None. An entry being
    written may lack most fields, but not both its `id` and its `signature`."""
    if isinstance(data.get("signature"), str) or isinstance(data.get("id"), str):
        return None
    keys = sorted(str(k) for k in data)
    named = ", ".join(f"`{k}`" for k in keys[:3]) + (", ..." if len(keys) > 3 else "")
    return "it has neither an `id` nor a `signature`" + (f" (its keys: {named})" if keys else "")


_KINDS = {list: "a list", str: "a string", type(None): "nothing", bool: "a boolean", int: "a number", float: "a number"}


def load(
    abspath: Path,
    shown: str,
    max_bytes: int | Limits = DEFAULT_MAX_FILE_BYTES,
    text: str | None = None,
    within: Path | None = None,
    raw: bytes | None = None,
    entries_only: bool = False,
    keep_nodes: bool = False,
) -> Entry | LoadFailure:
    """Read and parse one file; `text`, when given, stands in for the file's content, and
    `raw` for its bytes when the caller has read them already (with `read_entry_bytes`).

    `max_bytes` is a `Limits` (or, alone, the file-size limit). A symbolic link
    that leads out of `within` (the corpus root the file was found in) is not read.
    `keep_nodes` keeps a YAML file's composed nodes on the entry for its places (the
    lint of one file at a time; a caller holding many entries would hold all their nodes).
    With `entries_only` (a file named outside any corpus: a workflow, a package.json)
    a mapping that is plainly no entry is a LoadFailure saying so, not an entry to check.
    """
    limits = max_bytes if isinstance(max_bytes, Limits) else Limits(file_bytes=max_bytes)

    def fail(line: int, col: int, message: str) -> LoadFailure:
        return LoadFailure(shown, abspath, line, col, message)

    encoded = None
    if text is None:
        if raw is None:
            got = read_entry_bytes(abspath, limits.file_bytes, within)
            if isinstance(got, str):
                return fail(1, 1, got)
            raw = got
        text, problem = decode(raw)
        if problem is not None or text is None:
            line, col, message = problem or (1, 1, "cannot decode file")
            return fail(line, col, message)
        encoded = utf8_of(raw)
    if not text or text.isspace():  # (`strip` would copy the whole text to say so)
        return fail(1, 1, "file is empty")
    fmt = file_format(abspath)
    parsed = parse_text(text, fmt, limits, encoded)
    if parsed.problem is not None:
        return fail(parsed.problem.line, parsed.problem.col, parsed.problem.message)
    if not isinstance(parsed.data, dict):
        kind = _KINDS.get(type(parsed.data), f"a {type(parsed.data).__name__}")
        return fail(1, 1, f"expected a mapping of fields at the top, found {kind}")
    unlike = not_an_entry(parsed.data) if entries_only else None
    if unlike is not None:
        return fail(1, 1, f"not an entry: {unlike}")
    return Entry(
        path=shown,
        abspath=abspath,
        fmt=fmt,
        data=parsed.data,
        text=text,
        needs_positions=parsed.needs_positions,
        nodes=parsed.nodes if keep_nodes else None,
    )
