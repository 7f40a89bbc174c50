"""The deadends.dev canon sample as entrykit entries, minimally, for benchmarks and tests only.

Each `canons/<domain>/<slug>/<env>.json` (or `<slug>_<env>.json`) becomes
`<domain>/<slug>` when the slug has one environment, `<domain>/<slug>-<env>` when
it has several, with the fields near-duplicate detection reads: signature, regex,
domain, category, root cause (the verdict's summary), dead ends, workarounds,
transition graph (references renamed alike) and dates. It is not the importer: nothing else is mapped.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any


def _env(name: str) -> str:
    return re.sub(r"[^a-z0-9._-]+", "-", name.lower()).strip("-._")


def convert(canons: Path) -> list[dict[str, Any]]:
    """Every canon under `canons` as entry data, in path order."""
    documents = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(canons.rglob("*.json"))]
    slugs = Counter("/".join(d["id"].split("/")[:2]) for d in documents)
    ids = {}
    for doc in documents:
        domain, slug, env = doc["id"].split("/")
        ids[doc["id"]] = f"{domain}/{slug}-{_env(env)}" if slugs[f"{domain}/{slug}"] > 1 else f"{domain}/{slug}"
    entries = []
    for doc in documents:
        domain = doc["id"].split("/")[0]
        entry_id = ids[doc["id"]]
        graph = {
            name: [
                {**ref, "error_id": ids.get(ref["error_id"], ref["error_id"])} if isinstance(ref, dict) else ids.get(ref, ref)
                for ref in refs
            ]
            for name, refs in (doc.get("transition_graph") or {}).items()
            if isinstance(refs, list)
        }
        error = doc.get("error", {})
        entries.append(
            {
                "id": entry_id,
                "signature": error.get("signature"),
                "regex": error.get("regex"),
                "domain": domain,
                "category": error.get("category"),
                "root_cause": doc.get("verdict", {}).get("summary"),
                "dead_ends": doc.get("dead_ends", []),
                "workarounds": doc.get("workarounds", []),
                "transition_graph": graph,
                "first_seen": error.get("first_seen"),
                "last_confirmed": error.get("last_confirmed"),
            }
        )
    return entries


def write(canons: Path, out: Path) -> list[Path]:
    """Write the converted entries as JSON files below `out`; return their paths."""
    paths = []
    for entry in convert(canons):
        domain, slug = entry["id"].split("/")
        path = out / domain / f"{slug}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(entry, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        paths.append(path)
    return paths
