"""Compare entrykit's translation checks with translate-toolkit's on the same strings, one run.

    pip install translate-toolkit   # not a dependency of entrykit: only this script uses it
    python benchmarks/translation_checks.py [--repeat 20]

Strings: tests/fixtures/translations/correct.yaml (correct zh/ja/ko translations
of real error text) and faulty.yaml (copies from seeds 000/001, text in the wrong
language, lost names, numbers, paths and flags, each labelled with the codes
entrykit must give). translate-toolkit runs as pofilter does: `run_filters` of a
`StandardChecker` configured for the target language, on one PO unit per string.

Reported: per check, how many correct strings it flags (false positives) and how
many faulty strings of each kind it catches; then the time per string of both,
measured alternately in the same process, as a ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from entrykit.translation import translated_fields as translated
from entrykit.translation.translated_fields import Key, Pair

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "translations"
CLASSES = {"ET302": "copy", "ET304": "wrong script", "ET305": "lost token"}


def load_strings() -> tuple[list[Pair], list[tuple[Pair, set[str]]]]:
    correct = []
    for item in yaml.safe_load((FIXTURES / "correct.yaml").read_text(encoding="utf-8")):
        for loc in ("zh", "ja", "ko"):
            key = Key(f"{item['field']}_{loc}", item["field"], loc)
            correct.append(Pair(key, None, "", "", item["source"], item[loc]))
    faulty = []
    for item in yaml.safe_load((FIXTURES / "faulty.yaml").read_text(encoding="utf-8")):
        key = Key(f"{item['field']}_{item['locale']}", item["field"], item["locale"])
        faulty.append((Pair(key, None, "", "", item["source"], item["text"]), set(item["expect"])))
    return correct, faulty


def entrykit_codes(pair: Pair) -> set[str]:
    codes = set()
    if translated.is_copy(pair.source, pair.text):
        codes.add("ET302")
    if translated.missing_script(pair):
        codes.add("ET304")
    if translated.lost_tokens(pair):
        codes.add("ET305")
    return codes


def toolkit_runner() -> Callable[[Pair], set[str]]:
    from translate.filters import checks
    from translate.storage import pypo

    checkers: dict[str, Any] = {}

    def run(pair: Pair) -> set[str]:
        locale = pair.key.locale
        if locale not in checkers:
            checkers[locale] = checks.StandardChecker(checkerconfig=checks.CheckerConfig(targetlanguage=locale))
        unit = pypo.pounit(pair.source)
        unit.target = pair.text
        return set(checkers[locale].run_filters(unit))

    return run


def per_string_seconds(func: Callable[[Pair], Any], pairs: list[Pair], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for pair in pairs:
            func(pair)
    return (time.perf_counter() - start) / (repeat * len(pairs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    try:
        toolkit = toolkit_runner()
        import translate

        version = getattr(translate.__version__, "sver", "?")
    except ImportError:
        sys.exit("translate-toolkit is not installed: pip install translate-toolkit")
    correct, faulty = load_strings()
    print(f"{len(correct)} correct strings, {len(faulty)} faulty strings; translate-toolkit {version}\n")

    fp_ours = Counter(code for pair in correct for code in entrykit_codes(pair))
    fp_theirs = Counter(name for pair in correct for name in toolkit(pair))
    print("False positives on correct strings (strings flagged):")
    print(f"  entrykit          any: {sum(1 for p in correct if entrykit_codes(p))}  " + ", ".join(f"{c}: {n}" for c, n in sorted(fp_ours.items())))
    print(f"  translate-toolkit any: {sum(1 for p in correct if toolkit(p))}  " + ", ".join(f"{c}: {n}" for c, n in fp_theirs.most_common()))

    print("\nFaulty strings caught, by kind of fault:")
    for code, kind in CLASSES.items():
        group = [(p, e) for p, e in faulty if code in e]
        ours = sum(1 for p, _ in group if code in entrykit_codes(p))
        caught: Counter[str] = Counter()
        any_theirs = 0
        for pair, _ in group:
            names = toolkit(pair)
            caught.update(names)
            any_theirs += bool(names)
        detail = ", ".join(f"{n}: {c}" for n, c in caught.most_common())
        print(f"  {kind:<12} ({len(group)}): entrykit {code} {ours}/{len(group)}; translate-toolkit any check {any_theirs}/{len(group)} ({detail})")

    ours_all = sum(1 for p, e in faulty if entrykit_codes(p) == e)
    theirs_all = sum(1 for p, _ in faulty if toolkit(p))
    print(
        f"  all faulty strings: entrykit gives exactly the expected codes on {ours_all}/{len(faulty)}; "
        f"translate-toolkit flags {theirs_all}/{len(faulty)} with some check"
    )

    everything = correct + [p for p, _ in faulty]
    ours_t, theirs_t = [], []
    for _ in range(5):  # alternate, so both see the same machine state
        ours_t.append(per_string_seconds(entrykit_codes, everything, args.repeat))
        theirs_t.append(per_string_seconds(toolkit, everything, args.repeat))
    ours_m, theirs_m = statistics.median(ours_t), statistics.median(theirs_t)
    print(
        f"\nTime per string (median of 5 runs x {args.repeat} passes over {len(everything)} strings): "
        f"entrykit {ours_m * 1e6:.0f} µs, translate-toolkit {theirs_m * 1e6:.0f} µs "
        f"(translate-toolkit / entrykit = {theirs_m / ours_m:.1f}x)"
    )


if __name__ == "__main__":
    main()
