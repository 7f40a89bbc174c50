"""Time `entrykit dupes` at 2.5k, 10k, 25k and 100k generated entries in one run; precision and recall.

    python benchmarks/dupes_scale.py [--sizes 2500,10000,25000,100000] [--duplicates 0.05]
        [--deadends ../shared/corpus/deadends-dev/canons]

Each size is a corpus from `generate.py` (JSON files, seed 1) with a fraction of
planted near-duplicates whose pairs the generator lists as ground truth. For
each size the script times, side by side in one run:

- detection: `dupes.find_duplicates` on the loaded entries (Python's timer, under the
  garbage collector settings the command runs with), and the candidate pairs it looked
  at per entry: a count, the same on any machine, that grows with its work;
- the command: `entrykit dupes --format json` as a whole process (start-up,
  loading every file, detection, output), with its peak memory when
  `/usr/bin/time -v` is there;

and reports the growth of detection time against the growth of the corpus
(all-pairs work grows with the square: 100x for 10x the entries; candidates per
entry are bounded by the bands times `BUCKET_LIMIT`, however large the corpus), and the
precision and recall of the reported pairs against the planted ones.

With `--deadends`, the deadends.dev canon sample is converted (benchmarks/deadends.py)
and what `dupes` finds there is summarised. With `--compare`, candidate search
alone is timed three ways on the same shingle sets at 2.5k and 25k entries:
datasketch's MinHashLSH (insert, then query every entry: how its documentation
uses it), the banding entrykit does over datasketch's MinHash signatures, and
exact all-pairs Jaccard (at 25k timed on a sample of rows and extrapolated).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import deadends  # noqa: E402
from generate import write_corpus  # noqa: E402

from entrykit.loader import discover, load  # noqa: E402
from entrykit.similarity import dupes_report  # noqa: E402
from entrykit.similarity import near_duplicates as dupes  # noqa: E402


def load_all(root: Path) -> list:
    return [e for e in (load(p, str(p)) for p in discover([root])) if not hasattr(e, "message")]


def run_command(root: Path) -> tuple[float, dict, float | None]:
    """Seconds, the JSON report and the peak RSS in MiB of one `entrykit dupes` process."""
    command = [sys.executable, "-m", "entrykit", "dupes", "--root", str(root), "--format", "json"]
    timer = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)
    prefix = [timer, "-v"] if timer else []
    start = time.perf_counter()
    done = subprocess.run(prefix + command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    return seconds, json.loads(done.stdout), int(peak.group(1)) / 1024 if peak else None


def score(report: dict, truth: Path) -> tuple[float, float, Counter]:
    planted = {frozenset((p["a"], p["b"])): p["kind"] for p in json.loads(truth.read_text())["pairs"]}
    listed = [p for c in report["clusters"] for p in c["pairs"]] + report.get("between", [])
    found = {frozenset((p["a"]["id"], p["b"]["id"])) for p in listed}
    hits = found & set(planted)
    missed = Counter(planted[k] for k in set(planted) - found)
    return len(hits) / max(1, len(found)), len(hits) / max(1, len(planted)), missed


def _slug_start(entry_id: str | None) -> str:
    """The first letters of an id's slug: entries filed as variants of one error share them."""
    return (entry_id or "").partition("/")[2][:6]


def scale(sizes: list[int], duplicates: float) -> None:
    import datasketch  # noqa: F401  (imported once before any timing)

    # Detection runs under the collector settings `entrykit dupes` runs under: with the
    # interpreter's defaults, collections walk every loaded entry again and again, a cost
    # the command does not pay and that grows with the corpus.
    from entrykit.cli import settle_memory

    settle_memory()

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            root = Path(folder) / f"corpus{size}"
            write_corpus(root, size, "json", seed=1, duplicates=duplicates)
            entries = load_all(root)
            start = time.perf_counter()
            found = dupes.find_duplicates(entries)
            detect = time.perf_counter() - start
            seconds, report, peak = run_command(root)
            precision, recall, missed = score(report, root.with_name(root.name + ".duplicates.json"))
            rows.append((size, detect, seconds, peak, len(found.pairs), found.candidates / size, precision, recall, missed))
            shutil.rmtree(root)
    print(
        f"{'entries':>8} {'detect s':>9} {'command s':>10} {'peak MiB':>9} {'pairs':>6} {'cand/entry':>10} "
        f"{'precision':>9} {'recall':>7}  missed"
    )
    for size, detect, seconds, peak, count, per_entry, precision, recall, missed in rows:
        peak_text = f"{peak:9.0f}" if peak is not None else f"{'-':>9}"
        print(
            f"{size:>8} {detect:9.2f} {seconds:10.2f} {peak_text} {count:>6} {per_entry:10.3f} "
            f"{precision:9.3f} {recall:7.3f}  {dict(missed)}"
        )
    by_size = {r[0]: r for r in rows}
    for small, large in ((2500, 25000), (10000, 100000), (25000, 100000)):
        if small in by_size and large in by_size:
            growth = by_size[large][1] / by_size[small][1]
            print(
                f"growth {large // 1000}k/{small / 1000:g}k: detection {growth:.1f}x, command "
                f"{by_size[large][2] / by_size[small][2]:.1f}x for {large / small:g}x the entries "
                f"(all pairs: {(large / small) ** 2:.0f}x)"
            )


def sample(canons: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "deadends"
        deadends.write(canons, root)
        entries = load_all(root)
        start = time.perf_counter()
        found = dupes.find_duplicates(entries)
        detect = time.perf_counter() - start
        pairs = found.pairs
        groups = dupes_report.build(found).clusters
    reasons = Counter(r.code for p in pairs for r in p.reasons)
    direct = ("same-id", "same-signature", "regex-matches-both", "same-slug", "regex-matches-other", "similar-signature")
    strongest = Counter(next((c for c in direct if c in {r.code for r in p.reasons}), "support only") for p in pairs)
    print(f"\ndeadends.dev sample: {len(entries)} entries, {len(pairs)} pairs in {len(groups)} clusters, {detect:.2f} s")
    print("  largest clusters: " + ", ".join(f"{len(c.members)} ({c.representative.id}…)" for c in groups[:5]))
    print(f"  template families: {len(found.families)}, largest {max((len(f.members) for f in found.families), default=0)}")
    print(f"  pairs by reason: {dict(reasons.most_common())}")
    print(f"  pairs by strongest reason: {dict(strongest.most_common())}")
    same = [p for p in pairs if p.reasons[0].code == "same-signature" and _slug_start(p.a.id) != _slug_start(p.b.id)]
    print(f"  same signature under unrelated slugs: {len(same)}, e.g.")
    for pair in same[:8]:
        print(f"    {pair.a.id} ~ {pair.b.id}")


def compare(sizes: list[int], threshold: float = 0.5, sample_rows: int = 300) -> None:
    from datasketch import MinHash, MinHashLSH

    print(f"{'entries':>8} {'MinHashLSH s':>13} {'banding s':>10} {'all pairs s':>12}  recall of exact pairs (LSH / banding)")
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            root = Path(folder) / f"corpus{size}"
            write_corpus(root, size, "json", seed=1, duplicates=0.05)
            sets = [dupes.entry_shingles(e) for e in load_all(root)]
            start = time.perf_counter()
            hashes = MinHash.bulk([[t.encode() for t in sorted(x)] for x in sets], num_perm=dupes.NUM_PERM)
            index = MinHashLSH(threshold=threshold, num_perm=dupes.NUM_PERM)
            with index.insertion_session() as session:
                for i, h in enumerate(hashes):
                    session.insert(i, h, check_duplication=False)
            library = {(min(i, j), max(i, j)) for i, h in enumerate(hashes) for j in index.query(h) if i != j}
            library_s = time.perf_counter() - start
            start = time.perf_counter()
            banded = set(dupes.lsh_candidates(sets, threshold))
            banded_s = time.perf_counter() - start
            rows = range(len(sets)) if size <= 5000 else range(0, len(sets), len(sets) // sample_rows)
            start = time.perf_counter()
            exact = {
                (i, j) for i in rows for j in range(i + 1, len(sets)) if dupes._jaccard(sets[i], sets[j]) >= threshold
            }
            scale_up = (len(sets) * (len(sets) - 1) / 2) / sum(len(sets) - 1 - i for i in rows)
            exact_s = (time.perf_counter() - start) * scale_up
            found_library = sum(1 for p in exact if p in library) / max(1, len(exact))
            found_banded = sum(1 for p in exact if p in banded) / max(1, len(exact))
            note = "" if size <= 5000 else f" (rows sampled, x{scale_up:.0f})"
            print(f"{size:>8} {library_s:13.2f} {banded_s:10.2f} {exact_s:12.1f}  {found_library:.3f} / {found_banded:.3f}{note}")
            shutil.rmtree(root)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2500,10000,25000,100000")
    parser.add_argument("--duplicates", type=float, default=0.05)
    parser.add_argument("--deadends", type=Path)
    parser.add_argument("--compare", action="store_true", help="time candidate search three ways instead")
    args = parser.parse_args()
    if args.compare:
        compare([2500, 25000])
        return
    scale([int(s) for s in args.sizes.split(",")], args.duplicates)
    if args.deadends:
        sample(args.deadends)


if __name__ == "__main__":
    main()
