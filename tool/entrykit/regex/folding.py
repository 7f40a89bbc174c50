"""Case folding as `re`'s IGNORECASE compares: every character to its class representative."""

from __future__ import annotations

from entrykit.regex import syntax


def _fold_ord(code: int) -> int:
    return min(syntax.caseless_codes(code))


class _FoldTable(dict[int, int]):
    def __missing__(self, code: int) -> int:
        folded = self[code] = _fold_ord(code)
        return folded


TABLE = _FoldTable()  # code point -> the code point of its class representative, filled as asked


def fold(text: str) -> str:
    """`text` with every character replaced by its IGNORECASE class representative."""
    if text.isascii():
        return text.lower()  # the same as the table on ASCII (tested)
    return text.translate(TABLE)
