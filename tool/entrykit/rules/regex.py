"""ET2xx: an entry's regex compiles, recognises what it should and only that, fast and portably."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from entrykit import pointer as jp
from entrykit.corpus import Corpus
from entrykit.diagnostic import Finding, Related, Severity
from entrykit.entry import Entry
from entrykit.regex.breadth import probe_texts, too_broad
from entrykit.regex.budget import TooComplex
from entrykit.regex.compiling import compile_steps
from entrykit.regex.counting import MATCH_STEPS
from entrykit.regex.literal_index import (
    MIN_LITERAL,
    UNCOVERED_LIMIT,
    Row,
    Text,
    corpus_cross_matches,
    known_regex_fact,
    regex_fact,
    required,
)
from entrykit.regex.redos import Result, analyse, reported
from entrykit.regex.runner import (
    Job,
    Outcome,
    RegexRunner,
    RegexSettings,
    Status,
    provably_fast_each,
)
from entrykit.regex.worker import COMPILE_TOO_COSTLY
from entrykit.registry import Context, Option, PerEntry, fact, rule


def _settings(ctx: Context) -> RegexSettings:
    return ctx.read("regex", RegexSettings.of)


def _flags(ctx: Context) -> int:
    return _settings(ctx).flags


def _mode(ctx: Context) -> str:
    return _settings(ctx).mode


def _runner(ctx: Context) -> RegexRunner:
    return _settings(ctx).runner()


def _pattern(entry: Entry, ctx: Context) -> str | None:
    """The entry's regex if it compiles under the configured flags (within the budget)."""
    return _compiling_of.get(entry, _settings(ctx))


def _read_compiling(entry: Entry, settings: RegexSettings) -> str | None:
    return _compiling(entry.str_field("regex"), settings)


def _compiling(pattern: str | None, settings: RegexSettings) -> str | None:
    return pattern if settings.runner().compiles(pattern, settings.flags) else None


# An entry's regex if it compiles, by the regex settings: seven rules ask in turn.
_compiling_of = PerEntry(_read_compiling)


def _own_texts(entry: Entry, field: str) -> list[tuple[int, str]]:
    return [(i, t) for i, t in enumerate(entry.list_field(field)) if isinstance(t, str)]


def _run(ctx: Context, pattern: str, texts: list[str]) -> list[Outcome]:
    settings = _settings(ctx)
    flags, mode = settings.flags, settings.mode
    return settings.runner().run([Job(pattern, flags, mode, text) for text in texts])


# Said when a regex misses a text only because lookups are case-sensitive (the default).
CASE_HINT = 'only case-insensitively; set `regex.flags = ["IGNORECASE"]` if your corpus looks errors up that way'


def _only_by_case(ctx: Context, pattern: str, text: str) -> bool:
    """True if the regex, which missed `text`, would match it were lookups case-insensitive."""
    flags = _flags(ctx)
    if flags & re.IGNORECASE:
        return False
    return _runner(ctx).run([Job(pattern, flags | re.IGNORECASE, _mode(ctx), text)])[0].matched


@rule("ET201", "regex-does-not-compile")
def regex_does_not_compile(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex is not a valid Python regular expression.

    The `regex` field is compiled with Python's `re` and the configured flags.

    ## Why is this bad?
    A regex that does not compile recognises nothing: the entry can never be
    found from a user's log, and lookup tools may crash on it.

    ## Example
    ```yaml
    regex: "RuntimeError: FSDP parameter mismatch across ranks ("
    ```

    ## Use instead
    ```yaml
    regex: "RuntimeError: FSDP parameter mismatch across ranks \\\\("
    ```
    """
    pattern = entry.str_field("regex")
    if pattern is None:
        return
    outcome = _runner(ctx).compile_check(pattern, _flags(ctx))
    if outcome.status is Status.ERROR:  # a compile that overruns the budget is ET206's
        yield Finding("/regex", f"regex does not compile: {outcome.error}")


@rule("ET202", "regex-misses-signature")
def regex_misses_signature(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex does not match the entry's own signature.

    The regex is run against `signature` with the configured flags and mode
    (`search` by default), exactly as a lookup would run it against a log. When
    it would match with `IGNORECASE`, the message says so: a corpus whose lookups
    ignore case says that once, in `regex.flags`.

    ## Why is this bad?
    If the regex misses the very message the entry is about, a user pasting that
    message is never sent to this entry.

    ## Example
    ```yaml
    signature: "RuntimeError: FSDP parameter mismatch across ranks."
    regex: "FSDP param mismatch"
    ```

    ## Use instead
    ```yaml
    signature: "RuntimeError: FSDP parameter mismatch across ranks."
    regex: "FSDP parameter mismatch across ranks"
    ```
    """
    pattern = _pattern(entry, ctx)
    signature = entry.str_field("signature")
    if pattern is None or signature is None:
        return
    outcome = _run(ctx, pattern, [signature])[0]
    if outcome.status is Status.NO_MATCH and _only_by_case(ctx, pattern, signature):
        yield Finding("/regex", f"regex matches the entry's own `signature` {CASE_HINT}")
    elif outcome.status is Status.NO_MATCH:
        yield Finding("/regex", "regex does not match the entry's own `signature`")
    elif outcome.status is Status.ERROR:
        yield Finding("/regex", f"regex raised `{outcome.error}` when run on the `signature`")


@rule("ET203", "regex-misses-example")
def regex_misses_example(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex does not match one of the entry's `examples`.

    `examples` are further real messages of the same error (other names, other
    numbers, other wording across versions); the regex must recognise each.

    ## Why is this bad?
    Users meet the variants, not only the signature; a regex that misses them
    leaves those users without an answer.

    ## Example
    ```yaml
    regex: "expected 'layer\\\\.0\\\\.weight'"
    examples:
      - "expected 'fc.weight'"
    ```

    ## Use instead
    ```yaml
    regex: "expected '[^']+'"
    examples:
      - "expected 'fc.weight'"
    ```
    """
    pattern = _pattern(entry, ctx)
    if pattern is None:
        return
    examples = _own_texts(entry, "examples")
    for (index, text), outcome in zip(examples, _run(ctx, pattern, [t for _, t in examples]), strict=True):
        if outcome.status is Status.NO_MATCH and _only_by_case(ctx, pattern, text):
            yield Finding(jp.join("examples", index), f"regex matches example {index + 1} {CASE_HINT}")
        elif outcome.status is Status.NO_MATCH:
            yield Finding(jp.join("examples", index), f"regex does not match example {index + 1}")
        elif outcome.status is Status.ERROR:
            yield Finding(jp.join("examples", index), f"regex raised `{outcome.error}` on example {index + 1}")


@rule("ET204", "regex-matches-counterexample")
def regex_matches_counterexample(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex matches one of the entry's `counterexamples`.

    `counterexamples` are messages of *other* errors that look alike; the regex
    must not match any of them.

    ## Why is this bad?
    A lookup would send users with a different error to this entry, where the
    root cause and workarounds are wrong for them.

    ## Example
    ```yaml
    regex: "mismatch"
    counterexamples:
      - "RuntimeError: size mismatch for fc.weight"
    ```

    ## Use instead
    ```yaml
    regex: "FSDP parameter mismatch across ranks"
    counterexamples:
      - "RuntimeError: size mismatch for fc.weight"
    ```
    """
    pattern = _pattern(entry, ctx)
    if pattern is None:
        return
    counters = _own_texts(entry, "counterexamples")
    for (index, _), outcome in zip(counters, _run(ctx, pattern, [t for _, t in counters]), strict=True):
        if outcome.status is Status.MATCH:
            yield Finding(
                jp.join("counterexamples", index), f"regex matches counterexample {index + 1}"
            )


@rule("ET205", "catastrophic-backtracking")
def catastrophic_backtracking(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex can take exponential or high-polynomial time on some input.

    Decided by analysis alone: no regex is run and no clock is read, so the same
    regex gets the same finding on every machine. The regex is read as CPython's
    `re` parses it (atomic groups and possessive quantifiers included), under the
    configured flags and match mode, and turned into an automaton of its positions
    that counts the ways a backtracking matcher has from one position to the next:

    - **exponential** if some part can match the same text in two different ways
      and repeat: n repetitions of that text can be split in 2^n ways (`(a+)+$`);
    - **polynomial of degree d** if d loops in a row can each match the same text:
      n repetitions can be shared out between them in about n^d ways (`.*x.*y.*z`).
      In `search` mode the matcher retries every start position, which adds one
      to the degree of an unanchored regex.

    Ambiguity only costs time when the matcher has to try every way, that is when
    the text is rejected. So each finding names a concrete attack,
    `prefix + pump * n + suffix`, whose suffix makes the regex fail: entrykit checks
    that by running the whole regex on the attack in a step-counting model of
    CPython's backtracking matcher (the same answer as `re`, counted in steps
    instead of timed). A regex that no suffix makes fail is no finding (`(a+)+`
    matches at once). The analysis of one regex is bounded in steps; a regex that
    needs more gets ET210 instead.

    Exponential findings are errors; polynomial ones of degree `regex.polynomial_degree`
    (3) or more are warnings; quadratic backtracking through a repeated group
    (`(a|ab)*c`) is info.

    ## Why is this bad?
    Lookups run the regex against users' logs, which can hold long lines. `(a+)+$`
    needs seconds for 30 characters; `(911.*tw|taiwan.*emergency|emergency.*number.*taiwan)`
    needs 11 s for a 12.8 KB line with IGNORECASE. One such entry stalls every lookup.

    ## Example
    ```yaml
    regex: "(\\\\w+\\\\s?)*$"
    ```

    ## Use instead
    ```yaml
    regex: "^[\\\\w\\\\s]*$"
    ```
    Do not nest quantifiers over parts that can match the same text, keep alternation
    branches from overlapping inside a repeat, and prefer literal text to `.*` chains
    (`emergency number taiwan` instead of `emergency.*number.*taiwan`).

    ## Options
    - `regex.polynomial_degree` (3): the degree from which polynomial findings are warnings.
    - `regex.measure` (false): also time each attack at growing sizes in the regex
      worker, add what it took to the message, and make a finding the timing does
      not confirm one level milder. This reads a clock: the output then differs
      between runs and machines.
    """
    pattern = _pattern(entry, ctx)
    if pattern is None:
        return
    settings = _settings(ctx)
    warn_degree = settings.polynomial_degree
    analysed = _backtracking(pattern, ctx)
    if isinstance(analysed, str):
        return  # too complex to analyse: ET210
    for result in analysed:
        finding = result.finding
        if not reported(finding, warn_degree):
            continue
        if finding.kind == "exponential":
            severity = Severity.ERROR
        elif finding.degree >= warn_degree:
            severity = Severity.WARNING
        else:
            severity = Severity.INFO
        measured = ""
        if result.measurement is not None:
            measured = f"; measured: {result.measurement.describe(settings.timeout_ms)}"
            if not result.measurement.confirmed:
                severity = Severity.WARNING if severity is Severity.ERROR else Severity.INFO
        if finding.kind == "exponential":
            how = f"exponentially in `{settings.mode}` mode (two ways around the loop over `{finding.where}`)"
        else:
            how = (
                f"polynomially, degree {finding.degree}, in `{settings.mode}` mode "
                f"(loops `{finding.where}` split the same text)"
            )
        yield Finding(
            "/regex",
            f"regex backtracks {how} on `{finding.attack.describe()}`{measured}",
            severity=severity,
        )


def _backtracking(pattern: str, ctx: Context) -> list[Result] | str:
    """`analyse`'s results, or why the regex is too complex to analyse; kept in the memo:
    they depend on nothing but these inputs (and the entrykit version, which the cache
    is kept per)."""
    settings = _settings(ctx)
    flags, mode = settings.flags, settings.mode
    timed = f"\0{settings.timeout_ms}" if settings.measure else ""
    key = f"ET205\0{pattern}\0{flags}\0{mode}\0{settings.polynomial_degree}{timed}"
    known = ctx.memo.get(key)
    if isinstance(known, str):
        return known
    if isinstance(known, (list, tuple)):
        try:
            return [Result.from_data(item) for item in known]
        except (TypeError, ValueError):
            pass  # not what this version stores: analyse again
    try:
        results = analyse(
            pattern, flags, mode, settings.runner() if settings.measure else None,
            confirm_from_degree=settings.polynomial_degree, measure=settings.measure,
            report_from_degree=settings.polynomial_degree,
        )
    except TooComplex as exc:
        ctx.memo.put(key, exc.reason)
        return exc.reason
    except (re.error, RecursionError):
        results = []
    ctx.memo.put(key, tuple(result.to_data() for result in results))
    return results


@rule("ET206", "regex-exceeds-time-budget", scope="corpus", cross_matches=True)
def regex_exceeds_time_budget(corpus: Corpus, ctx: Context) -> Iterator[Finding]:
    """Regex needs more than the step budget to match a text entrykit checked it against.

    Every regex entrykit runs (on the entry's own `signature`, `examples` and
    `counterexamples`, on other entries' signatures and examples, and on the generic
    probes) may take at most 500,000 steps of CPython's backtracking matcher on one
    text (`re` itself takes about 0.3 to 3.5 ms for that many, by the kind of step). A
    match that a bound on its steps proves to fit is run by `re`; any other is first
    counted by a model of `re`'s matcher that takes the same steps and stops at the
    budget (`regex/backtracking.py`), in the regex worker process, and only a match
    within the budget is then run by `re`, whose answer it gives. No clock decides: a
    regex is over the budget on a text on every machine under any load, or on none.
    The model also counts the work it does besides its steps (its tables of the text,
    the captures it copies, the characters it asks its classes about, the setting up
    of each attempt and lookaround), in units of about a tenth of a microsecond, and
    stops past 8 units a step: thousands of groups, lookarounds or distinct characters
    in a text make a counted match over the budget however few steps `re` would take
    (a match the bound proves fast is not counted, and never over it). Where a
    class holds items beyond U+FFFF, which `re` tries one by one, each step counts as
    one more for every 8 of them, in the count and in the bound alike, and so it does
    for every 8 capture groups (`re` saves or clears the places of every group on a
    repeated group's passes, after give-backs and at new starts). A regex the model
    cannot follow (sub-matches nested more than 64 deep) or would take long to build
    (more than 5,000 parts: nodes of its parse, literal characters compared by case
    not counted) counts as over the budget on every text no bound proves it fast on;
    so does a count that runs past a guard of 5 s of the worker's CPU time (the count
    and the match it lets `re` make take at most about 1 s), which only work the
    count does not see reaches.
    Linting goes on; the result of that one match is unknown, so ET202-ET204,
    ET208 and ET209 say nothing about it. After three texts over the budget, a regex
    is not run on the rest (of its own texts and the probes, or of the other entries'
    texts, each taken in the corpus's order), and the message counts only texts it
    ran on.

    A regex that would take longer than the time budget, `regex.timeout_ms`
    milliseconds (100 by default), just to compile is reported too, and no other
    regex rule runs it. That is decided by counting as well: one of at most 2,000
    characters whose wide class ranges span at most 65,536 code points in all and
    that counts at most 10,000 compile steps is compiled in-process; any other is
    counted in compile steps (a step and a half a character, more for each `(`, `|`,
    `[`, backslash and repeat, and a step per 25 code points of each class range, per
    6 under IGNORECASE, plus 20 or 120 a range, plus 30 for a class reaching beyond
    the first 256 code points, alternatives of one character included, 250 where its
    characters as `re` reads them (lowered under IGNORECASE, with the cases `re`
    adds) and its ranges form three runs or more, for which `re` builds bitmaps; a
    pattern nested too deep for entrykit to read counts each class as the widest:
    each step about a microsecond of CPython's compiler or more,
    `benchmarks/compile_steps.py`). One that counts more than the budget's
    microseconds (100,000 for 100 ms; 70,000 characters of plain text count 105,000)
    is reported without being compiled; one that counts fewer is compiled in the
    regex worker process, under ten times the budget of its CPU time: a guard, not
    a verdict.

    ## Why is this bad?
    If entrykit needs more than the budget on a short, ordinary message, a lookup
    service will too, on every log line that looks like it.

    ## Example
    ```yaml
    signature: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"
    regex: "(a+)+$"
    ```

    ## Use instead
    ```yaml
    signature: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"
    regex: "a+!$"
    ```
    ET205 usually names the construct to fix and an attack string.
    """
    settings = _settings(ctx)
    runner = settings.runner()
    flags, mode = settings.flags, settings.mode
    cross, _ = corpus_cross_matches(corpus.entries, flags, mode, runner, corpus.memo, corpus.focus)
    budget = runner.budget * 1000
    for number, entry in corpus.focused():
        if not _compiles(entry, flags, runner):
            raw = entry.str_field("regex")
            if raw is None:
                continue
            checked = runner.compile_check(raw, flags)
            if checked.error == COMPILE_TOO_COSTLY:
                steps = compile_steps(raw, flags, runner.compile_steps_limit)
                yield Finding(
                    "/regex",
                    f"compiling the regex would take longer than the {budget:g} ms time budget: it counts "
                    f"{steps:,} compile steps, more than the {runner.compile_steps_limit:,} compiled under it",
                    path=entry.path,
                )
            elif checked.timed_out:
                yield Finding(
                    "/regex", f"compiling the regex took longer than the {budget:g} ms time budget", path=entry.path
                )
            continue
        slow = list(_slow_own_texts(entry, ctx, settings))
        others = cross.timeouts.get(number, [])
        slow += [f"a text of `{_name(corpus.entries[t.owner])}`" for t in others]
        if slow:
            more = f" and {len(slow) - 1} more" if len(slow) > 1 else ""
            yield Finding(
                "/regex",
                f"regex needs more than the budget of {MATCH_STEPS:,} matching steps on {slow[0]}{more}",
                path=entry.path,
            )


@fact("regex", rules=("ET206", "ET209", "ET502"))
def _regex_fact(entry: Entry, ctx: Context) -> object:
    settings = _settings(ctx)
    regex_fact(entry, settings.flags, settings.runner())
    return entry.facts["regex"]


@fact("own-timeouts", rules=("ET206",))
def own_timeouts(entry: Entry, ctx: Context) -> tuple[int, str, int, tuple[str, ...]]:
    """The entry's own texts (and the generic probes) its regex ran past the budget on."""
    settings = _settings(ctx)
    flags, mode = settings.flags, settings.mode
    slow: tuple[str, ...] = ()
    runner = settings.runner()
    pattern = entry.str_field("regex")
    if pattern is not None and regex_fact(entry, flags, runner)[0]:
        own: list[tuple[str, str]] = []
        signature = entry.str_field("signature")
        if signature is not None:
            own.append(("the `signature`", signature))
        own += [(f"example {i + 1}", t) for i, t in _own_texts(entry, "examples")]
        own += [(f"counterexample {i + 1}", t) for i, t in _own_texts(entry, "counterexamples")]
        # (a probe the regex provably runs on within the budget cannot time out: no need to
        # run it here; ET208 runs those that may match)
        probes = probe_texts()
        own += [
            (f"the generic probe `{probe}`", probe)
            for probe, fast in zip(probes, provably_fast_each(pattern, flags, mode, probes), strict=True)
            if not fast
        ]
        outcomes = runner.run([Job(pattern, flags, mode, text) for _, text in own])
        slow = tuple(name for (name, _), outcome in zip(own, outcomes, strict=True) if outcome.over_budget)
    return (flags, mode, settings.timeout_ms, slow)


def _compiles(entry: Entry, flags: int, runner: RegexRunner) -> bool:
    """`regex_fact(entry, flags, runner)[0]`, without making a known fact's cover a set."""
    known = known_regex_fact(entry, flags)
    return bool(known[1]) if known is not None else regex_fact(entry, flags, runner)[0]


def _slow_own_texts(entry: Entry, ctx: Context, settings: RegexSettings) -> Sequence[str]:
    """The names of the entry's own texts its regex ran past the budget on (`settings`: `ctx`'s)."""
    known = entry.facts.get("own-timeouts")
    if not (isinstance(known, (list, tuple)) and len(known) == 4 and tuple(known[:3]) == (settings.flags, settings.mode, settings.timeout_ms)):
        known = entry.facts["own-timeouts"] = own_timeouts(entry, ctx)
    return known[3]


@rule("ET207", "regex-not-portable")
def regex_not_portable(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex does not compile, or means something else, in an engine named in `regex.portable_to`.

    Off until `regex.portable_to` names engines: `re2` (Go and RE2-based services,
    checked with the google-re2 package) and `ecmascript` (JavaScript, checked with
    the QuickJS engine of the quickjs package). The regex is compiled by the real engine with the
    configured flags, run by it on the entry's `signature`, `examples` and
    `counterexamples` (it must agree with Python on each), and checked for
    constructs whose meaning differs even where they compile: `\\d`, `\\w`, `\\s`, `\\b`
    are Unicode-aware in Python only, `$` and `\\Z` differ at a trailing newline, and
    inline flags are not understood everywhere.

    QuickJS cannot count its steps, so it runs in a worker process under
    `regex.timeout_ms` of that process's CPU time per text. The texts are those `re`
    matches within its step budget (ET206: a few milliseconds at most), so the budget
    is a wide margin; still, a regex that QuickJS backtracks on far more than `re`
    does is reported as running past it by a clock, the one finding a clock decides
    (like `regex.measure`, only when asked for).

    ## Why is this bad?
    Clients written in Go or JavaScript run the same regexes. One that does not
    compile there breaks their lookup; one that means something else sends their
    users to the wrong entry, or to none.

    ## Example
    ```yaml
    regex: "(?P<module>\\\\w+) has no attribute"
    ```

    ## Use instead
    ```yaml
    regex: "([A-Za-z0-9_]+) has no attribute"
    ```
    """
    engines = list(ctx.section("regex").get("portable_to", []))
    pattern = _pattern(entry, ctx)
    if not engines or pattern is None:
        return
    from entrykit.regex.portability import check_portable

    texts = [t for t in [entry.str_field("signature")] if t is not None]
    texts += [t for _, t in _own_texts(entry, "examples")] + [t for _, t in _own_texts(entry, "counterexamples")]
    expected = _run(ctx, pattern, texts)
    known = [(t, o.matched) for t, o in zip(texts, expected, strict=True) if o.status in (Status.MATCH, Status.NO_MATCH)]
    for engine in engines:
        problem = check_portable(pattern, _flags(ctx), _mode(ctx), engine, known, _runner(ctx).budget)
        if problem is not None:
            yield Finding("/regex", problem)


@rule(
    "ET208",
    "regex-too-broad",
    options={"min_literal": Option(3, "Least literal text a match must contain, in Latin letters' worth.", kind=int)},
)
def regex_too_broad(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex is so broad that it matches messages of other errors.

    The regex is too broad if it

    - matches the empty string (then it matches every message);
    - matches one of entrykit's built-in generic messages (`Error`, `error: failed`,
      `Exception`, `Traceback (most recent call last):`, `Segmentation fault`, ...
      kept in `entrykit/data/generic_probes.txt`);
    - lets a match go, in some alternation branch, without literal text worth
      `min_literal` Latin letters. Text is weighed by what it tells, so that one
      threshold is fair across writing systems: a Latin, Cyrillic or Greek letter
      weighs 1, a digit 0.7, punctuation 0.5, a space 0.25, a kana 1.3, a Hangul
      syllable 2.4 and a CJK ideograph 2.5 (about a short word: `日本.*銀行` is
      specific, `6.4` and `hk.*t8` are not). Literals that `.*` keeps apart do not
      add up: each may occur anywhere in a long log;
    - matches a real message of another error: entrykit ships about 150 messages
      printed by Python, Node.js, Java, Rust, Go, C compilers and linkers, git,
      docker, kubectl, cloud CLIs, databases and web APIs
      (`entrykit/data/probe_messages.json`, each with the command that printed it or
      where it is documented). A message counts as the entry's own error when the
      entry's `signature` or one of its `examples` holds the text that tells that
      error apart (its key, such as `KeyError` or `UPDATE_ROLLBACK_COMPLETE`). Whether
      a message is another error rests on that key, so these findings are warnings;
      the others are errors.

    ## Why is this bad?
    A lookup with a generic message, or with the message of another tool's error,
    would list this entry; a user who pasted a real error is sent to the wrong root
    cause. `ld.*error` matches cargo's `could not compile ... due to 1 previous error`;
    `ERROR StatusLogger` matches every Log4j 2 status error, not just the missing
    configuration file.

    ## Example
    ```yaml
    signature: "ZeroDivisionError: division by zero"
    regex: "Error.*?zero"
    ```

    ## Use instead
    ```yaml
    signature: "ZeroDivisionError: division by zero"
    regex: "ZeroDivisionError: division by zero"
    ```
    If the other message is this entry's error too, add it to `examples`.

    ## Options
    - `min_literal` (default 3): least literal text a match must contain, in Latin
      letters' worth.
    """
    pattern = _pattern(entry, ctx)
    if pattern is None:
        return
    own = [text for text in [entry.str_field("signature")] if text is not None]
    own += [text for _, text in _own_texts(entry, "examples")]
    minimum = int(ctx.options.get("min_literal", 3))
    settings = _settings(ctx)
    broad = too_broad(pattern, settings.flags, settings.mode, settings.runner(), minimum, own)
    if broad is not None:
        severity = Severity.WARNING if broad.by_probe_message else None
        yield Finding("/regex", f"regex `{pattern}` {broad.reason}", severity=severity)


def _name(entry: Entry) -> str:
    return entry.id or entry.path


# A regex matching more entries than this is shown with the most telling among the first of them.
TELLING_AMONG = 64


class _Labels(dict[int, tuple[str, str]]):
    """Entry number -> (domain, name), each worked out when first asked: a regex of a
    large corpus of one template is sorted against 64 others, the same ones each time."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        super().__init__()
        self.entries = entries

    def __missing__(self, number: int) -> tuple[str, str]:
        entry = self.entries[number]
        ident = entry.id  # (`_name` would read it again)
        label = self[number] = ((ident or "").split("/", 1)[0], ident or entry.path)
        return label


def _most_telling(labels: _Labels, matched: dict[int, Row], number: int, owners: Iterable[int]) -> list[int]:
    """The entries regex `number` also matches, most telling first: those whose regex matches
    back (a lookup truly cannot tell them apart), then those of other domains, then by id;
    entries alike in all three stay in the order given."""
    domain = labels[number][0]
    keyed: list[tuple[bool, bool, str, int, int]] = []
    for place, owner in enumerate(owners):
        other_domain, name = labels[owner]
        back = matched.get(owner)
        keyed.append((back is None or not back.matches_owner(number), other_domain == domain, name, place, owner))
    keyed.sort()  # (`place` keeps equals in order: a stable sort by the first three)
    return [key[4] for key in keyed]


class _Telling:
    """`_most_telling` of the regexes written alike that share one window of first texts
    (`Row.shared_first_texts`), worked out once per answer it can have: a regex's order
    depends on the window, its own domain, and which of the window's entries' rows match
    its entry, and those rows are few distinct ones (one template's: one)."""

    def __init__(self, labels: _Labels, matched: dict[int, Row]) -> None:
        self.labels = labels
        self.matched = matched
        # id(window) -> the distinct `Row.all_owners` of its entries' rows (the windows are
        # held by the cross-matches for as long as this lives, so their ids stay theirs)
        self._backs: dict[int, list[dict[int, int]]] = {}
        self._orders: dict[tuple[int, str, tuple[bool, ...]], list[int]] = {}
        self._such_as: dict[int, tuple[str, tuple[Related, ...]]] = {}  # id(order) -> its `such_as`

    def order(self, number: int, window: dict[int, Text]) -> list[int]:
        """`_most_telling(labels, matched, number, window)`, for `number` not in `window`
        (not to be changed: regexes with the same answer share it)."""
        backs = self._backs.get(id(window))
        if backs is None:
            backs = self._backs[id(window)] = self._distinct_backs(window)
        key = (id(window), self.labels[number][0], tuple(number in owners for owners in backs))
        order = self._orders.get(key)
        if order is None:
            order = self._orders[key] = _most_telling(self.labels, self.matched, number, window)
        return order

    def such_as(self, order: list[int], window: dict[int, Text], limit: int) -> tuple[str, tuple[Related, ...]]:
        """`_such_as` of the first `limit` entries of `order` (an answer of `order(..., window)`),
        worked out once per answer."""
        found = self._such_as.get(id(order))
        if found is None:
            found = self._such_as[id(order)] = _such_as(self.labels.entries, order[:limit], window)
        return found

    def _distinct_backs(self, window: dict[int, Text]) -> list[dict[int, int]]:
        """The distinct owners maps of the rows of the window's entries (by identity)."""
        distinct: dict[int, dict[int, int]] = {}
        for owner in window:
            row = self.matched.get(owner)
            if row is not None:
                owners = row.all_owners()
                distinct.setdefault(id(owners), owners)
        return list(distinct.values())


def _such_as(entries: Sequence[Entry], shown: Sequence[int], first: dict[int, Text]) -> tuple[str, tuple[Related, ...]]:
    """The names of the `shown` entries for ET209's summary, and where it points."""
    names = ", ".join(f"`{_name(entries[o])}`" for o in shown)
    return names, tuple(Related(entries[o].path, first[o].pointer) for o in shown)


def _what(text: Text) -> str:
    if text.pointer == "/signature":
        return "the signature"
    return f"example {int(text.pointer.rsplit('/', 1)[1]) + 1}"


@rule(
    "ET209",
    "ambiguous-lookup",
    scope="corpus",
    cross_matches=True,
    options={
        "max_pairs": Option(
            5, "Up to this many other entries, one diagnostic per pair; beyond, one summary.", kind=int
        )
    },
)
def ambiguous_lookup(corpus: Corpus, ctx: Context) -> Iterator[Finding]:
    """Regex also matches another entry's signature or one of its examples.

    Each entry's regex is checked against every other entry's `signature` and
    `examples` with the configured flags and mode. To stay fast on large corpora
    the literals every match must contain are extracted from each regex (case-folded
    as `re` folds them under IGNORECASE) and found in all texts at once with one
    Aho-Corasick automaton; the real regex then runs only where its literals occur.
    The result is exactly what trying every regex on every text gives.

    ## Why is this bad?
    A lookup that finds two entries for one message cannot say which applies; the
    user gets two root causes, or the wrong one first.

    ## Example
    ```yaml
    # entries/pytorch/cuda-oom.yaml
    regex: "CUDA out of memory"
    ---
    # entries/pytorch/cuda-oom-fragmentation.yaml
    signature: "torch.OutOfMemoryError: CUDA out of memory. reserved but unallocated memory is large"
    ```

    ## Use instead
    Make the broader regex exclude the narrower case, merge the entries, or, where
    the narrower entry refines the broader one, link them in `transition_graph`.

    ## Options
    - `max_pairs` (default 5): up to this many other entries, one diagnostic per
      pair, each pointing at the other entry; beyond, one diagnostic with the count
      that points at the `max_pairs` most telling ones (entries whose regex matches
      back first, then entries of other domains; for a regex that matches more than
      64 other entries, the most telling of the first 64 in corpus order).

    A regex that lets a match go without a literal of two characters or more (in some
    alternation branch: `[A-Z]{3}\\d{5}`, `\\d+\\.\\d+`) has to run on every text
    of the corpus. Only the first 16 such regexes (by their files' paths; regexes written
    alike count once) do; each of the others gets a warning that it was not checked, so that
    a corpus with many of them is not checked in time that grows with its square. ET208
    reports such a regex as too broad.
    """
    runner = _runner(ctx)
    cross, _ = corpus_cross_matches(corpus.entries, _flags(ctx), _mode(ctx), runner, corpus.memo, corpus.focus)
    for number in sorted(cross.unchecked):
        if corpus.wanted(number):
            yield Finding(
                "/regex",
                f"regex was not checked against other entries: entrykit finds no literal text of "
                f"{MIN_LITERAL} characters or more that a match needs, and runs only the first "
                f"{UNCOVERED_LIMIT} such regexes of a corpus on every other entry's texts",
                path=corpus.entries[number].path,
                severity=Severity.WARNING,
            )
    limit = max(1, int(ctx.options.get("max_pairs", 5)))
    among = max(TELLING_AMONG, limit)
    labels = _Labels(corpus.entries)
    telling = _Telling(labels, cross.pairs)
    for number, texts in sorted(cross.pairs.items()):
        if not corpus.wanted(number):
            continue  # only the pairs involving the focus are known: other findings would be partial
        entry = corpus.entries[number]
        # the first `among` + 1 entries only: the rest only counts, so that the output and the
        # work stay linear in the corpus
        first = texts.shared_first_texts(among)
        shared = first is not None
        if first is not None:
            owners = telling.order(number, first)
        else:
            first = texts.first_texts(among)
            owners = _most_telling(labels, cross.pairs, number, first)
        if len(owners) <= limit:
            for owner in owners:
                other = corpus.entries[owner]
                yield Finding(
                    "/regex",
                    f"regex also matches {_what(first[owner])} of `{_name(other)}`",
                    path=entry.path,
                    related=(Related(other.path, first[owner].pointer),),
                )
            continue
        if shared:
            names, related = telling.such_as(owners, first, limit)
        else:
            names, related = _such_as(corpus.entries, owners[:limit], first)
        yield Finding(
            "/regex",
            f"regex also matches the signatures or examples of {texts.owner_count()} other entries, such as {names}",
            path=entry.path,
            related=related,
        )


@rule("ET210", "regex-too-complex")
def regex_too_complex(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex is too complex for entrykit to analyse within its step budget.

    entrykit's analyses of a regex (backtracking for ET205, the literal text every
    match needs for ET208 and the ET209 index) each run under a budget counted in
    steps, not seconds, so that a regex from a stranger's pull request cannot make
    a lint hang, and so that the same regex gets the same verdict on any machine.
    A regex that needs more than the budget (the backtracking analysis gets
    1,000,000 steps, the literal analysis 500,000; the 1,739 regexes of deadends.dev
    need at most 26,034 and 1,213), whose parentheses nest more than 64 deep, or
    that is longer than 100,000 characters (not read at all: some shapes that long
    take seconds to read), gets this finding instead of an answer.

    ## Why is this bad?
    entrykit cannot vouch for such a regex: it may backtrack catastrophically
    (ET205 could not tell), and lookups cannot narrow down which texts it may
    match. A regex that identifies one error message is never this complex; one
    that is usually chains dozens of `.*` or ORs together hundreds of messages.

    ## Example
    ```yaml
    regex: "ERROR: frobnicate failed.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*"
    ```

    ## Use instead
    ```yaml
    regex: "ERROR: frobnicate failed"
    ```
    Keep the regex to the literal text of the message and the few parts that vary;
    split an entry whose regex ORs many different messages.
    """
    pattern = _pattern(entry, ctx)
    if pattern is None:
        return
    reasons = []
    backtracking = _backtracking(pattern, ctx)
    if isinstance(backtracking, str):
        reasons.append(f"catastrophic backtracking ({backtracking})")
    try:
        required(pattern, _flags(ctx))
    except TooComplex as exc:
        reasons.append(f"the literal text every match needs ({exc.reason})")
    except Exception:  # does not parse: ET201's business
        pass
    if reasons:
        yield Finding("/regex", f"regex is too complex to analyse for {' or for '.join(reasons)}")
