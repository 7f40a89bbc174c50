"""ET205's analysis (`regex.redos.analyse`) of the deadends.dev regexes by two installs of entrykit, side by side.

    python benchmarks/redos_builds.py ../shared/corpus/deadends-dev/canons --before ../main/.venv/bin/python
    python benchmarks/redos_builds.py /tmp/diverse-10000-yaml --before ../main/.venv/bin/python --limit 3000

The regexes are read from the deadends.dev canons (`*.json`, `error.regex`) or from a folder
of entries (`*.yaml`, `regex`: a corpus `benchmarks/generate.py` made, say).

Each install's interpreter analyses every distinct regex of the canons (search mode, as
ET205 asks: `report_from_degree=3`) under flags 0 and IGNORECASE, several rounds in one
process, and reports the least CPU time (`time.process_time`) of a round and a digest of
every result with the steps its budget spent. The two alternate, so both meet the same
machine load; the ratio before/after is printed per flag setting, and the digests must be
equal: the same findings for the same steps.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from ruamel.yaml import YAML

_MEASURE = r"""
import hashlib, json, sys, time
from entrykit.regex import redos
from entrykit.regex.budget import Budget, TooComplex
patterns, rounds = json.load(sys.stdin), int(sys.argv[1])
spent = []
class Counted(Budget):
    __slots__ = ()
    def __init__(self, *args):
        super().__init__(*args)
        spent.append(self)
def analysed(pattern, flags):
    try:
        return [r.to_data() for r in redos.analyse(pattern, flags, "search", report_from_degree=3)]
    except TooComplex as exc:
        return "too complex: " + exc.reason
out = {}
for flags in (0, 2):
    redos.Budget = Counted
    digest = hashlib.sha256()
    for pattern in patterns:
        spent.clear()
        digest.update(json.dumps([pattern, analysed(pattern, flags), spent[0].used]).encode())
    redos.Budget = Budget
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for pattern in patterns:
            analysed(pattern, flags)
        best = min(best, time.process_time() - start)
    out[flags] = (best, digest.hexdigest()[:16])
print(json.dumps(out))
"""


def measure(python: str, patterns: list[str], rounds: int) -> dict[str, tuple[float, str]]:
    done = subprocess.run(
        [python, "-c", _MEASURE, str(rounds)], input=json.dumps(patterns), capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout))


def _patterns(folder: Path) -> list[str]:
    """The distinct regexes of the canons (`*.json`) or entries (`*.yaml`) under `folder`, sorted."""
    found: set[str] = set()
    for path in sorted(folder.rglob("*.json")):
        regex = json.loads(path.read_text(encoding="utf-8")).get("error", {}).get("regex")
        if isinstance(regex, str):
            found.add(regex)
    yaml = YAML(typ="safe")
    for path in sorted(folder.rglob("*.yaml")):
        document = yaml.load(path.read_text(encoding="utf-8"))
        if isinstance(document, dict) and isinstance(document.get("regex"), str):
            found.add(document["regex"])
    return sorted(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("canons", type=Path, help="the canons, or a folder of entries")
    parser.add_argument("--before", required=True, help="python of the install to compare against")
    parser.add_argument("--after", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=5, help="rounds per process; the least CPU time counts")
    parser.add_argument("--repeat", type=int, default=2, help="processes per install, alternating")
    parser.add_argument("--limit", type=int, default=None, help="the first so many distinct regexes only")
    args = parser.parse_args()
    patterns = _patterns(args.canons)[: args.limit]
    best: dict[str, dict[str, float]] = {"before": {}, "after": {}}
    digests: dict[str, dict[str, str]] = {"before": {}, "after": {}}
    for _ in range(args.repeat):
        for name, python in (("before", args.before), ("after", args.after)):
            for flags, (cpu, digest) in measure(python, patterns, args.rounds).items():
                best[name][flags] = min(cpu, best[name].get(flags, float("inf")))
                digests[name][flags] = digest
    print(f"{len(patterns)} regexes, least CPU of {args.rounds * args.repeat} rounds per install")
    for flags in best["before"]:
        before, after = best["before"][flags], best["after"][flags]
        same = "same results" if digests["before"][flags] == digests["after"][flags] else "RESULTS DIFFER"
        print(f"flags={flags}: before {before:.3f} s, after {after:.3f} s, before/after {before / after:.2f}x, {same}")


if __name__ == "__main__":
    main()
