"""Time `entrykit lint` per entry against the naive `jsonschema.validate` loop, same files, one run.

    python benchmarks/lint_vs_naive.py [--count 1000] [--repeat 3]

Both sides run as whole processes (interpreter start-up included), alternately,
and the median of `--repeat` runs is reported with the ratio. entrykit is timed
cold (`--no-cache`: every rule runs on every file) and warm (the result cache
from the previous run, nothing changed). The naive side does
what a validator that rebuilds the schema validator per file does: for each file,
parse it and call `jsonschema.validate(instance, schema)`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import write_corpus  # noqa: E402

NAIVE = r"""
import json, sys, pathlib, yaml, jsonschema
from entrykit.schema import load_schema
schema = load_schema()
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*")):
    if path.suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
    elif path.suffix == ".yaml":
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    else:
        continue
    try:
        jsonschema.validate(data, schema, format_checker=jsonschema.FormatChecker())
    except jsonschema.ValidationError:
        pass
"""


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("yaml", "json"):
            root = Path(tmp) / fmt
            write_corpus(root, args.count, fmt)
            lint_cmd = [sys.executable, "-m", "entrykit", "lint", "--root", str(root), "--exit-zero",
                        "--format", "json"]
            cold_cmd = [*lint_cmd, "--no-cache"]
            naive_cmd = [sys.executable, "-c", NAIVE, str(root)]
            startup_cmd = [sys.executable, "-c", "import entrykit.cli"]
            timed(lint_cmd)  # fills the cache the warm runs read
            cold_t, warm_t, naive_t, start_t = [], [], [], []
            for _ in range(args.repeat):
                cold_t.append(timed(cold_cmd))
                warm_t.append(timed(lint_cmd))
                naive_t.append(timed(naive_cmd))
                start_t.append(timed(startup_cmd))
            cold_m, warm_m, naive_m, start_m = (statistics.median(t) for t in (cold_t, warm_t, naive_t, start_t))
            n = args.count
            print(f"{fmt}: {n} entries, median of {args.repeat}")
            print(f"  entrykit lint, cold (all rules):  {cold_m:7.2f} s  {cold_m / n * 1000:6.2f} ms/entry")
            print(f"  entrykit lint, warm (cache):      {warm_m:7.2f} s  {warm_m / n * 1000:6.2f} ms/entry")
            print(f"  naive jsonschema.validate:        {naive_m:7.2f} s  {naive_m / n * 1000:6.2f} ms/entry")
            print(f"  interpreter + import start-up:    {start_m:7.2f} s")
            print(f"  ratio naive / entrykit cold:      {naive_m / cold_m:7.1f}x")
            print(f"  ratio naive / entrykit warm:      {naive_m / warm_m:7.1f}x")

if __name__ == "__main__":
    main()
