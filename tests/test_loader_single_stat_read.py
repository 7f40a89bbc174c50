"""A file's check reads it with one stat for its record and its read, through an
unbuffered file (`loader.read_up_to`), and tells an empty text without copying it: the
same stat, bytes and failures as before."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import loader
from entrykit.config import load_config
from entrykit.lint import engine, pipeline

DAY = date(2026, 12, 5)


def test_a_files_record_stat_is_the_stat_of_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (a file written a moment ago changed too recently to trust its stat: pretend it is older)
    monkeypatch.setattr(pipeline, "RACY_NS", -(10**18))
    path = tmp_path / "e.yaml"
    path.write_text("id: demo/a\nsignature: x\n", encoding="utf-8")
    os.utime(path, ns=(10**18, 10**18))
    config = engine.configured(load_config(tmp_path))
    record = pipeline.Checker(config, DAY).check_file(pipeline.Task(path, "e.yaml", "e.yaml", "yaml", True))
    assert record.stat == pipeline.file_stat(path) is not None


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=5000), step=st.integers(1, 4096))
def test_read_up_to_gives_what_a_buffered_read_gives(tmp_path_factory: Any, data: bytes, step: int) -> None:
    path = tmp_path_factory.mktemp("read") / "f"
    path.write_bytes(data)
    for count in (0, 1, len(data), len(data) + 1, len(data) + 100):
        with open(path, "rb") as stream:
            wanted = stream.read(count)
        with open(path, "rb", buffering=0) as raw:

            def short_read(asked: int) -> bytes | None:  # a read may return less than asked
                return raw.read(min(asked, step))

            got = loader.read_up_to(short_read, count)
        assert got == wanted


@pytest.mark.parametrize("size", [0, 1, 4095, 4096, 70_000])
def test_read_entry_bytes_with_a_given_stat_reads_the_file_whole(tmp_path: Path, size: int) -> None:
    path = tmp_path / "e.yaml"
    path.write_bytes(b"x" * 10)
    earlier = os.stat(path)  # (a stat from before the file grew: the read goes on to its end)
    data = bytes(i % 251 for i in range(size))
    path.write_bytes(data)
    assert loader.read_entry_bytes(path, 100_000, tmp_path, earlier) == data
    assert loader.read_entry_bytes(path, 100_000, tmp_path, os.stat(path)) == data
    assert loader.read_entry_bytes(path, 100_000, tmp_path) == data
    over = loader.read_entry_bytes(path, 4095, tmp_path, earlier)
    assert (over == data) if size <= 4095 else isinstance(over, str) and "over the limit" in over


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(" \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000x"), max_size=12))
def test_a_text_is_empty_when_strip_leaves_nothing(tmp_path_factory: Any, text: str) -> None:
    got = loader.load(tmp_path_factory.mktemp("e") / "e.yaml", "e.yaml", text=text)
    empty = isinstance(got, loader.LoadFailure) and got.message == "file is empty"
    assert empty == (not text.strip())




def test_the_lstat_given_stands_for_a_second_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the `os.lstat` its caller made, the read asks for no other, and still refuses a
    link that leads out of the corpus."""
    corpus, elsewhere = tmp_path / "corpus", tmp_path / "elsewhere"
    corpus.mkdir()
    elsewhere.mkdir()
    (elsewhere / "secret.yaml").write_bytes(b"id: x/y\n")
    (corpus / "plain.yaml").write_bytes(b"id: a/b\n")
    (corpus / "leak.yaml").symlink_to(elsewhere / "secret.yaml")
    given = {name: (os.stat(corpus / name), os.lstat(corpus / name)) for name in ("plain.yaml", "leak.yaml")}
    asked: list[str] = []  # the files whose link itself was looked at (`Path.is_symlink` asks `os.stat`)
    real_lstat, real_stat = os.lstat, os.stat

    def counted_lstat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        asked.append(str(path))
        return real_lstat(path, *args, **kwargs)

    def counted_stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if kwargs.get("follow_symlinks") is False:
            asked.append(str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", counted_lstat)
    monkeypatch.setattr(os, "stat", counted_stat)
    info, link = given["plain.yaml"]
    assert loader.read_entry_bytes(corpus / "plain.yaml", 1000, corpus, info, link) == b"id: a/b\n"
    info, link = given["leak.yaml"]
    refused = loader.read_entry_bytes(corpus / "leak.yaml", 1000, corpus, info, link)
    assert isinstance(refused, str) and "outside the corpus; not read" in refused
    assert not any(path.endswith("plain.yaml") for path in asked)
    # without the caller's lstat the read asks for one itself, with the same answers
    assert loader.read_entry_bytes(corpus / "plain.yaml", 1000, corpus) == b"id: a/b\n"
    assert any(path.endswith("plain.yaml") for path in asked)
    assert loader.read_entry_bytes(corpus / "leak.yaml", 1000, corpus) == refused
