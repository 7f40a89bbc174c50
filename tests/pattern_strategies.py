"""Hypothesis strategy of regex patterns: words joined by pieces of regex syntax."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st


def joined_patterns(words: Sequence[str], joiners: Sequence[str], most_joins: int) -> st.SearchStrategy[str]:
    """A word, then up to `most_joins` times a joiner and a word, all drawn from the lists."""
    word, joiner = st.sampled_from(words), st.sampled_from(joiners)

    @st.composite
    def patterns(draw: st.DrawFn) -> str:
        parts = [draw(word)]
        for _ in range(draw(st.integers(0, most_joins))):
            parts += [draw(joiner), draw(word)]
        return "".join(parts)

    return patterns()
