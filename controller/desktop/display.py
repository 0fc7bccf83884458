"""A private X display: an Xvfb server with an Xauthority cookie of its own, made the current
``DISPLAY`` while it runs and stopped by its pid when it exits."""

from __future__ import annotations

import os
import socket
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from types import TracebackType

from controller.desktop.processes import find_binary, start_alone, stop_process, this_run
from controller.desktop.windows import uses_x11
from controller.errors import SandboxError

SCREEN_SIZE = (1280, 1024)
FAMILY_LOCAL = 256
"""Xauthority's address family for connections on this host (Unix sockets)."""


class VirtualDisplay:
    """An Xvfb server on a free display number, made the current ``DISPLAY`` while it runs.

    The environment (``DISPLAY``, ``XAUTHORITY``) is set for this process and so for every child
    it starts, and restored at exit. The Xauthority file holds a fresh cookie for the display:
    only our own processes can connect, and python-xlib (used by pyautogui) finds an entry
    instead of warning about an empty file.
    """

    def __init__(self, first_number: int = 90, size: tuple[int, int] = SCREEN_SIZE) -> None:
        self.first_number = first_number
        self.size = size
        self.number: int | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._xauthority: Path | None = None
        self._saved_env: dict[str, str | None] = {}

    @property
    def name(self) -> str:
        """The display string, for example ``":90"``."""
        if self.number is None:
            raise SandboxError("the virtual display is not running")
        return f":{self.number}"

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def __enter__(self) -> VirtualDisplay:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        """Start Xvfb on the first free display from ``first_number`` and wait until it answers."""
        if not uses_x11():
            raise SandboxError(
                f"a game is started on a virtual display (Xvfb) only on Linux, not on "
                f"{sys.platform}: open the game and leave out --game"
            )
        xvfb = find_binary("Xvfb")
        if xvfb is None:
            raise SandboxError("Xvfb is not installed (apt-get install xvfb)")
        handle, name = tempfile.mkstemp(prefix="autosweeper-xauth-")
        os.close(handle)
        self._xauthority = Path(name)
        this_run().remember_file(self._xauthority)
        try:
            for number in range(self.first_number, self.first_number + 100):
                if (
                    Path(f"/tmp/.X{number}-lock").exists()
                    or Path(f"/tmp/.X11-unix/X{number}").exists()
                ):
                    continue
                if self._try_start(xvfb, number):
                    break
            else:
                raise SandboxError(f"no free X display number from :{self.first_number} upward")
        except BaseException:
            self.stop()
            raise
        for key, value in (("DISPLAY", self.name), ("XAUTHORITY", str(self._xauthority))):
            self._saved_env[key] = os.environ.get(key)
            os.environ[key] = value

    def _try_start(self, xvfb: str, number: int) -> bool:
        """Start Xvfb on ``number``; False if another server took it first."""
        assert self._xauthority is not None
        self._xauthority.write_bytes(xauth_entry(socket.gethostname(), number, os.urandom(16)))
        width, height = self.size
        ready_read, ready_write = os.pipe()
        # -noreset: by default the server resets when its last client leaves, and a client
        # connecting meanwhile is refused ("Connection reset by peer").
        command = [
            xvfb, f":{number}", "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp",
            "-auth", str(self._xauthority), "-displayfd", str(ready_write), "-noreset",
        ]  # fmt: skip
        process = start_alone(command, pass_fds=(ready_write,))
        os.close(ready_write)
        try:
            # Xvfb writes the display number once it accepts connections; EOF means it exited.
            with os.fdopen(ready_read, "rb") as ready:
                answer = ready.readline().strip()
        except BaseException:
            stop_process(process)
            raise
        if answer == str(number).encode():
            self._process = process
            self.number = number
            return True
        stop_process(process)
        return False

    def stop(self) -> None:
        """Stop Xvfb by its pid, remove the Xauthority file and restore the environment."""
        if self._process is not None:
            stop_process(self._process)
            self._process = None
        for key, value in self._saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        self._saved_env.clear()
        if self._xauthority is not None:
            self._xauthority.unlink(missing_ok=True)
            this_run().forget_file(self._xauthority)
            self._xauthority = None
        self.number = None


def xauth_entry(host: str, number: int, cookie: bytes) -> bytes:
    """One Xauthority file entry (libXau's format): a MIT-MAGIC-COOKIE-1 for local display
    ``number`` on ``host``."""

    def counted(data: bytes) -> bytes:
        return struct.pack(">H", len(data)) + data

    fields = (host.encode(), str(number).encode(), b"MIT-MAGIC-COOKIE-1", cookie)
    return struct.pack(">H", FAMILY_LOCAL) + b"".join(counted(field) for field in fields)
