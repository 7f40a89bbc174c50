"""Corpus rules on a one-template corpus: findings per code and lint time as the corpus grows.

    python benchmarks/corpus_rules_scale.py [--sizes 1000,10000,25000] [--work DIR] [--jobs N]

A one-template corpus (`generate.py --one-template`) is the worst case for every
rule that looks at pairs of entries: every signature is one message with a named
value from 50 and its own numbers (so each normalised signature is shared by a
fiftieth of the corpus, and all of them are one template family), every regex
matches every signature, and every fiftieth entry is filed under one id. Rules
whose output followed the pairs would report with the square of the corpus.

For each size the script writes the corpus as JSON (deterministic, seed 1), takes
the `json.load` floor of its files (best of 3, in this process, as
benchmarks/scale.py does, before and after the lint runs), then times a cold `entrykit lint` (empty cache) and a
warm one (nothing changed), each as its own process, and counts the diagnostics
per code, per entry, and the most any one file gets of each corpus rule. It
prints the table, and the growth from the smallest size to each larger one: a
rule that grows linearly grows as the corpus does.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
from scale import floor  # noqa: E402

TODAY = "2026-11-30"
CORPUS_CODES = ("ET206", "ET209", "ET501", "ET502", "ET504")


def lint(root: Path, jobs: int | None) -> tuple[float, list[dict]]:
    command = [sys.executable, "-m", "entrykit", "lint", "--root", str(root), "--today", TODAY,
               "--format", "json", "--exit-zero", *(["--jobs", str(jobs)] if jobs else [])]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=root.parent, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"entrykit lint failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return wall, json.loads(done.stdout)


def corpus(work: Path, size: int) -> Path:
    root = work / f"one-template-{size}"
    stamp = work / f"one-template-{size}.done"
    if not (root.is_dir() and stamp.is_file()):
        shutil.rmtree(root, ignore_errors=True)
        generate.write_corpus(root, size, "json", seed=1, one_template=True)
        stamp.write_text("1")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,25000")
    parser.add_argument("--work", type=Path, default=Path("/tmp/entrykit-one-template"))
    parser.add_argument("--jobs", type=int, help="lint --jobs (default: all cores)")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    rows = []
    for size in [int(s) for s in args.sizes.split(",")]:
        root = corpus(args.work, size)
        base = floor(root)
        shutil.rmtree(root / ".entrykit_cache", ignore_errors=True)
        cold, found = lint(root, args.jobs)
        warm, again = lint(root, args.jobs)
        base = min(base, floor(root))  # the floor again: on a busy machine one reading may be off
        assert again == found, "a warm run reports what a cold one does"
        codes = Counter(d["code"] for d in found)
        worst = {code: max(Counter(d["path"] for d in found if d["code"] == code).values(), default=0) for code in CORPUS_CODES}
        rows.append((size, base, cold, warm, len(found), codes, worst))
        print(f"{size:>7,} entries: floor {base:.2f} s, cold {cold:.1f} s ({cold / base:.0f}x), "
              f"warm {warm:.1f} s ({warm / base:.0f}x), {len(found):,} diagnostics", flush=True)
    print()
    head = f"{'entries':>8} {'floor s':>8} {'cold s':>8} {'cold/floor':>10} {'warm s':>7} {'warm/floor':>10} {'diagnostics':>11}"
    print(head + "".join(f" {code:>8}" for code in CORPUS_CODES) + "   most per file " + " ".join(CORPUS_CODES))
    for size, base, cold, warm, total, codes, worst in rows:
        print(f"{size:>8,} {base:8.2f} {cold:8.1f} {cold / base:10.1f} {warm:7.1f} {warm / base:10.1f} {total:>11,}"
              + "".join(f" {codes.get(code, 0):>8,}" for code in CORPUS_CODES)
              + "   " + " ".join(f"{worst[code]:>5}" for code in CORPUS_CODES))
    first = rows[0]
    for size, _base, cold, warm, total, codes, _ in rows[1:]:
        grow = size / first[0]
        per_code = ", ".join(
            f"{code} {codes.get(code, 0) / max(1, first[5].get(code, 0)):.1f}x" for code in CORPUS_CODES if first[5].get(code)
        )
        print(f"{size:,} / {first[0]:,} ({grow:g}x the entries): diagnostics {total / first[4]:.1f}x ({per_code}); "
              f"cold lint {cold / first[2]:.1f}x, warm {warm / first[3]:.1f}x")


if __name__ == "__main__":
    main()
