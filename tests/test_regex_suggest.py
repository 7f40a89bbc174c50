"""`suggest_regex` matches its message and the same message with other volatile tokens."""

from __future__ import annotations

import re

from entrykit.regex.suggest import suggest_regex

SEED = (
    "RuntimeError: FSDP parameter mismatch across ranks. Expected parameter 'model.fc.weight' "
    "to have shape [100, 256] but got [100, 128] on rank 2."
)


def test_matches_signature_and_variants() -> None:
    regex = re.compile(suggest_regex(SEED))
    assert regex.search(SEED)
    variant = SEED.replace("model.fc.weight", "layer.0.bias").replace("[100, 256]", "[3, 4, 5]")
    assert regex.search(variant.replace("rank 2", "rank 17"))
    assert not regex.search(SEED.replace("FSDP", "DDP"))
