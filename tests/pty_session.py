"""Drive a command through a real pseudo-terminal (stdlib `pty`): expect output, type lines."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import time
from collections.abc import Sequence


class PtySession:
    """A child process whose stdin, stdout and stderr are the slave side of a new pty.

    The child leads its own session with the pty as controlling terminal, so a typed
    Ctrl-C (`\\x03`) raises SIGINT in it and Ctrl-D (`\\x04`) is end-of-file, as at a
    real terminal.
    """

    def __init__(self, argv: Sequence[str], cwd: str, env: dict[str, str], timeout: float = 30) -> None:
        self.timeout = timeout
        self.output = ""
        self._seen = 0
        pid, fd = pty.fork()
        if pid == 0:  # the child: become the command, whatever happens
            try:
                # A shell that started us in the background may ignore SIGINT, and an
                # ignored signal stays ignored across exec: restore what a terminal gives.
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                os.chdir(cwd)
                os.execve(argv[0], list(argv), env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.status: int | None = None

    def _read(self, wait: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not chunk:
            return False
        self.output += chunk.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return True

    def expect(self, pattern: str) -> re.Match[str]:
        """Wait until `pattern` (a regex) appears after the previous match."""
        deadline = time.monotonic() + self.timeout
        compiled = re.compile(pattern)
        while True:
            found = compiled.search(self.output, self._seen)
            if found:
                self._seen = found.end()
                return found
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {pattern!r} within {self.timeout}s; output:\n{self.output[-2000:]}")
            if not self._read(0.2) and not compiled.search(self.output, self._seen):
                raise EOFError(f"the command ended without {pattern!r}; output:\n{self.output[-2000:]}")

    def send(self, data: str) -> None:
        os.write(self.fd, data.encode("utf-8"))

    def interrupt(self, key: str) -> None:
        """Type a control key (`\x03`, `\x04`) once the child waits at a prompt.

        Like a person, who presses Ctrl-C while the program waits: a SIGINT that lands
        between printing a prompt and blocking in read() is only seen after the read
        returns (CPython's input() works that way), so wait for the read first.
        """
        self.wait_until_reading()
        self.send(key)

    def wait_until_reading(self) -> None:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{self.pid}/syscall", encoding="ascii") as stream:
                    fields = stream.read().split()
            except OSError:  # no /proc: give the child a moment instead
                time.sleep(0.5)
                return
            # read(0, ...): syscall 0 on x86-64, 63 on arm64
            if len(fields) > 1 and fields[0] in ("0", "63") and fields[1] == "0x0":
                return
            time.sleep(0.02)

    def sendline(self, line: str = "") -> None:
        self.send(line + "\r")  # what the Enter key sends; the tty turns it into "\n"

    def poll(self) -> int | None:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status

    def wait(self) -> int:
        """Read everything the child still writes, then its exit status."""
        deadline = time.monotonic() + self.timeout
        open_ = True
        while time.monotonic() < deadline:
            if open_:
                open_ = self._read(0.2)
            else:
                time.sleep(0.05)
            if self.poll() is not None:
                while open_ and self._read(0.05):
                    pass
                break
        if self.poll() is None:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            raise TimeoutError(f"the command did not finish:\n{self.output[-2000:]}")
        os.close(self.fd)
        assert self.status is not None
        return self.status
