"""Where a cold lint's time goes, per entry, on one core, against what the <= 25x target allows.

    python benchmarks/cold_costs.py [--count 2000] [--shapes diverse,template] [--cores 2] [--work DIR]
    python benchmarks/cold_costs.py --corpus DIR [--floor JSON_DIR]

For each shape, the generated corpus of `--count` entries (benchmarks/targets.py's
`corpus`: seed 1, YAML, with its JSON twin for the floor) is linted once in this
process, cold (no cache) and on one core (`jobs=1`), its garbage collector set as
`entrykit lint` sets it (`cli.settle_memory`), with a clock around each step of
a file's check: reading the file, its digest, parsing it, its summary (and the places
of what it summarises), each fact, each entry rule, placing the findings; then each
corpus rule, and the rest of the corpus phase (placing and storing its findings).
`--corpus` measures a corpus folder instead, with the configuration that governs it
(the deadends.dev canons imported: `--floor` their JSON files), or as the folder of
entries itself when no configuration names a root there (a generated corpus).

The clocks are wall clocks, so that a step includes the regex runs it waits for in the
regex worker: run it on an otherwise idle machine. They only report: the lint is the
same, and so are its diagnostics. A step's time holds the shared work it is the first
to ask for (an entry's message-token scans are kept per text, so the first rule to
read a text pays for its scan), and the clocks themselves cost a little.

It prints, per corpus: the json.load floor per entry (measured before and after the
lint, the lower kept), and beside it what libyaml alone takes to read the YAML files
as events; what a cold lint may spend per entry on `--cores` cores kept busy to stay
within 25x the floor (25 x floor x cores); what it took on one core (the whole run per
entry); each step in microseconds per entry, largest first, with its share of the
whole; how many of the largest steps would have to cost nothing for the run to fit
(or how much less every step would have to take); and the run split in two, the rules
and facts against the pipeline around them (reading, parsing, summaries, places, the
corpus phase besides its rules), each as a multiple of the floor on `--cores` cores.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scale  # noqa: E402
import targets  # noqa: E402

from entrykit.cli import settle_memory  # noqa: E402
from entrykit.config import Config, from_table, load_config  # noqa: E402
from entrykit.diagnostic import Diagnostic  # noqa: E402
from entrykit.lint import engine, pipeline  # noqa: E402
from entrykit.targets import plan  # noqa: E402

CORPUS_PHASE = "corpus phase besides its rules"
TARGET = 25  # cold 10k <= 25x the json.load floor (benchmarks/targets.py)
TODAY = date(2026, 12, 1)


class Clocks:
    """Seconds by step, kept by the wrappers `timed` makes."""

    def __init__(self) -> None:
        self.spent: defaultdict[str, float] = defaultdict(float)

    def timed(self, name: str, func: Callable[..., Any], consume: bool = False) -> Callable[..., Any]:
        """`func` with its time added to `name` (a rule's findings taken while timed)."""
        spent, clock = self.spent, time.perf_counter

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                result = func(*args, **kwargs)
                return list(result) if consume else result
            finally:
                spent[name] += clock() - started

        return wrapper


def _nothing(*args: Any) -> tuple[()]:
    return ()


@contextmanager
def clocked(clocks: Clocks) -> Iterator[None]:
    """Clocks around the steps of a file's check and around each corpus rule, for the
    length of the block."""
    saved_init, saved_store = pipeline.Checker.__init__, pipeline.Checker._store
    saved_read, saved_load = pipeline.read_entry_bytes, pipeline.load
    saved_digest, saved_summary, saved_places = pipeline.content_digest, pipeline.summarize, pipeline.pack_places
    saved_corpus_rule, saved_corpus_phase = engine._run_corpus_rule, engine._corpus_findings

    def init(self: pipeline.Checker, *args: Any, **kwargs: Any) -> None:
        saved_init(self, *args, **kwargs)
        self.rules = [
            (replace(rule, func=clocks.timed(rule.code, rule.func or _nothing, consume=True)), ctx)
            for rule, ctx in self.rules
        ]
        self.all_facts = self.facts = [
            replace(fact, func=clocks.timed(f"fact {fact.name}", fact.func)) for fact in self.all_facts
        ]

    def corpus_rule(rule: Any, *args: Any, **kwargs: Any) -> Any:
        return clocks.timed(f"{rule.code} (corpus)", saved_corpus_rule)(rule, *args, **kwargs)

    pipeline.Checker.__init__ = init  # type: ignore[method-assign]
    pipeline.Checker._store = clocks.timed("placing findings", saved_store)  # type: ignore[method-assign]
    pipeline.read_entry_bytes = clocks.timed("reading files", saved_read)
    pipeline.load = clocks.timed("parsing", saved_load)
    pipeline.content_digest = clocks.timed("content digests", saved_digest)
    pipeline.summarize = clocks.timed("summaries", saved_summary)
    pipeline.pack_places = clocks.timed("summaries' places", saved_places)
    engine._run_corpus_rule = corpus_rule
    engine._corpus_findings = clocks.timed(CORPUS_PHASE, saved_corpus_phase)
    try:
        yield
    finally:
        pipeline.Checker.__init__ = saved_init  # type: ignore[method-assign]
        pipeline.Checker._store = saved_store  # type: ignore[method-assign]
        pipeline.read_entry_bytes, pipeline.load = saved_read, saved_load
        pipeline.content_digest, pipeline.summarize, pipeline.pack_places = saved_digest, saved_summary, saved_places
        engine._run_corpus_rule, engine._corpus_findings = saved_corpus_rule, saved_corpus_phase


def folder_config(root: Path) -> Config:
    """The configuration of a folder of entries that no configuration governs: defaults, `root` the corpus."""
    return from_table({"root": root.name}, root.parent)


Measured = tuple[float, dict[str, float], list[Diagnostic]]
T = TypeVar("T")


def measure(root: Path, config: Config | None = None) -> Measured:
    """One cold lint of `root` (the corpus `config` governs, when given) on one core: its
    seconds, each step's, and its diagnostics."""
    clocks = Clocks()
    config = config or folder_config(root)
    with clocked(clocks):
        started = time.perf_counter()
        found = list(engine.lint(None, config, TODAY, cwd=root.parent, jobs=1).diagnostics)
        total = time.perf_counter() - started
    spent = clocks.spent
    spent[CORPUS_PHASE] -= sum(seconds for name, seconds in spent.items() if name.endswith("(corpus)"))
    return total, spent, found


def floor_around(folder: Path, lint: Callable[[], T]) -> tuple[float, T]:
    """The json.load floor of the JSON files below `folder`, measured before and after
    `lint` runs, the lower kept (a burst of load during one measurement would make the
    floor slow and the lint look cheap beside it); and what `lint` gave."""
    before = scale.floor(folder)
    measured = lint()
    return min(before, scale.floor(folder)), measured


def yaml_events(root: Path) -> float:
    """Seconds for libyaml (through PyYAML's C parser) to read every YAML file below `root`
    as events, nothing built of them (best of 3): what any YAML-reading lint pays at least."""
    import yaml

    texts = [path.read_text(encoding="utf-8") for path in sorted(root.rglob("*.yaml"))]
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for text in texts:
            parser = yaml.CBaseLoader(text)
            try:
                while parser.get_event() is not None:
                    pass
            finally:
                parser.dispose()
        best = min(best, time.perf_counter() - started)
    return best


def report(
    shape: str, count: int, floor: float, cores: int, total: float, spent: dict[str, float], found: int, events: float
) -> None:
    per_entry = 1e6 / count
    allowed = TARGET * floor * cores * per_entry
    print(
        f"\n{shape}, {count:,} entries, {found:,} diagnostics: json.load floor {floor * per_entry:.0f} µs per entry; "
        f"{TARGET}x on {cores} cores allows {allowed:,.0f} µs of CPU per entry; "
        f"a cold lint on one core took {total * per_entry:,.0f} µs ({total * per_entry / allowed:.2f}x that)"
    )
    print(f"(libyaml's events alone: {events * per_entry:.0f} µs per entry, {events / floor:.1f}x the json.load floor)")
    print(f"{'step':<28} {'µs/entry':>9} {'share':>6}")
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        if seconds * per_entry >= 1:
            print(f"{name:<28} {seconds * per_entry:9,.0f} {seconds / total:6.1%}")
    rest = total - sum(spent.values())
    print(f"{'everything else':<28} {rest * per_entry:9,.0f} {rest / total:6.1%}")
    print(within_allowance(total * per_entry, [seconds * per_entry for seconds in spent.values()], allowed))
    rules = sum(seconds for name, seconds in spent.items() if is_rule_step(name))
    print(split_by_kind(rules * per_entry, (total - rules) * per_entry, floor * per_entry, cores))


def is_rule_step(name: str) -> bool:
    """Whether a step is a rule's or a fact's work (a rule code, or `fact <name>`), not the
    pipeline's (reading, parsing, summaries, places, the corpus phase around its rules)."""
    return name.startswith(("ET", "fact "))


def split_by_kind(rules: float, pipeline: float, floor: float, cores: int) -> str:
    """The rules' and the pipeline's µs per entry, each as a multiple of the floor on `cores`
    cores kept busy: the two parts the target's ratio is the sum of."""
    return (
        f"rules and facts {rules:,.0f} µs per entry ({rules / (floor * cores):.1f}x the floor on {cores} cores), "
        f"the pipeline without them {pipeline:,.0f} µs ({pipeline / (floor * cores):.1f}x)"
    )


def within_allowance(total: float, steps: Iterable[float], allowed: float) -> str:
    """What it would take for a lint of `total` µs per entry to fit `allowed`: how many of
    its largest `steps` would have to cost nothing, or else how much faster every step
    would have to be."""
    if total <= allowed:
        return "within what the target allows"
    left = total
    for count, step in enumerate(sorted(steps, reverse=True), start=1):
        left -= step
        if left <= allowed:
            return (
                f"to fit, its {count} largest steps would have to cost nothing "
                f"(or every step take {1 - allowed / total:.0%} less)"
            )
    return f"even with every named step free it would not fit (every step would have to take {1 - allowed / total:.0%} less)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--shapes", default="diverse,template")
    parser.add_argument("--cores", type=int, default=2, help="cores the target's runs have (this machine: 2)")
    parser.add_argument("--work", type=Path, help="where the corpora are written (default: a temporary folder)")
    parser.add_argument("--corpus", type=Path, help="measure this corpus folder instead of generated ones")
    parser.add_argument("--floor", type=Path, help="with --corpus: the JSON files of the floor (default: the corpus's)")
    args = parser.parse_args()
    # The collector as `entrykit lint` sets it (`cli.settle_memory`): at Python's default
    # thresholds, this process's collections added a fifth or more to a diverse 10k lint's time.
    settle_memory()
    if args.corpus is not None:
        corpus = args.corpus.resolve()
        config = load_config(corpus)
        if not config.root.is_dir():  # a folder of entries no configuration governs
            config = folder_config(corpus)
        count = len(plan(None, config).names)
        floor, (total, spent, found) = floor_around(args.floor or args.corpus, partial(measure, config.root, config))
        report(str(args.corpus), count, floor, args.cores, total, spent, len(found), yaml_events(config.root))
        return
    with tempfile.TemporaryDirectory(prefix="entrykit-cold-costs-") as scratch:
        work = args.work or Path(scratch)
        for shape in args.shapes.split(","):
            twin = targets.corpus(work, shape, args.count, "json")
            root = targets.corpus(work, shape, args.count, "yaml")
            floor, (total, spent, found) = floor_around(twin, partial(measure, root))
            report(shape, args.count, floor, args.cores, total, spent, len(found), yaml_events(root))


if __name__ == "__main__":
    main()
