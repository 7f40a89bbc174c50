"""Shortcuts of a cold run in the regex analyses give exactly what the plain computation gives.

- `redos._every_code_point` (the string `_lower_preimages` scans, written a byte plane at
  a time) is every code point in order;
- `redos._lower_preimages` is, for every code point, the others `re` lowers to it;
- `RegexRunner.compile_check` answers a second time from memory what it found the first.
"""

from __future__ import annotations

import sys

from entrykit.regex import redos
from entrykit.regex.runner import RegexRunner, Status


def test_every_code_point_in_order() -> None:
    assert redos._every_code_point() == "".join(map(chr, range(sys.maxunicode + 1)))


def test_a_compile_check_is_the_same_from_memory() -> None:
    with RegexRunner() as runner:
        for pattern, flags in [("a+b", 0), ("(", 0), ("x{3,2}", 2), ("[a-z]+", 2), ("(", 2)]:
            first = runner.compile_check(pattern, flags)
            again = runner.compile_check(pattern, flags)
            assert first == again
            assert (first.status is Status.MATCH) == runner.compiles(pattern, flags)
        assert runner.compile_check("(", 0).status is Status.ERROR
        assert runner.compile_check("(", 0).error == "missing ), unterminated subpattern at position 0"
