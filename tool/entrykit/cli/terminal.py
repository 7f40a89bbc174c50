"""What the command line does at a terminal: colour when it is wanted, progress on stderr.

Colour follows the conventions other tools share: `NO_COLOR` (set and not empty) turns
it off, then `FORCE_COLOR` (set and not empty) turns it on, as Python's own tracebacks
decide; otherwise there is colour only when the stream is a terminal and `TERM` is not
`dumb`. Progress appears only when standard error is a terminal, and only once a run
has taken a second: short runs and piped runs print nothing but their output.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import TextIO

import click

SHOW_AFTER = 1.0  # seconds: a run shorter than this shows no progress
_REDRAW = 0.1  # seconds between two drawings of the same bar


def color_enabled(stream: TextIO) -> bool:
    """Whether output to `stream` gets colour (see the module docstring)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


class Progress:
    """A one-line progress bar on a terminal: `progress(stage, done, total)` as work is done.

    Callable as the progress callback the library takes. A stage is drawn once the run
    has taken `SHOW_AFTER` seconds and while it still has work left (a stage that is
    already done when first reported is not drawn at all: no bar leaps from 0 to 100 %).
    The line is cleared when the run ends, so only the command's output stays.
    """

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self.start = time.monotonic()
        self.shown = False
        self._last_draw = 0.0
        self._last: tuple[str, int, int] | None = None

    @classmethod
    def on_stderr(cls, quiet: bool = False) -> Progress:
        """Progress on standard error, when it is a terminal and output is not quiet."""
        stream = sys.stderr
        try:
            tty = stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        return cls(stream, tty and not quiet and os.environ.get("TERM") != "dumb")

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        now = time.monotonic()
        if now - self.start < SHOW_AFTER:
            return
        changed = self._last is None or self._last[0] != stage
        if changed and done >= total:
            return  # a stage done when first told of: nothing to watch (the last bar stays)
        if not changed and done < total and now - self._last_draw < _REDRAW:
            return
        self._last, self._last_draw = (stage, done, total), now
        self._draw(stage, min(done, total), total)

    def _draw(self, stage: str, done: int, total: int) -> None:
        width = shutil.get_terminal_size((80, 24)).columns
        counts = f" {done}/{total}"
        label = f"{stage:<15} "
        room = max(10, min(40, width - len(label) - len(counts) - 4))
        filled = room * done // total
        bar = "#" * filled + "-" * (room - filled)
        self.stream.write(f"\r{label}[{bar}]{counts}\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Clear the bar's line (if one was drawn)."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def style(text: str, enabled: bool, **styles: object) -> str:
    """`click.style(text, **styles)` when colour is on, else `text` as it is."""
    return click.style(text, **styles) if enabled else text  # type: ignore[arg-type]
