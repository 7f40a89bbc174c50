"""Run the translation rules and report over the deadends.dev sample (../shared), one run.

    python benchmarks/translations_deadends.py [--canons ../shared/corpus/deadends-dev/canons]

Each ErrorCanon is mapped in memory to an entry (signature, verdict summary as
root cause, dead ends, workarounds, locale `en`) and written to a temporary
corpus; then `entrykit lint --select ET3` and `entrykit translations --format
json` run over it as a user would run them. Also reported: how many source
strings hold nothing to translate (ET302 would allow a copy) and which preserved
tokens the strings carry (what ET305 would ask a translation to keep).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from entrykit.translation import preserved_tokens as tokens

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "deadends-dev" / "canons"


def as_entry(canon: dict[str, Any]) -> dict[str, Any]:
    """The fields of an entry the translation rules read, and the id."""
    error, verdict = canon.get("error", {}), canon.get("verdict", {})
    entry_id = "/".join(str(canon.get("id", "x/y")).split("/")[:2])
    return {
        "id": entry_id,
        "signature": error.get("signature", ""),
        "root_cause": verdict.get("summary", ""),
        "dead_ends": [{"action": d.get("action", "")} for d in canon.get("dead_ends", [])],
        "workarounds": [{"action": w.get("action", "")} for w in canon.get("workarounds", [])],
        "locale": "en",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--canons", type=Path, default=DEFAULT)
    args = parser.parse_args()
    if not args.canons.is_dir():
        sys.exit(f"{args.canons} is not there")
    files = sorted(args.canons.rglob("*.json"))
    strings: list[str] = []
    kinds: Counter[str] = Counter()
    untranslatable = with_tokens = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "entries"
        for number, path in enumerate(files):
            entry = as_entry(json.loads(path.read_text(encoding="utf-8")))
            target = root / entry["id"].split("/")[0] / f"{number:04d}.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(entry, ensure_ascii=False, indent=2), encoding="utf-8")
            texts = [entry["signature"], entry["root_cause"]]
            texts += [item["action"] for item in entry["workarounds"] + entry["dead_ends"]]
            strings += [t for t in texts if t]
        start = time.perf_counter()
        for text in strings:
            found = tokens.extract(text)
            kinds.update(t.kind for t in found)
            with_tokens += bool(found)
            untranslatable += not tokens.has_words(text)
        took = time.perf_counter() - start
        print(f"{len(files)} canons, {len(strings)} source strings (signatures, summaries, actions)")
        print(f"  strings with nothing to translate (a copy would pass ET302): {untranslatable}")
        print(f"  strings with preserved tokens: {with_tokens} ({100 * with_tokens / len(strings):.1f}%)")
        print("  tokens by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
        print(f"  token extraction: {took / len(strings) * 1e6:.0f} µs per string")

        base = [sys.executable, "-m", "entrykit"]
        config = Path(tmp) / "pyproject.toml"
        config.write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
        lint = subprocess.run(
            base + ["lint", "--select", "ET3", "--format", "json", "--exit-zero"],
            cwd=tmp, capture_output=True, text=True, check=True,
        )
        counts = Counter(d["code"] for d in json.loads(lint.stdout))
        print("entrykit lint --select ET3: " + (", ".join(f"{c} {n}" for c, n in sorted(counts.items())) or "nothing"))
        report = subprocess.run(
            base + ["translations", "--format", "json"], cwd=tmp, capture_output=True, text=True, check=True
        )
        data = json.loads(report.stdout)
        for cell in data["coverage"]:
            print(
                f"  {cell['locale']} {cell['field']}: total {cell['total']}, present {cell['present']}, "
                f"missing {cell['missing']} ({cell['percent']['missing']}%)"
            )


if __name__ == "__main__":
    main()
