"""A private X display (Xvfb) and real Minesweeper programs started inside it.

Used by the tests and by ``autosweeper play`` when there is no desktop. Every process started
here is stopped by its pid when its context manager exits, even when the body raised. Each runs
in a session of its own, so a Ctrl-C in the terminal reaches only the bot, which then closes
them itself. A bot killed outright (SIGKILL) cannot: every process and file started here is
written down in a run record (:class:`RunRecord`), and the next start removes what a dead run
left behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

import numpy as np
import platformdirs

from controller.errors import ControllerError
from controller.processes import is_running, start_time
from solver import LEVELS
from vision.capture import ScreenGrabber
from vision.errors import UnstableFrameError
from vision.geometry import Rect
from vision.stable import wait_stable

SCREEN_SIZE = (1280, 1024)
FAMILY_LOCAL = 256
"""Xauthority's address family for connections on this host (Unix sockets)."""
GAMES = ("winemine", "xdemineur")
XDEMINEUR_MIN_COLUMNS = 12
"""xdemineur refuses narrower boards (its counters and face need the room)."""
WINDOW_TIMEOUT = 20.0
"""Seconds to wait for a game's window; Wine's first start in a fresh prefix is the slow case."""
_SEARCH_BINARIES = ("/usr/games",)
"""Debian installs xdemineur here, which is not on root's PATH."""


class SandboxError(ControllerError):
    """A display or game that could not be started or found; the message names which."""


class Geometry(NamedTuple):
    """A window's outer rectangle on the screen, in pixels."""

    x: int
    y: int
    width: int
    height: int


def find_binary(name: str) -> str | None:
    """The path of program ``name`` on PATH or in /usr/games, or None."""
    found = shutil.which(name)
    if found:
        return found
    for folder in _SEARCH_BINARIES:
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def _stop_process(process: subprocess.Popen[bytes], grace: float = 3.0) -> None:
    """Terminate one process we started (by its pid), then kill it if it lingers."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(grace)
    this_run().forget_process(process.pid)


def _kill_pid(pid: int, started: float | None, grace: float = 3.0) -> None:
    """Terminate a process we did not spawn directly (Wine's game process, a dead run's
    leftovers), known by its pid and start time, then kill it if it lingers."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if not is_running(pid, started):
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and is_running(pid, started):
            time.sleep(0.05)


def _start_alone(
    command: list[str], env: dict[str, str] | None = None, pass_fds: tuple[int, ...] = ()
) -> subprocess.Popen[bytes]:
    """Start ``command`` in a session of its own (a Ctrl-C in our terminal does not reach it)
    with no terminal input or output, and write it in this run's record."""
    process = subprocess.Popen(
        command,
        env=env,
        pass_fds=pass_fds,
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    this_run().remember_process(process.pid)
    return process


def runs_dir() -> Path:
    """Where run records are kept: the user's data folder (e.g. ``~/.local/share/autosweeper``)."""
    return platformdirs.user_data_path("autosweeper") / "runs"


class RunRecord:
    """What this process started that would outlive it: processes (pid and start time, so a
    reused pid is never taken for one of ours) and files. Kept as a JSON file named after the
    process, rewritten on every change and removed once nothing is left to clean."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / f"run-{os.getpid()}.json"
        self._owner = {"host": socket.gethostname(), "pid": os.getpid()}
        self._owner_started = start_time(os.getpid())
        self._processes: dict[int, float] = {}
        self._files: set[str] = set()
        self._lock = threading.Lock()

    def remember_process(self, pid: int) -> None:
        """Record ``pid`` with its start time; one already gone is not recorded (its pid may
        soon be another process's)."""
        started = start_time(pid)
        if started is None:
            return
        with self._lock:
            self._processes[pid] = started
            self._save()

    def forget_process(self, pid: int) -> None:
        with self._lock:
            if pid in self._processes:
                del self._processes[pid]
                self._save()

    def remember_file(self, path: Path) -> None:
        with self._lock:
            self._files.add(str(path))
            self._save()

    def forget_file(self, path: Path) -> None:
        with self._lock:
            if str(path) in self._files:
                self._files.discard(str(path))
                self._save()

    def _save(self) -> None:
        if not self._processes and not self._files:
            self.path.unlink(missing_ok=True)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        record = {
            **self._owner,
            "started": self._owner_started,
            "processes": [[pid, started] for pid, started in self._processes.items()],
            "files": sorted(self._files),
        }
        partial = self.path.with_suffix(".partial")
        partial.write_text(json.dumps(record))
        os.replace(partial, self.path)


def clean_up_dead_runs(folder: Path) -> list[str]:
    """Stop the processes and remove the files that runs now dead recorded in ``folder``; return
    what was done, one line each. A run still alive, a record of another host and a process
    whose pid now belongs to a later process are left alone."""
    done: list[str] = []
    for path in sorted(folder.glob("run-*.json")):
        try:
            record = json.loads(path.read_text())
            owner, owner_started = int(record["pid"]), record["started"]
            processes = [(int(pid), float(started)) for pid, started in record["processes"]]
            files = [Path(name) for name in record["files"]]
            host = record["host"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # being replaced right now, or not a record of ours
        if host != socket.gethostname() or is_running(owner, owner_started):
            continue
        for pid, started in processes:
            if is_running(pid, started):
                _kill_pid(pid, started)
                done.append(f"stopped process {pid} left by dead run {owner}")
        for file in files:
            if file.exists():
                file.unlink(missing_ok=True)
                done.append(f"removed {file} left by dead run {owner}")
        path.unlink(missing_ok=True)
    return done


_this_run: RunRecord | None = None
_this_run_lock = threading.Lock()


def this_run() -> RunRecord:
    """This process's run record; made on first use, after cleaning up after dead runs."""
    global _this_run
    with _this_run_lock:
        if _this_run is None:
            folder = runs_dir()
            if folder.is_dir():
                clean_up_dead_runs(folder)
            _this_run = RunRecord(folder)
        return _this_run


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
        command = [
            xvfb, f":{number}", "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp",
            "-auth", str(self._xauthority), "-displayfd", str(ready_write),
        ]  # fmt: skip
        process = _start_alone(command, pass_fds=(ready_write,))
        os.close(ready_write)
        try:
            # Xvfb writes the display number once it accepts connections; EOF means it exited.
            with os.fdopen(ready_read, "rb") as ready:
                answer = ready.readline().strip()
        except BaseException:
            _stop_process(process)
            raise
        if answer == str(number).encode():
            self._process = process
            self.number = number
            return True
        _stop_process(process)
        return False

    def stop(self) -> None:
        """Stop Xvfb by its pid, remove the Xauthority file and restore the environment."""
        if self._process is not None:
            _stop_process(self._process)
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


@dataclass
class GameWindow:
    """A running game's top-level window. ``close`` stops every process behind it by pid."""

    name: str
    pid: int
    """The game's own process (for Wine, the ``winemine.exe`` process, not the launcher)."""
    pid_started: float | None
    """The game process's start time, which tells it from a later process given its pid."""
    window_id: int
    geometry: Geometry
    launcher: subprocess.Popen[bytes] = field(repr=False)

    def __enter__(self) -> GameWindow:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def refresh(self) -> Geometry:
        """Read the window's geometry again (after a move or a resize) and return it."""
        self.geometry = window_geometry(self.window_id)
        return self.geometry

    def move(self, x: int, y: int) -> Geometry:
        """Move the window's top-left corner to (x, y): a board is not always at (0, 0)."""
        _xdotool("windowmove", "--sync", str(self.window_id), str(x), str(y))
        return self.refresh()

    def wait_until_drawn(self, timeout: float = WINDOW_TIMEOUT) -> None:
        """Wait until the window shows more than one colour and holds still: X maps a window
        before the game paints it, and a busy Wine takes seconds to."""
        region = Rect(*self.refresh())
        deadline = time.monotonic() + timeout
        with ScreenGrabber() as grabber:
            region = region.intersection(grabber.screen)
            while True:
                left = max(deadline - time.monotonic(), 0.2)
                try:
                    frame = wait_stable(grabber, region, interval=0.1, timeout=left)
                    if np.ptp(frame.reshape(-1, frame.shape[-1]), axis=0).any():
                        return
                except UnstableFrameError:
                    pass
                if time.monotonic() >= deadline:
                    raise SandboxError(
                        f"the {self.name} window at {region} was not drawn within {timeout:.0f} s"
                    )
                time.sleep(0.05)

    def close(self) -> None:
        """Stop the game (and its launcher, if different) by pid."""
        if self.pid != self.launcher.pid:
            _kill_pid(self.pid, self.pid_started)
            this_run().forget_process(self.pid)
        _stop_process(self.launcher)


def _xdotool(*arguments: str) -> str:
    try:
        result = subprocess.run(
            ["xdotool", *arguments],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=WINDOW_TIMEOUT,
        )
    except FileNotFoundError as error:
        raise SandboxError("xdotool is not installed (apt-get install xdotool)") from error
    except subprocess.TimeoutExpired as error:
        raise SandboxError(f"xdotool {' '.join(arguments)} did not answer") from error
    if result.returncode != 0 and result.stderr.strip():
        raise SandboxError(f"xdotool {' '.join(arguments)} failed: {result.stderr.strip()}")
    return result.stdout


def visible_windows(class_name: str) -> set[int]:
    """Ids of the mapped windows whose WM_CLASS (class or instance name) contains ``class_name``.

    Both are searched: xdemineur's class is spelt with an accent, its instance name is not.
    """
    output = _xdotool("search", "--onlyvisible", "--class", "--classname", class_name)
    return {int(line) for line in output.split()}


def window_geometry(window_id: int) -> Geometry:
    """The window's absolute position and size, read with xwininfo."""
    try:
        result = subprocess.run(
            ["xwininfo", "-id", str(window_id)],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=10,
        )
    except FileNotFoundError as error:
        raise SandboxError("xwininfo is not installed (apt-get install x11-utils)") from error
    fields: dict[str, int] = {}
    for line in result.stdout.splitlines():
        key, _, value = line.strip().partition(":")
        if key in ("Absolute upper-left X", "Absolute upper-left Y", "Width", "Height"):
            fields[key] = int(value)
    if len(fields) != 4:
        raise SandboxError(
            f"xwininfo gave no geometry for window {window_id}: {result.stderr.strip()}"
        )
    return Geometry(
        fields["Absolute upper-left X"],
        fields["Absolute upper-left Y"],
        fields["Width"],
        fields["Height"],
    )


def _window_pid(window_id: int) -> int | None:
    """The pid a window declares (_NET_WM_PID), or None: xdemineur declares none."""
    result = subprocess.run(
        ["xdotool", "getwindowpid", str(window_id)],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=10,
    )
    output = result.stdout.strip()
    return int(output) if result.returncode == 0 and output.isdigit() else None


def _wait_for_window(class_name: str, before: set[int], launcher: subprocess.Popen[bytes]) -> int:
    """The id of the window of ``class_name`` that appeared after ``before`` was taken."""
    deadline = time.monotonic() + WINDOW_TIMEOUT
    while time.monotonic() < deadline:
        new = visible_windows(class_name) - before
        if new:
            return min(new)
        if launcher.poll() not in (None, 0):
            raise SandboxError(
                f"{class_name} exited with status {launcher.returncode} before opening a window"
            )
        time.sleep(0.05)
    raise SandboxError(f"no {class_name} window appeared within {WINDOW_TIMEOUT:.0f} s")


Size = tuple[int, int, int]
"""(rows, columns, mines)."""


def resolve_size(level: str | Size) -> Size:
    """A level name from :data:`solver.LEVELS` or an explicit (rows, columns, mines)."""
    if isinstance(level, str):
        if level not in LEVELS:
            raise SandboxError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
        return LEVELS[level]
    rows, columns, mines = level
    if rows < 1 or columns < 1 or not 0 < mines < rows * columns:
        raise SandboxError(f"impossible board {rows}x{columns} with {mines} mines")
    return rows, columns, mines


def launch_game(name: str, level: str | Size = "beginner") -> GameWindow:
    """Start ``name`` ("winemine" or "xdemineur") on the current DISPLAY and return its window."""
    rows, columns, mines = resolve_size(level)
    if name == "winemine":
        return _launch_winemine(rows, columns, mines)
    if name == "xdemineur":
        return _launch_xdemineur(rows, columns, mines)
    raise SandboxError(f"unknown game {name!r}; known: {', '.join(GAMES)}")


def _open_window(
    name: str, class_name: str, command: list[str], env: dict[str, str] | None = None
) -> GameWindow:
    before = visible_windows(class_name)
    launcher = _start_alone(command, env=env)
    pid: int | None = None
    try:
        window_id = _wait_for_window(class_name, before, launcher)
        pid = _window_pid(window_id) or launcher.pid
        this_run().remember_process(pid)
        window = GameWindow(
            name, pid, start_time(pid), window_id, window_geometry(window_id), launcher
        )
        window.wait_until_drawn()
        return window
    except BaseException:
        if pid is not None and pid != launcher.pid:
            _kill_pid(pid, None)  # found moments ago: no later process can have its pid yet
            this_run().forget_process(pid)
        _stop_process(launcher)
        raise


def _launch_xdemineur(rows: int, columns: int, mines: int) -> GameWindow:
    """xdemineur at any board size; its cells are always 21 px (it has no option or X resource
    for another cell size, as winemine's are always 16 px), so sizes and places vary, not scales.
    """
    binary = find_binary("xdemineur")
    if binary is None:
        raise SandboxError("xdemineur is not installed (apt-get install xdemineur)")
    if columns < XDEMINEUR_MIN_COLUMNS:
        raise SandboxError(
            f"xdemineur needs at least {XDEMINEUR_MIN_COLUMNS} columns, not {columns}"
        )
    return _open_window(
        "xdemineur", "xdemineur", [binary, "-geometry", f"{columns}x{rows}", "-m", str(mines)]
    )


# -- Wine's winemine ---------------------------------------------------------------------------

WINEMINE_KEY = r"HKEY_CURRENT_USER\Software\Microsoft\WinMine"
_CUSTOM = 3
"""winemine's Difficulty value for a custom size: its own "beginner" is 8x8, not 9x9."""
WINEMINE_ROWS = (8, 24)
WINEMINE_COLUMNS = (8, 30)
WINEMINE_MIN_MINES = 10
"""winemine silently clamps sizes outside these bounds, so they are refused instead."""


def wine_prefix() -> Path:
    """The Wine prefix autosweeper reuses (made once: ``wineboot`` takes about ten seconds)."""
    override = os.environ.get("AUTOSWEEPER_WINEPREFIX")
    if override:
        return Path(override)
    return Path(platformdirs.user_cache_dir("autosweeper")) / "wineprefix"


def wine_environment(prefix: Path) -> dict[str, str]:
    """The environment for Wine: our prefix, no debug output, no desktop menu entries, no Mono."""
    return {
        **os.environ,
        "WINEPREFIX": str(prefix),
        "WINEDEBUG": "-all",
        "WINEDLLOVERRIDES": "winemenubuilder.exe=d;mscoree,mshtml=",
    }


def _run_wine(command: list[str], env: dict[str, str], what: str, timeout: float = 120) -> None:
    try:
        result = subprocess.run(
            command,
            env=env,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            start_new_session=True,  # a Ctrl-C in our terminal is ours to handle, not Wine's
        )
    except subprocess.TimeoutExpired as error:
        raise SandboxError(f"{what} took longer than {timeout:.0f} s") from error
    if result.returncode != 0:
        raise SandboxError(
            f"{what} failed (status {result.returncode}): {result.stderr.strip()[-300:]}"
        )


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_path`` (created if needed) against other processes."""
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def ensure_wine_prefix() -> Path:
    """Create the Wine prefix if it does not exist yet; a lock keeps parallel callers apart."""
    wine = find_binary("wine")
    if wine is None:
        raise SandboxError("wine is not installed (apt-get install wine)")
    prefix = wine_prefix()
    prefix.parent.mkdir(parents=True, exist_ok=True)
    ready_mark = prefix / ".autosweeper-ready"
    with _exclusive(prefix.parent / "wineprefix.lock"):
        if not ready_mark.exists():
            env = wine_environment(prefix)
            _run_wine(["wineboot", "-i"], env, f"wineboot in {prefix}")
            _run_wine(["wineserver", "-w"], env, f"waiting for wineserver in {prefix}")
            ready_mark.touch()
    return prefix


def winemine_registry(rows: int, columns: int, mines: int) -> str:
    """The .reg text that makes winemine open at this size with question marks enabled.

    The size is always given as Custom, which never opens the best-time name box over the board;
    best times of 0 make sure of it even if the user switches to a standard level.
    """
    limits_ok = (
        WINEMINE_ROWS[0] <= rows <= WINEMINE_ROWS[1]
        and WINEMINE_COLUMNS[0] <= columns <= WINEMINE_COLUMNS[1]
        and WINEMINE_MIN_MINES <= mines <= (rows - 1) * (columns - 1)
    )
    if not limits_ok:
        raise SandboxError(
            f"winemine cannot play {rows}x{columns} with {mines} mines (rows {WINEMINE_ROWS}, "
            f"columns {WINEMINE_COLUMNS}, mines {WINEMINE_MIN_MINES} to (rows-1)*(columns-1))"
        )
    values = {
        "Difficulty": _CUSTOM,
        "Height": rows,
        "Width": columns,
        "Mines": mines,
        "Mark": 1,
        "Time1": 0,
        "Time2": 0,
        "Time3": 0,
    }
    body = "\n".join(f'"{key}"=dword:{value:08x}' for key, value in values.items())
    return f"REGEDIT4\n\n[{WINEMINE_KEY}]\n{body}\n"


def _launch_winemine(rows: int, columns: int, mines: int) -> GameWindow:
    registry = winemine_registry(rows, columns, mines)
    prefix = ensure_wine_prefix()
    env = wine_environment(prefix)
    with tempfile.NamedTemporaryFile("w", suffix=".reg", delete=False) as reg_file:
        reg_file.write(registry)
    # winemine reads its size from the prefix's registry, which every process sharing the prefix
    # writes: from the import until the window is open no other launch may change it.
    try:
        with _exclusive(prefix.parent / "winemine-launch.lock"):
            _run_wine(
                ["wine", "reg", "import", reg_file.name], env, "setting winemine's registry", 60
            )
            return _open_window("winemine", "winemine", ["wine", "winemine"], env)
    finally:
        os.unlink(reg_file.name)
