"""Read the configuration (`[tool.entrykit]` of pyproject.toml, or a file of its own,
`.entrykit.toml` / `entrykit.toml`) into a frozen, validated `Config`.

Reading checks everything the file says except what only the rules know: the rule
codes it names (`select`, `ignore`, `per-file-ignores`) and the `[tool.entrykit.rules]`
tables. A command that runs rules checks those with `Config.with_rules` (the lint
engine does), so a command that does not (`fmt`, `render`, `import`) never imports them.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from entrykit.diagnostic import Severity
from entrykit.errors import ConfigError
from entrykit.globs import GLOBS_LIMIT, GlobSet
from entrykit.loader import DEFAULT_MAX_FILE_BYTES, Limits, read_small_file, refused
from entrykit.parsing import DEFAULT_MAX_ALIASES, DEFAULT_MAX_NESTING
from entrykit.paths import shown
from entrykit.registry import Option, Rule
from entrykit.settings import SECTIONS
from entrykit.spelling import did_you_mean

DEFAULT_ROOT = "entries"
TOOL_TABLE = "tool.entrykit"  # where pyproject.toml holds the configuration
# Looked for in each folder from the current one up, in this order (as ruff reads
# `.ruff.toml`, `ruff.toml`, `pyproject.toml`): the first found is the configuration; a
# pyproject.toml counts only if it has a [tool.entrykit] table. The two files of entrykit's
# own hold at their top level what [tool.entrykit] holds.
CONFIG_FILES = (".entrykit.toml", "entrykit.toml", "pyproject.toml")
_TOP_KEYS = {
    "root",
    "schema",
    "select",
    "ignore",
    "per_file_ignores",
    "max_file_bytes",
    "max_nesting",
    "max_aliases",
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
    settings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # What only the rules can check, as the file (or the command line) gave it:
    # (where, codes) of every list of rule codes, and the [tool.entrykit.rules] tables.
    named_codes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    rule_tables: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # Filled from `rule_tables` by `with_rules`, by rule code.
    severities: Mapping[str, Severity] = field(default_factory=dict)
    rule_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    rules_checked: bool = False
    rule_codes: tuple[str, ...] = ()  # every rule's code, once checked
    key_prefix: str = TOOL_TABLE  # how messages name a key: `tool.entrykit.regex` or `regex`
    # The file `ignored_in_file` was last asked about, with the codes of every per-file-ignores
    # pattern it matches: a file's findings are asked about one after another, so each costs
    # a look-up per prefix of its code, not a glob match per pattern (thousands of patterns
    # and findings took seconds).
    _last_file_ignores: dict[Path, frozenset[str]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def limits(self) -> Limits:
        """What one file may cost before it is ET001 (size, nesting, YAML aliases)."""
        return Limits(self.max_file_bytes, self.max_nesting, self.max_aliases)

    def enabled(self, code: str) -> bool:
        """Select/ignore by prefix; the longest matching prefix decides (ties: ignore)."""
        best_select = _longest_prefix(code, self._selected)
        best_ignore = _longest_prefix(code, self._ignored)
        return best_select >= 0 and best_select > best_ignore

    @cached_property
    def _selected(self) -> frozenset[str]:
        """`select` as a set, looked up by each prefix of a code."""
        return frozenset(self.select)

    @cached_property
    def _ignored(self) -> frozenset[str]:
        """`ignore` as a set, looked up by each prefix of a code."""
        return frozenset(self.ignore)

    def ignored_in_file(self, abspath: Path, code: str) -> bool:
        """Whether a per-file-ignores pattern the file matches names a prefix of `code`."""
        if not self.per_file_ignores:
            return False
        return _longest_prefix(code, self._file_ignores(abspath)) >= 0

    def _file_ignores(self, abspath: Path) -> frozenset[str]:
        """The codes of every per-file-ignores pattern the file matches (kept for the last file)."""
        codes = self._last_file_ignores.get(abspath)
        if codes is None:
            self._last_file_ignores.clear()
            codes = self._last_file_ignores[abspath] = self._matching_ignores(abspath)
        return codes

    def _matching_ignores(self, abspath: Path) -> frozenset[str]:
        """The codes of every per-file-ignores pattern the file's path (below `base`) matches."""
        try:
            rel = abspath.relative_to(self.base).as_posix()
        except ValueError:
            rel = abspath.as_posix()
        return frozenset(code for code, globs in self._ignore_globs if globs.matches_any(rel))

    @cached_property
    def _ignore_globs(self) -> tuple[tuple[str, GlobSet], ...]:
        """`per_file_ignores` as the globs that name each code: a file costs a match per code
        named, whatever the number of patterns (once per config)."""
        by_code: dict[str, list[str]] = {}
        for pattern, codes in self.per_file_ignores:
            for code in codes:
                by_code.setdefault(code, []).append(pattern)
        return tuple((code, GlobSet(globs, paths=True)) for code, globs in by_code.items())

    def severity(self, rule: Rule, found: Severity | None = None) -> Severity:
        """The severity of a diagnostic of `rule`: the configured one, else the one the
        finding gave itself (`found`), else the rule's default."""
        return self.severities.get(rule.code) or found or rule.severity

    def options_for(self, rule: Rule) -> dict[str, Any]:
        values = {name: opt.default for name, opt in rule.options.items()}
        values.update(self.rule_options.get(rule.code, {}))
        return values

    def with_selection(self, select: Sequence[str] | None = None, ignore: Sequence[str] | None = None) -> Config:
        """The same config with --select / --ignore from the command line applied."""
        given = (("--select", select), ("--ignore", ignore))
        named = tuple((where, _written_codes(values, where)) for where, values in given if values)
        if self.rules_checked:
            for where, written in named:
                _check_codes(written, where, self.rule_codes)
        chosen = dict(named)
        return replace(
            self,
            select=_codes(chosen["--select"]) if "--select" in chosen else self.select,
            ignore=_codes(chosen["--ignore"]) if "--ignore" in chosen else self.ignore,
            named_codes=self.named_codes + named,
        )

    def with_rules(self, rules: Sequence[Rule]) -> Config:
        """The config checked against the rules: every code it names matches a rule, every
        `[tool.entrykit.rules.<code or name>]` table names a rule and holds its options.
        Severities and options are then by rule code. Idempotent. An error names the file."""
        if self.rules_checked:
            return self
        try:
            return self._checked_against(rules)
        except ConfigError as exc:
            raise ConfigError(f"{self.source}: {exc}" if self.source else str(exc)) from None

    def _checked_against(self, rules: Sequence[Rule]) -> Config:
        known = [r.code for r in rules]
        for where, codes in self.named_codes:
            _check_codes(codes, where, known)
        severities: dict[str, Severity] = {}
        options: dict[str, Mapping[str, Any]] = {}
        for key, table in self.rule_tables.items():
            found = _rule_named(key, rules)
            where = _key(self.key_prefix, f"rules.{key}")
            if found is None:
                raise ConfigError(f"unknown rule `{where}`")
            if not isinstance(table, Mapping):
                raise ConfigError(f"`{where}` must be a table")
            for k, v in table.items():
                if _norm(k) == "severity":
                    severities[found.code] = _severity(v, where)
            rest = {k: v for k, v in table.items() if _norm(k) != "severity"}
            options[found.code] = _check_table(rest, found.options, where)
        return replace(self, severities=severities, rule_options=options, rules_checked=True, rule_codes=tuple(known))

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
            # as written: what `with_rules` makes of them depends on nothing else but the
            # rules, which are entrykit's code (part of every cache key anyway)
            "rule_tables": self.rule_tables,
            "settings": self.settings,
        }
        blob = json.dumps(payload, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


MAX_CONFIG_BYTES = 1 << 20  # a pyproject.toml is a few kilobytes; this is no config


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file's data; ConfigError (naming the file, and the line and column of a syntax
    error) if it is not a regular file under `MAX_CONFIG_BYTES` holding valid UTF-8 TOML."""
    return read_toml_text(path)[1]


def read_toml_text(path: Path) -> tuple[str, dict[str, Any]]:
    """A TOML file's text and data, read as `read_toml` reads it (for an edit of its text)."""
    try:
        raw = read_small_file(path, MAX_CONFIG_BYTES)
    except OSError as exc:
        raise ConfigError(f"cannot read {shown(str(path))}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
        return text, tomllib.loads(text)
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} is not UTF-8 text (byte {exc.start + 1})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    except RecursionError:  # (tomllib reads nested arrays and tables by recursion)
        raise ConfigError(f"{path} nests arrays or tables too deep to read") from None


def find_pyproject(start: Path, walk_up: bool = True) -> Path | None:
    """The nearest pyproject.toml with a [tool.entrykit] table, walking up from `start`
    (or in `start` alone).

    A pyproject.toml on the way that cannot be read as TOML is an error (ConfigError,
    with the line and column), never skipped: it may be the one holding the settings."""
    for folder in [start, *start.parents] if walk_up else [start]:
        candidate = folder / "pyproject.toml"
        if _present(candidate):
            tool = read_toml(candidate).get("tool", {})
            if isinstance(tool, Mapping) and "entrykit" in tool:
                return candidate
            if not isinstance(tool, Mapping):
                raise ConfigError(f"{candidate}: `tool` must be a table, not {_kind(tool)}")
    return None


def _present(candidate: Path) -> bool:
    """Whether a configuration file of this name is there to read: a regular file, or a
    link to one. Anything else under the name (a link to a device or a pipe, a dangling
    link, a folder) is a ConfigError, never passed over: it may be the one meant to hold
    the settings, and passing it over would let a file further up hold them instead."""
    if candidate.is_file():
        return True
    if os.path.lexists(candidate):
        raise ConfigError(f"{candidate} is not a regular file; a configuration file must be one")
    return False


def find_config(start: Path) -> Path | None:
    """The configuration file that governs `start`: in each folder from `start` up, the
    first of `CONFIG_FILES` there (a pyproject.toml only with a [tool.entrykit] table)."""
    for folder in [start, *start.parents]:
        for name in CONFIG_FILES[:-1]:
            if _present(folder / name):
                return folder / name
        found = find_pyproject(folder, walk_up=False)
        if found is not None:
            return found
    return None


def is_own_file(source: Path) -> bool:
    """True for a configuration file of entrykit's own (not a pyproject.toml): its top
    level is what [tool.entrykit] holds."""
    return source.name != "pyproject.toml"


def _key(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _kind(value: Any) -> str:
    return {str: "a string", int: "a number", float: "a number", bool: "a boolean", list: "a list"}.get(
        type(value), type(value).__name__
    )


def _norm(key: str) -> str:
    return key.replace("-", "_")


def _spelt_like(key: str, names: Sequence[str]) -> list[str]:
    """Known key names written with the separator `key` uses (`max-file-bytes`, `timeout_ms`)."""
    return [name.replace("_", "-") if "-" in key else name for name in names]


def _written_codes(values: Any, where: str) -> tuple[str, ...]:
    """A list of rule codes or prefixes as written (blanks left out; `with_rules` checks them)."""
    if isinstance(values, str):
        values = [v for v in values.split(",")]
    if not isinstance(values, (list, tuple)):
        raise ConfigError(f"{where} must be a list of rule codes or prefixes")
    for value in values:
        if not isinstance(value, str):
            raise ConfigError(f"{where} must hold strings, got {value!r}")
    return tuple(v for v in values if v.strip())


def _codes(written: Sequence[str]) -> tuple[str, ...]:
    return tuple(value.strip().upper() for value in written)


def _check_codes(written: Sequence[str], where: str, known: Sequence[str]) -> None:
    for value in written:
        code = value.strip().upper()
        if not any(k.startswith(code) for k in known):
            raise ConfigError(f"{where}: `{value}` matches no rule code")


def _longest_prefix(code: str, prefixes: frozenset[str]) -> int:
    """The length of the longest of `prefixes` that `code` starts with, -1 if none (a rule
    code is a few characters: a look-up per prefix of it)."""
    for end in range(len(code), -1, -1):
        if code[:end] in prefixes:
            return end
    return -1


def _rule_named(key: str, rules: Sequence[Rule]) -> Rule | None:
    """The rule `key` names: by code (any case) or by name."""
    key = key.strip()
    for candidate in rules:
        if candidate.code == key.upper() or candidate.name == key:
            return candidate
    return None


def _severity(value: Any, where: str) -> Severity:
    try:
        return Severity(value)
    except ValueError:
        raise ConfigError(f"`{where}.severity` must be error, warning or info, got {value!r}") from None


def _check_table(table: Mapping[str, Any], options: Mapping[str, Option], where: str) -> dict[str, Any]:
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


# What the top-level limits may be: beyond these a limit is no limit (or no entry loads).
# Nesting: every command reads an entry 200 levels deep; past about 250 the readers that
# follow nesting by recursion (ruamel's, the JSON reader, the schema's validator) give up.
MAX_LIMITS = {"max_file_bytes": 1 << 30, "max_nesting": 200, "max_aliases": 100_000}


def _positive(flat: Mapping[str, Any], name: str, default: int, prefix: str, zero_ok: bool = False) -> int:
    value = flat.get(name, default)
    high = MAX_LIMITS[name]
    if not isinstance(value, int) or isinstance(value, bool) or not (0 if zero_ok else 1) <= value <= high:
        kind = "a non-negative" if zero_ok else "a positive"
        raise ConfigError(
            f"`{_key(prefix, name.replace('_', '-'))}` must be {kind} integer up to {high:,}, got {value!r}"
        )
    return value


def _per_file_ignores(flat: Mapping[str, Any], prefix: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    table = flat.get("per_file_ignores", {})
    if not isinstance(table, Mapping):
        raise ConfigError(f"`{_key(prefix, 'per-file-ignores')}` must be a table of glob = [codes]")
    if len(table) > GLOBS_LIMIT:
        raise ConfigError(
            f"`{_key(prefix, 'per-file-ignores')}` holds {len(table):,} patterns, more than the {GLOBS_LIMIT:,} it may hold"
        )
    return tuple(
        (pattern, _written_codes(codes, f"`{_key(prefix, 'per-file-ignores.' + pattern)}`"))
        for pattern, codes in table.items()
    )


def _rule_tables(flat: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    table = flat.get("rules", {})
    if not isinstance(table, Mapping):
        raise ConfigError(f"`{_key(prefix, 'rules')}` must be a table of rule tables")
    return dict(table)


def _path_value(flat: Mapping[str, Any], name: str, prefix: str) -> str | None:
    value = flat.get(name)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"`{_key(prefix, name)}` must be a path string")
    if value is not None and (not value.strip() or any(not c.isprintable() for c in value)):
        raise ConfigError(f"`{_key(prefix, name)}` must be a path, got `{shown(value)}`")
    return value


def from_table(table: Mapping[str, Any], base: Path, source: Path | None = None, prefix: str = TOOL_TABLE) -> Config:
    """Validate a [tool.entrykit] table (or the top level of an entrykit.toml: `prefix` "")
    and build a Config (rule codes and rule tables are checked later, against the rules:
    `Config.with_rules`). Messages name a key by its path below `prefix`."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"[{prefix}] must be a table")
    sections = SECTIONS
    for key in table:
        name = _norm(key)
        if name not in _TOP_KEYS and name not in sections:
            hint = did_you_mean(key, _spelt_like(key, [*_TOP_KEYS, *sections]))
            raise ConfigError(f"unknown key `{_key(prefix, key)}`{hint}")
    flat = {_norm(k): v for k, v in table.items()}

    root_value = _path_value(flat, "root", prefix)
    schema_value = _path_value(flat, "schema", prefix)
    max_bytes = _positive(flat, "max_file_bytes", DEFAULT_MAX_FILE_BYTES, prefix)
    max_nesting = _positive(flat, "max_nesting", DEFAULT_MAX_NESTING, prefix)
    max_aliases = _positive(flat, "max_aliases", DEFAULT_MAX_ALIASES, prefix, zero_ok=True)
    written_per_file = _per_file_ignores(flat, prefix)
    rule_tables = _rule_tables(flat, prefix)

    for name in sections:
        if name in flat and not isinstance(flat[name], Mapping):
            raise ConfigError(f"`{_key(prefix, name)}` must be a table")
    settings = {
        name: _check_table(flat.get(name, {}), sec.options, _key(prefix, name)) for name, sec in sections.items()
    }
    select = _written_codes(flat.get("select", ["ET"]), f"`{_key(prefix, 'select')}`")
    if not select:
        raise ConfigError(
            f"`{_key(prefix, 'select')}` is empty, which turns every rule off; to turn rules off, `ignore` them"
        )
    ignore = _written_codes(flat.get("ignore", []), f"`{_key(prefix, 'ignore')}`")
    named = [(f"`{_key(prefix, 'per-file-ignores.' + p)}`", codes) for p, codes in written_per_file]
    named += [(f"`{_key(prefix, 'select')}`", select), (f"`{_key(prefix, 'ignore')}`", ignore)]

    root = Path(os.path.realpath(base / (DEFAULT_ROOT if root_value is None else root_value)))
    schema = Path(os.path.realpath(base / schema_value)) if schema_value else None
    for name, path in (("root", root), ("schema", schema)):
        why = refused(path) if path is not None else None
        if why is not None:  # (every command would stop on it later, with less to say)
            raise ConfigError(f"`{_key(prefix, name)}` names a path that cannot be looked at ({why})")
    return Config(
        base=base,
        root=root,
        source=source,
        schema=schema,
        select=_codes(select),
        ignore=_codes(ignore),
        per_file_ignores=tuple((pattern, _codes(codes)) for pattern, codes in written_per_file),
        max_file_bytes=max_bytes,
        max_nesting=max_nesting,
        max_aliases=max_aliases,
        settings=settings,
        named_codes=tuple(named),
        rule_tables=rule_tables,
        key_prefix=prefix,
    )


def load_config(start: Path | None = None, explicit: Path | None = None) -> Config:
    """Config from `explicit`, or the file that governs `start` (`find_config`), or
    defaults at `start`. A file named pyproject.toml is read for [tool.entrykit]; any
    other file is entrykit's own. A configuration error names the file."""
    start = (start or Path.cwd()).absolute()
    source = explicit or find_config(start)
    if source is None:
        return from_table({}, start)
    data = read_toml(source)
    own = is_own_file(source)
    tool = data if own else data.get("tool", {})
    if not isinstance(tool, Mapping):
        raise ConfigError(f"{source}: `tool` must be a table, not {_kind(tool)}")
    table = tool if own else tool.get("entrykit", {})
    if not isinstance(table, Mapping):
        raise ConfigError(f"{source}: `tool.entrykit` must be a table, not {_kind(table)}")
    try:
        return from_table(table, source.parent.absolute(), source, "" if own else TOOL_TABLE)
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None
