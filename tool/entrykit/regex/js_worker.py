"""The ECMAScript worker process: compile and run regexes in QuickJS for ET207.

Started by `entrykit.regex.portability` as a plain script (`python -I this_file`; with
`site`, where the quickjs package lives). QuickJS's regex engine cannot be interrupted
from inside the process, so it runs here, where it can be stopped when a regex
backtracks past the budget. Each request carries its budget in seconds of this
process's CPU time: an `ITIMER_PROF` timer, whose signal's default action ends the
process, runs while QuickJS does, so other processes loading the machine slow a check
down but do not use up its budget (as in the regex worker). Requests and answers are
JSON in frames (`framing.py`, loaded by its path as `worker.py` explains).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from types import ModuleType


def _beside(name: str) -> ModuleType:
    """The module `name`.py of this file's folder, loaded by path (the package is not importable)."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"_entrykit_worker_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

CHECK = """
function entrykitCheck(src, flags, mode, texts) {
  var re;
  try {
    if (mode === "fullmatch") { re = new RegExp("^(?:" + src + ")$", flags); }
    else if (mode === "match") { re = new RegExp(src, flags + "y"); }
    else { re = new RegExp(src, flags); }
  } catch (e) { return JSON.stringify({error: String(e.message)}); }
  return JSON.stringify({results: texts.map(function (t) { re.lastIndex = 0; return re.test(t); })});
}
"""


def main() -> None:
    import quickjs

    framing = _beside("framing")

    context = quickjs.Context()
    context.eval(CHECK)
    check = context.get("entrykitCheck")
    fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
    framing.write_all(fd_out, framing.frame(framing.READY))
    while True:
        payload = framing.read_frame(fd_in)
        if payload is None:
            return
        pattern, letters, mode, texts, cpu_budget = json.loads(payload)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)  # (the default: the process ends)
        signal.setitimer(signal.ITIMER_PROF, max(float(cpu_budget), 0.001))
        try:
            answer = check(pattern, letters, mode, context.parse_json(json.dumps(texts)))
        except Exception as exc:  # quickjs.JSException: out of memory, stack overflow, ...
            answer = json.dumps({"error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__})
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        framing.write_all(fd_out, framing.frame(answer.encode("utf-8")))


if __name__ == "__main__":
    main()
