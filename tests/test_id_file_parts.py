"""ET503 reads a file's folder, name, stem and suffix from its POSIX path as `PurePosixPath` does."""

from __future__ import annotations

from pathlib import PurePosixPath

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.rules.identity import file_parts


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from([*"/.ab-", "yaml", ".yaml", "..", "//"]), max_size=10).map("".join))
@example("/corpus/node/cuda-oom-126.yaml")
@example("/node/.yaml")
@example("/node/a.")
@example("/")
@example("//a")
@example("a/./b/.")
@example("/x/../y.json")
@example("")
def test_file_parts_are_those_of_a_pure_posix_path(posix: str) -> None:
    path = PurePosixPath(posix)
    assert file_parts(posix) == (path.parent.name, path.name, path.stem, path.suffix)
