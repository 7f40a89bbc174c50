"""Load the entry JSON Schema and build its validator once per run."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from entrykit.errors import ConfigError
from entrykit.loader import read_small_file

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
    schema, the file as shipped."""
    return json.dumps(load_schema(path), indent=2, ensure_ascii=False) + "\n"


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
    # jsonschema is imported here, by the one function that needs it: formatting entries
    # or reading the schema's key order never pays for it.
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
    from referencing import Registry, Resource
    from referencing.exceptions import Unresolvable
    from referencing.jsonschema import DRAFT202012

    schema = load_schema(path)
    name = path or SCHEMA_FILE
    try:
        Draft202012Validator.check_schema(schema)
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
    return Draft202012Validator(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)


def fingerprint(path: Path | None = None) -> str:
    """A stable digest of the schema in use (for caches)."""
    blob = json.dumps(load_schema(path), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]
