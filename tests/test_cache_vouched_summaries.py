"""A summaries shard whose records the run rebuilt (`shared`: every list and dict anew) is
written as it is, not walked by `cache._plain` first: a reader gets the same of it, and a
record of a type the cache does not declare is refused as before."""

from __future__ import annotations

import enum
import marshal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.lint import cache, engine
from entrykit.lint.corpus_summary import shared

from .conftest import TODAY, make_config, write_corpus


class _Flag(enum.IntFlag):
    A = 1


class _Text(str):
    pass


class _Listing(list):  # type: ignore[type-arg]
    pass


_DECLARED = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 2), st.floats(allow_nan=False), st.text(max_size=3), st.binary(max_size=2)
)
_UNDECLARED = st.sampled_from([{1}, frozenset(), 1j, bytearray(b"x"), _Flag.A, _Text("t"), object()])


def _values(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3).map(tuple),
            st.lists(inner, max_size=3),
            st.lists(inner, max_size=2).map(_Listing),
            st.dictionaries(st.one_of(st.text(max_size=2), st.integers(0, 2)), inner, max_size=3),
        ),
        max_leaves=12,
    )


def _decoded(value: Any) -> bytes:
    """What a reader of `value` written by marshal gets (types, values, and which objects
    are one), in bytes: written, read, and written again."""
    return marshal.dumps(marshal.loads(marshal.dumps(value)))


def _same_index_shard(count: int) -> list[str]:
    """`count` file keys whose summaries are in one shard."""
    keys: list[str] = []
    number = 0
    while len(keys) < count:
        key = f"e{number}.yaml"
        if cache.index_shard_of(key) == cache.index_shard_of("e0.yaml"):
            keys.append(key)
        number += 1
    return keys


def _written(folder: Path, puts: list[tuple[str, dict[str, Any], bool]]) -> dict[str, bytes | None]:
    """What a reader gets of each summaries shard a store wrote after `puts` (None: not written)."""
    store = cache.open_store(folder, Path("/corpus"), "e" * 24, "v")
    for key, index, vouched in puts:
        store.put(key, None, index, vouched)
    store.save()
    out: dict[str, bytes | None] = {}
    for number in {cache.index_shard_of(key) for key, _, _ in puts}:
        name = f"idx-{number:03d}"
        blob = store.folder / name
        out[name] = _decoded(cache.decode(blob.read_bytes(), store.key, f"env/{name}")) if blob.exists() else None
    return out


@settings(max_examples=60)
@given(
    st.lists(_values(st.one_of(_DECLARED, _DECLARED, _UNDECLARED)), min_size=1, max_size=6),
    st.lists(st.booleans(), min_size=6, max_size=6),
    st.lists(st.integers(0, 5), max_size=3),
)
def test_a_shard_of_vouched_summaries_reads_as_the_walked_one(
    tmp_path_factory: pytest.TempPathFactory, facts: list[Any], vouched: list[bool], again: list[int]
) -> None:
    # Summaries and facts rebuilt by `shared` in one pool, as a run's are (texts and tuples
    # of texts shared among them), of any type: a shard of them written as it is reads as
    # the walked one, or is refused as the walked one is.
    pool: dict[Any, Any] = {}
    facts = facts + [facts[n] for n in again if n < len(facts)]  # the same objects in two records
    keys = _same_index_shard(len(facts))
    indexes = [
        {"d": "digest", "s": shared({"id": key, "domain": "cuda"}, pool), "x": shared({"f": fact, "g": (fact,)}, pool)}
        for key, fact in zip(keys, facts, strict=True)
    ]
    walked = _written(tmp_path_factory.mktemp("walked"), [(k, i, False) for k, i in zip(keys, indexes, strict=True)])
    as_they_are = _written(
        tmp_path_factory.mktemp("vouched"), [(k, i, v) for k, i, v in zip(keys, indexes, vouched * 2, strict=False)]
    )
    assert as_they_are == walked


def test_a_shard_holding_an_undeclared_type_is_refused_as_before(tmp_path: Path) -> None:
    plain, with_set, with_flag = _same_index_shard(3)
    puts = [
        (plain, {"d": "d", "s": {"id": "a"}, "x": {}}, True),
        (with_set, {"d": "d", "s": {"id": "b"}, "x": {"odd": {1, 2}}}, False),
        (with_flag, {"d": "d", "s": {"id": "c"}, "x": {"flag": _Flag.A}}, False),
    ]
    # the set stops the walk, marshal refuses the flag of the shard as it is: nothing written
    assert set(_written(tmp_path / "all", puts).values()) == {None}
    # without the flag: the set is written as marshal writes it, as before
    written = _written(tmp_path / "set", puts[:2])
    assert list(written.values()) == [_decoded({plain: puts[0][1], with_set: puts[1][1]})]


def test_a_run_writes_its_summaries_as_they_are_and_a_reader_gets_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = "id: {name}\nsignature: \"Error {name}: it failed\"\nregex: 'Error \\w+: it failed'\ndomain: cuda\naliases: [a, b]\n"
    write_corpus(tmp_path, {f"cuda/{n}.yaml": entry.format(name=f"x{n}") for n in range(12)})
    config = make_config(tmp_path)

    def run(folder: str) -> dict[str, bytes]:
        engine.lint(None, config, TODAY, cwd=tmp_path, use_cache=True, cache_dir=tmp_path / folder)
        top = tmp_path / folder
        key = (top / "key").read_bytes()
        return {
            f.name: _decoded(cache.decode(f.read_bytes(), key, f"env/{f.name}"))
            for f in (top / "lint-v2").glob("*/*/*")
            if f.name.startswith(("idx-", "res-", "files-"))
        }

    keys = [f"cuda/{n}.yaml" for n in range(12)]
    results_shards, index_shards = len(set(map(cache.shard_of, keys))), len(set(map(cache.index_shard_of, keys)))
    walks: list[set[str]] = []
    plain_records = cache._plain_records
    monkeypatch.setattr(cache, "_plain_records", lambda shard, fresh: walks.append(fresh) or plain_records(shard, fresh))
    as_they_are = run("vouched")
    assert len(walks) == results_shards  # the results shards only: they hold named tuples
    put = cache.Store.put
    monkeypatch.setattr(cache.Store, "put", lambda self, key, result, index, plain=False: put(self, key, result, index))
    walks.clear()
    walked = run("walked")
    assert len(walks) == results_shards + index_shards
    assert as_they_are == walked and any(name.startswith("idx-") for name in walked)


def test_a_summary_put_without_a_vouch_is_walked_with_its_shard(tmp_path: Path) -> None:
    first, second = _same_index_shard(2)
    twice = ["a"]  # one list in two places: the walk writes two, for a reader may change one
    puts = [
        (first, {"d": "d", "s": shared({"id": "a"}, {}), "x": {}}, True),
        (second, {"d": "d", "s": {"id": "b"}, "x": {"one": twice, "two": twice}}, False),
    ]
    (written,) = _written(tmp_path, puts).values()
    assert written is not None
    read = marshal.loads(written)
    assert read[second]["x"] == {"one": ["a"], "two": ["a"]} and read[second]["x"]["one"] is not read[second]["x"]["two"]
