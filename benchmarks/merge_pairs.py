"""Merge real duplicate entries of deadends.dev and check that nothing regresses.

    python benchmarks/merge_pairs.py [--canons DIR] [--keep DIR] [--prefer into|other]

Imports the canons (default `../shared/corpus/deadends-dev/canons`; skipped when absent)
into a scratch project with `entrykit import --from deadends`, then merges each pair (or
triple) below with `entrykit merge ... --prefer into`, one after the other in the same
project, and for each prints:

- `entrykit match` on every input signature and example, before and after: the inputs'
  ids before, the survivor after (nothing lost);
- texts each absorbed entry's regex finds beyond those messages (Hypothesis writes
  `WITNESSES` from each of its outermost alternatives, seeded): how many of them the merged
  regex misses, the lookups the merge would lose;
- the lint delta of the merge (findings by code and place, from the merge's JSON report),
  and `entrykit lint` on the survivor before and after;
- `entrykit fmt --check` on every file the merge wrote;
- what the report showed: conflicts settled, items grouped, rows folded, regex coverage,
  rates beyond the gap, comments, files rewritten.

Each group is a judgement (in `PAIRS`) that the entries describe the same error.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CANONS = REPO.parent / "shared" / "corpus" / "deadends-dev" / "canons"
TODAY = "2026-11-30"

# (survivor, absorbed..., why they are one error)
PAIRS: list[tuple[list[str], str]] = [
    (["pytorch/cuda-out-of-memory_pytorch2-linux", "cuda/torch-cuda-oom-new_torch2-a100"],
     "both `torch.cuda.OutOfMemoryError: CUDA out of memory`: GPU memory exhausted; same fixes (batch size, AMP, checkpointing)"),
    (["git/refusing-to-merge-unrelated_git2.40-linux", "git/refusing-to-merge-unrelated_git2.40-macos", "git/refusing-to-merge-unrelated_git2-linux"],
     "`fatal: refusing to merge unrelated histories` on Linux, macOS and older git; one cause, one fix (--allow-unrelated-histories)"),
    (["redis/auth-required_redis7-linux", "redis/noauth-required_redis7-linux"],
     "the same signature `NOAUTH Authentication required`, the same cause and fixes"),
    (["elasticsearch/index-read-only_es8-linux", "database/elasticsearch-index-read-only_es8-linux"],
     "the same ClusterBlockException FORBIDDEN/12 read-only / allow delete: disk flood-stage watermark"),
    (["git/pathspec-did-not-match_git2-linux", "git/error-pathspec-did-not-match_git2-linux", "git/pathspec-no-match_git2-linux"],
     "`error: pathspec '...' did not match any file(s) known to git` three times, placeholder names aside"),
    (["networking/cors-preflight-failed_http-linux", "api/cors-preflight-failure_rest-linux"],
     "the same signature `CORS preflight request failed`: the server rejects the OPTIONS preflight"),
    (["cmake/no-cxx-compiler-found_cmake3-linux", "cmake/compiler-not-found_cmake3-linux"],
     "the same signature `No CMAKE_CXX_COMPILER could be found`: no C++ compiler installed or on PATH"),
    (["flutter/null-check-operator-null-value_flutter3-linux", "flutter/null-check-operator-null_flutter3-linux"],
     "the same signature `Null check operator used on a null value`: `!` on a null value"),
    (["kafka/group-coordinator-unavailable_kafka3-linux", "kafka/group-coordinator-not-available_kafka3-linux"],
     "GroupCoordinatorNotAvailableException with and without its package prefix; coordinator broker unavailable"),
    (["docker/exec-format-error_docker27-linux", "docker/docker-exec-format-error_docker27-linux"],
     "`exec format error`: binary for another CPU architecture (or a script without shebang)"),
    (["rust/e0015-non-const-fn_rust1-linux", "rust/e0015-cannot-call-non-const-fn_rust1-linux"],
     "E0015 `cannot call non-const fn` in a const context, two wordings of the compiler message"),
]  # fmt: skip


WITNESSES = 20  # texts written from each outermost alternative of an absorbed regex


def witnesses(pattern: str) -> list[str]:
    """Texts `pattern` finds, `WITNESSES` written by Hypothesis from each of its outermost
    alternatives (the same texts every run: derandomized)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from entrykit.regex.syntax import top_alternatives

    texts: list[str] = []
    for branch in top_alternatives(pattern):
        try:
            compiled = re.compile(branch)
        except re.error:
            continue

        @settings(max_examples=WITNESSES, database=None, deadline=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(st.from_regex(compiled))
        def collect(text: str) -> None:
            texts.append(text)

        collect()
    whole = re.compile(pattern)
    return [text for text in dict.fromkeys(texts) if whole.search(text)]


def entrykit(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "entrykit", *args], check=False, cwd=project, capture_output=True, text=True, timeout=900
    )


def matches(project: Path, messages: list[str]) -> list[list[str]]:
    """The ids `entrykit match` finds for each message (one run, the messages as lines of a log)."""
    lines = [m.replace("\n", " ") for m in messages]
    run = subprocess.run(
        [sys.executable, "-m", "entrykit", "match", "--format", "json", "-"],
        check=False, cwd=project, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    rows = json.loads(run.stdout or "[]")
    by_line = {row["line"]: [m["id"] for m in row.get("matches", [])] for row in rows}
    return [by_line.get(number, []) for number in range(1, len(lines) + 1)]


def load(project: Path, entry_id: str) -> dict[str, Any]:
    import yaml

    domain, slug = entry_id.split("/", 1)
    return yaml.safe_load((project / "entries" / domain / f"{slug}.yaml").read_text(encoding="utf-8"))


def lint_codes(project: Path, path: str) -> list[str]:
    run = entrykit(project, "lint", "--no-cache", "--format", "json", "--today", TODAY, path)
    return sorted(f"{d['code']}@{d['line']}" for d in json.loads(run.stdout or "[]"))


def merge_group(project: Path, ids: list[str], why: str, prefer: str) -> bool:
    print(f"\n== {' + '.join(ids)}\n   judged one error: {why}")
    inputs = {i: load(project, i) for i in ids}
    messages: list[tuple[str, str]] = []
    for entry_id, data in inputs.items():
        for text in [data.get("signature"), *(data.get("examples") or [])]:
            if isinstance(text, str):
                messages.append((entry_id, text))
    before = matches(project, [m for _, m in messages])
    survivor = ids[0]
    survivor_path = f"entries/{survivor}.yaml"
    lint_before = {i: lint_codes(project, f"entries/{i}.yaml") for i in ids}
    run = entrykit(project, "merge", *ids, "--prefer", prefer, "--report", "json", "--today", TODAY)
    if run.returncode != 0:
        print(f"   merge exit {run.returncode}: {run.stderr.strip()[-400:]}")
        return False
    report = json.loads(run.stdout)
    after = matches(project, [m for _, m in messages])
    ok = True
    for (owner, message), found_before, found_after in zip(messages, before, after, strict=True):
        lost = [i for i in found_before if i in ids] and survivor not in found_after
        ok = ok and not lost
        mark = "LOST" if lost else "ok  "
        short = message if len(message) <= 70 else message[:69] + "…"
        print(f"   match {mark} {short!r} ({owner}): before {[i for i in found_before if i in ids] or '-'} -> after {'survivor' if survivor in found_after else '-'}")
    merged = re.compile(report["regex"]["pattern"]) if report.get("regex") else None
    found = [t for i in ids[1:] if isinstance(inputs[i].get("regex"), str) for t in witnesses(inputs[i]["regex"])]
    missed = [t for t in found if merged is None or not merged.search(t)]
    ok = ok and not missed
    print(f"   texts the absorbed regexes find: {len(found)}; the merged regex misses {len(missed)}"
          + (f", such as {missed[0]!r}" if missed else ""))
    new = report["lint"]["new"]
    ok = ok and not new
    shown_new = [f"{d['code']} {d['pointer']}" for d in new]
    print(f"   lint delta: {len(new)} new finding(s) {shown_new}; {len(report['lint']['gone'])} gone")
    inputs_before = sorted(code.split("@")[0] for codes in lint_before.values() for code in codes)
    after_codes = sorted(code.split("@")[0] for code in lint_codes(project, survivor_path))
    print(f"   lint: the inputs had {inputs_before}; the survivor has {after_codes}")
    written = [report["files"]["write"], *report["files"]["rewrite"]]
    fmt = entrykit(project, "fmt", "--check", *written)
    ok = ok and fmt.returncode == 0
    print(f"   fmt --check on {len(written)} file(s) written: {'clean' if fmt.returncode == 0 else fmt.stdout.strip()}")
    kinds: dict[str, int] = {}
    for conflict in report["conflicts"]:
        kinds[conflict["kind"]] = kinds.get(conflict["kind"], 0) + 1
    grouped = sum(1 for p in report["placements"] if p["merged"] and p["kind"] in ("dead end", "workaround"))
    folded = sum(1 for d in report["dropped"] if "covers its versions" in d["why"])
    gaps = [r["pointer"] for r in report["rates"] if r["beyond_gap"]]
    regex = report["regex"] or {}
    print(f"   report: conflicts {kinds or 'none'} settled by --prefer {prefer}; {grouped} item(s) merged by meaning; "
          f"{folded} version row(s) folded; {len(report['dropped'])} value(s) named as not kept")
    print(f"   regex: {regex.get('how')}; coverage lost: {len(regex.get('coverage_lost', []))}; rates beyond the gap: {gaps or 'none'}")
    print(f"   files: rewrote references in {report['files']['rewrite'] or 'none'}; comments listed: {len(report['comments']['listed'])}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--canons", type=Path, default=CANONS, help="The deadends.dev canons folder.")
    parser.add_argument("--keep", type=Path, help="Build the scratch project here (kept) instead of a temporary folder.")
    parser.add_argument("--prefer", choices=["into", "other"], default="into", help="How the merges settle conflicts.")
    args = parser.parse_args()
    if not args.canons.is_dir():
        print(f"skipped: {args.canons} is not present")
        return
    with tempfile.TemporaryDirectory() as scratch:
        project = args.keep or Path(scratch)
        project.mkdir(parents=True, exist_ok=True)
        (project / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n', encoding="utf-8")
        run = entrykit(project, "import", "--from", "deadends", "--out", "entries", str(args.canons))
        if run.returncode not in (0, 1):
            raise SystemExit(f"import failed: {run.stderr}")
        results = [merge_group(project, ids, why, args.prefer) for ids, why in PAIRS]
        print(f"\n{sum(results)} of {len(results)} merges kept every match and every text an absorbed regex finds, "
              "added no finding and left files in `fmt` layout")


if __name__ == "__main__":
    main()
