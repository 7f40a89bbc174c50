"""entrykit's own folder per user (the lint cache, the journal of writes): where it is, its
secret key, and file operations inside it that never follow a symbolic link.

A repository cannot supply this folder or aim it: it lies outside the project (the
user's cache directory, `$XDG_CACHE_HOME/entrykit` or `~/.cache/entrykit`, unless
`--cache-dir` or `ENTRYKIT_CACHE_DIR` names another), it is created with mode 0700 and
must belong to the user and be writable by nobody else, and every file in it is opened
by name relative to a descriptor of its folder with `O_NOFOLLOW`: a symbolic link found
inside is a name that cannot be opened, never a way out, and removing a folder removes
links, not what they point at. What entrykit keeps there is authenticated with a key
(`secret_key`) made of random bytes the first time, readable by the user alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Self

ENV_VAR = "ENTRYKIT_CACHE_DIR"
KEY_FILE = "key"
KEY_BYTES = 32
TAG_FILE = "CACHEDIR.TAG"
_TAG = (
    b"Signature: 8a477f597d28d172789f06886806bc55\n"
    b"# This file is a cache directory tag created by entrykit.\n"
)
_MAX_DEPTH = 8  # entrykit's own layout is 3 folders deep; nothing deeper is walked

# Opening files relative to a folder descriptor without following links is what makes
# the folder safe; a platform without it (Windows) runs without the folder.
SUPPORTED = (
    hasattr(os, "O_NOFOLLOW")
    and hasattr(os, "O_DIRECTORY")
    and os.open in os.supports_dir_fd
    and os.scandir in os.supports_fd
    and os.stat in os.supports_dir_fd
    and os.stat in os.supports_follow_symlinks
    and all(f in os.supports_dir_fd for f in (os.mkdir, os.unlink, os.rmdir, os.rename, os.link))
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


class Unusable(Exception):
    """Why the folder cannot be used (the run goes on without what it keeps there)."""


def default_location() -> Path:
    """`$XDG_CACHE_HOME/entrykit`, else `~/.cache/entrykit` (`%LOCALAPPDATA%` on Windows)."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "entrykit"
    local = os.environ.get("LOCALAPPDATA", "")
    if os.name == "nt" and local:
        return Path(local) / "entrykit"
    return Path.home() / ".cache" / "entrykit"


def location(explicit: Path | None = None) -> tuple[Path, bool]:
    """Where the folder is, and whether it was chosen (`--cache-dir`, `ENTRYKIT_CACHE_DIR`)
    rather than the default."""
    if explicit is not None:
        return Path(os.path.abspath(explicit)), True
    from_env = os.environ.get(ENV_VAR, "")
    if from_env:
        return Path(os.path.abspath(from_env)), True
    return default_location(), False


def _refuse_foreign(info: os.stat_result, what: str) -> None:
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        raise Unusable(f"{what} belongs to another user")
    if info.st_mode & 0o022:
        raise Unusable(f"{what} may be written by other users (mode {stat.S_IMODE(info.st_mode):o})")


class Folder:
    """A directory opened without following links; files in it are read, written and
    removed by name relative to it. Nothing here raises for a file that is missing,
    damaged or foreign, except where it says so."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd = fd
        self.path = path

    @classmethod
    def top(cls, path: Path) -> Folder:
        """The folder at `path`, created (0700) if need be; Unusable if it cannot be used:
        not a directory, another user's, writable by others, or on a platform without
        the file operations that keep links out."""
        if not SUPPORTED:
            raise Unusable("this platform cannot open files without following links")
        if "\0" in str(path):
            raise Unusable("its name holds a NUL character")
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
            real = os.path.realpath(path)  # links in the chosen path are the user's own
            fd = os.open(real, os.O_RDONLY | _DIRECTORY | _NOFOLLOW)
        except OSError as exc:
            raise Unusable(f"cannot open it: {exc.strerror or exc}") from None
        folder = cls(fd, Path(real))
        try:
            _refuse_foreign(os.fstat(fd), "it")
        except Unusable:
            folder.close()
            raise
        return folder

    def identity(self) -> tuple[int, int]:
        """The folder's device and inode: which folder it is, wherever it is named from."""
        info = os.fstat(self.fd)
        return (info.st_dev, info.st_ino)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(OSError):  # closing a descriptor at exit
            self.close()

    # --- what is in it -----------------------------------------------------------------

    def info(self, name: str) -> os.stat_result | None:
        """The entry `name` itself (a link is a link), or None."""
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except (OSError, ValueError):
            return None

    def listing(self) -> list[tuple[str, os.stat_result]]:
        """Every name in the folder with what it is (links not followed), sorted by name."""
        try:
            names = sorted(os.listdir(self.fd))
        except OSError:
            return []
        found = []
        for name in names:
            info = self.info(name)
            if info is not None:
                found.append((name, info))
        return found

    def folder(self, name: str, create: bool = False) -> Folder | None:
        """The subfolder `name` (created 0700 with `create`), or None if there is no such
        folder or `name` is anything else (a link to a folder included)."""
        if create:
            try:
                os.mkdir(name, 0o700, dir_fd=self.fd)
            except FileExistsError:
                pass
            except OSError:
                return None
        try:
            fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=self.fd)
        except (OSError, ValueError):
            return None
        return Folder(fd, self.path / name)

    # --- files ---------------------------------------------------------------------------

    def read(self, name: str, limit: int, private: bool = False) -> bytes | None:
        """The bytes of the regular file `name` (at most `limit`), or None: missing, a link,
        not a regular file, larger than `limit`, or (`private`) readable by others or not
        the user's."""
        try:
            fd = os.open(name, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0), dir_fd=self.fd)
        except (OSError, ValueError):
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                return None
            if private:
                if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
                    return None
                if info.st_mode & 0o077:
                    return None
            chunks = []
            left = limit + 1
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            data = b"".join(chunks)
            return data if len(data) <= limit else None
        except OSError:
            return None
        finally:
            os.close(fd)

    def _temp(self, name: str, data: bytes | Sequence[bytes]) -> str:
        """`data` (or its pieces, one after the other) in a new file beside `name` (mode
        0600, never through a link): its name."""
        pieces = [data] if isinstance(data, bytes) else data
        for _ in range(100):
            temp = f".{name[:64]}.{os.urandom(6).hex()}.tmp"
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600, dir_fd=self.fd)
            except FileExistsError:
                continue
            try:
                for piece in pieces:
                    view = memoryview(piece)
                    while view:
                        view = view[os.write(fd, view) :]
            except BaseException:
                os.close(fd)
                self.remove(temp)
                raise
            os.close(fd)
            return temp
        raise FileExistsError(errno.EEXIST, "no free temporary name", name)  # pragma: no cover

    def write(self, name: str, data: bytes | Sequence[bytes]) -> None:
        """Replace `name` with `data` in one step (a link of that name is replaced, not
        followed). OSError if it cannot be written. `data` may come in pieces: a large
        file need not be put together in memory first."""
        temp = self._temp(name, data)
        try:
            os.rename(temp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)  # (replaces, on POSIX)
        except BaseException:
            self.remove(temp)
            raise

    def create(self, name: str, data: bytes) -> bool:
        """Write `name` only if there is nothing of that name yet, whole or not at all
        (a hard link of a finished file); False if something was there."""
        temp = self._temp(name, data)
        try:
            os.link(temp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd, follow_symlinks=False)
        except FileExistsError:
            return False
        finally:
            self.remove(temp)
        return True

    def remove(self, name: str, depth: int = 0) -> None:
        """Remove `name`: a file or link itself, a folder with everything in it (links
        inside removed, never followed). Quietly does nothing if it cannot."""
        info = self.info(name)
        if info is None:
            return
        try:
            if not stat.S_ISDIR(info.st_mode):
                os.unlink(name, dir_fd=self.fd)
                return
            if depth < _MAX_DEPTH:
                inner = self.folder(name)
                if inner is not None:
                    with inner:
                        for child, _ in inner.listing():
                            inner.remove(child, depth + 1)
            os.rmdir(name, dir_fd=self.fd)
        except OSError:
            pass

    def lock(self, name: str) -> int | None:
        """Hold an exclusive lock on the file `name` (made if need be): its descriptor, to
        give to `unlock`; None if another process holds it. The kernel lets go of it when
        the process ends, however it ends."""
        import fcntl

        try:
            fd = os.open(name, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o600, dir_fd=self.fd)
        except (OSError, ValueError):
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return fd

    @staticmethod
    def unlock(fd: int) -> None:
        os.close(fd)

    def touch(self) -> None:
        """Mark the folder as just used (its mtime), for pruning."""
        with contextlib.suppress(OSError, NotImplementedError):
            os.utime(self.fd)

    def files(self) -> Iterator[str]:
        """The names of the regular files in the folder."""
        for name, info in self.listing():
            if stat.S_ISREG(info.st_mode):
                yield name


def open_folder(path: Path) -> Folder:
    """The folder at `path`, ready for use: created if need be, with its cache tag (so
    that backup tools skip it). Unusable if it cannot be used."""
    folder = Folder.top(path)
    if folder.info(TAG_FILE) is None:
        with contextlib.suppress(OSError):
            folder.create(TAG_FILE, _TAG)
    return folder


def secret_key(folder: Folder) -> bytes:
    """The folder's key: random bytes made the first time, in a file only the user may
    read. Unusable if the file is there but not private (a copied or planted key is
    no secret)."""
    for _ in range(3):
        key = folder.read(KEY_FILE, KEY_BYTES, private=True)
        if key is not None and len(key) == KEY_BYTES:
            return key
        if folder.info(KEY_FILE) is not None:
            raise Unusable(f"its `{KEY_FILE}` file is not a private file of {KEY_BYTES} bytes of this user's")
        try:
            folder.create(KEY_FILE, os.urandom(KEY_BYTES))
        except OSError as exc:
            raise Unusable(f"cannot write its key: {exc.strerror or exc}") from None
    raise Unusable("cannot read its key")  # pragma: no cover - another process kept replacing it
