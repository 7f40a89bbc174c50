"""benchmarks/growth.py: the inputs it grows, how it flags a case, and one real sweep at a tiny size."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import growth  # noqa: E402

SMALL, FACTOR = 240, 4
ALL = growth.cases(list(growth.FAMILIES), SMALL, FACTOR)


def _size(built: growth.Built) -> int:
    return len(built.text) if built.text is not None else len(json.dumps(built.config))


def test_every_family_has_cases_and_every_case_a_name_of_its_own() -> None:
    assert {case.family for case in ALL} == set(growth.FAMILIES)
    names = [(case.family, case.name) for case in ALL]
    assert len(names) == len(set(names))


def _grows_about_as_its_size(case: growth.Case) -> bool:
    empty = _size(case.build(0))
    grown_small, grown_large = _size(case.build(case.small)) - empty, _size(case.build(case.large)) - empty
    # linear in the size: about FACTOR times as large (a quadratic input would make a
    # linear lint look quadratic)
    return case.large == case.small * FACTOR and 0 < grown_small < grown_large <= FACTOR * 1.25 * grown_small + 16


def test_every_case_grows_its_input_about_as_much_as_its_size() -> None:
    assert [case.name for case in ALL if not _grows_about_as_its_size(case)] == []


def _holds_the_unit(case: growth.Case) -> bool:
    built = case.build(case.small)
    data = yaml.safe_load(built.text or "")
    for path in case.fields:
        here = data
        for part in path.split("."):
            here = here[int(part)] if part.isdigit() else here[part]
        if here != growth.repeated(case.unit, case.small):
            return False
    return bool(case.fields and case.unit)


def test_a_field_case_holds_the_repeated_unit_where_it_says() -> None:
    field_cases = [case for case in ALL if case.family in ("fields", "regex")]
    assert len(field_cases) == len(growth.TEXT_FIELDS) * len(growth.TEXT_UNITS) + 2 * len(growth.REGEX_UNITS)
    assert [case.name for case in field_cases if not _holds_the_unit(case)] == []


def _yaml_or_json(built: growth.Built) -> bool:
    if built.text is None:
        return False
    documents = list(yaml.safe_load_all(built.text))
    if not documents or not isinstance(documents[0], dict):
        return False
    return built.name.suffix != ".json" or isinstance(json.loads(built.text), dict)


def test_every_grown_entry_is_yaml_or_json() -> None:
    others = [case for case in ALL if case.family in ("lists", "shapes", "styles")]
    assert others and [case.name for case in others if not _yaml_or_json(case.build(case.small))] == []


def test_repeated_is_the_unit_cut_to_the_size() -> None:
    assert growth.repeated("ab", 5) == "ababa"
    assert growth.repeated("中", 3) == "中中中"
    assert growth.repeated("abc", 0) == ""


def test_linear_times_are_not_flagged_and_quadratic_ones_are() -> None:
    base = 0.5
    assert not growth.flagged(base, base + 0.2, base + 0.8, 4)  # linear
    assert growth.flagged(base, base + 0.2, base + 3.2, 4)  # quadratic
    assert not growth.flagged(base, base + 0.001, base + 0.2, 4)  # too little to tell
    assert growth.flagged(base, base + 2.0, base + growth.FLAGGED_SECONDS, 4)  # too long at all
    assert growth.growth(base, base + 0.2, base + 0.8) == pytest.approx(4.0)


def test_a_sweep_flags_the_case_whose_cost_grows_with_the_square() -> None:
    def linear(n: int) -> growth.Built:
        return growth.Built("a" * n)

    def square(n: int) -> growth.Built:
        return growth.Built("b" * n)

    def refused(n: int) -> growth.Built:
        return growth.Built("c" * n)

    def lint(built: growth.Built) -> growth.Timed:
        # a stand-in for the lint whose cost is known: 1 ms per character of "a", the
        # square of the "b"s in microseconds, and an exception for any "c"
        text = built.text or ""
        if text.startswith("c"):
            raise ValueError("refused")
        seconds = 0.1 + text.count("a") * 1e-3 + text.count("b") ** 2 * 1e-6
        return growth.Timed(seconds, len(text))

    chosen = [
        growth.Case("t", "linear", linear, 1000, 4000),
        growth.Case("t", "square", square, 1000, 4000),
        growth.Case("t", "refused", refused, 10, 40),
    ]
    lines: list[str] = []
    found = growth.sweep(chosen, lint, 4, lines.append)
    assert found == ["square", "refused"]
    by_name = {line.split("\t")[2]: line for line in lines if "\t" in line}
    assert by_name["square"].startswith("FLAG\t") and "growth 16.0" in by_name["square"]
    assert by_name["linear"].startswith("\t") and "growth 4.0" in by_name["linear"]
    assert by_name["refused"].startswith("ERROR\t") and "ValueError: refused" in by_name["refused"]
    assert lines[-1] == "# 3 cases, 2 flagged"


def test_a_real_sweep_lints_the_grown_entry_and_leaves_the_copy_as_it_was(tmp_path: Path) -> None:
    chosen = [c for c in growth.cases(["fields", "config"], 24, 2) if c.name in ("signature 'a '", "glossary terms")]
    assert len(chosen) == 2
    lint = growth.InProcessLint(tmp_path)
    unchanged = lint(growth.Built(None))
    grown = lint(chosen[0].build(24))
    # the grown entry is linted beside the bundled ones: it repeats their id, at least
    assert grown.found > unchanged.found
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    lines: list[str] = []
    growth.sweep(chosen, lint, 2, lines.append)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert [line.split("\t")[2] for line in lines if "\t" in line] == ["signature 'a '", "glossary terms"]


def test_a_case_is_linted_with_the_largest_file_limit_and_its_own_configuration(tmp_path: Path) -> None:
    lint = growth.InProcessLint(tmp_path)
    plain = lint.config(growth.Built("x: 1\n"))
    assert plain.max_file_bytes == growth.MAX_LIMITS["max_file_bytes"] > 2 * 1024 * 1024
    assert plain.root == lint.root
    configured = lint.config(growth.Built(None, config={"max_file_bytes": 1000, "ignore": ["ET20"]}))
    assert configured.max_file_bytes == 1000 and configured.ignore


def test_the_format_command_formats_the_grown_entry_and_counts_a_refusal(tmp_path: Path) -> None:
    fmt = growth.InProcessFormat(tmp_path)
    assert fmt(growth.Built(None)).found == 0
    shapes = {case.name: case for case in growth.cases(["shapes"], 48, 2)}
    assert fmt(shapes["comment lines"].build(48)).found == 0
    assert fmt(shapes["many documents"].build(48)).found == 1  # one document per entry file
    assert list(tmp_path.rglob("*.yaml")) == []


def test_the_format_command_leaves_configuration_cases_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert growth.main(["--command", "fmt", "--families", "config", "--work", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "# 0 cases, 0 flagged"


@pytest.mark.parametrize("command", sorted(growth.CLI_COMMANDS))
def test_each_other_command_runs_on_the_grown_entry(tmp_path: Path, command: str) -> None:
    run = growth.InProcessCommand(tmp_path, growth.CLI_COMMANDS[command])
    unchanged = run(growth.Built(None))
    grown = run(next(c for c in growth.cases(["fields"], 48, 2) if c.name == "signature 'a '").build(48))
    as_json = run(next(c for c in growth.cases(["styles"], 48, 2) if c.name == "signature 'a ' json").build(48))
    # dupes reports the grown entry beside the one it copies, new's lint of its entry finds that
    # its regex matches the bundled entry's signature (exit status 1), and no comment can be
    # added to a JSON entry; the others succeed
    expected = {"dupes": (1, 1, 1), "new": (1, 1, 1), "lint-add-suppressions": (0, 0, 1)}.get(command, (0, 0, 0))
    assert (unchanged.found, grown.found, as_json.found) == expected
    # the grown entry, and what the steps wrote (import's page and entries), are removed after each run
    assert sorted(p.relative_to(run.root).as_posix() for p in run.root.rglob("*")) == [
        "entries", *sorted(f"entries/{p.relative_to(growth.REPO / 'entries').as_posix()}" for p in (growth.REPO / "entries").rglob("*")),
        "entrykit.toml",
    ]  # fmt: skip
    for bundled in (growth.REPO / "entries").rglob("*.yaml"):  # (and the bundled entries are as they were)
        assert (run.root / "entries" / bundled.relative_to(growth.REPO / "entries")).read_bytes() == bundled.read_bytes()


def test_a_canon_of_the_entry_imports_back_to_its_fields() -> None:
    from entrykit.authoring.importers.deadends import convert

    data = growth.base_entry()
    imported = convert(json.loads(growth.as_canon(growth.dump(data))), Path("canon.json")).entry
    for field in growth.canon_places():
        if field in data:
            assert imported[field] == data[field], field
    assert imported["dead_ends"] == data["dead_ends"] and imported["workarounds"] == data["workarounds"]
    assert growth.as_canon("- not\n- a mapping\n") == "- not\n- a mapping\n"


def test_a_command_that_ends_in_a_traceback_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from entrykit.authoring import render

    run = growth.InProcessCommand(tmp_path, growth.CLI_COMMANDS["render"])

    def broken(data: object, shown: object) -> str:
        raise KeyError("a bug")

    monkeypatch.setattr(render, "render_entry", broken)
    with pytest.raises(RuntimeError, match="^traceback: KeyError: 'a bug'$"):
        run.measure(growth.Built(None))


def test_a_sweep_writes_and_removes_only_a_folder_of_its_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "entries").mkdir()
    (tmp_path / "entries" / "mine.yaml").write_text("id: a/b\n", encoding="utf-8")
    for command in ("lint", "fmt", "render"):
        growth.main(["--command", command, "--families", "shapes", "--only", "blank lines", "--size", "8", "--work", str(tmp_path)])
        assert "blank lines" in capsys.readouterr().out
        assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == ["entries", "entries/mine.yaml"]


_LEFT_BY_A_RUN: list[str] = []


def test_each_run_is_measured_in_a_child_that_leaves_the_process_as_it_was() -> None:
    def measure() -> growth.Timed:
        _LEFT_BY_A_RUN.append("memo")  # (what a run's memos would keep)
        return growth.Timed(1.5, len(_LEFT_BY_A_RUN))

    assert growth.in_child(measure) == growth.Timed(1.5, 1)
    assert growth.in_child(measure) == growth.Timed(1.5, 1)  # the second run finds nothing of the first
    assert _LEFT_BY_A_RUN == []

    def refused() -> growth.Timed:
        raise ValueError("refused at 3:1")

    with pytest.raises(RuntimeError, match=r"^ValueError: refused at 3:1$"):
        growth.in_child(refused)


def test_a_real_lint_leaves_no_memo_of_its_case_in_the_process(tmp_path: Path) -> None:
    from entrykit.regex import syntax

    def parsed_here(pattern: str) -> bool:
        return any(key[0] == pattern for key in syntax._MEMO.items)

    lint = growth.InProcessLint(tmp_path)
    grown = next(c for c in growth.cases(["regex"], 400, 2) if c.name.startswith("regex '(a)'")).build(400)
    assert grown.text is not None
    pattern = yaml.safe_load(grown.text)["regex"]
    assert lint(grown).found > 0 and not parsed_here(pattern)
    lint.measure(grown)  # (the same lint in this process keeps its parse)
    assert parsed_here(pattern)
