"""Near-duplicate entries: candidate pairs without all-pairs work, each scored with its reasons.

Candidates come from cheap sources, never from comparing every pair:

1. entries with one normalised signature (and, for `entrykit dupes`, one id):
   every pair of such a set scores 1.0, so the set is counted and walked in id
   order (`_Cliques`), never listed pair by pair;
2. MinHash LSH (datasketch's MinHash and band layout, computed here; 128
   permutations, bands tuned for a Jaccard of `candidate`) over 1-2-gram
   shingles of the normalised signature plus id tokens (a corpus of at most
   `EXACT_LIMIT` entries compares every pair instead);
3. ids that are the same `<domain>/<slug>` once a trailing environment
   (`-nginx1.24-linux`, `-py311`, `-jp`) is removed;
4. pairs where one entry's regex matches the other's signature, whatever the
   wording, read from the corpus regex index (`regex_matches`); a regex that
   matches the texts of more than `REGEX_REACH` other entries is a broad lookup
   (ET209's finding), not evidence of one error written twice.

Each candidate is then scored from independent signals (see `score_pair`). Pairs
whose signatures are one template with another named value in a slot are no
duplicates but a template family (`entrykit.similarity.families`). Each entry
keeps its `per_entry` closest pairs; the others are counted (`Duplicates`).
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import re
import struct
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, cast

try:  # the builtin SHA-1: OpenSSL's takes longer to set up than a shingle takes to hash
    from _sha1 import sha1 as _sha1  # type: ignore[import-not-found]
except ImportError:  # (a Python built without it)
    from hashlib import sha1 as _sha1

from entrykit import message_tokens
from entrykit.deferred import deferred
from entrykit.entry import Entry
from entrykit.globs import GlobSet
from entrykit.regex.literal_index import (
    MIN_LITERAL,
    corpus_cross_matches,
    fold,
    literals_of,
    regex_fact,
    satisfied,
)
from entrykit.regex.runner import Job, RegexRunner, Status, shared_runner
from entrykit.similarity import families as family_search
from entrykit.similarity.phrases import normalize_phrase, phrase_similarity

rapidfuzz = deferred("rapidfuzz")  # (run on the first comparison of two ids)

Progress = Callable[[str, int, int], None]

NUM_PERM = 128  # MinHash permutations
BUCKET_LIMIT = 64  # entries in one LSH bucket beyond which pairs are chained
EXACT_LIMIT = 400  # corpora up to this size compare every pair of shingle sets instead
PER_ENTRY = 3  # pairs shown per entry by default; the rest are counted
REGEX_REACH = 8  # a regex matching texts of more other entries than this is broad, not evidence
KIN_KEPT = 1 << 16  # sibling answers kept while scoring (see `_scored`)
PROFILE_VERSION = 3  # of the per-file `dupes` fact: a new normalisation invalidates cached ones

# What each class of message token becomes in a normalised signature: one placeholder
# word. These are the volatile tokens: what differs between two occurrences of one
# error (numbers, paths, addresses, shapes ...). Names (quoted values, classes,
# modules, identifiers) stay words: they tell one error from another.
PLACEHOLDERS: Mapping[str, str] = {
    message_tokens.URL: "vurl",
    message_tokens.SHAPE: "vshape",
    message_tokens.HEX: "vhex",
    message_tokens.PATH: "vpath",
    message_tokens.REF: "vpath",
    message_tokens.NUMBER: "vnum",
    message_tokens.VERSION: "vnum",
    message_tokens.POSITION: "vnum",
    message_tokens.ADDRESS: "vnum",
    message_tokens.QUANTITY: "vnum",
}
_UNIT_WORDS = frozenset(
    "b kb mb gb tb pb kib mib gib tib pib bytes khz mhz ghz ms us ns sec secs seconds minutes".split()
)
_NUMBERS = frozenset(PLACEHOLDERS[k] for k in (message_tokens.NUMBER, message_tokens.QUANTITY))
_SPACE = re.compile(r"\s")
_WORD = re.compile(r"\w+")
_ID_SPLIT = re.compile(r"[/._-]+")
_SLUG_SPLIT = re.compile(r"[._-]+")

# Trailing slug tokens that name an environment rather than the error.
_ENV_WORDS = frozenset(
    "linux windows win macos mac darwin osx ios android wsl unix bsd freebsd any all "
    "x86 x64 amd64 arm64 aarch64 cpu gpu".split()
)
# Two-letter words that end slugs as English, not as country or locale codes.
_NOT_CODES = frozenset("in on up to of is by or as an if do go me my we us so".split())


def normalize_signature(text: str, placeholders: Mapping[str, str] = PLACEHOLDERS) -> str:
    """The signature's words, casefolded, each message token of a class in `placeholders`
    (see `entrykit.message_tokens`) replaced by that class's placeholder word.

    A quoted text with a space in it is a sentence (`msg="cannot open cache"`), not a
    name: its words stay, and the tokens inside it are read.
    """
    text = message_tokens.fold(text)

    def sentence(token: message_tokens.Token) -> bool:
        return token.kind not in placeholders or bool(_SPACE.search(token.value))

    tokens = [t for t in message_tokens.walk(message_tokens.scan(text), sentence) if t.kind in placeholders]
    text = message_tokens.replace(text, tokens, lambda t: f" {placeholders[t.kind]} ", str.casefold)
    words = _WORD.findall(text)
    if _UNIT_WORDS.isdisjoint(words):
        return " ".join(words)
    # `20.00 MiB` and `1.50 GiB` are one quantity each: a unit after a number goes with it
    return " ".join([w for n, w in enumerate(words) if not (n and w in _UNIT_WORDS and words[n - 1] in _NUMBERS)])


def signature_shingles(
    text: str, normalized: str | None = None, pool: dict[str, str] | None = None
) -> frozenset[str]:
    """1- and 2-gram shingles of the normalised signature. With `pool`, each shingle is
    the pool's one copy of that text (a corpus repeats its words many times over)."""
    words = (normalize_signature(text) if normalized is None else normalized).split()
    grams = set(words)
    grams.update(map(" ".join, itertools.pairwise(words)))
    if pool is not None:
        return frozenset(map(pool.setdefault, grams, grams))
    return frozenset(grams)


def id_tokens(entry_id: str) -> list[str]:
    """The words of an id, without pure numbers (which name nothing)."""
    return [t for t in _ID_SPLIT.split(entry_id.casefold()) if t and not t.isdigit()]


def _env_like(token: str) -> bool:
    if token.isalpha():  # (no letter is a digit) a word names an environment by itself alone
        return token in _ENV_WORDS or (len(token) == 2 and token not in _NOT_CODES)
    if token.isdigit():  # a bare number, not an environment's name
        return False
    has_digit = any(map(str.isdigit, token))
    has_alpha = any(map(str.isalpha, token))
    if has_digit and has_alpha:  # nginx1, py311, node20, win10
        return True
    if token in _ENV_WORDS:
        return True
    return len(token) == 2 and token.isalpha() and token not in _NOT_CODES


def variant_key(entry_id: str) -> str | None:
    """`<domain>/<slug>` without a trailing environment, or None if the id names none.

    `nginx/ssl-error-nginx1.24-linux` -> `nginx/ssl-error`. A bare number is part
    of an environment only right after its name (`nginx1.24`); alone
    (`import-error-000017`) it is a counter.
    """
    if entry_id.count("/") != 1:
        return None
    domain, slug = entry_id.split("/")
    tokens = [t for t in _SLUG_SPLIT.split(slug) if t]
    end = len(tokens)
    named = False
    while end > 0:
        token = tokens[end - 1]
        if _env_like(token):
            named = True
        elif not (token.isdigit() and end >= 2 and _env_like(tokens[end - 2])):
            break  # a number belongs to the environment only after its name (nginx1.24)
        end -= 1
    if not named or end < 1:
        return None
    return f"{domain}/{'-'.join(tokens[:end])}"


@dataclass(frozen=True)
class Settings:
    """What counts as a near-duplicate (the `[tool.entrykit.dupes]` table)."""

    threshold: float = 0.6
    candidate: float = 0.5
    allow: tuple[str, ...] = ()

    @classmethod
    def from_section(cls, section: Mapping[str, Any]) -> Settings:
        defaults = cls()
        return cls(
            threshold=float(section.get("threshold", defaults.threshold)),
            candidate=float(section.get("candidate", defaults.candidate)),
            allow=tuple(section.get("allow", defaults.allow)),
        )

    @cached_property
    def allowed_families(self) -> GlobSet:
        """`allow` as a set of globs, compiled once per run."""
        return GlobSet(self.allow)


@dataclass(frozen=True)
class Reason:
    """One signal that two entries describe the same error, with its strength (0..1)."""

    code: str
    text: str
    strength: float


@dataclass(frozen=True)
class Pair:
    """Two entries that look like one error: a score and the reasons for it."""

    a: Entry
    b: Entry
    score: float
    reasons: tuple[Reason, ...]


@lru_cache(maxsize=8)
def band_layout(threshold: float, num_perm: int = NUM_PERM) -> tuple[int, int]:
    """(bands, rows) that datasketch's MinHash LSH picks for `threshold`: the layout whose
    false positive and false negative areas (equal weights) add up to the least.

    The areas are integrals of polynomials of degree at most `num_perm`, which
    Gauss-Legendre quadrature of that many nodes gives exactly (up to rounding).
    """
    import numpy as np

    nodes, weights = np.polynomial.legendre.leggauss(num_perm // 2 + 1)
    layouts = [(bands, rows) for bands in range(1, num_perm + 1) for rows in range(1, num_perm // bands + 1)]
    bands = np.array([b for b, _ in layouts], dtype=float)[:, None]
    rows = np.array([r for _, r in layouts], dtype=float)[:, None]

    def points(low: float, high: float) -> tuple[Any, float]:
        return (high - low) / 2 * nodes + (high + low) / 2, (high - low) / 2

    below, scale_below = points(0.0, threshold)
    above, scale_above = points(threshold, 1.0)
    positive = scale_below * ((1 - (1 - below**rows) ** bands) @ weights)
    negative = scale_above * (((1 - above**rows) ** bands) @ weights)
    return layouts[int(np.argmin(positive * 0.5 + negative * 0.5))]


@lru_cache(maxsize=2)
def _permutations(num_perm: int) -> tuple[Any, Any]:
    """The affine maps h -> a * h + b (mod 2**32) of datasketch's MinHash (seed 1, its
    default `affine32` scheme), drawn the way it draws them."""
    import numpy as np

    gen = np.random.RandomState(1)
    a = gen.randint(0, 1 << 31, num_perm, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, num_perm, dtype=np.uint32)
    return a, b


@lru_cache(maxsize=4)
def _affine(num_perm: int, length: int) -> tuple[Any, Any]:
    """The first `length` of the `num_perm` affine maps (band keys read no more of a MinHash)."""
    import numpy as np

    a, b = _permutations(num_perm)
    return np.ascontiguousarray(a[:length]), np.ascontiguousarray(b[:length])


def _shingle_hash(text: str) -> int:
    """SHA-1's first four bytes of the text (little-endian), through MurmurHash3's finalizer."""
    h: int = _FIRST_WORD(_sha1(text.encode("utf-8")).digest())[0]
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


_FIRST_WORD = struct.Struct("<I").unpack_from
# A corpus repeats its shingles many times over: each is hashed once per process (a dict,
# not an lru_cache: a lookup that reorders nothing is several times cheaper).
_SHINGLE_HASHES: dict[str, int] = {}
SHINGLE_HASHES_KEPT = 1 << 17  # beyond this many, the dict starts again (a bound on memory)


def _shingle_hashes(shingles: Collection[str]) -> array[int]:
    """`_shingle_hash` of each shingle, in order, as an array of C integers."""
    hashes = list(map(_SHINGLE_HASHES.get, shingles))
    if None in hashes:
        _hash_missing(shingles, hashes)
    return array(_UINT32, cast("list[int]", hashes))  # (none is None now)


def _hash_missing(shingles: Collection[str], hashes: list[int | None]) -> None:
    """Fill in the hashes `_SHINGLE_HASHES` lacked (None in `hashes`), remembering each."""
    known = _SHINGLE_HASHES
    for n, text in enumerate(shingles):
        if hashes[n] is None:
            if len(known) >= SHINGLE_HASHES_KEPT:
                known.clear()
            hashes[n] = known[text] = _shingle_hash(text)


def minhash(shingles: Collection[str], num_perm: int = NUM_PERM) -> Any:
    """The MinHash signature of a set of strings (uint32 array), equal to datasketch's
    `MinHash(num_perm).update_batch(...)`: SHA-1's first four bytes, MurmurHash3's
    finalizer, then the affine maps. Computed here because importing datasketch pulls
    in scipy, which costs a second or two in every process that checks files."""
    return _minhash(shingles, num_perm, num_perm)


def _minhash(shingles: Collection[str], num_perm: int, length: int) -> Any:
    """The first `length` values of `minhash` (a minimum does not depend on the order it is taken in)."""
    import numpy as np

    hashes = _shingle_hashes(shingles)
    count = len(hashes)
    if not count:
        return np.full(length, (1 << 32) - 1, dtype=np.uint32)
    a, b = _affine_tiles(num_perm, length, count)
    # each hash repeated once per map, against the maps tiled as often: one-dimensional
    # operands of one length cost numpy far less to set up than a broadcast outer product
    # (uint32 arithmetic wraps mod 2**32, as the affine maps are defined)
    images = np.frombuffer(hashes, dtype=np.uint32).repeat(length)
    np.multiply(images, a, out=images)
    np.add(images, b, out=images)
    return np.minimum.reduce(images.reshape(count, length), 0)


TILED_MAX = 64  # shingles up to which the affine maps are tiled once per count (bounds their memory)


def _affine_tiles(num_perm: int, length: int, count: int) -> tuple[Any, Any]:
    """The first `length` affine maps' factors and offsets, `count` times over, one after
    another (kept per count up to TILED_MAX: a corpus's signatures have a few dozen counts)."""
    return (_tiled_maps if count > TILED_MAX else _tiled_maps_kept)(num_perm, length, count)


def _tiled_maps(num_perm: int, length: int, count: int) -> tuple[Any, Any]:
    """`_affine_tiles`, made."""
    import numpy as np

    a, b = _affine(num_perm, length)
    return np.tile(a, count), np.tile(b, count)


_tiled_maps_kept = lru_cache(maxsize=4 * TILED_MAX)(_tiled_maps)


# The `array` type code of a four-byte unsigned integer: `I` wherever a C int has 32 bits.
_UINT32 = next(code for code in "IL" if array(code).itemsize == 4)


@lru_cache(maxsize=8)
def _band_mix(rows: int) -> Any:
    import numpy as np

    return np.random.default_rng(7).integers(1, 2**63, size=rows, dtype=np.uint64) | np.uint64(1)


def prepare_band_keys(threshold: float, num_perm: int = NUM_PERM) -> None:
    """Import numpy and make `band_keys`' tables now (before processes fork, so they share them)."""
    bands, rows = band_layout(threshold, num_perm)
    _affine(num_perm, bands * rows)
    _band_mix(rows)


def band_keys(shingles: Collection[str], threshold: float, num_perm: int = NUM_PERM) -> tuple[int, ...]:
    """One hash per LSH band of the MinHash of `shingles`: two sets share a candidate bucket
    when one of their band keys is equal."""
    return tuple(_band_array(shingles, threshold, num_perm).tolist())


def _band_array(shingles: Collection[str], threshold: float, num_perm: int) -> Any:
    """`band_keys` as a numpy uint64 array: each band's rows times `_band_mix`, summed
    (wrapping mod 2**64: a hash of the band's rows)."""
    bands, rows = band_layout(threshold, num_perm)
    # (uint32 rows times the uint64 mix: matmul reads the rows as uint64 itself)
    return _minhash(shingles, num_perm, bands * rows).reshape(bands, rows) @ _band_mix(rows)


def _bucket_links(members: list[int]) -> list[tuple[int, int]]:
    if len(members) > BUCKET_LIMIT:
        return list(itertools.pairwise(members))
    return [(x, y) for n, x in enumerate(members) for y in members[n + 1 :]]


def lsh_candidates(
    sets: Sequence[frozenset[str]],
    threshold: float,
    num_perm: int = NUM_PERM,
    keys: Sequence[Sequence[int] | bytes | None] | None = None,
    focus: Iterable[int] | None = None,
) -> Iterator[tuple[int, int]]:
    """Pairs (i < j) likely to have Jaccard >= threshold: MinHash LSH, banded.

    Up to `EXACT_LIMIT` sets every pair is compared instead (exact). Above it,
    the sets' MinHash signatures (datasketch) are cut into b bands of r rows
    (datasketch's layout for the threshold) and each band hashed (`band_keys`;
    `keys` passes them in when already known). Every pair sharing one band key is
    a candidate. A bucket of more than `BUCKET_LIMIT` entries (one message filed
    many times) is chained, so its entries still form one cluster without
    quadratic pairs. With `focus`, only the pairs that involve one of those sets.
    """
    wanted = set(focus) if focus is not None else None
    present = [i for i, shingles in enumerate(sets) if shingles]
    if len(present) <= EXACT_LIMIT:
        # Comparing every pair of a small corpus is exact, and quicker than
        # importing datasketch (its import alone takes about a second).
        yield from _exact_pairs(sets, present, threshold, wanted)
        return
    known = keys or [None] * len(sets)
    rows = [known[i] or band_keys(sets[i], threshold, num_perm) for i in present]
    yield from _banded(_band_matrix(rows), present, wanted)


def _banded(matrix: Any, present: list[int], wanted: set[int] | None) -> Iterator[tuple[int, int]]:
    """The pairs of `present` sharing a band key (involving one of `wanted`, if given)."""
    if wanted is not None:
        yield from _focused_band_pairs(matrix, present, wanted)
    else:
        yield from _band_pairs(matrix, present)


def _exact_pairs(
    sets: Sequence[frozenset[str]], present: list[int], threshold: float, wanted: set[int] | None
) -> Iterator[tuple[int, int]]:
    """Every pair of `present` (involving one of `wanted`, if given) with Jaccard >= threshold
    (`_jaccard`, inlined: a small corpus of one template has nearly every pair a candidate)."""
    for n, i in enumerate(present):
        left = sets[i]
        size = len(left)
        others = present[n + 1 :]
        if wanted is not None and i not in wanted:
            others = [j for j in others if j in wanted]
        for j in others:
            right = sets[j]
            common = len(left.intersection(right))
            if common / (size + len(right) - common) >= threshold:
                yield (i, j)


def _band_matrix(rows_of: Sequence[Sequence[int] | bytes]) -> Any:
    """Band keys, one row each (bytes as the cache keeps them, or integers), as a numpy
    uint64 matrix."""
    import numpy as np

    if all(isinstance(row, bytes) for row in rows_of):
        return np.frombuffer(b"".join(rows_of), dtype="<u8").astype(np.uint64).reshape(len(rows_of), -1)  # type: ignore[arg-type]
    return np.array(
        [np.frombuffer(row, dtype="<u8") if isinstance(row, bytes) else row for row in rows_of], dtype=np.uint64
    )


def _focused_band_pairs(matrix: Any, present: list[int], wanted: set[int]) -> Iterator[tuple[int, int]]:
    """The pairs sharing a band key with one of `wanted`, each once."""
    import numpy as np

    seen: set[tuple[int, int]] = set()
    positions = np.array(present)
    place = {i: k for k, i in enumerate(present)}
    for i in sorted(wanted):
        if i not in place:
            continue
        for band in range(matrix.shape[1]):
            column = matrix[:, band]
            members = [int(m) for m in positions[np.flatnonzero(column == column[place[i]])]]
            if len(members) < 2:
                continue
            for pair in _bucket_links(members):
                if i in pair and pair not in seen:
                    seen.add(pair)
                    yield pair


def _band_pairs(matrix: Any, present: list[int]) -> Iterator[tuple[int, int]]:
    """The pairs sharing a band key, each once, in order (see `_band_codes`)."""
    total = max(present) + 1 if present else 1
    for code in _code_array(_band_codes(matrix, present, total)):
        yield divmod(code, total)


def _band_codes(matrix: Any, present: list[int], total: int) -> Any:
    """The pairs (i < j) sharing a band key as sorted, distinct codes `i * total + j`
    (a numpy int64 array): band by band, its buckets found by sorting; the bands' pairs
    merged into those found once they outnumber them (so each pair is merged a few times,
    not once a band, and what is held stays within about twice the pairs found). Eight
    bytes a pair, where a set of tuples held some twenty times that for every pair of a
    large corpus at once."""
    import numpy as np

    where = np.asarray(present, dtype=np.int64)
    found = np.zeros(0, dtype=np.int64)
    pending: list[Any] = []  # bands' codes not merged yet, merged once they outgrow `found`
    held = 0
    for band in range(matrix.shape[1]):
        column = matrix[:, band]
        order = np.argsort(column, kind="stable")
        ordered = column[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        sizes = np.diff(np.r_[starts, len(ordered)])
        members = where[order]
        # Most buckets hold two entries: their pairs without sorting each bucket.
        two = starts[sizes == 2]
        first, second = members[two], members[two + 1]
        codes = [np.minimum(first, second) * total + np.maximum(first, second)]
        larger = sizes[sizes > 2]
        if len(larger):
            # (the sizes by a set, not `np.unique`: numpy imports its masked arrays for that, 10 ms)
            codes.extend(_bucket_codes(members, starts[sizes == size], size, total) for size in sorted(set(larger.tolist())))
        if codes:
            pending.append(np.concatenate(codes))
            held += len(pending[-1])
            if held > max(len(found), MERGE_MIN):
                found, pending, held = sorted_distinct([found, *pending]), [], 0
    return sorted_distinct([found, *pending])


def _bucket_codes(members: Any, starts: Any, size: int, total: int) -> Any:
    """The codes of the pairs of every bucket of `size` members (`members[start:start + size]`
    for each of `starts`), all buckets at once: a template corpus has thousands of
    buckets of a few sizes, which one at a time cost a few numpy calls each. The order
    of the codes does not matter (`_band_codes` sorts them)."""
    import numpy as np

    buckets = np.sort(members[starts[:, None] + np.arange(size)], axis=1)
    if size > BUCKET_LIMIT:  # chained (see `_bucket_links`)
        return (buckets[:, :-1] * total + buckets[:, 1:]).ravel()
    first, second = _pair_indices(size)
    return (buckets[:, first] * total + buckets[:, second]).ravel()


@lru_cache(maxsize=BUCKET_LIMIT)
def _pair_indices(size: int) -> tuple[Any, Any]:
    """The positions (first, second) of every pair of a bucket of `size` members."""
    import numpy as np

    return np.triu_indices(size, 1)


MERGE_MIN = 1 << 16  # codes of bands held before they are merged into those found (see `_band_codes`)


def sorted_distinct(arrays: Sequence[Any]) -> Any:
    """The distinct values of some int64 arrays, sorted: `np.union1d` of them all, by a sort
    (numpy's `unique` hashes first, which on a band's many repeated codes is far slower)."""
    import numpy as np

    merged = np.sort(np.concatenate(arrays))
    if len(merged) < 2:
        return merged
    return merged[np.concatenate(([True], merged[1:] != merged[:-1]))]


def _jaccard(a: Collection[str], b: Collection[str]) -> float:
    """Jaccard similarity of two collections of distinct texts (sets, or tuples without repeats)."""
    if not a and not b:
        return 0.0
    common = len((a if isinstance(a, (set, frozenset)) else set(a)).intersection(b))
    return common / (len(a) + len(b) - common)


def _refs(entry: Entry) -> set[str]:
    graph = entry.dict_field("transition_graph")
    out: set[str] = set()
    items = graph.get("frequently_confused_with")
    for item in items if isinstance(items, list) else []:
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict) and isinstance(item.get("error_id"), str):
            out.add(item["error_id"])
    return out


def _names(entry: Entry) -> set[str]:
    names = {a for a in entry.list_field("aliases") if isinstance(a, str)}
    if entry.id:
        names.add(entry.id)
    return names


def already_related(a: Entry, b: Entry) -> bool:
    """True when the pair is known already: an alias of each other, or marked as confusable."""
    names_a, names_b = _names(a), _names(b)
    if a.id and a.id == b.id:
        return False  # one id twice: not a relation but a duplicate (ET501's finding)
    if (a.id and a.id in names_b) or (b.id and b.id in names_a):
        return True
    return bool(_refs(a) & names_b) or bool(_refs(b) & names_a)


def allowed(a: Entry, b: Entry, families: GlobSet) -> bool:
    """True when one allow-list pattern matches both ids (an intentional family)."""
    if not a.id or not b.id:
        return False
    return families.mask(a.id) & families.mask(b.id) != 0


def _actions(entry: Entry) -> tuple[str, ...]:
    return _profile(entry)[5]


# Workaround pairs one entry pair compares by wording, and the characters of each action read
# there: the ratio costs the product of two actions' lengths, and comparing every pair the
# product of two lists'. Real entries hold at most 5 workarounds, of at most 438 characters.
OVERLAP_BUDGET = 1024
OVERLAP_CHARS = 1024


def workaround_overlap(a: Entry, b: Entry, threshold: float = 0.85) -> float:
    """Share of the shorter workaround list that has a counterpart in the other list."""
    left, right = _actions(a), _actions(b)
    if not left or not right:
        return 0.0
    if len(left) > len(right):
        left, right = right, left
    return _with_counterpart(left, right, threshold) / len(left)


def _with_counterpart(left: Sequence[str], right: Sequence[str], threshold: float) -> int:
    """How many of `left` read at least `threshold` alike one of `right`: an equal wording
    always counts; past `OVERLAP_BUDGET` comparisons (each of the actions' first
    `OVERLAP_CHARS` characters) nothing else does."""
    theirs = set(map(normalize_phrase, right))
    budget = OVERLAP_BUDGET
    found = 0
    for x in left:
        if normalize_phrase(x) in theirs:
            found += 1
            continue
        for y in right:
            if budget <= 0:
                break
            budget -= 1
            if phrase_similarity(x[:OVERLAP_CHARS], y[:OVERLAP_CHARS]) >= threshold:
                found += 1
                break
    return found


def _slug(entry: Entry) -> str:
    return (entry.id or "").split("/")[-1]




@dataclass(slots=True)
class _Signals:
    """What is known about one candidate pair before scoring."""

    variant: str | None = None
    same_id: bool = False
    a_matches_b: bool = False
    b_matches_a: bool = False


_NO_SIGNALS = _Signals()  # a pair only LSH brought (never changed: scoring reads signals only)


# Environment variants of one id beyond this many are a family, not duplicates
# written by accident; their pairs would grow quadratically.
VARIANT_GROUP_LIMIT = 64

# How much each signal adds (noisy-OR), see `score_pair`.
SUPPORT_IDS = 0.5
SUPPORT_WORKAROUNDS = 0.5
SUPPORT_DOMAIN = 0.1
REGEX_BOTH = 0.5  # each regex matches the other's signature (within one domain; half across)
REGEX_ONE = 0.2  # one regex matches the other's signature
# The evidence a pair needs before similar ids and a shared domain count: they lift a
# pair, never make one.
MIN_BASE = 0.5


@dataclass(frozen=True, slots=True)
class Prepared:
    """What scoring needs of one entry, computed once. The shingles and names are sorted
    tuples of distinct texts, not sets: a search holds one for every entry of the corpus
    at once, and a set of a signature's shingles takes about five times the memory
    (what reads them takes a set of one side only: `_jaccard`)."""

    normalized: str
    shingles: tuple[str, ...]
    words: tuple[str, ...] = ()
    names: tuple[str, ...] = ()

    @classmethod
    def of(cls, entry: Entry, pool: dict[str, str] | None = None) -> Prepared:
        """`pool` shares equal texts between the entries of one search (see `_Shingled`)."""
        pool = {} if pool is None else pool
        normalized, _, _, names = profile(entry)
        words = normalized.split()
        return cls(
            normalized,
            tuple(sorted(signature_shingles("", normalized, pool))),
            tuple(map(pool.setdefault, words, words)),
            tuple(sorted(set(map(pool.setdefault, names, names)))),
        )


def profile(entry: Entry) -> tuple[str, tuple[str, ...], str | None, tuple[str, ...]]:
    """What near-duplicate search reads of one entry's signature and id (see `_profile`): the
    normalised signature (its shingles are cheap to derive), the id's shingles, the id
    without environment, and the signature's name words (`families.name_words`)."""
    _, normalized, ids, variant, names, _ = _profile(entry)
    return normalized, ids, variant, names


Profile = tuple[int, str, tuple[str, ...], str | None, tuple[str, ...], tuple[str, ...]]


_ID_WORD = "id:"  # what an id's word starts with among a signature's shingles


def _profile(entry: Entry) -> Profile:
    """What near-duplicate search reads of one entry, as the per-file `dupes` fact keeps it
    (cached with the file): its version, the four parts `profile` gives, and the actions of
    the workarounds. The corpus phase reads the workarounds from here alone: a summary
    leaves them out once its facts are made (`corpus_summary.READ_THROUGH_FACTS`)."""
    known = entry.facts.get("dupes")
    if isinstance(known, (list, tuple)) and len(known) == 6 and known[0] == PROFILE_VERSION:
        return (PROFILE_VERSION, known[1], tuple(known[2]), known[3], tuple(known[4]), tuple(known[5]))
    signature = entry.str_field("signature") or ""
    normalized = normalize_signature(signature)
    entry_id = entry.id
    ids = tuple(map(_ID_WORD.__add__, id_tokens(entry_id))) if entry_id else ()
    names = tuple(sorted(family_search.name_words(signature, PLACEHOLDERS)))
    variant = variant_key(entry_id) if entry_id else None
    actions = tuple(
        w["action"] for w in entry.list_field("workarounds") if isinstance(w, dict) and isinstance(w.get("action"), str)
    )
    fact: Profile = (PROFILE_VERSION, normalized, ids, variant, names, actions)
    entry.facts["dupes"] = fact
    return fact


def entry_band_blob(entry: Entry, threshold: float) -> bytes:
    """The entry's band keys as 8-byte little-endian words (how the cache keeps them), kept
    in `entry.facts` (cached with the file)."""
    known = entry.facts.get("bands")
    if (
        isinstance(known, (list, tuple))
        and len(known) == 4
        and tuple(known[:3]) == (PROFILE_VERSION, threshold, NUM_PERM)
        and isinstance(known[3], bytes)
        and len(known[3]) % 8 == 0
    ):
        return known[3]
    normalized, ids, _, _ = profile(entry)
    blob = _band_blob(normalized, ids, threshold)
    entry.facts["bands"] = (PROFILE_VERSION, threshold, NUM_PERM, blob)
    return blob


@lru_cache(maxsize=4096)  # entries of one template often share their signature's words and id words
def _band_blob(normalized: str, ids: tuple[str, ...], threshold: float) -> bytes:
    """The band keys of a normalised signature and id shingles, as `entry_band_blob` keeps them."""
    # The shingles as a list, repeats and all: a MinHash is a minimum, which a repeat
    # leaves as it is, so the set `entry_shingles` gives need not be built.
    words = normalized.split()
    shingles = [*words, *map(" ".join, itertools.pairwise(words)), *ids]
    # one bytes object, not 25 big integers: summaries load much faster from the cache
    # (`copy=False`: no copy where the machine's own order is little-endian)
    keys: bytes = _band_array(shingles, threshold, NUM_PERM).astype("<u8", copy=False).tobytes()
    return keys


def entry_band_keys(entry: Entry, threshold: float) -> tuple[int, ...]:
    """`band_keys` of the entry's shingles, kept in `entry.facts` (cached with the file)."""
    blob = entry_band_blob(entry, threshold)
    return struct.unpack(f"<{len(blob) // 8}Q", blob)


def score_pair(
    a: Entry,
    b: Entry,
    signals: _Signals | None = None,
    prepared: tuple[Prepared, Prepared] | None = None,
    threshold: float = 0.0,
) -> Pair:
    """Score = 1 - (1 - evidence) * (1 - 0.5 ids) * (1 - 0.1 domain), or the evidence alone below `MIN_BASE`.

    The evidence is what the two entries say about the error, combined as a noisy-OR:
    the Jaccard similarity of the signature shingles (1.0 for one normalised
    signature), `REGEX_BOTH` when each regex matches the other's signature or
    `REGEX_ONE` when one does (half of each across domains, where lookups often share
    a keyword), and 0.5 x the overlap of the workarounds; at least 0.8 for one
    `<domain>/<slug>` in two environments, 1.0 for one id (where asked). Id
    similarity (Indel ratio of the slugs) and the shared domain count only within
    one domain, and only once the evidence reaches `MIN_BASE`: they lift a pair,
    never make one. Workarounds are compared only when they could matter.
    """
    signals = signals or _Signals()
    left, right = prepared or (Prepared.of(a), Prepared.of(b))
    domain_a, domain_b = a.str_field("domain"), b.str_field("domain")
    one_domain = bool(domain_a) and domain_a == domain_b
    reasons: list[Reason] = []
    if left.normalized and left.normalized == right.normalized:
        reasons.append(SAME_SIGNATURE)
        evidence = 1.0
    else:
        evidence = _jaccard(left.shingles, right.shingles)
        if evidence >= 0.2:
            reasons.append(Reason("similar-signature", f"similar signatures (Jaccard {evidence:.2f})", evidence))
    regex = 0.0
    if signals.a_matches_b and signals.b_matches_a:
        regex = REGEX_BOTH if one_domain else REGEX_BOTH / 2
        reasons.append(Reason("regex-matches-both", "each regex matches the other's signature", regex))
    elif signals.a_matches_b or signals.b_matches_a:
        who, whom = (a, b) if signals.a_matches_b else (b, a)
        regex = REGEX_ONE if one_domain else REGEX_ONE / 2
        reasons.append(Reason("regex-matches-other", f"`{who.id}`'s regex matches `{whom.id}`'s signature", regex))
    evidence = 1.0 - (1.0 - evidence) * (1.0 - regex)
    if signals.same_id:
        reasons.append(_same_id(a))
        evidence = 1.0
    if signals.variant:
        reasons.append(Reason("same-slug", f"same `{signals.variant}` in another environment", 0.8))
        evidence = max(evidence, 0.8)
    ids = _id_similarity(a, b) if one_domain else 0.0
    best = 1.0 - (1.0 - evidence) * (1.0 - SUPPORT_WORKAROUNDS) * (1.0 - SUPPORT_IDS * ids)
    if evidence < 1.0 and best >= min(threshold, MIN_BASE):
        overlap = workaround_overlap(a, b)
        if overlap > 0:
            reasons.append(Reason("shared-workarounds", f"overlapping workarounds ({overlap:.0%})", overlap))
            evidence = 1.0 - (1.0 - evidence) * (1.0 - SUPPORT_WORKAROUNDS * overlap)
    if evidence < MIN_BASE:
        return Pair(a, b, round(evidence, 4), tuple(reasons))
    keep = 1.0 - evidence
    if one_domain:  # across domains alike slugs name a topic (`…-quota-exceeded`), not one error
        if ids:
            reasons.append(_similar_ids(ids))
            keep *= 1.0 - SUPPORT_IDS * ids
        reasons.append(_same_domain(domain_a or ""))
        keep *= 1.0 - SUPPORT_DOMAIN
    return Pair(a, b, round(1.0 - keep, 4), tuple(reasons))


SAME_SIGNATURE = Reason("same-signature", "same signature after normalising volatile tokens", 1.0)
_SAME_SIGNATURE_ONLY = (SAME_SIGNATURE,)  # the reasons of most pairs of one template across domains


def same_signature_pair(a: Entry, b: Entry, same_id: bool = False) -> Pair:
    """`score_pair` of two entries of one normalised signature (not empty) and no other
    signals but `same_id`: a clique's pair, of which a template corpus shows a few an
    entry. Its score is 1.0 whatever else holds; only the reasons are made."""
    domain = a.str_field("domain")
    one_domain = bool(domain) and domain == b.str_field("domain")
    if not (same_id or one_domain):
        return Pair(a, b, 1.0, _SAME_SIGNATURE_ONLY)
    reasons = [SAME_SIGNATURE]
    if same_id:
        reasons.append(_same_id(a))
    if one_domain and domain:  # (`domain` again: it is a str there, which mypy cannot see)
        ids = _id_similarity(a, b)
        if ids:
            reasons.append(_similar_ids(ids))
        reasons.append(_same_domain(domain))
    return Pair(a, b, 1.0, tuple(reasons))


# Characters of a slug `_id_similarity` compares: the Indel ratio costs the product of two
# slugs' lengths (two 100 KB ids took 0.2 s a pair). The corpora's ids have at most 70.
SLUG_CHARS = 256


def _id_similarity(a: Entry, b: Entry) -> float:
    """The Indel ratio of two entries' slugs (0..1; their first `SLUG_CHARS` characters), or 0.0
    below one half or without both ids."""
    ids = rapidfuzz.fuzz.ratio(_slug(a)[:SLUG_CHARS], _slug(b)[:SLUG_CHARS]) / 100.0 if a.id and b.id else 0.0
    return ids if ids >= 0.5 else 0.0


def _same_id(a: Entry) -> Reason:
    """The reason two entries of `a`'s id give."""
    return Reason("same-id", f"the same id `{a.id}`", 1.0)


def _similar_ids(ids: float) -> Reason:
    """The reason two entries of one domain give whose slugs are alike (`ids`: `_id_similarity`)."""
    return Reason("similar-id", f"similar ids ({ids:.2f})", ids)


@lru_cache(maxsize=1024)  # one reason per domain, shared by its pairs
def _same_domain(domain: str) -> Reason:
    """The reason two entries of one domain give."""
    return Reason("same-domain", f"same domain `{domain}`", 1.0)


def _reach(
    entries: Sequence[Entry],
    number: int,
    texts: Sequence[Any],
    flags: int,
    mode: str,
    runner: RegexRunner,
    memo: dict[Any, Any],
) -> int:
    """How many other entries own a text entry `number`'s regex matches, counted up to
    `REGEX_REACH + 1`: the texts are scanned in order with the regex's literal query,
    the regex run on those that hold it, and the scan stops once enough owners are known.
    Kept in `memo` per pattern (regexes written alike share it)."""
    pattern = entries[number].str_field("regex")
    key = ("dupes-reach", pattern, flags, mode, runner.budget)
    owners = memo.get(key)
    if owners is None:
        _, query, _ = regex_fact(entries[number], flags, runner)
        needed = REGEX_REACH + 2  # one of them may be the asking entry itself
        lits = [lit for lit in literals_of(query) if len(lit) >= MIN_LITERAL]
        found: list[int] = []
        batch: list[Any] = []

        def run() -> None:
            outcomes = runner.run([Job(pattern or "", flags, mode, t.text) for t in batch], remember=False)
            for text, outcome in zip(batch, outcomes, strict=True):
                if outcome.status is Status.MATCH and text.owner not in found and len(found) < needed:
                    found.append(text.owner)
            batch.clear()

        for text in texts:
            if len(found) >= needed:
                break
            if text.owner in found:
                continue
            folded = fold(text.text)
            if satisfied(query, {lit for lit in lits if lit in folded}, folded):
                batch.append(text)
                if len(batch) >= 32:
                    run()
        if batch and len(found) < needed:
            run()
        owners = memo[key] = tuple(found)
    return sum(1 for owner in owners if owner != number)


def regex_matches(
    entries: Sequence[Entry],
    flags: int,
    mode: str,
    runner: RegexRunner,
    memo: dict[Any, Any] | None = None,
    focus: Iterable[int] | None = None,
    progress: Progress | None = None,
) -> set[tuple[int, int]]:
    """(i, j) for every entry i whose regex matches entry j's signature (i != j), unless
    i's regex matches texts of more than `REGEX_REACH` other entries (a broad lookup).

    Read from the corpus regex index (the one ET209 uses; with `memo`, computed once
    per corpus), so each regex runs only on candidate signatures and under the budget.
    With `focus`, only the pairs that involve one of those entries, each exactly as a
    run over all entries finds it.
    """
    wanted = frozenset(focus) if focus is not None else None
    memo = memo if memo is not None else {}
    cross, texts = corpus_cross_matches(entries, flags, mode, runner, memo, wanted, progress)
    out: set[tuple[int, int]] = set()
    for i, row in cross.pairs.items():
        # a focused run knows the whole row of a focus regex only; others are counted apart
        known = wanted is None or i in wanted
        reach = row.owner_count() if known else _reach(entries, i, texts, flags, mode, runner, memo)
        if reach > REGEX_REACH:
            continue
        out.update((i, text.owner) for text in row if text.pointer == "/signature")
    return out


def _variant_pairs(
    entries: Sequence[Entry], limit: int, focus: set[int] | None = None
) -> dict[tuple[int, int], str]:
    groups: dict[str, list[int]] = defaultdict(list)
    for i, entry in enumerate(entries):
        key = profile(entry)[2]
        if key:
            groups[key].append(i)
    for i, entry in enumerate(entries):  # the environment-free id itself belongs to its variants
        if entry.id in groups:
            groups[entry.id].append(i)
    out: dict[tuple[int, int], str] = {}
    for key, members in groups.items():
        if 2 <= len(members) <= limit:
            members = sorted(set(members))
            if focus is not None and not focus.intersection(members):
                continue
            for x, i in enumerate(members):
                for j in members[x + 1 :]:
                    if focus is None or i in focus or j in focus:
                        out[(i, j)] = key
    return out


def _locale_variants(a: Entry, b: Entry, stem: str) -> bool:
    """Whether two ids are one slug for two countries or languages (`…_br`, `…_kr`): a
    family of local variants, not one entry written twice."""
    suffixes = [(e.id or "")[len(stem) :].strip("-_.") for e in (a, b)]
    return all(len(x) == 2 and x.isalpha() and x not in _NOT_CODES for x in suffixes) and suffixes[0] != suffixes[1]


def entry_shingles(entry: Entry, prepared: Prepared | None = None) -> frozenset[str]:
    """What candidate generation compares: signature shingles plus id tokens."""
    if prepared is None:
        normalized, ids, _, _ = profile(entry)
        return signature_shingles("", normalized).union(ids)
    shingles = set(prepared.shingles)
    if entry.id:
        shingles.update(f"id:{t}" for t in id_tokens(entry.id))
    return frozenset(shingles)


class _Cliques:
    """Sets of entries whose every pair scores 1.0 without being scored: one normalised
    signature and, when `same_id`, one id. Their pairs grow with the square of a set,
    so they are counted and walked in (id, path) order, never listed.

    Two entries with one id are ET501's finding: without `same_id` they are left out
    of each other's pairs. So are entries one of which lists the other's id as an
    alias (ET501's too). A `frequently_confused_with` link does not hide a pair here:
    two entries with one signature cannot be told apart by it, linked or not.
    """

    def __init__(self, entries: Sequence[Entry], normalized: Sequence[str], same_id: bool) -> None:
        self.entries = entries
        self.normalized = normalized
        self.same_id = same_id
        self.keys = [(entry.id or "", entry.path) for entry in entries]
        self.key: Callable[[int], tuple[str, str]] = self.keys.__getitem__
        by_signature: dict[str, list[int]] = defaultdict(list)
        by_id: dict[str, list[int]] = defaultdict(list)
        claimed: dict[str, list[int]] = defaultdict(list)
        for k, entry in enumerate(entries):
            if normalized[k]:
                by_signature[normalized[k]].append(k)
            if entry.id:
                by_id[entry.id].append(k)
            for alias in entry.list_field("aliases"):
                if isinstance(alias, str):
                    claimed[alias].append(k)
        self.signatures = {s: sorted(m, key=self.key) for s, m in by_signature.items() if len(m) > 1}
        self.signature_ids = {s: [entries[k].id or "" for k in m] for s, m in self.signatures.items()}
        self.ids = {s: sorted(m, key=self.key) for s, m in by_id.items() if len(m) > 1} if same_id else {}
        keys = self.keys  # (an entry's id or "", first)
        self.both = Counter((normalized[k], keys[k][0]) for m in self.signatures.values() for k in m if keys[k][0])
        self._by_id = by_id
        self._claimed = claimed

    def joined(self, i: int, j: int) -> bool:
        """Whether the pair belongs to a clique (one signature, or one id when asked)."""
        if self.normalized[i] and self.normalized[i] == self.normalized[j]:
            return True
        return self.same_id and bool(self.entries[i].id) and self.entries[i].id == self.entries[j].id

    def related(self, i: int) -> set[int]:
        """Entries with another id that one of the two lists as an alias."""
        if not self._claimed:  # no entry has an alias (a generated corpus): none is related
            return set()
        entry = self.entries[i]
        out: set[int] = set()
        for alias in entry.list_field("aliases"):
            if isinstance(alias, str):
                out.update(self._by_id.get(alias, ()))
        if entry.id:
            out.update(self._claimed.get(entry.id, ()))
        return {k for k in out if k != i and self.entries[k].id != entry.id}

    def _signature_members(self, i: int) -> Iterator[int]:
        group = self.signatures.get(self.normalized[i])
        if not group:
            return iter(())
        own = self.entries[i].id
        if own and not self.same_id:  # one id: ET501's, skipped as one run (the group is in id order)
            ids = self.signature_ids[self.normalized[i]]
            low, high = bisect.bisect_left(ids, own), bisect.bisect_right(ids, own)
            return map(group.__getitem__, itertools.chain(range(low), range(high, len(group))))
        return iter(group)

    def members(self, i: int, related: set[int] | None = None) -> Iterator[int]:
        """The other entries of i's cliques, in (id, path) order (`related`: `related(i)`, if known)."""
        related = self.related(i) if related is None else related
        streams = [self._signature_members(i)]
        own = self.entries[i].id
        if self.same_id and own and own in self.ids:
            streams.append(iter(self.ids[own]))
        if len(streams) == 1 and not related:  # one stream holds each entry once: only i to skip
            return filter(i.__ne__, streams[0])
        return self._merged_members(i, streams, related)

    def _merged_members(self, i: int, streams: list[Iterator[int]], related: set[int]) -> Iterator[int]:
        """The entries of `streams` merged in (id, path) order, each once, but i and `related`."""
        last = None
        for k in _merge(streams, self.key):
            if k != i and k != last and k not in related:
                yield k
            last = k

    def count(self, i: int, related: set[int] | None = None) -> int:
        """How many pairs entry i has in its cliques (`related`: `related(i)`, if known)."""
        normalized, own = self.normalized[i], self.entries[i].id
        in_signature = len(self.signatures.get(normalized, ())) or 1
        both = self.both.get((normalized, own), 1) if own and normalized in self.signatures else 1
        linked = sum(1 for k in (self.related(i) if related is None else related) if self.joined(i, k))
        if not self.same_id:
            same = both if own else 1
            return in_signature - same - linked
        in_id = len(self.ids.get(own or "", ())) or 1
        return in_signature + in_id - both - 1 - linked


def _merge(streams: list[Iterator[int]], key: Callable[[int], tuple[str, str]]) -> Iterator[int]:
    return streams[0] if len(streams) == 1 else heapq.merge(*streams, key=key)


@dataclass
class Duplicates:
    """What near-duplicate search found, per entry: its closest pairs (at most
    `per_entry`, closest first: highest score, then the other entry's id and path) and
    how many pairs it has in all; the template families; what clusters are built from."""

    entries: Sequence[Entry]
    closest: dict[int, list[Pair]]
    counts: dict[int, int]
    neighbours: dict[int, list[tuple[int, Pair]]] = field(repr=False)
    cliques: _Cliques = field(repr=False)
    families: list[family_search.Family]
    prepared: _Shingled = field(repr=False)
    per_entry: int = PER_ENTRY
    candidates: int = 0  # candidate pairs the search looked at: what its work grows with

    @property
    def pairs(self) -> list[Pair]:
        """Every pair shown for some entry, once, best first."""
        seen: dict[tuple[str, str], Pair] = {}
        for pairs in self.closest.values():
            for pair in pairs:
                seen.setdefault((pair.a.path, pair.b.path), pair)
        return sorted(seen.values(), key=pair_order)

    def more(self, number: int) -> int:
        """How many pairs of entry `number` are not among its closest."""
        return self.counts.get(number, 0) - len(self.closest.get(number, ()))

    def clique_pair(self, i: int, j: int) -> Pair:
        """The pair of two entries of one clique, with its reasons."""
        keys, normalized = self.cliques.keys, self.cliques.normalized
        a, b = (i, j) if keys[i] <= keys[j] else (j, i)
        left, right = self.entries[a], self.entries[b]
        same_id = self.cliques.same_id and bool(left.id) and left.id == right.id
        if normalized[a] and normalized[a] == normalized[b]:
            return same_signature_pair(left, right, same_id)
        return score_pair(left, right, _Signals(same_id=same_id), (self.prepared[a], self.prepared[b]))


def pair_order(pair: Pair) -> tuple[float, str, str, str, str]:
    return (-pair.score, pair.a.id or "", pair.b.id or "", pair.a.path, pair.b.path)


def find_duplicates(
    entries: Sequence[Entry],
    settings: Settings | None = None,
    progress: Progress | None = None,
    same_id: bool = False,
    matched: Iterable[tuple[int, int]] | None = None,
    focus: Iterable[int] | None = None,
    per_entry: int = PER_ENTRY,
    families: bool = True,
) -> Duplicates:
    """Near-duplicate pairs scoring at least `settings.threshold`: each entry's closest
    `per_entry` and how many it has, and the template families (unless `families` is
    False: ET502 reports pairs only, and a template corpus has a sibling edge for
    nearly every pair of its entries).

    Two entries with one id are ET501's finding; they are left out unless `same_id`.
    `matched` holds (i, j) where entry i's regex matches entry j's signature; those
    pairs join the candidates. Callers with regex settings pass `regex_matches`
    for them; by default it is computed without flags in `search` mode. With
    `focus` (entry numbers), only the pairs of those entries, each entry's exactly
    as a run over all entries finds them (families are then left out too).
    """
    wanted = set(focus) if focus is not None else None
    if matched is None:
        matched = regex_matches(entries, 0, "search", shared_runner(), focus=wanted)
    settings = settings or Settings()
    report = progress or (lambda stage, done, total: None)
    total = len(entries)
    prepared = _Shingled(entries, report)
    cliques = _Cliques(entries, prepared.normalized, same_id)
    candidates = _candidates(entries, prepared.normalized, settings, matched, wanted, report)
    keep_edges = families and wanted is None
    neighbours, edges = _scored(entries, prepared, cliques, candidates, settings, report, keep_edges)
    result = Duplicates(entries, {}, {}, neighbours, cliques, [], prepared, per_entry, len(candidates))
    for i in sorted(wanted) if wanted is not None else range(total):
        _add_closest(result, i)
    if keep_edges:
        order = {k: cliques.key(k) for pair in edges for k in pair}
        result.families = family_search.families(edges, {k: prepared[k].words for k in order}, order)
    return result


class _Shingled:
    """Each entry prepared for scoring (`shingled[n]`), made the first time it is asked for:
    most entries of a diverse corpus are in no candidate pair and no clique, and are
    never scored. Entries of one normalised signature and one set of name words share
    one `Prepared`, and all of them one copy of each word and shingle: what a search of
    a large corpus holds grows with its vocabulary, not its words."""

    def __init__(self, entries: Sequence[Entry], report: Progress) -> None:
        total = len(entries)
        self.entries = entries
        self.normalized: list[str] = []  # each entry's normalised signature
        numbers: dict[tuple[str, tuple[str, ...]], int] = {}  # (signature, name words) -> its group
        self.groups: list[int] = []  # each entry's group: the entries that share one `Prepared`
        for n, entry in enumerate(entries):
            normalized, _, _, names = profile(entry)
            self.normalized.append(normalized)
            self.groups.append(numbers.setdefault((normalized, names), len(numbers)))
            if n % 1000 == 999:
                report("shingling", n + 1, total)
        report("shingling", total, total)
        self.sizes = Counter(self.groups)  # group -> its entries
        self._made: list[Prepared | None] = [None] * len(numbers)  # each group's, once asked for
        self._pool: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self.groups)

    def __iter__(self) -> Iterator[Prepared]:
        return map(self.__getitem__, range(len(self.groups)))

    def __getitem__(self, n: int) -> Prepared:
        group = self.groups[n]
        one = self._made[group]
        if one is None:
            one = self._made[group] = Prepared.of(self.entries[n], self._pool)
        return one


class _Candidates:
    """The pairs worth scoring (i < j), in order, each kept as one integer `i * total + j`
    in an array (a large corpus has about ten candidate pairs an entry: a dict of
    tuples held some 180 bytes for each), and the signals of the few pairs that
    something besides LSH brought (most pairs have none)."""

    def __init__(self, total: int, codes: array[int], signals: dict[int, _Signals], banded: bool = False) -> None:
        self.total = total
        self.codes = codes
        self.signals = signals
        self.banded = banded  # found by LSH bands: numpy is imported already

    def __len__(self) -> int:
        return len(self.codes)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        total = self.total
        return (divmod(code, total) for code in self.codes)

    def apart(
        self, signatures: Sequence[int], ids: Sequence[int]
    ) -> Iterator[tuple[int, tuple[int, int], _Signals | None]]:
        """(place, pair, its signals or None), in order, of the pairs whose two entries differ
        both in their signature's number and in their id's (see `_classes`); `place` counts
        all pairs from 1.

        A template corpus has tens of thousands of candidate pairs of one normalised
        signature, each skipped by the scoring (a clique's): they are told apart here
        all at once when there are many (numpy, in a corpus large enough to have imported it
        for its LSH bands), not one Python step a pair."""
        total, signals, codes = self.total, self.signals, self.codes
        if not self.banded or len(codes) < APART_MIN:
            for place, code in enumerate(codes, 1):
                i, j = divmod(code, total)
                if signatures[i] != signatures[j] and ids[i] != ids[j]:
                    yield place, (i, j), signals.get(code)
            return
        import numpy as np

        every = np.frombuffer(codes, dtype=np.int64)
        first, second = np.divmod(every, total)
        by_signature, by_id = np.asarray(signatures, dtype=np.int64), np.asarray(ids, dtype=np.int64)
        keep = (by_signature[first] != by_signature[second]) & (by_id[first] != by_id[second])
        for place in np.flatnonzero(keep).tolist():
            code = codes[place]
            yield place + 1, divmod(code, total), signals.get(code)


APART_MIN = 4096  # candidate pairs from which `_Candidates.apart` tells them apart with numpy


def _candidates(
    entries: Sequence[Entry],
    normalized: Sequence[str],
    settings: Settings,
    matched: Iterable[tuple[int, int]],
    wanted: set[int] | None,
    report: Progress,
) -> _Candidates:
    """The pairs worth scoring (i < j) with what brought each: shared LSH bands (no
    signals), one message's variants, or a regex of one matching the other's signature.

    An entry's candidate shingles (`entry_shingles`) are not empty when its normalised
    signature has a word or its id a token; above `EXACT_LIMIT` such entries only their
    band keys are read (kept with the file), so the shingles of the whole corpus are
    never held at once."""
    total = max(len(entries), 1)
    present = [n for n, entry in enumerate(entries) if normalized[n] or profile(entry)[1]]
    banded: Any = None  # the codes of the LSH pairs as a numpy array, in a large corpus
    lsh: set[int] = set()
    if len(present) > EXACT_LIMIT:
        rows = [entry_band_blob(entries[n], settings.candidate) for n in present]
        matrix = _band_matrix(rows)
        if wanted is None:
            banded = _band_codes(matrix, present, total)
        else:
            lsh.update(i * total + j for i, j in _focused_band_pairs(matrix, present, wanted))
    else:
        pairs = lsh_candidates([entry_shingles(entry) for entry in entries], settings.candidate, focus=wanted)
        lsh.update(i * total + j for i, j in pairs)
    report("candidates", total, total)
    signals: dict[int, _Signals] = {}

    def signals_of(i: int, j: int) -> _Signals:
        """The pair's signals, made the first time one is known."""
        code = i * total + j
        found = signals.get(code)
        if found is None:
            found = signals[code] = _Signals()
        return found

    for (i, j), stem in _variant_pairs(entries, VARIANT_GROUP_LIMIT, wanted).items():
        signals_of(i, j).variant = stem
    for i, j in matched:
        if i == j or (wanted is not None and i not in wanted and j not in wanted):
            continue
        if i < j:
            signals_of(i, j).a_matches_b = True
        else:
            signals_of(j, i).b_matches_a = True
    report("regexes", total, total)
    if banded is None:
        return _Candidates(total, array("q", sorted(lsh.union(signals))), signals)
    import numpy as np

    brought = np.fromiter(sorted(signals), dtype=np.int64, count=len(signals))
    return _Candidates(total, _code_array(sorted_distinct([banded, brought])), signals, banded=True)


def _code_array(codes: Any) -> array[int]:
    """A numpy int64 array as an `array` of Python ints, without a list of them in between."""
    import numpy as np

    return array("q", np.ascontiguousarray(codes, dtype=np.int64).tobytes())


def _scored(
    entries: Sequence[Entry],
    prepared: _Shingled,
    cliques: _Cliques,
    candidates: _Candidates,
    settings: Settings,
    report: Progress,
    keep_edges: bool = True,
) -> tuple[dict[int, list[tuple[int, Pair]]], list[tuple[int, int]]]:
    """Each entry's scored pairs at or above the threshold, and the template-family edges
    (pairs of one template with another named value; none kept unless `keep_edges`)."""
    neighbours: dict[int, list[tuple[int, Pair]]] = defaultdict(list)
    edges: list[tuple[int, int]] = []
    # Whether two prepared signatures are siblings, by their groups (the entries of one
    # normalised signature and names share one `Prepared`, see `_Shingled`): a template
    # corpus asks it of the same two signatures many times. Only a pair with a shared side
    # can be asked twice; at most `KIN_KEPT` answers are held.
    kin: dict[tuple[int, int], bool] = {}
    groups = prepared.groups
    # a clique's pair (one signature, or one id where asked: `_Cliques.joined`), counted
    # there; or one id (ET501's): left out
    for done, (i, j), brought in candidates.apart(*_classes(entries, cliques.normalized)):
        signals = brought or _NO_SIGNALS
        a, b = entries[i], entries[j]
        if settings.allow and allowed(a, b, settings.allowed_families):
            continue
        # one slug for two countries or languages, or one template with another named value
        # (most pairs of a template corpus, their answer kept in `kin`): a family, not a duplicate
        if (signals.variant and _locale_variants(a, b, signals.variant)) or (
            kin.get((groups[i], groups[j])) or _siblings(prepared, i, j, kin)
        ):
            if keep_edges:
                edges.append((i, j))
            continue
        if already_related(a, b):
            continue
        left, right = prepared[i], prepared[j]
        if cliques.key(j) < cliques.key(i):  # pairs read in id order, whatever the entries' order
            a, b, left, right = b, a, right, left
            signals = _Signals(signals.variant, signals.same_id, signals.b_matches_a, signals.a_matches_b)
        pair = score_pair(a, b, signals, (left, right), settings.threshold)
        if pair.score >= settings.threshold:
            neighbours[i].append((j, pair))
            neighbours[j].append((i, pair))
        if done % 5000 == 0:
            report("scoring", done, len(candidates))
    report("scoring", len(candidates), len(candidates))
    return neighbours, edges


def _classes(entries: Sequence[Entry], normalized: Sequence[str]) -> tuple[list[int], list[int]]:
    """A number per entry for its normalised signature and one for its id: equal for two
    entries exactly when both have that one signature (not empty), or that one id."""
    signatures: dict[str, int] = {}
    ids: dict[str, int] = {}
    by_signature = [signatures.setdefault(text, len(signatures)) if text else -1 - n for n, text in enumerate(normalized)]
    by_id = [ids.setdefault(k, len(ids)) if k is not None else -1 - n for n, k in enumerate(e.id for e in entries)]
    return by_signature, by_id


def _siblings(prepared: _Shingled, i: int, j: int, kin: dict[tuple[int, int], bool]) -> bool:
    """`families.siblings` of two entries' prepared signatures, kept in `kin` by their groups
    when one of them is shared."""
    left, right = prepared[i], prepared[j]
    key = (prepared.groups[i], prepared.groups[j])
    if prepared.sizes[key[0]] == 1 and prepared.sizes[key[1]] == 1:
        return family_search.siblings(left.words, left.names, right.words, right.names)
    known = kin.get(key)
    if known is None:
        if len(kin) >= KIN_KEPT:
            kin.clear()
        known = kin[key] = family_search.siblings(left.words, left.names, right.words, right.names)
    return known


def _add_closest(result: Duplicates, i: int) -> None:
    """Record entry i's pair count and its closest pairs: its cliques' first, then its
    best-scoring neighbours."""
    cliques, neighbours, per_entry = result.cliques, result.neighbours, result.per_entry
    related = cliques.related(i)
    count = cliques.count(i, related) + len(neighbours.get(i, ()))
    if not count:
        return
    shown = [result.clique_pair(i, k) for k in itertools.islice(cliques.members(i, related), max(per_entry, 0))]
    if len(shown) < per_entry and i in neighbours:
        near = sorted(neighbours[i], key=lambda item: (-item[1].score, *cliques.key(item[0])))
        shown.extend(pair for _, pair in near[: per_entry - len(shown)])
    result.closest[i] = shown
    result.counts[i] = count
