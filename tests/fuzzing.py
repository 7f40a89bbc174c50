"""Fuzz targets and their inputs: the loader (raw bytes, mutated YAML and JSON texts), the rules
(structured entries with random field values, through the whole lint engine) and `merge`
(random pairs of entries).

Each target takes one drawn case and raises `Broken` (or any exception) when entrykit
misbehaves: an exception that is not one of its documented errors, a diagnostic whose
position is not inside its file, or a Python warning (which would reach the output as
Python's own lines, and under `-W error` stop the run): each case runs with warnings
made errors. `tests/test_fuzz.py` runs them at a modest size in CI;
`fuzz/run.py` runs them at any size under a per-case watchdog.
"""

from __future__ import annotations

import codecs
import functools
import json
import math
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from entrykit.authoring import merge
from entrykit.authoring.formatter import dump_entry
from entrykit.authoring.merge_report import report_json, report_text
from entrykit.config import Config, from_table
from entrykit.diagnostic import Diagnostic
from entrykit.entry import Entry
from entrykit.errors import EntrykitError
from entrykit.lint.engine import check
from entrykit.loader import Limits, LoadFailure, load

REPO = Path(__file__).resolve().parents[1]
TODAY = date(2026, 11, 30)
ROOT = Path("/fuzz-corpus")  # never read: every text is handed to the loader
LIMITS = Limits(file_bytes=256 * 1024, nesting=64, aliases=32)
_CONFIG: list[Config] = []


class Broken(AssertionError):
    """entrykit did something a fuzz case must never see."""


def config() -> Config:
    if not _CONFIG:
        _CONFIG.append(from_table({"root": str(ROOT)}, REPO))
    return _CONFIG[0]


# -- checks ---------------------------------------------------------------------------

_BREAKS = re.compile(r"\r\n|\n|\r")


def _lines(text: str) -> list[str]:
    return _BREAKS.split(text)


def assert_inside(line: int, col: int, lines: Sequence[str], what: str) -> None:
    """A 1-based (line, col) on a line of the text, or just past its end."""
    if not 1 <= line <= len(lines):
        raise Broken(f"{what}: line {line} of a {len(lines)}-line file")
    if not 1 <= col <= len(lines[line - 1]) + 1:
        raise Broken(f"{what}: column {col} of a {len(lines[line - 1])}-character line {line}")


def assert_positions(diagnostics: Sequence[Diagnostic], texts: Mapping[str, str]) -> None:
    for d in diagnostics:
        if d.path not in texts:
            raise Broken(f"{d.code} on `{d.path}`, a file that was not linted")
        assert_inside(d.line, d.col, _lines(texts[d.path]), f"{d.code} {d.message}")
        for place in d.related:
            if place.path in texts:
                assert_inside(place.line, place.col, _lines(texts[place.path]), f"{d.code} related")


def lint_entries(entries: Sequence[Entry], failures: Sequence[LoadFailure] = ()) -> list[Diagnostic]:
    """Every rule over `entries` (all of them targets, as `entrykit lint` checks a corpus)."""
    found = check(list(entries), list(entries), config(), TODAY, failures)
    texts = {e.path: e.text for e in entries}
    for failure in failures:
        texts.setdefault(failure.path, "")
    assert_positions([d for d in found if d.path not in {f.path for f in failures}], texts)
    return found


# -- targets --------------------------------------------------------------------------


def _failure_inside(failure: LoadFailure, raw: bytes) -> None:
    """ET001 positions: on a line of the text (undecodable bytes count as one character each)."""
    text = raw[3:] if raw.startswith(codecs.BOM_UTF8) else raw
    lines = _lines(text.decode("utf-8", errors="replace"))
    assert_inside(failure.line, failure.col, lines, f"ET001 {failure.message}")


def load_and_lint(raw: bytes, suffix: str) -> str:
    """The loader over `raw`; an entry then goes through every rule. Returns the outcome's class."""
    name = f"fuzz/case{suffix}"
    loaded = load(ROOT / name, name, LIMITS, raw=raw)
    if isinstance(loaded, LoadFailure):
        _failure_inside(loaded, raw)
        if not loaded.message:
            raise Broken("ET001 without a message")
        return "ET001"
    lint_entries([loaded])
    return "entry"


def target_bytes(case: tuple[bytes, str]) -> str:
    return load_and_lint(*case)


def target_text(case: tuple[str, str]) -> str:
    text, suffix = case
    return load_and_lint(text.encode("utf-8", errors="surrogatepass"), suffix)


def _entry(data: Mapping[str, Any], fmt: str, index: int) -> Entry | LoadFailure:
    text = dump(data, fmt)
    name = f"d{index}/e{index}.{fmt}"
    return load(ROOT / name, name, LIMITS, text=text)


def target_rules(case: tuple[list[dict[str, Any]], str]) -> str:
    """A small corpus of generated entries through the whole engine (entry and corpus rules)."""
    datas, fmt = case
    loaded = [_entry(data, fmt, i) for i, data in enumerate(datas)]
    entries = [e for e in loaded if isinstance(e, Entry)]
    failures = [f for f in loaded if isinstance(f, LoadFailure)]
    found = lint_entries(entries, failures)
    return f"{len(found)} diagnostics" if found else "clean"


def target_merge(case: tuple[dict[str, Any], dict[str, Any], str | None]) -> str:
    """Merge two generated entries; the merged entry must dump, load and lint like any other."""
    into, other, prefer = case
    try:
        result = merge.merge_entries(into, other, prefer=prefer)
    except EntrykitError:
        return "refused"
    report_text(result)
    json.dumps(report_json(result), ensure_ascii=False)
    merged = result.data
    text = dump_entry(merged, "yaml")
    loaded = load(ROOT / "m/merged.yaml", "m/merged.yaml", LIMITS, text=text)
    if isinstance(loaded, LoadFailure):
        raise Broken(f"the merged entry does not load: {loaded.message}")
    lint_entries([loaded])
    return "unresolved" if result.report.unresolved else "merged"


# -- inputs ---------------------------------------------------------------------------

WEIRD = [
    "", " ", "\t", "\n", "\r\n", "\r", "\x00", "\x1b[31m", "\u2028", "\u0085", "\ufeff", "\u202e",
    "\U0001f600", "é", "日本語", "ошибка", "🔥" * 3, "~", "null", "yes", "no", "on", "0x1F",
    "1e999", ".nan", "-.inf", "2024-02-30", "2024-13-01", "1999-12-31", "0000-00-00", "&a", "*a",
    "!!python/object/apply:os.system", "<<", "? x", "- x", "{x", "[x", "'", '"', "|", ">", "#",
    "%YAML 1.1", "---", "...", "${HOME}", "`rm -rf /`", "../../etc/passwd", "C:\\Windows", "\\",
    "ERROR: boom", "fatal: not a git repository", "ModuleNotFoundError: No module named 'x'",
]  # fmt: skip
REGEX_BITS = [
    "a", "b", ".", "*", "+", "?", "|", "(", ")", "(?:", "[a-z]", "[^", "]", "\\d", "\\s+", "\\w",
    "{2,3}", "{100000}", "^", "$", "\\", "(?P<n>", "(?P=n)", "\\1", "(?=", "(?!", "(?<=x)", "(?i)",
    "(a+)+", "(a|a)*", "(.*a){20}", "[\\x00-\\U0010ffff]", "\\p{L}", "ERROR", ": ", "boom", "x{,5}",
    "[[x]", "[a&&b]", "[x||y]", "(?(1)a|b)",  # what re's parser warns of (nested sets, set operations)
]  # fmt: skip
IDS = ["git/not-a-repo", "git/no-repository", "pip/no-match", "a/b", "Git/X", "", "a/b/c", "../x", "x"]
DATES = ["2023-01-01", "2024-02-29", "2026-11-30", "2030-01-01", "2023-02-30", "today", "2023-1-1", ""]
VERSIONS = ["python>=3.8", "torch 2.x", "CUDA 11.x+", "NCCL 2.10+", "git < 2", ">=1,<2", "==", "pip>=", "1.0.0"]

text = st.one_of(
    st.sampled_from(WEIRD),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=40),  # no file holds a lone surrogate
    st.lists(st.sampled_from(WEIRD), max_size=5).map("".join),
)
scalar = st.one_of(
    text, st.integers(-(2**70), 2**70), st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none()
)
junk: st.SearchStrategy[Any] = st.recursive(
    scalar, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4), max_leaves=12
)
regex = st.one_of(st.lists(st.sampled_from(REGEX_BITS), max_size=10).map("".join), text)
rate = st.one_of(st.floats(-1, 2), st.sampled_from([0, 1, 0.5, 1e-300, math.nan, math.inf]))
day = st.sampled_from(DATES)
id_text = st.one_of(st.sampled_from(IDS), text)


Maybe = Callable[[st.SearchStrategy[Any]], st.SearchStrategy[Any]]


def _sometimes_junk(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly the plausible value, sometimes anything at all."""
    return st.one_of(strategy, strategy, strategy, junk)


def _plausible(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return strategy


def _item(kind: str, _maybe: Maybe) -> st.SearchStrategy[Any]:
    rate_key = "fail_rate" if kind == "dead_ends" else "success_rate"
    return _maybe(
        st.fixed_dictionaries(
            {"action": _maybe(text), rate_key: _maybe(rate)},
            optional={
                "why_fails" if kind == "dead_ends" else "how": _maybe(text),
                "sources": _maybe(st.lists(_maybe(st.sampled_from(["https://example.org/a", "http://x", "ftp:", ""])), max_size=3)),
                "condition": _maybe(text),
            },
        )
    )


def _fields(_maybe: Maybe) -> dict[str, st.SearchStrategy[Any]]:
    """A strategy per field: values of the schema's shapes, or (with `_sometimes_junk`) not."""
    return {
        "signature": _maybe(text),
        "regex": _maybe(regex),
        "examples": _maybe(st.lists(_maybe(text), max_size=4)),
        "counterexamples": _maybe(st.lists(_maybe(text), max_size=3)),
        "domain": _maybe(st.sampled_from(["git", "pip", "python", "Git", ""])),
        "category": _maybe(st.sampled_from(["usage_error", "config_error", "Bad-Category"])),
        "subcategory": _maybe(text),
        "root_cause": _maybe(text),
        "root_cause_type": _maybe(st.sampled_from(["config", "bug", "environment", "x"])),
        "versions": _maybe(st.lists(_maybe(st.fixed_dictionaries(
            {"version": _maybe(st.sampled_from(VERSIONS) | text)},
            optional={"status": _maybe(st.sampled_from(["active", "deprecated", "fixed"]))},
        )), max_size=4)),
        "os_specific": _maybe(st.dictionaries(st.sampled_from(["linux", "windows", "macos"]), text, max_size=2)),
        "dead_ends": _maybe(st.lists(_item("dead_ends", _maybe), max_size=4)),
        "workarounds": _maybe(st.lists(_item("workarounds", _maybe), max_size=4)),
        "transition_graph": _maybe(st.fixed_dictionaries({}, optional={
            "leads_to": _maybe(st.lists(_maybe(id_text), max_size=3)),
            "preceded_by": _maybe(st.lists(_maybe(st.fixed_dictionaries({"error_id": id_text, "probability": _maybe(rate)})), max_size=3)),
            "frequently_confused_with": _maybe(st.lists(_maybe(id_text), max_size=3)),
        })),
        "official_doc_url": _maybe(st.sampled_from(["https://git-scm.com/docs", "not a url", ""])),
        "error_code": _maybe(text),
        "verification_tier": _maybe(st.sampled_from(["community", "expert", "x"])),
        "confidence": _maybe(rate),
        "fix_success_rate": _maybe(rate),
        "resolvable": _maybe(st.sampled_from(["true", "false", "partial", True])),
        "first_seen": _maybe(day),
        "last_confirmed": _maybe(day),
        "last_updated": _maybe(day),
        "evidence_count": _maybe(st.integers(-5, 10**12)),
        "tags": _maybe(st.lists(_maybe(text), max_size=4)),
        "locale": _maybe(st.sampled_from(["en", "zh", "xx", "zh_Hans"])),
        "aliases": _maybe(st.lists(_maybe(id_text), max_size=3)),
        "translated_from": _maybe(st.dictionaries(st.sampled_from(["signature_zh", "root_cause_zh", "x"]), st.sampled_from(["0a1b2c3d", "zz", ""]))),
        "signature_zh": _maybe(text),
        "root_cause_zh": _maybe(text),
        "workarounds_zh": _maybe(st.lists(_maybe(text), max_size=4)),
        "dead_ends_ja": _maybe(st.lists(_maybe(text), max_size=4)),
        "signature_xx_yy": _maybe(text),
        "unknown_field": junk,
    }


FIELDS = _fields(_sometimes_junk)
SHAPELY = _fields(_plausible)


@st.composite
def entry_data(draw: st.DrawFn, entry_id: st.SearchStrategy[Any] | None = None, shapes: str = "any") -> dict[str, Any]:
    """An entry: an id, then a random subset of the fields with random values (of the schema's
    types with `shapes="schema"`)."""
    fields = SHAPELY if shapes == "schema" else FIELDS
    data: dict[str, Any] = {"id": draw(entry_id if entry_id is not None else _sometimes_junk(id_text))}
    names = draw(st.lists(st.sampled_from(sorted(fields)), unique=True, max_size=len(fields)))
    for name in names:
        data[name] = draw(fields[name])
    return data


def dump(data: Any, fmt: str) -> str:
    """`data` as YAML or JSON text, as a stranger's tool might write it."""
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10**6)


YAML_TOKENS = [
    "&a ", "*a", "<<: *a\n", "!!python/object/apply:os.system [\"true\"]", "!!binary ", "!x ", "? ", ": ",
    "- ", "\t", "\n", "  ", "---\n", "...\n", "%YAML 1.1\n", "%TAG ! tag:x,2000:\n", '"', "'", "|", ">-",
    "{", "}", "[", "]", ",", "#", "\x00", "\ufeff", "\r", "\u2028", "\x85", "id: x\n", "id: y\n", "1: 2\n",
    "[a, b]: c\n", "? [x]\n", ".nan", ".inf", "0o17", "2024-02-30", "~", "!!set {a}", "!!omap [a: 1]",
    "a: &b [*b]\n", "\\", "\\u0000", "\\x", "\\N",
]  # fmt: skip
JSON_TOKENS = [
    "{", "}", "[", "]", ",", ":", '"', "NaN", "Infinity", "-Infinity", "1e999", "-0", "01", '"\\u0000"',
    '"\\ud800"', '"\\x"', "true", "null", '"id": 1,', '"id": "a/b",', "\n", "\t", "/*", "//", "'", "\x00",
    "\ufeff", '[[[[[[[[', ']]]]]]', '{"a":{"a":{"a":',
]  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn, fmt: str) -> str:
    """A generated entry's text, then a few insertions, deletions and repeats of spans."""
    source = dump(draw(entry_data()), fmt)
    tokens = YAML_TOKENS if fmt == "yaml" else JSON_TOKENS
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(source)))
        kind = draw(st.sampled_from(["insert", "insert", "delete", "repeat"]))
        if kind == "insert":
            source = source[:at] + draw(st.sampled_from(tokens)) + source[at:]
        else:
            end = draw(st.integers(at, min(len(source), at + 40)))
            piece = "" if kind == "delete" else source[at:end] * draw(st.integers(2, 8))
            source = source[:at] + piece + source[end:]
    return source


def _deep(levels: int, fmt: str) -> str:
    if fmt == "json":
        return '{"id": "a/b", "x": ' + "[" * levels + "]" * levels + "}"
    return "id: a/b\nx: " + "[" * levels + "]" * levels + "\n"


texts = st.one_of(
    st.tuples(mutated("yaml"), st.just(".yaml")),
    st.tuples(mutated("json"), st.just(".json")),
    st.tuples(st.integers(1, 400).flatmap(lambda n: st.sampled_from([_deep(n, "yaml"), _deep(n, "json")])), st.just(".yaml")),
    st.tuples(st.text(max_size=300), st.sampled_from([".yaml", ".json"])),
)
ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-32", "latin-1", "cp1252", "shift_jis", "gb18030"]


@st.composite
def raw_bytes(draw: st.DrawFn) -> tuple[bytes, str]:
    kind = draw(st.sampled_from(["random", "encoded", "spliced"]))
    suffix = draw(st.sampled_from([".yaml", ".json"]))
    if kind == "random":
        return draw(st.binary(max_size=600)), suffix
    source = dump(draw(entry_data()), suffix[1:])
    if kind == "encoded":
        return source.encode(draw(st.sampled_from(ENCODINGS)), errors="replace"), suffix
    data = source.encode("utf-8", errors="surrogatepass")
    at = draw(st.integers(0, len(data)))
    return data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:], suffix


corpora = st.tuples(
    st.lists(entry_data(), min_size=1, max_size=3),
    st.sampled_from(["yaml", "json"]),
)


def _mostly_mergeable(entry_id: str) -> st.SearchStrategy[dict[str, Any]]:
    shapely = entry_data(st.just(entry_id), "schema")
    return st.one_of(*[shapely] * 7, entry_data(st.just(entry_id)))


pairs = st.tuples(
    _mostly_mergeable("git/not-a-repo"), _mostly_mergeable("git/no-repository"), st.sampled_from([None, "into", "other"])
)

def _warning_free(target: Callable[[Any], str]) -> Callable[[Any], str]:
    """`target` with every warning raised as an error while it runs."""

    @functools.wraps(target)
    def run(case: Any) -> str:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return target(case)

    return run


TARGETS: dict[str, tuple[Callable[[Any], str], st.SearchStrategy[Any]]] = {
    "loader-bytes": (_warning_free(target_bytes), raw_bytes()),
    "loader-text": (_warning_free(target_text), texts),
    "rules": (_warning_free(target_rules), corpora),
    "merge": (_warning_free(target_merge), pairs),
}
