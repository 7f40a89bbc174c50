"""Read `[tool.entrykit]` from pyproject.toml into a frozen, validated `Config`."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from entrykit import registry
from entrykit.diagnostic import Severity
from entrykit.errors import ConfigError
from entrykit.loader import DEFAULT_MAX_FILE_BYTES, Limits
from entrykit.parsing import DEFAULT_MAX_ALIASES, DEFAULT_MAX_NESTING
from entrykit.spelling import did_you_mean

DEFAULT_ROOT = "entries"
_TOP_KEYS = {
    "root", "schema", "select", "ignore", "per_file_ignores", "max_file_bytes", "max_nesting", "max_aliases",
    "rules",
}


@dataclass(frozen=True)
class Config:
    """Everything a lint run is configured with; paths are absolute."""

    base: Path
    root: Path
    source: Path | None = None
    schema: Path | None = None
    select: tuple[str, ...] = ("ET",)
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    max_nesting: int = DEFAULT_MAX_NESTING
    max_aliases: int = DEFAULT_MAX_ALIASES
    severities: Mapping[str, Severity] = field(default_factory=dict)
    rule_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    settings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def limits(self) -> Limits:
        """What one file may cost before it is ET001 (size, nesting, YAML aliases)."""
        return Limits(self.max_file_bytes, self.max_nesting, self.max_aliases)

    def enabled(self, code: str) -> bool:
        """Select/ignore by prefix; the longest matching prefix decides (ties: ignore)."""
        best_select = max((len(p) for p in self.select if code.startswith(p)), default=-1)
        best_ignore = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        return best_select >= 0 and best_select > best_ignore

    def ignored_in_file(self, abspath: Path, code: str) -> bool:
        if not self.per_file_ignores:
            return False
        try:
            rel = abspath.relative_to(self.base).as_posix()
        except ValueError:
            rel = abspath.as_posix()
        for pattern, codes in self.per_file_ignores:
            if fnmatch.fnmatch(rel, pattern) and any(code.startswith(c) for c in codes):
                return True
        return False

    def severity(self, rule: registry.Rule) -> Severity:
        return self.severities.get(rule.code, rule.severity)

    def options_for(self, rule: registry.Rule) -> dict[str, Any]:
        values = {name: opt.default for name, opt in rule.options.items()}
        values.update(self.rule_options.get(rule.code, {}))
        return values

    def with_selection(
        self, select: Sequence[str] | None = None, ignore: Sequence[str] | None = None
    ) -> Config:
        """The same config with --select / --ignore from the command line applied."""
        changed = self
        if select:
            changed = replace(changed, select=_codes(select, "--select"))
        if ignore:
            changed = replace(changed, ignore=_codes(ignore, "--ignore"))
        return changed

    def fingerprint(self) -> str:
        """A stable hash of everything that can change lint results (for caches)."""
        payload = {
            "root": str(self.root),
            "schema": str(self.schema),
            "select": self.select,
            "ignore": self.ignore,
            "per_file_ignores": self.per_file_ignores,
            "max_file_bytes": self.max_file_bytes,
            "max_nesting": self.max_nesting,
            "max_aliases": self.max_aliases,
            "severities": {k: v.value for k, v in sorted(self.severities.items())},
            "rule_options": self.rule_options,
            "settings": self.settings,
        }
        blob = json.dumps(payload, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.entrykit] table, walking up from `start`."""
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
            if "entrykit" in data.get("tool", {}):
                return candidate
    return None


def _norm(key: str) -> str:
    return key.replace("-", "_")


def _spelt_like(key: str, names: Sequence[str]) -> list[str]:
    """Known key names written with the separator `key` uses (`max-file-bytes`, `timeout_ms`)."""
    return [name.replace("_", "-") if "-" in key else name for name in names]


def _codes(values: Any, where: str) -> tuple[str, ...]:
    if isinstance(values, str):
        values = [v for v in values.split(",")]
    if not isinstance(values, (list, tuple)):
        raise ConfigError(f"{where} must be a list of rule codes or prefixes")
    known = [r.code for r in registry.all_rules()]
    result = []
    for value in values:
        if not isinstance(value, str):
            raise ConfigError(f"{where} must hold strings, got {value!r}")
        code = value.strip().upper()
        if not code:
            continue
        if not any(k.startswith(code) for k in known):
            raise ConfigError(f"{where}: `{value}` matches no rule code")
        result.append(code)
    return tuple(result)


def _check_table(
    table: Mapping[str, Any], options: Mapping[str, registry.Option], where: str
) -> dict[str, Any]:
    values = {name: opt.default for name, opt in options.items()}
    for key, value in table.items():
        name = _norm(key)
        if name not in options:
            raise ConfigError(f"unknown key `{where}.{key}`{did_you_mean(key, _spelt_like(key, list(options)))}")
        try:
            values[name] = options[name].check(value, f"`{where}.{key}`")
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    return values


def _positive(flat: Mapping[str, Any], name: str, default: int, zero_ok: bool = False) -> int:
    value = flat.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < (0 if zero_ok else 1):
        kind = "a non-negative" if zero_ok else "a positive"
        raise ConfigError(f"`tool.entrykit.{name.replace('_', '-')}` must be {kind} integer")
    return value


def from_table(table: Mapping[str, Any], base: Path, source: Path | None = None) -> Config:
    """Validate a [tool.entrykit] table against the registry and build a Config."""
    if not isinstance(table, Mapping):
        raise ConfigError("[tool.entrykit] must be a table")
    sections = registry.all_sections()
    for key in table:
        name = _norm(key)
        if name not in _TOP_KEYS and name not in sections:
            hint = did_you_mean(key, _spelt_like(key, [*_TOP_KEYS, *sections]))
            raise ConfigError(f"unknown key `tool.entrykit.{key}`{hint}")
    flat = {_norm(k): v for k, v in table.items()}

    root_value = flat.get("root", DEFAULT_ROOT)
    if not isinstance(root_value, str):
        raise ConfigError("`tool.entrykit.root` must be a path string")
    schema_value = flat.get("schema")
    if schema_value is not None and not isinstance(schema_value, str):
        raise ConfigError("`tool.entrykit.schema` must be a path string")
    max_bytes = _positive(flat, "max_file_bytes", DEFAULT_MAX_FILE_BYTES)
    max_nesting = _positive(flat, "max_nesting", DEFAULT_MAX_NESTING)
    max_aliases = _positive(flat, "max_aliases", DEFAULT_MAX_ALIASES, zero_ok=True)

    per_file: list[tuple[str, tuple[str, ...]]] = []
    pfi = flat.get("per_file_ignores", {})
    if not isinstance(pfi, Mapping):
        raise ConfigError("`tool.entrykit.per-file-ignores` must be a table of glob = [codes]")
    for pattern, codes in pfi.items():
        per_file.append((pattern, _codes(codes, f"`tool.entrykit.per-file-ignores.{pattern}`")))

    severities: dict[str, Severity] = {}
    rule_options: dict[str, dict[str, Any]] = {}
    rules_table = flat.get("rules", {})
    if not isinstance(rules_table, Mapping):
        raise ConfigError("`tool.entrykit.rules` must be a table of rule tables")
    for key, rule_table in rules_table.items():
        try:
            found = registry.get(key)
        except KeyError:
            raise ConfigError(f"unknown rule `tool.entrykit.rules.{key}`") from None
        if not isinstance(rule_table, Mapping):
            raise ConfigError(f"`tool.entrykit.rules.{key}` must be a table")
        where = f"tool.entrykit.rules.{key}"
        rest = {k: v for k, v in rule_table.items() if _norm(k) != "severity"}
        for k, v in rule_table.items():
            if _norm(k) == "severity":
                try:
                    severities[found.code] = Severity(v)
                except ValueError:
                    raise ConfigError(
                        f"`{where}.severity` must be error, warning or info, got {v!r}"
                    ) from None
        rule_options[found.code] = _check_table(rest, found.options, where)

    for name in sections:
        if name in flat and not isinstance(flat[name], Mapping):
            raise ConfigError(f"`tool.entrykit.{name}` must be a table")
    settings = {
        name: _check_table(flat.get(name, {}), sec.options, f"tool.entrykit.{name}")
        for name, sec in sections.items()
    }

    return Config(
        base=base,
        root=Path(os.path.realpath(base / root_value)),
        source=source,
        schema=Path(os.path.realpath(base / schema_value)) if schema_value else None,
        select=_codes(flat.get("select", ["ET"]), "`tool.entrykit.select`"),
        ignore=_codes(flat.get("ignore", []), "`tool.entrykit.ignore`"),
        per_file_ignores=tuple(per_file),
        max_file_bytes=max_bytes,
        max_nesting=max_nesting,
        max_aliases=max_aliases,
        severities=severities,
        rule_options=rule_options,
        settings=settings,
    )


def load_config(start: Path | None = None, explicit: Path | None = None) -> Config:
    """Config from `explicit`, or the nearest pyproject.toml, or defaults at `start`."""
    start = (start or Path.cwd()).absolute()
    source = explicit or find_pyproject(start)
    if source is None:
        return from_table({}, start)
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read {source}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{source} is not valid TOML: {exc}") from None
    table = data.get("tool", {}).get("entrykit", {})
    return from_table(table, source.parent.absolute(), source)
