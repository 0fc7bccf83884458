"""Real Minesweeper programs started on the current display (each as
:mod:`controller.desktop.launchers` describes it) and their windows, found with xdotool and
xwininfo.

Each game is stopped by its pid when its window is closed, even when the body raised. The games
that keep settings get private config, data, cache and runtime folders per launch, written before
the start and removed on close, so a user's own settings are neither read nor changed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

import numpy as np
import psutil

from controller.desktop.launchers import GAMES, LAUNCHERS, Launcher
from controller.desktop.processes import (
    ErrorTail,
    find_binary,
    kill_pid,
    start_alone,
    start_time,
    stop_process,
    this_run,
)
from controller.desktop.sizes import Size, resolve_size
from controller.desktop.wine import RELAUNCH_PAUSE
from controller.errors import ExitedEarlyError, SandboxError
from vision.capture import ScreenGrabber
from vision.errors import UnstableFrameError
from vision.geometry import Rect
from vision.stable import wait_stable

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
    folder: Path | None = None
    """The launch's private settings folders, removed on close (None: the game has none)."""
    helpers: list[tuple[int, float]] = field(default_factory=list)
    """Other processes the launcher started for the game (pid, start time): a private bus."""

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
        """Wait until the window shows more than one colour and holds still, at a size that no
        longer changes: X maps a window before the game paints it (a busy Wine takes seconds
        to), and a toolkit may resize it once it has laid out its contents."""
        deadline = time.monotonic() + timeout
        with ScreenGrabber() as grabber:
            while True:
                geometry = self.refresh()
                region = Rect(*geometry).intersection(grabber.screen)
                left = max(deadline - time.monotonic(), 0.2)
                try:
                    frame = wait_stable(grabber, region, interval=0.1, timeout=left)
                    drawn = np.ptp(frame.reshape(-1, frame.shape[-1]), axis=0).any()
                    if drawn and self.refresh() == geometry:
                        return
                except UnstableFrameError:
                    pass
                if time.monotonic() >= deadline:
                    raise SandboxError(
                        f"the {self.name} window at {region} was not drawn within {timeout:.0f} s"
                    )
                time.sleep(0.05)

    def press(self, key: str) -> None:
        """Press ``key`` (an xdotool key name) with the pointer over the window, where a display
        without a window manager sends it, and wait until the window has changed and is drawn."""
        with ScreenGrabber() as grabber:
            region = Rect(*self.refresh()).intersection(grabber.screen)
            before = grabber.grab(region)
            x, y = region.centre
            _xdotool("mousemove", "--sync", str(x), str(y))
            _xdotool("key", key)
            try:
                wait_stable(grabber, region, timeout=WINDOW_TIMEOUT, differs_from=before)
            except UnstableFrameError as error:
                raise SandboxError(f"the {self.name} window on the {key} key: {error}") from error
        self.wait_until_drawn()

    def close(self) -> None:
        """Stop the game, its launcher (if different) and the launcher's helpers by pid, and
        remove the private folders. A launcher with helpers (dbus-run-session) is first given
        a moment to end by itself once the game is gone: it then stops its own bus."""
        if self.pid != self.launcher.pid:
            kill_pid(self.pid, self.pid_started)
            this_run().forget_process(self.pid)
        if self.helpers:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.launcher.wait(HELPER_GRACE)
        stop_process(self.launcher)
        for pid, started in self.helpers:
            kill_pid(pid, started)
            this_run().forget_process(pid)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            this_run().forget_file(self.folder)


SEARCH_ATTEMPTS = 3
"""Searches made for a game's window when windows vanish during one."""
HELPER_GRACE = 2.0
"""Seconds a launcher with helpers has to end by itself once its game is gone."""


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


def visible_windows(name: str, by_title: bool = False) -> set[int]:
    """Ids of the mapped windows whose WM_CLASS (class or instance name) contains ``name``, or
    whose title does (``by_title``: for a game that sets no WM_CLASS).

    Both class names are searched: xdemineur's class is spelt with an accent, its instance name
    is not. A window destroyed while xdotool walks the tree makes it fail with BadWindow (a game
    closed a moment ago); the search is then made again.
    """
    fields = ("--name",) if by_title else ("--class", "--classname")
    search = ("search", "--onlyvisible", *fields, name)
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


def _wait_for_window(
    launcher_data: Launcher,
    before: set[int],
    launcher: subprocess.Popen[bytes],
    errors: ErrorTail,
) -> int:
    """The id of the game's window that appeared after ``before`` was taken; else an error
    that ends with the last lines the game wrote to its error output."""
    class_name = launcher_data.window_class
    deadline = time.monotonic() + WINDOW_TIMEOUT
    while time.monotonic() < deadline:
        new = visible_windows(class_name, launcher_data.by_title) - before
        if new:
            return min(new)
        if launcher.poll() not in (None, 0):
            raise ExitedEarlyError(
                f"{class_name} exited with status {launcher.returncode} before opening a window"
                + _said(errors)
            )
        time.sleep(0.05)
    raise SandboxError(
        f"no {class_name} window appeared within {WINDOW_TIMEOUT:.0f} s" + _said(errors, wait=0)
    )


def _said(errors: ErrorTail, wait: float = 1.0) -> str:
    text = errors.text(wait)
    return f"; it said: {text}" if text else ""


def launch_game(name: str, level: str | Size = "beginner") -> GameWindow:
    """Start game ``name`` (one of :data:`GAMES`) on the current DISPLAY at ``level`` and return
    its top-level window once it is drawn, still and wholly on the screen."""
    launcher = LAUNCHERS.get(name)
    if launcher is None:
        raise SandboxError(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    size = resolve_size(level)
    refusal = launcher.refusal(size)
    if refusal is not None:
        raise SandboxError(refusal)
    binary = find_binary(launcher.binary)
    if binary is None:
        raise SandboxError(
            f"{launcher.binary} is not installed (apt-get install {launcher.package})"
        )
    command = [binary, *launcher.arguments(size)]
    if launcher.session_bus:
        bus = find_binary("dbus-run-session")
        if bus is None:
            raise SandboxError(f"{name} needs dbus-run-session (apt-get install dbus)")
        command = [bus, "--", *command]
    if launcher.config_files is None:
        with launcher.prepare(size) as env:
            return _open_window_retrying(name, launcher, command, env, size)
    folder = Path(tempfile.mkdtemp(prefix=f"autosweeper-{name}-"))
    this_run().remember_file(folder)
    try:
        env = _private_environment(folder, launcher.config_files(size))
        window = _open_window_retrying(
            name, launcher, command, {**env, **launcher.environment}, size
        )
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        this_run().forget_file(folder)
        raise
    window.folder = folder
    return window


PRIVATE_FOLDERS = {
    "XDG_CONFIG_HOME": "config",
    "XDG_DATA_HOME": "data",
    "XDG_CACHE_HOME": "cache",
    "XDG_RUNTIME_DIR": "runtime",
}
"""The XDG folders a launch gets of its own, and their names inside its private folder."""


def _private_environment(folder: Path, config_files: Mapping[str, str]) -> dict[str, str]:
    """The environment of a game with private XDG folders under ``folder``, with
    ``config_files`` (paths relative to its XDG_CONFIG_HOME) written into them.

    The user's session bus is left out: a GTK or KDE program on it would hand the launch to an
    instance the user already runs (one instance per bus), off our display."""
    env = {key: value for key, value in os.environ.items() if key != "DBUS_SESSION_BUS_ADDRESS"}
    for variable, name in PRIVATE_FOLDERS.items():
        path = folder / name
        path.mkdir(mode=0o700)  # the runtime folder must be the user's alone
        env[variable] = str(path)
    for relative, text in config_files.items():
        path = folder / PRIVATE_FOLDERS["XDG_CONFIG_HOME"] / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return env


def _open_window_retrying(
    name: str,
    launcher_data: Launcher,
    command: list[str],
    env: dict[str, str] | None,
    size: Size,
) -> GameWindow:
    """:func:`_open_window`, once more if the game exits before opening its window: Wine's
    winemine, started just after the last one closed, now and then exits with status 1 and
    nothing said (a CI run failed on it)."""
    try:
        return _open_window(name, launcher_data, command, env, size)
    except ExitedEarlyError:
        time.sleep(RELAUNCH_PAUSE)
        return _open_window(name, launcher_data, command, env, size)


def _open_window(
    name: str,
    launcher_data: Launcher,
    command: list[str],
    env: dict[str, str] | None,
    size: Size,
) -> GameWindow:
    before = visible_windows(launcher_data.window_class, launcher_data.by_title)
    launcher = start_alone(command, env=env, stderr=subprocess.PIPE)
    assert launcher.stderr is not None
    errors = ErrorTail(launcher.stderr)
    pid: int | None = None
    helpers: list[tuple[int, float]] = []
    try:
        window_id = _wait_for_window(launcher_data, before, launcher, errors)
        pid = _window_pid(window_id) or launcher.pid
        this_run().remember_process(pid)
        if launcher_data.session_bus:
            helpers = _helpers(launcher.pid, pid)
        window = GameWindow(
            name,
            pid,
            start_time(pid),
            window_id,
            window_geometry(window_id),
            launcher,
            helpers=helpers,
        )
        window.wait_until_drawn()
        level_key = launcher_data.level_key(size)
        if level_key is not None:
            window.press(level_key)
        _check_on_screen(window)
        return window
    except BaseException:
        if pid is not None and pid != launcher.pid:
            kill_pid(pid, None)  # found moments ago: no later process can have its pid yet
            this_run().forget_process(pid)
        stop_process(launcher)
        for helper, started in helpers:
            kill_pid(helper, started)
            this_run().forget_process(helper)
        raise


def _helpers(launcher: int, game: int) -> list[tuple[int, float]]:
    """The launcher's other descendants beside the game (pid, start time), each recorded in
    this run's record: dbus-run-session's bus, which outlives a launcher killed outright."""
    found = []
    with contextlib.suppress(psutil.Error):
        for process in psutil.Process(launcher).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if process.pid != game:
                    found.append((process.pid, process.create_time()))
                    this_run().remember_process(process.pid)
    return found


def _check_on_screen(window: GameWindow) -> None:
    """A window that reaches past the screen's edge hides part of its board."""
    with ScreenGrabber() as grabber:
        screen = grabber.screen
    frame = Rect(*window.geometry)
    if frame.intersection(screen) != frame:
        raise SandboxError(
            f"the {window.name} window {frame.width}x{frame.height} at ({frame.left}, "
            f"{frame.top}) does not fit on the {screen.width}x{screen.height} screen"
        )
