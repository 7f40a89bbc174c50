"""ET209's summary names the most telling entries a regex also matches: those whose regex
matches back first, then those of other domains, then the rest, each group by id."""

from __future__ import annotations

from pathlib import Path

from .conftest import lint_corpus


def _entry(entry_id: str, signature: str, regex: str) -> str:
    return f'id: {entry_id}\nsignature: "{signature}"\nregex: \'{regex}\'\n'


def test_summary_names_mutual_then_other_domains_then_own_domain(tmp_path: Path) -> None:
    files = {
        "net/broad.yaml": _entry("net/broad", "connection refused by peer", "connection refused"),
        # same domain, matched one way only
        "net/b.yaml": _entry("net/b", "connection refused on port 2", "port 2"),
        "net/a.yaml": _entry("net/a", "connection refused on port 1", "port 1"),
        # other domains, matched one way only
        "redis/z.yaml": _entry("redis/z", "connection refused while saving", "while saving"),
        "db/y.yaml": _entry("db/y", "connection refused at startup", "at startup"),
        # same domain and matching back: the pair a lookup cannot tell apart
        "net/mutual.yaml": _entry("net/mutual", "connection refused by peer again", "refused by peer"),
    }
    result = lint_corpus(tmp_path, files, {"select": ["ET209"], "rules": {"ET209": {"max_pairs": 4}}})
    summary = [d for d in result.diagnostics if d.path.endswith("net/broad.yaml")]
    assert len(summary) == 1
    assert "of 5 other entries, such as `net/mutual`, `db/y`, `redis/z`, `net/a`" in summary[0].message
    assert [place.path.rsplit("/", 2)[-2:] for place in summary[0].related] == [
        ["net", "mutual.yaml"],
        ["db", "y.yaml"],
        ["redis", "z.yaml"],
        ["net", "a.yaml"],
    ]
