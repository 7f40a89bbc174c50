"""Tool problems (as opposed to data problems, which are diagnostics)."""

from __future__ import annotations


class EntrykitError(Exception):
    """Base of every error entrykit raises on purpose; the CLI exits 2 on it."""


class ConfigError(EntrykitError):
    """The configuration is invalid; the message names the key."""


class UsageError(EntrykitError):
    """The command was called with arguments that cannot work."""


class RuleCrashed(EntrykitError):
    """A rule raised; names the rule and the file so the bug can be reported."""

    def __init__(self, code: str, path: str, cause: BaseException) -> None:
        super().__init__(f"rule {code} crashed on {path}: {type(cause).__name__}: {cause}")
        self.code = code
        self.path = path
        self.cause = cause

    def __reduce__(self) -> tuple[object, ...]:  # crosses process boundaries (--jobs)
        return (RuleCrashed, (self.code, self.path, self.cause))
