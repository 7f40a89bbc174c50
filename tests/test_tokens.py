"""Preserved tokens: what is found in real error text, and what a translation must keep."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit.translation import preserved_tokens as T


def kinds(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in T.extract(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "RuntimeError: FSDP parameter mismatch across ranks. Expected parameter 'model.fc.weight' "
            "to have shape [100, 256] but got [100, 128] on rank 2.",
            [
                ("class", "RuntimeError"),
                ("acronym", "FSDP"),
                ("quoted", "model.fc.weight"),
                ("shape", "[100, 256]"),
                ("shape", "[100, 128]"),
                ("number", "2"),
            ],
        ),
        (
            "Use torch.distributed.barrier() after model creation: model = MyModel(); "
            "fsdp_model = FullyShardedDataParallel(model)",
            [
                ("call", "torch.distributed.barrier()"),
                ("call", "MyModel()"),
                ("identifier", "fsdp_model"),
                ("call", "FullyShardedDataParallel"),
            ],
        ),
        (
            "Run `pip index versions torch`, see https://pip.pypa.io/en/stable/cli/pip_index/.",
            [("code", "pip index versions torch"), ("url", "https://pip.pypa.io/en/stable/cli/pip_index/")],
        ),
        (
            "rm -rf ~/.cache/pip and /usr/lib/python3/dist-packages, then pip install --upgrade pip",
            [("flag", "-rf"), ("path", "~/.cache/pip"), ("path", "/usr/lib/python3/dist-packages"), ("flag", "--upgrade")],
        ),
        ("fatal: not a git repository (or any of the parent directories): .git", [("path", ".git")]),
        ("open src/main.py or C:\\Users\\me\\x.txt", [("path", "src/main.py"), ("path", "C:\\Users\\me\\x.txt")]),
        ("socket at unix:///var/run/docker.sock", [("url", "unix:///var/run/docker.sock")]),
        ("error[E0382]: borrow of moved value: `v`", [("identifier", "E0382"), ("code", "v")]),
        ("torch.Size([3, 224, 224]) and (3, 4)", [("call", "torch.Size"), ("shape", "[3, 224, 224]"), ("shape", "(3, 4)")]),
        ("flag 0x1F at 95% on the 2nd try", [("hex", "0x1F"), ("number", "95")]),
        ("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", [("identifier", "PYTORCH_CUDA_ALLOC_CONF"), ("identifier", "expandable_segments")]),
    ],
)
def test_extracts_tokens_of_each_kind(text: str, expected: list[tuple[str, str]]) -> None:
    assert kinds(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "ERROR: No matching distribution found",  # a shouted English word
        "the parameter(s) of and/or input/output",  # English, not calls or paths
        "go to the nearest 'evacuation shelter,' now",  # a quoted phrase is translated
        "don't use the users' files, e.g. the rank's",  # apostrophes, abbreviations
        "the label 'Taiwan' or 'Taiwan, China'",  # quoted names and phrases are prose
        "read/write and input/output/error",  # slashes between words
    ],
)
def test_english_is_no_token(text: str) -> None:
    assert T.extract(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Use the APIs on two GPUs", [("acronym", "API"), ("acronym", "GPU")]),
        ("costs 10,000 yen, items 1,2", [("number", "10,000"), ("number", "1"), ("number", "2")]),
        ("open etc/nginx/nginx.conf and pytorch/fsdp-param-mismatch", [("path", "etc/nginx/nginx.conf"), ("path", "pytorch/fsdp-param-mismatch")]),
        ("open 24/7", [("number", "24"), ("number", "7")]),
    ],
)
def test_plurals_grouping_and_relative_paths(text: str, expected: list[tuple[str, str]]) -> None:
    assert kinds(text) == expected


def test_digit_grouping_is_the_translations_choice() -> None:
    for kept in ("花费 10000 日元", "花费 10,000 日元", "花费 10 000 日元"):
        assert T.lost("costs 10,000 yen", kept) == []
    assert [t.text for t in T.lost("costs 10,000 yen", "花费 1万 日元")] == ["10,000"]
    assert T.lost("Use the APIs", "使用 API") == []


def test_tokens_are_found_inside_cjk_text() -> None:
    text = "在创建模型之后、FSDP 包装之前，用torch.distributed.barrier()同步所有 rank"
    assert kinds(text) == [("acronym", "FSDP"), ("call", "torch.distributed.barrier()")]


@pytest.mark.parametrize(
    ("source", "translation"),
    [
        ("Fully Sharded Data Parallel (FSDP) expects", "完全分片数据并行（FSDP）期望"),
        ("shape [100, 256]", "形状为［100，256］"),
        ("shape [100, 256]", "形状为 [100,256]"),
        ("call torch.distributed.barrier() now", "现在调用 torch.distributed.barrier（）"),
        ("parameter 'model.fc.weight'", "参数“model.fc.weight”"),
        ("parameter 'model.fc.weight'", "参数「model.fc.weight」"),
        ("allocate 16GB on rank 2", "在rank2上分配16GB"),
    ],
)
def test_full_width_and_spacing_keep_the_token(source: str, translation: str) -> None:
    assert T.lost(source, translation) == []


@pytest.mark.parametrize(
    ("source", "translation", "lost"),
    [
        ("shape [100, 256] on rank 2", "形状 [100, 265]，rank 12", ["[100, 256]", "2"]),
        ("version 2.0 of FSDP", "FSDP 的 2.01 版", ["2.0"]),
        ("raise RuntimeError", "抛出运行时错误", ["RuntimeError"]),
        ("pass --force-reinstall", "加上 --force 参数", ["--force-reinstall"]),
        ("use model.fc", "使用 model.fc.weight", []),  # a longer name still holds the token's text
        ("the module fc", "模块 fcx", []),  # plain words are no tokens
    ],
)
def test_lost_tokens(source: str, translation: str, lost: list[str]) -> None:
    assert [t.text for t in T.lost(source, translation)] == lost


def test_lost_can_be_limited_to_kinds() -> None:
    source = "RuntimeError on rank 2"
    assert [t.text for t in T.lost(source, "错误", kinds={"number"})] == ["2"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("torch.save(model.state_dict(), 'init.pt')", False),
        ("ENOENT", False),
        ("E0382", False),
        ("`pip install -U pip`", False),
        ("[100, 256]", False),
        ("3 x 4", False),
        ("错", True),
        ("ERROR: boom", True),
        ("Use torch.save()", True),
    ],
)
def test_has_words(text: str, words: bool) -> None:
    assert T.has_words(text) is words


def test_strip_blanks_tokens_only() -> None:
    assert T.strip("Use torch.save() on rank 2.") == "Use   on rank  ."  # noqa: B005


_FULL_WIDTH = {c: chr(ord(c) + 0xFEE0) for c in "!#$%&()*+,-./:;<=>?@[\\]^_{|}~"}

source_texts = st.lists(
    st.sampled_from(list("abcXYZ_019 .,:;()[]'\"/-=`~@%") + ["Error", "torch", "--x", "0x1f", " rank ", "中文"]),
    max_size=40,
).map("".join)


@given(source_texts)
def test_every_token_survives_in_its_own_text(text: str) -> None:
    assert T.lost(text, text) == []


@given(source_texts)
def test_full_width_punctuation_loses_no_token(text: str) -> None:
    wide = "".join(_FULL_WIDTH.get(c, c) for c in text)
    assert T.lost(text, wide) == []


@given(source_texts)
def test_tokens_are_ordered_and_do_not_overlap(text: str) -> None:
    found = T.extract(text)
    for first, second in pairwise(found):
        assert first.end <= second.start
    for token in found:
        assert 0 <= token.start < token.end <= len(text) and token.kind in T.KINDS and token.text


@given(source_texts, st.lists(source_texts, max_size=3).map(" ".join))
def test_substring_shortcuts_agree_with_the_matcher(source: str, other: str) -> None:
    """`contains` decides most tokens by plain substring checks; it must say what the
    token's matcher says, on translations that keep, move or drop its pieces."""
    for token in T.extract(source):
        for translation in (source, other, other + source[::-1], source.replace(" ", ""), token.text + "s"):
            expected = T._matcher(token.kind, token.text).search(T.fold(translation)) is not None
            assert T.contains(translation, token) is expected, (token, translation)


def test_real_corpus_strings_keep_their_own_tokens(deadends_dir: Path) -> None:
    """Over every signature, summary and action of the deadends.dev sample: each
    string keeps its tokens, also with full-width punctuation, and spans do not overlap."""
    checked = 0
    for path in sorted(deadends_dir.rglob("*.json")):
        canon = json.loads(path.read_text(encoding="utf-8"))
        texts = [canon["error"]["signature"], canon["verdict"].get("summary", "")]
        texts += [item["action"] for item in canon["workarounds"] + canon["dead_ends"]]
        for text in filter(None, texts):
            found = T.extract(text)
            assert all(a.end <= b.start for a, b in pairwise(found)), text
            assert T.missing(found, text) == [], text
            wide = "".join(_FULL_WIDTH.get(c, c) for c in text)
            assert T.missing(found, wide) == [], text
            checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("translation", ["0:0x1f", "0：0x1f", "位置 0:0x1f 处"])
def test_a_position_that_runs_into_a_hex_number_is_kept(translation: str) -> None:
    """`0:0x1f` is a position `0:0` touching a hex number, as hypothesis found: kept when written as it is."""
    assert T.lost("0:0x1f", translation) == []
    assert [t.text for t in T.lost("0:0x1f", "0:1x1f")] == ["0:0"]
