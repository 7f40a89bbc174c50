"""Which files a run reports on (its targets), which files the corpus rules see, and which
folders a command that rewrites them must keep its writes inside."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from entrykit.config import Config
from entrykit.errors import UsageError
from entrykit.loader import (
    ENTRY_SUFFIXES,
    SKIPPED_DIRS,
    discover,
    discover_names,
    given_problem,
    is_entry_file,
    is_folder,
    paths_of,
)
from entrykit.paths import work_tree_top

_SUFFIXES = ", ".join(f"*{suffix}" for suffix in ENTRY_SUFFIXES)


@dataclass(frozen=True)
class Plan:
    """Which files are reported on (targets) and which the corpus rules see (corpus):
    the targets, then the `others`, files of the corpus root not reported on. Both are
    named as absolute paths in text (`names`, `others`): a run over a large corpus makes
    a `Path` only of the few files it reads; `targets` and `corpus` are those paths."""

    names: list[str]
    others: list[str] = field(default_factory=list)

    @cached_property
    def targets(self) -> list[Path]:
        return paths_of(self.names)

    @cached_property
    def corpus(self) -> list[Path]:
        return self.targets + paths_of(self.others) if self.others else self.targets

    @property
    def size(self) -> int:
        """How many files the corpus rules see."""
        return len(self.names) + len(self.others)


def _under(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(folder)  # realpath: a link loop is no error
    except ValueError:
        return False
    return True


def plan(paths: Sequence[Path] | None, config: Config) -> Plan:
    """Targets are the given paths (or the corpus root); the corpus is the root when
    every target is inside it, so corpus rules see the whole corpus in pre-commit runs."""
    root = config.root
    if not paths:
        if not root.is_dir():
            raise UsageError(f"corpus root `{root}` is not a directory; pass paths or set `root`")
        names = discover_names(root)
        if not names:
            raise UsageError(f"corpus root `{root}` holds no entry files ({_SUFFIXES}); is `root` right?")
        return Plan(names)
    for given in paths:
        problem = given_problem(given)
        if problem is not None:
            raise UsageError(f"`{given}` {problem}")
        if is_folder(given) and not given.is_symlink() and next(iter(discover([given])), None) is None:
            raise UsageError(f"`{given}` holds no entry files ({_SUFFIXES})")
    targets = list(discover(paths))
    names = [str(t) for t in targets]
    if root.is_dir() and targets and all(_under(t, root) for t in targets):
        names = [str(t) for t in as_corpus_files(targets, root)]
        known = set(names)
        return Plan(names, [name for name in discover_names(root) if name not in known])
    return Plan(names)


def as_corpus_files(files: Sequence[Path], root: Path) -> list[Path]:
    """`files`, each once, a file whose real path lies in the corpus root named as discovery
    of the root names it (its folders as they really are, the file as named): one named
    through `..` or a linked folder is that corpus file, not a second one. A file elsewhere
    keeps the name it was given (a link there is then checked where it is written)."""
    folders: dict[Path, Path] = {}
    out: dict[Path, None] = {}
    for file in files:
        if _under(file, root):
            parent = folders.get(file.parent)
            if parent is None:
                parent = folders[file.parent] = Path(os.path.realpath(file.parent))
            file = parent / file.name
        out[file] = None
    return list(out)


def inside_corpus(paths: Sequence[Path], config: Config) -> list[Path]:
    """The given paths that are entry files or folders inside the corpus root, as discovery
    of the root would find them: `--force-exclude`, for hooks that name every file.

    Anything else (a file outside the root, anything in a hidden or tool folder inside
    it, a file that is not YAML or JSON) is left out without a word, before it is read.
    """
    root = config.root
    kept: list[Path] = []
    for given in paths:
        # the folders as they really are, the file itself as named: a link in the corpus
        # is still the corpus's to report on (ET001 if it leads out)
        absolute = Path(os.path.abspath(given))
        where = Path(os.path.realpath(absolute.parent)) / absolute.name
        try:
            parts = where.relative_to(root).parts
        except ValueError:
            continue
        if any(part.startswith(".") or part in SKIPPED_DIRS for part in parts[:-1]):
            continue
        if parts and where.is_dir():
            if parts[-1].startswith(".") or parts[-1] in SKIPPED_DIRS:
                continue
        elif parts and not is_entry_file(where):
            continue
        kept.append(given)
    return kept


def write_scope(paths: Sequence[Path], config: Config) -> list[Path]:
    """The folders a command rewriting the entries at `paths` (default: the corpus root)
    must keep its writes inside (`writing.check_inside`): the corpus root for a path
    inside it as written, else the folder (or file) named itself. A symbolic link to a
    folder elsewhere, inside one of these, makes a write through it a refusal."""
    scope = [config.root]
    root = os.path.abspath(config.root)
    for given in paths:
        written = os.path.abspath(given)
        if not (written == root or written.startswith(root.rstrip(os.sep) + os.sep)):
            scope.append(Path(written))
    return scope


def project_folder(config: Config, cwd: Path) -> Path:
    """What a checkout holds, as real paths: the top of the git work tree around the
    configuration (or around the working directory, without one); else the working
    directory, when the configuration lies in it; else the configuration's folder."""
    base = Path(os.path.realpath(config.base))
    here = Path(os.path.realpath(cwd))
    top = work_tree_top(base)
    if top is not None:
        return top
    return here if within(base, here) else base


def within(path: Path, folder: Path) -> bool:
    """Whether `path`, as it really is (links followed), is `folder` (a real path) or below it."""
    real = Path(os.path.realpath(path))
    return real == folder or folder in real.parents
