"""entrykit: lint, merge and author the entries of an error knowledge base."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    # Looked up on first use: importlib.metadata costs about 0.1 s, too much for
    # every pre-commit run that never prints the version.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("entrykit")
        except PackageNotFoundError:  # running from a source tree that is not installed
            value = "0.0.0"
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
