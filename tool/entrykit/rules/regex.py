"""ET2xx: an entry's regex compiles and recognises what it should, and only that."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .. import pointer as jp
from ..diagnostic import Finding
from ..entry import Entry
from ..matching import FLAG_NAMES, MODES, compile_error, compile_pattern, matches, settings_flags
from ..registry import Context, Option, rule, section

section(
    "regex",
    {
        "flags": Option(
            [],
            "Flags every lookup compiles regexes with (`IGNORECASE`, `MULTILINE`, `DOTALL`, "
            "`VERBOSE`, `ASCII`).",
            type=list,
            items=str,
            choices=tuple(FLAG_NAMES),
        ),
        "mode": Option(
            "search",
            "How lookups apply a regex: `search` anywhere in the text, `match` at its "
            "start, `fullmatch` the whole text.",
            choices=MODES,
        ),
    },
    "How lookups run entry regexes; every regex rule follows these settings.",
)


def _compiled(entry: Entry, ctx: Context) -> re.Pattern[str] | None:
    pattern = entry.str_field("regex")
    if pattern is None:
        return None
    flags = settings_flags(ctx.section("regex"))
    if compile_error(pattern, flags) is not None:
        return None
    return compile_pattern(pattern, flags)


def _mode(ctx: Context) -> str:
    return str(ctx.section("regex").get("mode", "search"))


@rule("ET201", "regex-does-not-compile")
def regex_does_not_compile(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex is not a valid Python regular expression.

    The `regex` field is compiled with Python's `re` and the configured flags.

    ## Why is this bad?
    A regex that does not compile recognises nothing: the entry can never be
    found from a user's log, and lookup tools may crash on it.

    ## Example
    ```yaml
    regex: "RuntimeError: FSDP parameter mismatch across ranks ("
    ```

    ## Use instead
    ```yaml
    regex: "RuntimeError: FSDP parameter mismatch across ranks \\\\("
    ```
    """
    pattern = entry.str_field("regex")
    if pattern is None:
        return
    problem = compile_error(pattern, settings_flags(ctx.section("regex")))
    if problem is not None:
        yield Finding("/regex", f"regex does not compile: {problem}")


@rule("ET202", "regex-misses-signature")
def regex_misses_signature(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex does not match the entry's own signature.

    The regex is run against `signature` with the configured flags and mode
    (`search` by default), exactly as a lookup would run it against a log.

    ## Why is this bad?
    If the regex misses the very message the entry is about, a user pasting that
    message is never sent to this entry.

    ## Example
    ```yaml
    signature: "RuntimeError: FSDP parameter mismatch across ranks."
    regex: "FSDP param mismatch"
    ```

    ## Use instead
    ```yaml
    signature: "RuntimeError: FSDP parameter mismatch across ranks."
    regex: "FSDP parameter mismatch across ranks"
    ```
    """
    compiled = _compiled(entry, ctx)
    signature = entry.str_field("signature")
    if compiled is None or signature is None:
        return
    if not matches(compiled, signature, _mode(ctx)):
        yield Finding("/regex", "regex does not match the entry's own `signature`")


@rule("ET203", "regex-misses-example")
def regex_misses_example(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex does not match one of the entry's `examples`.

    `examples` are further real messages of the same error (other names, other
    numbers, other wording across versions); the regex must recognise each.

    ## Why is this bad?
    Users meet the variants, not only the signature; a regex that misses them
    leaves those users without an answer.

    ## Example
    ```yaml
    regex: "expected 'layer\\\\.0\\\\.weight'"
    examples:
      - "expected 'fc.weight'"
    ```

    ## Use instead
    ```yaml
    regex: "expected '[^']+'"
    examples:
      - "expected 'fc.weight'"
    ```
    """
    compiled = _compiled(entry, ctx)
    if compiled is None:
        return
    mode = _mode(ctx)
    for index, example in enumerate(entry.list_field("examples")):
        if isinstance(example, str) and not matches(compiled, example, mode):
            yield Finding(jp.join("examples", index), f"regex does not match example {index + 1}")


@rule("ET204", "regex-matches-counterexample")
def regex_matches_counterexample(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Regex matches one of the entry's `counterexamples`.

    `counterexamples` are messages of *other* errors that look alike; the regex
    must not match any of them.

    ## Why is this bad?
    A lookup would send users with a different error to this entry, where the
    root cause and workarounds are wrong for them.

    ## Example
    ```yaml
    regex: "mismatch"
    counterexamples:
      - "RuntimeError: size mismatch for fc.weight"
    ```

    ## Use instead
    ```yaml
    regex: "FSDP parameter mismatch across ranks"
    counterexamples:
      - "RuntimeError: size mismatch for fc.weight"
    ```
    """
    compiled = _compiled(entry, ctx)
    if compiled is None:
        return
    mode = _mode(ctx)
    for index, counter in enumerate(entry.list_field("counterexamples")):
        if isinstance(counter, str) and matches(compiled, counter, mode):
            yield Finding(
                jp.join("counterexamples", index), f"regex matches counterexample {index + 1}"
            )
