"""Text on its way into Markdown: a code span that reads back exactly, or plain text Markdown reads nothing in."""

from __future__ import annotations

import re

from entrykit.output_safety import escape

# What starts raw HTML or an autolink (`<`), a link or an image (`[`, `]`), an entity (`&`),
# a table cell (`|`), and the backslash itself: escaped, text shows as it is. Backticks stay,
# so that text quoted in code spans keeps its look; text that falls out of one is still text.
_MARKUP = re.compile(r"([\\<\[\]&|])")


def code_span(text: str) -> str:
    """`text` as an inline code span that reads back exactly (no line breaks). Empty text has
    none: "``" opens a span that the next two backticks on the line close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = (
        " "
        if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ") and text.strip())
        else ""
    )
    return f"{fence}{pad}{text}{pad}{fence}"


def plain(text: str) -> str:
    """`text` (escaped for the terminal first: control characters as escapes) with what Markdown
    reads as markup (`_MARKUP`) backslash-escaped: no HTML, link or image comes of it."""
    return _MARKUP.sub(r"\\\1", escape(text))
