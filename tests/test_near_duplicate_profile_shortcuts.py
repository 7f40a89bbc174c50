"""The dupes profile's shortcuts (an id's environment words told apart by their letters first,
its id words made by one `map`) give what the plain computation gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from entrykit.entry import Entry
from entrykit.similarity import near_duplicates as dupes

_PIECES = st.sampled_from(["linux", "py311", "nginx1", "24", "jp", "in", "x86", "oom", "", "ÀB", "²", "٣", "ab٣"])
_SLUGS = st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=6).map("-".join)


def _plain_env_like(token: str) -> bool:
    """Whether a slug token names an environment, as `variant_key` first read it."""
    has_digit = any(map(str.isdigit, token))
    has_alpha = any(map(str.isalpha, token))
    if has_digit and has_alpha:
        return True
    if token in dupes._ENV_WORDS:
        return True
    return len(token) == 2 and token.isalpha() and token not in dupes._NOT_CODES


@given(st.one_of(_PIECES, st.text(max_size=8)))
def test_env_like_is_the_plain_test(token: str) -> None:
    assert dupes._env_like(token) == _plain_env_like(token)


@given(_SLUGS, st.sampled_from(["nginx", "d", "a/b"]))
def test_profile_ids_and_variant_are_the_plain_ones(slug: str, domain: str) -> None:
    entry_id = f"{domain}/{slug}"
    entry = Entry(path="a.yaml", abspath=Path("a.yaml"), fmt="yaml", data={"id": entry_id, "signature": "x"}, text="")
    _, _, ids, variant, _, _ = dupes._profile(entry)
    assert ids == tuple(f"id:{t}" for t in dupes.id_tokens(entry_id))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dupes, "_env_like", _plain_env_like)
        assert variant == dupes.variant_key(entry_id)
