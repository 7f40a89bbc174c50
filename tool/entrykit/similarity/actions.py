"""Whether two dead ends or workarounds name the same action, read by meaning rather than wording.

Lexical, so it needs no model: an action becomes a weighted set of tokens — commands,
flags, identifiers and variables whole (`--allow-unrelated-histories`,
`torch.cuda.empty_cache()`, `CUDA_LAUNCH_BLOCKING=1`), other words folded (case,
a light stem, a few verb synonyms: "delete" counts as "remove"), words after a negator
marked as negated ("without configuring", "instead of --force"). Two actions score the
mean of the Dice and overlap coefficients of their token sets, with three vetoes and one
discount learnt from how dead ends are written against their workarounds:

- each names a number or proper name the other lacks ("Dial 911 in Peru" / "in Chile");
- both name code and share none (`-f` counts as `--force`);
- they sit on opposite sides of a contrast ("on all blocks" / "on one block",
  "a random path" / "the correct path");
- they open with different verbs (other than "use"): the score is discounted.

Measured on 1,053 labelled pairs of real deadends.dev actions
(`benchmarks/action_similarity.py`, labels in `tests/fixtures/action_pairs.tsv`): on the
654 pairs from two different entries (what a merge compares) `SAME_ACTION` (0.55) has
precision 0.90 and recall 0.68, where the character ratio it replaced (Indel >= 0.85)
had 0.31 and 0.21, and all-MiniLM-L6-v2 sentence embeddings at their best bar 0.84 and
0.40 (0.73 and 0.57 a step lower), for 5.9 GB of installed packages. Within one entry
the pairs are mostly a dead end and the workaround written against it, which read
alike on purpose: lint rules use `SAME_ACTION_IN_ENTRY` (0.85), which reports 3 pairs
in the 1,739 deadends.dev entries, 2 of them real.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from entrykit.similarity.phrases import normalize_phrase

SAME_ACTION = 0.55  # two actions of different entries at least this alike are one action
SAME_ACTION_IN_ENTRY = 0.85  # the bar within one entry, where look-alikes are usually contrasts
MAX_ACTION_CHARS = 400  # an action is one sentence; longer text is read up to here
CODE_WEIGHT = 3.0
ANCHOR_WEIGHT = 2.0
VERB_DISCOUNT = 0.7
TAIL_WEIGHT = 0.5  # words after the first clause break ("to ...", "for ...", "- ...") say why, not what

# Dotted names and calls start where no letter precedes and read each word whole (`\w*+`):
# the same matches as without (a match starting after a letter would have started at that
# letter), found without trying every position of every word.
_CODE = re.compile(
    r"(?<![\w-])--?[A-Za-z][\w-]*(?:=\S+)?"  # flags, with a value
    r"|(?<![A-Za-z_])[A-Za-z_]\w*+(?:\.[A-Za-z_]\w*+)+(?:\([^)\s]*\))?"  # dotted names and calls
    r"|(?<![A-Za-z_])[A-Za-z_]\w*+\([^)\s]*\)"  # calls
    r"|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+(?:=\S+)?"  # ENVIRONMENT_VARIABLES
    r"|\b\w+_\w+\b"  # snake_case
    r"|\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z]+[A-Z]\w*\b"  # camelCase, CamelCase
)
# (the whole token, and the number of a hidden code span): `findall` gives both, no match objects
_TOKEN = re.compile(
    r"(\x00(\d+)\x00|[A-Za-z][A-Za-z']*(?:-[A-Za-z][A-Za-z']*)*|\d+(?:\.\d+)*%?|[,;:()\[\]—–]| - )"
)
# No code span holds a space, and each holds a mark: a flag's `-`, a dotted name's `.`, a
# call's `(`, an underscore, or a lowercase letter before a capital. What its lookbehinds
# and word boundaries read lies in its run of non-space characters, or is the space (or
# the text's end) around it, which they read alike. So `_CODE` is tried only on the runs
# holding a mark, each alone: the same spans, without trying every position of the text.
_MARKED_RUN = re.compile(r"(?<!\S)[^\s\-.(_]*(?:[-.(_]|[a-z][A-Z])\S*")
# A text holds a marked run exactly when it holds a mark; about half of all actions hold
# none, and `str.__contains__` and a two-letter search rule that out before a scan of every run.
_CAMEL = re.compile(r"[a-z][A-Z]")


# (lowercased, plain and negated; its stem, plain and negated, or None for a stop word; a clause
# break; its contrast sides; an opener; its verb class; a negator; a number; shaped as a name)
_WordFacts = tuple[
    tuple[str, str], tuple[str, str] | None, bool, tuple[tuple[int, int], ...] | None, bool, str | None, bool, bool, bool
]
_WORDS_KEPT = 65536


@dataclass(frozen=True)
class _Words:
    stop: frozenset[str]
    negators: frozenset[str]
    openers: frozenset[str]
    breaks: frozenset[str]
    verbs: dict[str, str]  # stem -> verb class
    synonyms: dict[str, str]
    contrasts: tuple[tuple[frozenset[str], frozenset[str]], ...]
    sides_of: dict[str, tuple[tuple[int, int], ...]]  # word -> (contrast, side) of each contrast naming it
    known: dict[str, _WordFacts]  # word token -> what it says, as read so far (words repeat across actions)

    def facts(self, token: str) -> _WordFacts:
        """What the reader needs of a word token, whatever comes before it (see `_WordFacts`)."""
        found = self.known.get(token)
        if found is None:
            if len(self.known) >= _WORDS_KEPT:
                self.known.clear()
            lower = token.lower()
            stem = _stem(lower, self.synonyms)
            stop = lower in self.stop
            found = self.known[token] = (
                (lower, "¬" + lower),
                None if stop else (stem, "¬" + stem),
                lower in self.breaks,
                self.sides_of.get(lower),
                lower in self.openers,
                self.verbs.get(stem),
                lower in self.negators,
                # A word token of `_TOKEN` opens with a letter; a number (`3`, `1.2.0`, `90%`) with a digit.
                not token[0].isalpha(),
                # capitalised but not all capitals: a name (a place, a product) away from the sentence start
                token[0].isupper() and not token.isupper() and not stop,
            )
        return found


def _stem(word: str, synonyms: dict[str, str]) -> str:
    word = synonyms.get(word, word)
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix) and not word.endswith("ss"):
            word = word[: -len(suffix)]
            if suffix in ("ing", "ed") and len(word) > 2 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # setting -> set, stopped -> stop
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


@lru_cache(maxsize=1)
def _words() -> _Words:
    text = resources.files("entrykit").joinpath("data/action_words.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    synonyms = dict(data["synonyms"])
    verbs = {_stem(v, synonyms): synonyms.get(v, v) for v in data["verbs"]}
    contrasts = tuple((frozenset(c["one"]), frozenset(c["other"])) for c in data["contrasts"])
    sides_of: dict[str, list[tuple[int, int]]] = {}
    for index, pair in enumerate(contrasts):
        for side, words in enumerate(pair):
            for word in words:
                sides_of.setdefault(word, []).append((index, side))
    return _Words(
        frozenset(data["stop"]), frozenset(data["negators"]), frozenset(data["openers"]), frozenset(data["breaks"]),
        verbs, synonyms, contrasts, {word: tuple(found) for word, found in sides_of.items()}, {},
    )


@dataclass(frozen=True)
class ActionTokens:
    """What an action says, as `action_similarity` compares it."""

    weights: dict[str, float]  # token -> weight; negated tokens start with "¬"
    code: frozenset[str]
    anchors: frozenset[str]  # numbers and proper names
    sides: frozenset[tuple[int, int]]  # (contrast, side) of the contrast words it uses
    verb: str | None


def action_tokens(text: str) -> ActionTokens:
    """The tokens of one action (cached: a merge and a lint read the same actions many times)."""
    return _action_tokens(text[:MAX_ACTION_CHARS])  # what is kept is no longer than what is read


@lru_cache(maxsize=4096)
def _action_tokens(text: str) -> ActionTokens:
    # a NUL is how a hidden code span is marked below: one in the text would forge a mark
    text = unicodedata.normalize("NFKC", text).replace("\x00", " ")
    words = _words()
    items = _spaced_items(words, text)
    if items is None:
        hidden, codes = hide_codes(text)
        items = _items_of(words, _TOKEN.findall(hidden), codes)
    return _read(items)


# What `_read` reads of one token of `_TOKEN`: a code span (lowercased, as `hide_codes` gives
# it), None for punctuation, else the facts of its word or number.
_Item = str | _WordFacts | None


def _items_of(words: _Words, tokens: list[tuple[str, str]], codes: list[str]) -> list[_Item]:
    """The items of the tokens `_TOKEN.findall` gives of a hidden text, each hidden code span
    the `codes` entry it numbers."""
    return [
        codes[int(code)] if code else None if not token[0].isalnum() else words.facts(token)
        for token, code in tokens
    ]


def _spaced_items(words: _Words, text: str) -> list[_Item] | None:
    """The items of a text of runs joined by single spaces, each run's read once
    (`_run_items`), or None where `_items_of` its hidden text must read it whole.

    No token of `_TOKEN` but ` - ` holds a space, and none crosses a hidden span's mark: the
    tokens of the hidden text are those of its runs' pieces (the texts around their spans)
    in turn, the spans between them, wherever no piece is a lone `-`.
    """
    if " ".join(text.split()) != text:
        return None
    items: list[_Item] = []
    for run in text.split(" "):
        found = _RUN_ITEMS.get(run, _UNREAD_ITEMS)
        if found is _UNREAD_ITEMS:
            found = _run_items(words, run)
        if found is None:
            return None
        items += found
    return items


# run -> its items in turn, or None where a piece of it is a lone `-` (see `_spaced_items`)
_RUN_ITEMS: dict[str, tuple[_Item, ...] | None] = {}
_UNREAD_ITEMS: tuple[_Item, ...] = (None,)  # (no run's own value: it is compared by identity)


def _run_items(words: _Words, run: str) -> tuple[_Item, ...] | None:
    """The items of one run of non-space characters, kept in `_RUN_ITEMS`."""
    if len(_RUN_ITEMS) >= _RUNS_KEPT:
        _RUN_ITEMS.clear()
    found = _RUN_CODES.get(run, _UNREAD)
    if found is _UNREAD:
        found = _run_codes(run)
    between, spans = ([run], []) if found is None else found
    if "-" in between:  # a lone `-` may be the ` - ` token, which reads the spaces around it
        _RUN_ITEMS[run] = None
        return None
    items: list[_Item] = []
    for piece, span in zip(between, spans, strict=False):  # (one piece more: the last, after them)
        if piece:
            items.extend(_items_of(words, _TOKEN.findall(piece), []))
        items.append(span)
    if between[-1]:
        items.extend(_items_of(words, _TOKEN.findall(between[-1]), []))
    made = _RUN_ITEMS[run] = tuple(items)
    return made


def hide_codes(text: str) -> tuple[str, list[str]]:
    """The text with each code span (`_CODE`) replaced by ` \\x00<n>\\x00 `, and the spans
    (lowercased, without a final dot), the nth at n."""
    if " ".join(text.split()) != text:  # other spaces than single " " between runs: read by regex
        return _hide_codes_by_scan(text)
    runs = text.split(" ")
    # Each run of non-space characters alone, as `_MARKED_RUN` gives `_CODE` them (a run without
    # a mark holds no span); runs repeat across actions, so each is read once (`_run_codes`).
    codes: list[str] = []
    hidden: list[str] = []
    for run in runs:
        found = _RUN_CODES.get(run, _UNREAD)
        if found is _UNREAD:
            found = _run_codes(run)
        if found is None:
            hidden.append(run)
            continue
        between, spans = found
        pieces = [between[0]]
        for span, after in zip(spans, between[1:], strict=True):
            pieces.append(f" \x00{len(codes)}\x00 ")
            pieces.append(after)
            codes.append(span)
        hidden.append("".join(pieces))
    return " ".join(hidden), codes


# run -> None when `_CODE` finds no span in it, else (the texts between its spans, the spans as
# `hide_codes` gives them): what the runs read so far hold
_RUN_CODES: dict[str, tuple[list[str], list[str]] | None] = {}
_RUNS_KEPT = 65536
_UNREAD: tuple[list[str], list[str]] = ([], [])  # (no run's own value: it is compared by identity)


def _run_codes(run: str) -> tuple[list[str], list[str]] | None:
    if len(_RUN_CODES) >= _RUNS_KEPT:
        _RUN_CODES.clear()
    if not ("-" in run or "." in run or "(" in run or "_" in run or _CAMEL.search(run)):
        _RUN_CODES[run] = None
        return None
    if _one_snake_span(run):
        snake = _RUN_CODES[run] = (["", ""], [run])
        return snake
    between: list[str] = []
    spans: list[str] = []
    at = 0
    for match in _CODE.finditer(run):
        between.append(run[at : match.start()])
        spans.append(match.group(0).lower().rstrip("."))
        at = match.end()
    between.append(run[at:])
    found = _RUN_CODES[run] = (between, spans) if spans else None
    return found


def _one_snake_span(run: str) -> bool:
    """Whether `_CODE` reads the whole run as one snake_case span, and nothing else: ASCII
    lowercase letters, digits and underscores, an underscore with a character either side.

    No other alternative can match there (each needs a `-`, `.`, `(` or a capital), and the
    snake_case one, tried at the run's start, takes the run to its end: the commonest
    marked run (`replica_device`) is then told without a regex.
    """
    return run.isascii() and run.islower() and run.replace("_", "").isalnum() and "_" in run[1:-1]


def _hide_codes_by_scan(text: str) -> tuple[str, list[str]]:
    """`hide_codes` of any text: `_CODE` tried on each run of non-space characters holding a mark."""
    codes: list[str] = []

    def hide(match: re.Match[str]) -> str:
        codes.append(match.group(0).lower().rstrip("."))
        return f" \x00{len(codes) - 1}\x00 "

    if not ("-" in text or "." in text or "(" in text or "_" in text or _CAMEL.search(text)):
        return text, codes
    return _MARKED_RUN.sub(lambda run: _CODE.sub(hide, run.group(0)), text), codes


def _read(items: list[_Item]) -> ActionTokens:
    """An action's `ActionTokens`, read left to right from the items of its tokens
    (`_items_of`).

    One loop over locals: a word's facts that do not depend on what came before it
    are looked up once per word token (`_Words.facts`), not worked out at every use.
    """
    weights: dict[str, float] = {}
    code_set: set[str] = set()
    anchors: set[str] = set()
    sides: set[tuple[int, int]] = set()
    verb: str | None = None
    first = True  # no word or code read yet: the next one is the action's verb
    negated = False
    tail = 1.0
    for number, item in enumerate(items):
        if item is None:  # punctuation ends a negation's reach
            negated = False
            if not first:
                tail = TAIL_WEIGHT
        elif isinstance(item, str):  # a command, flag, identifier or variable, whole (`NAME=value` as its two sides)
            for part in item.split("="):
                if part:
                    code_set.add(part)
                    weights.setdefault(("¬" + part) if negated else part, CODE_WEIGHT * tail)
            first = False
        else:
            lower, stem, brk, its_sides, opener, its_verb, negator, numeral, name = item
            if brk and not first:
                tail = TAIL_WEIGHT
            if its_sides:
                sides.update(its_sides)
            if first:
                if opener:
                    continue
                verb, first = its_verb, False
            if negator:
                negated = True
            elif numeral:
                anchors.add(lower[negated])
            else:
                if name and number > 0:
                    anchors.add(lower[negated])
                if stem is not None:
                    weights.setdefault(stem[negated], tail)
    return ActionTokens(weights, frozenset(code_set), frozenset(anchors), frozenset(sides), verb)


def _same_flag(a: str, b: str) -> bool:
    """`-f` and `--force` are one flag; otherwise only equal tokens are."""
    if a == b:
        return True
    short, long = (a, b) if len(a) == 2 else (b, a)
    return len(short) == 2 and short[0] == "-" and long.startswith("--" + short[1])


def _opposed(a: frozenset[tuple[int, int]], b: frozenset[tuple[int, int]]) -> bool:
    if not a or not b:
        return False  # (a side each must name: most actions name none)
    for index in {i for i, _ in a | b}:
        for side in (0, 1):
            mine, theirs = (index, side), (index, 1 - side)
            if mine in a and theirs not in a and theirs in b and mine not in b:
                return True
    return False


def action_similarity(a: str, b: str) -> float:
    """How surely two actions are the same action, 0..1 (see the module's docstring)."""
    left, right = action_tokens(a), action_tokens(b)
    if left.anchors - right.anchors and right.anchors - left.anchors:
        return 0.0
    if _opposed(left.sides, right.sides):
        return 0.0
    theirs = dict(right.weights)
    if left.code and right.code:
        their_code = sorted(right.code)
        pairs = [(x, y) for x in sorted(left.code) for y in their_code if _same_flag(x, y)]
        if not pairs:
            return 0.0
        for x, y in pairs:
            if x != y and y in theirs:
                theirs[x] = theirs.pop(y)
    mine = dict(left.weights)
    for name in left.anchors:
        mine.setdefault(name, ANCHOR_WEIGHT)
    for name in right.anchors:
        theirs.setdefault(name, ANCHOR_WEIGHT)
    if not mine or not theirs:
        return 1.0 if normalize_phrase(a) == normalize_phrase(b) else 0.0
    shared = sum(min(mine[k], theirs[k]) for k in mine.keys() & theirs.keys())
    total_a, total_b = sum(mine.values()), sum(theirs.values())
    score = (2 * shared / (total_a + total_b) + shared / min(total_a, total_b)) / 2
    if left.verb and right.verb and left.verb != right.verb and "use" not in (left.verb, right.verb):
        score *= VERB_DISCOUNT
    return score


def same_action(a: str, b: str, bar: float = SAME_ACTION) -> bool:
    return action_similarity(a, b) >= bar


@dataclass(frozen=True)
class Pair:
    """Two actions of one list of texts that read as one, and how alike they are."""

    first: int
    second: int
    score: float


def alike_pairs(texts: Sequence[str], bar: float, budget: int) -> list[Pair]:
    """Every pair of `texts` at least `bar` alike, comparing at most `budget` pairs
    (in order: each text with those before it), so a list of any length costs a bounded
    number of steps; texts equal once folded are always found."""
    found: list[Pair] = []
    seen: dict[str, int] = {}
    steps = 0
    keys = [normalize_phrase(text) for text in texts]
    for second, text in enumerate(texts):
        key = keys[second]
        if key in seen:
            found.append(Pair(seen[key], second, 1.0))
            continue
        seen[key] = second
        for first in range(second):
            if steps >= budget:
                break
            steps += 1
            if keys[first] == key:
                continue
            score = action_similarity(texts[first], text)
            if score >= bar:
                found.append(Pair(first, second, score))
    return found
