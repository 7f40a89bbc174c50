"""`cache._plain`, which takes each leaf of a record without a call, makes what the plain
recursive walk it replaced made: the same values in the same types, the same tuples
shared, the same lists copied, and a TypeError for the same records."""

from __future__ import annotations

import enum
import marshal
from typing import Any, NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit.lint import cache
from entrykit.lint.records import RelatedPlace, StoredFinding, StoredFix


def _reference(value: Any, depth: int = 0, made: dict[int, tuple[Any, Any]] | None = None) -> Any:
    """`cache._plain` as it was: every value, leaves too, through one call each."""
    if value is None or type(value) in (bool, int, float, str, bytes):
        return value
    if depth > 200:
        raise TypeError("nested too deeply")
    if made is not None and isinstance(value, tuple):
        known = made.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        plain = tuple(_reference(v, depth + 1, made) for v in value)
        if cache._immutable(plain):  # (unchanged: the walk's own test of a tuple)
            made[id(value)] = (value, plain)
        return plain
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, tuple):
        return tuple(_reference(v, depth + 1, made) for v in value)
    if isinstance(value, list):
        return [_reference(v, depth + 1, made) for v in value]
    if isinstance(value, dict):
        return {_reference(k, depth + 1, made): _reference(v, depth + 1, made) for k, v in value.items()}
    raise TypeError(f"a cache record cannot hold a {type(value).__name__}")


class _Flag(enum.IntFlag):
    A = 1
    B = 2


class _Text(str):
    pass


class _Pair(NamedTuple):
    a: Any
    b: Any


class _Listing(list):  # type: ignore[type-arg]
    pass


class _Table(dict):  # type: ignore[type-arg]
    pass


_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.binary(max_size=3),
    st.sampled_from([_Flag.A, _Flag.A | _Flag.B, _Text("t"), 2.5]),
)
_ODD = st.sampled_from([{1, 2}, frozenset(), 1j, bytearray(b"x"), object()])


def _values(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3).map(tuple),
            st.lists(inner, max_size=3),
            st.lists(inner, max_size=3).map(_Listing),
            st.builds(_Pair, inner, inner),
            st.dictionaries(st.one_of(st.text(max_size=2), st.integers(0, 3), st.tuples(st.text(max_size=1))), inner, max_size=3),
            st.dictionaries(st.text(max_size=2), inner, max_size=2).map(_Table),
        ),
        max_leaves=14,
    )


def _with_repeats(values: list[Any], again: list[int]) -> list[Any]:
    """The values with some of them met again (the same objects), as a pooled finding is."""
    return values + [values[n] for n in again if n < len(values)]


def _outcome(walk: Any, value: Any) -> tuple[str, Any]:
    """What a walk makes of `value` with a table of tuples met: its marshal bytes (the
    types, the values and which objects are one), or the error it raises."""
    made: dict[int, tuple[Any, Any]] = {}
    try:
        plain = walk(value, 0, made)
    except TypeError as exc:
        return "TypeError", str(exc)
    return "plain", marshal.dumps(plain)  # (`made` still alive: the same references held)


@given(st.lists(_values(_LEAF), max_size=5), st.lists(st.integers(0, 6), max_size=6))
def test_the_walk_makes_what_the_plain_walk_made(values: list[Any], again: list[int]) -> None:
    value = _with_repeats(values, again)
    assert _outcome(cache._plain, value) == _outcome(_reference, value)
    assert _outcome(cache._plain, tuple(value)) == _outcome(_reference, tuple(value))


@given(st.lists(_values(st.one_of(_LEAF, _ODD)), max_size=4), st.lists(st.integers(0, 4), max_size=4))
def test_a_record_of_an_undeclared_type_is_refused_as_before(values: list[Any], again: list[int]) -> None:
    value = {"r": _with_repeats(values, again)}
    assert _outcome(cache._plain, value) == _outcome(_reference, value)


@given(st.lists(_values(_LEAF), max_size=4))
def test_without_a_table_of_tuples_the_walk_makes_what_the_plain_walk_made(values: list[Any]) -> None:
    assert marshal.dumps(cache._plain(values)) == marshal.dumps(_reference(values))


@pytest.mark.parametrize("levels", [198, 199, 200, 201, 202, 203])
@pytest.mark.parametrize("kind", [list, tuple, dict, _Listing])
def test_nesting_is_refused_at_the_same_depth(levels: int, kind: type) -> None:
    value: Any = "leaf"
    for _ in range(levels):
        value = {"k": value} if kind is dict else kind([value])
    assert _outcome(cache._plain, value) == _outcome(_reference, value)


def _decoded(value: Any) -> bytes:
    """What a reader of `value` written by marshal gets (types, values, and which objects
    are one), in bytes: written, read, and written again, so that only the sharing within
    it sets marshal's reference flags."""
    return marshal.dumps(marshal.loads(marshal.dumps(value)))


def _finding(message: str, fix: StoredFix | None = None) -> StoredFinding:
    related = (RelatedPlace("other.yaml", 3, 4, "/id"),)
    return StoredFinding("ET308", 1, 2, "warning", message, "/signature", related, fix)


def test_a_shard_of_results_is_written_as_before() -> None:
    shared = _finding("said of many files")
    fixed = _finding("with a fix", StoredFix("/x", ["a", {"b": (1, 2)}], "set it", True))
    shard = {
        f"f{n}.yaml": {
            "d": "digest", "st": (1, 2, 3), "sd": "s", "fmt": "yaml", "f": None,
            "r": [shared, fixed, _finding(f"own {n}")], "dr": ("2026-01-01", [shared]), "sup": [(1, 2, None, "ET308")],
        }
        for n in range(4)
    }
    shard["f1.yaml"] = _reference(shard["f1.yaml"])  # read from a cache file: plain
    fresh = {"f0.yaml", "f2.yaml", "f3.yaml"}
    made: dict[int, tuple[Any, Any]] = {}
    expected = {k: _reference(v, 0, made) if k in fresh else v for k, v in shard.items()}
    written = cache._plain_records(shard, fresh)
    assert _decoded(written) == _decoded(expected)
    assert written["f0.yaml"]["r"][0] is written["f2.yaml"]["dr"][1][0]  # one plain tuple for a shared finding
    assert written["f0.yaml"]["r"][1][7][1] is not written["f2.yaml"]["r"][1][7][1]  # a fix's list: copies


def test_a_shard_holding_an_undeclared_type_is_not_written_as_before(tmp_path: Any) -> None:
    # A results shard whose fresh record holds a set: the walk refuses it, marshal refuses
    # the named tuples of the shard as it is, and nothing is written.
    shard = {"a": {"r": [_finding("m", StoredFix("/x", {1, 2}, "d", True))]}, "b": {"r": [_finding("n")]}}
    assert cache._plain_records(shard, {"a", "b"}) is shard
    with pytest.raises(TypeError):
        cache.encoded(shard, b"k" * 32, "env/res-00")
    # A summaries shard holding a set and nothing marshal refuses is written as it is, as before.
    index = {"a": {"d": "x", "s": {"id": "a"}, "x": {"odd": {1, 2}}}}
    assert cache._plain_records(index, {"a"}) is index
    head, body = cache.encoded(index, b"k" * 32, "env/idx-000")
    assert cache.decode(head + body, b"k" * 32, "env/idx-000") == index
