"""Near-duplicate entries: candidate pairs without all-pairs work, each scored with its reasons.

Candidates come from three cheap sources, never from comparing every pair:

1. MinHash LSH (datasketch's MinHash and band layout, computed here; 128
   permutations, bands tuned for a Jaccard of `candidate`) over 1-2-gram
   shingles of the normalised signature plus id tokens (a corpus of at most
   `EXACT_LIMIT` entries compares every pair instead);
2. ids that are the same `<domain>/<slug>` once a trailing environment
   (`-nginx1.24-linux`, `-py311`, `-jp`) is removed;
3. pairs where one entry's regex matches the other's signature, whatever the
   wording, read from the corpus regex index (`signature_matches`), which finds
   them without trying every regex on every signature and runs each regex under
   the time budget.

Each candidate is then scored from independent signals (see `score_pair`).
"""

from __future__ import annotations

import fnmatch
import hashlib
import re
import struct
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rapidfuzz import fuzz

from entrykit import message_tokens
from entrykit.entry import Entry
from entrykit.regex.literal_index import corpus_cross_matches
from entrykit.regex.runner import RegexRunner, shared_runner
from entrykit.similarity.phrases import phrase_similarity

Progress = Callable[[str, int, int], None]

NUM_PERM = 128  # MinHash permutations
BUCKET_LIMIT = 64  # entries in one LSH bucket beyond which pairs are chained
EXACT_LIMIT = 400  # corpora up to this size compare every pair of shingle sets instead

# What each class of message token becomes in a normalised signature: one placeholder
# word. Classes not named here (flags, names, numbers with units ...) stay words.
PLACEHOLDERS: Mapping[str, str] = {
    message_tokens.URL: "vurl",
    message_tokens.QUOTED: "vquoted",
    message_tokens.CODE: "vquoted",
    message_tokens.SHAPE: "vshape",
    message_tokens.HEX: "vhex",
    message_tokens.PATH: "vpath",
    message_tokens.REF: "vpath",
    message_tokens.NUMBER: "vnum",
    message_tokens.VERSION: "vnum",
    message_tokens.POSITION: "vnum",
    message_tokens.ADDRESS: "vnum",
}
_SPACE = re.compile(r"\s")
_WORD = re.compile(r"\w+")
_ID_SPLIT = re.compile(r"[/._-]+")

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
    return " ".join(_WORD.findall(text))


def signature_shingles(text: str, normalized: str | None = None) -> frozenset[str]:
    """1- and 2-gram shingles of the normalised signature."""
    words = (normalize_signature(text) if normalized is None else normalized).split()
    grams = set(words)
    grams.update(f"{a} {b}" for a, b in zip(words, words[1:]))
    return frozenset(grams)


def id_tokens(entry_id: str) -> list[str]:
    """The words of an id, without pure numbers (which name nothing)."""
    return [t for t in _ID_SPLIT.split(entry_id.casefold()) if t and not t.isdigit()]


def _env_like(token: str) -> bool:
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
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
    tokens = [t for t in re.split(r"[._-]+", slug) if t]
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


@dataclass
class Cluster:
    """Entries joined by near-duplicate pairs (a connected component)."""

    members: list[Entry]
    pairs: list[Pair] = field(default_factory=list)


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


def minhash(shingles: Iterable[str], num_perm: int = NUM_PERM) -> Any:
    """The MinHash signature of a set of strings (uint32 array), equal to datasketch's
    `MinHash(num_perm).update_batch(...)`: SHA-1's first four bytes, MurmurHash3's
    finalizer, then the affine maps. Computed here because importing datasketch pulls
    in scipy, which costs a second or two in every process that checks files."""
    import numpy as np

    values = np.full(num_perm, (1 << 32) - 1, dtype=np.uint32)
    hashed = [int.from_bytes(hashlib.sha1(t.encode("utf-8")).digest()[:4], "little") for t in sorted(shingles)]
    if not hashed:
        return values
    hv = np.array(hashed, dtype=np.uint32).reshape(-1, 1)
    hv = hv ^ (hv >> np.uint32(16))
    hv = hv * np.uint32(0x85EBCA6B)
    hv = hv ^ (hv >> np.uint32(13))
    hv = hv * np.uint32(0xC2B2AE35)
    hv = hv ^ (hv >> np.uint32(16))
    a, b = _permutations(num_perm)
    return np.minimum(values, (hv * a + b).min(axis=0))


@lru_cache(maxsize=8)
def _band_mix(rows: int) -> Any:
    import numpy as np

    return np.random.default_rng(7).integers(1, 2**63, size=rows, dtype=np.uint64) | np.uint64(1)


def band_keys(shingles: Iterable[str], threshold: float, num_perm: int = NUM_PERM) -> tuple[int, ...]:
    """One hash per LSH band of the MinHash of `shingles` (sorted first): two sets share a
    candidate bucket when one of their band keys is equal."""
    import numpy as np

    bands, rows = band_layout(threshold, num_perm)
    block = np.asarray(minhash(shingles, num_perm), dtype=np.uint64)[: bands * rows].reshape(bands, rows)
    with np.errstate(over="ignore"):
        keys = (block * _band_mix(rows)).sum(axis=1)  # wraps mod 2**64: a hash of the band's rows
    return tuple(int(k) for k in keys)


def _bucket_links(members: list[int]) -> list[tuple[int, int]]:
    if len(members) > BUCKET_LIMIT:
        return list(zip(members, members[1:]))
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
        for n, i in enumerate(present):
            for j in present[n + 1 :]:
                if wanted is not None and i not in wanted and j not in wanted:
                    continue
                if _jaccard(sets[i], sets[j]) >= threshold:
                    yield (i, j)
        return

    import numpy as np

    known = keys or [None] * len(sets)
    rows_of = [known[i] or band_keys(sets[i], threshold, num_perm) for i in present]
    if all(isinstance(row, bytes) for row in rows_of):
        matrix = np.frombuffer(b"".join(rows_of), dtype="<u8").astype(np.uint64).reshape(len(present), -1)  # type: ignore[arg-type]
    else:
        matrix = np.array(
            [np.frombuffer(row, dtype="<u8") if isinstance(row, bytes) else row for row in rows_of], dtype=np.uint64
        )
    seen: set[tuple[int, int]] = set()
    positions = np.array(present)
    if wanted is not None:
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
        return
    for band in range(matrix.shape[1]):
        column = matrix[:, band]
        order = np.argsort(column, kind="stable")
        ordered = column[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        ends = np.r_[starts[1:], len(ordered)]
        for start, end in zip(starts[ends - starts > 1], ends[ends - starts > 1]):
            members = sorted(present[k] for k in order[start:end])
            for pair in _bucket_links(members):
                if pair not in seen:
                    seen.add(pair)
                    yield pair


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 0.0
    common = len(a & b)
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


def allowed(a: Entry, b: Entry, patterns: Iterable[str]) -> bool:
    """True when one allow-list pattern matches both ids (an intentional family)."""
    if not a.id or not b.id:
        return False
    return any(fnmatch.fnmatchcase(a.id, p) and fnmatch.fnmatchcase(b.id, p) for p in patterns)


def _actions(entry: Entry) -> list[str]:
    return [
        w["action"]
        for w in entry.list_field("workarounds")
        if isinstance(w, dict) and isinstance(w.get("action"), str)
    ]


def workaround_overlap(a: Entry, b: Entry, threshold: float = 0.85) -> float:
    """Share of the shorter workaround list that has a counterpart in the other list."""
    left, right = _actions(a), _actions(b)
    if not left or not right:
        return 0.0
    if len(left) > len(right):
        left, right = right, left
    found = sum(1 for x in left if any(phrase_similarity(x, y) >= threshold for y in right))
    return found / len(left)


def _slug(entry: Entry) -> str:
    return (entry.id or "").split("/")[-1]


@dataclass
class _Signals:
    """What is known about one candidate pair before scoring."""

    variant: str | None = None
    same_id: bool = False
    a_matches_b: bool = False
    b_matches_a: bool = False


# Environment variants of one id beyond this many are a family, not duplicates
# written by accident; their pairs would grow quadratically.
VARIANT_GROUP_LIMIT = 64

# How much each supporting signal adds (noisy-OR), see `score_pair`.
SUPPORT_IDS = 0.5
SUPPORT_WORKAROUNDS = 0.5
SUPPORT_DOMAIN = 0.1


@dataclass(frozen=True)
class Prepared:
    """What scoring needs of one entry, computed once."""

    normalized: str
    shingles: frozenset[str]

    @classmethod
    def of(cls, entry: Entry) -> Prepared:
        known = entry.facts.get("dupes")
        if isinstance(known, (list, tuple)) and len(known) == 3:
            return cls(known[0], signature_shingles("", known[0]))
        normalized = normalize_signature(entry.str_field("signature") or "")
        return cls(normalized, signature_shingles("", normalized))


def profile(entry: Entry) -> tuple[str, tuple[str, ...], str | None]:
    """What near-duplicate search reads of one entry (a per-file fact, cached with the file):
    the normalised signature (its shingles are cheap to derive), the id's shingles and the
    id without environment."""
    known = entry.facts.get("dupes")
    if isinstance(known, (list, tuple)) and len(known) == 3:
        return known[0], tuple(known[1]), known[2]
    normalized = normalize_signature(entry.str_field("signature") or "")
    ids = tuple(f"id:{t}" for t in id_tokens(entry.id)) if entry.id else ()
    value = (normalized, ids, variant_key(entry.id) if entry.id else None)
    entry.facts["dupes"] = value
    return value


def entry_band_blob(entry: Entry, threshold: float) -> bytes:
    """The entry's band keys as 8-byte little-endian words (how the cache keeps them)."""
    entry_band_keys(entry, threshold)
    return bytes(entry.facts["bands"][2])


def entry_band_keys(entry: Entry, threshold: float) -> tuple[int, ...]:
    """`band_keys` of the entry's shingles, kept in `entry.facts` (cached with the file)."""
    known = entry.facts.get("bands")
    if isinstance(known, (list, tuple)) and len(known) == 3 and known[0] == threshold and known[1] == NUM_PERM:
        blob = known[2]
        if isinstance(blob, bytes) and len(blob) % 8 == 0:
            return struct.unpack(f"<{len(blob) // 8}Q", blob)
    keys = band_keys(entry_shingles(entry), threshold)
    # one bytes object, not 25 big integers: summaries load much faster from the cache
    entry.facts["bands"] = (threshold, NUM_PERM, b"".join(k.to_bytes(8, "little") for k in keys))
    return keys


def score_pair(
    a: Entry,
    b: Entry,
    signals: _Signals | None = None,
    prepared: tuple[Prepared, Prepared] | None = None,
    threshold: float = 0.0,
) -> Pair:
    """Score = 1 - (1 - base) * prod(1 - weight * support).

    base is the strongest direct signal: 1.0 for the same normalised signature,
    0.9 when each regex matches the other's signature, 0.8 for the same
    `<domain>/<slug>` in another environment, 0.4 when one regex matches the
    other's signature, else the Jaccard similarity of the signature shingles.
    Supports: id similarity (Indel ratio of the slugs, weight 0.5), overlapping
    workarounds (weight 0.5), same domain (weight 0.1). Workarounds are only
    compared when they could lift the pair to `threshold`.
    """
    signals = signals or _Signals()
    left, right = prepared or (Prepared.of(a), Prepared.of(b))
    reasons: list[Reason] = []
    base = 0.0
    if left.normalized and left.normalized == right.normalized:
        reasons.append(Reason("same-signature", "same signature after normalising volatile tokens", 1.0))
        base = 1.0
    else:
        jaccard = _jaccard(left.shingles, right.shingles)
        if jaccard >= 0.2:
            reasons.append(Reason("similar-signature", f"similar signatures (Jaccard {jaccard:.2f})", jaccard))
        base = jaccard
    if signals.a_matches_b and signals.b_matches_a:
        reasons.append(Reason("regex-matches-both", "each regex matches the other's signature", 0.9))
        base = max(base, 0.9)
    elif signals.a_matches_b or signals.b_matches_a:
        who, whom = (a, b) if signals.a_matches_b else (b, a)
        reasons.append(Reason("regex-matches-other", f"`{who.id}`'s regex matches `{whom.id}`'s signature", 0.4))
        base = max(base, 0.4)
    if signals.same_id:
        reasons.append(Reason("same-id", f"the same id `{a.id}`", 1.0))
        base = 1.0
    if signals.variant:
        reasons.append(Reason("same-slug", f"same `{signals.variant}` in another environment", 0.8))
        base = max(base, 0.8)
    keep = 1.0 - base
    id_similarity = fuzz.ratio(_slug(a), _slug(b)) / 100.0 if a.id and b.id else 0.0
    if id_similarity >= 0.5:
        reasons.append(Reason("similar-id", f"similar ids ({id_similarity:.2f})", id_similarity))
        keep *= 1.0 - SUPPORT_IDS * id_similarity
    domain_a, domain_b = a.str_field("domain"), b.str_field("domain")
    if domain_a and domain_a == domain_b:
        reasons.append(Reason("same-domain", f"same domain `{domain_a}`", 1.0))
        keep *= 1.0 - SUPPORT_DOMAIN
    if 1.0 - keep * (1.0 - SUPPORT_WORKAROUNDS) >= threshold:
        overlap = workaround_overlap(a, b)
        if overlap > 0:
            reasons.append(Reason("shared-workarounds", f"overlapping workarounds ({overlap:.0%})", overlap))
            keep *= 1.0 - SUPPORT_WORKAROUNDS * overlap
    return Pair(a, b, round(1.0 - keep, 4), tuple(reasons))


def signature_matches(
    entries: Sequence[Entry],
    flags: int,
    mode: str,
    runner: RegexRunner,
    memo: dict[Any, Any] | None = None,
    focus: Iterable[int] | None = None,
    progress: Progress | None = None,
) -> set[tuple[int, int]]:
    """(i, j) for every entry i whose regex matches entry j's signature (i != j).

    Read from the corpus regex index (the one ET209 uses; with `memo`, computed once
    per corpus), so each regex runs only on candidate signatures and under the budget.
    With `focus`, only the pairs that involve one of those entries.
    """
    cross, _ = corpus_cross_matches(entries, flags, mode, runner, memo, focus, progress)
    return {
        (i, text.owner)
        for i, texts in cross.pairs.items()
        for text in texts
        if text.pointer == "/signature" and text.owner != i
    }


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


def entry_shingles(entry: Entry, prepared: Prepared | None = None) -> frozenset[str]:
    """What candidate generation compares: signature shingles plus id tokens."""
    if prepared is None:
        normalized, ids, _ = profile(entry)
        return signature_shingles("", normalized).union(ids)
    shingles = set(prepared.shingles)
    if entry.id:
        shingles.update(f"id:{t}" for t in id_tokens(entry.id))
    return frozenset(shingles)


def find_duplicates(
    entries: Sequence[Entry],
    settings: Settings | None = None,
    progress: Progress | None = None,
    same_id: bool = False,
    matched: Iterable[tuple[int, int]] | None = None,
    focus: Iterable[int] | None = None,
) -> list[Pair]:
    """Near-duplicate pairs scoring at least `settings.threshold`, best first.

    Two entries with one id are ET501's finding; they are left out unless `same_id`.
    `matched` holds (i, j) where entry i's regex matches entry j's signature; those
    pairs join the candidates. Callers with regex settings pass `signature_matches`
    for them; by default it is computed without flags in `search` mode. With
    `focus` (entry numbers), only the pairs that involve one of those entries,
    each exactly as a run over all pairs finds it.
    """
    wanted = set(focus) if focus is not None else None
    if matched is None:
        matched = signature_matches(entries, 0, "search", shared_runner(), focus=wanted)
    settings = settings or Settings()
    report = progress or (lambda stage, done, total: None)
    total = len(entries)
    combined: list[frozenset[str]] = []
    for n, entry in enumerate(entries):
        combined.append(entry_shingles(entry))
        if n % 1000 == 999:
            report("shingling", n + 1, total)
    report("shingling", total, total)
    candidates: dict[tuple[int, int], _Signals] = {}
    keys: list[Sequence[int] | bytes | None] | None = None
    if sum(1 for shingles in combined if shingles) > EXACT_LIMIT:
        keys = [entry_band_blob(entry, settings.candidate) if combined[n] else None for n, entry in enumerate(entries)]
    for i, j in lsh_candidates(combined, settings.candidate, keys=keys, focus=wanted):
        candidates[(i, j)] = _Signals()
    report("candidates", total, total)
    for key, stem in _variant_pairs(entries, VARIANT_GROUP_LIMIT, wanted).items():
        candidates.setdefault(key, _Signals()).variant = stem
    by_id: dict[str, list[int]] = defaultdict(list)
    for i, entry in enumerate(entries):
        if entry.id:
            by_id[entry.id].append(i)
    for members in by_id.values():
        if len(members) < 2:
            continue
        for x, i in enumerate(members):
            for j in members[x + 1 :]:
                if same_id:
                    candidates.setdefault((i, j), _Signals()).same_id = True
                else:
                    candidates.pop((i, j), None)
    for i, j in matched:
        if i == j or (not same_id and entries[i].id is not None and entries[i].id == entries[j].id):
            continue
        if wanted is not None and i not in wanted and j not in wanted:
            continue
        signals = candidates.setdefault((min(i, j), max(i, j)), _Signals())
        if i < j:
            signals.a_matches_b = True
        else:
            signals.b_matches_a = True
    report("regexes", total, total)
    pairs: list[Pair] = []
    done = 0
    for (i, j), signals in sorted(candidates.items()):
        done += 1
        a, b = entries[i], entries[j]
        if already_related(a, b) or allowed(a, b, settings.allow):
            continue
        pair = score_pair(a, b, signals, (Prepared.of(a), Prepared.of(b)), settings.threshold)
        if pair.score >= settings.threshold:
            pairs.append(pair)
        if done % 5000 == 0:
            report("scoring", done, len(candidates))
    report("scoring", len(candidates), len(candidates))
    pairs.sort(key=lambda p: (-p.score, p.a.id or "", p.b.id or "", p.a.path, p.b.path))
    return pairs


def clusters(pairs: Iterable[Pair]) -> list[Cluster]:
    """Group pairs into connected components, largest first, members ordered by id."""
    parent: dict[int, int] = {}
    by_key: dict[int, Entry] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    pair_list = list(pairs)
    for pair in pair_list:
        ka, kb = id(pair.a), id(pair.b)
        by_key[ka], by_key[kb] = pair.a, pair.b
        parent[find(ka)] = find(kb)
    groups: dict[int, Cluster] = {}
    for key, entry in by_key.items():
        groups.setdefault(find(key), Cluster([])).members.append(entry)
    for pair in pair_list:
        groups[find(id(pair.a))].pairs.append(pair)
    result = list(groups.values())
    for cluster in result:
        cluster.members.sort(key=lambda e: (e.id or "", e.path))
    result.sort(key=lambda c: (-len(c.members), c.members[0].id or "", c.members[0].path))
    return result


def _reason_json(reason: Reason) -> dict[str, Any]:
    return {"code": reason.code, "text": reason.text, "strength": round(reason.strength, 4)}


def _side(entry: Entry) -> dict[str, Any]:
    return {"id": entry.id, "path": entry.path}


def report_json(groups: Sequence[Cluster], entries: int) -> dict[str, Any]:
    """The `--format json` document: clusters of ids, each with its scored pairs."""
    return {
        "entries": entries,
        "pairs": sum(len(c.pairs) for c in groups),
        "clusters": [
            {
                "ids": [e.id for e in c.members],
                "paths": [e.path for e in c.members],
                "pairs": [
                    {"a": _side(p.a), "b": _side(p.b), "score": p.score, "reasons": [_reason_json(r) for r in p.reasons]}
                    for p in c.pairs
                ],
            }
            for c in groups
        ],
    }


def report_text(groups: Sequence[Cluster], entries: int) -> str:
    """Pairs as readable text, grouped by cluster, with a closing count."""
    lines: list[str] = []
    for cluster in groups:
        if len(cluster.members) > 2:
            lines.append(f"cluster of {len(cluster.members)}: " + ", ".join(f"`{e.id}`" for e in cluster.members))
        for pair in cluster.pairs:
            lines.append(f"`{pair.a.id}` ~ `{pair.b.id}`  score {pair.score:.2f}")
            lines.append(f"    {pair.a.path}")
            lines.append(f"    {pair.b.path}")
            lines.extend(f"    - {r.text}" for r in pair.reasons)
        lines.append("")
    count = sum(len(c.pairs) for c in groups)
    among = f"{entries} {'entry' if entries == 1 else 'entries'}"
    if count:
        pairs = f"{count} near-duplicate pair{'s' * (count != 1)}"
        lines.append(f"Found {pairs} in {len(groups)} cluster{'s' * (len(groups) != 1)} among {among}.")
    else:
        lines.append(f"No near-duplicates among {among}.")
    return "\n".join(lines) + "\n"
