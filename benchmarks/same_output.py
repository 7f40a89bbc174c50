"""Does another entrykit give the same lint output, byte for byte? Cold runs of both, each format.

    python benchmarks/same_output.py --before ../main PROJECT [PROJECT:ROOT ...] [--formats json,text]

For each PROJECT (a folder holding a configuration, linted as it is) or PROJECT:ROOT
(the folder to run in and the corpus root to pass as `--root`, for the corpora
`generate.py` writes), runs `entrykit lint --no-cache --today 2026-11-30 --exit-zero`
in every format with this checkout and with the one in `--before` (its `tool/` first
on PYTHONPATH), and prints whether the two outputs are the same bytes, with their
SHA-256 and size. Exits 1 if any differ. A speed-up that changes no finding, no
message and no place passes here on the bundled entries, the imported deadends.dev
canons and generated corpora of each shape.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TODAY = "2026-11-30"


def lint_output(source: Path, folder: Path, root: str | None, fmt: str) -> bytes:
    env = dict(os.environ, PYTHONPATH=str(source / "tool") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "entrykit", "lint", "--no-cache", "--today", TODAY, "--exit-zero", "--format", fmt]
    command += ["--root", root] if root else []
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} in {folder} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="+", help="PROJECT or PROJECT:ROOT")
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the entrykit to compare with")
    parser.add_argument("--after", type=Path, default=HERE.parent, help="the checkout measured (this one)")
    parser.add_argument("--formats", default="json,text")
    args = parser.parse_args()
    differ = 0
    for target in args.targets:
        folder, _, root = target.partition(":")
        for fmt in args.formats.split(","):
            outputs = [lint_output(source, Path(folder), root or None, fmt) for source in (args.before, args.after)]
            digests = [hashlib.sha256(out).hexdigest()[:16] for out in outputs]
            same = outputs[0] == outputs[1]
            differ += not same
            print(f"{'same' if same else 'DIFFERENT':<9} {fmt:<5} {target}: {digests[0]} ({len(outputs[0]):,} bytes)"
                  + ("" if same else f" -> {digests[1]} ({len(outputs[1]):,} bytes)"), flush=True)
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
