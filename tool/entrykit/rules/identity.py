"""ET5xx: ids are well-formed, unique, where their file says, and references resolve."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePosixPath

from entrykit import pointer as jp
from entrykit.corpus import Corpus, aliases_of
from entrykit.diagnostic import Finding, Related, Severity
from entrykit.entry import Entry
from entrykit.paths import ID_PATTERN
from entrykit.regex.runner import RegexSettings
from entrykit.registry import Context, fact, rule
from entrykit.similarity import near_duplicates as dupes

GRAPH_LISTS = ("leads_to", "preceded_by", "frequently_confused_with")


def _claims(entry: Entry) -> list[tuple[str, str]]:
    """(pointer, id) for every id an entry answers to: its id and its aliases."""
    claims = [("/id", entry.id)] if entry.id else []
    for index, alias in enumerate(entry.list_field("aliases")):
        if isinstance(alias, str):
            claims.append((jp.join("aliases", index), alias))
    return claims


@rule("ET501", "duplicate-id", scope="corpus")
def duplicate_id(corpus: Corpus, ctx: Context) -> Iterator[Finding]:
    """Two entries answer to the same id.

    An entry's `id`, and each of its `aliases`, must belong to that entry alone:
    an id equal to another entry's id *or alias* counts as a duplicate, and so
    does an alias repeating the entry's own id.

    ## Why is this bad?
    A lookup by id (from a link, a `transition_graph` reference, an agent's
    citation) cannot say which of the two entries is meant.

    ## Example
    ```yaml
    # entries/pytorch/fsdp-param-mismatch.yaml
    id: pytorch/fsdp-param-mismatch
    ---
    # entries/pytorch/fsdp-parameter-mismatch.yaml
    id: pytorch/fsdp-parameter-mismatch
    aliases: [pytorch/fsdp-param-mismatch]
    ```

    ## Use instead
    Merge the two entries (`entrykit merge`), or remove the stale alias.
    """
    owners: dict[str, list[tuple[Entry, str]]] = {}
    for entry in corpus:
        for where, claimed in _claims(entry):
            owners.setdefault(claimed, []).append((entry, where))
    wanted = None if corpus.focus is None else {id(e) for _, e in corpus.focused()}
    for claimed, holders in owners.items():
        if len(holders) < 2:
            continue
        for entry, where in holders:
            if wanted is not None and id(entry) not in wanted:
                continue
            others = [(e, w) for e, w in holders if e is not entry]
            if not others:
                if where != "/id" and claimed == entry.id:
                    yield Finding(
                        where, f"alias `{claimed}` repeats the entry's own id", path=entry.path
                    )
                continue
            related = tuple(Related(e.path, w) for e, w in others)
            names = ", ".join(sorted({e.path for e, _ in others}))
            yield Finding(
                where,
                f"id `{claimed}` is also claimed by {names}",
                path=entry.path,
                related=related,
            )


def duplicate_settings(ctx: Context) -> dupes.Settings:
    return dupes.Settings.from_section(ctx.section("dupes"))


@rule("ET502", "near-duplicate-entries", severity=Severity.WARNING, scope="corpus")
def near_duplicate_entries(corpus: Corpus, ctx: Context) -> Iterator[Finding]:
    """Two entries look like the same error written twice.

    Pairs are found without comparing every pair (MinHash LSH over the
    normalised signature and id, entries of one `<domain>/<slug>` in several
    environments, regexes of small domains tried on each other's signatures)
    and scored from their reasons: the same signature once quoted names,
    numbers, shapes, paths and hex are normalised; each regex matching the other's
    signature; similar ids; overlapping workarounds; the same domain. The
    settings in `[tool.entrykit.dupes]` set the score `threshold` and an `allow`
    list of id patterns for intentional families. Pairs already linked by
    `aliases` or `frequently_confused_with` are not reported, nor two entries
    with one id (that is ET501). `entrykit dupes` lists the same pairs, grouped.

    ## Why is this bad?
    Two entries for one error split what is known about it: a user finds one,
    with half the workarounds and a different root cause, and the rates of each
    rest on half the evidence.

    ## Example
    ```yaml
    # entries/pytorch/fsdp-param-mismatch.yaml
    id: pytorch/fsdp-param-mismatch
    signature: "RuntimeError: FSDP parameter mismatch across ranks. Expected parameter 'model.fc.weight' to have shape [100, 256] but got [100, 128] on rank 2."
    ---
    # entries/pytorch/fsdp-parameter-mismatch.yaml
    id: pytorch/fsdp-parameter-mismatch
    signature: "RuntimeError: FSDP parameter mismatch across ranks: expected parameter 'layer.0.weight' but got parameter 'module.layer.0.weight'"
    ```

    ## Use instead
    Merge them (`entrykit merge pytorch/fsdp-param-mismatch pytorch/fsdp-parameter-mismatch`),
    or, if they are different errors, say so:
    ```yaml
    id: pytorch/fsdp-param-mismatch
    transition_graph:
      frequently_confused_with:
        - error_id: pytorch/fsdp-parameter-mismatch
          distinction: shapes differ, not names
    ```
    """
    settings = duplicate_settings(ctx)
    regex = RegexSettings.of(ctx.section("regex"))
    matched = dupes.signature_matches(
        corpus.entries, regex.flags, regex.mode, regex.runner(), corpus.memo, corpus.focus
    )
    pairs = dupes.find_duplicates(corpus.entries, settings, matched=matched, focus=corpus.focus)
    for pair in pairs:
        why = ", ".join(r.text for r in pair.reasons)
        for this, other in ((pair.a, pair.b), (pair.b, pair.a)):
            yield Finding(
                "/signature",
                f"entry looks like a near-duplicate of `{other.id or other.path}` (score {pair.score:.2f}: {why})",
                path=this.path,
                related=(Related(other.path, "/signature"),),
            )


@fact("dupes", rules=("ET502",))
def _duplicate_profile(entry: Entry, ctx: Context) -> object:
    return dupes.profile(entry)


@fact("bands", rules=("ET502",), on_demand=True)
def _duplicate_bands(entry: Entry, ctx: Context) -> object:
    """MinHash band keys, only worth computing when the corpus is too big to compare all pairs
    (ET502 computes those an entry lacks: `dupes.entry_band_keys`)."""
    if int(ctx.options.get("corpus_size", 0)) <= dupes.EXACT_LIMIT:
        return None
    dupes.entry_band_keys(entry, duplicate_settings(ctx).candidate)
    return entry.facts["bands"]


@rule("ET503", "id-malformed")
def id_malformed(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Id is malformed or does not match the file's path.

    An id is `<domain>/<slug>`: two segments of lowercase letters and digits,
    joined inside a segment by `-`, `_` or `.`. The file holding it must be
    `<domain>/<slug>.yaml` (or `.yml`, `.json`) below the corpus root.

    ## Why is this bad?
    Tools find entries by id through their path; a file whose path disagrees
    with its id is found under the wrong name or not at all, and ids with other
    characters break URLs and file systems.

    ## Example
    ```yaml
    # entries/pytorch/fsdp.yaml
    id: PyTorch/FSDP Param Mismatch
    ```

    ## Use instead
    ```yaml
    # entries/pytorch/fsdp-param-mismatch.yaml
    id: pytorch/fsdp-param-mismatch
    ```
    """
    entry_id = entry.id
    if entry_id is None:
        return
    if not ID_PATTERN.fullmatch(entry_id):
        yield Finding(
            "/id",
            f"id `{entry_id}` is not `<domain>/<slug>` in lowercase letters, digits, `-`, `_`, `.`",
        )
        return
    domain, slug = entry_id.split("/")
    path = PurePosixPath(entry.abspath.as_posix())
    expected = f"{domain}/{slug}{path.suffix}"
    if path.stem != slug or path.parent.name != domain:
        yield Finding("/id", f"id `{entry_id}` belongs in `{expected}`, not in `{path.parent.name}/{path.name}`")


def graph_references(entry: Entry) -> Iterator[tuple[str, str]]:
    """(pointer, target id) for every reference in `transition_graph`."""
    graph = entry.dict_field("transition_graph")
    for name in GRAPH_LISTS:
        items = graph.get(name)
        if not isinstance(items, list):
            continue
        for index, item in enumerate(items):
            if isinstance(item, str):
                yield jp.join("transition_graph", name, index), item
            elif isinstance(item, dict) and isinstance(item.get("error_id"), str):
                yield jp.join("transition_graph", name, index, "error_id"), item["error_id"]


@rule("ET504", "dangling-reference", scope="corpus")
def dangling_reference(corpus: Corpus, ctx: Context) -> Iterator[Finding]:
    """Transition graph refers to an unknown id, or to the entry itself.

    Every id in `transition_graph.leads_to`, `preceded_by` and
    `frequently_confused_with` must be the id or an alias of an entry in the
    corpus, and not of the entry that holds the reference.

    ## Why is this bad?
    An agent following "this error often leads to X" lands nowhere; a self
    reference is a loop that tells nothing.

    ## Example
    ```yaml
    id: pytorch/fsdp-param-mismatch
    transition_graph:
      leads_to: [pytorch/no-such-entry]
    ```

    ## Use instead
    ```yaml
    id: pytorch/fsdp-param-mismatch
    transition_graph:
      leads_to: [pytorch/fsdp-parameter-mismatch]
    ```
    """
    for _, entry in corpus.focused():
        own = {entry.id, *aliases_of(entry)} - {None}
        for where, target in graph_references(entry):
            if target in own:
                yield Finding(where, f"reference `{target}` points at this entry itself", path=entry.path)
            elif not corpus.knows(target):
                yield Finding(where, f"reference `{target}` is not the id of any entry", path=entry.path)


@rule("ET505", "domain-mismatch")
def domain_mismatch(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """The `domain` field disagrees with the id's prefix.

    `domain` repeats the first segment of `id`; both must say the same.

    ## Why is this bad?
    Listings by domain and paths by id put the entry in two different places.

    ## Example
    ```yaml
    id: pytorch/fsdp-param-mismatch
    domain: cuda
    ```

    ## Use instead
    ```yaml
    id: pytorch/fsdp-param-mismatch
    domain: pytorch
    ```
    """
    entry_id = entry.id
    domain = entry.str_field("domain")
    if entry_id is None or domain is None or "/" not in entry_id:
        return
    prefix = entry_id.split("/", 1)[0]
    if prefix != domain:
        yield Finding("/domain", f"domain `{domain}` differs from the id's prefix `{prefix}`")
