"""ET4xx: version tables mean something: specs parse, names are canonical, lifecycles agree."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from entrykit import pointer as jp
from entrykit.deferred import deferred
from entrykit.diagnostic import Finding, Fix, Related, Severity
from entrykit.entry import Entry
from entrykit.registry import Context, rule

if TYPE_CHECKING:
    from packaging import specifiers as packaging_specifiers

    from entrykit.versions import package_names
    from entrykit.versions import specifiers as version_specifiers
    from entrykit.versions import table as version_table
    from entrykit.versions.package_names import Naming
    from entrykit.versions.specifiers import Parsed, VersionSpec
    from entrykit.versions.table import Row
else:  # loaded when a rule first runs: a run that takes every file from the cache never does
    packaging_specifiers = deferred("packaging.specifiers")
    package_names = deferred("entrykit.versions.package_names")
    version_specifiers = deferred("entrykit.versions.specifiers")
    version_table = deferred("entrykit.versions.table")

STATUSES = ("active", "deprecated", "removed")


def naming(ctx: Context) -> Naming:
    """The built-in naming extended by the `versions` settings."""
    return ctx.read("versions", package_names.configured_naming)


def _set(row: dict[str, Any], name: str) -> str | None:
    value = row.get(name)
    return value.strip() if isinstance(value, str) and value.strip() else None


def _parsed_rows(entry: Entry, names: Naming) -> Iterator[tuple[int, dict[str, Any], Parsed]]:
    return version_table.parsed_rows(entry.list_field("versions"), names)


def _rows(entry: Entry, names: Naming) -> list[Row]:
    return version_table.usable_rows(entry.list_field("versions"), names)


def _no_package_fix(entry: Entry, names: Naming, spec: VersionSpec, where: str) -> Fix | None:
    domain = entry.str_field("domain") or (entry.id or "").partition("/")[0]
    if not package_names.canonical_name(domain):
        return None
    value = str(spec.renamed(names.resolve(package_names.canonical_name(domain))))
    return Fix(where, value, f"name the entry's domain as the package: `{value}`", safe=False)


@rule("ET401", "version-spec-malformed")
def version_spec_malformed(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Version spec is unparsable, matches no version, or is not written canonically.

    A row's `version` is `<package><specifier>`: a package name in lower case
    and a PEP 440 specifier without spaces (`torch>=2.0,<2.3`). Common informal
    forms are read and their canonical form is named: `CUDA 11.x+` is
    `cuda>=11`, `NCCL 2.10+` is `nccl>=2.10`, `torch 2.x` is `torch==2.*`,
    `Torch >= 2.0, < 2.3` is `torch>=2.0,<2.3`, `node>=any` is `node`. These are
    warnings. Text that cannot be read (`torch latest`, `HTTP/1.1+`), a spec
    no version satisfies (`torch>=2,<1`) and lifecycle values (`introduced`,
    `deprecated`, `removed`) that are no version of the row's package are
    errors. A spec without a package (`>=2.0`) is a warning.

    Packages with release names or dates instead of numbers (ROS 2 distros,
    dated APIs) are read with the vocabularies in `versions.vocabularies`. A
    spec of an undeclared package written wholly in ISO months or days
    (`stripe-api>=2023-10-16`) is read as dates without one: no PEP 440
    release is written that way.

    ## Why is this bad?
    Tools compare version rows to tell a reader whether an entry applies to
    their setup; a row they cannot read is a row nobody checks, and
    `CUDA 11.x+` next to `cuda>=11.7` looks like two different packages.

    ## Example
    ```yaml
    versions:
      - version: CUDA 11.x+
      - version: torch>=2.3,<2.0
    ```

    ## Use instead
    ```yaml
    versions:
      - version: cuda>=11
      - version: torch>=2.0,<2.3
    ```

    ## Fix
    `entrykit lint --fix` writes the canonical form. A bare version
    (`torch 2.0`) is only suggested (`torch==2.0`), since the writer may mean
    the whole 2.0 series; a spec without a package is only suggested with the
    entry's domain as the package.
    """
    names = naming(ctx)
    for index, row, parsed in _parsed_rows(entry, names):
        text = row["version"]
        where = jp.join("versions", index, "version")
        spec = parsed.spec
        if spec is None:
            yield Finding(where, f"`{text}` is not a version spec: {parsed.error}")
            continue
        if not spec.package:
            yield Finding(
                where,
                f"`{text}` names no package; write `<package>{spec}`",
                severity=Severity.WARNING,
                fix=_no_package_fix(entry, names, spec, where),
            )
            continue
        if parsed.unsatisfiable:
            yield Finding(where, f"`{text}` matches no version")
            continue
        if not parsed.is_canonical:
            canonical = str(spec)
            exact = " if exactly that release is meant" if parsed.guessed else ""
            yield Finding(
                where,
                f"`{text}` is not canonical; write `{canonical}`{exact}",
                severity=Severity.WARNING,
                fix=Fix(where, canonical, f"write `{canonical}`", safe=not parsed.guessed),
            )
        for name in version_table.LIFECYCLE:
            value = row.get(name)
            if not isinstance(value, str) or not value.strip():
                continue
            field_at = jp.join("versions", index, name)
            canonical_version, problem = version_specifiers.parse_version(value, spec.scheme)
            if canonical_version is None:
                yield Finding(field_at, f"`{name}` `{value}` is no version of `{spec.package}`: {problem}")
            elif canonical_version != value:
                yield Finding(
                    field_at,
                    f"`{name}` `{value}` is not canonical; write `{canonical_version}`",
                    severity=Severity.WARNING,
                    fix=Fix(field_at, canonical_version, f"write `{canonical_version}`"),
                )


@rule("ET402", "lifecycle-out-of-order")
def lifecycle_out_of_order(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Lifecycle versions of a row are out of order.

    Where set: `introduced` < `deprecated` <= `removed` (and `introduced` <
    `removed`), compared in the row's version scheme (PEP 440, or the
    package's vocabulary).

    ## Why is this bad?
    A behaviour removed before it was introduced tells the reader nothing about
    which versions show the error; one of the versions is a typo.

    ## Example
    ```yaml
    versions:
      - version: torch>=1.12
        introduced: "2.1"
        deprecated: "1.13"
    ```

    ## Use instead
    ```yaml
    versions:
      - version: torch>=1.12
        introduced: "1.13"
        deprecated: "2.1"
    ```
    """
    for row in _rows(entry, naming(ctx)):
        present = [name for name in version_table.LIFECYCLE if name in row.lifecycle]
        for earlier, later in pairwise(present):
            first, second = row.key(earlier), row.key(later)
            strict = earlier == "introduced"
            if second < first or (strict and second == first):
                relation = "before" if second < first else "the same as"
                yield Finding(
                    jp.join("versions", row.index, later),
                    f"`{later}` {row.lifecycle[later]} is {relation} `{earlier}` {row.lifecycle[earlier]}",
                )


@rule("ET403", "status-contradicts-lifecycle")
def status_contradicts_lifecycle(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """A row's `status` contradicts its lifecycle fields or is unknown.

    `status` is `active`, `deprecated` or `removed`. An `active` row has no
    `removed` version; a `removed` row has one; a `deprecated` row has a
    `deprecated` version.

    ## Why is this bad?
    Readers filter rows by status; a row marked active whose behaviour was
    removed sends them to fix an error their version cannot show.

    ## Example
    ```yaml
    versions:
      - version: torch>=1.12
        removed: "2.3"
        status: active
    ```

    ## Use instead
    ```yaml
    versions:
      - version: torch>=1.12
        removed: "2.3"
        status: removed
    ```
    """
    for index, row in enumerate(entry.list_field("versions")):
        if not isinstance(row, dict) or not isinstance(row.get("status"), str):
            continue
        status = row["status"]
        where = jp.join("versions", index, "status")
        if status not in STATUSES:
            yield Finding(where, f"unknown status `{status}`; use `active`, `deprecated` or `removed`")
        elif status == "active" and _set(row, "removed"):
            yield Finding(where, f"status `active` but `removed` is `{_set(row, 'removed')}`")
        elif status in ("removed", "deprecated") and not _set(row, status):
            yield Finding(where, f"status `{status}` but `{status}` names no version")


@rule("ET404", "version-rows-overlap")
def version_rows_overlap(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Two version rows of the same package overlap redundantly or contradict each other.

    Rows are compared per package (aliases resolved) with `packaging`'s set
    operations. Two rows that share versions but set a lifecycle field
    (`introduced`, `deprecated`, `removed`, `status`) to different values
    contradict each other: an error naming the shared versions. A row whose
    versions another row covers, and which sets no field (`behavior_change`
    included) the other row does not set alike, adds nothing: a warning on that
    row. A field set on one row only is no contradiction, and rows that overlap
    only partly without contradicting each other are left alone. The first 64
    rows of a package are compared with each other; a package with more rows
    gets a warning on its 65th row saying how many were left out.

    ## Why is this bad?
    A reader with torch 2.1 matches both `torch>=1.12` and `torch>=2.0`; a
    second row adds nothing to read, and two rows with different statuses
    leave the reader to guess which one holds.

    ## Example
    ```yaml
    versions:
      - version: torch>=1.12
        status: active
      - version: torch>=2.0
        status: active
    ```

    ## Use instead
    ```yaml
    versions:
      - version: torch>=1.12
        status: active
    ```
    """
    rows = _rows(entry, naming(ctx))
    reported: set[int] = set()
    for first, second in version_table.pairs(rows):
        relation = version_table.compare(first, second)
        if isinstance(relation, version_table.Redundant):
            narrow, wide = relation.narrow, relation.wide
            if narrow.index in reported:
                continue
            reported.add(narrow.index)
            yield Finding(
                narrow.pointer,
                f"`{narrow.spec}` adds nothing: `{wide.spec}` (versions/{wide.index}) already "
                f"covers its versions and lifecycle",
                severity=Severity.WARNING,
                related=(Related(entry.path, wide.pointer),),
            )
        elif isinstance(relation, version_table.Contradiction):
            yield Finding(
                second.pointer,
                f"`{second.spec}` ({version_table.lifecycle_text(second)}) and `{first.spec}` "
                f"(versions/{first.index}, {version_table.lifecycle_text(first)}) disagree on `{relation.shared}`",
                related=(Related(entry.path, first.pointer),),
            )
    for row, count in version_table.uncompared(rows):
        most = version_table.MOST_ROWS_COMPARED
        yield Finding(
            row.pointer,
            f"`{row.package}` has {count:,} version rows; only the first {most} rows of a package are "
            f"compared, so this row and the {count - most - 1:,} after it were not checked for overlaps",
            severity=Severity.WARNING,
        )


@rule("ET405", "package-named-by-alias", severity=Severity.WARNING)
def package_named_by_alias(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """A version row names its package by an alias.

    `pytorch` is `torch`, `tf` is `tensorflow`, `sklearn` is `scikit-learn`:
    the built-in table is `entrykit/data/versions.toml`, and
    `versions.aliases` adds to it (`canonical = [aliases]`).

    ## Why is this bad?
    Rows are compared per package: `pytorch>=2.0` in one entry and
    `torch>=2.0` in another look like two packages to every tool that reads
    the corpus, and readers search for one name.

    ## Example
    ```yaml
    versions:
      - version: pytorch>=2.0
    ```

    ## Use instead
    ```yaml
    versions:
      - version: torch>=2.0
    ```

    ## Fix
    `entrykit lint --fix` writes the canonical name (and the canonical form of
    the rest of the spec).
    """
    names = naming(ctx)
    for index, _row, parsed in _parsed_rows(entry, names):
        spec = parsed.spec
        if spec is None or not spec.package:
            continue
        target = names.resolve(spec.package)
        if target != spec.package:
            where = jp.join("versions", index, "version")
            value = str(spec.renamed(target))
            yield Finding(
                where,
                f"package `{spec.package}` is an alias of `{target}`; write `{value}`",
                fix=Fix(where, value, f"write `{value}`"),
            )


@rule("ET406", "lifecycle-outside-range")
def lifecycle_outside_range(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """A lifecycle version lies outside the row's own version range.

    `introduced` and `deprecated` must be versions the row's specifier
    includes. `removed` may also be the first version after the range (a row
    `torch>=2.0,<2.3` removed in 2.3), but not a version the range reaches past
    or starts after.

    ## Why is this bad?
    A row that applies to `torch>=2.0` but says the error was introduced in
    1.12 contradicts itself: either the range or the version is wrong.

    ## Example
    ```yaml
    versions:
      - version: torch>=2.0
        introduced: "1.12"
    ```

    ## Use instead
    ```yaml
    versions:
      - version: torch>=1.12
        introduced: "1.12"
    ```
    """
    for row in _rows(entry, naming(ctx)):
        for name, version in row.lifecycle.items():
            if row.spec.contains(version):
                continue
            if name == "removed":
                at_or_after = row.spec.range & packaging_specifiers.SpecifierSet(f">={row.key(name)}").to_range()
                if at_or_after.is_empty:
                    continue
            yield Finding(
                jp.join("versions", row.index, name),
                f"`{name}` {version} is outside the row's own range `{row.spec}`",
            )

