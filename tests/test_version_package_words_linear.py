"""A version spec's package words are read in linear time: the package name before each word
is built a word at a time (it was joined and made canonical anew for every word, so a long
spec of words that are no version took minutes). Same split as before; a 100 KB spec lints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit.versions import package_names, specifiers
from entrykit.versions.package_names import PEP440, Naming, canonical_name

from .conftest import lint_corpus
from .hostile import entry_text

_NAMING = package_names.default_naming().extended(
    aliases={"Py Torch": ["torch_lib", "pt - lib"]},
    vocabularies={"ubuntu__release": ["focal", "jammy", "noble"], "node-dated": "date"},
)
_WORDS = st.lists(
    st.sampled_from(
        ["py", "torch", "Py", "Torch", "pt", "-", "lib", "_", "--", "ubuntu", "release", "node", "dated", "jammy",
         "2024-01", "1.2", "v3", "x", "é", "\t", " ", "  ", "_-_"]
    ),
    max_size=12,
).map(" ".join)


def _split_as_before(text: str, naming: Naming) -> tuple[str, str]:
    """`specifiers._split` as it was: the name before each word joined and made canonical anew."""
    found = specifiers._OPERATOR_START.search(text)
    if found:
        return text[: found.start()], text[found.start() :]
    words = text.split()
    for index, word in enumerate(words):
        name = canonical_name(" ".join(words[:index]))
        if specifiers._looks_like_version(word, naming.scheme(name) if name else PEP440):
            return " ".join(words[:index]), " ".join(words[index:])
    return text, ""


@settings(max_examples=1500, deadline=None)
@given(_WORDS, st.sampled_from([_NAMING, package_names.default_naming(), Naming()]))
@example("pt - lib jammy", _NAMING)
@example("ubuntu _ release noble", _NAMING)
@example("_-_ node -- dated 2024-01", _NAMING)
def test_the_split_is_as_before(text: str, naming: Naming) -> None:
    assert specifiers._split(text, naming) == _split_as_before(text, naming)


def test_a_name_longer_than_every_known_name_has_the_pep440_scheme() -> None:
    longest = _NAMING.longest_name
    assert longest == max(len(name) for name in [*_NAMING.aliases, *_NAMING.schemes])
    assert _NAMING.scheme("ubuntu-release") is not PEP440
    assert _NAMING.scheme("x" * (longest + 1)) is PEP440 and Naming().longest_name == 0


def test_each_word_is_made_canonical_once(monkeypatch: Any) -> None:
    read: list[int] = []

    def counted(name: str) -> str:
        read.append(len(name))
        return canonical_name(name)

    monkeypatch.setattr(specifiers, "canonical_name", counted)
    spec = "a " * 2_000  # each word joined with every word before it: about 4M characters read
    assert specifiers._parse(spec, Naming()).spec is not None
    assert sum(read) <= 2 * len(spec)


def test_a_long_spec_of_words_goes_through_lint(tmp_path: Path) -> None:
    spec = "a " * 10_000
    result = lint_corpus(tmp_path, {"pip/x.yaml": entry_text("pip/x", versions=[{"version": spec, "status": "active"}])})
    assert [e.id for e in result.entries] == ["pip/x"]
    parsed = specifiers.parse(spec)
    assert parsed.spec is not None and parsed.spec.package == "-".join(["a"] * 10_000) and not parsed.spec.clauses
