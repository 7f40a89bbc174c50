"""ET0xx: files that do not load cleanly, and suppressions that suppress nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator

from entrykit.diagnostic import Finding, Severity
from entrykit.entry import Entry
from entrykit.parsing import yaml_readings
from entrykit.registry import Context, builtin, rule

builtin(
    "ET001",
    "unparsable-file",
    Severity.ERROR,
    """File cannot be read as an entry.

    The file is not valid YAML or JSON, is not UTF-8 text, is empty, is too large,
    or holds something other than one mapping of fields (a list, a scalar, several
    YAML documents, a disallowed tag). Nothing else is checked in that file; the
    rest of the corpus still is.

    ## Why is this bad?
    An entry nobody can load is an entry no lookup will ever find, and every other
    rule is blind to it.

    ## Example
    ```yaml
    id: pytorch/fsdp-param-mismatch
    signature: "RuntimeError: FSDP parameter mismatch
    ```

    ## Use instead
    ```yaml
    id: pytorch/fsdp-param-mismatch
    signature: "RuntimeError: FSDP parameter mismatch"
    ```
    """,
)

builtin(
    "ET002",
    "unused-suppression",
    Severity.WARNING,
    """Suppression comment that suppresses nothing.

    A `# entrykit: disable=CODE` (or `disable-file=CODE`) directive names a code
    that no diagnostic at that place carries, or a code that does not exist.

    ## Why is this bad?
    Stale suppressions hide the next real problem at that line and tell readers
    something is wrong when it no longer is.

    ## Example
    ```yaml
    regex: "RuntimeError: .*"  # entrykit: disable=ET202
    ```
    (where the regex does match the signature)

    ## Use instead
    ```yaml
    regex: "RuntimeError: .*"
    ```
    """,
)


@rule("ET003", "duplicate-key")
def duplicate_key(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Mapping has the same key twice.

    YAML and JSON parsers silently keep the last of two equal keys, so the first
    value is lost without a word.

    ## Why is this bad?
    A contributor who edits the first `regex:` sees no effect, because the second
    one wins; reviewers read one value while tools use the other.

    ## Example
    ```yaml
    regex: "FSDP parameter mismatch"
    domain: pytorch
    regex: "FSDP .* mismatch"
    ```

    ## Use instead
    ```yaml
    regex: "FSDP parameter mismatch"
    domain: pytorch
    ```
    """
    for item in entry.irregularities():
        if item.kind == "duplicate-key":
            yield Finding(
                item.pointer,
                f"key `{item.detail}` appears more than once; this later value wins",
                position=(item.line, item.col),
            )


@rule("ET004", "nonstring-key")
def nonstring_key(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Mapping key is not a string.

    YAML reads unquoted keys such as `1`, `true` or `null` as numbers, booleans or
    null; entries are JSON-shaped data whose keys are always strings.

    ## Why is this bad?
    The same file means different things to YAML and JSON consumers, and the
    key never matches a schema property.

    ## Example
    ```yaml
    os_specific:
      10: "Windows 10 only"
    ```

    ## Use instead
    ```yaml
    os_specific:
      "10": "Windows 10 only"
    ```
    """
    for item in entry.irregularities():
        if item.kind == "nonstring-key":
            yield Finding(
                item.pointer,
                f"key `{item.detail}` is not a string; quote it",
                position=(item.line, item.col),
            )


@rule("ET005", "nonfinite-number")
def nonfinite_number(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Number is NaN or infinite.

    JSON has no NaN or Infinity (Python's `json` accepts them anyway) and YAML's
    `.nan` / `.inf` have no JSON equivalent.

    ## Why is this bad?
    NaN compares false with everything, so range checks such as `0 <= rate <= 1`
    silently pass, and strict JSON consumers reject the file.

    ## Example
    ```json
    {"confidence": NaN}
    ```

    ## Use instead
    ```json
    {"confidence": 0.5}
    ```
    """
    for item in entry.irregularities():
        if item.kind == "nonfinite-number":
            yield Finding(
                item.pointer, f"`{item.detail}` is not a finite number", position=(item.line, item.col)
            )


def _reading(value: object) -> str:
    if isinstance(value, str):
        return f"the string `{value}`"
    if isinstance(value, bool):
        return f"`{'true' if value else 'false'}`"
    return f"`{value!r}`"


@rule("ET006", "yaml-version-dependent-value", severity=Severity.WARNING)
def yaml_version_dependent_value(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Plain YAML value that YAML 1.1 tools read as a different value.

    entrykit reads YAML as YAML 1.2 (the core schema, as ruamel.yaml does). Many tools
    still read YAML 1.1 (PyYAML's `safe_load`, Go's yaml.v2, older Ruby and Java
    libraries), which reads some plain values differently: `yes`, `no`, `on`, `off`,
    `y` and `n` are booleans in 1.1 and strings in 1.2; `017` is fifteen (octal) in 1.1
    and seventeen in 1.2, while `0o17` is fifteen in 1.2 and a string in 1.1; `1:30` is
    ninety in 1.1 (base 60); `1e3` is a number in 1.2 and a string in 1.1.

    ## Why is this bad?
    The corpus is read by more tools than entrykit: a site generator or a lookup
    service on YAML 1.1 gets another value than the one entrykit checked.

    ## Example
    ```yaml
    resolvable: yes
    evidence_count: 017
    ```

    ## Use instead
    ```yaml
    resolvable: "yes"
    evidence_count: 17
    ```
    A quoted string, or the number written in plain decimal, reads the same in every
    YAML version.
    """
    for item in entry.irregularities():
        if item.kind == "yaml-1.1-scalar":
            modern, older = yaml_readings(item.detail)
            if modern == older and type(modern) is type(older):
                continue
            written = json.dumps(modern, ensure_ascii=False) if not isinstance(modern, bool) else str(modern).lower()
            yield Finding(
                item.pointer,
                f"`{item.detail}` is {_reading(modern)} in YAML 1.2 (entrykit) but {_reading(older)} in YAML 1.1 "
                f"(PyYAML and others); write `{written}`",
                position=(item.line, item.col),
            )
