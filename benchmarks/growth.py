"""How a lint's (or another command's) time grows with the size of one input: each input made long, timed at two sizes.

    python benchmarks/growth.py [--families fields,styles,lists,regex,shapes,config]
        [--size 6000] [--factor 4] [--only TEXT] [--part K --parts N] [--work DIR]
        [--command lint|fmt|render|render-html|merge-into-grown|merge-into-bundled|dupes|match|translations|regex|new
                   |lint-fix|lint-add-suppressions|import-deadends|import-markdown]

A growth sweep looks for work that grows faster than what a pull request can make
long. Each case takes one input (a field of one entry, a list of it, a YAML shape, a
configuration value) and builds it from a repeated unit (`"a "`, `"0,"`, `"\\\\"`,
`"(?:a|b)"`, ...) at a small size and at `--factor` times that. Each case's entry is
linted with the bundled `entries/` beside it (copied into a new folder in `--work`,
removed at the end), cold and on one core (`jobs=1`), in a child forked from this
process for that one lint, and the script reads the child's CPU time around the lint.
`max_file_bytes` is set to the most a configuration may give it (1 GiB), so that a
large size is read rather than refused at its size; the other limits (nesting,
aliases) keep their defaults. The time of the same lint with the bundled entry
unchanged is taken off both, and the ratio of what is left is the case's growth:
about `factor` for linear work, `factor` squared for quadratic.

A case is flagged (`FLAG` in the first column) when its growth is above
`FLAGGED_GROWTH` times the factor (between linear and quadratic) and the large size
took at least `FLAGGED_EXTRA` seconds more than the unchanged entry, or when the large
size took more than `FLAGGED_SECONDS` in all. A flag is where to look, not a verdict:
confirm it at a third size and profile it. The regex worker's time is not counted
here (each of its matches stops at the budget); nor is time spent in threads. The
parent lints the unchanged entries once before the first case, so each child starts
with what a lint loads on first use, and with nothing an earlier case left in the
memos (parsed regexes, their analyses): each lint is measured as a lint of a checkout
runs, in a process of its own. (When the sweep ran every case in one process, a case
whose grown value was an earlier case's, one regex in another YAML style, was measured
with that work done at its small size only, and flagged.)

Families (sizes are in characters; `lists` and `config` cases make an item per 12 of
them, and `regex` cases use a quarter of `--size`, each repeated construct being a
regex of its own):
- `fields`: every text field of an entry, JSON-quoted in YAML;
- `styles`: a few fields as YAML block, folded and single-quoted scalars, and the whole
  entry as JSON;
- `lists`: lists of many items (examples, dead ends, versions, aliases, keys, ...);
- `regex`: regex constructs repeated in `regex`, alone and with the signature the same;
- `shapes`: YAML structure (nesting, comments, suppression comments, anchors, flow
  sequences, documents, long keys);
- `config`: configuration values (per-file-ignores, ignore, glossary, package aliases).

With `--command fmt`, each case's entry is formatted instead, as `entrykit fmt` (and
its pre-commit hook, which may run on a stranger's pull request) formats a file, alone
(`config` cases do not apply). The other commands run the CLI command of their name in a
project of the bundled entries with the case's entry beside them (`CLI_COMMANDS`): a
page of the entry (`render`, `render --html`), a merge of it with the bundled entry it
grows, either one the survivor (`merge --dry-run --prefer into`), `dupes`, `match` of a
message, `translations`, `regex` and `new` for a message, `lint --fix` and `lint
--add-suppressions` of it (which rewrite it), `import --from deadends` of it written as
a canon, and `import --from markdown` of the page `render` writes of it. Each reads what
a pull request can put in a checkout; `config` cases do not apply, and a command that
ends in a traceback is an `ERROR` line.

Each case prints a line: flag, family, case, CPU seconds at the two sizes, growth,
and what was found at each size (lint: diagnostics; fmt: 1 for a file refused or not
formatted; another command: its exit status). `--part K --parts N` runs every Nth case
from the Kth (for running parts side by side); `--only TEXT` the cases whose name holds
TEXT.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from entrykit.config import MAX_LIMITS, Config, from_table
from entrykit.globs import GLOBS_LIMIT

REPO = Path(__file__).resolve().parents[1]
BASE_FILE = REPO / "entries" / "python" / "modulenotfounderror.yaml"
GROWN_FILE = Path("python") / "grown.yaml"  # where the case's entry is written, inside the corpus
TODAY = date(2026, 12, 1)

# The most a configuration may allow: a checkout's own may raise the 2 MiB default this far,
# and a case made larger than the default is then read, not refused at its size.
MAX_FILE_BYTES = MAX_LIMITS["max_file_bytes"]
FLAGGED_GROWTH = 2.2  # x the factor: above linear (1x) with room for noise, well below quadratic (factor x)
FLAGGED_EXTRA = 0.3  # seconds above the unchanged entry's lint, at the large size
FLAGGED_SECONDS = 5.0  # a lint this long at the large size is flagged whatever its growth

TEXT_FIELDS = (
    "signature", "regex", "root_cause", "signature_zh", "root_cause_zh", "official_doc_url",
    "dead_ends.0.action", "dead_ends.0.why_fails", "workarounds.0.how", "workarounds.0.action",
    "workarounds_zh.0", "examples.0", "counterexamples.0", "versions.0.version", "domain",
    "category", "x_extra", "id", "first_seen", "tags.0", "aliases.0", "error_code",
    "transition_graph.leads_to.0", "translated_from.signature_zh", "signature_ja",
)  # fmt: skip
TEXT_UNITS = (
    "a", " ", "a ", " a", "0", "0,", "0.", "1.2.", "\\", "'", '"', "`", "`a` ", "'a' ", "é", "中", "(", ")",
    "[", "{", "}", "a.", "/", "/a", "a/b/", ":", "::", "e:", "-", "a-", "--x ", "\t", "\n", "%s", "{0}",
    "{a}", "${a}", "<a>", "<", ">", "http://x ", "x=1 ", ">=1,", "..", "$", "*", "a(", "a_b", "A", "aB",
    "~", "0x1f ", "1e5 ", "v1 ", "#", "@", "&", "|", "\\d", "Ω", "\u0640", "\u200b", "1:2 ", ",a",
)  # fmt: skip
STYLE_FIELDS = ("signature", "regex", "root_cause", "x_extra")
STYLE_UNITS = ("a ", "a", "\\", '"', "'", "`a` ", "中", "0,", "{", "[", "\n", "a\n", " \n", "\t", "# ", "- ", ": ", "a: b\n", "\u2028", "\ufeff")  # fmt: skip
REGEX_UNITS = (
    "(a)", "a?", "a*", "[ab]", "(?:a|b)", "\\w+", ".*", "(?=a)", "a{2}", "\\bx", "(?P<n>a)", "(?i)",
    "(?:", ")", "\\1", "a|", "(?:a)*", "\\d+\\.", "[^a]", "\\s*", "x+y", "(a|b)*c", "\\(", "\\.",
    "[a-z]", "\\\\", "{", "a{", "a{1,", "(?#c)", "(?P=n)", "(?(1)a|b)", "\\N{", "\\u00e9", "[[]",
    "^", "$", "\\Z", "(?<=a)",
)  # fmt: skip


@dataclass(frozen=True)
class Built:
    """One case at one size: the grown entry's text (None: the entry left as it is), the file
    name it is written under, and the configuration table the lint runs with."""

    text: str | None
    name: Path = GROWN_FILE
    config: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Case:
    """An input made long: `build(n)` is it at size n (for a case that grows fields from a
    unit, `fields` are their dotted paths and `unit` the unit)."""

    family: str
    name: str
    build: Callable[[int], Built]
    small: int
    large: int
    fields: tuple[str, ...] = ()
    unit: str = ""


def base_entry() -> dict[str, Any]:
    """The entry every case grows one input of (the bundled `python/modulenotfounderror`)."""
    data = yaml.safe_load(BASE_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def repeated(unit: str, size: int) -> str:
    """`unit` repeated to exactly `size` characters."""
    return (unit * (size // len(unit) + 1))[:size]


def dump(data: Mapping[str, Any]) -> str:
    """An entry as YAML, each value JSON-quoted on one line (every string survives as it is)."""
    return "".join(f"{key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in data.items())


def with_value(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of `data` with `value` at `path` (dotted; a number is a list index), made where missing."""
    data = copy.deepcopy(data)
    parts = path.split(".")
    here: Any = data
    for part, following in zip(parts[:-1], parts[1:], strict=True):
        if isinstance(here, list):
            while len(here) <= int(part):
                here.append({} if not following.isdigit() else [])
            here = here[int(part)]
        else:
            here = here.setdefault(part, [] if following.isdigit() else {})
    last = parts[-1]
    if isinstance(here, list):
        while len(here) <= int(last):
            here.append("x")
        here[int(last)] = value
    else:
        here[last] = value
    return data


def _without(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != key}


def _in_style(base: dict[str, Any], key: str, value: str, style: str) -> str:
    """The entry with `value` at `key` written as a block, folded or single-quoted scalar."""
    rest = dump(_without(base, key))
    if style == "single":
        return rest + f"{key}: '" + value.replace("'", "''") + "'\n"
    indicator = {"block": "|-", "folded": ">-"}[style]
    return rest + f"{key}: {indicator}\n" + "".join(f"  {line}\n" for line in value.split("\n"))


def field_cases(base: dict[str, Any], size: int, factor: int) -> Iterator[Case]:
    for path in TEXT_FIELDS:
        for unit in TEXT_UNITS:

            def build(n: int, path: str = path, unit: str = unit) -> Built:
                return Built(dump(with_value(base, path, repeated(unit, n))))

            yield Case("fields", f"{path} {unit!r}", build, size, size * factor, (path,), unit)


def style_cases(base: dict[str, Any], size: int, factor: int) -> Iterator[Case]:
    for key in STYLE_FIELDS:
        for unit in STYLE_UNITS:
            for style in ("block", "folded", "single", "json"):

                def build(n: int, key: str = key, unit: str = unit, style: str = style) -> Built:
                    value = repeated(unit, n)
                    if style == "json":
                        grown = with_value(base, key, value)
                        return Built(json.dumps(grown, ensure_ascii=False, indent=2), GROWN_FILE.with_suffix(".json"))
                    return Built(_in_style(base, key, value, style))

                yield Case("styles", f"{key} {unit!r} {style}", build, size, size * factor)


def _items(base: dict[str, Any], key: str, item: Callable[[int], Any]) -> Callable[[int], Built]:
    def build(n: int) -> Built:
        return Built(dump(with_value(base, key, [item(i) for i in range(n)])))

    return build


def _entry_lists(base: dict[str, Any]) -> dict[str, Callable[[int], Built]]:
    return {
        "examples": _items(base, "examples", lambda i: f"ModuleNotFoundError: No module named 'm{i}'"),
        "examples, all alike": _items(base, "examples", lambda i: "ModuleNotFoundError: No module named 'm'"),
        "counterexamples": _items(base, "counterexamples", lambda i: f"ImportError: x{i}"),
        "dead_ends": _items(base, "dead_ends", lambda i: {"action": f"Try thing {i}", "why_fails": "no", "fail_rate": 0.5}),
        "dead_ends, all alike": _items(base, "dead_ends", lambda i: {"action": "Try it", "why_fails": "no", "fail_rate": 0.5}),
        "workarounds": _items(base, "workarounds", lambda i: {"action": f"Do thing {i}", "success_rate": 0.5, "how": "x"}),
        "workarounds_zh": _items(base, "workarounds_zh", lambda i: f"做事 {i}"),
        "versions": _items(base, "versions", lambda i: {"version": f"python>={i}.0,<{i}.5", "status": "active"}),
        "versions, one package each": _items(base, "versions", lambda i: {"version": f"pkg{i}>=1.0", "status": "active"}),
        "versions, all alike": _items(base, "versions", lambda i: {"version": "python>=3.6", "status": "active"}),
        "tags": _items(base, "tags", lambda i: f"t{i}"),
        "aliases": _items(base, "aliases", lambda i: f"python/a{i}"),
        "leads_to": _items(base, "transition_graph.leads_to", lambda i: f"python/x{i}"),
        "leads_to itself": _items(base, "transition_graph.leads_to", lambda i: "python/modulenotfounderror"),
        "unknown keys": lambda n: Built(dump({**base, **{f"x_{i}": i for i in range(n)}})),
        "translated signature keys": lambda n: Built(dump({**base, **{f"signature_l{i}": "x" for i in range(n)}})),
        "os_specific": lambda n: Built(dump(with_value(base, "os_specific", {f"os{i}": "x" for i in range(n)}))),
        # items of the wrong type: the schema's errors are asked of jsonschema, item by item
        "tags as mappings": _items(base, "tags", lambda i: {"t": i}),
        "tags of strings and numbers": _items(base, "tags", lambda i: f"t{i}" if i % 2 else i),
        "aliases as lists": _items(base, "aliases", lambda i: [f"python/a{i}"]),
        "examples as mappings": _items(base, "examples", lambda i: {"text": f"ModuleNotFoundError: {i}"}),
        "dead_ends as strings": _items(base, "dead_ends", lambda i: f"Try thing {i}"),
        "versions as strings": _items(base, "versions", lambda i: f"python>={i}.0"),
        "leads_to as mappings": _items(base, "transition_graph.leads_to", lambda i: {"id": f"python/x{i}"}),
    }


def list_cases(base: dict[str, Any], size: int, factor: int) -> Iterator[Case]:
    items = max(1, size // 12)  # an item is a dozen characters or more
    for name, build in _entry_lists(base).items():
        yield Case("lists", name, build, items, items * factor)


def regex_cases(base: dict[str, Any], size: int, factor: int) -> Iterator[Case]:
    size = max(1, size // 4)
    for unit in REGEX_UNITS:

        def alone(n: int, unit: str = unit) -> Built:
            return Built(dump(with_value(base, "regex", repeated(unit, n))))

        def with_signature(n: int, unit: str = unit) -> Built:
            return Built(dump(with_value(with_value(base, "regex", repeated(unit, n)), "signature", repeated(unit, n))))

        yield Case("regex", f"regex {unit!r}", alone, size, size * factor, ("regex",), unit)
        yield Case("regex", f"regex and signature {unit!r}", with_signature, size, size * factor, ("regex", "signature"), unit)


def _shapes(base: dict[str, Any]) -> dict[str, Callable[[int], str]]:
    plain = dump(base)
    return {
        "nested sequences": lambda n: plain + "x_n: " + "[" * (n // 2) + "]" * (n // 2) + "\n",
        "nested mappings": lambda n: plain + "x_n: " + "{a: " * (n // 4) + "1" + "}" * (n // 4) + "\n",
        "comment lines": lambda n: "# c\n" * (n // 4) + plain,
        "suppression lines": lambda n: plain + "# entrykit: disable=ET205\n" * (n // 26),
        "a suppression on every line": lambda n: plain.replace("\n", "  # entrykit: disable=ET205\n") + "# x\n" * (n // 4),
        "a long comment": lambda n: "# " + repeated("a ", n) + "\n" + plain,
        "a long suppression": lambda n: plain + "# entrykit: disable=" + ",".join(["ET205"] * (n // 6)) + "\n",
        "blank lines": lambda n: "\n" * n + plain,
        "a block scalar of many lines": lambda n: dump(_without(base, "root_cause")) + "root_cause: |\n" + "  line\n" * (n // 7),
        "a flow sequence": lambda n: dump(_without(base, "tags")) + "tags: [" + ", ".join(f"t{i}" for i in range(n // 6)) + "]\n",
        "anchors and aliases": lambda n: plain + "".join(f"x_{i}: &a{i} v\n" for i in range(n // 16)) + "".join(f"y_{i}: *a{i}\n" for i in range(n // 16)),
        "CRLF lines": lambda n: (plain + "".join(f"x_{i}: v\n" for i in range(n // 8))).replace("\n", "\r\n"),
        "a long key": lambda n: plain + "x" * n + ": 1\n",
        "a plain scalar of many words": lambda n: dump(_without(base, "root_cause")) + "root_cause: " + "word " * (n // 5) + "\n",
        "many documents": lambda n: plain + "---\na: 1\n" * (n // 9),
    }


def shape_cases(base: dict[str, Any], size: int, factor: int) -> Iterator[Case]:
    for name, make in _shapes(base).items():

        def build(n: int, make: Callable[[int], str] = make) -> Built:
            return Built(make(n))

        yield Case("shapes", name, build, size, size * factor)


def _configured(table: Callable[[int], dict[str, Any]]) -> Callable[[int], Built]:
    def build(n: int) -> Built:
        return Built(None, config=table(n))

    return build


def _glossary(n: int) -> dict[str, Any]:
    return {"translation": {"glossary": {"zh": {f"term{i}": f"术语{i}" for i in range(n)}}}}


def config_cases(base: dict[str, Any], size: int, factor: int) -> Iterator[Case]:
    items = max(1, size // 12)
    tables: dict[str, Callable[[int], dict[str, Any]]] = {
        # (past the most globs a setting may hold, the globs grow longer instead)
        "per-file-ignores patterns": lambda n: {
            "per_file_ignores": {
                f"python/x{i}-{'a' * (n // GLOBS_LIMIT)}*.yaml": ["ET205"] for i in range(min(n, GLOBS_LIMIT))
            }
        },
        "a per-file-ignores glob of '['": lambda n: {"per_file_ignores": {"[" * (n * 12): ["ET205"]}},
        "a per-file-ignores glob of '*a'": lambda n: {"per_file_ignores": {"*a" * (n * 6) + "*b": ["ET205"]}},
        "ignore prefixes": lambda n: {"ignore": ["ET20"] * n},
        "glossary terms": _glossary,
        "package aliases": lambda n: {"versions": {"aliases": {f"pkg{i}": [f"alias{i}"] for i in range(n)}}},
        "release names of one package": lambda n: {"versions": {"vocabularies": {"torch": [f"r{i}" for i in range(n)]}}},
    }
    for name, table in tables.items():
        yield Case("config", name, _configured(table), items, items * factor)


FAMILIES: dict[str, Callable[[dict[str, Any], int, int], Iterator[Case]]] = {
    "fields": field_cases,
    "styles": style_cases,
    "lists": list_cases,
    "regex": regex_cases,
    "shapes": shape_cases,
    "config": config_cases,
}


def cases(families: list[str], size: int, factor: int) -> list[Case]:
    """Every case of `families`, in a fixed order."""
    base = base_entry()
    return [case for family in families for case in FAMILIES[family](base, size, factor)]


@dataclass(frozen=True)
class Timed:
    """One run of a case: its CPU seconds and what it found (lint: diagnostics; fmt: 1 for a
    file refused or not formatted)."""

    seconds: float
    found: int


Linter = Callable[[Built], Timed]


def in_child(measure: Callable[[], Timed]) -> Timed:
    """`measure()` run in a forked child of this process: each run starts from what the
    parent holds (modules imported, no memo of an earlier case), as each lint of a
    checkout starts in a process of its own. An exception in the child is raised here
    as a RuntimeError with its type and message."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: measure, answer, and leave without running the parent's cleanup
        status = 0
        try:
            os.close(read)
            answer: dict[str, Any]
            try:
                timed = measure()
                answer = {"seconds": timed.seconds, "found": timed.found}
            except BaseException as exc:  # (any of them is the case's outcome, told to the parent)
                answer = {"error": f"{type(exc).__name__}: {exc}"}
            with os.fdopen(write, "w", encoding="utf-8") as pipe:
                json.dump(answer, pipe)
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as pipe:
        text = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not text:
        raise RuntimeError(f"the measuring child ended without an answer (wait status {status})")
    answer = json.loads(text)
    if "error" in answer:
        raise RuntimeError(answer["error"])
    return Timed(float(answer["seconds"]), int(answer["found"]))


def growth(base: float, small: float, large: float) -> float:
    """How much the time above the unchanged entry's grew from the small size to the large
    (a small size that took no more than the unchanged entry counts as 10 ms above it)."""
    return (large - base) / max(small - base, 0.01)


def flagged(base: float, small: float, large: float, factor: int) -> bool:
    """Whether a case's times look faster than linear (see the module's documentation)."""
    grew = growth(base, small, large)
    return (grew > FLAGGED_GROWTH * factor and large - base >= FLAGGED_EXTRA) or large > FLAGGED_SECONDS


def own_folder(work: Path) -> Path:
    """A new folder in `work` for one sweep's files: nothing already in `work` is written or removed."""
    work.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="growth-", dir=work))


class InProcessFormat:
    """Formats the case's entry as `entrykit fmt` does (the file's own checks first), with
    the largest file limit; its count is 1 when the file is refused or cannot be formatted.
    Each run is in a forked child (`in_child`) of a process that formatted the unchanged
    entry once: what a run loads on first use is loaded, and no case finds another's memos."""

    def __init__(self, work: Path) -> None:
        self.root = own_folder(work)
        self.unchanged = dump(base_entry())
        self.measure(Built(None))

    def __call__(self, built: Built) -> Timed:
        return in_child(lambda: self.measure(built))

    def measure(self, built: Built) -> Timed:
        """One format of the case's entry, in this process."""
        from entrykit.authoring.formatter import format_file
        from entrykit.loader import Limits
        from entrykit.schema import load_schema

        path = self.root / built.name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(built.text if built.text is not None else self.unchanged, encoding="utf-8", newline="")
        try:
            schema = load_schema()
            gc.collect()
            started = time.process_time()
            result = format_file(path, schema, Limits(file_bytes=MAX_FILE_BYTES), self.root)
            return Timed(time.process_time() - started, int(result.error is not None))
        finally:
            path.unlink(missing_ok=True)


class InProcessLint:
    """Lints the bundled entries, copied once into `work`, with one case's file beside them.
    Each run is in a forked child (`in_child`) of a process that linted the unchanged
    entries once: what a run loads on first use is loaded, and no case finds another's memos."""

    def __init__(self, work: Path) -> None:
        self.root = own_folder(work)
        shutil.copytree(REPO / "entries", self.root, dirs_exist_ok=True)
        self.measure(Built(None))

    def config(self, built: Built) -> Config:
        """The configuration a case is linted with: its own table over the largest file limit."""
        return from_table({"root": self.root.name, "max_file_bytes": MAX_FILE_BYTES, **built.config}, self.root.parent)

    def __call__(self, built: Built) -> Timed:
        return in_child(lambda: self.measure(built))

    def measure(self, built: Built) -> Timed:
        """One lint with the case's entry, in this process."""
        from entrykit.lint import engine

        path = self.root / built.name
        if built.text is not None:
            path.write_text(built.text, encoding="utf-8", newline="")
        try:
            gc.collect()
            started = time.process_time()  # (reading the configuration is part of what a lint pays)
            config = self.config(built)
            found = sum(1 for _ in engine.lint(None, config, TODAY, cwd=self.root.parent, jobs=1).diagnostics)
            return Timed(time.process_time() - started, found)
        finally:
            path.unlink(missing_ok=True)


class InProcessCommand:
    """Runs `entrykit` commands (click's test runner, in this process) in a project of the
    bundled entries with the case's entry beside them, configured with the largest file
    limit (the unchanged entry is written in the case's place). Each step but the last
    prepares, untimed (`render --output page.md` before `import`); the last is timed, and
    its exit status is the count. A step that ends in a traceback instead of a message
    raises, and the sweep prints it as an ERROR. What the steps write is removed after each
    run. Each run is in a forked child (`in_child`) of a process that ran the steps once on
    the unchanged entries."""

    def __init__(self, work: Path, steps: tuple[tuple[str, ...], ...]) -> None:
        self.root = own_folder(work)
        self.steps = steps
        self.unchanged = dump(base_entry())
        shutil.copytree(REPO / "entries", self.root / "entries")
        (self.root / "entrykit.toml").write_text(f'root = "entries"\nmax_file_bytes = {MAX_FILE_BYTES}\n', encoding="utf-8")
        self.measure(Built(None))

    def __call__(self, built: Built) -> Timed:
        return in_child(lambda: self.measure(built))

    def measure(self, built: Built) -> Timed:
        """One run of the steps with the case's entry, in this process."""
        from click.testing import CliRunner

        from entrykit.cli import cli

        if built.config:
            raise ValueError("a command other than lint takes no case's configuration")
        text = built.text if built.text is not None else self.unchanged
        path = self.root / "entries" / built.name
        path.write_text(text, encoding="utf-8", newline="")
        kept = set(self.root.rglob("*"))
        if any(CANON in step for step in self.steps):
            (self.root / "canon.json").write_text(as_canon(text), encoding="utf-8")
        here = Path.cwd()
        os.chdir(self.root)
        try:
            named = {GROWN: f"entries/{built.name.as_posix()}", CANON: "canon.json"}
            steps = [[named.get(arg, arg) for arg in step] for step in self.steps]
            for step in steps[:-1]:
                _ran(CliRunner().invoke(cli, step, catch_exceptions=True))
            gc.collect()
            started = time.process_time()
            result = CliRunner().invoke(cli, steps[-1], catch_exceptions=True)
            seconds = time.process_time() - started
        finally:
            os.chdir(here)
            path.unlink(missing_ok=True)
            for written in sorted(set(self.root.rglob("*")) - kept, reverse=True):  # (a folder after its files)
                written.rmdir() if written.is_dir() else written.unlink()
        return Timed(seconds, _ran(result).exit_code)


def canon_places() -> dict[str, tuple[str, str]]:
    """Where `import --from deadends` reads each entry field in a canon: its copied fields,
    and the category it maps."""
    from entrykit.authoring.importers.deadends import COPIED_FIELDS

    places: dict[str, tuple[str, str]] = {}
    for name, dotted in {**COPIED_FIELDS, "category": "error.category"}.items():
        part, _, key = dotted.partition(".")
        places[name] = (part, key)
    return places


def as_canon(text: str) -> str:
    """The case's entry as a deadends.dev canon: each field where the importer reads it
    (`canon_places`; lists and the graph as they are; any other field left at the top,
    which the import lists as unmapped), or its text as it is where it is no mapping."""
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return text
    if not isinstance(data, dict):
        return text
    places = canon_places()
    canon: dict[str, Any] = {"schema_version": "1.0.0", "id": "python/grown/py3", "error": {}}
    for key, value in data.items():
        if key == "id":
            continue
        if key in places:
            part, name = places[key]
            canon.setdefault(part, {})[name] = value
        else:
            canon[str(key)] = value
    return json.dumps(canon, ensure_ascii=False, indent=2, default=str)


def _ran(result: Any) -> Any:
    """A command's result, or a RuntimeError when it ended in a traceback."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise RuntimeError(f"traceback: {type(result.exception).__name__}: {result.exception}")
    return result


GROWN = "{grown}"  # (in a step: the case's entry file, `python/grown.yaml` or `.json`)
CANON = "{canon}"  # (in a step: the case's entry written as a deadends.dev canon, `as_canon`)
_BUNDLED = f"entries/{BASE_FILE.relative_to(REPO / 'entries').as_posix()}"
_MERGE = ("--dry-run", "--prefer", "into", "--report", "json", "--today", TODAY.isoformat())
# Commands that read the case's entry, or every entry of a checkout (besides lint and fmt):
# the steps each runs, the last timed.
CLI_COMMANDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "render": (("render", GROWN),),
    "render-html": (("render", "--html", GROWN),),
    "merge-into-grown": (("merge", GROWN, _BUNDLED, *_MERGE),),
    "merge-into-bundled": (("merge", _BUNDLED, GROWN, *_MERGE),),
    "dupes": (("dupes", "--format", "json"),),
    "match": (("match", "ModuleNotFoundError: No module named 'numpy'"),),
    "translations": (("translations",),),
    "regex": (("regex", "ModuleNotFoundError: No module named 'numpy'"),),
    "new": ((
        "new", "--no-input", "--signature", "ModuleNotFoundError: No module named 'numpy'", "--id", "python/numpy-missing",
        "--root-cause", "numpy is not installed.", "--on-match", "continue",
    ),),  # fmt: skip
    "lint-fix": (("lint", "--fix", "--no-cache", "--exit-zero", GROWN),),
    "lint-add-suppressions": (("lint", "--add-suppressions", "--no-cache", GROWN),),
    "import-deadends": (("import", "--from", "deadends", "--out", "imported", "--force", "--no-settings", CANON),),
    "import-markdown": (
        ("render", GROWN, "--output", "page.md"),
        ("import", "--from", "markdown", "--out", "imported", "--force", "page.md"),
    ),
}


def command_runner(name: str, work: Path) -> InProcessLint | InProcessFormat | InProcessCommand:
    """What each case is run through: lint, fmt, or one of `CLI_COMMANDS`."""
    if name == "lint":
        return InProcessLint(work)
    if name == "fmt":
        return InProcessFormat(work)
    return InProcessCommand(work, CLI_COMMANDS[name])


COMMANDS = ("lint", "fmt", *CLI_COMMANDS)


def sweep(chosen: list[Case], lint: Linter, factor: int, out: Callable[[str], None] = print) -> list[str]:
    """Lint each case at its two sizes and print a line for it; the names of the flagged cases."""
    base = min(lint(Built(None)).seconds for _ in range(2))
    out(f"# the unchanged entry: {base:.3f} s")
    found: list[str] = []
    for case in chosen:
        try:
            small, large = lint(case.build(case.small)), lint(case.build(case.large))
        except Exception as exc:  # a case the library refuses outright is a finding too
            out(f"ERROR\t{case.family}\t{case.name}\t{type(exc).__name__}: {exc}"[:300])
            found.append(case.name)
            continue
        flag = flagged(base, small.seconds, large.seconds, factor)
        if flag:
            found.append(case.name)
        grew = growth(base, small.seconds, large.seconds)
        out(
            f"{'FLAG' if flag else ''}\t{case.family}\t{case.name}\t{small.seconds:.2f}\t{large.seconds:.2f}"
            f"\tgrowth {grew:.1f}\t{small.found},{large.found} found"
        )
    out(f"# {len(chosen)} cases, {len(found)} flagged")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--size", type=int, default=6000, help="the small size (characters)")
    parser.add_argument("--factor", type=int, default=4, help="the large size over the small")
    parser.add_argument("--only", default="", help="only the cases whose name holds this")
    parser.add_argument("--part", type=int, default=0)
    parser.add_argument("--parts", type=int, default=1)
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--command", choices=COMMANDS, default="lint", help="what each case is run through")
    args = parser.parse_args(argv)
    families = [name.strip() for name in args.families.split(",") if name.strip()]
    if args.command != "lint":  # (a case's configuration is lint's)
        families = [name for name in families if name != "config"]
    unknown = [name for name in families if name not in FAMILIES]
    if unknown or args.size < 1 or args.factor < 2 or not 0 <= args.part < args.parts:
        parser.error(f"families are {', '.join(FAMILIES)}; --size >= 1, --factor >= 2, 0 <= --part < --parts")
    chosen = [case for case in cases(families, args.size, args.factor) if args.only in case.name]
    chosen = chosen[args.part :: args.parts]
    work = Path(tempfile.gettempdir()) if args.work is None else args.work
    command = command_runner(args.command, work)
    try:
        found = sweep(chosen, command, args.factor)
    finally:
        shutil.rmtree(command.root, ignore_errors=True)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
