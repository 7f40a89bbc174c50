"""What merging near-duplicate entries makes of their regexes: repeated alternatives, length, texts lost.

    python benchmarks/merged_regexes.py [--canons DIR] [--generated N] [--seed S] [--before DIR]

Two sets of merges (`merge_entries(survivor, absorbed, prefer="into")`), each run in a
worker process with this checkout's entrykit and, with `--before DIR`, with the one in
`DIR/tool`; this checkout judges both:

- every pair `entrykit dupes` lists over the deadends.dev canons (default
  `../shared/corpus/deadends-dev/canons`; skipped when absent), imported into a scratch
  project, merged both ways under that corpus's lookup settings (IGNORECASE, search);
- `--generated N` pairs (default 800, seeded) of regexes of one message that differ in one
  part (a class, a repeat, a branch), each entry's signature spelled from its regex.

For each set and version: the merges; the merged regexes that repeat one of the survivor's
outermost alternatives; the median and total length of the merged regexes; and the merges
that lose a text the absorbed regex finds: the shortest one `regex.inclusion` finds that
the merged regex does not, confirmed by `re` (the first few are printed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CANONS = REPO.parent / "shared" / "corpus" / "deadends-dev" / "canons"

WORDS = ["port", "exit code", "manifest", "not found", "nil", "failed"]
PARTS = [
    "\\d+", "\\d", "[0-9]", "\\d{1,2}", "\\d{2,5}", ".*", ".+", "\\S+", "\\w+", "[a-z]+", "[a-z]{2,3}", "[0-9a-f]+",
    "[A-Za-z_]+", "\\s+", " ", "(unknown|not found)", "(?:error|failed)",
]  # fmt: skip
Job = tuple[dict[str, Any], dict[str, Any], int, str]


def _entry(name: str, signature: str, regex: str) -> dict[str, Any]:
    return {
        "id": f"go/{name}", "signature": signature, "regex": regex, "domain": "go", "category": "usage_error",
        "root_cause": "x", "dead_ends": [], "workarounds": [], "first_seen": "2024-01-01", "last_confirmed": "2025-01-01",
    }  # fmt: skip


def generated_jobs(count: int, seed: int) -> list[Job]:
    from entrykit.regex.witness import branch_texts

    rng = random.Random(seed)
    jobs: list[Job] = []
    for _ in range(count):
        words = rng.sample(WORDS, rng.randint(2, 4))
        joins = [rng.choice(PARTS) for _ in words[1:]]
        regexes = []
        for _ in range(2):
            changed = list(joins)
            changed[rng.randrange(len(joins))] = rng.choice(PARTS)
            tail = rng.choice(["", "", "|nil", "|unknown"])
            regexes.append("".join(w + j for w, j in zip(words, [*changed, ""], strict=True)) + tail)
        if regexes[0] != regexes[1]:
            a, b = (_entry(n, (branch_texts(r, 0) or ["x"])[0], r) for n, r in zip("ab", regexes, strict=True))
            jobs.append((a, b, 0, "search"))
    return jobs


def real_jobs(canons: Path, work: Path) -> list[Job]:
    import yaml

    project = work / "deadends"
    project.mkdir()
    run = [sys.executable, "-m", "entrykit"]
    subprocess.run([*run, "import", "--from", "deadends", "--out", "entries", str(canons)], cwd=project, check=True, capture_output=True)
    # (`dupes` exits 1 when it lists pairs, as a lint with findings does)
    dupes = subprocess.run([*run, "dupes", "--format", "json"], cwd=project, check=False, capture_output=True, text=True)
    if dupes.returncode not in (0, 1):
        raise SystemExit(f"entrykit dupes failed ({dupes.returncode}):\n{dupes.stderr[-2000:]}")
    clusters = json.loads(dupes.stdout)["clusters"]
    pairs = sorted({(p["a"]["path"], p["b"]["path"]) for c in clusters for p in c["pairs"]})
    jobs: list[Job] = []
    for first, second in pairs:
        for survivor, absorbed in ((first, second), (second, first)):
            data = [yaml.safe_load((project / path).read_text(encoding="utf-8")) for path in (survivor, absorbed)]
            jobs.append((data[0], data[1], re.IGNORECASE, "search"))
    return jobs


def merged(jobs: list[Job], source: Path, work: Path) -> list[str | None]:
    """The merged regex of each job, by the entrykit in `source/tool` (in a worker process)."""
    todo, done = work / "jobs.json", work / "merged.json"
    todo.write_text(json.dumps(jobs), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(source / "tool") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([sys.executable, __file__, "--worker", str(todo), str(done)], env=env, check=True)
    return list(json.loads(done.read_text(encoding="utf-8")))


def _work(todo: Path, done: Path) -> None:
    from entrykit.authoring import merge

    out = []
    for survivor, absorbed, flags, mode in json.loads(todo.read_text(encoding="utf-8")):
        result = merge.merge_entries(survivor, absorbed, prefer="into", flags=flags, mode=mode)
        out.append(result.data.get("regex"))
    done.write_text(json.dumps(out), encoding="utf-8")


def _repeats(survivor: str, pattern: str) -> bool:
    """Whether the merged `pattern` holds one of `survivor`'s outermost alternatives again."""
    from entrykit.regex.syntax import top_alternatives

    if pattern == survivor:
        return False
    own = set(top_alternatives(survivor))
    added = [part[3:-1] if part.startswith("(?:") else part for part in top_alternatives(pattern)[1:]]
    return any(alternative in own for part in added for alternative in top_alternatives(part))


def judge(name: str, jobs: list[Job], patterns: list[str | None]) -> None:
    from entrykit.regex.inclusion import missed_text

    lengths = sorted(len(p or "") for p in patterns)
    repeats = sum(_repeats(str(a["regex"]), p) for (a, _, _, _), p in zip(jobs, patterns, strict=True) if p)
    lost = []
    for (_, absorbed, flags, mode), pattern in zip(jobs, patterns, strict=True):
        regex = absorbed.get("regex")
        if not isinstance(regex, str) or pattern is None:
            continue
        text = missed_text(regex, [pattern], flags, mode)
        if text is not None and re.search(regex, text, flags) and not re.search(pattern, text, flags):
            lost.append((regex, pattern, text))
    print(
        f"  {name}: {len(patterns)} merges; {repeats} repeat a survivor's alternative; merged length median "
        f"{lengths[len(lengths) // 2]}, total {sum(lengths):,}; {len(lost)} lose a text the absorbed regex finds"
    )
    for regex, pattern, text in lost[:3]:
        print(f"      {text!r}: found by {regex!r}, not by {pattern!r}")


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        _work(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--canons", type=Path, default=CANONS, help="the deadends.dev canons folder")
    parser.add_argument("--generated", type=int, default=800, help="generated pairs (0: none)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--before", type=Path, help="a checkout of the entrykit to compare with")
    args = parser.parse_args()
    versions = {"before": args.before.resolve()} if args.before else {}
    versions["this checkout"] = REPO
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        sets: list[tuple[str, list[Job]]] = []
        if args.canons.is_dir():
            sets.append((f"deadends.dev pairs of `entrykit dupes`, both ways ({args.canons})", real_jobs(args.canons, work)))
        else:
            print(f"skipped the real pairs: {args.canons} is not present")
        if args.generated:
            sets.append((f"{args.generated} generated pairs, seed {args.seed}", generated_jobs(args.generated, args.seed)))
        for title, jobs in sets:
            print(title)
            for name, source in versions.items():
                judge(name, jobs, merged(jobs, source, work))


if __name__ == "__main__":
    main()
