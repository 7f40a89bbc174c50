"""One wire format for both worker processes, and workers that load it without the package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from entrykit.regex import framing
from entrykit.regex import worker as protocol


def test_frames_come_whole_however_the_bytes_arrive() -> None:
    read_end, write_end = os.pipe()
    try:
        reader = framing.FrameReader(read_end)
        data = b"".join(framing.frame(p) for p in (b"one", b"", b"three" * 1000, b"four"))
        os.write(write_end, data[:2])
        assert reader.frames(5, 0.01) is None  # half a header: nothing complete yet
        os.write(write_end, data[2:9])
        assert reader.frames(5, 1.0) == [b"one"]
        os.write(write_end, data[9:])
        assert reader.frames(2, 1.0) == [b"", b"three" * 1000]  # never more than wanted
        assert reader.frames(2, 1.0) == [b"four"]
    finally:
        os.close(write_end)
    assert reader.frames(1, 1.0) is None  # the writer is gone
    os.close(read_end)


def test_a_frame_written_by_a_worker_is_read_back() -> None:
    read_end, write_end = os.pipe()
    framing.write_all(write_end, framing.frame(b"x" * 50_000))  # within a pipe buffer
    os.close(write_end)
    assert framing.read_frame(read_end) == b"x" * 50_000
    assert framing.read_frame(read_end) is None
    os.close(read_end)


@pytest.mark.parametrize("script", ["worker.py", "js_worker.py"])
def test_a_worker_loads_the_framing_beside_it_not_one_from_the_current_directory(
    script: str, tmp_path: Path
) -> None:
    """A worker runs as `python -I [-S] file` in whatever directory entrykit runs in (a
    checkout under review): a `framing.py` there must not be what it loads."""
    if script == "js_worker.py":
        pytest.importorskip("quickjs")
    marker = tmp_path / "imported"
    (tmp_path / "framing.py").write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    folder = Path(protocol.__file__).resolve().parent
    flags = ["-I", "-S"] if script == "worker.py" else ["-I"]
    proc = subprocess.Popen(
        [sys.executable, *flags, str(folder / script)],
        cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    try:
        reader = framing.FrameReader(proc.stdout.fileno())
        assert reader.frames(1, 30.0) == [framing.READY]
    finally:
        out, err = proc.communicate(b"", timeout=30)  # end of input: the worker exits
    assert proc.returncode == 0, err
    assert not marker.exists()
