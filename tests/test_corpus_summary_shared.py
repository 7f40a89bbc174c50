"""`corpus_summary.shared` keeps numbers and bytes of a tuple, and a dict's tuples, without
a call of its own for each: the same value, the same pool and the same copies shared as
the plain walk it replaces (a copy of the code before)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from entrykit.lint.corpus_summary import shared


def _plain_shared(value: Any, pool: dict[Any, Any]) -> Any:
    kind = type(value)
    if kind is str:
        return pool.setdefault(value, value)
    if kind is dict:
        return {_plain_shared(k, pool): _plain_shared(v, pool) for k, v in value.items()}
    if kind is list:
        return [_plain_shared(v, pool) for v in value]
    if kind is tuple:
        return _plain_tuple(value, pool)[0]
    return value


def _plain_tuple(value: tuple[Any, ...], pool: dict[Any, Any]) -> tuple[tuple[Any, ...], bool]:
    items: list[Any] = []
    poolable = True
    for item in value:
        kind = type(item)
        if kind is str:
            items.append(pool.setdefault(item, item))
        elif kind is tuple:
            rebuilt, held = _plain_tuple(item, pool)
            items.append(rebuilt)
            poolable = poolable and held
        elif item is None:
            items.append(item)
        else:
            items.append(_plain_shared(item, pool))
            poolable = False
    whole = tuple(items)
    if poolable:
        return pool.setdefault(whole, whole), True
    return whole, False


_leaves = st.one_of(
    st.text(max_size=3), st.integers(-2, 2), st.booleans(), st.none(), st.floats(allow_nan=False), st.binary(max_size=2)
)
_values = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(tuple),
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers(-2, 2)), inner, max_size=4),
    ),
    max_leaves=20,
)


def _shape(value: Any, held: set[int]) -> Any:
    """The value with each str and tuple marked by whether it is the pool's own copy (its id
    in `held`), and each leaf by its type (1 and True are equal, but not the same)."""
    kind = type(value)
    pooled = kind in (str, tuple) and id(value) in held
    if kind is dict:
        return ("dict", [(_shape(k, held), _shape(v, held)) for k, v in value.items()])
    if kind in (list, tuple):
        return (kind.__name__, pooled, [_shape(v, held) for v in value])
    return (kind.__name__, pooled, value)


@given(st.lists(_values, max_size=5))
def test_shared_is_the_plain_walk(values: list[Any]) -> None:
    pool: dict[Any, Any] = {}
    plain_pool: dict[Any, Any] = {}
    got = [shared(v, pool) for v in values]
    expected = [_plain_shared(v, plain_pool) for v in values]
    assert got == expected
    assert list(pool) == list(plain_pool)
    assert all(type(k) is type(p) for k, p in zip(pool, plain_pool, strict=True))
    held, plain_held = {id(v) for v in pool.values()}, {id(v) for v in plain_pool.values()}
    assert [_shape(v, held) for v in got] == [_shape(v, plain_held) for v in expected]
