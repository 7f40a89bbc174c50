"""Parsing and normalising version specs, package naming, and the set questions the rules ask."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from entrykit.config import from_table
from entrykit.errors import ConfigError
from entrykit.versions.package_names import (
    DateScheme,
    OrderedScheme,
    canonical_name,
    default_naming,
)
from entrykit.versions.specifiers import normalize, parse, parse_version


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("torch>=2.0,<2.3", "torch>=2.0,<2.3"),
        ("CUDA 11.x+", "cuda>=11"),
        ("NCCL 2.10+", "nccl>=2.10"),
        ("torch 2.x", "torch==2.*"),
        ("torch 2.*", "torch==2.*"),
        ("Torch >= 2.0, < 2.3", "torch>=2.0,<2.3"),
        ("torch>=2.0 <3", "torch>=2.0,<3"),
        ("torch=>2.0", "torch>=2.0"),
        ("torch=2.0", "torch==2.0"),
        ("node>=v18", "node>=18"),
        ("torch>=2.0RC1", "torch>=2.0rc1"),
        ("torch<3.x", "torch<3"),
        ("torch!=2.x", "torch!=2.*"),
        ("torch>=2.x", "torch>=2"),
        ("ai-agent>=any", "ai-agent"),
        ("LLM API >=1.0", "llm-api>=1.0"),
        ("scikit_learn>=1.3", "scikit-learn>=1.3"),
        ("@types/node>=18", "@types/node>=18"),
        ("torch==2.0.1+cu118", "torch==2.0.1+cu118"),
        ("ros2>=Humble,<rolling", "ros2>=humble,<rolling"),
        ("ros2 jazzy", "ros2==jazzy"),
        (">=2.0", ">=2.0"),
        ("2.*", "==2.*"),
    ],
)
def test_informal_forms_have_a_canonical_form(text: str, canonical: str) -> None:
    parsed = parse(text)
    assert parsed.error is None
    assert parsed.canonical == canonical
    assert parsed.is_canonical == (text == canonical)
    assert not parsed.guessed


def test_a_bare_version_is_a_guess() -> None:
    parsed = parse("torch 2.0")
    assert parsed.canonical == "torch==2.0" and parsed.guessed
    assert not parse("ros2 humble").guessed  # a release name is one release


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("torch latest", "moves with every release"),
        ("http HTTP/1.1+", "not a package name"),
        ("torch^1.2", "not PEP 440"),
        ("torch~1.2", "not PEP 440"),
        ("torch===2.0", "arbitrary equality"),
        ("torch>=2.0,,<3", "empty clause"),
        ("torch 2.0 - 2.3", "not a PEP 440 version"),
        ("torch<=2.x", "no PEP 440 form"),
        ("torch<2.10+", "trailing `+`"),
        ("torch~=2", "not a valid PEP 440 clause"),
        ("openai-api>=2023-01,<2.0", "looks like a date"),
        (">=2023-01", "looks like a date"),
        ("ros2>=tomorrow", "release names"),
        ("ros2>=humble.*", "release names"),
        ("", "empty"),
    ],
)
def test_unparsable_text_says_why(text: str, why: str) -> None:
    parsed = parse(text)
    assert parsed.spec is None
    assert parsed.error is not None and why in parsed.error


def test_unsatisfiable_specs_are_parsed_and_marked() -> None:
    assert parse("torch>=2,<1").unsatisfiable
    assert parse("torch==1.0,!=1.0").unsatisfiable
    assert not parse("torch>=1,<2").unsatisfiable


def test_normalize_resolves_aliases_and_needs_a_package() -> None:
    assert normalize("PyTorch 2.x") == "torch==2.*"
    assert normalize("sklearn >= 1.3") == "scikit-learn>=1.3"
    assert normalize("torch>=2.0") == "torch>=2.0"
    assert normalize(">=2.0") is None
    assert normalize("torch latest") is None


def test_config_extends_the_naming() -> None:
    naming = default_naming().extended({"torch": ["pt"], "pytorch": []}, {"android": ["s", "tiramisu"]})
    assert normalize("pt>=2", naming) == "torch>=2"
    assert normalize("pytorch>=2", naming) == "pytorch>=2"  # declared canonical: no longer an alias
    assert normalize("Android >= Tiramisu", naming) == "android>=tiramisu"


def test_lifecycle_versions() -> None:
    assert parse_version("v2.1") == ("2.1", None)
    assert parse_version("2.0RC1") == ("2.0rc1", None)
    assert parse_version("soon")[0] is None
    assert parse_version("Humble", OrderedScheme(("foxy", "humble"))) == ("humble", None)
    assert parse_version("2024-1-5", DateScheme()) == ("2024-01-05", None)
    assert parse_version("2024-13", DateScheme())[0] is None


def test_canonical_names() -> None:
    assert canonical_name("  LLM  API ") == "llm-api"
    assert canonical_name("Scikit__Learn") == "scikit-learn"
    assert canonical_name("next.js") == "next.js"  # dots are kept: they are not PEP 503 names


# The questions ET404 and ET406 ask, answered by packaging's set operations.
def test_packaging_answers_our_set_questions() -> None:
    def spec(text: str):  # noqa: ANN202
        parsed = parse(text)
        assert parsed.spec is not None
        return parsed.spec

    wide, narrow = spec("torch>=1.12"), spec("torch>=2.0")
    assert narrow.specifier_set.is_subset(wide.specifier_set)
    assert not wide.specifier_set.is_subset(narrow.specifier_set)
    series, bounded = spec("torch==2.*"), spec("torch>=2.0,<3")
    assert bounded.specifier_set.is_subset(series.specifier_set)
    assert spec("torch<2.0").specifier_set.is_disjoint(spec("torch>=2.0").specifier_set)
    a, b = spec("torch>=2.0,<2.3"), spec("torch>=2.2")
    assert b.describe(a.range & b.range) == ">=2.2,<2.3"
    assert spec("torch==2.0").specifier_set.is_subset(spec("torch==2.0.0").specifier_set)
    assert spec("torch>=2.0,<2.3").contains("2.2.1") and not spec("torch>=2.0,<2.3").contains("2.3")
    assert spec("torch>=1.12").contains("2.0rc1")  # lifecycle versions may be pre-releases
    ros_a, ros_b = spec("ros2>=humble,<rolling"), spec("ros2>=jazzy")
    assert ros_b.describe(ros_a.range & ros_b.range) == ">=jazzy,<rolling"
    dated = default_naming().extended(vocabularies={"openai-api": "date"})
    d1, d2 = parse("openai-api>=2023-01", dated).spec, parse("openai-api<2023-06-15", dated).spec
    assert d1 is not None and d2 is not None
    assert d1.describe(d1.range & d2.range) == ">=2023-01,<2023-06-15"
    assert d1.contains("2023-01-15") and not d1.contains("2022-12-31")


def test_a_spec_wholly_in_dates_reads_as_dates_without_a_vocabulary() -> None:
    for text in ("aws-iam>=2023-01", "stripe-api>=2023-10-16", "openai-api 2023-01+"):
        parsed = parse(text)
        assert parsed.spec is not None and parsed.spec.scheme.name == "date", text
    spec = parse("stripe-api>=2023-01,<2024-06-15").spec
    assert spec is not None and spec.contains("2023-10-16") and not spec.contains("2024-07-01")
    assert parse("openai-api>=2023").spec.scheme.name == "pep440"  # a bare year is a release number


def test_default_data_is_consistent() -> None:
    naming = default_naming()
    for alias, target in naming.aliases.items():
        assert target not in naming.aliases, f"{alias} -> {target} is itself an alias"
        assert canonical_name(alias) == alias and canonical_name(target) == target
    assert naming.resolve("pytorch") == "torch" and naming.resolve("tf") == "tensorflow"
    assert naming.resolve("sklearn") == "scikit-learn"
    assert isinstance(naming.scheme("ros2"), OrderedScheme)


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ({"aliases": {"torch": "pytorch"}}, "versions.aliases.torch"),
        ({"aliases": {"torch": ["pytorch"], "tensorflow": ["pytorch"]}}, "alias of both"),
        ({"aliases": {"torch": ["Torch"]}}, "lists the package itself"),
        ({"vocabularies": {"android": "dates"}}, "versions.vocabularies.android"),
        ({"vocabularies": {"android": []}}, "versions.vocabularies.android"),
        ({"vocabularies": {"android": ["s", "S"]}}, "names `s` twice"),
        ({"vocabularies": {"android": ["1.0"]}}, "not a release name"),
        ({"aliases": []}, "versions.aliases"),
        ({"colours": {}}, "versions.colours"),
    ],
)
def test_bad_versions_settings_are_config_errors(tmp_path: Path, table: dict, key: str) -> None:
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        from_table({"versions": table}, tmp_path)


_NAMES = st.sampled_from(["torch", "cuda", "nccl", "scikit-learn", "node", "@types/node", "ros2", "llm-api"])
_RELEASES = st.lists(st.integers(0, 30), min_size=1, max_size=3).map(lambda p: ".".join(map(str, p)))
_CLAUSES = st.tuples(st.sampled_from([">=", "<", "<=", ">", "==", "!="]), _RELEASES).map("".join)


@given(_NAMES.filter(lambda n: n != "ros2"), st.lists(_CLAUSES, max_size=3))
def test_canonical_text_parses_to_itself(name: str, clauses: list[str]) -> None:
    text = name + ",".join(clauses)
    parsed = parse(text)
    assert parsed.error is None
    assert parsed.canonical == text and parsed.is_canonical


@given(st.text(max_size=40))
@example("0_")  # (a package `0`, whose canonical form `0` would read as a version)
def test_parse_never_raises_and_normalize_is_idempotent(text: str) -> None:
    parsed = parse(text)
    assert (parsed.spec is None) == (parsed.error is not None)
    once = normalize(text)
    if once is not None:
        assert normalize(once) == once
        assert parse(once).is_canonical


@given(
    _NAMES.filter(lambda n: n != "ros2"),
    st.lists(_CLAUSES, min_size=1, max_size=3),
    st.sampled_from([" ", ", ", " , "]),
    st.booleans(),
)
def test_spacing_and_case_do_not_change_the_canonical_form(
    name: str, clauses: list[str], separator: str, upper: bool
) -> None:
    canonical = name + ",".join(clauses)
    informal = (name.upper() if upper else name) + " " + separator.join(clauses)
    assert parse(informal).canonical == canonical


def test_scaffolded_rows_are_stored_canonically() -> None:
    from entrykit.versions.rows import normalize_version_row

    assert normalize_version_row("CUDA 11.x+") == "cuda>=11"
    assert normalize_version_row("pytorch 2.x") == "torch==2.*"
    assert normalize_version_row("Python >= 3.11") == "python>=3.11"
    assert normalize_version_row("torch>=2,<1") == "torch>=2,<1"  # unsatisfiable: left for ET401
