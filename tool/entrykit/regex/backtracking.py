"""A step-counting model of CPython's backtracking matcher, to run a regex without a clock.

`Model(parsed).run(text, mode, steps)` matches the way `re` does (the same match, at
the same place, on every construct `re` parses) and counts its steps: one per
instruction tried, per character a repeat scans or a backreference compares, and per
backtrack. Past `steps` it stops and says so (`Verdict.OVER_BUDGET`), at the same step
on any machine and under any load. It keeps its own stack, so no text is too long for
it, and it never runs `re` on the text.

The program follows `re`'s compiler (`sre_compile`) and matcher (`_sre`):

- a repeat of one character (`a*`, `[^x]+?`, `(?:\\d){2,}`) scans as far as it may and
  gives back one character at a time (greedy), or takes one more at a time (lazy); the
  scan, and giving back to the character that follows, are looked up in tables of the
  text made once per run, each character passed over still counted as a step;
- with an oracle that agrees with `re` (`CharOracle.exact`), the characters of a literal
  are compared at once, a repeat of `.` or `[^x]` scans to the one character it refuses,
  and giving back to a literal searches the text for its first character: every character
  compared or passed over still a step. In a program without counted iterations,
  sub-matches, backreferences or conditionals, what going on from a give-back took before
  it failed is kept for the run, and counted rather than run again;
- what a run does besides its steps (the places of its tables, the captures a sub-match or
  a fresh attempt copies, each distinct character of the text asked of each test, weighed
  by the test's size, the setting up of each attempt and sub-match), counted in units of
  about what a place of a table costs, is at most `WORK_PER_STEP` a step of its limit (and
  at least `WORK_FLOOR`): a run that needs more is over budget, so its time and memory
  stay bounded by the limit too;
- any other repeat counts its iterations and, like `_sre`, does not start another
  iteration where the last one started (zero-width match protection);
- alternatives are tried in order; groups capture and keep their last value across
  iterations; a backreference to a group that has not matched fails;
- atomic groups, possessive repeats and lookarounds run as a sub-match whose
  backtracking ends with it; a lookbehind steps back by its fixed width;
- `search` tries every start position in turn, `match` only the first, `fullmatch`
  also requires the match to end at the end of the text.

What a character node matches is asked of a `CharOracle` (by default `re` itself, on
one character at a time), so the model agrees with `re` on case folding and Unicode.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from typing import Any

from entrykit.regex import syntax
from entrykit.regex.syntax import CharNode, Seq

MAX_NESTING = 64  # atomic groups and lookarounds inside each other: each is a sub-match
# Work a run does that no step counts (the places of its tables of the text, captures
# copied for a sub-match or a fresh attempt, characters asked of its tests, the setting up
# of each attempt and sub-match, reading the text once): at most this much a step of its limit, or the floor,
# whichever is more (a small limit still reads a text's tables). A run that needs more is
# over budget, so that its time and memory stay bounded by its limit whatever the regex
# and the text.
WORK_PER_STEP = 8
WORK_FLOOR = 1_000_000
# A unit of work is about 0.1 us of CPython 3.11 on the machines entrykit is measured on, as
# a place of a table is (up to 0.3 us with characters beyond Latin-1) and a capture
# copied (less). The rest is counted in units by what it takes there: asking `re` whether
# a test accepts a character 0.5 to 0.9 us, setting up an attempt or a sub-match about
# 1.2 us. At the limit of 500,000 steps, a run's work then takes at most about 0.4 s,
# and its steps about as much again (a step is 0.2 us, up to about 1 us in sub-matches).
UNITS_PER_PLACE, UNITS_PER_ANSWER, UNITS_PER_CALL = 3, 8, 12
# Answers a model's tests keep from one run for the next (a character and a bool each):
# past this many, they are let go once the run ends. Every run counts its asking as work
# whether an answer was kept or not, so what a run costs and decides never depends on the
# runs before it, and neither does the memory a process of many runs holds.
KEPT_ANSWERS = 1 << 16


class Verdict(enum.Enum):
    MATCH = "match"
    NO_MATCH = "no match"
    OVER_BUDGET = "over budget"


@dataclass(frozen=True)
class Run:
    """What running the model gave: the verdict, the match's span, and the steps taken."""

    verdict: Verdict
    steps: int
    start: int = -1
    end: int = -1


Answers = dict[str, bool]  # a character node's answers by character


class CharOracle:
    """Says whether a character node matches a character, under the flags in force there.

    An oracle that agrees with `re` on these (`exact`) lets the model read a literal
    `Char` without IGNORECASE as its one character, `.` as every character but a newline
    (all of them under DOTALL) and `NotChar` without IGNORECASE as every character but its
    own: it then compares and searches the text for them, instead of asking each
    character's answer (the same answers, so the same steps)."""

    exact = True

    def test(self, node: CharNode, flags: int) -> Callable[[str], bool]:
        pattern = _single(syntax.char_source(node), flags & syntax.CLASS_FLAGS)
        return lambda char: pattern.fullmatch(char) is not None

    def answers(self, node: CharNode, flags: int) -> Answers:
        """The node's answers, each found (by `test`) when first asked: `answers[char]`."""
        return _Test(self.test(node, flags))

    def prepare(self, node: CharNode, flags: int) -> None:
        """Whatever making the node's answers costs its caller, without making them: for a
        literal character the model reads in a row with others, never asked on its own."""


@lru_cache(maxsize=4096)
def _single(source: str, flags: int) -> re.Pattern[str]:
    return re.compile(source, flags)


class TooDeep(Exception):
    """Sub-matches nested deeper than `MAX_NESTING`: the model does not run such a regex."""


class _OverBudget(Exception):
    pass


# Instructions are tuples; the first item is the opcode.
(
    CHAR, AT, SPLIT, JMP, SAVE, REP_INIT, REP, ONE, SUB, BACKREF, COND, MATCH, SUCCEED,
) = range(13)
_READ_AROUND = frozenset((AT, SUB, BACKREF, COND))  # what may look past one character
# Entries of the backtrack stack, by their first item.
_CHOICE, _UNDO, _GIVE_BACK, _TAKE_MORE, _MORE_ITERATIONS, _TRIED = range(6)
_STATEFUL = frozenset((REP_INIT, REP, SUB, BACKREF, COND))  # what reads more than the place it is at
_WORD = syntax.CharClass(False, (syntax.Category("\\w"),))


class _Test(dict[str, bool]):
    """A character node's answers by character, asked once per distinct character: looking
    one up (`test[char]`) costs a dict lookup, not a call."""

    __slots__ = ("ask",)

    def __init__(self, ask: Callable[[str], bool]) -> None:  # `dict.__new__` made it empty already
        self.ask = ask

    def __missing__(self, char: str) -> bool:
        known = self[char] = bool(self.ask(char))
        return known


class _Compiler:
    def __init__(self, oracle: CharOracle) -> None:
        self.oracle = oracle
        self.code: list[Any] = []  # instructions: lists while a jump in them is not known yet
        self.registers = 0
        self.reads_around = False  # an anchor, sub-match, backreference or conditional
        self.stateful = False  # a counted iteration, sub-match, backreference or conditional
        # A node's test, asked once per equal node and flags that matter to it, looked up
        # by cheap keys: `Char` nodes by code point, others by the object first (hashing a
        # class by value costs more than looking it up); the entry holds the node, so its id
        # is not reused.
        self.chars: dict[int, Answers] = {}
        self.nodes: dict[tuple[int, int], tuple[Answers, CharNode]] = {}
        self.equal: dict[tuple[CharNode, int], Answers] = {}
        self.exact = bool(getattr(oracle, "exact", False))  # see `CharOracle`
        self.prepared: set[int] = set()  # the keys of `chars` whose tests were only prepared

    def test(self, node: CharNode, flags: int) -> Answers:
        matters = flags & syntax.CLASS_FLAGS
        if type(node) is syntax.Char:
            code = node.code | matters << 21
            test = self.chars.get(code)
            if test is None:
                test = self.chars[code] = self.oracle.answers(node, flags)
            return test
        key = (id(node), matters)
        found = self.nodes.get(key)
        if found is not None:
            return found[0]
        test = self.equal.get((node, matters))
        if test is None:
            test = self.equal[(node, matters)] = self.oracle.answers(node, flags)
        self.nodes[key] = (test, node)
        return test

    def emit(self, *instruction: Any) -> int:
        if instruction[0] in _READ_AROUND:
            self.reads_around = True
        if instruction[0] in _STATEFUL:
            self.stateful = True
        self.code.append(list(instruction))
        return len(self.code) - 1

    def seq(self, nodes: Seq, flags: int, depth: int) -> None:
        """`nodes` in a row. A `CHAR` is (CHAR, test, literal, width). Without `literal`
        (None) it reads one character with its test, and the next instruction follows
        (`width` 1). With an exact oracle and without IGNORECASE, `Char` nodes in a row are
        one `CHAR` of their characters (`literal`), `execute` comparing them at once with
        the steps of one `CHAR` each, `test` the first one's; unless the row is one
        character, a second `CHAR` follows it with the characters but the first, where a
        repeat that gave back to the first goes on (the first `width` 2, past both)."""
        code, chars = self.code, self.chars
        by_flags = (flags & syntax.CLASS_FLAGS) << 21
        if not (self.exact and not flags & syntax.IGNORECASE):
            for node in nodes:
                if type(node) is syntax.Char:  # the commonest node, its test looked up in place
                    test = chars.get(node.code | by_flags)
                    code.append((CHAR, test if test is not None else self.test(node, flags), None, 1))
                else:
                    self.node(node, flags, depth)
            return
        row: list[int] = []  # the code points of the `Char` nodes in a row so far
        prepared = self.prepared
        for node in nodes:
            if type(node) is syntax.Char:
                key = node.code | by_flags
                if key not in chars:  # each test made, or prepared, in turn, as one by one
                    if len(row) < 2:  # the first two: asked (see `literal`)
                        self.test(node, flags)
                    elif key not in prepared:
                        prepared.add(key)
                        self.oracle.prepare(node, flags)
                row.append(node.code)
                continue
            if row:
                self.literal(row, by_flags)
                row = []
            self.node(node, flags, depth)
        if row:
            self.literal(row, by_flags)

    def literal(self, row: list[int], by_flags: int) -> None:
        """The `CHAR`s of `Char` nodes in a row (`row`: their code points), their tests made."""
        spelled = "".join(map(chr, row))
        chars = self.chars
        if len(row) == 1:
            self.code.append((CHAR, chars[row[0] | by_flags], spelled, 1))
        else:
            self.code.append((CHAR, chars[row[0] | by_flags], spelled, 2))
            self.code.append((CHAR, chars[row[1] | by_flags], spelled[1:], 1))

    def node(self, node: syntax.Node, flags: int, depth: int) -> None:
        if isinstance(node, syntax.CHARACTER_NODES):
            self.emit(CHAR, self.test(node, flags), None, 1)
        elif isinstance(node, syntax.Anchor):
            word = self.test(_WORD, flags) if node.kind in ("\\b", "\\B") else None
            self.emit(AT, node.kind, bool(flags & syntax.MULTILINE), word)
        elif isinstance(node, syntax.Group):
            inner = syntax.scoped_flags(node, flags)
            if node.index is not None:
                self.emit(SAVE, 2 * node.index)
            self.seq(node.body, inner, depth)
            if node.index is not None:
                self.emit(SAVE, 2 * node.index + 1)
        elif isinstance(node, syntax.Alternation):
            self.alternation(node, flags, depth)
        elif isinstance(node, syntax.Repeat):
            self.repeat(node, flags, depth)
        elif isinstance(node, syntax.Atomic):
            self.sub("atomic", node.body, flags, depth, False, 0)
        elif isinstance(node, syntax.Lookaround):
            self.sub("behind" if node.behind else "ahead", node.body, flags, depth, node.negative, node.width)
        elif isinstance(node, syntax.Backref):
            self.emit(BACKREF, node.group, bool(flags & syntax.IGNORECASE), bool(flags & syntax.ASCII))
        elif isinstance(node, syntax.Conditional):
            test_at = self.emit(COND, node.group, None)
            self.seq(node.yes, flags, depth)
            end = self.emit(JMP, None)
            self.code[test_at][2] = len(self.code)
            if node.no is not None:
                self.seq(node.no, flags, depth)
            self.code[end][1] = len(self.code)

    def refuses(self, node: CharNode, flags: int) -> str | None:
        """The one character `node` refuses ("" for none) with an exact oracle, where that is
        all it refuses: `.`, and `[^x]` without IGNORECASE; else None."""
        if not self.exact:
            return None
        if type(node) is syntax.AnyChar:
            return "" if flags & syntax.DOTALL else "\n"
        if type(node) is syntax.NotChar and not flags & syntax.IGNORECASE:
            return chr(node.code)
        return None

    def alternation(self, node: syntax.Alternation, flags: int, depth: int) -> None:
        ends = []
        for number, branch in enumerate(node.branches):
            split = self.emit(SPLIT, None) if number < len(node.branches) - 1 else None
            self.seq(branch, flags, depth)
            if split is not None:
                ends.append(self.emit(JMP, None))
                self.code[split][1] = len(self.code)
        for jump in ends:
            self.code[jump][1] = len(self.code)

    def repeat(self, node: syntax.Repeat, flags: int, depth: int) -> None:
        single = _single_character(node.body, flags)
        if single is not None:  # re's REPEAT_ONE, MIN_REPEAT_ONE, POSSESSIVE_REPEAT_ONE
            char, inner = single
            self.emit(ONE, self.test(char, inner), node.low, node.high, node.kind, self.refuses(char, inner))
            return
        if node.kind == syntax.POSSESSIVE:  # `X*+` is `(?>X*)`
            self.sub("atomic", (syntax.Repeat(node.low, node.high, node.body),), flags, depth, False, 0)
            return
        register = self.registers
        self.registers += 1
        self.emit(REP_INIT, register)
        loop = self.emit(REP, register, node.low, node.high, None, node.kind == syntax.GREEDY)
        self.seq(node.body, flags, depth)
        self.emit(JMP, loop)
        self.code[loop][4] = len(self.code)

    def sub(self, kind: str, body: Seq, flags: int, depth: int, negative: bool, width: int) -> None:
        if depth >= MAX_NESTING:
            raise TooDeep()
        here = self.emit(SUB, kind, None, None, negative, width)
        self.code[here][2] = len(self.code)
        self.seq(body, flags, depth + 1)
        self.emit(SUCCEED)
        self.code[here][3] = len(self.code)


def _single_character(body: Seq, flags: int) -> tuple[CharNode, int] | None:
    """The one character node `body` is, as `re` decides a repeat is REPEAT_ONE."""
    while len(body) == 1:
        node = body[0]
        if isinstance(node, syntax.CHARACTER_NODES):
            return node, flags
        if isinstance(node, syntax.Group) and node.index is None:
            flags, body = syntax.scoped_flags(node, flags), node.body
            continue
        return None
    return None


class Model:
    """A regex compiled for the model; run it on as many texts as needed."""

    def __init__(self, parsed: syntax.Parsed, oracle: CharOracle | None = None) -> None:
        compiler = _Compiler(oracle or CharOracle())
        compiler.seq(parsed.nodes, parsed.flags, 0)
        compiler.emit(MATCH)
        self.code = [op if type(op) is tuple else tuple(op) for op in compiler.code]
        self.registers = compiler.registers
        self.slots = 2 * (parsed.groups + 1)
        self._reads_around = compiler.reads_around
        # Without counted iterations, sub-matches, backreferences and conditionals, what a
        # run does from an instruction at a place depends on them alone: see `_State.failed`.
        self._plain = not compiler.stateful
        self._refused: tuple[int, tuple[Answers, ...]] | None = None
        self._refused_over = 0  # no attempt on a refused character fails within this many steps
        # what asking a character of every test costs, in units of work: a test's source
        # longer than a plain class is asked of `re` more slowly
        self.asking = UNITS_PER_ANSWER * (
            len(compiler.chars) + sum(1 + len(syntax.char_source(node)) // 64 for node, _ in compiler.equal)
        )
        # the tests that keep their answers between runs (`KEPT_ANSWERS`)
        made = {id(test): test for test in (*compiler.chars.values(), *compiler.equal.values())}
        self._kept = [test for test in made.values() if type(test) is _Test]

    def run(self, text: str, mode: str = "search", steps: int = 100_000) -> Run:
        """Match `text` as `re` would in `mode`, within `steps`."""
        try:
            return self._run(text, mode, steps)
        finally:
            kept = self._kept
            if kept and sum(map(len, kept)) > KEPT_ANSWERS:
                for test in kept:
                    test.clear()

    def _run(self, text: str, mode: str, steps: int) -> Run:
        state = _State(self, text, mode == "fullmatch", steps)
        starts = len(text) + 1 if mode == "search" else 1  # the places an attempt starts at
        try:
            cost, attempts = self._attempts(state, starts)
        except _OverBudget:
            return Run(Verdict.OVER_BUDGET, state.limit + 1)
        # A failed attempt leaves the captures as it found them (each change is undone on
        # the way back); only counted iterations and sub-matches leave something behind.
        fresh = not self._plain
        counted = 0  # the places before this one are tried or counted
        try:
            for start in (*attempts, starts):
                while counted < start and cost:  # the refused places before it
                    fit = (steps - state.steps) // cost
                    if fit > 0:
                        fit = min(fit, start - counted)
                        state.steps += fit * cost
                        counted += fit
                    if counted < start:  # one that would go past `steps`: run it
                        if fresh:
                            state.restart()
                        end = state.execute(0, counted, True)
                        if end >= 0:
                            return Run(Verdict.MATCH, state.steps, counted, end)
                        counted += 1
                if start == starts:
                    break
                if fresh:
                    state.restart()
                end = state.execute(0, start, True)
                if end >= 0:
                    return Run(Verdict.MATCH, state.steps, start, end)
                counted = start + 1
        except _OverBudget:
            return Run(Verdict.OVER_BUDGET, state.steps)
        return Run(Verdict.NO_MATCH, state.steps)

    def _attempts(self, state: _State, starts: int) -> tuple[int, Sequence[int]]:
        """The steps an attempt at a refused place takes (0: none is counted so), and the
        places where an attempt must run; the tests asked about the text's characters
        counted as work first (`_State.work`)."""
        text = state.text
        state.work(len(text))  # reading it: its distinct characters, the places to start at
        distinct = set(text)
        state.work(len(distinct) * self.asking)  # before any test is asked about them
        refused = self.refused(state.limit)
        if refused is None:
            return 0, range(starts)
        # An attempt at a place whose character every test it meets first refuses (or at
        # the text's end) is counted, not run, while it fits within `steps`: those that
        # some test accepts are the ones to run.
        cost, tests = refused
        chars = text[:starts]
        if len(chars) < len(text):
            distinct = set(chars)
        state.work(len(tests) * len(distinct))
        opens: set[str] = set()
        for test in tests:
            opens.update(filter(test.__getitem__, distinct))
        return cost, list(compress(range(starts), map(opens.__contains__, chars)))

    def refused(self, limit: int) -> tuple[int, tuple[Answers, ...]] | None:
        """An attempt at a position whose character every test it meets refuses (or at the
        end of the text) fails after the same steps wherever it starts: (those steps, those
        tests), worked out once by an attempt on a character no test accepts, within
        `limit` steps. None where an attempt may look at more than that character
        (anchors, sub-matches, backreferences, conditionals), succeeds that way (the regex
        matches the empty text) or takes more than `limit` steps."""
        if self._refused is not None or self._refused_over >= limit:
            return self._refused
        if self._reads_around:
            self._refused_over = 1 << 62
            return None
        met: dict[int, Answers] = {}
        state = _State(self, (_NOWHERE,), False, limit)  # type: ignore[arg-type]
        state.code = _Probed(self.code, met)  # type: ignore[assignment]
        try:
            end = state.execute(0, 0, True)
        except _OverBudget:
            self._refused_over = limit
            return None
        if end >= 0:
            self._refused_over = 1 << 62
            return None
        self._refused = (state.steps, tuple(met.values()))
        return self._refused


class _Probed(dict[int, tuple[Any, ...]]):
    """The program with its tests made probes, each instruction when the attempt reaches it
    (one on a refused character reaches few)."""

    __slots__ = ("code", "met")

    def __init__(self, code: list[tuple[Any, ...]], met: dict[int, Answers]) -> None:
        super().__init__()
        self.code, self.met = code, met

    def __missing__(self, pc: int) -> tuple[Any, ...]:
        op = self.code[pc]
        if op[0] == CHAR:  # asked character by character, the text being no string
            op = (CHAR, _Probe(op[1], self.met), None, 1)
        elif op[0] == ONE:
            op = (ONE, _Probe(op[1], self.met), *op[2:5], None)
        self[pc] = op
        return op


class _Probe(dict[str, bool]):
    """A test that refuses every character and notes that it was asked."""

    __slots__ = ("test", "met")

    def __init__(self, test: Answers, met: dict[int, Answers]) -> None:
        super().__init__()
        self.test, self.met = test, met

    def __missing__(self, char: str) -> bool:
        self.met[id(self.test)] = self.test
        return False


_NOWHERE = "\0" * 2  # a text's one "character", none of a real text's


class _State:
    def __init__(self, model: Model, text: str, whole: bool, limit: int) -> None:
        self.code = model.code
        self.text = text
        self.whole = whole
        self.limit = limit
        self.steps = 0
        self.slots = model.slots
        self.registers = model.registers
        self.runs: dict[int, list[int]] = {}
        self.accepts: dict[int, list[int]] = {}
        self.done = 0  # work no step counts (see `work`)
        self.allowed = max(WORK_PER_STEP * limit, WORK_FLOOR)
        # In a plain program (`Model._plain`), what going on from a repeat's give-back
        # (instruction, place) took before it failed, by `pc * (len(text) + 1) + pos`: the
        # same steps, the same failure, wherever it is reached from (any attempt of the run).
        # Counted, not run again, while within the limit.
        self.failed: dict[int, int] | None = {} if model._plain else None
        self.reset()

    def accepted_runs(self, test: Answers) -> list[int]:
        """For each place in the text, the first place at or after it whose character
        `test` refuses (the text's length if none): how far a repeat of it scans."""
        text = self.text
        size = len(text)
        self.work(UNITS_PER_PLACE * (size + 1))
        ends = [size] * (size + 1)
        end = size
        for at in range(size - 1, -1, -1):
            if not test[text[at]]:
                end = at
            ends[at] = end
        self.runs[id(test)] = ends
        return ends

    def accepted_before(self, test: Answers) -> list[int]:
        """For each place in the text (and its end), the last place at or before it whose
        character `test` accepts, or -1: where a repeat giving back stops for it."""
        text = self.text
        size = len(text)
        self.work(UNITS_PER_PLACE * (size + 1))
        found = [-1] * (size + 1)
        last = -1
        for at in range(size):
            if test[text[at]]:
                last = at
            found[at] = last
        found[size] = last
        self.accepts[id(test)] = found
        return found

    def work(self, units: int) -> None:
        """Count work no step counts; past `WORK_PER_STEP` a step of the limit (or the
        floor), the run is over budget: a regex of many repeated classes or groups on a
        long text would otherwise take time and memory its steps do not show."""
        self.done += units
        if self.done > self.allowed:
            self.steps = self.limit + 1  # over budget, said as a run out of steps says it
            raise _OverBudget()

    def restart(self) -> None:
        """A fresh attempt: its captures and counters, each place of them counted as work."""
        self.work(self.slots + 2 * self.registers)
        self.reset()

    def reset(self) -> None:
        self.caps = [-1] * self.slots
        self.count = [0] * self.registers
        self.last = [-1] * self.registers

    def execute(self, pc: int, pos: int, top: bool) -> int:  # noqa: C901 - one dispatch loop over the opcodes, its state in locals
        """Run from `pc` at `pos`: the end of the first match, or -1."""
        self.work(UNITS_PER_CALL)  # (an attempt, or a sub-match)
        code, text, size = self.code, self.text, len(self.text)
        caps, count, last = self.caps, self.count, self.last
        runs, accepts, failed = self.runs, self.accepts, self.failed
        places = size + 1
        stack: list[tuple[Any, ...]] = []
        steps, limit = self.steps, self.limit
        while True:
            steps += 1
            if steps > limit:
                self.steps = steps
                raise _OverBudget()
            op = code[pc]
            kind = op[0]
            ok = True
            if kind == CHAR:
                literal = op[2]
                if literal is None:
                    if pos < size and op[1][text[pos]]:
                        pos += 1
                        pc += 1
                        continue
                    ok = False
                else:
                    # A literal's characters at once: each `CHAR` a step, as one by one; the
                    # first counted above, the others (up to and with the first that does not
                    # match, or the text's end) here.
                    if text.startswith(literal, pos):
                        more = len(literal) - 1
                    else:
                        more = 0
                        while pos + more < size and text[pos + more] == literal[more]:
                            more += 1
                        ok = False
                    if steps + more > limit:  # the step past the limit, one at a time
                        self.steps = limit + 1
                        raise _OverBudget()
                    steps += more
                    if ok:
                        pos += more + 1
                        pc += op[3]
                        continue
            elif kind == ONE:
                test, low, high, how = op[1], op[2], op[3], op[4]
                if how == syntax.LAZY:
                    taken = 0
                    while taken < low and pos + taken < size and test[text[pos + taken]]:
                        taken += 1
                    steps += taken
                    if taken < low:
                        ok = False
                    else:
                        pos += taken
                        stack.append((_TAKE_MORE, pc, pos, taken))
                        pc += 1
                        continue
                else:
                    most = size - pos if high is None else min(high, size - pos)
                    if most <= 0:
                        taken = 0
                    elif op[5] is not None:  # up to the one character the test refuses
                        stop = text.find(op[5], pos, pos + most) if op[5] else -1
                        taken = most if stop < 0 else stop - pos
                    else:  # as far as the test accepts, at most `most` characters
                        ends = runs.get(id(test))
                        taken = (ends if ends is not None else self.accepted_runs(test))[pos] - pos
                        if taken > most:
                            taken = most
                    steps += taken
                    if taken < low:
                        ok = False
                    else:
                        if how == syntax.GREEDY and taken > low:
                            stack.append((_GIVE_BACK, pc + 1, pos, taken - 1, low))
                        pos += taken
                        pc += 1
                        continue
            elif kind == SPLIT:
                after = code[pc + 1]
                if after[0] == CHAR and after[2] is not None and (pos >= size or not after[1][text[pos]]):
                    # The first way is a literal that fails on its first character: the three
                    # steps of trying it (this choice, the character, taking the other way)
                    # without the stack.
                    if steps >= limit:  # the character's step goes over
                        self.steps = steps + 1
                        raise _OverBudget()
                    steps += 2
                    pc = op[1]
                    continue
                stack.append((_CHOICE, op[1], pos))
                pc += 1
                continue
            elif kind == JMP:
                pc = op[1]
                continue
            elif kind == SAVE:
                slot = op[1]
                stack.append((_UNDO, caps, slot, caps[slot]))
                caps[slot] = pos
                pc += 1
                continue
            elif kind == REP_INIT:
                register = op[1]
                stack.append((_UNDO, count, register, count[register]))
                stack.append((_UNDO, last, register, last[register]))
                count[register] = 0
                last[register] = -1
                pc += 1
                continue
            elif kind == REP:
                register, low, high, exit_pc, greedy = op[1], op[2], op[3], op[4], op[5]
                done = count[register]
                if done < low:
                    stack.append((_UNDO, count, register, done))
                    count[register] = done + 1
                    pc += 1
                    continue
                if greedy:
                    if (high is None or done < high) and pos != last[register]:
                        stack.append((_CHOICE, exit_pc, pos))
                        stack.append((_UNDO, last, register, last[register]))
                        stack.append((_UNDO, count, register, done))
                        last[register] = pos
                        count[register] = done + 1
                        pc += 1
                    else:
                        pc = exit_pc
                    continue
                stack.append((_MORE_ITERATIONS, pc, pos))
                pc = exit_pc
                continue
            elif kind == AT:
                ok = _at(op[1], op[2], op[3], text, pos, size)
                if ok:
                    pc += 1
                    continue
            elif kind == SUB:
                self.work(2 * len(caps))  # copied, and compared after
                before = caps[:]
                self.steps = steps
                end = self.sub(op, pos)
                steps = self.steps
                if end >= 0:
                    # what the sub-match captured stays, until we backtrack past it
                    for slot, old in enumerate(before):
                        if caps[slot] != old:
                            stack.append((_UNDO, caps, slot, old))
                    if op[1] == "atomic":
                        pos = end
                    pc = op[3]
                    continue
                ok = False
            elif kind == BACKREF:
                group = op[1]
                start, stop = caps[2 * group], caps[2 * group + 1]
                if start < 0 or stop < 0 or stop < start:
                    ok = False
                else:
                    length = stop - start
                    steps += length
                    if pos + length <= size and _same(text, start, pos, length, op[2], op[3]):
                        pos += length
                        pc += 1
                        continue
                    ok = False
            elif kind == COND:
                group = op[1]
                start, stop = caps[2 * group], caps[2 * group + 1]
                pc = pc + 1 if start >= 0 and stop >= start else op[2]
                continue
            elif kind == MATCH:
                if not (top and self.whole and pos != size):
                    self.steps = steps
                    return pos
                ok = False
            elif kind == SUCCEED:
                self.steps = steps
                return pos
            # failure: take the most recent choice
            while True:
                if not stack:
                    self.steps = steps
                    return -1
                entry = stack.pop()
                what = entry[0]
                if what == _UNDO:
                    entry[1][entry[2]] = entry[3]
                    continue
                if what == _TRIED:  # going on from there failed: after these steps
                    failed[entry[1]] = steps - entry[2]  # type: ignore[index]
                    continue
                steps += 1
                if what == _CHOICE:
                    pc, pos = entry[1], entry[2]
                    break
                if what == _GIVE_BACK:
                    _, resume, start, taken, low = entry
                    after = code[resume]
                    if after[0] != CHAR:
                        if taken > low:
                            stack.append((_GIVE_BACK, resume, start, taken - 1, low))
                        pc, pos = resume, start + taken
                    else:
                        # The repeat is followed by a character (`.*x`): give back one character
                        # at a time until it fits, each try the same two steps (this backtrack,
                        # then the character) as one turn of the loops above would count.
                        # The tries go from the repeat's end down to the last place the
                        # character fits (or to the repeat's least), found at once: searched for
                        # (a literal's first character), or read from a table.
                        here = start + taken
                        literal = after[2]
                        if literal is not None and after[3] == 2:
                            # A literal of more than one character: where its first one fits, the
                            # rest is compared at once. Where the rest does not match, what its
                            # `CHAR` takes there (as one by one) and the next give-back are counted
                            # here, the give-backs going on without a turn through the stack.
                            rest = code[resume + 1][2]
                            bottom = start + low
                            while True:
                                found = text.rfind(literal[0], bottom, here + 1)
                                tries = here - found + 1 if found >= 0 else here - bottom + 1
                                if steps + 2 * tries - 1 > limit:  # the try whose character goes over
                                    self.steps = steps + 2 * max(1, (limit - steps + 1) // 2 + 1) - 1
                                    raise _OverBudget()
                                steps += 2 * tries - 1
                                if found < 0 or text.startswith(rest, found + 1):
                                    break
                                more, at = 0, found + 1
                                while at + more < size and text[at + more] == rest[more]:
                                    more += 1
                                steps += 1  # the rest's `CHAR`
                                if steps > limit:
                                    self.steps = steps
                                    raise _OverBudget()
                                if steps + more > limit:
                                    self.steps = limit + 1
                                    raise _OverBudget()
                                steps += more
                                if found <= bottom:  # nothing left to give back
                                    found = -1
                                    break
                                steps += 1  # taking the next give-back
                                here = found - 1
                            fits = found >= 0
                        else:
                            if literal is not None:
                                found = text.rfind(literal, start + low, here + 1)
                                fits = found >= 0
                            else:
                                test = after[1]
                                table = accepts.get(id(test))
                                found = (table if table is not None else self.accepted_before(test))[here]
                                fits = found >= start + low
                            tries = here - found + 1 if fits else taken - low + 1
                            if steps + 2 * tries - 1 > limit:  # the try whose character goes over
                                self.steps = steps + 2 * max(1, (limit - steps + 1) // 2 + 1) - 1
                                raise _OverBudget()
                            steps += 2 * tries - 1
                        if not fits:
                            continue
                        if found - start > low:
                            stack.append((_GIVE_BACK, resume, start, found - start - 1, low))
                        pc, pos = resume + 1, found + 1
                    # Going on from a give-back: counted, not run again, where it failed before.
                    if failed is not None:
                        key = pc * places + pos
                        took = failed.get(key)
                        if took is None:
                            stack.append((_TRIED, key, steps))
                        elif steps + took <= limit:
                            steps += took
                            continue
                    break
                if what == _TAKE_MORE:
                    _, at, from_pos, taken = entry
                    test, high = code[at][1], code[at][3]
                    if (high is None or taken < high) and from_pos < size and test[text[from_pos]]:
                        stack.append((_TAKE_MORE, at, from_pos + 1, taken + 1))
                        pc, pos = at + 1, from_pos + 1
                        break
                    continue
                # _MORE_ITERATIONS: a lazy repeat's tail failed, try one more iteration
                _, at, from_pos = entry
                register, high = code[at][1], code[at][3]
                done = count[register]
                if (high is not None and done >= high) or from_pos == last[register]:
                    continue
                stack.append((_UNDO, last, register, last[register]))
                stack.append((_UNDO, count, register, done))
                last[register] = from_pos
                count[register] = done + 1
                pc, pos = at + 1, from_pos
                break

    def sub(self, op: tuple[Any, ...], pos: int) -> int:
        """An atomic group's or lookaround's sub-match at `pos`: where it ends, or -1."""
        _, kind, start_pc, _, negative, width = op
        if kind == "behind":
            if pos < width:
                return pos if negative else -1
            pos -= width
        before = list(self.caps)
        end = self.execute(start_pc, pos, False)
        if negative:
            if end >= 0:
                self.caps[:] = before  # it matched, so this fails: nothing it captured stays
                return -1
            return pos + width if kind == "behind" else pos
        if end < 0:
            return -1
        return end


def _at(kind: str, multiline: bool, word: Answers | None, text: str, pos: int, size: int) -> bool:
    if kind == "^":
        return pos == 0 or (multiline and text[pos - 1] == "\n")
    if kind == "$":
        if multiline:
            return pos == size or text[pos] == "\n"
        return pos == size or (pos == size - 1 and text[pos] == "\n")
    if kind == "\\A":
        return pos == 0
    if kind == "\\Z":
        return pos == size
    if size == 0:  # re: neither \b nor \B holds in an empty text
        return False
    assert word is not None
    before = pos > 0 and word[text[pos - 1]]
    after = pos < size and word[text[pos]]
    return before != after if kind == "\\b" else before == after


def _same(text: str, start: int, pos: int, length: int, ignore_case: bool, ascii_only: bool) -> bool:
    if not ignore_case:
        return text[start : start + length] == text[pos : pos + length]
    for offset in range(length):
        a, b = text[start + offset], text[pos + offset]
        if a == b:
            continue
        if ascii_only:
            if a.isascii() and b.isascii() and a.lower() == b.lower():
                continue
            return False
        if syntax.re_lower(ord(a)) != syntax.re_lower(ord(b)):
            return False
    return True
