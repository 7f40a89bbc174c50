"""The result cache under `.entrykit_cache/` in the corpus root: what can be reused between runs.

Layout (all below the corpus root):

    .entrykit_cache/.gitignore         `*`: the cache is never committed
    .entrykit_cache/CACHEDIR.TAG       backup tools skip the folder
    .entrykit_cache/v1/<env>/res-XX    per-file results (digest, stat, failure, findings),
                                       in 32 shards by path
    .entrykit_cache/v1/<env>/idx-XX    per-file summaries and facts for corpus rules, read
                                       only when corpus rules have to run
    .entrykit_cache/v1/<env>/files     per file: digest, stat, summary digest, format, failure
                                       (what a run that does not report on a file needs of it)
    .entrykit_cache/v1/<env>/corpus    the corpus-rule findings of the last full run
    .entrykit_cache/v1/memo-<version>-XX  results keyed by all their inputs (ET205's), in 16
                                       shards by key: a run reads only the shards of the keys
                                       it asks for

`<env>` is a digest of what every cached result depends on besides the file:
the entrykit version, the configuration and the schema. A change of any of them
starts a new folder; old folders beyond the most recent few are removed. The memo
depends on the version alone (its keys name every other input), so it survives a
change of configuration.

Each file holds `MAGIC`, a BLAKE2b digest of the payload, and the payload in
`marshal` format (plain data only: strings, numbers, lists, dicts, tuples; never
code and never pickles, so a planted or damaged cache cannot run anything). A
file whose digest does not match, that does not decode, or whose data are not of
the expected shape is ignored (and rewritten by the run). Writes go through a
temporary file and `os.replace`, so a reader sees the old file or the new one,
never half of one; two processes writing at once each write a whole file, and
the later one wins. Before writing a shard a run merges what is on disk, so
records another process added meanwhile are kept unless both touched the same
file. A cache that cannot be read or written never fails a lint run.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import os
import shutil
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from entrykit.writing import atomic_write_bytes

log = logging.getLogger(__name__)

CACHE_DIR = ".entrykit_cache"
FORMAT = "v1"
MAGIC = b"entrykit-cache-1\n"
SHARDS = 32
MEMO_SHARDS = 16
KEEP_ENVIRONMENTS = 4
_DIGEST = 32
_GITIGNORE = "# Written by entrykit: this folder is a local cache.\n*\n"
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by entrykit.\n"
)


def content_digest(data: bytes) -> str:
    """The digest that identifies a file's content in the cache."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def environment_key(parts: Iterable[str]) -> str:
    """A short digest of what every cached result depends on (version, config, schema)."""
    return hashlib.blake2b("\0".join(parts).encode(), digest_size=12).hexdigest()


def shard_of(key: str) -> int:
    return int(hashlib.blake2b(key.encode(), digest_size=2).hexdigest(), 16) % SHARDS


def memo_shard_of(key: str) -> int:
    return int(hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=2).hexdigest(), 16) % MEMO_SHARDS


def encode(payload: Any) -> bytes:
    body = marshal.dumps(payload)
    return MAGIC + hashlib.blake2b(body, digest_size=_DIGEST).digest() + body


def decode(blob: bytes) -> Any:
    """The payload of a cache file; ValueError if it is not one, or is damaged."""
    head = len(MAGIC)
    if not blob.startswith(MAGIC) or len(blob) < head + _DIGEST:
        raise ValueError("not an entrykit cache file")
    digest, body = blob[head : head + _DIGEST], blob[head + _DIGEST :]
    if hashlib.blake2b(body, digest_size=_DIGEST).digest() != digest:
        raise ValueError("cache file is damaged")
    try:
        return marshal.loads(body)
    except (EOFError, ValueError, TypeError) as exc:
        raise ValueError(f"cache file does not decode: {exc}") from None


def _read(path: Path) -> Any:
    try:
        blob = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.debug("cache: cannot read %s: %s", path, exc)
        return None
    try:
        return decode(blob)
    except ValueError as exc:
        log.debug("cache: ignoring %s: %s", path, exc)
        return None


def _write(path: Path, payload: Any) -> None:
    """Atomically replace `path` (no fsync: a cache lost in a crash is only rebuilt)."""
    atomic_write_bytes(path, encode(payload), durable=False)


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def row_of(result: Mapping[str, Any]) -> tuple[Any, ...]:
    """A file's row in the `files` table, from its results: (digest, stat, summary digest,
    format, failure)."""
    return (result.get("d"), result.get("st"), result.get("sd"), result.get("fmt"), result.get("f"))


def _dict_of_dicts(value: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, dict)}


class MemoView:
    """The store's memo as rules read it: a shard is loaded when one of its keys is asked for,
    and what is added goes to the store (to be written by `save`)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def get(self, key: str, default: Any = None) -> Any:
        return self._store.memo_shard(memo_shard_of(key)).get(key, default)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self._store.memo_shard(memo_shard_of(key))

    def update(self, items: Mapping[str, Any]) -> None:
        self._store.remember(items)


class Store:
    """One environment's cache folder: per-file records, corpus findings, and a memo.

    Everything is loaded on first use and written by `save()`; nothing here raises
    for a cache that is missing, damaged or read-only.
    """

    def __init__(self, root: Path, env: str, version: str = "") -> None:
        self.base = root / CACHE_DIR
        self.folder = self.base / FORMAT / env
        self.memo_prefix = f"memo-{environment_key([version])}-"
        self._shards: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
        self._dirty: set[tuple[str, int]] = set()
        self._removed: dict[tuple[str, int], set[str]] = {}
        self._memo: dict[int, dict[str, Any]] = {}
        self._memo_new: dict[int, dict[str, Any]] = {}
        self._corpus: dict[str, Any] | None = None
        self._corpus_new: dict[str, Any] | None = None
        self._seen: dict[Path, tuple[int, int, int] | None] = {}
        self._files: dict[str, Any] | None = None
        self._files_dirty = False
        self._files_removed: set[str] = set()

    # --- per-file records: results ("res") and summaries ("idx") --------------------------

    def _shard(self, kind: str, number: int) -> dict[str, dict[str, Any]]:
        shard = self._shards.get((kind, number))
        if shard is None:
            shard = self._shards[(kind, number)] = _dict_of_dicts(self._load(self.folder / f"{kind}-{number:02d}"))
        return shard

    def result(self, key: str) -> dict[str, Any] | None:
        """The results stored for a file (its path below the root), if any."""
        return self._shard("res", shard_of(key)).get(key)

    def index(self, key: str) -> dict[str, Any] | None:
        """The summary and facts stored for a file, if any."""
        return self._shard("idx", shard_of(key)).get(key)

    def file_row(self, key: str) -> Any:
        """What the `files` table holds for a file (see `row_of`), if anything."""
        return self._table().get(key)

    def _table(self) -> dict[str, Any]:
        if self._files is None:
            loaded = self._load(self.folder / "files")
            self._files = {k: v for k, v in loaded.items() if isinstance(k, str)} if isinstance(loaded, dict) else {}
        return self._files

    def put(self, key: str, result: dict[str, Any] | None, index: dict[str, Any] | None) -> None:
        number = shard_of(key)
        for kind, value in (("res", result), ("idx", index)):
            if value is not None:
                self._shard(kind, number)[key] = value
                self._dirty.add((kind, number))
        if result is not None:
            row = row_of(result)
            if self._table().get(key) != row:
                self._table()[key] = row
                self._files_dirty = True

    def forget(self, keys: Iterable[str]) -> None:
        """Drop records of files that are gone."""
        for key in keys:
            number = shard_of(key)
            for kind in ("res", "idx"):
                if self._shard(kind, number).pop(key, None) is not None:
                    self._dirty.add((kind, number))
                    self._removed.setdefault((kind, number), set()).add(key)
            if self._table().pop(key, None) is not None:
                self._files_dirty = True
                self._files_removed.add(key)

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

    def _memo_file(self, number: int) -> Path:
        return self.base / FORMAT / f"{self.memo_prefix}{number:02d}"

    def memo_shard(self, number: int) -> dict[str, Any]:
        shard = self._memo.get(number)
        if shard is None:
            loaded = self._load(self._memo_file(number))
            shard = self._memo[number] = loaded if isinstance(loaded, dict) else {}
        return shard

    def remember(self, items: Mapping[str, Any]) -> None:
        for key, value in items.items():
            number = memo_shard_of(key)
            self.memo_shard(number)[key] = value
            self._memo_new.setdefault(number, {})[key] = value

    # --- corpus findings of the last full run -----------------------------------------------

    def corpus(self) -> dict[str, Any]:
        if self._corpus is None:
            loaded = _read(self.folder / "corpus")
            self._corpus = loaded if isinstance(loaded, dict) else {}
        return self._corpus

    def set_corpus(self, snapshot: dict[str, Any]) -> None:
        self._corpus = self._corpus_new = snapshot

    # --- reading and writing -------------------------------------------------------------

    def _load(self, path: Path) -> Any:
        """`_read`, remembering which version of the file was read (see `_unchanged`)."""
        self._seen[path] = _signature(path)
        return _read(path)

    def _unchanged(self, path: Path) -> bool:
        """True if `path` is still the file this store read (or wrote) last: no other process
        replaced it since (every write is a new file moved into place), so there is nothing
        to merge before writing it."""
        seen = self._seen.get(path)
        return seen is not None and seen == _signature(path)

    def _write(self, path: Path, payload: Any) -> None:
        _write(path, payload)
        self._seen[path] = _signature(path)

    def _prepare(self) -> bool:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            ignore = self.base / ".gitignore"
            if not ignore.exists():
                _write_text(ignore, _GITIGNORE)
            tag = self.base / "CACHEDIR.TAG"
            if not tag.exists():
                _write_text(tag, _TAG)
        except OSError as exc:
            log.debug("cache: cannot create %s: %s", self.folder, exc)
            return False
        return True

    def save(self) -> None:
        """Write what changed; records another process wrote meanwhile are merged in."""
        if not (self._dirty or self._memo_new or self._corpus_new is not None or self._files_dirty):
            return
        if not self._prepare():
            return
        try:
            for kind, number in sorted(self._dirty):
                path = self.folder / f"{kind}-{number:02d}"
                if self._unchanged(path):  # what we read is what is there: nothing to merge
                    merged = self._shards[(kind, number)]
                else:
                    on_disk = _dict_of_dicts(_read(path))
                    removed = self._removed.get((kind, number), set())
                    merged = {k: v for k, v in on_disk.items() if k not in removed}
                    merged.update(self._shards[(kind, number)])
                self._write(path, merged)
            for number, added in sorted(self._memo_new.items()):
                path = self._memo_file(number)
                if self._unchanged(path):
                    merged = self.memo_shard(number)
                else:
                    on_disk = _read(path)
                    merged = on_disk if isinstance(on_disk, dict) else {}
                    merged.update(added)
                self._write(path, merged)
            if self._corpus_new is not None:
                _write(self.folder / "corpus", self._corpus_new)
            if self._files_dirty:
                path = self.folder / "files"
                if self._unchanged(path):
                    merged = self._table()
                else:
                    on_disk = _read(path)
                    merged = {
                        k: v for k, v in (on_disk.items() if isinstance(on_disk, dict) else ())
                        if k not in self._files_removed
                    }
                    merged.update(self._table())
                self._write(path, merged)
            os.utime(self.folder)  # most recently used, for pruning
        except OSError as exc:
            log.debug("cache: cannot write %s: %s", self.folder, exc)
            return
        self._dirty.clear()
        self._removed.clear()
        self._memo_new = {}
        self._corpus_new = None
        self._files_dirty = False
        self._files_removed = set()
        self._prune()

    def _prune(self) -> None:
        """Remove the folders of environments not used recently (old versions, old configs)."""
        try:
            folders = [p for p in (self.base / FORMAT).iterdir() if p.is_dir() and p != self.folder]
            memos = [p for p in (self.base / FORMAT).glob("memo-*") if not p.name.startswith(self.memo_prefix)]
            folders.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            return
        week = 7 * 24 * 3600
        for stale in folders[KEEP_ENVIRONMENTS - 1 :]:
            try:
                if time.time() - stale.stat().st_mtime > 60:  # not one another run is filling now
                    shutil.rmtree(stale, ignore_errors=True)
            except OSError:
                continue
        for old_memo in memos:  # another version's
            try:
                if time.time() - old_memo.stat().st_mtime > 60:
                    old_memo.unlink(missing_ok=True)
            except OSError:
                continue
        for old in folders[: KEEP_ENVIRONMENTS - 1]:
            try:
                if time.time() - old.stat().st_mtime > week:
                    shutil.rmtree(old, ignore_errors=True)
            except OSError:
                continue



def _write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), durable=False)
