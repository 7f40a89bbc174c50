"""`entrykit import --from deadends`: the field mapping, ids, unmapped fields, the real sample."""

from __future__ import annotations

import copy
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from entrykit.authoring.formatter import dump_entry
from entrykit.authoring.importers.deadends import convert, entry_id_for, import_canons
from entrykit.cli import ExitCode, cli
from entrykit.config import from_table
from entrykit.lint.engine import lint
from entrykit.paths import is_valid_id
from entrykit.schema import validator

from .conftest import TODAY

pytestmark = pytest.mark.slow

CANON: dict[str, Any] = {
    "schema_version": "1.0.0",
    "id": "python/modulenotfounderror/py311-linux",
    "url": "https://deadends.dev/python/modulenotfounderror/py311-linux",
    "error": {
        "signature": "ModuleNotFoundError: No module named 'x'",
        "regex": "No module named '[^']+'",
        "domain": "python",
        "category": "import-error",
        "first_seen": "2023-01-01",
        "last_confirmed": "2026-02-11",
    },
    "environment": {
        "runtime": {"name": "Python", "version_range": ">=3.11,<3.13"},
        "os": "linux",
        "python": ">=3.11,<3.13",
        "hardware": {"gpu": "none"},
    },
    "verdict": {
        "resolvable": "true",
        "fix_success_rate": 0.9,
        "confidence": 0.8,
        "last_updated": "2026-02-11",
        "summary": "The package is not installed in the interpreter that runs the code.",
    },
    "dead_ends": [{"action": "Reinstall Python", "why_fails": "Same interpreter.", "fail_rate": 0.9, "mood": "sad"}],
    "workarounds": [
        {"action": "pip install x with the same interpreter", "success_rate": 0.9, "how": "python -m pip install x"}
    ],
    "transition_graph": {
        "leads_to": [{"error_id": "python/importerror/py311-linux", "probability": 0.3}],
        "preceded_by": [],
        "frequently_confused_with": [],
    },
    "metadata": {
        "generated_by": "expert_review",
        "review_status": "human_reviewed",
        "evidence_count": 4,
        "generation_date": "2026-02-11",
        "last_verification": "2026-02-11",
    },
}


def _convert(canon: dict[str, Any]) -> Any:
    return convert(canon, Path("x.json"))


def test_field_mapping() -> None:
    imported = _convert(CANON)
    entry = imported.entry
    assert entry["id"] == "python/modulenotfounderror_py311-linux"
    assert entry["aliases"] == ["python/modulenotfounderror/py311-linux"]
    assert entry["signature"] == CANON["error"]["signature"] and entry["regex"] == CANON["error"]["regex"]
    assert entry["root_cause"] == CANON["verdict"]["summary"]
    assert entry["category"] == "import_error" and imported.notes == [
        "category `import-error` written as `import_error`"
    ]
    assert entry["versions"] == [{"version": "python>=3.11,<3.13", "status": "active"}]  # python row not repeated
    assert entry["verification_tier"] == "expert_reviewed"
    assert entry["evidence_count"] == 4 and entry["resolvable"] == "true"
    assert (entry["first_seen"], entry["last_confirmed"], entry["last_updated"]) == (
        "2023-01-01",
        "2026-02-11",
        "2026-02-11",
    )
    assert entry["tags"] == ["env:py311-linux", "os:linux"]
    assert entry["transition_graph"]["leads_to"] == [{"error_id": "python/importerror_py311-linux", "probability": 0.3}]
    assert entry["dead_ends"] == [{"action": "Reinstall Python", "why_fails": "Same interpreter.", "fail_rate": 0.9}]
    assert entry["workarounds"][0]["how"] == "python -m pip install x"
    assert list(validator().iter_errors(entry)) == []


def test_nothing_is_dropped_silently() -> None:
    imported = _convert(CANON)
    assert imported.unmapped == [
        "url",
        "environment.hardware.gpu",
        "metadata.generation_date",
        "metadata.last_verification",
        "dead_ends[0].mood",
    ]


def test_other_runtime_keeps_the_python_row() -> None:
    canon = copy.deepcopy(CANON)
    canon["environment"]["runtime"] = {"name": "PyTorch", "version_range": ">=2.0"}
    canon["environment"]["python"] = ">=3.9"
    canon["metadata"]["generated_by"] = "bulk_generate.py"
    entry = _convert(canon).entry
    assert [r["version"] for r in entry["versions"]] == ["pytorch>=2.0", "python>=3.9"]
    assert entry["verification_tier"] == "human_reviewed"


def test_one_id_mapping_for_entries_and_references() -> None:
    # upstream's own format: exact and readable back (slugs hold no `_`)
    assert entry_id_for("node/heap-oom/node20-linux") == "node/heap-oom_node20-linux"
    assert entry_id_for("node/heap-oom/node18-linux") == "node/heap-oom_node18-linux"
    assert entry_id_for("git/detached-head/git2.40-linux") == "git/detached-head_git2.40-linux"
    # anything else is cleaned, and a digest of the id as written keeps cleaned ids apart
    odd = ["Odd Domain/Some Slug!/Env 1", "odd domain/some slug/env 1", "a/b", "a/b_c/d", "a/b/c_d", "a//b/c", "x"]
    mapped = [entry_id_for(i) for i in odd]
    assert all(is_valid_id(i) for i in mapped) and len(set(mapped)) == len(mapped)
    assert mapped[0].startswith("odd-domain/some-slug_env-1-") and mapped[2].startswith("a/b-")
    assert entry_id_for("a/b/c_d") == "a/b_c_d" != entry_id_for("a/b_c/d")  # `_` is no upstream slug letter
    assert [entry_id_for(i) for i in odd] == mapped  # a function of the id alone


def test_a_second_file_with_the_same_id_is_a_problem(tmp_path: Path) -> None:
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(CANON), encoding="utf-8")
    imported, problems = import_canons([tmp_path])
    assert [i.source.name for i in imported] == ["a.json"]
    message = (
        "id `python/modulenotfounderror/py311-linux` makes entry id `python/modulenotfounderror_py311-linux`, "
        f"as {tmp_path / 'a.json'} does; not imported"
    )
    assert [(p.source.name, p.message) for p in problems] == [("b.json", message)]


def test_real_sample_imports_without_a_schema_error(deadends_dir: Path) -> None:
    imported, problems = import_canons([deadends_dir])
    assert problems == [] and len(imported) == 1739
    ids = [item.entry["id"] for item in imported]
    assert len(set(ids)) == len(ids) and all(is_valid_id(i) for i in ids)
    check = validator()
    invalid = [(item.entry["id"], e.message) for item in imported for e in check.iter_errors(item.entry)]
    assert invalid == []
    # a slug several environments share keeps each environment apart
    heap = sorted(i for i in ids if i.startswith("node/heap-out-of-memory"))
    assert heap == ["node/heap-out-of-memory_node18-linux", "node/heap-out-of-memory_node20-linux"]
    assert all(item.entry["aliases"] == [item.upstream_id] for item in imported)
    counts = Counter(f for item in imported for f in item.unmapped)
    assert counts["url"] == 1739


def test_cli_writes_lintable_formatted_entries(
    deadends_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    sources = [str(deadends_dir / "python"), str(deadends_dir / "node" / "heap-out-of-memory")]
    runner = CliRunner()
    result = runner.invoke(cli, ["import", "--from", "deadends", *sources, "--out", "corpus"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN, result.output
    assert "fields not carried over (number of files):" in result.output and "url" in result.output
    written = sorted((tmp_path / "corpus").rglob("*.yaml"))
    assert len(written) == len(list((deadends_dir / "python").rglob("*.json"))) + 2
    assert written[0].read_text(encoding="utf-8").startswith("id: ")  # no schema line outside a project
    found = lint(None, from_table({"root": "corpus"}, tmp_path), TODAY, cwd=tmp_path)
    assert not [d for d in found.diagnostics if d.code in ("ET001", "ET101", "ET503", "ET505")]
    assert runner.invoke(cli, ["fmt", "--check", "corpus"]).exit_code == ExitCode.CLEAN
    again = runner.invoke(cli, ["import", "--from", "deadends", sources[1], "--out", "corpus"])
    assert again.exit_code == ExitCode.FINDINGS and "not overwritten (use --force)" in again.output
    forced = runner.invoke(cli, ["import", "--from", "deadends", sources[1], "--out", "corpus", "--force"])
    assert forced.exit_code == ExitCode.CLEAN


def test_bad_file_is_a_positioned_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.json").write_text('{"id": "a/b/c",\n  "error": }', encoding="utf-8")
    (tmp_path / "good.json").write_text(json.dumps(CANON), encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", "--from", "deadends", ".", "--out", "corpus"])
    assert result.exit_code == ExitCode.FINDINGS
    assert "bad.json:2:12: invalid JSON" in result.output and "Traceback" not in result.output
    assert (tmp_path / "corpus" / "python" / "modulenotfounderror_py311-linux.yaml").is_file()


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_importing_in_parts_writes_what_one_import_writes(
    deadends_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """node's canons: several environments share slugs, and references cross them."""
    monkeypatch.chdir(tmp_path)
    files = [str(p) for p in sorted((deadends_dir / "node").rglob("*.json"))]
    runner = CliRunner()
    whole = runner.invoke(cli, ["import", "--from", "deadends", "--out", "whole", *files])
    assert whole.exit_code == ExitCode.CLEAN, whole.output
    for part in (files[0::2], files[1::2]):
        done = runner.invoke(cli, ["import", "--from", "deadends", "--out", "parts", *part])
        assert done.exit_code == ExitCode.CLEAN, done.output
    assert _tree(tmp_path / "parts") == _tree(tmp_path / "whole") != {}


def test_no_reference_is_bent_to_another_entry(deadends_dir: Path) -> None:
    """Every reference names the entry upstream named (found by its alias), never the entry
    itself nor a sibling environment's entry."""
    imported, _ = import_canons([deadends_dir])
    upstream_of = {item.entry["id"]: item.entry["aliases"][0] for item in imported}
    checked = 0
    for item in imported:
        canon = json.loads(item.source.read_text(encoding="utf-8"))
        for name in ("leads_to", "preceded_by", "frequently_confused_with"):
            written = item.entry.get("transition_graph", {}).get(name, [])
            named = canon["transition_graph"].get(name) or []
            assert len(written) == len(named)
            for ref, raw in zip(written, named, strict=True):
                target = ref if isinstance(ref, str) else ref["error_id"]
                upstream = raw if isinstance(raw, str) else raw["error_id"]
                assert target != item.entry["id"]
                assert upstream_of.get(target, upstream) == upstream, (item.upstream_id, upstream, target)
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e999", "-1e400"])
def test_a_number_no_double_holds_is_a_positioned_problem(tmp_path: Path, number: str) -> None:
    """Written back it would be `.inf`/`.nan` (YAML) or `Infinity`/`NaN` (JSON): ET005."""
    (tmp_path / "one.json").write_text(
        '{"id": "t/some-error/linux", "error": {"signature": "Some error"},\n'
        f' "verdict": {{"summary": "Because.", "confidence": {number}}}}}',
        encoding="utf-8",
    )
    imported, problems = import_canons([tmp_path])
    assert imported == []
    message = f"`{number}` is not a finite number, which an entry cannot hold (ET005); not imported"
    assert [(p.line, p.col, p.message) for p in problems] == [(2, 51, message)]


@pytest.mark.parametrize("out_format", ["yaml", "json"])
def test_import_writes_no_nonfinite_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out_format: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "one.json").write_text(
        '{"schema_version":"1.0.0","id":"t/some-error/linux",\n'
        ' "error":{"signature":"Some error","regex":"Some error","domain":"t"},\n'
        ' "verdict":{"summary":"Because.","confidence":Infinity,"fix_success_rate":NaN},\n'
        ' "metadata":{"evidence_count":1e999}}',
        encoding="utf-8",
    )
    (tmp_path / "c" / "good.json").write_text(json.dumps(CANON), encoding="utf-8")
    args = ["import", "--from", "deadends", "--no-settings", "--format", out_format, "--out", "out", "c"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == ExitCode.FINDINGS, result.output
    assert "one.json:3:47: `Infinity` is not a finite number" in result.output
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert [p.name for p in written] == [f"modulenotfounderror_py311-linux.{out_format}"]


@pytest.mark.parametrize(
    ("text", "place", "said"),
    [
        (
            '{"id":"py/dup/linux",\n "error":{"signature":"FIRST","signature":"SECOND"}}',
            (2, 31),
            "key `signature` appears more than once in the object at `/error` (ET003)",
        ),
        (
            '{"id":"py/dup/linux","error":{"signature":"x"},\n "verdict":{"summary":"a"},"verdict":{"summary":"b"}}',
            (2, 28),
            "key `verdict` appears more than once in the top-level object (ET003)",
        ),
    ],
)
def test_a_canon_with_a_key_twice_is_a_positioned_problem(
    tmp_path: Path, text: str, place: tuple[int, int], said: str
) -> None:
    """The parser keeps the later value: the earlier one would be lost without a word."""
    (tmp_path / "x.json").write_text(text, encoding="utf-8")
    imported, problems = import_canons([tmp_path])
    assert imported == []
    assert [(p.line, p.col, p.message) for p in problems] == [(*place, f"{said}; not imported")]


def test_import_skips_a_canon_with_a_key_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "x.json").write_text(
        '{"id":"py/dup/linux","error":{"signature":"FIRST","signature":"SECOND"}}', encoding="utf-8"
    )
    (tmp_path / "c" / "good.json").write_text(json.dumps(CANON), encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", "--from", "deadends", "--no-settings", "--out", "out", "c"])
    assert result.exit_code == ExitCode.FINDINGS, result.output
    assert "x.json:1:51: key `signature` appears more than once" in result.output
    assert [p.name for p in (tmp_path / "out").rglob("*") if p.is_file()] == ["modulenotfounderror_py311-linux.yaml"]


def _with(path: str, value: Any) -> dict[str, Any]:
    canon = copy.deepcopy(CANON)
    *parents, last = path.split(".")
    node = canon
    for key in parents:
        node = node[key]
    node[last] = value
    return canon


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("transition_graph.leads_to", 5),  # was a TypeError: iterated
        ("transition_graph.leads_to", "python/x/y"),  # was read as one reference per character
        ("transition_graph.preceded_by", {"error_id": "python/x/y"}),
        ("transition_graph", ["python/x/y"]),
        ("dead_ends", {"action": "Reinstall"}),  # listed by its fields: `dead_ends.action`
        ("workarounds", "pip install x"),
        ("environment.runtime.version_range", 5),  # the row was a bare `python`, silently
        ("environment.python", 3.11),
        ("environment.os", ["linux"]),
        ("metadata.review_status", 5),
        ("metadata.generated_by", ["expert_review"]),
        ("schema_version", 2),
    ],
)
def test_a_value_of_a_type_the_import_cannot_read_is_listed_not_carried_over(path: str, value: Any) -> None:
    imported = _convert(_with(path, value))
    listed = f"{path}.action" if path == "dead_ends" else path
    assert listed in imported.unmapped
    assert list(validator().iter_errors(imported.entry)) == []


@pytest.mark.parametrize(
    ("generated_by", "status", "tier"),
    [
        ("manual", "human_reviewed", "human_reviewed"),
        ("bulk_generate.py", "auto_generated", "auto_generated"),
        ("expert_review", "auto_generated", "auto_generated"),  # 14 real canons: the tier does not say it
    ],
)
def test_a_generator_the_tier_does_not_say_is_listed_not_carried_over(
    generated_by: str, status: str, tier: str
) -> None:
    canon = _with("metadata.review_status", status)
    canon["metadata"]["generated_by"] = generated_by
    imported = _convert(canon)
    assert imported.entry["verification_tier"] == tier
    assert "metadata.generated_by" in imported.unmapped


def test_an_expert_review_the_tier_says_is_carried_over() -> None:
    imported = _convert(CANON)
    assert imported.entry["verification_tier"] == "expert_reviewed"
    assert "metadata.generated_by" not in imported.unmapped


def test_a_key_with_a_dot_is_not_taken_for_the_nested_field_it_spells() -> None:
    canon = {
        "id": "py/d/linux",
        "error": {"signature": "kept"},
        "error.signature": "LOST",
        "metadata": {"evidence_count": 1},
        "metadata.evidence_count": 99,
    }
    imported = _convert(canon)
    assert (imported.entry["signature"], imported.entry["evidence_count"]) == ("kept", 1)
    assert imported.unmapped == ['"error.signature"', '"metadata.evidence_count"']


def test_a_runtime_range_that_is_no_string_gives_the_bare_name_and_says_so() -> None:
    imported = _convert(_with("environment.runtime.version_range", 5))
    assert imported.entry["versions"][0] == {"version": "python", "status": "active"}
    assert "environment.runtime.version_range" in imported.unmapped


def _paths(node: Any, prefix: str = "") -> list[str]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, f"{prefix}.{key}" if prefix else key)
    return found


def test_every_field_of_any_json_type_converts_and_writes() -> None:
    values: list[Any] = [5, 2.5, "x", "", [1], [], {"a": 1}, {}, True, None, [{"error_id": 5}], [["a/b/c"]]]
    for path in _paths(CANON):
        if path in ("id", "error"):  # checked before a canon is converted
            continue
        for value in values:
            entry = _convert(_with(path, value)).entry
            for fmt in ("yaml", "json"):
                assert dump_entry(entry, fmt, None)


def test_import_lists_a_reference_list_of_another_type(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    canon = {"id": "t/some-error/linux", "error": {"signature": "Some error"}, "transition_graph": {"leads_to": 5}}
    (tmp_path / "one.json").write_text(json.dumps(canon), encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["import", "--from", "deadends", "--no-settings", "--out", "out", "-v", "one.json"]
    )
    assert result.exit_code == ExitCode.CLEAN, result.output
    assert "not carried over: transition_graph.leads_to" in result.output
    assert (tmp_path / "out" / "t" / "some-error_linux.yaml").is_file()


def test_a_canon_whose_id_makes_too_long_a_file_name_is_skipped_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An id the id checks pass but no file system can name (a slug of 300 letters) is one
    problem; the other canons are still written."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "canons").mkdir()
    (tmp_path / "canons" / "long.json").write_text(json.dumps({**CANON, "id": f"python/{'a' * 300}/py311-linux"}), encoding="utf-8")
    (tmp_path / "canons" / "good.json").write_text(json.dumps(CANON), encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", "--from", "deadends", "canons", "--out", "corpus"])
    assert result.exit_code == ExitCode.FINDINGS, result.output
    assert "file systems allow 255" in result.output
    assert [p.name for p in (tmp_path / "corpus" / "python").iterdir()] == ["modulenotfounderror_py311-linux.yaml"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_link_in_the_canons_folder_that_leads_out_of_it_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "canons").mkdir()
    (tmp_path / "secret.json").write_text(json.dumps(CANON), encoding="utf-8")
    (tmp_path / "canons" / "innocent.json").symlink_to(tmp_path / "secret.json")
    imported, problems = import_canons([tmp_path / "canons"])
    assert imported == [] and ["outside" in p.message for p in problems] == [True]
