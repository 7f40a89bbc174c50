"""Which files a run reports on (its targets) and which files the corpus rules see."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from entrykit.config import Config
from entrykit.errors import UsageError
from entrykit.loader import discover


@dataclass(frozen=True)
class Plan:
    """Which files are reported on (targets) and which the corpus rules see (corpus)."""

    targets: list[Path]
    corpus: list[Path]


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
        targets = list(discover([root]))
        return Plan(targets, targets)
    for given in paths:
        if not given.exists() and not given.is_symlink():
            raise UsageError(f"`{given}` does not exist")
    targets = list(discover(paths))
    if root.is_dir() and targets and all(_under(t, root) for t in targets):
        known = set(targets)
        corpus = targets + [p for p in discover([root]) if p not in known]
        return Plan(targets, corpus)
    return Plan(targets, targets)
