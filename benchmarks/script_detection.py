"""How well two ways of telling a character's script cover the scripts babel's locales use.

    python benchmarks/script_detection.py

For every ISO 15924 script in babel's likely subtags: does the `regex` module's
Unicode Script property (`\\p{sc=Cyrl}`, what entrykit.translation.writing_systems uses) know it, and
does guessing from `unicodedata` character names (`CYRILLIC SMALL LETTER A`
starts with babel's English script name) find exactly the same characters?
"""

from __future__ import annotations

import contextlib
import unicodedata

import regex
from babel import Locale
from babel.core import get_global


def main() -> None:
    likely = get_global("likely_subtags")
    codes = sorted({v.split("_")[1] for v in likely.values() if len(v.split("_")) > 1 and len(v.split("_")[1]) == 4})
    names = {}
    for point in range(0x110000):
        with contextlib.suppress(ValueError):
            names[point] = unicodedata.name(chr(point))
    english = Locale("en").scripts
    known, exact, missed = 0, 0, []
    for code in codes:
        try:
            pattern = regex.compile(rf"\p{{sc={code}}}")
        except regex.error:
            continue
        known += 1
        by_property = {p for p in names if pattern.match(chr(p))}
        prefix = english.get(code, code).upper() + " "
        by_name = {p for p, n in names.items() if n.startswith(prefix)}
        if by_property == by_name:
            exact += 1
        elif not by_property & by_name:
            missed.append(code)
    print(f"{len(codes)} scripts in babel's likely subtags (Unicode {unicodedata.unidata_version} names)")
    print(f"  regex \\p{{sc=...}} knows {known}; the other {len(codes) - known} are mixes (Jpan, Kore, Hans, ...)")
    print(f"  character-name guessing matches {exact} of those {known} exactly, finds none of {len(missed)}: {', '.join(missed)}")


if __name__ == "__main__":
    main()
