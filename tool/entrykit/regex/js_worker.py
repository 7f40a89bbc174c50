"""The ECMAScript worker process: compile and run regexes in QuickJS for ET207.

Started by `entrykit.regex.portability` as a plain script. QuickJS's regex engine cannot be
interrupted from inside the process, so it runs here, where the parent can kill it
when a regex backtracks past the budget. Requests and answers are length-prefixed JSON.
"""

from __future__ import annotations

import json
import os
import struct
import sys

HEADER = struct.Struct(">I")

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


def _read_exact(fd: int, size: int) -> bytes | None:
    chunks = []
    while size:
        chunk = os.read(fd, size)
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def main() -> None:
    import quickjs

    context = quickjs.Context()
    context.eval(CHECK)
    check = context.get("entrykitCheck")
    fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
    _write(fd_out, b"R")
    while True:
        header = _read_exact(fd_in, HEADER.size)
        if header is None:
            return
        payload = _read_exact(fd_in, HEADER.unpack(header)[0])
        if payload is None:
            return
        pattern, letters, mode, texts = json.loads(payload)
        try:
            answer = check(pattern, letters, mode, context.parse_json(json.dumps(texts)))
        except Exception as exc:  # quickjs.JSException: out of memory, stack overflow, ...
            answer = json.dumps({"error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__})
        data = answer.encode("utf-8")
        _write(fd_out, HEADER.pack(len(data)) + data)


if __name__ == "__main__":
    main()
