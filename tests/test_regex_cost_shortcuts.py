"""The shortcuts that make the regex analyses cheap give exactly what the full computation gives.

- `steps.step_bound` and `steps.text_steps` walk a plan of the regex made once (`_plan`),
  count a character of the text only when the walk asks for it and add polynomials a
  whole tuple at a time: held to the walk over the parsed nodes themselves with every
  character counted and every term added by itself (as the bounds were first worked
  out), on generated regexes and texts and on the deadends canons' regexes;
- `runner.provably_fast_each` is `provably_fast` of every job;
- the literal analysis folds a run of literal characters at once, as each character folds;
- `literal_index.may_match_each`, which stops walking a query once the answer is known and
  whose joined texts keep their answer per literal, is `may_match` on each text.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.regex import breadth, literal_index, redos, steps, syntax
from entrykit.regex.breadth import probe_messages, probe_texts
from entrykit.regex.folding import TABLE
from entrykit.regex.literal_index import JoinedTexts, fold, may_match, may_match_each, required
from entrykit.regex.runner import COMPILE, Job, RegexRunner, provably_fast, provably_fast_each
from tests.conftest import DEADENDS

LITERALS = st.sampled_from(["a", "b", "ab", "K", "k", "ſ", "s", "error", "x1", "\\.", " ", "é"])
# (the last: a class `re` tries item by item, whose steps weigh 2: `syntax.step_weight`)
SINGLES = st.sampled_from(
    ["a", "b", ".", r"\d", r"\w", "[ab]", "[^a]", r"\s", "[a-f]", "k", "[" + "".join(chr(0x10000 + 2 * n) for n in range(9)) + "]"]
)
ZERO_WIDTH = st.sampled_from(["^", "$", r"\b", r"\B", r"\A", r"\Z"])
QUANTIFIERS = st.sampled_from(["*", "+", "?", "{2,}", "{1,3}", "*?", "+?", "*+", "{0,2}?", "??", "{3}"])


@st.composite
def regexes(draw: st.DrawFn, depth: int = 0) -> str:
    """Every kind of node the step walk tells apart: literal runs, classes, anchors, loops,
    optional and repeated groups, alternations, lookarounds, atomic groups, conditionals,
    backreferences; some that do not compile."""
    parts = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.integers(0, 10 if depth < 2 else 3))
        inner = (lambda: draw(regexes(depth + 1))) if depth < 2 else (lambda: draw(LITERALS))
        if kind == 0:
            parts.append(draw(LITERALS))
        elif kind == 1:
            parts.append(draw(SINGLES) + draw(QUANTIFIERS))
        elif kind == 2:
            parts.append(draw(ZERO_WIDTH))
        elif kind == 3:
            parts.append(draw(SINGLES))
        elif kind == 4:
            parts.append(f"(?:{inner()}|{inner()})")
        elif kind == 5:
            parts.append(f"({inner()}){draw(QUANTIFIERS)}")
        elif kind == 6:
            parts.append(f"(?{draw(st.sampled_from(['=', '!', '<=', '<!']))}{inner()})")
        elif kind == 7:
            parts.append(f"(?>{inner()})")
        elif kind == 8:
            parts.append(f"(?(1){inner()}|{inner()})" if draw(st.booleans()) else f"(?(1){inner()})")
        elif kind == 9:
            parts.append(draw(st.sampled_from([r"\1", "(?P<n>a)(?P=n)", "(a)", "(?i:ab)", "(?-i:K)"])))
        else:
            parts.append(f"({inner()})")
    return "".join(parts)


TEXTS = st.text(alphabet="abkKſs x1.é\n", max_size=40)
FLAGS = st.sampled_from([0, re.IGNORECASE, re.IGNORECASE | re.MULTILINE, re.DOTALL])


class _CountedText(steps._InText):
    """The arithmetic for one text with every character counted up front (as it was)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.all_counts = Counter(fold(text))

    def holding(self, code: int) -> int:
        return self.all_counts[fold(chr(code))]

    def holding_text(self, literal: str) -> int:
        """Every place of the text compared with the literal (not found by a search): the
        places, or where two of them may overlap, the places apart times its length (at most
        those of its first character)."""
        folded, wanted = fold(self.text), fold(literal)
        places = [at for at in range(len(folded)) if folded[at : at + len(wanted)] == wanted]
        apart: list[int] = []
        for at in places:
            if not apart or at >= apart[-1] + len(wanted):
                apart.append(at)
        if any(wanted[:size] == wanted[-size:] for size in range(1, len(wanted))):
            return min(len(apart) * len(wanted), self.holding(ord(literal[0])))
        return len(places)

    def longest_run(self, takes: steps.Takes) -> int:
        """Asked of each character in turn, not found by a search for runs."""
        accepts = re.compile(takes[0], takes[1]).fullmatch
        longest = run = 0
        for char in self.text:
            run = run + 1 if accepts(char) else 0
            longest = max(longest, run)
        return longest


class _ReferenceLength(steps._InLength):
    """The arithmetic in the text's length, spelt out term by term (as it was)."""

    def plus(self, steps_: int, value: steps.Polynomial) -> steps.Polynomial:
        return (value[0] + steps_, *value[1:])

    def add(self, left: steps.Polynomial, right: steps.Polynomial) -> steps.Polynomial:
        if len(left) < len(right):
            left, right = right, left
        return tuple(a + b for a, b in zip(left, right, strict=False)) + left[len(right) :]

    def loop(
        self, rest: steps.Polynomial, after: steps.Literals | None, most: int | None = None, takes: steps.Takes | None = None
    ) -> steps.Polynomial:
        tried = self.plus(1, rest)
        if most is not None and most <= steps.SHORT_REPEAT:  # most + 2 + (most + 1) * tried
            return self.plus(most + 2, tuple((most + 1) * c for c in tried))
        return self.add((2, 1), self.add(tried, (0, *tried)))


_ONE_STEP = (syntax.Char, syntax.NotChar, syntax.AnyChar, syntax.Anchor)
_ONE_CHARACTER = (syntax.Char, syntax.NotChar, syntax.AnyChar, syntax.CharClass)


def _walked_seq_cost(nodes: syntax.Seq, rest: Any, arithmetic: Any, flags: int) -> Any:
    """The walk over the parsed nodes themselves, node by node (the definition the plan is held to)."""
    ones = 0
    for at in range(len(nodes) - 1, -1, -1):
        node = nodes[at]
        if isinstance(node, _ONE_STEP):
            ones += 1
            continue
        if ones:
            rest = arithmetic.plus(ones, rest)
            ones = 0
        found = _walked_node_cost(node, rest, steps._first_literals(nodes[at + 1 :]), arithmetic, flags)
        if found is None or arithmetic.too_large(found):
            return None
        rest = found
    return arithmetic.plus(ones, rest) if ones else rest


def _walked_node_cost(node: syntax.Node, rest: Any, after: steps.Literals | None, arithmetic: Any, flags: int) -> Any:  # noqa: PLR0911
    plus, add = arithmetic.plus, arithmetic.add
    if isinstance(node, syntax.Repeat):
        body = node.body[0] if len(node.body) == 1 else None
        if isinstance(body, _ONE_CHARACTER):
            return arithmetic.loop(rest, after, node.high, (syntax.char_source(body), flags & syntax.CLASS_FLAGS))
        if node.high is not None and node.high <= 1:
            inner = _walked_seq_cost(node.body, plus(3, rest), arithmetic, flags)
            return None if inner is None else plus(3, add(inner, plus(2, rest)) if node.low == 0 else inner)
        return None
    if isinstance(node, syntax.Alternation):
        total = plus(1, arithmetic.zero)
        for branch in node.branches:
            cost = _walked_seq_cost(branch, plus(1, rest), arithmetic, flags)
            if cost is None:
                return None
            total = add(total, plus(1, cost))
        return total
    if isinstance(node, syntax.Group):
        inner = _walked_seq_cost(node.body, plus(1, rest), arithmetic, syntax.scoped_flags(node, flags))
        return None if inner is None else plus(1, inner)
    if isinstance(node, (syntax.Atomic, syntax.Lookaround)):
        inner = _walked_seq_cost(node.body, plus(1, arithmetic.zero), arithmetic, flags)
        return None if inner is None else plus(1, add(inner, rest))
    if isinstance(node, syntax.Conditional):
        yes = _walked_seq_cost(node.yes, plus(1, rest), arithmetic, flags)
        no = _walked_seq_cost(node.no, rest, arithmetic, flags) if node.no is not None else rest
        return None if yes is None or no is None else plus(1, add(yes, no))
    if isinstance(node, syntax.Backref):
        return arithmetic.compare(rest)
    return plus(1, rest)


def walked_text_steps(pattern: str, flags: int, text: str) -> int | None:
    """`text_steps` by the walk over the parsed nodes, every character counted, for every text
    anew; a regex with a bound by length needs no walk where the text holds none of the
    words a match begins with (none of their first characters, past `COUNTED_WORDS` words):
    then no start goes on past them."""
    arithmetic = _CountedText(text)
    try:
        parsed = syntax.parse(pattern, flags)
        nodes = parsed.nodes
        first = steps._first_literals(nodes)
    except Exception:
        return None
    starts = len(text) + 1
    weight = syntax.step_weight(parsed)
    if first is not None:
        words, _, none_first, none_whole = first
        firsts = sum(arithmetic.holding(ord(first)) for first in {word[0] for word in words})
        if len(words) > steps.COUNTED_WORDS:
            failing, going_on = starts * none_first, min(firsts, starts)
        else:
            wholes = sum(arithmetic.holding_text(word) for word in words)
            failing, going_on = starts * none_first + min(firsts, starts) * (none_whole - none_first), min(wholes, starts)
        if going_on == 0 and walked_step_bound(pattern, flags) is not None:
            return failing * weight if failing * weight <= steps.FAST_PATH_LIMIT else None
    try:
        per_start = _walked_seq_cost(nodes, 1, arithmetic, parsed.flags)
    except Exception:
        return None
    if per_start is None:
        return None
    total = starts * per_start if first is None else failing + going_on * per_start
    total *= weight
    return total if total <= steps.FAST_PATH_LIMIT else None


def walked_step_bound(pattern: str, flags: int) -> Any:
    """`step_bound` by the walk over the parsed nodes."""
    try:
        parsed = syntax.parse(pattern, flags)
        bound = _walked_seq_cost(parsed.nodes, (1,), _ReferenceLength(), parsed.flags)
        return None if bound is None else tuple(syntax.step_weight(parsed) * c for c in bound)
    except Exception:
        return None


def _outcome(make: object) -> object:
    try:
        return make()  # type: ignore[operator]
    except Exception as exc:
        return (type(exc), str(exc))


@settings(max_examples=600, deadline=None)
@given(regexes(), TEXTS, FLAGS)
def test_the_planned_walk_is_the_walk(pattern: str, text: str, flags: int) -> None:
    assert steps.text_steps(pattern, flags, text) == walked_text_steps(pattern, flags, text)
    assert steps.step_bound(pattern, flags) == walked_step_bound(pattern, flags)


@settings(max_examples=150, deadline=None)
@given(regexes(), st.sampled_from("abkx "), st.integers(0, 3000), FLAGS)
def test_the_planned_walk_is_the_walk_on_long_texts(pattern: str, char: str, length: int, flags: int) -> None:
    # long texts reach the limit: the planned walk gives up where the walk does
    text = (char + "ab") * length
    assert steps.text_steps(pattern, flags, text) == walked_text_steps(pattern, flags, text)


def test_the_planned_walk_gives_up_where_the_walk_does() -> None:
    # a part past the limit whose steps the next character's absence cuts down again:
    # the walk stops at that part, and so does the plan
    pattern = "a.*b.*c.*d.*e.*zq"
    text = "abcde" * 60
    assert walked_text_steps(pattern, 0, text) is None
    assert steps.text_steps(pattern, 0, text) is None
    assert steps.text_steps("fatal: not a git repository", 0, "x" * 1000) == walked_text_steps(
        "fatal: not a git repository", 0, "x" * 1000
    )


def _canon_regexes_and_texts() -> list[tuple[str, list[str]]]:
    found = []
    for path in sorted(DEADENDS.rglob("*.json")):
        error = json.loads(path.read_text(encoding="utf-8")).get("error") or {}
        pattern = error.get("regex")
        if isinstance(pattern, str):
            texts = [t for t in [error.get("signature"), *(error.get("examples") or [])] if isinstance(t, str)]
            found.append((pattern, texts))
    return found


@pytest.mark.skipif(not DEADENDS.is_dir(), reason="the deadends canons are not here")
def test_the_planned_walk_is_the_walk_on_the_canons() -> None:
    compared = 0
    probes = probe_texts()
    for pattern, texts in _canon_regexes_and_texts():
        for flags in (0, re.IGNORECASE):
            assert steps.step_bound(pattern, flags) == walked_step_bound(pattern, flags), pattern
            for text in (*texts, *probes, (texts[0] if texts else "x") * 40):
                assert steps.text_steps(pattern, flags, text) == walked_text_steps(pattern, flags, text), pattern
                compared += 1
    assert compared > 100_000


@settings(max_examples=200, deadline=None)
@given(regexes(), st.lists(st.one_of(TEXTS, st.sampled_from(["a" * 3000, "ab " * 900])), max_size=6), FLAGS)
def test_which_jobs_are_provably_fast_asked_at_once(pattern: str, texts: list[str], flags: int) -> None:
    for mode in ("search", "match", COMPILE):
        each = [provably_fast(Job(pattern, flags, mode, text)) for text in texts]
        assert provably_fast_each(pattern, flags, mode, texts) == each


_MESSAGES = tuple(fold(probe.message) for probe in probe_messages()) + tuple(fold(t) for t in probe_texts())
_JOINED = JoinedTexts(_MESSAGES)  # one for every example: its answers per literal are kept across queries
_JOINED.KEPT = 7  # (and let go often)


@settings(max_examples=300, deadline=None)
@given(regexes(), FLAGS)
def test_may_match_each_on_texts_joined_once_is_may_match_on_each(pattern: str, flags: int) -> None:
    try:
        query = required(pattern, flags)
    except Exception:
        return
    expected = sum(1 << i for i, text in enumerate(_MESSAGES) if may_match(query, text))
    assert may_match_each(query, _JOINED) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["error", "failed", "no such", "x", "module", "zzz"]), min_size=1, max_size=4), st.booleans())
def test_may_match_each_stops_early_with_the_same_answer(literals: list[str], every: bool) -> None:
    query: Any = ("and" if every else "or", tuple(literals)) if len(literals) > 1 else literals[0]
    expected = sum(1 << i for i, text in enumerate(_MESSAGES) if may_match(query, text))
    assert may_match_each(query, _JOINED) == expected
    assert may_match_each(query, list(_MESSAGES)) == expected


def _parsed_and_analysed(pattern: str, flags: int) -> tuple[object, object]:
    syntax.clear_memo()
    parsed = _outcome(lambda: syntax.parse(pattern, flags))
    analysed = _outcome(lambda: [r.to_data() for r in redos.analyse(pattern, flags, "search", None)])
    return parsed, analysed


@settings(max_examples=200, deadline=None)
@given(regexes(), FLAGS)
def test_one_char_record_per_code_point_changes_no_parse_and_no_analysis(pattern: str, flags: int) -> None:
    shared = _parsed_and_analysed(pattern, flags)
    kept = syntax._CHARS.KEPT
    try:
        syntax._CHARS.KEPT = 0  # every character its own record, as each parse made them
        syntax._CHARS.clear()
        alone = _parsed_and_analysed(pattern, flags)
    finally:
        syntax._CHARS.KEPT = kept
    assert shared == alone


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=30) | st.text(alphabet="aKkſsSİıΣσςµμé", max_size=30))
def test_a_run_of_literal_characters_folds_as_each_character_does(run: str) -> None:
    # the literal analysis folds a run of characters at once, where it folded each by the table
    assert fold(run) == "".join(chr(TABLE[ord(char)]) for char in run)


OWN_TEXTS = st.lists(st.sampled_from(["KeyError: 'x'", "error: failed", "No such file or directory", "ab", ""]), max_size=3)


@settings(max_examples=120, deadline=None)
@given(st.one_of(regexes(), st.sampled_from(["error", "KeyError", "No such file", "[", "(?:x.*){70}", "x*"])), OWN_TEXTS, OWN_TEXTS)
def test_too_broad_asks_about_the_regex_once_with_the_same_answer(pattern: str, own: list[str], other: list[str]) -> None:
    # what `too_broad` works out of a regex alone is kept for the next entry written alike:
    # each entry's answer is the one a fresh start gives
    with RegexRunner() as runner:
        breadth._regex_alone.cache_clear()
        first = breadth.too_broad(pattern, 0, "search", runner, 3, own)
        again = breadth.too_broad(pattern, 0, "search", runner, 3, other)  # (its own texts differ)
    with RegexRunner() as runner:
        breadth._regex_alone.cache_clear()
        fresh = breadth.too_broad(pattern, 0, "search", runner, 3, other)
        breadth._regex_alone.cache_clear()
        assert first == breadth.too_broad(pattern, 0, "search", runner, 3, own)
    assert again == fresh


@settings(max_examples=150, deadline=None)
@given(regexes(), FLAGS)
def test_which_probes_are_provably_fast_kept_per_regex(pattern: str, flags: int) -> None:
    probes = probe_texts()
    kept = provably_fast_each(pattern, flags, "search", probes)
    assert kept == provably_fast_each(pattern, flags, "search", list(probes))
    assert kept == [provably_fast(Job(pattern, flags, "search", probe)) for probe in probes]


@given(st.integers(min_value=0, max_value=(1 << 300) - 1))
def test_the_set_bits_of_a_mask_in_order(mask: int) -> None:
    # ET208 tries the probe messages a regex may match by the set bits of their mask
    assert list(literal_index.set_bits(mask)) == [number for number in range(300) if mask >> number & 1]
