"""Real Minesweeper programs started on the current display: Wine's winemine and xdemineur,
their windows (found with xdotool and xwininfo) and what each needs to open at a given size.
Each game is stopped by its pid when its window is closed, even when the body raised.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

import numpy as np
import platformdirs

from controller.desktop.processes import (
    find_binary,
    kill_pid,
    start_alone,
    start_time,
    stop_process,
    this_run,
)
from controller.errors import SandboxError
from solver import LEVELS
from vision.capture import ScreenGrabber
from vision.errors import UnstableFrameError
from vision.geometry import Rect
from vision.stable import wait_stable

GAMES = ("winemine", "xdemineur")
XDEMINEUR_MIN_COLUMNS = 12
"""xdemineur refuses narrower boards (its counters and face need the room)."""
WINDOW_TIMEOUT = 20.0
"""Seconds to wait for a game's window; Wine's first start in a fresh prefix is the slow case."""


class Geometry(NamedTuple):
    """A window's outer rectangle on the screen, in pixels."""

    x: int
    y: int
    width: int
    height: int


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
            kill_pid(self.pid, self.pid_started)
            this_run().forget_process(self.pid)
        stop_process(self.launcher)


SEARCH_ATTEMPTS = 3
"""Searches made for a game's window when windows vanish during one."""


_X_TOOL_PACKAGES = {"xdotool": "xdotool", "xwininfo": "x11-utils"}
"""The Debian package of each X command-line tool the launcher runs."""


def _run_x_tool(tool: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run ``tool`` (xdotool or xwininfo); one-line errors when it is missing or hangs."""
    try:
        return subprocess.run(
            [tool, *arguments],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=WINDOW_TIMEOUT,
        )
    except FileNotFoundError as error:
        package = _X_TOOL_PACKAGES[tool]
        raise SandboxError(f"{tool} is not installed (apt-get install {package})") from error
    except subprocess.TimeoutExpired as error:
        raise SandboxError(f"{tool} {' '.join(arguments)} did not answer") from error


def _xdotool(*arguments: str) -> str:
    result = _run_x_tool("xdotool", *arguments)
    if result.returncode != 0 and result.stderr.strip():
        raise SandboxError(f"xdotool {' '.join(arguments)} failed: {result.stderr.strip()}")
    return result.stdout


def visible_windows(class_name: str) -> set[int]:
    """Ids of the mapped windows whose WM_CLASS (class or instance name) contains ``class_name``.

    Both are searched: xdemineur's class is spelt with an accent, its instance name is not. A
    window destroyed while xdotool walks the tree makes it fail with BadWindow (a game closed a
    moment ago); the search is then made again.
    """
    search = ("search", "--onlyvisible", "--class", "--classname", class_name)
    for _ in range(SEARCH_ATTEMPTS - 1):
        try:
            return {int(line) for line in _xdotool(*search).split()}
        except SandboxError as error:
            if "BadWindow" not in str(error):
                raise
    return {int(line) for line in _xdotool(*search).split()}


def window_geometry(window_id: int) -> Geometry:
    """The window's absolute position and size, read with xwininfo."""
    result = _run_x_tool("xwininfo", "-id", str(window_id))
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
    result = _run_x_tool("xdotool", "getwindowpid", str(window_id))
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
    launcher = start_alone(command, env=env)
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
            kill_pid(pid, None)  # found moments ago: no later process can have its pid yet
            this_run().forget_process(pid)
        stop_process(launcher)
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
