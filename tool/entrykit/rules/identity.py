"""ET5xx: ids are well-formed, unique, where their file says, and references resolve."""

from __future__ import annotations

from collections.abc import Iterator

from entrykit import pointer as jp
from entrykit.corpus import Corpus, aliases_of
from entrykit.diagnostic import Finding, Related, Severity
from entrykit.entry import Entry
from entrykit.paths import ID_PATTERN
from entrykit.regex.runner import RegexSettings
from entrykit.registry import Context, Option, fact, rule
from entrykit.similarity import near_duplicates as dupes

GRAPH_LISTS = ("leads_to", "preceded_by", "frequently_confused_with")


def _claims(entry: Entry) -> list[tuple[str, str]]:
    """(pointer, id) for every id an entry answers to: its id and its aliases."""
    claims = [("/id", entry.id)] if entry.id else []
    for index, alias in enumerate(entry.list_field("aliases")):
        if isinstance(alias, str):
            claims.append((jp.join("aliases", index), alias))
    return claims


# Other holders of one id an ET501 finding names; the rest are counted.
SHOWN_HOLDERS = 3
# Places of one named holder an ET501 finding points at (an entry repeating one alias thousands
# of times would otherwise give each of its findings every place of every holder named: output
# growing with the square of the list). Real entries claim an id once or twice.
SHOWN_PLACES = 8


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

    An id claimed by more than four entries names the first three others (by path)
    and counts the rest, and points at no more than eight places of each entry it
    names.
    """
    owners: dict[str, list[tuple[int, Entry, str]]] = {}
    for number, entry in enumerate(corpus):  # (numbered in corpus order: by path)
        for where, claimed in _claims(entry):
            owners.setdefault(claimed, []).append((number, entry, where))
    wanted = None if corpus.focus is None else {id(e) for _, e in corpus.focused()}
    for claimed, holders in owners.items():
        if len(holders) < 2:
            continue
        # The first few other holders by path, the rest counted: one id claimed by many
        # entries gives findings linear in them, not in their pairs.
        places: dict[str, list[str]] = {}
        for _, holder, where in sorted(holders, key=lambda item: (item[0], item[2])):
            places.setdefault(holder.path, []).append(where)
        paths = list(places)
        for _, entry, where in holders:
            if wanted is not None and id(entry) not in wanted:
                continue
            if len(paths) == 1:
                if where != "/id" and claimed == entry.id:
                    yield Finding(
                        where, f"alias `{claimed}` repeats the entry's own id", path=entry.path
                    )
                continue
            shown = [p for p in paths[: SHOWN_HOLDERS + 1] if p != entry.path][:SHOWN_HOLDERS]
            more = len(paths) - 1 - len(shown)
            names = ", ".join(shown) + (f" and {more} more" if more > 0 else "")
            yield Finding(
                where,
                f"id `{claimed}` is also claimed by {names}",
                path=entry.path,
                related=tuple(Related(p, w) for p in shown for w in places[p][:SHOWN_PLACES]),
            )


def duplicate_settings(ctx: Context) -> dupes.Settings:
    return ctx.read("dupes", dupes.Settings.from_section)


@rule(
    "ET502",
    "near-duplicate-entries",
    severity=Severity.WARNING,
    scope="corpus",
    apart=True,  # the largest corpus rule: on its own core while the others run
    cross_matches=True,
    options={
        "max_pairs": Option(
            dupes.PER_ENTRY,
            "Closest near-duplicates reported per entry; the others are counted in one more diagnostic.",
            int,
        )
    },
)
def near_duplicate_entries(corpus: Corpus, ctx: Context) -> Iterator[Finding]:
    """Two entries look like the same error written twice.

    Pairs are found without comparing every pair (entries with one normalised
    signature, MinHash LSH over the normalised signature and id, entries of one
    `<domain>/<slug>` in several environments, regexes that match each other's
    signatures) and scored from their reasons: the same signature once volatile
    tokens (numbers, paths, URLs, shapes, hex, addresses) are normalised; each
    regex matching the other's signature; similar ids; overlapping workarounds; the
    same domain. Names stay: `'NoneType'` and `'coroutine'`, `module 'tensorflow'`
    and `module 'numpy'` tell errors apart, and entries of one template that differ
    in such a named value (a country, a type, a product) are a template family,
    which `entrykit dupes --families` lists, not near-duplicates. Similar ids,
    workarounds and domain only lift a pair whose signatures or regexes already
    say something. The settings in `[tool.entrykit.dupes]` set the score
    `threshold` and an `allow` list of id patterns for intentional families.
    Pairs linked by `aliases` or `frequently_confused_with` are not reported,
    except that two entries with one normalised signature always are; nor two
    entries with one id (that is ET501). Each entry gets its `max_pairs` closest
    near-duplicates and, if it has more, one diagnostic that counts them;
    `entrykit dupes` lists them all, grouped.

    ## Why is this bad?
    Two entries for one error split what is known about it: a user finds one,
    with half the workarounds and a different root cause, and the rates of each
    rest on half the evidence.

    ## Example
    ```yaml
    # entries/pytorch/cuda-oom.yaml
    id: pytorch/cuda-oom
    signature: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity)"
    ---
    # entries/pytorch/cuda-oom-training.yaml
    id: pytorch/cuda-oom-training
    signature: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 1; 23.65 GiB total capacity)"
    ```

    ## Use instead
    Merge them (`entrykit merge pytorch/cuda-oom pytorch/cuda-oom-training`),
    or, if they are different errors, say so:
    ```yaml
    id: pytorch/cuda-oom
    transition_graph:
      frequently_confused_with:
        - error_id: pytorch/cuda-oom-training
          distinction: only during training, from activations kept for backward
    ```

    ## Options
    - `max_pairs` (default 3): the closest near-duplicates reported per entry (highest
      score first, then by id); beyond, one diagnostic counts the others.
    """
    settings = duplicate_settings(ctx)
    regex = ctx.read("regex", RegexSettings.of)
    matched = dupes.regex_matches(corpus.entries, regex.flags, regex.mode, regex.runner(), corpus.memo, corpus.focus)
    limit = max(1, int(ctx.options.get("max_pairs", dupes.PER_ENTRY)))
    found = dupes.find_duplicates(
        corpus.entries, settings, matched=matched, focus=corpus.focus, per_entry=limit, families=False
    )
    # One related place for each entry named: an entry is the other of several pairs, and
    # the corpus phase keeps one copy of each (an equal one costs it a rebuilt finding).
    related_of: dict[str, tuple[Related, ...]] = {}
    reasons: tuple[dupes.Reason, ...] | None = None
    why = ""
    # One message for each thing said: an entry is the other of several pairs, and of a
    # template corpus many entries have as many more; the corpus phase keeps one copy of
    # each message, and rebuilds a finding whose message is an equal copy (`_pooled`).
    said: dict[tuple[str, float, str], str] = {}
    said_more: dict[int, str] = {}
    for number in sorted(found.closest):
        this = corpus.entries[number]
        more = found.more(number)
        # let go of the entry's pairs once told: a large corpus then never holds every
        # pair and every finding at once
        for pair in found.closest.pop(number):
            other = pair.b if pair.a is this else pair.a
            if pair.reasons is not reasons:  # (pairs of one clique share their reasons)
                reasons = pair.reasons
                why = ", ".join([r.text for r in reasons])
            related = related_of.get(other.path) or related_of.setdefault(
                other.path, (Related(other.path, "/signature"),)
            )
            name = other.id or other.path
            key = (name, pair.score, why)
            message = said.get(key)
            if message is None:
                message = said[key] = f"entry looks like a near-duplicate of `{name}` (score {pair.score:.2f}: {why})"
            yield Finding("/signature", message, path=this.path, related=related)
        if more > 0:
            message = said_more.get(more)
            if message is None:
                message = said_more[more] = (
                    f"entry looks like a near-duplicate of {more} more "
                    f"entr{'y' if more == 1 else 'ies'}; `entrykit dupes` lists them"
                )
            yield Finding("/signature", message, path=this.path)


@fact("dupes", rules=("ET502",))
def _duplicate_profile(entry: Entry, ctx: Context) -> object:
    # The fact is what `profile` keeps in `entry.facts` (with its version), not what it
    # returns: the corpus phase then reads it instead of computing it again.
    dupes.profile(entry)
    return entry.facts["dupes"]


def _prepare_bands(ctx: Context) -> None:
    if int(ctx.options.get("corpus_size", 0)) > dupes.EXACT_LIMIT:
        dupes.prepare_band_keys(duplicate_settings(ctx).candidate)


@fact("bands", rules=("ET502",), on_demand=True, prepare=_prepare_bands)
def _duplicate_bands(entry: Entry, ctx: Context) -> object:
    """MinHash band keys, only worth computing when the corpus is too big to compare all pairs
    (ET502 computes those an entry lacks: `dupes.entry_band_blob`)."""
    if int(ctx.options.get("corpus_size", 0)) <= dupes.EXACT_LIMIT:
        return None
    dupes.entry_band_blob(entry, duplicate_settings(ctx).candidate)
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
    folder, name, stem, suffix = file_parts(entry.abspath.as_posix())
    if stem != slug or folder != domain:
        yield Finding("/id", f"id `{entry_id}` belongs in `{domain}/{slug}{suffix}`, not in `{folder}/{name}`")


def file_parts(posix: str) -> tuple[str, str, str, str]:
    """(its folder's name, its name, stem and suffix) of a POSIX path, as `PurePosixPath` reads
    them, without making two path objects for every entry."""
    parts = [part for part in posix.split("/") if part and part != "."]
    name = parts[-1] if parts else ""
    folder = parts[-2] if len(parts) > 1 else ""
    dot = name.rfind(".")
    if 0 < dot < len(name) - 1:
        return folder, name, name[:dot], name[dot:]
    return folder, name, name, ""


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
