"""Does a Python regex compile and mean the same in RE2 (google-re2) and ECMAScript (QuickJS)?

Three checks, in order: the real engine compiles the regex with the lookup's flags;
Python constructs that compile elsewhere but mean something else are named (Unicode
`\\d \\w \\s \\b`, `$` and `\\Z` at a trailing newline, `\\A` and `\\Z` that JavaScript
reads as the letters A and Z); and the real engine, run on the entry's own texts,
agrees with Python on every one.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from entrykit.regex import framing, syntax
from entrykit.regex.budget import TooComplex
from entrykit.regex.runner import kill_worker

ENGINE_NAMES = {"re2": "RE2", "ecmascript": "ECMAScript"}
_JS_WORKER = Path(__file__).resolve().with_name("js_worker.py")
_INLINE = {re.IGNORECASE: "i", re.MULTILINE: "m", re.DOTALL: "s"}
class EngineMissing(Exception):
    """The package that provides an engine is not installed."""


class _JsWorker:
    """The QuickJS worker process (`js_worker.py`): one request at a time, killed when
    a regex backtracks past its time limit (QuickJS cannot stop a regex in-process)."""

    def __init__(self) -> None:
        try:
            import quickjs  # noqa: F401  (only to say it is missing here, not in the worker)
        except ImportError as exc:  # pragma: no cover - a test dependency
            raise EngineMissing("ECMAScript checks need the `quickjs` package") from exc
        self.proc = subprocess.Popen(
            [sys.executable, "-I", str(_JS_WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        self.reader = framing.FrameReader(self.proc.stdout.fileno())
        if self.reader.frames(1, 30.0) != [framing.READY]:
            self.kill()
            raise EngineMissing("the ECMAScript worker process did not start")

    def ask(self, request: list[Any], timeout: float) -> dict[str, Any] | None:
        """The worker's answer, or None if it ran past its CPU budget (the request's last item:
        it then ends itself) or gave no answer within `timeout` seconds on the wall clock (a
        watchdog: it is then killed)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(framing.frame(json.dumps(request).encode("utf-8")))
        answer = self.reader.frames(1, timeout)
        if answer is None:
            self.kill()
            return None
        decoded: dict[str, Any] = json.loads(answer[0])
        return decoded

    def kill(self) -> None:
        kill_worker(self.proc)


_JS_WORKERS: dict[tuple[int, int], _JsWorker] = {}


def _js_worker() -> _JsWorker:
    key = (os.getpid(), threading.get_ident())
    worker = _JS_WORKERS.get(key)
    if worker is None or worker.proc.poll() is not None:
        worker = _JS_WORKERS[key] = _JsWorker()
    return worker


@atexit.register
def _close_js_workers() -> None:
    for (pid, _), worker in list(_JS_WORKERS.items()):
        if pid == os.getpid():
            worker.kill()


def _constructs(parsed: syntax.Parsed) -> set[str]:
    """The constructs of `parsed` whose meaning differs between engines, spelled as in Python."""
    out: set[str] = set()
    for node, flags in syntax.walk(parsed.nodes, parsed.flags):
        if isinstance(node, syntax.Anchor):
            if node.kind == "$" and not flags & re.MULTILINE:
                out.add("$")
            elif node.kind in ("\\Z", "\\A"):
                out.add(node.kind)
            elif node.kind in ("\\b", "\\B") and not flags & re.ASCII:
                out.add("\\b")
        elif isinstance(node, syntax.CharClass) and not flags & re.ASCII:
            for item in node.items:
                if isinstance(item, syntax.Category):
                    out.add(item.escape.lower())
    return out


_DIFFERS = {
    "re2": {
        "$": "`$` also matches before a final newline in Python, not in RE2 (use `\\z` or strip the text)",
        "\\Z": "`\\Z` is not supported by RE2 (RE2 spells it `\\z`)",
        "\\d": "`\\d` matches any Unicode digit in Python but only 0-9 in RE2 (use `[0-9]` or the ASCII flag)",
        "\\w": "`\\w` matches any Unicode letter in Python but only ASCII in RE2 (use the ASCII flag)",
        "\\s": "`\\s` matches Unicode spaces in Python but only ASCII ones in RE2",
        "\\b": "`\\b` uses Unicode word characters in Python but ASCII ones in RE2",
    },
    "ecmascript": {
        "$": "`$` also matches before a final newline in Python, not in ECMAScript",
        "\\Z": "`\\Z` is the letter `Z` in ECMAScript",
        "\\A": "`\\A` is the letter `A` in ECMAScript (use `^`)",
        "\\d": "`\\d` matches any Unicode digit in Python but only 0-9 in ECMAScript (use `[0-9]` or the ASCII flag)",
        "\\w": "`\\w` matches any Unicode letter in Python but only ASCII in ECMAScript (use the ASCII flag)",
        "\\b": "`\\b` uses Unicode word characters in Python but ASCII ones in ECMAScript",
    },
}


def _differences(pattern: str, flags: int, engine: str) -> list[str]:
    found = _constructs(syntax.parse(pattern, flags))
    table = _DIFFERS[engine]
    return [table[key] for key in ("\\A", "\\Z", "$", "\\d", "\\w", "\\s", "\\b") if key in found and key in table]


def _run_re2(pattern: str, flags: int, mode: str, texts: Sequence[str]) -> list[bool] | str:
    try:
        import re2
    except ImportError as exc:  # pragma: no cover - a test dependency
        raise EngineMissing("RE2 checks need the `google-re2` package") from exc
    inline = "".join(letter for flag, letter in _INLINE.items() if flags & flag)
    source = f"(?{inline}){pattern}" if inline else pattern
    options = re2.Options()
    options.log_errors = False  # the error is our message; RE2 would also print it to stderr
    try:
        compiled = re2.compile(source, options)
    except Exception as exc:  # re2.error, whose message comes as bytes
        reason = exc.args[0] if exc.args else type(exc).__name__
        return reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
    run = {"search": compiled.search, "match": compiled.match, "fullmatch": compiled.fullmatch}[mode]
    return [run(text) is not None for text in texts]


def _run_js(pattern: str, flags: int, mode: str, texts: Sequence[str], budget: float) -> list[bool] | str | None:
    """QuickJS's verdict on each text, or why the regex does not compile, or None if the
    engine ran past `budget` seconds of its CPU time (in its own process, which is then
    replaced). The wall clock only watches for a worker that fails to stop itself."""
    letters = "".join(letter for flag, letter in _INLINE.items() if flags & flag)
    answer = _js_worker().ask([pattern, letters, mode, list(texts), budget], 2.0 + 4 * budget)
    if answer is None:
        return None
    if "error" in answer:
        return str(answer["error"])
    return [bool(value) for value in answer["results"]]


def check_portable(
    pattern: str,
    flags: int,
    mode: str,
    engine: str,
    known: Sequence[tuple[str, bool]],
    budget: float = 0.1,
) -> str | None:
    """Why `pattern` is not portable to `engine` (one sentence), or None.

    `known` pairs texts with whether Python's `re` matches them (under the lookup's
    flags and mode); the engine must agree on each. ECMAScript runs in a worker
    process that gets `budget` seconds of its CPU time per text, and one more budget.
    """
    name = ENGINE_NAMES[engine]
    if flags & re.VERBOSE:
        return f"regex relies on the VERBOSE flag, which {name} does not have"
    texts = [text for text, _ in known]
    answer: list[bool] | str | None
    if engine == "re2":
        answer = _run_re2(pattern, flags, mode, texts)
    else:
        answer = _run_js(pattern, flags, mode, texts, budget * (len(texts) + 1))
        if answer is None:
            return f"regex ran past the time budget in {name} on the entry's own texts"
    if isinstance(answer, str):
        return f"regex does not compile in {name}: `{answer}`"
    try:
        differences = _differences(pattern, flags, engine)
    except (re.error, RecursionError, TooComplex):  # ET201's business, and ET210's
        differences = []
    if differences:
        return f"regex means something else in {name}: {differences[0]}"
    for (text, expected), got in zip(known, answer, strict=True):
        if got != expected:
            what = "matches" if got else "does not match"
            return f"regex {what} `{text[:60]}` in {name}, unlike in Python"
    return None
