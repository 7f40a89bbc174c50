"""The resolution file: every open choice of a merge written out, edited by a person, read back.

YAML, the language the entries themselves are written in: several-line values stay
readable as `|` blocks, the file can carry comments that explain it, and entrykit reads
and writes YAML with the libraries it already has (Python reads TOML but cannot write it).

    merge:
      into: pytorch/cuda-out-of-memory
      absorbed: [cuda/torch-cuda-oom-new]
    choices:
      - at: /root_cause
        kind: value
        about: which `root_cause` the merged entry states
        options:
          pytorch/cuda-out-of-memory: GPU memory exhausted ...
          cuda/torch-cuda-oom-new: New PyTorch 2.x OOM error type. ...
        choose: cuda/torch-cuda-oom-new    # or leave null and write `value:` instead

`choose` names one of `options` (an input's id, a list name for a role conflict, `both`
where offered); `value` replaces it with what you write. A choice left null stays open.
Reading refuses a file written for other entries or for entries that changed since.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from entrykit.authoring.formatter import styled
from entrykit.authoring.merge_model import Conflict, MergeResult
from entrykit.errors import UsageError
from entrykit.parsing import parse_yaml
from entrykit.roundtrip import make_yaml

HEADER = """\
# entrykit merge: the choices of merging {absorbed} into `{survivor}`.
# Settle each choice: set `choose:` to one of its `options`, or delete `choose:` and
# write the value you want under `value:` (a `|` block keeps several lines). A choice
# left `null` stays open. Then run:
#   entrykit merge {arguments} --resolve <this file>
"""


def _styled(value: Any) -> Any:
    if isinstance(value, str):
        return styled(value)
    if isinstance(value, Mapping):
        node = CommentedMap()
        for key, item in value.items():
            node[key] = _styled(item)
        return node
    if isinstance(value, list):
        return CommentedSeq(_styled(item) for item in value)
    return value


def resolutions_text(result: MergeResult) -> str:
    """Every conflict of the merge, with its options in full and the choice made so far."""
    report = result.report
    choices = CommentedSeq()
    for conflict in report.conflicts:
        resolution = report.resolutions.get(conflict.pointer)
        entry = CommentedMap()
        entry["at"] = conflict.pointer
        entry["kind"] = conflict.kind
        if conflict.about:
            entry["about"] = styled(conflict.about)
        options = CommentedMap()
        for option in conflict.options:
            options[option.source] = _styled(option.value)
        entry["options"] = options
        if resolution is not None and resolution.choice == "edit":
            entry["value"] = _styled(resolution.value)
        else:
            entry["choose"] = resolution.choice if resolution is not None else None
        choices.append(entry)
    document = CommentedMap()
    document["merge"] = CommentedMap([("into", report.survivor), ("absorbed", CommentedSeq(report.absorbed))])
    document["choices"] = choices
    stream = io.StringIO()
    stream.write(
        HEADER.format(
            absorbed=", ".join(f"`{a}`" for a in report.absorbed),
            survivor=report.survivor,
            arguments=" ".join([report.survivor, *report.absorbed]),
        )
    )
    make_yaml(2, 4, 2).dump(document, stream)
    return stream.getvalue()


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, ensure_ascii=False) == json.dumps(b, sort_keys=True, ensure_ascii=False)


def read_resolutions(text: str, where: str, result: MergeResult) -> dict[str, Any]:
    """The choices a resolution file makes, checked against the conflicts of this merge
    (`result`, computed without choices): pointer -> ("choose", option, how) or ("edit", value, how)."""
    parsed = parse_yaml(text)
    if parsed.problem is not None:
        problem = parsed.problem
        raise UsageError(f"{where}:{problem.line}:{problem.col}: not a resolution file: {problem.message}")
    data = parsed.data
    if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
        raise UsageError(f"{where}: not a resolution file (it needs `merge:` and a `choices:` list)")
    header: dict[str, Any] = data["merge"] if isinstance(data.get("merge"), dict) else {}
    report = result.report
    if header.get("into") != report.survivor or list(header.get("absorbed") or []) != list(report.absorbed):
        raise UsageError(
            f"{where} was written for merging {header.get('absorbed')} into `{header.get('into')}`, "
            f"not {report.absorbed} into `{report.survivor}`"
        )
    conflicts: dict[str, Conflict] = {c.pointer: c for c in report.conflicts}
    choices: dict[str, Any] = {}
    for number, item in enumerate(data["choices"], 1):
        if not isinstance(item, dict) or not isinstance(item.get("at"), str):
            raise UsageError(f"{where}: choice {number} has no `at:` pointer")
        pointer = item["at"]
        conflict = conflicts.get(pointer)
        if conflict is None:
            raise UsageError(f"{where}: {pointer} is no open choice of this merge; the entries changed since the file was written")
        written = item.get("options")
        current = {o.source: o.value for o in conflict.options}
        if not isinstance(written, dict) or set(written) != set(current) or not all(_same(written[k], current[k]) for k in current):
            raise UsageError(f"{where}: the options of {pointer} changed since the file was written; write it again (--write-resolutions)")
        if "value" in item and item.get("choose") is not None:
            raise UsageError(f"{where}: {pointer} has both `choose:` and `value:`; keep one")
        if "value" in item:
            choices[pointer] = ("edit", item["value"], "resolution file")
        elif item.get("choose") is not None:
            choice = item["choose"]
            if choice not in current:
                raise UsageError(f"{where}: {pointer}: `{choice}` is not one of {', '.join(f'`{k}`' for k in current)}")
            choices[pointer] = ("choose", choice, "resolution file")
    return choices
