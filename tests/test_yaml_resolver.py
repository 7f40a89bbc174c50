"""The YAML loader's resolver answers what PyYAML's resolver answers with the same resolvers."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import parsing
from entrykit.parsing import YAML11_SPELLING, EntryYamlLoader

_PLAIN = st.one_of(
    st.text(alphabet=st.sampled_from(list("0123456789_+-.:eExXoObBaAfFnNuUlLtTrsyY~ ")), max_size=10),
    st.text(max_size=8),
    st.sampled_from(
        ["", "~", "null", "Null", "true", "FALSE", "yes", "017", "0o17", "0x1F", ".inf", ".NaN", "1e3", "1:30"]
        + ["1 ", " 1", "1 000", "true ", "~ ", "yes no", "0o1 7", "1:30 "]  # a space: a string
    ),
)


def _pyyaml(loader: EntryYamlLoader, kind: type, value: object, implicit: object) -> object:
    return yaml.resolver.BaseResolver.resolve(loader, kind, value, implicit)


@settings(max_examples=2000, deadline=None)
@given(_PLAIN, st.sampled_from([(True, False), (False, True), (False, False)]))
def test_scalar_tags_and_yaml11_spellings_are_pyyamls(value: str, implicit: tuple[bool, bool]) -> None:
    loader = EntryYamlLoader("")
    try:
        for _ in range(2):  # the second time from the memo
            loader.saw_yaml11 = False
            assert loader.resolve(yaml.ScalarNode, value, implicit) == _pyyaml(loader, yaml.ScalarNode, value, implicit)
            assert loader.saw_yaml11 == bool(implicit[0] and YAML11_SPELLING.match(value))
    finally:
        loader.dispose()


@pytest.mark.parametrize("kind", [yaml.MappingNode, yaml.SequenceNode])
@pytest.mark.parametrize("implicit", [True, False])
def test_collection_tags_are_pyyamls(kind: type, implicit: bool) -> None:
    loader = EntryYamlLoader("")
    assert loader.resolve(kind, None, implicit) == _pyyaml(loader, kind, None, implicit)
    loader.dispose()


def test_the_loader_has_no_path_resolvers() -> None:
    # What makes its resolver hooks safe to leave empty (`descend_resolver`, `ascend_resolver`).
    assert not EntryYamlLoader.yaml_path_resolvers
    loader = EntryYamlLoader("a: [1, {b: c}]\n")
    assert loader.get_single_node() is not None
    loader.dispose()


def test_the_memo_keeps_short_texts_only_and_is_bounded() -> None:
    loader = EntryYamlLoader("")
    long_text = "x" * (parsing._PLAIN_MEMO_CHARS + 1)
    loader.resolve(yaml.ScalarNode, long_text, (True, False))
    assert long_text not in parsing._PLAIN_TAGS
    for n in range(parsing._PLAIN_MEMO_KEPT + 10):
        loader.resolve(yaml.ScalarNode, f"k{n}", (True, False))
    assert 0 < len(parsing._PLAIN_TAGS) <= parsing._PLAIN_MEMO_KEPT
    loader.dispose()
