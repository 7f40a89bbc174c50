"""Modules whose code runs when they are first used: a run that never calls an analysis (a
warm lint, `lint --help`) never pays for importing it and what it imports.

A rule module names such an analysis `deferred("entrykit.versions.table")` in its import
block and reads it as `version_table.compare(...)`; the first attribute read runs the
module (importlib's `LazyLoader`), and the module is then an ordinary one. Before a pool of
processes forks, `load_deferred` runs every deferred module once, so the workers share
what the parent loaded instead of each importing it again.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

_DEFERRED: dict[str, ModuleType] = {}


def deferred(name: str) -> ModuleType:
    """The module `name`: itself if it is imported already, else a module whose code runs
    when one of its attributes is first read."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.find_spec(name)  # (imports the parent packages: they are small)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:  # as an import does: the package names its module
        setattr(sys.modules[parent], child, module)
    _DEFERRED[name] = module
    return module


def load_deferred() -> None:
    """Run the code of every deferred module not run yet."""
    for module in _DEFERRED.values():
        module.__name__  # noqa: B018  (reading any attribute runs it)


def loaded(name: str) -> bool:
    """Whether the module `name` is imported and its code has run."""
    module = sys.modules.get(name)
    return module is not None and type(module) is ModuleType
