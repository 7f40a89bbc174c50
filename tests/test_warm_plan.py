"""How a run plans its files finds what the slower, plainer way finds: names in text
instead of paths, a suffix test instead of `os.path.splitext`, a record's path made on
first use, and one start time for every stat."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit import loader
from entrykit.lint import cache, engine, pipeline
from entrykit.lint.records import Failure, FileRecord
from entrykit.targets import plan

from .conftest import TODAY, make_config, write_corpus

_NAME_PARTS = st.sampled_from(["", ".", "..", "a", "A", "é", "İ", "K", "yaml", "YML", "json", "Json", "bak", "x y"])


@given(st.lists(_NAME_PARTS, max_size=6))
def test_the_suffix_test_is_splitexts(parts: list[str]) -> None:
    name = "".join(f".{p}" if n % 2 else p for n, p in enumerate(parts))
    assert loader.is_entry_name(name) == (os.path.splitext(name)[1].lower() in loader.ENTRY_SUFFIXES)


@given(st.text(alphabet="a.YyAaMmLlJjSsOoNn\u0130\u212a", max_size=12))
def test_the_suffix_test_is_splitexts_for_any_name(name: str) -> None:
    assert loader.is_entry_name(name) == (os.path.splitext(name)[1].lower() in loader.ENTRY_SUFFIXES)


def _tree(root: Path) -> None:
    for name in ["b.yaml", "a.YML", ".hidden.yaml", ".yaml", "..json", "c.json.bak", "d.txt", "z.json"]:
        (root / name).write_text("id: x\n")
    for folder in ["sub", "sub-x", ".git", "node_modules", "a b"]:
        (root / folder).mkdir()
        (root / folder / "e.yaml").write_text("id: y\n")
    (root / "sub" / "deeper").mkdir()
    (root / "sub" / "deeper" / "f.yml").write_text("id: z\n")


def _walked_as_paths(folder: Path) -> list[Path]:
    """What discovery finds, the plain way: paths sorted by their parts."""
    found = []
    for path in sorted(folder.iterdir()):
        if path.is_dir():
            if not path.name.startswith(".") and path.name not in loader.SKIPPED_DIRS and not path.is_symlink():
                found += _walked_as_paths(path)
        elif os.path.splitext(path.name)[1].lower() in loader.ENTRY_SUFFIXES:
            found.append(path)
    return found


def test_a_walk_finds_what_paths_sorted_by_parts_find(tmp_path: Path) -> None:
    _tree(tmp_path)
    names = loader.discover_names(tmp_path)
    assert [Path(n) for n in names] == _walked_as_paths(tmp_path)
    assert ".hidden.yaml" in {Path(n).name for n in names} and ".yaml" not in {Path(n).name for n in names}


def test_a_plan_names_its_targets_as_the_paths_they_are(tmp_path: Path) -> None:
    root = tmp_path / "entries"
    root.mkdir()
    _tree(root)
    config = make_config(tmp_path)
    whole = plan(None, config)
    assert whole.targets == [Path(n) for n in whole.names] == _walked_as_paths(root)
    assert [str(p) for p in whole.targets] == whole.names
    one = root / "sub" / "e.yaml"
    part = plan([one], config)
    assert part.names == [str(one)] and part.targets == [one]
    assert part.corpus == [one] + [p for p in whole.targets if p != one]


def test_a_record_makes_its_path_once_when_asked() -> None:
    record = FileRecord("a/b.yaml", "b.yaml", "/corpus/a/b.yaml", "yaml")
    assert record.where == "/corpus/a/b.yaml"
    path = record.abspath
    assert path == Path("/corpus/a/b.yaml") and record.abspath is path and record.where is path
    record.abspath = Path("/elsewhere.yaml")
    assert record.abspath == Path("/elsewhere.yaml")


@pytest.mark.parametrize("racy_ns", [0, 10**9, 10**12])
@pytest.mark.parametrize("offset", [-5, 0, 5])
def test_a_stat_judged_against_an_earlier_time_trusts_no_more_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, offset: int, racy_ns: int
) -> None:
    monkeypatch.setattr(pipeline, "RACY_NS", racy_ns)
    path = tmp_path / "a.yaml"
    path.write_text("id: a\n")
    now = os.stat(path).st_mtime_ns + offset * 10**9
    earlier, later = pipeline.file_stat(path, now), pipeline.file_stat(path, now + 3 * 10**9)
    assert earlier is None or later == earlier  # trusted at the earlier time: trusted later too
    assert (earlier is None) == (now - os.stat(path).st_mtime_ns < racy_ns)


_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=3))


def _values(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3).map(tuple),
            st.lists(inner, max_size=3),
            st.builds(lambda a, b: Failure(a, b, "m"), st.integers(), st.integers()),
        ),
        max_leaves=12,
    )


@given(st.lists(_values(_SCALAR), max_size=5), st.lists(st.integers(0, 4), max_size=8))
def test_a_tuple_met_again_is_written_once_and_reads_the_same(values: list[Any], again: list[int]) -> None:
    # the same objects in several places, as a rule's finding is in many files' records;
    # a named tuple, which marshal refuses: the payload is made plain first
    payload = [values[n] for n in again if n < len(values) and isinstance(values[n], tuple)] + values
    payload.append(Failure(0, 0, "x"))
    written = cache.encode(payload, b"k" * 32, "env/res-00")
    assert cache.decode(written, b"k" * 32, "env/res-00") == cache._plain(payload)
    read = cache.decode(written, b"k" * 32, "env/res-00")
    lists = [v for v in _walk(read) if type(v) is list]
    assert len({id(v) for v in lists}) == len(lists)  # a list is never shared: a reader may change it


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from _walk(item)


def test_a_shard_makes_plain_only_what_the_run_put() -> None:
    finding = Failure(1, 2, "m")
    shard = {"a": {"r": [finding, finding]}, "b": {"r": [(1, 2, "m")]}}
    written = cache._plain_records(shard, {"a"})
    assert written == {"a": {"r": [(1, 2, "m"), (1, 2, "m")]}, "b": shard["b"]}
    assert type(written["a"]["r"][0]) is tuple and written["a"]["r"][0] is written["a"]["r"][1]
    assert written["b"] is shard["b"] and cache._plain_records(shard, set()) is shard


@given(
    st.lists(
        st.tuples(st.text(min_size=1, max_size=4), st.text(max_size=4), st.text(max_size=3), st.booleans()),
        max_size=6,
        unique_by=lambda t: t[0],
    )
)
def test_the_corpus_key_is_the_digest_of_each_files_part(files: list[tuple[str, str, str, bool]]) -> None:
    records = []
    for key, shown, sdigest, failed in files:
        record = FileRecord(key, shown, f"/c/{key}", "yaml", digest=f"d{key}", sdigest=sdigest)
        record.failure = Failure(1, 1, "x") if failed else None
        records.append(record)
    digest = hashlib.blake2b(digest_size=16)
    digest.update(os.fsencode(Path("/here")))
    for record in sorted(records, key=lambda r: r.key):
        seen = "" if record.failure is not None else record.sdigest or f"content:{record.digest}"
        digest.update(f"\0{record.key}\0{record.shown}\0{seen}".encode("utf-8", "surrogatepass"))
    assert engine._corpus_key(records, Path("/here")) == digest.hexdigest()


def _entry(n: int) -> str:
    return f'id: pip/e{n}\nsignature: "error number {n} in module {n * 7}"\nregex: "error number {n}"\n'


def _row_files(store: Any) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in store.folder.iterdir() if p.name.startswith("files-")}


def _diagnostics(result: Any) -> list[tuple[Any, ...]]:
    return [(d.path, d.line, d.col, d.code, d.message, d.related) for d in result.diagnostics]


def test_a_one_file_run_rewrites_only_its_files_shard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "RACY_NS", -(10**18))  # files written here count as old
    root = write_corpus(tmp_path, {f"pip/e{n}.yaml": _entry(n) for n in range(12)})
    config = make_config(tmp_path)
    engine.lint(None, config, TODAY, cwd=tmp_path, use_cache=True)
    store = engine.open_store(config)
    assert store is not None
    before = _row_files(store)
    assert len({cache.shard_of(f"pip/e{n}.yaml") for n in range(12)}) > 1  # (rows in several shards)
    target = root / "pip" / "e3.yaml"
    target.write_text(_entry(3) + "# edited\n")
    one = engine.lint([target], config, TODAY, cwd=tmp_path, use_cache=True)
    assert _diagnostics(one) == _diagnostics(engine.lint([target], config, TODAY, cwd=tmp_path))
    after = _row_files(store)
    assert {name for name in after if after[name] != before.get(name)} == {f"files-{cache.shard_of('pip/e3.yaml'):02d}"}
    fresh = engine.open_store(config)
    assert fresh is not None
    assert fresh.file_row("pip/e3.yaml")[0] == cache.content_digest(target.read_bytes())
    assert set(fresh.files()) == {f"pip/e{n}.yaml" for n in range(12)}
    # a file that is gone leaves its shard's rows after a run over the whole corpus
    (root / "pip" / "e5.yaml").unlink()
    engine.lint(None, config, TODAY, cwd=tmp_path, use_cache=True)
    again = engine.open_store(config)
    assert again is not None and set(again.files()) == {f"pip/e{n}.yaml" for n in range(12) if n != 5}
