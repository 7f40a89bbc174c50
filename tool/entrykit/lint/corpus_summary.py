"""What corpus rules read of an entry: a few of its fields (its summary), kept with its file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from entrykit.entry import Entry

# Every field a corpus rule (ET206, ET209, ET501, ET502, ET504) or the corpus index reads.
FIELDS = (
    "id",
    "aliases",
    "signature",
    "examples",
    "counterexamples",
    "regex",
    "domain",
    "workarounds",
    "transition_graph",
)
GRAPH_LISTS = ("leads_to", "preceded_by", "frequently_confused_with")

# Fields corpus rules read only through a fact made from them (the workarounds' actions:
# ET502's `dupes` fact). A summary holds them while its facts are made and its digest is
# taken, and leaves them out after (`without_fact_fields`): a large corpus keeps a summary
# of every entry through the corpus phase, and the facts hold what is read of them.
READ_THROUGH_FACTS = ("workarounds",)


# Fields whose empty list a corpus rule reads as it reads no field (`Entry.list_field`).
EMPTY_AS_ABSENT = ("aliases", "examples", "counterexamples")


def summarize(data: dict[str, Any]) -> dict[str, Any]:
    """The fields corpus rules read; of workarounds only their actions, of the graph its
    lists that hold something. An empty list (and a graph of nothing but empty lists) is
    left out: every reader takes a missing one for empty, and a large corpus keeps a
    summary of every entry through the corpus phase."""
    out = {key: data[key] for key in FIELDS if key in data and not (key in EMPTY_AS_ABSENT and data[key] == [])}
    workarounds = out.get("workarounds")
    if isinstance(workarounds, list):
        out["workarounds"] = [
            {"action": w["action"]} if isinstance(w, dict) and "action" in w else None for w in workarounds
        ]
    graph = out.get("transition_graph")
    if isinstance(graph, dict):
        lists = {k: graph[k] for k in GRAPH_LISTS if k in graph and graph[k] != []}
        if lists or not graph.keys() <= set(GRAPH_LISTS):
            out["transition_graph"] = lists
        else:
            del out["transition_graph"]
    return out


def without_fact_fields(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary without the fields corpus rules read only through facts (`READ_THROUGH_FACTS`)."""
    for key in READ_THROUGH_FACTS:
        summary.pop(key, None)
    return summary


def shared(value: Any, pool: dict[Any, Any]) -> Any:
    """`value` rebuilt with each string, and each tuple of nothing but strings, None and
    such tuples, replaced by the pool's one copy of an equal one. A summary that comes
    from a worker process is made of copies of its own (the same keys, domains, regex
    fragments as every other entry's); the corpus phase holds every summary at once.
    Only values whose equals are indistinguishable are shared (not `1` and `True`), and
    no list or dict is (nor a value of a subclass): nothing a summary's reader sees changes."""
    kind = type(value)  # exactly these types: a subclass is kept as it is
    if kind is str:
        return pool.setdefault(value, value)
    # (the texts of a dict or list, most of what it holds, are shared here without a call,
    # and a dict's tuples, a fact's value most often, with one)
    if kind is dict:
        return {
            (pool.setdefault(k, k) if type(k) is str else shared(k, pool)): (
                pool.setdefault(v, v) if type(v) is str
                else _shared_tuple(v, pool)[0] if type(v) is tuple
                else shared(v, pool)
            )
            for k, v in value.items()
        }
    if kind is list:
        return [pool.setdefault(v, v) if type(v) is str else shared(v, pool) for v in value]
    if kind is tuple:
        return _shared_tuple(value, pool)[0]
    return value


def _shared_tuple(value: tuple[Any, ...], pool: dict[Any, Any]) -> tuple[tuple[Any, ...], bool]:
    """`shared` of a tuple, and whether the pool holds it (it holds nothing but texts, None
    and such tuples)."""
    items: list[Any] = []
    poolable = True
    for item in value:
        kind = type(item)
        if kind is str:
            items.append(pool.setdefault(item, item))
        elif kind is tuple:
            rebuilt, held = _shared_tuple(item, pool)
            items.append(rebuilt)
            poolable = poolable and held
        elif item is None:
            items.append(item)
        else:  # (a number or bytes, most often: kept as it is without a call)
            items.append(shared(item, pool) if kind is dict or kind is list else item)
            poolable = False
    whole = tuple(items)
    if poolable:
        return pool.setdefault(whole, whole), True
    return whole, False


def summary_entry(
    path: str, abspath: Path, fmt: str, data: dict[str, Any], facts: dict[str, Any], text: str = ""
) -> Entry:
    """An `Entry` holding a summary: what corpus rules are given (see `Entry`)."""
    return Entry(path=path, abspath=abspath, fmt=fmt, data=data, text=text, facts=facts)
