"""The installed product under the official Windows build of CPython, run by Wine from here.

The session fixture runs ``.ci/windows-python.sh``: once (then cached) it makes a 64-bit Wine
prefix holding the embeddable CPython 3.13 for x86-64, and each session it installs a wheel of
this checkout into it when the checkout changed. The tests run that installation's
``autosweeper.exe`` and ``python.exe``, never the source tree. They carry ``@pytest.mark.wine``
and are skipped only when Wine is not installed (on CI it is, so there they run).

This folder is a package (``__init__.py``) so that this conftest is not imported under the
name ``conftest``, which the tests beside ``tests/conftest.py`` import their helpers from.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

REPO = Path(__file__).resolve().parents[2]
SET_UP = REPO / ".ci" / "windows-python.sh"
WINE64 = Path("/usr/lib/wine/wine64")
"""The 64-bit loader: /usr/bin/wine picks the 32-bit one once wine32 is installed."""
WINESERVER = Path("/usr/lib/wine/wineserver64")
SET_UP_TIMEOUT = 1800.0
"""Seconds the set-up may take: a cold one downloads about 150 MB of wheels."""
LINUX_ONLY = ("PYTHONHOME", "PYTHONPATH", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE")
"""Variables holding Linux paths, left out of the Windows programs' environment (with every
``PIP_*`` and ``AUTOSWEEPER_*`` one): a Windows program would misread them."""
RUN_TIMEOUT = 120.0
"""Seconds one Windows command may take by default (``--help`` takes about 3)."""


def wine_home() -> Path:
    """Where the set-up keeps the prefix (the script's own default)."""
    override = os.environ.get("AUTOSWEEPER_WINE_HOME")
    return Path(override) if override else Path.home() / ".cache" / "autosweeper-wine"


def windows_path(path: Path) -> str:
    """A Linux path as Windows programs under Wine see it (drive Z: is the root)."""
    return "Z:" + str(path).replace("/", "\\")


@dataclass(frozen=True)
class WindowsRun:
    """A finished Windows command: exit status and output, line ends made Linux ones."""

    arguments: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    def describe(self) -> str:
        """The command and its output, for an assertion message."""
        return (
            f"{' '.join(self.arguments)} exited {self.returncode}\n"
            f"--- stdout ---\n{self.stdout}\n--- stderr ---\n{self.stderr}"
        )


@dataclass(frozen=True)
class WindowsPython:
    """The Windows CPython under Wine that the set-up script prepared."""

    home: Path

    @property
    def prefix(self) -> Path:
        return self.home / "prefix"

    @property
    def python(self) -> Path:
        return self.prefix / "drive_c" / "python313" / "python.exe"

    @property
    def autosweeper(self) -> Path:
        """The console script pip made from the wheel's entry point."""
        return self.python.parent / "Scripts" / "autosweeper.exe"

    def environment(self) -> dict[str, str]:
        """This process's environment with Wine pointed at the prefix: no debug output, no
        debugger on a crash (it would hang), no Mono or Gecko installer."""
        # Linux settings hold Linux paths the Windows side would misread: theirs are left out.
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PIP_", "AUTOSWEEPER_")) and key not in LINUX_ONLY
        }
        env.update(
            WINEPREFIX=str(self.prefix),
            WINEDEBUG="-all",
            WINEDLLOVERRIDES="winemenubuilder.exe=d;winedbg.exe=d;mscoree,mshtml=",
        )
        return env

    def run(self, program: Path | str, *arguments: str, timeout: float = RUN_TIMEOUT) -> WindowsRun:
        """Run a Windows program (or a Wine one, like ``reg``) and wait for it.

        stdout and stderr are pipes and stdin is /dev/null: Wine 8 gives Python an invalid
        handle for a regular file. On a timeout every process of the run is stopped by its pid.
        """
        process = self.spawn(program, *arguments)
        command = (str(WINE64), str(program), *arguments)
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stop_session(process.pid)
            out, err = process.communicate()
            run = WindowsRun(command, -1, text_of(out), text_of(err))
            pytest.fail(f"timed out after {timeout:.0f} s: {run.describe()}")
        return WindowsRun(command, process.returncode, text_of(out), text_of(err))

    def spawn(self, program: Path | str, *arguments: str) -> subprocess.Popen[bytes]:
        """Start a Windows program in a session of its own, its output read through pipes
        (stdin /dev/null): the caller waits for it."""
        return subprocess.Popen(
            (str(WINE64), str(program), *arguments),
            env=self.environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # Wine re-parents the Windows processes: found by session
        )

    def start(self, program: str, *arguments: str) -> subprocess.Popen[bytes]:
        """Start a Windows program in a session of its own, with no input or output."""
        return subprocess.Popen(
            (str(WINE64), program, *arguments),
            env=self.environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def linux_path(self, path: str) -> Path:
        """Where a Windows path of this prefix lies on the Linux side (Wine's winepath)."""
        result = self.run("winepath", "-u", path)
        assert result.returncode == 0, result.describe()
        return Path(result.stdout.strip()).resolve()  # dosdevices/c: is a link to drive_c

    def wait_for_wine(self, timeout: float = 60.0) -> None:
        """Wait until the prefix's wineserver has no process left (it exits 3 s after), so
        that no Wine process outlives the session."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            subprocess.run(
                [str(WINESERVER if WINESERVER.exists() else "wineserver"), "-w"],
                env=self.environment(),
                stdin=subprocess.DEVNULL,
                timeout=timeout,
                check=False,
            )


def text_of(output: bytes) -> str:
    return output.decode("utf-8", "replace").replace("\r\n", "\n")


def session_processes(session: int) -> list[psutil.Process]:
    """The processes of a session we started (Wine moves its processes to init, not out of
    their session)."""
    found = []
    for process in psutil.process_iter():
        try:
            if os.getsid(process.pid) == session:
                found.append(process)
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return found


def stop_session(session: int, grace: float = 3.0) -> None:
    """Stop each process of a session we started, by its pid: SIGTERM, then SIGKILL."""
    for stop in (signal.SIGTERM, signal.SIGKILL):
        processes = session_processes(session)
        for process in processes:
            try:
                process.send_signal(stop)
            except psutil.Error:
                continue
        _, alive = psutil.wait_procs(processes, timeout=grace)
        if not alive:
            return


@pytest.fixture(scope="session")
def windows_python() -> Iterator[WindowsPython]:
    """The Windows CPython with this checkout's wheel installed, made by the set-up script."""
    if not WINE64.exists():
        pytest.skip(f"Wine is not installed ({WINE64}: apt-get install wine, or run .ci/setup.sh)")
    home = wine_home()
    started = time.monotonic()
    result = subprocess.run(
        ["bash", str(SET_UP), str(home)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=SET_UP_TIMEOUT,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(
            f"{SET_UP.name} failed after {time.monotonic() - started:.0f} s "
            f"(exit {result.returncode}):\n{result.stderr[-4000:]}{result.stdout[-2000:]}",
            pytrace=False,
        )
    python = WindowsPython(home)
    yield python
    python.wait_for_wine()
