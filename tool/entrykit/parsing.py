"""Fast parsing of entry text (JSON via the stdlib, YAML via libyaml) into plain data.

Parse failures are returned as `ParseProblem` values, never raised. Data follows
the YAML 1.2 core schema (as ruamel.yaml does), except that timestamps stay strings,
so both formats yield the same JSON-compatible values.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

import yaml

try:  # libyaml is what makes YAML cheap; the pure loader is the fallback.
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]


@dataclass(frozen=True)
class ParseProblem:
    """Why a text is not an entry, and where (1-based)."""

    line: int
    col: int
    message: str


@dataclass
class Parsed:
    """Data parsed from a text, plus what the fast parser noticed but could not place."""

    data: Any = None
    problem: ParseProblem | None = None
    # The fast parsers cannot say *where* these are; the position index can.
    needs_positions: bool = False


class _ParseFailure(Exception):
    def __init__(self, problem: ParseProblem) -> None:
        self.problem = problem


# YAML 1.2 core schema resolvers (what ruamel.yaml applies by default), minus
# timestamps: dates stay the strings the schema checks with `format: date`.
_YAML12_RESOLVERS: list[tuple[str, re.Pattern[str], str]] = [
    ("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), "tTfF"),
    (
        "tag:yaml.org,2002:float",
        re.compile(
            r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
            |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
            |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
            |[-+]?\.(?:inf|Inf|INF)
            |\.(?:nan|NaN|NAN))$""",
            re.X,
        ),
        "-+0123456789.",
    ),
    (
        "tag:yaml.org,2002:int",
        re.compile(
            r"""^(?:[-+]?0b[0-1_]+
            |[-+]?0o?[0-7_]+
            |[-+]?[0-9_]+
            |[-+]?0x[0-9a-fA-F_]+)$""",
            re.X,
        ),
        "-+0123456789",
    ),
    ("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), "~nN\0"),
]


class EntryYamlLoader(_BaseLoader):  # type: ignore[misc,valid-type]
    """libyaml loader with YAML 1.2 scalars, string dates and duplicate-key detection."""

    yaml_implicit_resolvers: dict[str | None, list[tuple[str, re.Pattern[str]]]] = {}

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.saw_duplicate = False
        self.saw_nonstring_key = False
        self.saw_nonfinite = False
        self.alias_count = 0

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node in self.constructed_objects:
            self.alias_count += 1
        return super().construct_object(node, deep=deep)

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict[Any, Any]:
        if not isinstance(node, yaml.MappingNode):
            return super().construct_mapping(node, deep=deep)
        mapping: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str):
                self.saw_nonstring_key = True
                key = _key_text(key)
            if key in mapping:
                self.saw_duplicate = True
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


def _key_text(key: Any) -> str:
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    try:
        hash(key)
    except TypeError:
        return repr(key)
    return str(key)


for _tag, _regexp, _first in _YAML12_RESOLVERS:
    for _ch in _first:
        EntryYamlLoader.yaml_implicit_resolvers.setdefault(
            None if _ch == "\0" else _ch, []
        ).append((_tag, _regexp))
# An empty plain scalar has no first character; PyYAML looks it up under "".
EntryYamlLoader.yaml_implicit_resolvers.setdefault("", []).append(
    ("tag:yaml.org,2002:null", re.compile(r"^$"))
)

# Python-specific and timestamp constructors are never reachable: only these tags load.
EntryYamlLoader.yaml_constructors = {
    k: v
    for k, v in yaml.SafeLoader.yaml_constructors.items()
    if k
    in {
        "tag:yaml.org,2002:null",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:str",
        "tag:yaml.org,2002:seq",
        "tag:yaml.org,2002:map",
    }
}
EntryYamlLoader.add_constructor(None, lambda loader, node: _reject_tag(node))  # type: ignore[arg-type]


def _reject_tag(node: yaml.Node) -> Any:
    mark = node.start_mark
    raise _ParseFailure(
        ParseProblem(mark.line + 1, mark.column + 1, f"tag `{node.tag}` is not allowed in an entry")
    )


def _yaml_int(loader: EntryYamlLoader, node: yaml.Node) -> int:
    text = str(loader.construct_scalar(node)).replace("_", "")
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    if text.startswith("0b"):
        return sign * int(text[2:], 2)
    if text.startswith("0x"):
        return sign * int(text[2:], 16)
    if text.startswith("0o"):
        return sign * int(text[2:], 8)
    if len(text) > 1 and text.startswith("0"):
        return sign * int(text, 8)
    return sign * int(text)


def _yaml_float(loader: EntryYamlLoader, node: yaml.Node) -> float:
    value: float = yaml.SafeLoader.construct_yaml_float(loader, node)
    if not math.isfinite(value):
        loader.saw_nonfinite = True
    return value


EntryYamlLoader.add_constructor("tag:yaml.org,2002:int", _yaml_int)  # type: ignore[arg-type]
EntryYamlLoader.add_constructor("tag:yaml.org,2002:float", _yaml_float)  # type: ignore[arg-type]

MAX_EXPANDED_NODES = 1_000_000


def _expanded_size(data: Any, limit: int) -> int:
    """Node count with aliases expanded (memoised, so an alias bomb costs linear time)."""
    memo: dict[int, int] = {}

    def size(node: Any) -> int:
        key = id(node)
        if key in memo:
            return memo[key]
        if isinstance(node, dict):
            total = 1 + sum(size(v) for v in node.values())
        elif isinstance(node, list):
            total = 1 + sum(size(v) for v in node)
        else:
            total = 1
        memo[key] = min(total, limit + 1)
        return memo[key]

    return size(data)


def parse_yaml(text: str) -> Parsed:
    """Parse YAML text with libyaml; one document, mapping at the top."""
    loader = EntryYamlLoader(text)
    try:
        data = loader.get_single_data()
    except _ParseFailure as failure:
        return Parsed(problem=failure.problem)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(str(exc.problem or exc.context or "invalid YAML").split())
        return Parsed(problem=ParseProblem(line, col, f"invalid YAML: {message}"))
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
        return Parsed(problem=ParseProblem(1, 1, f"invalid YAML: {' '.join(str(exc).split())}"))
    except RecursionError:
        return Parsed(problem=ParseProblem(1, 1, "YAML nesting is too deep"))
    finally:
        loader.dispose()
    if loader.alias_count and _expanded_size(data, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES:
        return Parsed(
            problem=ParseProblem(
                1, 1, f"YAML aliases expand to more than {MAX_EXPANDED_NODES:,} nodes"
            )
        )
    return Parsed(
        data=data,
        needs_positions=loader.saw_duplicate or loader.saw_nonstring_key or loader.saw_nonfinite,
    )


def parse_json(text: str) -> Parsed:
    """Parse JSON text with the stdlib; duplicate keys and NaN are noticed, not lost."""
    noticed = {"duplicate": False, "constant": False}

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(items)
        if len(result) != len(items):
            noticed["duplicate"] = True
        return result

    def constant(name: str) -> float:
        noticed["constant"] = True
        return float(name)

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as exc:
        return Parsed(problem=ParseProblem(exc.lineno, exc.colno, f"invalid JSON: {exc.msg}"))
    except RecursionError:
        return Parsed(problem=ParseProblem(1, 1, "JSON nesting is too deep"))
    except (ValueError, TypeError) as exc:
        return Parsed(problem=ParseProblem(1, 1, f"invalid JSON: {exc}"))
    return Parsed(data=data, needs_positions=noticed["duplicate"] or noticed["constant"])
