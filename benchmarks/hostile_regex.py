"""Wall time of `entrykit lint` on catastrophic regexes against long texts, one fresh process each.

    python benchmarks/hostile_regex.py [--repeat 3] [--timeout-ms 100]

Each hostile entry of `tests/hostile.py` (nested quantifiers, `(a|a)*`, `(.*a){20}`, regexes
of 100,000 characters, wide class ranges; signatures and examples of 20,000 characters) is
linted alone with `--no-cache`, beside a plain entry for the cost of starting up, then all
together. Prints each case's best wall time, the codes it got, and the time that the
test's bound in budgets (`tests/test_hostile_regex.py`, counted there, not timed) comes to:
start-up allowance + regexes x 20 budgets.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.hostile import entry_text, hostile_regex_entry, hostile_regexes  # noqa: E402
from tests.test_hostile_regex import BUDGETS_PER_REGEX  # noqa: E402

START_UP_S = 30.0  # interpreter, imports and the regex worker, on a slow shared machine


def lint(base: Path, paths: list[str], timeout_ms: int) -> tuple[float, set[str], int]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "entrykit", "lint", "--no-cache", "--format", "json", *paths],
        cwd=base, capture_output=True, text=True, timeout=900,
    )
    took = time.perf_counter() - start
    if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
        raise SystemExit(f"lint failed on {paths}: {proc.stderr}")
    return took, {d["code"] for d in json.loads(proc.stdout)}, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="Runs per case; the best is shown.")
    parser.add_argument("--timeout-ms", type=int, default=100, help="`regex.timeout_ms`: the budget of one compile, and what a budget counts as here "
                        "(a match is counted to 500,000 steps instead, about 0.1 s of the step model).")
    args = parser.parse_args()
    cases = hostile_regexes()
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        (base / "pyproject.toml").write_text(
            f'[tool.entrykit]\nroot = "entries"\n[tool.entrykit.regex]\ntimeout_ms = {args.timeout_ms}\n', encoding="utf-8"
        )
        folder = base / "entries" / "regex"
        folder.mkdir(parents=True)
        (folder / "plain.yaml").write_text(entry_text("regex/plain"), encoding="utf-8")
        for name, (regex, signature, examples) in cases.items():
            (folder / f"{name}.yaml").write_text(hostile_regex_entry(name, regex, signature, examples), encoding="utf-8")
        rows = []
        for name in ["plain", *cases]:
            runs = [lint(base, [f"entries/regex/{name}.yaml"], args.timeout_ms) for _ in range(args.repeat)]
            best = min(r[0] for r in runs)
            codes = sorted(c for c in runs[0][1] if c.startswith("ET2"))
            rows.append((name, best, codes))
            print(f"{name:24} {best:7.2f} s   {' '.join(codes)}", flush=True)
        whole = min(lint(base, [], args.timeout_ms)[0] for _ in range(args.repeat))
    start_up = rows[0][1]
    hostile = rows[1:]
    slowest = max(hostile, key=lambda row: row[1])
    bound = START_UP_S + len(cases) * BUDGETS_PER_REGEX * args.timeout_ms / 1000
    print(f"\nstart-up (plain entry): {start_up:.2f} s")
    print(f"slowest hostile case: {slowest[0]} {slowest[1]:.2f} s ({slowest[1] - start_up:.2f} s over start-up, "
          f"{(slowest[1] - start_up) / (args.timeout_ms / 1000):.1f} budgets)")
    print(f"all {len(cases)} hostile entries together: {whole:.2f} s; the test's bound in budgets comes to {bound:.1f} s")
    missing = [name for name, _, codes in hostile if not {"ET205", "ET206"} & set(codes)]
    print("every hostile entry reported by ET205 or ET206" if not missing else f"not reported: {missing}")


if __name__ == "__main__":
    main()
