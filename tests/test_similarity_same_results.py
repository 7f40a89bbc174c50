"""The cheaper ways near-duplicate search and the action rules compute things give what the plain ways give."""

from __future__ import annotations

import hashlib
from array import array
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from entrykit.entry import Entry
from entrykit.similarity import near_duplicates as dupes

# Words of a few letters, some shared, some not ASCII: shingle sets that overlap as a corpus's do.
_WORDS = st.sampled_from(["cuda", "out", "of", "memory", "vnum", "vpath", "中文", "é", "x", "error", "alpha_beta", ""])
_SHINGLES = st.frozensets(st.one_of(_WORDS, st.text(max_size=12)), max_size=60)


def _plain_minhash(shingles: Iterable[str], num_perm: int) -> Any:
    """MinHash as datasketch computes it: every shingle hashed, sorted, all `num_perm` maps."""
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
    a, b = dupes._permutations(num_perm)
    return np.minimum(values, (hv * a + b).min(axis=0))


def _plain_band_keys(shingles: Iterable[str], threshold: float, num_perm: int) -> tuple[int, ...]:
    """Band keys from the whole MinHash: each band's rows times the mix, summed with wrapping."""
    bands, rows = dupes.band_layout(threshold, num_perm)
    block = np.asarray(_plain_minhash(shingles, num_perm), dtype=np.uint64)[: bands * rows].reshape(bands, rows)
    with np.errstate(over="ignore"):
        keys = (block * dupes._band_mix(rows)).sum(axis=1)
    return tuple(int(k) for k in keys)


@given(_SHINGLES, st.sampled_from([64, 128]))
def test_minhash_equals_the_plain_computation(shingles: frozenset[str], num_perm: int) -> None:
    ours = dupes.minhash(shingles, num_perm)
    assert ours.dtype == np.uint32
    assert ours.tolist() == _plain_minhash(shingles, num_perm).tolist()


@given(_SHINGLES, st.sampled_from([0.3, 0.5, 0.85]), st.sampled_from([64, 128]))
def test_band_keys_equal_the_plain_computation(shingles: frozenset[str], threshold: float, num_perm: int) -> None:
    assert dupes.band_keys(shingles, threshold, num_perm) == _plain_band_keys(shingles, threshold, num_perm)


@given(st.text(max_size=200), st.text(max_size=40))
def test_entry_band_keys_and_blob_are_the_plain_keys(signature: str, slug: str) -> None:
    entry = Entry(path="a.yaml", abspath=Path("a.yaml"), fmt="yaml", data={"id": f"d/{slug}", "signature": signature}, text="")
    expected = _plain_band_keys(dupes.entry_shingles(entry), 0.5, dupes.NUM_PERM)
    blob = dupes.entry_band_blob(entry, 0.5)
    assert blob == b"".join(k.to_bytes(8, "little") for k in expected)
    assert dupes.entry_band_keys(entry, 0.5) == expected
    assert entry.facts["bands"] == (dupes.PROFILE_VERSION, 0.5, dupes.NUM_PERM, blob)


def _plain_band_codes(matrix: Any, present: list[int], total: int) -> list[int]:
    """Every pair sharing a band key (a bucket above `BUCKET_LIMIT` chained), as codes, sorted."""
    codes: set[int] = set()
    for band in range(matrix.shape[1]):
        buckets: dict[int, list[int]] = {}
        for row, key in enumerate(matrix[:, band].tolist()):
            buckets.setdefault(key, []).append(present[row])
        for members in buckets.values():
            members.sort()
            codes.update(i * total + j for i, j in dupes._bucket_links(members))
    return sorted(codes)


@given(
    st.lists(st.lists(st.integers(0, 5), min_size=3, max_size=3), max_size=90),
    st.sampled_from([1, 8, 1 << 16]),
)
def test_band_codes_equal_every_pair_sharing_a_band(rows: list[list[int]], merge_min: int) -> None:
    """Merged band by band, however often (`MERGE_MIN`), the codes are every pair of a bucket."""
    matrix = np.array(rows, dtype=np.uint64).reshape(len(rows), 3)
    present = [3 * n + 1 for n in range(len(rows))]
    total = 3 * len(rows) + 2
    old = dupes.MERGE_MIN
    dupes.MERGE_MIN = merge_min
    try:
        codes = dupes._band_codes(matrix, present, total)
    finally:
        dupes.MERGE_MIN = old
    assert codes.dtype == np.int64
    assert codes.tolist() == _plain_band_codes(matrix, present, total)


@given(st.lists(st.lists(st.integers(0, 60), min_size=4, max_size=4), max_size=120), st.randoms(use_true_random=False))
def test_band_codes_of_buckets_of_two_equal_every_pair_sharing_a_band(rows: list[list[int]], rng: Any) -> None:
    """Buckets of two entries (most of a real corpus's), made at once, in any order of entries."""
    matrix = np.array(rows, dtype=np.uint64).reshape(len(rows), 4)
    present = [2 * n + 1 for n in range(len(rows))]
    rng.shuffle(present)
    total = 2 * len(rows) + 2
    assert dupes._band_codes(matrix, present, total).tolist() == _plain_band_codes(matrix, present, total)


@given(
    st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=60),
    st.lists(st.integers(-3, 2), min_size=8, max_size=8),
    st.lists(st.integers(-3, 2), min_size=8, max_size=8),
)
def test_candidates_apart_with_numpy_are_those_of_the_plain_loop(
    pairs: list[tuple[int, int]], signatures: list[int], ids: list[int]
) -> None:
    """`_Candidates.apart` tells a banded corpus's many pairs apart with numpy: the same pairs,
    places and signals as its loop over each pair."""
    total = 8
    codes = sorted({i * total + j for i, j in pairs if i < j})
    signals = {code: dupes._Signals(variant=str(code)) for code in codes[::3]}
    plain = [
        (place, divmod(code, total), signals.get(code))
        for place, code in enumerate(codes, 1)
        if signatures[code // total] != signatures[code % total] and ids[code // total] != ids[code % total]
    ]
    old = dupes.APART_MIN
    dupes.APART_MIN = 0
    try:
        for banded in (False, True):
            found = dupes._Candidates(total, array("q", codes), signals, banded=banded)
            assert list(found.apart(signatures, ids)) == plain
    finally:
        dupes.APART_MIN = old


@given(st.lists(st.lists(st.integers(-(1 << 40), 1 << 40), max_size=30), min_size=1, max_size=4))
def test_sorted_distinct_is_union1d(parts: list[list[int]]) -> None:
    arrays = [np.array(p, dtype=np.int64) for p in parts]
    expected = arrays[0] if len(arrays) == 1 else np.union1d(arrays[0], np.concatenate(arrays[1:]))
    assert dupes.sorted_distinct(arrays).tolist() == np.unique(expected).tolist()


def _found(entries: list[Entry]) -> Any:
    found = dupes.find_duplicates(entries, matched=set())
    return (
        {k: [(p.a.path, p.b.path, p.score, p.reasons) for p in v] for k, v in found.closest.items()},
        found.counts,
        found.families,
    )


def _template_entries(count: int) -> list[Entry]:
    """One message template, a few names in its slot, ids of two shapes: entries share their
    prepared signatures many times over, as a template corpus's do."""
    names = ["alpha_consumer", "beta_span", "gamma_index", "delta_writer", "'X'"]
    out = []
    for n in range(count):
        name = names[n % len(names)] if n % 7 else names[(n * 3) % len(names)]
        signature = f"RuntimeError: CUDA out of memory. Tried to allocate {n}.00 MiB for '{name}' on device {n % 4}"
        slug = f"cuda-oom-{n}" if n % 3 else f"oom-{name.strip(chr(39))}-{n % 5}"
        workarounds = [{"action": f"Run model_{n % 4} with resource_timer disabled"}]
        data = {"id": f"cuda/{slug}", "domain": "cuda", "signature": signature, "workarounds": workarounds}
        out.append(Entry(f"cuda/{slug}-{n}.yaml", Path(f"/c/cuda/{slug}-{n}.yaml"), "yaml", data, ""))
    return out


def test_sharing_prepared_signatures_changes_no_pair_and_no_family(monkeypatch: Any) -> None:
    """Sibling answers and family slots are kept per shared `Prepared`; with every entry
    prepared on its own (nothing shared, nothing kept) the search finds the same."""
    entries = _template_entries(150)
    shared = _found(entries)
    assert shared[2] and shared[0]  # the corpus has families and pairs

    class Unshared(dupes._Shingled):
        """Each entry a group of its own."""

        def __init__(self, found: list[Entry], report: Any) -> None:
            super().__init__(found, report)
            self.groups = list(range(len(found)))
            self.sizes = Counter(self.groups)
            self._made = [None] * len(found)

    with monkeypatch.context() as patch:
        patch.setattr(dupes, "_Shingled", Unshared)
        assert _found(entries) == shared
    monkeypatch.setattr(dupes, "KIN_KEPT", 1)  # kept answers dropped at every new pair
    assert _found(entries) == shared


def test_a_nul_in_an_action_forges_no_hidden_code_span() -> None:
    """Code spans are hidden behind NUL-marked numbers while an action is read; a text's own
    NUL characters are read as spaces, never as such a mark."""
    from entrykit.similarity.actions import action_similarity, action_tokens

    forged = action_tokens("run \x001\x00 now")
    assert not forged.code and forged.weights == action_tokens("run  1  now").weights
    assert action_similarity("set A_B=1\x00", "set A_B=1") > 0


_ACTION_TEXT = st.lists(
    st.sampled_from([*"aZbY09 -._()=%,;:—\x00é٣İ\t\n\u3000\x1c", "Set", "CUDA", "use", "git", "not", "--force", "A_B"]),
    max_size=30,
).map("".join)


@given(st.one_of(_ACTION_TEXT, st.text(max_size=60)))
def test_code_spans_are_hidden_as_a_scan_of_the_whole_text_hides_them(text: str) -> None:
    """`hide_codes` tries `_CODE` on the runs of non-space characters holding a mark only;
    the text and spans are those of `_CODE.sub` over the whole text."""
    from entrykit.similarity import actions

    codes: list[str] = []

    def hide(match: Any) -> str:
        codes.append(match.group(0).lower().rstrip("."))
        return f" \x00{len(codes) - 1}\x00 "

    assert actions.hide_codes(text) == (actions._CODE.sub(hide, text), codes)


@given(st.one_of(_ACTION_TEXT, st.text(max_size=60)))
def test_a_word_token_is_a_number_exactly_when_it_opens_with_no_letter(text: str) -> None:
    """`read_word` takes a token for a number when its first character is no letter, where it
    matched the number pattern before."""
    import re

    from entrykit.similarity import actions

    number = re.compile(r"\d+(?:\.\d+)*%?")
    for token, code in actions._TOKEN.findall(text):
        if not code and token[0].isalnum():
            assert (number.fullmatch(token.lower()) is not None) == (not token[0].isalpha())


@given(st.text(alphabet=st.sampled_from([*"aB .:\t\n\u3000\x1c\u2028é"]), max_size=30), st.integers(-2, 32))
def test_last_before_is_the_end_of_the_stripped_prefix(text: str, end: int) -> None:
    from entrykit.similarity.families import last_before

    end = max(0, min(end, len(text)))
    assert last_before(text, end) == text[:end].rstrip()[-1:]


def _plain_shared(value: Any, pool: dict[Any, Any]) -> tuple[Any, bool]:
    """`corpus_summary.shared` as one recursive function returning (value, poolable)."""
    kind = type(value)
    if kind is str:
        return pool.setdefault(value, value), True
    if kind is dict:
        return {_plain_shared(k, pool)[0]: _plain_shared(v, pool)[0] for k, v in value.items()}, False
    if kind is list:
        return [_plain_shared(v, pool)[0] for v in value], False
    if kind is tuple:
        items = [_plain_shared(v, pool) for v in value]
        rebuilt = tuple(v for v, _ in items)
        if all(ok or v is None for v, ok in items):
            return pool.setdefault(rebuilt, rebuilt), True
        return rebuilt, False
    return value, False


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(["a", "b", "ab"]), st.just(b"x"))
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.one_of(st.sampled_from(["a", "b"]), st.integers(0, 2)), inner, max_size=3),
    ),
    max_leaves=20,
)


@given(st.lists(_VALUES, min_size=1, max_size=5))
def test_shared_pools_what_the_plain_recursion_pools(items: list[Any]) -> None:
    """The same values, and the same texts and tuples held by the pool, in the same order."""
    from entrykit.lint.corpus_summary import shared

    ours: dict[Any, Any] = {}
    plain: dict[Any, Any] = {}
    for item in items:
        assert repr(shared(item, ours)) == repr(_plain_shared(item, plain)[0])
    assert repr(list(ours.items())) == repr(list(plain.items()))


def _plain_hidden(text: str) -> tuple[str, list[str]]:
    """`_CODE.sub` over the whole text, every span numbered in order."""
    from entrykit.similarity import actions

    codes: list[str] = []

    def hide(match: Any) -> str:
        codes.append(match.group(0).lower().rstrip("."))
        return f" \x00{len(codes) - 1}\x00 "

    return actions._CODE.sub(hide, text), codes


def _plain_action_tokens(text: str) -> Any:
    """An action's tokens read word by word, every fact of a word worked out where it is used."""
    import unicodedata

    from entrykit.similarity import actions

    words = actions._words()
    text = unicodedata.normalize("NFKC", text[: actions.MAX_ACTION_CHARS]).replace("\x00", " ")
    hidden, codes = _plain_hidden(text)
    weights: dict[str, float] = {}
    code_set: set[str] = set()
    anchors: set[str] = set()
    sides: set[tuple[int, int]] = set()
    verb, first, negated, tail = None, True, False, 1.0
    for number, (token, code) in enumerate(actions._TOKEN.findall(hidden)):
        if code:
            for part in codes[int(code)].split("="):
                if part:
                    code_set.add(part)
                    weights.setdefault(("¬" if negated else "") + part, actions.CODE_WEIGHT * tail)
            first = False
            continue
        if not token[0].isalnum():
            negated = False
            if not first:
                tail = actions.TAIL_WEIGHT
            continue
        lower = token.lower()
        if not first and lower in words.breaks:
            tail = actions.TAIL_WEIGHT
        sides.update(words.sides_of.get(lower, ()))
        if first:
            if lower in words.openers:
                continue
            verb, first = words.verbs.get(actions._stem(lower, words.synonyms)), False
        if lower in words.negators:
            negated = True
            continue
        mark = "¬" if negated else ""
        if not token[0].isalpha():
            anchors.add(mark + lower)
            continue
        stop = lower in words.stop
        if number > 0 and token[0].isupper() and not token.isupper() and not stop:
            anchors.add(mark + lower)
        if not stop:
            weights.setdefault(mark + actions._stem(lower, words.synonyms), tail)
    return actions.ActionTokens(weights, frozenset(code_set), frozenset(anchors), frozenset(sides), verb)


def _same_tokens(text: str) -> None:
    from entrykit.similarity import actions

    ours, plain = actions._action_tokens.__wrapped__(text[: actions.MAX_ACTION_CHARS]), _plain_action_tokens(text)
    assert ours == plain
    assert list(ours.weights.items()) == list(plain.weights.items())  # in the same order too


# Words and marks joined by single spaces: texts `hide_codes` reads run by run
_SPACED_TEXT = st.lists(
    st.sampled_from(
        ["Set", "not", "without", "use", "--force", "-f", "A_B=1", "foo.bar()", "x.y.", "-", "(not", "e.g.", "Peru",
         "3", "1.2.0", "90%", "delete", "instead", "of", "all", "one", "camelCase", "to", "git", "é", "İ", "", ",", "—"]
    ),
    max_size=20,
).map(" ".join)


@given(st.one_of(_SPACED_TEXT, _ACTION_TEXT, st.text(max_size=80)))
def test_action_tokens_are_those_of_the_plain_reading(text: str) -> None:
    """`_read`'s one loop over looked-up word facts, and `hide_codes`' runs read once
    each, give what reading every word anew and hiding spans by a scan of the whole text give."""
    from entrykit.similarity import actions

    assert actions.hide_codes(text) == _plain_hidden(text)
    assert actions.hide_codes(text) == _plain_hidden(text)  # its runs now known
    _same_tokens(text)
    _same_tokens(text)


def test_action_tokens_are_those_of_the_plain_reading_with_nothing_kept(monkeypatch: Any) -> None:
    from entrykit.similarity import actions

    monkeypatch.setattr(actions, "_RUNS_KEPT", 1)
    monkeypatch.setattr(actions, "_WORDS_KEPT", 1)
    for text in ["Use --force not -f", "Run foo.bar() on all blocks", "Set A_B=1, then restart", "Use git"] * 2:
        assert actions.hide_codes(text) == _plain_hidden(text)
        _same_tokens(text)


def test_action_tokens_of_deadends_are_those_of_the_plain_reading(deadends_dir: Path) -> None:
    import yaml

    from entrykit.similarity import actions

    seen = 0
    for path in sorted(deadends_dir.rglob("*.json"))[:600]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for field in ("dead_ends", "workarounds"):
            for item in data.get(field) or [] if isinstance(data, dict) else []:
                if isinstance(item, dict) and isinstance(item.get("action"), str):
                    assert actions.hide_codes(item["action"]) == _plain_hidden(item["action"])
                    _same_tokens(item["action"])
                    seen += 1
    assert seen > 500
