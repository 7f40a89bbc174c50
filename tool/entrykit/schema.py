"""Load the entry JSON Schema and build its validator once per run."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from datetime import date
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urljoin

from entrykit.errors import ConfigError
from entrykit.loader import read_small_file
from entrykit.output_safety import json_safe
from entrykit.schema_keywords import REGEX_FORMAT_ERRORS, regex_format, unique_items

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SCHEMA_FILE = "entry.schema.json"
# Where a project keeps the schema its editors read, relative to its pyproject.toml;
# `entrykit schema --output` writes it and the files `new` writes point at it.
PROJECT_SCHEMA = Path("schema") / SCHEMA_FILE


def bundled_schema_text() -> str:
    """The schema shipped in the wheel, or the repository's schema/ in a source checkout."""
    try:
        return resources.files("entrykit.schemas").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        # Editable installs map only the package directory, not schema/.
        source_tree = Path(__file__).resolve().parents[2] / "schema" / SCHEMA_FILE
        return source_tree.read_text(encoding="utf-8")


def project_schema(base: Path, configured: Path | None) -> Path:
    """The schema file of a project: the configured `schema`, else `schema/entry.schema.json`
    below the project's folder (`base`), whether or not it is written yet."""
    return configured if configured is not None else base / PROJECT_SCHEMA


def schema_text(path: Path | None = None) -> str:
    """The schema in use as JSON text (2-space indent, a final newline): for the bundled
    schema, the file as shipped. Controls and the characters that reorder or break lines
    are `\\u` escapes: a project's schema prints nothing a terminal obeys."""
    return json_safe(json.dumps(load_schema(path), indent=2, ensure_ascii=False)) + "\n"


MAX_SCHEMA_BYTES = 8 << 20  # the bundled schema is 30 KB; a schema is never megabytes


@lru_cache(maxsize=8)
def load_schema(path: Path | None = None) -> dict[str, Any]:
    """The schema as data: the bundled one, or the file `path` names (a regular file of at
    most `MAX_SCHEMA_BYTES`: never a pipe or a device)."""
    try:
        text = bundled_schema_text() if path is None else read_small_file(path, MAX_SCHEMA_BYTES).decode("utf-8")
        schema = json.loads(text, parse_constant=_no_constant)
    except OSError as exc:
        raise ConfigError(f"cannot read schema {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ConfigError(f"schema {path or SCHEMA_FILE} is not valid JSON: {exc}") from None
    if not isinstance(schema, dict):
        raise ConfigError(f"schema {path or SCHEMA_FILE} must be a JSON object")
    return schema


def _no_constant(name: str) -> Any:
    raise ValueError(f"`{name}` is no JSON value")


def _refused(uri: str) -> Any:
    """What a schema may not reach: anything outside itself (no network, no other file)."""
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # an attrs class mypy does not see through


def _references(schema: Any, base: str) -> list[tuple[str, str]]:
    """Every `$ref` and `$dynamicRef` of a schema with the base URI it is resolved against."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[Any, str]] = [(schema, base)]
    while stack:
        node, here = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("$id"), str):
                here = urljoin(here, node["$id"])
            for key in ("$ref", "$dynamicRef"):
                if isinstance(node.get(key), str):
                    found.append((node[key], here))
            stack.extend((value, here) for key, value in node.items() if key not in ("const", "enum", "examples", "default"))
        elif isinstance(node, list):
            stack.extend((value, here) for value in node)
    return found


@lru_cache(maxsize=8)
def validator(path: Path | None = None) -> Draft202012Validator:
    """A checked, format-enforcing validator, built once per schema.

    References resolve only inside the schema (and the JSON Schema metaschemas jsonschema
    ships): a `$ref` to a URL or another file is a ConfigError naming it, and nothing is
    ever fetched."""
    schema = load_schema(path)
    name = path or SCHEMA_FILE
    try:
        return _validator(schema, name, path is not None)
    except RecursionError:  # (a schema's checks and references are followed by recursion)
        raise ConfigError(f"schema {name} nests its keywords too deep to check") from None


def _validator(schema: Any, name: Path | str, configured: bool) -> Draft202012Validator:
    """`validator`'s work on the loaded schema."""
    # jsonschema is imported here, by the one function that needs it: formatting entries
    # or reading the schema's key order never pays for it.
    from jsonschema import Draft202012Validator, FormatChecker, validators
    from jsonschema.exceptions import SchemaError
    from referencing import Registry, Resource
    from referencing.exceptions import Unresolvable
    from referencing.jsonschema import DRAFT202012

    try:
        if configured:  # the bundled schema is entrykit's own, checked by its tests
            Draft202012Validator.check_schema(schema)  # (the meta-schema's check: half a second)
    except SchemaError as exc:
        raise ConfigError(f"schema {name} is invalid: {exc.message}") from None
    schema_id = schema.get("$id")
    root = schema_id if isinstance(schema_id, str) else "urn:entrykit:schema"
    resource = Resource.from_contents(schema, default_specification=DRAFT202012)
    registry = Registry(retrieve=_refused).with_resource(root, resource).crawl()  # type: ignore[call-arg]  # as above
    for reference, base in _references(schema, root):
        try:
            registry.resolver(base_uri=base).lookup(reference)
        except (Unresolvable, ValueError, KeyError, TypeError):
            raise ConfigError(
                f"schema {name}: `$ref` `{reference}` does not point inside the schema; entrykit "
                "resolves references only within the schema file"
            ) from None
    # An explicit registry replaces jsonschema's default one, which would fetch URLs.
    checked = validators.extend(Draft202012Validator, {"uniqueItems": unique_items})
    formats = FormatChecker(formats=())
    formats.checkers = {**Draft202012Validator.FORMAT_CHECKER.checkers}
    formats.checks("regex", raises=REGEX_FORMAT_ERRORS)(regex_format)
    return cast("Draft202012Validator", checked(schema, registry=registry, format_checker=formats))


def regexes(schema: Any) -> Iterator[str]:
    """Every regex the schema holds: `pattern` values and `patternProperties` keys."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "pattern" and isinstance(value, str):
                    yield value
                elif key == "patternProperties" and isinstance(value, dict):
                    yield from (k for k in value if isinstance(k, str))
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)


def _formats(schema: Any) -> set[str]:
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("format"), str):
                found.add(node["format"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


_QUICK: dict[int, tuple[dict[str, Any], Callable[[Any], bool] | None]] = {}


def quick_check(path: Path | None = None) -> Callable[[Any], bool] | None:
    """A predicate that is True only for data `validator(path)` finds no error in, about a
    hundred times faster (jsonschema-rs); None when there is none for this schema.

    It may say False where jsonschema finds nothing (then jsonschema is asked, and its
    word stands), never True where jsonschema finds an error. So each `format` is checked
    by jsonschema's own checker (a plainly valid date without it: `_plain_date`), and the schema's regexes must be the bundled schema's,
    which are read alike by both engines except where Rust's reading is stricter (`$` before
    a final newline, `.` and other line breaks: tests/test_schema_quick.py); a schema
    with regexes of its own is checked by jsonschema alone. Data the fast engine cannot
    take (non-string keys) and any failure of it count as False.
    """
    schema = load_schema(path)
    known = _QUICK.get(id(schema))
    if known is None or known[0] is not schema:  # built once per schema as loaded
        known = _QUICK[id(schema)] = (schema, _quick_check(path, schema))
    return known[1]


def _quick_check(path: Path | None, schema: dict[str, Any]) -> Callable[[Any], bool] | None:
    try:
        import jsonschema_rs
    except ImportError:  # the optional speed-up is not installed: jsonschema alone
        return None
    if path is not None:
        if not set(regexes(schema)) <= set(regexes(load_schema(None))):
            return None
        validator(path)  # a schema of the project's own is checked (ConfigError) before it is used
    formats = {name: _conforms(path, name) for name in _formats(schema)}
    try:
        # validator() refuses references outside a project's schema (the bundled one has
        # none); the retriever makes sure the fast engine never fetches one either.
        fast = jsonschema_rs.Draft202012Validator(
            schema, formats=formats, validate_formats=True, ignore_unknown_formats=True, retriever=_no_fetch
        )
    except Exception:  # a schema the fast engine reads otherwise (jsonschema accepted it)
        return None

    def certainly_valid(data: Any) -> bool:
        try:
            return bool(fast.is_valid(data))
        except Exception:
            return False

    return certainly_valid


def _no_fetch(uri: str) -> Any:
    raise ValueError(f"entrykit fetches no schema ({uri})")


def _plain_date(value: Any) -> bool:
    """A date jsonschema's `date` format takes in every version entrykit supports: four, two
    and two ASCII digits that `date.fromisoformat` reads (what jsonschema asks of it)."""
    if not (
        isinstance(value, str)
        and len(value) == 10
        and value.isascii()
        and value[4] == value[7] == "-"
        and (value[:4] + value[5:7] + value[8:]).isdigit()
    ):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _conforms(path: Path | None, name: str) -> Callable[[Any], bool]:
    """jsonschema's format checker for `name`, built when first asked: a plainly valid
    date is answered without it, so checking valid entries never imports jsonschema."""

    def conforms(value: Any) -> bool:
        if name == "date" and _plain_date(value):
            return True
        checker = validator(path).format_checker
        return checker is not None and bool(checker.conforms(value, name))

    return conforms


def fingerprint(path: Path | None = None) -> str:
    """A stable digest of the schema in use (for caches)."""
    blob = json.dumps(load_schema(path), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]
