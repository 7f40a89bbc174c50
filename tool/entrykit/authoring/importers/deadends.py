"""deadends.dev "ErrorCanon" JSON files to entries, by a documented field mapping.

Upstream ids are `<domain>/<slug>/<environment>`; an entry id has two segments. One
function of the upstream id alone (`entry_id_for`) gives the entry id, for the entry
and for every reference to it: `<domain>/<slug>_<environment>` (the separator upstream
uses for its own flat `<slug>_<env>.json` files; upstream slugs hold no `_`, so the
upstream id can be read back from it). An id outside upstream's own format is cleaned
into segments and gets a short digest of the id as written, so two ids never become
one. Importing a corpus at once or in parts gives the same files. The upstream id is
kept in `aliases`, so it still finds the entry. The environment is also kept in `tags`
(`env:<environment>`, `os:<os>`) and in `versions` rows. Source fields with no place in
an entry are listed in `Imported.unmapped`, never dropped silently. The README
documents the field mapping.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from entrykit import pointer as jp
from entrykit.authoring.config_edit import Table
from entrykit.authoring.importers import Imported, ImportProblem
from entrykit.loader import Limits, decode, read_entry_bytes
from entrykit.parsing import parse_json
from entrykit.paths import is_valid_id, shown, unsafe_reason
from entrykit.positions import Irregularity, json_positions
from entrykit.translation import translated_fields
from entrykit.versions.rows import row_from

DEAD_END_KEYS = ("action", "why_fails", "fail_rate", "condition", "common_misconception", "tradeoff", "sources")
WORKAROUND_KEYS = ("action", "success_rate", "how", "condition", "tradeoff", "sources")
GRAPH_KEYS = ("leads_to", "preceded_by", "frequently_confused_with")
REFERENCE_KEYS = ("error_id", "probability", "condition", "distinction", "typical_delay")
TIERS = ("ai_generated", "auto_generated", "human_reviewed", "expert_reviewed")
_SEGMENT_JUNK = re.compile(r"[^a-z0-9._-]+")
# Upstream's own id format (its validator checks ids with it): no `_` in domain or slug.
UPSTREAM_ID = re.compile(r"[a-z0-9-]+/[a-z0-9-]+/[a-z0-9._-]+")
# How deadends.dev looks an error up (`lookup_all` in its generator/lookup.py): every
# regex compiled with re.IGNORECASE and applied with `search`. The import writes these
# into the project's `[regex]` settings, so lint runs regexes the way that corpus does.
LOOKUP_SETTINGS = {"flags": ["IGNORECASE"], "mode": "search"}
LOOKUP_REASON = (
    "deadends.dev looks errors up case-insensitively, anywhere in the text\n"
    "(re.IGNORECASE, search): lint runs regexes the same way."
)
# A corpus imported whole from canons that carry no translation promises none: requiring
# the default locale would report every translatable field of every entry (ET301).
NO_TRANSLATION_SETTINGS: dict[str, Any] = {"required": []}
NO_TRANSLATION_REASON = (
    "the imported deadends.dev canons carry no translation: none is required\n"
    '(list locales here, `required = ["zh"]`, to have each missing one reported: ET301).'
)
DIGEST_LENGTH = 10  # hex digits of sha256 that set apart an id cleaned into segments
# Entry fields copied as they are from a place in the canon (`error.category` is mapped
# to a category of its own, the lists and the graph item by item).
COPIED_FIELDS = {
    "signature": "error.signature",
    "regex": "error.regex",
    "domain": "error.domain",
    "root_cause": "verdict.summary",
    "resolvable": "verdict.resolvable",
    "fix_success_rate": "verdict.fix_success_rate",
    "confidence": "verdict.confidence",
    "first_seen": "error.first_seen",
    "last_confirmed": "error.last_confirmed",
    "last_updated": "verdict.last_updated",
    "evidence_count": "metadata.evidence_count",
}


def corpus_tables(
    imported: Sequence[Imported], translation: translated_fields.Settings, new_corpus: bool
) -> list[Table]:
    """The settings an import of `imported` writes into the configuration: how deadends.dev
    looks errors up; and, for a new corpus (its root held nothing before) none of whose
    entries carries a translation, no required locale (unless none is required already)."""
    tables = [Table("regex", LOOKUP_SETTINGS, LOOKUP_REASON)]
    untranslated = not any(next(translated_fields.keys(item.entry, translation), None) for item in imported)
    if new_corpus and imported and untranslated and translation.required:
        tables.append(Table("translation", NO_TRANSLATION_SETTINGS, NO_TRANSLATION_REASON))
    return tables


def discover_canons(paths: Iterable[Path]) -> Iterator[Path]:
    """`*.json` files named or found below the given paths, sorted, each once."""
    seen: set[Path] = set()
    for given in paths:
        found = sorted(given.rglob("*.json")) if given.is_dir() else [given]
        for path in found:
            if path not in seen and not any(part.startswith(".") for part in path.parts[-2:]):
                seen.add(path)
                yield path


def read_canon(path: Path, limits: Limits | None = None, within: Path | None = None) -> dict[str, Any] | ImportProblem:
    """The parsed file, or a problem with a 1-based position (the loader's limits apply:
    a regular file, within the size and nesting limits, UTF-8, no link out of the folder
    `within` it was found in; JSON as entries are read, `parsing.parse_json`, no key twice
    in one object and no number that no double holds)."""
    limits = limits or Limits()
    raw = read_entry_bytes(path, limits.file_bytes, within)
    if isinstance(raw, str):
        return ImportProblem(path, 1, 1, raw)
    text, problem = decode(raw)
    if text is None:
        line, col, message = problem or (1, 1, "cannot decode file")
        return ImportProblem(path, line, col, message)
    parsed = parse_json(text, limits.nesting)
    if parsed.problem is not None:
        return ImportProblem(path, parsed.problem.line, parsed.problem.col, parsed.problem.message)
    unreadable = _first_unimportable(text) if parsed.needs_positions else None
    if unreadable is not None:
        return ImportProblem(path, unreadable.line, unreadable.col, _unimportable_message(unreadable))
    data = parsed.data
    if not isinstance(data, dict):
        return ImportProblem(path, 1, 1, "not an ErrorCanon: the top is not an object")
    if not isinstance(data.get("id"), str) or not isinstance(data.get("error"), dict):
        return ImportProblem(path, 1, 1, "not an ErrorCanon: no `id` string or `error` object")
    unsafe = unsafe_reason(data["id"])
    if unsafe is not None:  # cleaning could make a valid id of it, but such an input is no canon
        return ImportProblem(path, 1, 1, f"id `{shown(data['id'])}` has {unsafe}; not imported")
    return data


def _first_unimportable(text: str) -> Irregularity | None:
    """The first duplicate key or non-finite number in JSON text, with its place."""
    kinds = ("duplicate-key", "nonfinite-number")
    return next((i for i in json_positions(text).irregularities if i.kind in kinds), None)


def _unimportable_message(item: Irregularity) -> str:
    if item.kind == "duplicate-key":  # the parser kept the later value: the earlier would be lost
        parent = jp.parent(item.pointer)
        where = f"the object at `{shown(parent)}`" if parent else "the top-level object"
        return f"key `{shown(item.detail)}` appears more than once in {where} (ET003); not imported"
    # written back, it would be `.inf` or `Infinity`
    return f"`{item.detail}` is not a finite number, which an entry cannot hold (ET005); not imported"


def _segment(text: str) -> str:
    cleaned = _SEGMENT_JUNK.sub("-", text.strip().lower())
    cleaned = re.sub(r"[._-]{2,}", "-", cleaned).strip("._-")
    return cleaned or "x"


def split_upstream(upstream_id: str) -> tuple[str, str, str | None]:
    """(domain, slug, environment) of an upstream id, each made a valid id segment."""
    parts = [p for p in upstream_id.split("/") if p]
    if len(parts) >= 3:
        return _segment(parts[0]), _segment("-".join(parts[1:-1])), _segment(parts[-1])
    if len(parts) == 2:
        return _segment(parts[0]), _segment(parts[1]), None
    return "unknown", _segment(parts[0] if parts else "entry"), None


def entry_id_for(upstream_id: str) -> str:
    """The entry id of an upstream id, decided by that id alone (never by what else is
    imported), so an entry and every reference to it get the same id in any import."""
    if UPSTREAM_ID.fullmatch(upstream_id):
        upstream_domain, upstream_slug, environment = upstream_id.split("/")
        exact = f"{upstream_domain}/{upstream_slug}_{environment}"
        if is_valid_id(exact):
            return exact
    domain, slug, env = split_upstream(upstream_id)
    digest = hashlib.sha256(upstream_id.encode("utf-8", "surrogatepass")).hexdigest()[:DIGEST_LENGTH]
    return f"{domain}/{slug}{'_' + env if env else ''}-{digest}"


def _carries(value: Any) -> bool:
    """Whether a value holds something an import could lose (an empty one does not)."""
    return value not in ([], {}, "", None)


class _Reader:
    """Reads a canon, remembering which fields were used so the rest can be reported."""

    def __init__(self, canon: Mapping[str, Any]) -> None:
        self.canon = canon
        # paths as key tuples: a top-level key `error.signature` is not the nested one
        self.used: set[tuple[str, ...]] = set()

    def peek(self, dotted: str) -> Any:
        """The value at `dotted` (None if there is none), not marked used: `unmapped` lists
        it unless `get` reads it too."""
        node: Any = self.canon
        for part in dotted.split("."):
            if not isinstance(node, Mapping) or part not in node:
                return None
            node = node[part]
        return node

    def get(self, dotted: str, default: Any = None, kind: type | tuple[type, ...] | None = None) -> Any:
        """The value at `dotted`, or `default`; with `kind`, also `default` for a value of
        another type, which is then not used: `unmapped` lists it."""
        node = self.peek(dotted)
        if node is None or (kind is not None and not isinstance(node, kind)):
            return default
        self.used.add(tuple(dotted.split(".")))
        return node

    def unmapped(self) -> list[str]:
        found: list[str] = []

        def walk(node: Any, path: tuple[str, ...]) -> None:
            if path in self.used:
                return
            if isinstance(node, Mapping):
                for key, value in node.items():
                    walk(value, (*path, str(key)))
            elif _carries(node):
                found.append(_field_path(path))

        walk(self.canon, ())
        return found


def _field_path(keys: tuple[str, ...]) -> str:
    """Keys joined with dots; a key that holds a dot quoted, so it reads as one key."""
    return ".".join(json.dumps(key, ensure_ascii=False) if "." in key else key for key in keys)


def _items(raw: list[Any], keys: tuple[str, ...], where: str, unmapped: list[str]) -> list[dict[str, Any]]:
    """Copy the known keys of each object in a list; report the others."""
    items: list[dict[str, Any]] = []
    for index, item in enumerate(raw):
        if not isinstance(item, Mapping):
            unmapped.append(f"{where}[{index}]")
            continue
        items.append({key: item[key] for key in keys if key in item})
        unmapped.extend(f"{where}[{index}].{key}" for key in item if key not in keys)
    return items


def _category(value: Any, notes: list[str]) -> Any:
    if not isinstance(value, str):
        return value
    snake = re.sub(r"[^a-z0-9_]+", "_", value.strip().lower()).strip("_")
    if snake and not snake[0].isalpha():
        snake = "c_" + snake
    if snake != value:
        notes.append(f"category `{value}` written as `{snake}`")
    return snake or value


def _versions(reader: _Reader, unmapped: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    runtime = reader.get("environment.runtime")
    runtime_name, runtime_spec = "", None
    if isinstance(runtime, Mapping) and isinstance(runtime.get("name"), str):
        runtime_name = runtime["name"].strip().lower()
        spec = runtime.get("version_range")
        runtime_spec = spec if isinstance(spec, str) else ""
        if not isinstance(spec, str) and _carries(spec):
            unmapped.append("environment.runtime.version_range")
        rows.append({"version": row_from(runtime["name"], runtime_spec), "status": "active"})
        unmapped.extend(f"environment.runtime.{k}" for k in runtime if k not in ("name", "version_range"))
    elif _carries(runtime):
        unmapped.append("environment.runtime")
    python = reader.get("environment.python", kind=str)
    if isinstance(python, str) and python.strip():
        said = runtime_name in ("python", "cpython") and (runtime_spec or "").strip() == python.strip()
        if not said:
            rows.append({"version": row_from("python", python), "status": "active"})
    return rows


def _tier(reader: _Reader, notes: list[str]) -> str | None:
    status = reader.get("metadata.review_status", kind=str)
    # Only this value of `generated_by` says something a tier holds; any other is listed.
    if reader.peek("metadata.generated_by") == "expert_review" and status in ("human_reviewed", "expert_reviewed"):
        reader.get("metadata.generated_by")
        return "expert_reviewed"
    if status in TIERS:
        return str(status)
    if status is not None:
        notes.append(f"review_status `{status}` has no verification tier; left out")
    return None


def _graph(raw: Mapping[str, Any], unmapped: list[str]) -> dict[str, list[Any]]:
    graph: dict[str, list[Any]] = {}
    for name in GRAPH_KEYS:
        refs: list[Any] = []
        listed = raw.get(name)
        if not isinstance(listed, list) and _carries(listed):
            unmapped.append(f"transition_graph.{name}")
        for index, item in enumerate(listed if isinstance(listed, list) else []):
            if isinstance(item, str):
                refs.append(entry_id_for(item))
            elif isinstance(item, Mapping) and isinstance(item.get("error_id"), str):
                ref = {key: item[key] for key in REFERENCE_KEYS if key in item}
                ref["error_id"] = entry_id_for(item["error_id"])
                refs.append(ref)
                unmapped.extend(f"transition_graph.{name}[{index}].{key}" for key in item if key not in REFERENCE_KEYS)
            else:
                unmapped.append(f"transition_graph.{name}[{index}]")
        graph[name] = refs
    unmapped.extend(f"transition_graph.{key}" for key in raw if key not in GRAPH_KEYS)
    return graph


def convert(canon: Mapping[str, Any], source: Path) -> Imported:
    """One canon as an entry (plain data, schema key order left to the writer)."""
    reader = _Reader(canon)
    unmapped: list[str] = []
    notes: list[str] = []
    upstream_id = reader.get("id")
    version = reader.get("schema_version", kind=str)
    if version is not None and not version.startswith("1."):
        notes.append(f"schema_version `{version}` is newer than the 1.x this mapping knows")
    _, _, env = split_upstream(str(upstream_id))

    entry: dict[str, Any] = {"id": entry_id_for(str(upstream_id)), "aliases": [str(upstream_id)]}
    for field_name, dotted in COPIED_FIELDS.items():
        value = reader.get(dotted)
        if value is not None:
            entry[field_name] = value
    category = reader.get("error.category")
    if category is not None:
        entry["category"] = _category(category, notes)
    versions = _versions(reader, unmapped)
    if versions:
        entry["versions"] = versions
    entry["dead_ends"] = _items(reader.get("dead_ends", [], list), DEAD_END_KEYS, "dead_ends", unmapped)
    entry["workarounds"] = _items(reader.get("workarounds", [], list), WORKAROUND_KEYS, "workarounds", unmapped)
    graph = reader.get("transition_graph", kind=Mapping)
    if graph is not None:
        entry["transition_graph"] = _graph(graph, unmapped)
    tier = _tier(reader, notes)
    if tier is not None:
        entry["verification_tier"] = tier
    tags = [f"env:{env}"] if env else []
    os_name = reader.get("environment.os", kind=str)
    if isinstance(os_name, str) and os_name.strip() and os_name.strip().lower() != "any":
        tags.append(f"os:{os_name.strip().lower()}")
    if tags:
        entry["tags"] = tags
    unmapped = reader.unmapped() + unmapped
    # (each once, in the order first found: `dict.fromkeys`, not a sort keyed by `list.index`,
    # which read the list again for each field: 24,000 unknown fields took seconds)
    return Imported(source, entry, str(upstream_id), list(dict.fromkeys(unmapped)), notes)


def import_canons(
    paths: Iterable[Path],
    limits: Limits | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> tuple[list[Imported], list[ImportProblem]]:
    """Read and convert every canon below `paths` (in path order); a second file with an
    upstream id already read is a problem, not a second entry. `progress` is told how many
    files have been read."""
    imported: list[Imported] = []
    problems: list[ImportProblem] = []
    first_with: dict[str, Path] = {}
    given = list(paths)
    found = list(discover_canons(given))
    folders = [folder for folder in given if folder.is_dir()]
    for number, path in enumerate(found, start=1):
        if progress is not None:
            progress("reading canons", number, len(found))
        read = read_canon(path, limits, next((folder for folder in folders if folder in path.parents), None))
        if isinstance(read, ImportProblem):
            problems.append(read)
            continue
        entry_id = entry_id_for(read["id"])
        if entry_id in first_with:
            first = shown(str(first_with[entry_id]))
            message = f"id `{shown(read['id'])}` makes entry id `{entry_id}`, as {first} does; not imported"
            problems.append(ImportProblem(path, 1, 1, message))
            continue
        first_with[entry_id] = path
        imported.append(convert(read, path))
    return imported, problems


def generalise(field_path: str) -> str:
    """`dead_ends[3].tradeoff` -> `dead_ends[].tradeoff`, for counting across files."""
    return re.sub(r"\[\d+\]", "[]", field_path)
