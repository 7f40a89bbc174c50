"""What the version rules (ET4xx) say about real version ranges: the deadends.dev sample.

    python benchmarks/version_rows.py [--canons ../shared/corpus/deadends-dev/canons] [--sample 10]

Each canon's `environment.runtime` (`name` + `version_range`) becomes one version
row; canons of the same error (`<domain>/<slug>/<env>`) become one entry with one
row per environment, so rows of one error are compared with each other (ET404).
Rows carry no lifecycle (the format has none) and `status: active`. The entries
are linted in a temporary corpus with only the ET4 rules; the script prints the
rows flagged per rule, ET401's findings by kind, how many ranges plain
`packaging.specifiers.SpecifierSet` rejects, timings, and a reproducible sample
of flagged rows.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
import time
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path

import yaml
from packaging.specifiers import InvalidSpecifier, SpecifierSet

from entrykit.config import from_table
from entrykit.lint.engine import lint
from entrykit.versions.package_names import canonical_name

DEFAULT_CANONS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "deadends-dev" / "canons"


def row_text(name: str, version_range: str) -> str:
    """`name` + `version_range` as a row would be typed: `pytorch>=2.0`, `ros2 humble`."""
    version_range = version_range.strip()
    glue = "" if re.match(r"[<>=!~]", version_range) else " "
    return f"{name.strip()}{glue}{version_range}"


def load_rows(canons: Path) -> dict[str, list[tuple[str, str]]]:
    """Entry id -> [(row text, canon file)] in file order."""
    grouped: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for path in sorted(canons.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        runtime = (data.get("environment") or {}).get("runtime") or {}
        name, version_range = runtime.get("name"), runtime.get("version_range")
        if isinstance(name, str) and isinstance(version_range, str):
            entry_id = "/".join(str(data["id"]).split("/")[:2])
            grouped[entry_id].append((row_text(name, version_range), str(path.relative_to(canons))))
    return grouped


def kind(message: str) -> str:
    for marker, label in (
        ("is not a version spec", "unparsable"),
        ("matches no version", "unsatisfiable"),
        ("names no package", "no package"),
        ("if exactly that release is meant", "bare version (suggestion only)"),
        ("is not canonical", "non-canonical (safe fix)"),
    ):
        if marker in message:
            return label
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--canons", type=Path, default=DEFAULT_CANONS)
    parser.add_argument("--sample", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--declare-dates",
        action="store_true",
        help='Declare every package whose ranges hold YYYY-MM dates as a "date" vocabulary.',
    )
    args = parser.parse_args()

    grouped = load_rows(args.canons)
    rows = [text for items in grouped.values() for text, _ in items]
    plain_bad = 0
    for path in args.canons.rglob("*.json"):
        runtime = json.loads(path.read_text(encoding="utf-8")).get("environment", {}).get("runtime", {})
        try:
            SpecifierSet(runtime.get("version_range", ""))
        except InvalidSpecifier:
            plain_bad += 1

    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        for entry_id, items in grouped.items():
            domain, _, slug = entry_id.partition("/")
            entry = {
                "id": entry_id,
                "domain": domain,
                "versions": [
                    {"version": text, "introduced": None, "deprecated": None, "removed": None,
                     "behavior_change": None, "status": "active"}
                    for text, _ in items
                ],
            }
            target = base / "entries" / domain / f"{slug}.yaml"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(yaml.safe_dump(entry, sort_keys=False, allow_unicode=True), encoding="utf-8")
        table: dict[str, object] = {"root": "entries", "select": ["ET4"]}
        if args.declare_dates:
            dated = {
                canonical_name(re.split(r"[<>=!~ ]", text, maxsplit=1)[0]): "date"
                for text in rows
                if re.search(r"\d{4}-\d{2}", text)
            }
            table["versions"] = {"vocabularies": dated}
            print(f"declared as dates: {', '.join(sorted(dated))}")
        config = from_table(table, base)
        start = time.perf_counter()
        result = lint(None, config, date(2026, 11, 30), cwd=base)
        seconds = time.perf_counter() - start

    by_path = {f"entries/{i.split('/')[0]}/{i.split('/')[1]}.yaml": i for i in grouped}
    flagged: dict[str, set[tuple[str, str]]] = defaultdict(set)
    kinds: Counter[str] = Counter()
    examples = []
    for d in result.diagnostics:
        row = d.pointer.split("/")[2] if d.pointer.startswith("/versions/") else "?"
        flagged[d.code].add((d.path, row))
        if d.code == "ET401":
            kinds[kind(d.message)] += 1
        entry_id = by_path[d.path]
        text, source = grouped[entry_id][int(row)]
        examples.append((d.code, text, source, d.message))

    print(f"canons: {len(rows)} rows in {len(grouped)} entries "
          f"({sum(1 for v in grouped.values() if len(v) > 1)} entries with more than one row)")
    print(f"ranges plain SpecifierSet rejects: {plain_bad} of {len(rows)}")
    print(f"lint with ET4 rules: {seconds:.2f} s, {len(result.diagnostics)} diagnostics")
    any_flag = set().union(*flagged.values()) if flagged else set()
    print(f"rows flagged by any rule: {len(any_flag)} of {len(rows)}")
    for code in ("ET401", "ET402", "ET403", "ET404", "ET405", "ET406"):
        print(f"  {code}: {len(flagged.get(code, ()))} rows")
    for label, count in kinds.most_common():
        print(f"    ET401 {label}: {count}")
    print("most common flagged texts:")
    for (code, text), count in Counter((c, t) for c, t, _, _ in examples).most_common(12):
        print(f"  {count:4d}  {code}  {text}")
    print(f"sample of {args.sample} flagged rows (seed {args.seed}):")
    for code, text, source, message in random.Random(args.seed).sample(examples, min(args.sample, len(examples))):
        print(f"  {code}  {text!r}  [{source}]\n        {message}")


if __name__ == "__main__":
    main()
