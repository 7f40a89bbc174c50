"""Template families: entries written from one message template that differ in a named value.

"AI tells someone in Vietnam to call 911" and "... in Hong Kong to call 911",
`'NoneType' object is not subscriptable` and `'coroutine' object is not
subscriptable`: the same frame of words around a slot that names something else
(a country, a type, a module, a product). Such entries describe different
errors, so they are no near-duplicates; they are reported once, as a family
(`entrykit dupes --families`).

Two normalised signatures are *siblings* when their word sequences, aligned
(difflib's longest matching blocks), share at least `MIN_FRAME` words and at
least half the words of the longer one, and one replaced span holds name words
on both sides that differ. Name words are those of a signature's names: quoted
or backticked values without a space, class, module, dotted and snake-case
names, acronyms, environment variables, and capitalised words inside a sentence
(`Vietnam`, `Hong Kong`); see `name_words`. A slot that opens the message (a class
or logger name before it) does not count, nor one whose value on either side only
stands for a name (`'X'`, `'filename'`, `App\\SomeClass`: see `placeholder`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from entrykit import message_tokens

MIN_FRAME = 3  # words two siblings share at least
MAX_WORDS = 120  # words of a signature compared (alignment is quadratic in them)

# Token classes whose words name something (see `entrykit.message_tokens`).
NAME_KINDS = frozenset({
    message_tokens.CALL, message_tokens.DOTTED, message_tokens.IDENTIFIER, message_tokens.CLASS,
    message_tokens.COMPOUND, message_tokens.ACRONYM, message_tokens.VARIABLE, message_tokens.METAVAR,
})
_QUOTES = frozenset({message_tokens.QUOTED, message_tokens.CODE})
_WORD = re.compile(r"\w+")
_CAPITALISED = re.compile(r"\b[A-Z][a-z][\w'-]*")
_SENTENCE_END = ".:!?;|>=(\"'`[{-"


def name_words(text: str, volatile: Iterable[str]) -> frozenset[str]:
    """The casefolded words of the names in a signature (token classes in `volatile` are
    left out: they become placeholders, not names)."""
    text = message_tokens.fold(text)
    skip = frozenset(volatile)
    names: set[str] = set()

    _read_names(message_tokens.scan(text), text, skip, names)
    for match in _CAPITALISED.finditer(text):
        before = last_before(text, match.start())
        if before and before not in _SENTENCE_END and match.group().upper() not in message_tokens.SHOUTED_WORDS:
            names.update(_WORD.findall(match.group().casefold()))
    return frozenset(names)


def _read_names(tokens: Iterable[message_tokens.Token], text: str, skip: frozenset[str], names: set[str]) -> None:
    """`name_words`' walk of the tokens, into `names`. A module function: a nested function
    that calls itself is a reference cycle, left for the cycle collector by every call."""
    for token in tokens:
        if token.kind in skip:
            continue
        if token.kind in _QUOTES:
            if " " in token.value.strip():
                _read_names(token.inner, text, skip, names)  # a quoted sentence: its own names count
            else:  # a quoted name: its words, without the volatile tokens inside it
                pieces, at = [], token.start
                for inner in sorted((t for t in token.inner if t.kind in skip), key=lambda t: t.start):
                    pieces.append(text[at : inner.start])
                    at = inner.end
                pieces.append(text[at : token.end])
                names.update(_WORD.findall(" ".join(pieces).casefold()))
        elif token.kind in NAME_KINDS:
            names.update(_WORD.findall(token.value.casefold()))


def last_before(text: str, end: int) -> str:
    """The last character of `text[:end]` that is not a space (`text[:end].rstrip()[-1:]`,
    without copying the text before every capitalised word)."""
    at = end - 1
    while at >= 0 and text[at].isspace():
        at -= 1
    return text[at] if at >= 0 else ""


Opcode = tuple[str, int, int, int, int]

# What a word of one side that the other side lacks becomes in `_opcodes`' key: one
# stand-in per side, so that no stand-in equals a word or the other side's stand-in.
_ONLY_LEFT = 0
_ONLY_RIGHT = 1


def _opcodes(a: Sequence[str], b: Sequence[str]) -> Sequence[Opcode]:
    """difflib's opcodes of the two word lists (their first `MAX_WORDS` words).

    difflib only ever compares a word of `a` with a word of `b`, so a word the other side
    lacks can stand in for any other such word: the pairs of one template with another
    value in its slot (most of a template corpus) are then aligned once, not once each."""
    a, b = a[:MAX_WORDS], b[:MAX_WORDS]
    return _opcodes_of(a, b, set(a), set(b))


def _opcodes_of(a: Sequence[str], b: Sequence[str], left: set[str], right: set[str]) -> Sequence[Opcode]:
    """`_opcodes` of word lists cut to `MAX_WORDS` already, with the sets of their words."""
    # each word of a side, or its side's stand-in where the other side lacks it
    alone_left = dict.fromkeys(left - right, _ONLY_LEFT).get
    alone_right = dict.fromkeys(right - left, _ONLY_RIGHT).get
    return _aligned(tuple(map(alone_left, a, a)), tuple(map(alone_right, b, b)))


@lru_cache(maxsize=4096)
def _aligned(a: tuple[str | int, ...], b: tuple[str | int, ...]) -> tuple[Opcode, ...]:
    """`SequenceMatcher(None, a, b, autojunk=False).get_opcodes()`, remembered."""
    return tuple(SequenceMatcher(None, a, b, autojunk=False).get_opcodes())


def siblings(a: Sequence[str], a_names: Collection[str], b: Sequence[str], b_names: Collection[str]) -> bool:
    """Whether two normalised signatures (word lists, with their name words) are one
    template with another named value in a slot."""
    if not a_names or not b_names or a == b:
        return False
    a, b = a[:MAX_WORDS], b[:MAX_WORDS]
    words_a, words_b = set(a), set(b)
    longest = max(len(a), len(b))
    # difflib aligns a word only with an equal word of the other side: no more words align
    # than either side holds of the other's. Where that is short of the frame, so is the
    # alignment, which is not made (most pairs near-duplicate search asks about)
    most = min(sum(word in words_b for word in a), sum(word in words_a for word in b))
    if most < MIN_FRAME or 2 * most < longest:
        return False
    codes = _opcodes_of(a, b, words_a, words_b)
    frame = sum(i2 - i1 for tag, i1, i2, _, _ in codes if tag == "equal")
    if frame < MIN_FRAME or 2 * frame < longest:
        return False
    for tag, i1, i2, j1, j2 in codes:
        if tag != "replace" or i1 == j1 == 0:
            continue  # a class or logger before the message is a prefix, not a slot in it
        left = {w for w in a[i1:i2] if w in a_names}
        right = {w for w in b[j1:j2] if w in b_names}
        if left and right and left != right and not (placeholder(left) or placeholder(right)):
            return True
    return False


# Words that stand for any name in a message written as an example: `'X'`, `'filename'`,
# `App\SomeClass`, `'property'`, `'branch-name'`, `my_model`.
PLACEHOLDER_WORDS = frozenset(
    """
    foo bar baz qux quux xxx yyy zzz placeholder example sample something name names filename
    file path dir directory property prop method attr attribute branch your some my the
    """.split()  # noqa: SIM905
)
_PLACEHOLDER_NOUNS = frozenset(
    """
    class module model app project package pkg func function var table component service image
    container bucket repo file branch key db database object obj field method property name
    """.split()  # noqa: SIM905
)


def placeholder(words: set[str]) -> bool:
    """Whether a slot's name words only stand for a name (`x`, `filename`, `someclass`, `my_module`)."""
    return all(map(_stands_for_a_name, words))


@lru_cache(maxsize=4096)  # a template corpus asks it of the same slot words pair after pair
def _stands_for_a_name(word: str) -> bool:
    """Whether one word only stands for a name (see `placeholder`)."""
    if len(word) == 1 or word in PLACEHOLDER_WORDS:
        return True
    for prefix in ("some", "my", "your", "example"):
        if word.startswith(prefix) and word[len(prefix) :] in _PLACEHOLDER_NOUNS:
            return True
    return False


def template(a: Sequence[str], b: Sequence[str]) -> str:
    """The words two siblings share, `…` where they differ."""
    out: list[str] = []
    for tag, i1, i2, _, _ in _opcodes(a, b):
        if tag == "equal":
            out.extend(a[i1:i2])
        elif not out or out[-1] != "…":
            out.append("…")
    return " ".join(out)


def slot_values(representative: Sequence[str], member: Sequence[str]) -> list[str]:
    """The member's words where it differs from the representative, one string per slot."""
    return [
        " ".join(member[j1:j2]) for tag, _, _, j1, j2 in _opcodes(representative, member) if tag != "equal" and j2 > j1
    ]


def _slots_of(head: Sequence[str], member: Sequence[str], known: dict[int, tuple[str, ...]]) -> tuple[str, ...]:
    """`slot_values` of a member, kept in `known` by the word list's identity."""
    found = known.get(id(member))
    if found is None:
        found = known[id(member)] = tuple(slot_values(head, member))
    return found


@dataclass(frozen=True)
class Family:
    """Entries (by number) made from one template: members sorted by id, the first the
    representative; `template` the words they share; `values` each member's slot words."""

    members: tuple[int, ...]
    template: str
    values: tuple[tuple[str, ...], ...]


def families(
    edges: Iterable[tuple[int, int]], words: Mapping[int, Sequence[str]], order: Mapping[int, tuple[str, str]]
) -> list[Family]:
    """Connected groups of sibling edges, largest first; `order` sorts members (id, path)."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in edges:
        a, b = find(i), find(j)
        if a != b:
            parent[max(a, b, key=lambda k: order[k])] = min(a, b, key=lambda k: order[k])
    groups: dict[int, list[int]] = {}
    for x in parent:
        groups.setdefault(find(x), []).append(x)
    out: list[Family] = []
    for members in groups.values():
        members.sort(key=lambda k: order[k])
        head = words[members[0]]
        shape = template(head, words[members[1]])
        # members of one signature often share one word list (one object): their slots are one
        slots: dict[int, tuple[str, ...]] = {}
        values = tuple(_slots_of(head, words[m], slots) for m in members)
        out.append(Family(tuple(members), shape, values))
    out.sort(key=lambda f: (-len(f.members), order[f.members[0]]))
    return out
