"""Fuzz the loader, the rules and `merge` at scale, under a per-case watchdog.

    python fuzz/run.py --cases 100000            # split evenly over the four targets
    python fuzz/run.py --cases 2000 --targets merge --bound 5
    python fuzz/run.py --cases 100000 --atheris 600   # plus a coverage-guided loader run

The targets and their inputs are those of `tests/test_fuzz.py` (`tests/fuzzing.py`),
drawn by hypothesis without shrinking. Each target runs in a child process that
publishes, in a small shared file, the case it is on and when it started; this
process watches it, and a case that runs longer than `--bound` seconds is a hang:
the child (with any regex worker it started) is killed, the hang and the case are
recorded, and a new child goes on with the remaining cases. Exceptions are caught
per case and counted as tracebacks (the first few printed in full). One child
runs at a time. `--atheris` adds a libFuzzer run of the loader over raw bytes
when the `atheris` package is importable (it is no dependency of entrykit).

Prints cases run per target, outcomes, tracebacks, hangs and the slowest case.
"""

from __future__ import annotations

import argparse
import collections
import json
import mmap
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
HEADER = struct.Struct("<qqqq")  # cases done, tracebacks, slowest case (ns), start of the current case (ns; 0: idle)
SLOT = 2048  # bytes of a case's repr kept: the current case, then the slowest
STATE_SIZE = HEADER.size + 2 * SLOT
SHOWN_TRACEBACKS = 3


# -- the child: one target, cases until done ---------------------------------------------


def _put(state: mmap.mmap, offset: int, text: str) -> None:
    data = text.encode("utf-8", errors="backslashreplace")[: SLOT - 4]
    state[offset : offset + 4 + len(data)] = struct.pack("<i", len(data)) + data


def _get(state: mmap.mmap, offset: int) -> str:
    (size,) = struct.unpack("<i", state[offset : offset + 4])
    return state[offset + 4 : offset + 4 + max(size, 0)].decode("utf-8", errors="replace")


def worker(target: str, cases: int, seed: int, state_path: Path, log_path: Path) -> None:
    sys.path.insert(0, str(REPO))
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    from tests.fuzzing import TARGETS

    function: Callable[[Any], Any]
    if target == "watchdog-check":  # hangs on its third case: shows the watchdog at work
        from hypothesis import strategies as st

        calls = []

        def watched(case: Any) -> str:
            calls.append(case)
            if len(calls) == 3:
                time.sleep(3600)
            return "ok"

        function, strategy = watched, st.integers()
    else:
        function, strategy = TARGETS[target]
    with open(state_path, "r+b") as handle:
        state = mmap.mmap(handle.fileno(), STATE_SIZE)
    done, failed, slowest = HEADER.unpack(state[: HEADER.size])[:3]
    outcomes: collections.Counter[str] = collections.Counter()
    fresh: list[int] = []

    def publish(start: int) -> None:
        state[: HEADER.size] = HEADER.pack(done, failed, slowest, start)

    @hypothesis_seed(seed)
    @settings(
        max_examples=cases, database=None, deadline=None, phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def run(case: Any) -> None:
        nonlocal done, failed, slowest
        shown = repr(case)
        _put(state, HEADER.size, shown)
        start = time.monotonic_ns()
        publish(start)
        try:
            outcome = function(case)
        except Exception as exc:  # noqa: BLE001 - every exception is a finding to count
            failed += 1
            outcome = f"traceback: {type(exc).__name__}"
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps({"target": target, "case": shown[:SLOT], "traceback": traceback.format_exc()}) + "\n")
        took = time.monotonic_ns() - start
        done += 1
        fresh.append(took)
        if len(fresh) > 1 and took > slowest:  # a child's first case also pays for start-up (imports, regex worker)
            slowest = took
            _put(state, HEADER.size + SLOT, shown)
        outcomes[re.sub(r"^\d+ ", "", outcome)] += 1
        publish(0)
        if done % 500 == 0:
            _save_outcomes(log_path, target, outcomes)

    run()
    _save_outcomes(log_path, target, outcomes)


def _save_outcomes(log_path: Path, target: str, outcomes: collections.Counter[str]) -> None:
    Path(f"{log_path}.{target}.{os.getpid()}.outcomes").write_text(json.dumps(outcomes), encoding="utf-8")


# -- the watchdog --------------------------------------------------------------------------


def watch(target: str, cases: int, bound: float, seed: int, folder: Path) -> dict[str, Any]:
    state_path, log_path = folder / f"{target}.state", folder / "tracebacks.jsonl"
    state_path.write_bytes(b"\0" * STATE_SIZE)
    hangs: list[str] = []
    started = time.monotonic()
    attempt = 0
    with open(state_path, "r+b") as handle:
        state = mmap.mmap(handle.fileno(), STATE_SIZE)
        while True:
            done = HEADER.unpack(state[: HEADER.size])[0]
            remaining = cases - done - len(hangs)
            if remaining <= 0:
                break
            command = [sys.executable, __file__, "--worker", target, "--cases", str(remaining),
                       "--seed", str(seed + attempt), "--state", str(state_path), "--log", str(log_path)]
            attempt += 1
            child = subprocess.Popen(command, start_new_session=True)
            while child.poll() is None:
                time.sleep(0.05)
                begun = HEADER.unpack(state[: HEADER.size])[3]
                if begun and (time.monotonic_ns() - begun) / 1e9 > bound:
                    hangs.append(_get(state, HEADER.size))
                    os.killpg(child.pid, signal.SIGKILL)  # the child and any regex worker it started
                    child.wait()
                    done, failed, slowest, _ = HEADER.unpack(state[: HEADER.size])
                    state[: HEADER.size] = HEADER.pack(done, failed, slowest, 0)
                    break
            else:
                if child.returncode != 0:
                    raise SystemExit(f"{target}: the fuzz worker failed (exit {child.returncode})")
                if HEADER.unpack(state[: HEADER.size])[0] + len(hangs) < cases:
                    break  # hypothesis ran out of distinct inputs: what was run is reported
        done, failed, slowest, _ = HEADER.unpack(state[: HEADER.size])
        slowest_case = _get(state, HEADER.size + SLOT)
    outcomes: collections.Counter[str] = collections.Counter()
    for path in folder.glob(f"tracebacks.jsonl.{target}.*.outcomes"):
        outcomes.update(json.loads(path.read_text(encoding="utf-8")))
    return {
        "target": target, "cases": done + len(hangs), "tracebacks": failed, "hangs": len(hangs),
        "hang_cases": hangs, "slowest_s": slowest / 1e9, "slowest_case": slowest_case,
        "seconds": time.monotonic() - started, "outcomes": dict(outcomes.most_common(6)),
    }


# -- atheris (optional): coverage-guided, over the loader ----------------------------------


def atheris_worker(argv: list[str]) -> None:
    import atheris

    sys.path.insert(0, str(REPO))
    with atheris.instrument_imports(include=["entrykit"]):
        from tests.fuzzing import load_and_lint

    def one(data: bytes) -> None:
        load_and_lint(data[1:], ".json" if data[:1] == b"j" else ".yaml")

    atheris.Setup([sys.argv[0], *argv], one)
    atheris.Fuzz()


def run_atheris(seconds: int, bound: float, folder: Path) -> dict[str, Any]:
    corpus = folder / "atheris-corpus"
    corpus.mkdir(exist_ok=True)
    for index, sample in enumerate(sorted((REPO / "tests" / "fixtures" / "seed001").rglob("*.*"))):
        (corpus / f"seed{index}").write_bytes((b"j" if sample.suffix == ".json" else b"y") + sample.read_bytes())
    command = [sys.executable, __file__, "--atheris-worker", f"-max_total_time={seconds}",
               f"-timeout={max(1, int(bound))}", "-rss_limit_mb=4096", f"-artifact_prefix={folder}/", str(corpus)]
    proc = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=seconds + 600)
    output = proc.stderr + proc.stdout
    runs = re.findall(r"Done (\d+) runs", output) or re.findall(r"#(\d+)\s", output)
    return {
        "target": "loader-bytes (atheris)", "cases": int(runs[-1]) if runs else 0,
        "tracebacks": int("Uncaught Python exception" in output), "hangs": int("ALARM: working on the last Unit" in output),
        "exit": proc.returncode, "tail": output.strip().splitlines()[-3:],
    }


# -- main ----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=100_000, help="Total cases, split evenly over the targets.")
    parser.add_argument(
        "--targets", nargs="*",
        help="Some of: loader-bytes loader-text rules merge (watchdog-check: a target that hangs once).",
    )
    parser.add_argument("--bound", type=float, default=10.0, help="Seconds after which a case is a hang.")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--atheris", type=int, default=0, metavar="SECONDS", help="Also run atheris over the loader.")
    parser.add_argument("--json", type=Path, help="Also write the figures here.")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--state", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--log", type=Path, help=argparse.SUPPRESS)
    if sys.argv[1:2] == ["--atheris-worker"]:
        atheris_worker(sys.argv[2:])
        return
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.cases, args.seed, args.state, args.log)
        return
    sys.path.insert(0, str(REPO))
    from tests.fuzzing import TARGETS

    targets = args.targets or list(TARGETS)
    share, extra = divmod(args.cases, len(targets))
    results = []
    with tempfile.TemporaryDirectory(prefix="entrykit-fuzz-") as scratch:
        folder = Path(scratch)
        for index, target in enumerate(targets):
            result = watch(target, share + (index < extra), args.bound, args.seed + 1000 * index, folder)
            results.append(result)
            print(f"{target:14} {result['cases']:>8,} cases  {result['tracebacks']} tracebacks  {result['hangs']} hangs  "
                  f"slowest {result['slowest_s']:.3f} s  ({result['seconds']:.0f} s)  {result['outcomes']}", flush=True)
        log = folder / "tracebacks.jsonl"
        found = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
        if args.atheris:
            try:
                import atheris  # noqa: F401
            except ImportError:
                print("atheris: not installed; the coverage-guided run is skipped")
            else:
                result = run_atheris(args.atheris, args.bound, folder)
                results.append(result)
                print(f"{result['target']}: {result['cases']:,} runs  {result['tracebacks']} tracebacks  "
                      f"{result['hangs']} hangs  (libFuzzer exit {result['exit']})  {result['tail'][-1:]}")
    drawn = [r for r in results if "slowest_s" in r]
    slowest = max(drawn, key=lambda r: r["slowest_s"])
    print(f"hypothesis: {sum(r['cases'] for r in drawn):,} cases, {sum(r['tracebacks'] for r in drawn)} tracebacks, "
          f"{sum(r['hangs'] for r in drawn)} hangs (bound {args.bound:g} s per case)")
    print(f"slowest case: {slowest['slowest_s']:.3f} s in {slowest['target']}: {slowest['slowest_case'][:300]}")
    for item in found[:SHOWN_TRACEBACKS]:
        print(f"\n--- {item['target']}: {item['case'][:500]}\n{item['traceback']}")
    for result in results:
        for case in result.get("hang_cases", [])[:SHOWN_TRACEBACKS]:
            print(f"\n--- hang in {result['target']}: {case[:500]}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    if any(r["tracebacks"] or r["hangs"] for r in results):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
