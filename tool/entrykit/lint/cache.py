"""The lint result cache: what can be reused between runs, kept in entrykit's private folder.

Layout, in the private folder (`entrykit.private_folder`: the user's cache directory
unless `--cache-dir` or `ENTRYKIT_CACHE_DIR` names another; never the project):

    key                                 the secret key every record is authenticated with
    lint-v2/memo-<code>-XX              results keyed by all their inputs (ET205's), in 16
                                        shards by key, shared by every corpus: a run reads
                                        only the shards of the keys it asks for
    lint-v2/<corpus>/<env>/res-XX       per-file results (digest, stat, failure, findings),
                                        in 32 shards by path
    lint-v2/<corpus>/<env>/idx-XXX      per-file summaries and facts for corpus rules, read
                                        only when corpus rules have to run; in 128 shards
                                        by path (the shard of `res-XX` split in four), so
                                        that a run that changed one file rewrites a small one
    lint-v2/<corpus>/<env>/files-XX     per file: digest, stat, summary digest, format, failure
                                        (what a run that does not report on a file needs of
                                        it), in 32 shards by path: a run that changed a few
                                        files rewrites only their shards
    lint-v2/<corpus>/<env>/corpus       the last full run's corpus phase: its key (what its
                                        findings depend on) and the name of that writing of it
    lint-v2/<corpus>/<env>/cor-XX       that run's corpus-rule findings on each file, and each
                                        file's digest then, in 32 shards by path, each under the
                                        writing's name: a run reporting on a few files reads
                                        only their shards and those of the files their
                                        findings point at

`<corpus>` is a digest of the corpus root's real path; `<env>` a digest of what every
cached result depends on besides the file: entrykit's code, the configuration and the
schema. A change of any of them starts a new folder; old folders beyond the most recent
few are removed, and so are the folders of corpora not linted for a month. The memo
depends on entrykit's code alone (its keys name every other input: `registry.memo_key`).

Each file holds `MAGIC`, a tag, and the payload in `marshal` format. The tag is a
BLAKE2b MAC of the file's name and payload under the folder's key, which only this user
can read: a file planted or copied from elsewhere does not verify and is never decoded,
so no one without the key can change a finding through the cache. Payloads are plain
data of declared types only (None, bool, int, float, str, bytes, tuple, list, dict;
an int or str subclass such as a regex flag is written as its base type; a record
holding anything else is not kept). What a verified file holds is still checked in
shape before use: a record that is not one is a miss, never a crash.

Writes go through a temporary file and a rename, so a reader sees the old file or the
new one; two processes writing at once each write a whole file, and the later one
wins. Before writing a shard a run merges what is on disk, so records another process
added meanwhile are kept unless both touched the same file. A cache that cannot be
read or written never fails a lint run.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import marshal
import os
import stat
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from entrykit.private_folder import Folder, Unusable, open_folder, secret_key

log = logging.getLogger(__name__)

FORMAT = "lint-v2"
MAGIC = b"entrykit-cache-2\n"
SHARDS = 32
INDEX_SHARDS = 128  # a multiple of SHARDS: each results shard's files are in four summary shards
MEMO_SHARDS = 16
KEEP_ENVIRONMENTS = 4
STALE_CORPUS_SECONDS = 30 * 24 * 3600
MAX_FILE_BYTES = 1 << 30  # no cache file entrykit writes comes near this
_TAG = 32
_BUSY_SECONDS = 60  # a folder or memo touched this recently may be in use by another run


def content_digest(data: bytes) -> str:
    """The digest that identifies a file's content in the cache."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def environment_key(parts: Iterable[str]) -> str:
    """A short digest of what every cached result depends on (code, config, schema)."""
    return hashlib.blake2b("\0".join(parts).encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def corpus_key(root: Path) -> str:
    """The name of a corpus's folder in the cache: a digest of its root's real path."""
    return hashlib.blake2b(os.fsencode(os.path.realpath(root)), digest_size=12).hexdigest()


def _text_bytes(key: str) -> bytes:
    # File names that are not UTF-8 reach here as lone surrogates (`\udcff`).
    return key.encode("utf-8", "surrogatepass")


def _spread(key: str) -> int:
    return int.from_bytes(hashlib.blake2b(_text_bytes(key), digest_size=2).digest(), "big")


def shard_of(key: str) -> int:
    """The shard of a file's results, row and corpus findings."""
    return _spread(key) % SHARDS


def index_shard_of(key: str) -> int:
    """The shard of a file's summary and facts."""
    return _spread(key) % INDEX_SHARDS


def memo_shard_of(key: str) -> int:
    return int.from_bytes(hashlib.blake2b(_text_bytes(key), digest_size=2).digest(), "big") % MEMO_SHARDS


# What a record holds as it is: exactly these types (a subclass is made plain, or refused).
_LEAVES = frozenset({type(None), bool, int, float, str, bytes})


def _plain(value: Any, depth: int = 0, made: dict[int, tuple[Any, Any]] | None = None) -> Any:
    """`value` in the declared types only; TypeError for anything else. With `made`, a
    tuple met again (the same object) becomes the same plain tuple: `marshal` writes it
    once, and a reader gets one object for all its places (a rule says the same of many
    files)."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if depth > 200:
        raise TypeError("nested too deeply")
    inner = depth + 1
    # (a leaf inside is taken without a call: a run writes every file's records at once)
    if kind is dict:
        return {
            (k if type(k) in _LEAVES else _plain(k, inner, made)): (v if type(v) in _LEAVES else _plain(v, inner, made))
            for k, v in value.items()
        }
    if kind is list:
        return [v if type(v) in _LEAVES else _plain(v, inner, made) for v in value]
    if isinstance(value, tuple):
        return _plain_tuple(value, inner, made)
    return _plain_subclass(value, inner, made)


def _plain_tuple(value: tuple[Any, ...], inner: int, made: dict[int, tuple[Any, Any]] | None) -> tuple[Any, ...]:
    """`_plain` of a tuple (or a named tuple), its items at depth `inner`."""
    if made is not None:
        known = made.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
    plain = tuple([v if type(v) in _LEAVES else _plain(v, inner, made) for v in value])
    if made is not None and _immutable(plain):  # (a list inside one copy is not to change with the others)
        made[id(value)] = (value, plain)  # (`value` kept: its id is not reused meanwhile)
    return plain


def _plain_subclass(value: Any, inner: int, made: dict[int, tuple[Any, Any]] | None) -> Any:
    """`_plain` of a value of a subclass of a declared type (as its base type), or TypeError."""
    if isinstance(value, int):  # an IntFlag (regex flags), an IntEnum
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, list):
        return [_plain(v, inner, made) for v in value]
    if isinstance(value, dict):
        return {_plain(k, inner, made): _plain(v, inner, made) for k, v in value.items()}
    raise TypeError(f"a cache record cannot hold a {type(value).__name__}")


def _immutable(value: tuple[Any, ...]) -> bool:
    """Whether a plain tuple holds nothing that can change (no list, no dict)."""
    for item in value:
        kind = type(item)
        if kind is list or kind is dict or (kind is tuple and not _immutable(item)):
            return False
    return True


def _tag(key: bytes, name: str, body: bytes) -> bytes:
    mac = hashlib.blake2b(key=key, digest_size=_TAG, person=b"entrykit-cache")
    mac.update(_text_bytes(name) + b"\0")
    mac.update(body)
    return mac.digest()


def encode(payload: Any, key: bytes, name: str) -> bytes:
    """A cache file's bytes: payload authenticated under `key` for the file `name`.
    TypeError if the payload holds a value of a type records do not declare."""
    return b"".join(encoded(payload, key, name))


def encoded(payload: Any, key: bytes, name: str) -> tuple[bytes, bytes]:
    """`encode` in two pieces, its head and its body: written one after the other, a large
    payload's bytes are not copied once more to put them together."""
    try:
        body = marshal.dumps(payload)
    except ValueError:  # a subclass marshal refuses (a regex flag): write its base type
        body = marshal.dumps(_plain(payload, 0, {}))
    return MAGIC + _tag(key, name, body), body


def decode(blob: bytes, key: bytes, name: str) -> Any:
    """The payload of a cache file; ValueError if it is not one, is damaged, or was not
    written with `key` under the name `name` (then it is never decoded)."""
    head = len(MAGIC)
    if not blob.startswith(MAGIC) or len(blob) < head + _TAG:
        raise ValueError("not an entrykit cache file")
    tag, body = blob[head : head + _TAG], blob[head + _TAG :]
    if not hmac.compare_digest(_tag(key, name, body), tag):
        raise ValueError("cache file does not verify: damaged, or not written here")
    try:
        payload = marshal.loads(body)
    except (EOFError, ValueError, TypeError) as exc:
        raise ValueError(f"cache file does not decode: {exc}") from None
    return payload


def row_of(result: Mapping[str, Any]) -> tuple[Any, ...]:
    """A file's row in the `files` table, from its results: (digest, stat, summary digest,
    format, failure)."""
    return (result.get("d"), result.get("st"), result.get("sd"), result.get("fmt"), result.get("f"))


def _plain_records(shard: dict[str, Any], fresh: set[str]) -> dict[str, Any]:
    """A shard to write, the records named in `fresh` made plain (`_plain`), each tuple
    met again the same plain tuple; the others as they are (read from a cache file: plain).
    TypeError as `_plain` raises it."""
    if not fresh:
        return shard
    made: dict[int, tuple[Any, Any]] = {}
    try:
        return {k: _plain(v, 0, made) if k in fresh else v for k, v in shard.items()}
    except TypeError:
        return shard  # (written as `encoded` decides: not kept)


def _shard_name(kind: str, number: int) -> str:
    return f"{kind}-{number:03d}" if kind == "idx" else f"{kind}-{number:02d}"


def _dict_of_dicts(value: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict):
        return {}
    if all(map(_is_str, value)) and all(map(_is_dict, value.values())):
        return value  # (as a cache file holds it, checked in C: a run reads every files shard)
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, dict)}


def _str_keys(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {}
    if all(map(_is_str, value)):
        return value
    return {k: v for k, v in value.items() if isinstance(k, str)}


_is_str, _is_dict = str.__instancecheck__, dict.__instancecheck__  # isinstance(x, str), isinstance(x, dict)


class MemoView:
    """The store's memo as rules read it (see `registry.Memo`): a shard is loaded when one
    of its keys is asked for, and what is added goes to the store (written by `save`)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def get(self, key: str, default: Any = None) -> Any:
        if not isinstance(key, str):
            return default
        return self._store.memo_shard(memo_shard_of(key)).get(key, default)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self._store.memo_shard(memo_shard_of(key))

    def update(self, items: Mapping[str, Any]) -> None:
        self._store.remember(items)


class Store:
    """One corpus's cache in one environment: per-file records, corpus findings, and the memo.

    Everything is loaded on first use and written by `save()`; nothing here raises
    for a cache that is missing, damaged, foreign or read-only (why a save failed is
    kept in `unsaved`, for the run to tell). What `save()` wrote of
    the results, the summaries and the corpus findings it lets go (read again if asked
    for): a run saves after its per-file phase and after its corpus phase, and need not
    hold both.
    """

    def __init__(self, top: Folder, key: bytes, corpus: str, env: str, version: str = "") -> None:
        self.top, self.key, self.corpus_name, self.env = top, key, corpus, env
        self.memo_prefix = f"memo-{environment_key([version])}-"
        self._format: Folder | None = None
        self._corpus_folder: Folder | None = None
        self._env: Folder | None = None
        self._shards: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
        self._dirty: set[tuple[str, int]] = set()
        self._removed: dict[tuple[str, int], set[str]] = {}
        self._memo: dict[int, dict[str, Any]] = {}
        self._memo_new: dict[int, dict[str, Any]] = {}
        self._corpus: dict[str, Any] | None = None
        self._corpus_parts: dict[int, dict[str, Any] | None] = {}
        self._corpus_new: tuple[dict[str, Any], dict[str, str], dict[str, Any], dict[str, Any]] | None = None
        self._seen: dict[tuple[str, str], tuple[int, int, int] | None] = {}
        self._files: dict[str, Any] | None = None  # the `files` table: every shard's rows
        self._file_parts: dict[int, dict[str, Any]] = {}  # the rows of each shard
        self._files_dirty: set[int] = set()
        self._files_removed: dict[int, set[str]] = {}
        self._numbers: dict[str, int] = {}  # each file's shard (`shard_of`), worked out once a run
        # The records `put` in each shard: the only ones that may hold a named tuple (a
        # finding); what was read is plain already.
        self._fresh: dict[tuple[str, int], set[str]] = {}
        # Of those, the summaries `put` vouched for: a shard of nothing else is written as it is.
        self._vouched: dict[tuple[str, int], set[str]] = {}
        self.unsaved: str | None = None  # why a save did not write all it had to (the first time)

    @property
    def folder(self) -> Path:
        """Where this corpus's records of this environment are (for people and tests)."""
        return self.top.path / FORMAT / self.corpus_name / self.env

    # --- folders -----------------------------------------------------------------------

    def _formats(self, create: bool = False) -> Folder | None:
        if self._format is None:
            self._format = self.top.folder(FORMAT, create)
        return self._format

    def _env_folder(self, create: bool = False) -> Folder | None:
        if self._env is None:
            base = self._formats(create)
            corpus = base.folder(self.corpus_name, create) if base is not None else None
            self._corpus_folder = corpus
            self._env = corpus.folder(self.env, create) if corpus is not None else None
        return self._env

    # --- per-file records: results ("res") and summaries ("idx") --------------------------

    def _shard(self, kind: str, number: int) -> dict[str, dict[str, Any]]:
        shard = self._shards.get((kind, number))
        if shard is None:
            shard = self._shards[(kind, number)] = _dict_of_dicts(self._load("env", _shard_name(kind, number)))
        return shard

    def _number(self, key: str, kind: str = "res") -> int:
        """`shard_of(key)`, or `index_shard_of(key)` for the kind "idx": a run asks it of each
        file for its results and again for its corpus findings."""
        spread = self._numbers.get(key)
        if spread is None:
            spread = self._numbers[key] = _spread(key)
        return spread % (INDEX_SHARDS if kind == "idx" else SHARDS)

    def result(self, key: str) -> dict[str, Any] | None:
        """The results stored for a file (its path below the root), if any."""
        return self._shard("res", self._number(key)).get(key)

    def index(self, key: str) -> dict[str, Any] | None:
        """The summary and facts stored for a file, if any."""
        return self._shard("idx", self._number(key, "idx")).get(key)

    def file_row(self, key: str) -> Any:
        """What the `files` table holds for a file (see `row_of`), if anything."""
        return self._table().get(key)

    def files(self) -> Mapping[str, Any]:
        """The `files` table (see `row_of`) by file key, to read: rows are checked in shape
        where they are used."""
        return self._table()

    def _table(self) -> dict[str, Any]:
        if self._files is None:
            self._files = {}
            for number in range(SHARDS):
                part = self._file_parts[number] = _str_keys(self._load("env", f"files-{number:02d}"))
                self._files.update(part)
        return self._files

    def _set_row(self, key: str, row: Any) -> None:
        table, number = self._table(), self._number(key)
        if row is None:
            if table.pop(key, None) is None:
                return
            self._file_parts[number].pop(key, None)
            self._files_removed.setdefault(number, set()).add(key)
        else:
            if table.get(key) == row:
                return
            table[key] = self._file_parts[number][key] = row
        self._files_dirty.add(number)

    def put(
        self, key: str, result: dict[str, Any] | None, index: dict[str, Any] | None, plain_index: bool = False
    ) -> None:
        """Keep a file's results, and its summary and facts (`index`); None: not changed.
        `plain_index`: the caller vouches that each list and dict in `index` is in one place
        only, and nothing of it in another record but texts and tuples of texts (as
        `corpus_summary.shared` rebuilds a summary)."""
        for kind, value in (("res", result), ("idx", index)):
            if value is not None:
                number = self._number(key, kind)
                self._shard(kind, number)[key] = value
                self._dirty.add((kind, number))
                self._fresh.setdefault((kind, number), set()).add(key)
        if index is not None:
            vouched = self._vouched.setdefault(("idx", self._number(key, "idx")), set())
            if plain_index:
                vouched.add(key)
            else:
                vouched.discard(key)
        if result is not None:
            self._set_row(key, row_of(result))

    def forget(self, keys: Iterable[str]) -> None:
        """Drop records of files that are gone."""
        for key in keys:
            for kind in ("res", "idx"):
                number = self._number(key, kind)
                if self._shard(kind, number).pop(key, None) is not None:
                    self._dirty.add((kind, number))
                    self._removed.setdefault((kind, number), set()).add(key)
            self._set_row(key, None)

    def known(self) -> set[str]:
        """Every file key with results (loads every results shard)."""
        keys: set[str] = set()
        for number in range(SHARDS):
            keys.update(self._shard("res", number))
        return keys

    # --- results keyed by their inputs -------------------------------------------------

    def memo(self) -> MemoView:
        """Values keyed by everything they depend on (read with `get`; add with `remember`)."""
        return MemoView(self)

    def _memo_name(self, number: int) -> str:
        return f"{self.memo_prefix}{number:02d}"

    def memo_shard(self, number: int) -> dict[str, Any]:
        shard = self._memo.get(number)
        if shard is None:
            shard = self._memo[number] = _str_keys(self._load("format", self._memo_name(number)))
        return shard

    def remember(self, items: Mapping[str, Any]) -> None:
        for key, value in items.items():
            if not isinstance(key, str):
                continue
            number = memo_shard_of(key)
            self.memo_shard(number)[key] = value
            self._memo_new.setdefault(number, {})[key] = value

    # --- corpus findings of the last full run -----------------------------------------------

    def corpus(self) -> dict[str, Any]:
        """The last full run's corpus phase: `key` (what its findings depend on) and
        `written` (the name of that writing); empty if there is none."""
        if self._corpus is None:
            loaded = self._load("env", "corpus")
            self._corpus = loaded if isinstance(loaded, dict) else {}
        return self._corpus

    def _corpus_shard(self, key: str) -> dict[str, Any] | None:
        """The shard of the run `corpus()` describes that holds the file `key`; None if it
        is missing, damaged or of another writing. Read and checked once a run (a warm run
        asks it of every file)."""
        number = self._number(key)
        if number not in self._corpus_parts:
            self._corpus_parts[number] = self._checked_corpus_shard(number)
        return self._corpus_parts[number]

    def _checked_corpus_shard(self, number: int) -> dict[str, Any] | None:
        part = _str_keys(self._load("env", f"cor-{number:02d}"))
        written = self.corpus().get("written")
        if not isinstance(written, str) or part.get("written") != written:
            return None  # another writing's shard: a run that wrote them meanwhile, or stopped midway
        if not all(isinstance(part.get(table), dict) for table in ("findings", "places", "digests")):
            return None
        return part

    def corpus_part(self, key: str) -> tuple[Any, Any] | None:
        """The findings on the file `key` of the run `corpus()` describes, and how their
        places were found, as `set_corpus` was given them (nothing for a file without any);
        None if the shard that holds them is missing or of another run."""
        part = self._corpus_shard(key)
        if part is None:
            return None
        return part["findings"].get(key, ()), part["places"].get(key, ())

    def corpus_digest(self, key: str) -> Any:
        """The digest of the file `key` in the run `corpus()` describes, as `set_corpus` was
        given it (None if the shard that holds it is missing or of another run, or the
        file was not in that run)."""
        part = self._corpus_shard(key)
        return part["digests"].get(key) if part is not None else None

    def set_corpus(
        self, key: str, digests: dict[str, str], findings: dict[str, Any], places: dict[str, Any]
    ) -> None:
        """Keep a full run's corpus phase (see `corpus`, `corpus_part` and `corpus_digest`):
        written by `save`."""
        # Named afresh at every writing, so that no shard of one is ever read with another's
        # head: even two writings of one key differ in the places they hold.
        self._corpus = {"key": key, "written": os.urandom(12).hex()}
        self._corpus_parts = {}
        self._corpus_new = (self._corpus, digests, findings, places)

    # --- reading and writing -------------------------------------------------------------

    def _where(self, place: str, create: bool = False) -> Folder | None:
        return self._env_folder(create) if place == "env" else self._formats(create)

    def _signature(self, place: str, name: str) -> tuple[int, int, int] | None:
        folder = self._where(place)
        info = folder.info(name) if folder is not None else None
        return (info.st_mtime_ns, info.st_size, info.st_ino) if info is not None else None

    def _read(self, place: str, name: str) -> Any:
        folder = self._where(place)
        if folder is None:
            return None
        blob = folder.read(name, MAX_FILE_BYTES)
        if blob is None:
            return None
        try:
            return decode(blob, self.key, f"{place}/{name}")
        except ValueError as exc:
            log.debug("cache: ignoring %s: %s", name, exc)
            return None

    def _load(self, place: str, name: str) -> Any:
        """`_read`, remembering which version of the file was read (see `_unchanged`)."""
        self._seen[(place, name)] = self._signature(place, name)
        return self._read(place, name)

    def _unchanged(self, place: str, name: str) -> bool:
        """True if the file is still the one this store read (or wrote) last: no other
        process replaced it since (every write is a new file moved into place), so there
        is nothing to merge before writing it."""
        seen = self._seen.get((place, name))
        return seen is not None and seen == self._signature(place, name)

    def _write(self, place: str, name: str, payload: Any) -> None:
        folder = self._where(place, create=True)
        if folder is None:
            raise OSError(f"cannot create the cache folder for {name}")
        try:
            blob = encoded(payload, self.key, f"{place}/{name}")
        except (TypeError, ValueError) as exc:  # a value of an undeclared type: not kept
            log.debug("cache: not writing %s: %s", name, exc)
            return
        folder.write(name, blob)
        self._seen[(place, name)] = self._signature(place, name)

    def _plain_shard(self, shard: dict[str, Any], kind: str, number: int) -> dict[str, Any]:
        """`_plain_records` of a shard to write; the shard as it is when every record the run
        put in it was vouched (`put`): a reader gets the same of it, tuples the records share
        one already, no list or dict in two places, and what marshal refuses made plain by
        `encoded` (or refused by `_plain`) as before."""
        fresh = self._fresh.pop((kind, number), set())
        if fresh <= self._vouched.pop((kind, number), set()):
            return shard
        return _plain_records(shard, fresh)

    def _write_corpus(
        self, head: dict[str, Any], digests: dict[str, str], findings: dict[str, Any], places: dict[str, Any]
    ) -> None:
        parts: list[dict[str, Any]] = [
            {"written": head["written"], "findings": {}, "places": {}, "digests": {}} for _ in range(SHARDS)
        ]
        for table, items_of in (("digests", digests), ("findings", findings), ("places", places)):
            for name, items in items_of.items():
                parts[self._number(name)][table][name] = items
        # Every shard, even one without findings: each names the writing it belongs to. The
        # head last: until it is written, the shards do not match the head a reader sees.
        for number, part in enumerate(parts):
            self._write("env", f"cor-{number:02d}", part)
        self._write("env", "corpus", head)
        self._corpus = None
        self._corpus_parts = {}

    def save(self) -> None:
        """Write what changed; records another process wrote meanwhile are merged in."""
        if not (self._dirty or self._memo_new or self._corpus_new is not None or self._files_dirty):
            return
        try:
            for kind, number in sorted(self._dirty):
                name = _shard_name(kind, number)
                if self._unchanged("env", name):  # what we read is what is there: nothing to merge
                    merged = self._shards[(kind, number)]
                else:
                    on_disk = _dict_of_dicts(self._read("env", name))
                    removed = self._removed.get((kind, number), set())
                    merged = {k: v for k, v in on_disk.items() if k not in removed}
                    merged.update(self._shards[(kind, number)])
                self._write("env", name, self._plain_shard(merged, kind, number))
                # written: read again if asked for (the run's records hold what it needs of them)
                del self._shards[(kind, number)]
                self._dirty.discard((kind, number))
                self._removed.pop((kind, number), None)
            for number, added in sorted(self._memo_new.items()):
                name = self._memo_name(number)
                if self._unchanged("format", name):
                    merged = self.memo_shard(number)
                else:
                    merged = _str_keys(self._read("format", name))
                    merged.update(added)
                self._write("format", name, merged)
            if self._corpus_new is not None:
                self._write_corpus(*self._corpus_new)
            for number in sorted(self._files_dirty):
                name = f"files-{number:02d}"
                if self._unchanged("env", name):
                    merged = self._file_parts[number]
                else:
                    removed = self._files_removed.get(number, set())
                    merged = {k: v for k, v in _str_keys(self._read("env", name)).items() if k not in removed}
                    merged.update(self._file_parts[number])
                self._write("env", name, merged)
        except OSError as exc:
            log.debug("cache: cannot write %s: %s", self.folder, exc)
            # (what is left is written by a later save: its records may have changed by then)
            self._vouched.clear()
            if self.unsaved is None:
                self.unsaved = exc.strerror or str(exc)
            return
        for folder in (self._env, self._corpus_folder):
            if folder is not None:
                folder.touch()  # most recently used, for pruning
        self._dirty.clear()
        self._removed.clear()
        self._memo_new = {}
        self._corpus_new = None
        self._files_dirty = set()
        self._files_removed = {}
        self._prune()

    def records_to_write(self) -> int:
        """How many files' records `put` since the last save are waiting to be written."""
        return sum(len(keys) for (kind, _), keys in self._fresh.items() if kind == "res")

    def handed_over(self) -> None:
        """Let go of what changed since the last save, as `save()` does once it has written
        it: a child forked with this store writes it (its `save()`). A later save here
        merges with what that child wrote, as with any other process's writing."""
        for shard in self._dirty:
            self._shards.pop(shard, None)
            self._fresh.pop(shard, None)
            self._vouched.pop(shard, None)
        self._dirty.clear()
        self._removed.clear()
        self._memo_new = {}
        if self._corpus_new is not None:
            self._corpus_new = None
            self._corpus = None
            self._corpus_parts = {}
        self._files_dirty = set()
        self._files_removed = {}

    def taken_back(self, unsaved: str | None, ended: bool) -> None:
        """What the child that wrote the store (`handed_over`) said: why it did not write all
        it had to, if so; `ended` is False when it ended before it could say."""
        if self.unsaved is None:
            self.unsaved = unsaved if ended else "the process writing it ended early"

    def _prune(self) -> None:
        """Remove what no run will read again: the folders of environments not used
        recently (old versions, old configs), other versions' memos, corpora not linted
        for a month, and temporary files a killed run left. Only names are removed,
        never anything a link points at."""
        now = time.time()
        formats, corpus = self._formats(), self._corpus_folder
        if formats is None or corpus is None:
            return
        folders = sorted(
            ((name, info) for name, info in corpus.listing() if stat.S_ISDIR(info.st_mode) and name != self.env),
            key=lambda item: item[1].st_mtime,
            reverse=True,
        )
        for number, (name, info) in enumerate(folders):
            age = now - info.st_mtime
            if (number >= KEEP_ENVIRONMENTS - 1 and age > _BUSY_SECONDS) or age > 7 * 24 * 3600:
                corpus.remove(name)
        for name, info in formats.listing():
            age = now - info.st_mtime
            if name.startswith("memo-"):
                if not name.startswith(self.memo_prefix) and age > _BUSY_SECONDS:
                    formats.remove(name)  # another version's
            elif name != self.corpus_name and age > STALE_CORPUS_SECONDS:
                formats.remove(name)
        for folder in (formats, corpus, self._env):
            if folder is None:
                continue
            for name, info in folder.listing():
                if name.startswith(".") and name.endswith(".tmp") and now - info.st_mtime > 3600:
                    folder.remove(name)


def open_store(location: Path, root: Path, env: str, version: str) -> Store:
    """The cache of the corpus at `root` in the environment `env`, in the private folder at
    `location`. Unusable if that folder cannot be used."""
    top = open_folder(location)
    try:
        key = secret_key(top)
    except Unusable:
        top.close()
        raise
    return Store(top, key, corpus_key(root), env, version)
