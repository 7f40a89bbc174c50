"""Imported ids are exact: references reach the entry upstream named, in one import or in parts.

    python benchmarks/import_ids.py [--canons DIR] [--parts 2]

Imports every canon once into one folder, and in `--parts` runs (the sorted files
dealt out in turn) into another, with `entrykit import --from deadends`; then
compares the two trees byte by byte and reads every `transition_graph` reference
of the written entries back against the canon it came from. A reference is *bent*
when it names the entry that holds it while upstream named another id, or names an
imported entry whose upstream id (its alias) is not the one upstream named.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
CANONS = REPO.parent / "shared" / "corpus" / "deadends-dev" / "canons"
GRAPH = ("leads_to", "preceded_by", "frequently_confused_with")


def run_import(project: Path, out: str, files: list[Path]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "entrykit", "import", "--from", "deadends", "--out", out, *map(str, files)],
        cwd=project, capture_output=True, text=True, check=False,
    )


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.yaml"))}


def targets(graph: Any) -> list[str]:
    found: list[str] = []
    for name in GRAPH:
        for item in (graph or {}).get(name) or []:
            found.append(item if isinstance(item, str) else item.get("error_id"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--canons", type=Path, default=CANONS)
    parser.add_argument("--parts", type=int, default=2)
    args = parser.parse_args()
    files = sorted(args.canons.rglob("*.json"))
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        whole = run_import(project, "whole", files)
        refused = 0
        for part in range(args.parts):
            done = run_import(project, "parts", files[part :: args.parts])
            refused += done.stderr.count("not overwritten")
        one, parts = tree(project / "whole"), tree(project / "parts")
        differing = sorted(set(one) ^ set(parts)) + sorted(p for p in set(one) & set(parts) if one[p] != parts[p])
        entries = {}
        for text in one.values():
            data = yaml.safe_load(text)
            entries[data["id"]] = data
        upstream_of = {entry_id: (data.get("aliases") or [None])[0] for entry_id, data in entries.items()}
        canons = {}
        for path in files:
            canon = json.loads(path.read_text(encoding="utf-8"))
            canons[canon["id"]] = canon
        total = to_itself = to_another = dangling = 0
        for data in entries.values():
            canon = canons[upstream_of[data["id"]]]
            for written, named in zip(targets(data.get("transition_graph")), targets(canon.get("transition_graph")), strict=True):
                total += 1
                if written == data["id"] and named != canon["id"]:
                    to_itself += 1
                elif written in entries and upstream_of[written] != named:
                    to_another += 1
                elif written not in entries:
                    dangling += 1
    print(whole.stdout.splitlines()[0] if whole.stdout else whole.stderr)
    print(f"{len(files)} canons, {len(one)} entries in one import, {len(parts)} in {args.parts} parts "
          f"({refused} refused); files that differ: {len(differing)}")
    print(f"references: {total}; to the entry itself: {to_itself}; to another entry than upstream named: "
          f"{to_another}; to an id not imported (ET504): {dangling}")


if __name__ == "__main__":
    main()
