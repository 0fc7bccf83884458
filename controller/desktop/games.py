"""Real Minesweeper programs started on the current display, their windows (found with xdotool
and xwininfo) and what each needs to open at a given size, as data per game (:data:`LAUNCHERS`):
Wine's winemine, xdemineur, Simon Tatham's sgt-mines, gnome-mines, kmines, the Ace of
Penguins' ace-minesweeper and xbomb.

Each game is stopped by its pid when its window is closed, even when the body raised. The games
that keep settings get private config, data, cache and runtime folders per launch, written before
the start and removed on close, so a user's own settings are neither read nor changed.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

import numpy as np
import platformdirs
import psutil
from filelock import FileLock

from controller.desktop.processes import (
    ErrorTail,
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


class ExitedEarlyError(SandboxError):
    """The game's process ended before it opened a window."""


RELAUNCH_PAUSE = 1.0
"""Seconds before a game that exited before opening its window is started once more."""


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


# -- Wine's winemine ---------------------------------------------------------------------------

WINEMINE_KEY = r"HKEY_CURRENT_USER\Software\Microsoft\WinMine"
_CUSTOM = 3
"""winemine's Difficulty value for a custom size."""
WINEMINE_ROWS = (8, 24)
WINEMINE_COLUMNS = (8, 30)
WINEMINE_MIN_MINES = 10
"""winemine silently clamps sizes outside these bounds, so they are refused instead."""


def wine_prefix() -> Path:
    """The Wine prefix autosweeper reuses (made once: ``wineboot`` takes about ten seconds)."""
    override = os.environ.get("AUTOSWEEPER_WINEPREFIX")
    if override:
        return Path(override)
    return Path(platformdirs.user_cache_dir("autosweeper", appauthor=False)) / "wineprefix"


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


def ensure_wine_prefix() -> Path:
    """The Wine prefix, made if it does not exist yet; a lock keeps parallel callers apart."""
    if find_binary("wine") is None:
        raise SandboxError("wine is not installed (apt-get install wine)")
    prefix = wine_prefix()
    prefix.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(prefix.parent / "wineprefix.lock"):
        if not (prefix / _READY_MARK).exists():
            _make_wine_prefix(prefix)
    return prefix


def _remake_wine_prefix(prefix: Path, why: str) -> None:
    """Move aside a prefix Wine cannot run in (made for another architecture: before 32-bit
    Wine was installed, say), kept in case it holds anything of the user's, and make it anew."""
    with FileLock(prefix.parent / "wineprefix.lock"):
        aside = prefix.with_name(f"{prefix.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
        prefix.rename(aside)
        print(
            f"autosweeper: Wine could not run in its prefix {prefix} ({why}); moved it to "
            f"{aside} and making it anew",
            file=sys.stderr,
        )
        _make_wine_prefix(prefix)


def _make_wine_prefix(prefix: Path) -> None:
    env = wine_environment(prefix)
    _run_wine(["wineboot", "-i"], env, f"wineboot in {prefix}")
    _run_wine(["wineserver", "-w"], env, f"waiting for wineserver in {prefix}")
    (prefix / _READY_MARK).touch()


_READY_MARK = ".autosweeper-ready"


def winemine_refusal(size: Size) -> str | None:
    """Why winemine cannot play ``size``, or None: it silently clamps sizes out of bounds."""
    rows, columns, mines = size
    limits_ok = (
        WINEMINE_ROWS[0] <= rows <= WINEMINE_ROWS[1]
        and WINEMINE_COLUMNS[0] <= columns <= WINEMINE_COLUMNS[1]
        and WINEMINE_MIN_MINES <= mines <= (rows - 1) * (columns - 1)
    )
    if limits_ok:
        return None
    return (
        f"winemine cannot play {rows}x{columns} with {mines} mines (rows {WINEMINE_ROWS}, "
        f"columns {WINEMINE_COLUMNS}, mines {WINEMINE_MIN_MINES} to (rows-1)*(columns-1))"
    )


WINEMINE_LEVELS: dict[Size, int] = {size: index for index, size in enumerate(LEVELS.values())}
"""winemine's own levels (Wine 8's, as Windows': 9x9, 16x16, 16x30) and their Difficulty."""
FRESH_BEST_TIME = 999
"""The best time of each level on a fresh install: the first win asks for a name."""


def winemine_registry(rows: int, columns: int, mines: int, *, fresh_install: bool = False) -> str:
    """The .reg text that makes winemine open at this size with question marks enabled.

    The size is given as Custom, which never opens the best-time name box over the board, and
    best times of 0 make sure of it even if the user switches to a standard level. With
    ``fresh_install``, the size is one of winemine's own levels and the best times are a fresh
    install's: its first win asks for a name, then shows the best times, as a user meets it.
    """
    size = (rows, columns, mines)
    refusal = (
        _opens_only("winemine at its own levels", WINEMINE_LEVELS)(size)
        if fresh_install
        else winemine_refusal(size)
    )
    if refusal is not None:
        raise SandboxError(refusal)
    best_time = FRESH_BEST_TIME if fresh_install else 0
    values = {
        "Difficulty": WINEMINE_LEVELS[size] if fresh_install else _CUSTOM,
        "Height": rows,
        "Width": columns,
        "Mines": mines,
        "Mark": 1,
        "Time1": best_time,
        "Time2": best_time,
        "Time3": best_time,
    }
    body = "\n".join(f'"{key}"=dword:{value:08x}' for key, value in values.items())
    return f"REGEDIT4\n\n[{WINEMINE_KEY}]\n{body}\n"


@contextlib.contextmanager
def _winemine_prepared(size: Size, fresh_install: bool = False) -> Iterator[dict[str, str]]:
    """Wine's environment with winemine's registry set to ``size``, held while the window opens.

    winemine reads its size from the prefix's registry, which every process sharing the prefix
    writes: from the import until the window is open no other launch may change it."""
    registry = winemine_registry(*size, fresh_install=fresh_install)
    prefix = ensure_wine_prefix()
    env = wine_environment(prefix)
    with tempfile.NamedTemporaryFile("w", suffix=".reg", delete=False) as reg_file:
        reg_file.write(registry)
    try:
        with FileLock(prefix.parent / "winemine-launch.lock"):
            _import_registry(reg_file.name, prefix)
            yield env
    finally:
        os.unlink(reg_file.name)


def _import_registry(reg_file: str, prefix: Path) -> None:
    """Import ``reg_file`` into ``prefix``. Tried again after a pause, as winemine is (see
    :func:`_open_window_retrying`: Wine started just after its last process closed now and then
    exits with status 1, nothing said), then once more in the prefix made anew; a failure then
    names the prefix."""
    importing = ["wine", "reg", "import", reg_file]
    for attempt in range(3):
        try:
            _run_wine(importing, wine_environment(prefix), "setting winemine's registry", 60)
            return
        except SandboxError as error:
            failure = error
        if attempt == 0:
            time.sleep(RELAUNCH_PAUSE)
        elif attempt == 1:
            _remake_wine_prefix(prefix, str(failure))
    raise SandboxError(f"Wine cannot run in its prefix {prefix}, even made anew: {failure}")


# -- the games as data -------------------------------------------------------------------------


@contextlib.contextmanager
def _inherited_environment(size: Size) -> Iterator[dict[str, str] | None]:
    """No preparation: the game runs in this process's environment."""
    yield None


def _any_size(size: Size) -> str | None:
    return None


@dataclass(frozen=True)
class Launcher:
    """How one program is installed, started at a board size and found on the screen."""

    binary: str
    package: str
    """The Debian package that installs ``binary``."""
    window_class: str
    """Part of its main window's WM_CLASS (class or instance name), or of its title."""
    arguments: Callable[[Size], list[str]]
    """The command-line arguments that open a board of this size."""
    refusal: Callable[[Size], str | None] = _any_size
    """Why the game cannot open a size, as a one-line message, or None when it can."""
    config_files: Callable[[Size], dict[str, str]] | None = None
    """The settings files (path under XDG_CONFIG_HOME: text) for a size, written into private
    XDG folders made for each launch; None: the game runs without private folders."""
    environment: Mapping[str, str] = field(default_factory=dict)
    """Variables added to a game with private folders."""
    session_bus: bool = False
    """Run it under ``dbus-run-session``, on a private session bus that ends with it."""
    prepare: Callable[[Size], contextlib.AbstractContextManager[dict[str, str] | None]] = (
        _inherited_environment
    )
    """For a game without private folders: what must hold while its window opens, giving the
    environment to start it in (None: this process's)."""
    fitted: Callable[[Size], Size] = lambda size: size
    """The size nearest to a level's that the game opens (xdemineur's least width)."""
    by_title: bool = False
    """``window_class`` is part of the title: the game sets no WM_CLASS."""
    level_key: Callable[[Size], str | None] = lambda size: None
    """A key pressed over the open window to switch it to a size (xdotool's name), if any."""
    new_game_key: str | None = None
    """Its new-game key where calibration would not find it (none of
    :data:`vision.skin.NEW_GAME_KEYS`): what its user tells ``calibrate --new-game``."""


def _opens_only(game: str, sizes: Iterable[Size]) -> Callable[[Size], str | None]:
    """The refusal of a game that opens only ``sizes``."""
    sizes = tuple(sizes)

    def refusal(size: Size) -> str | None:
        if size in sizes:
            return None
        known = ", ".join(f"{r}x{c}/{m}" for r, c, m in sizes)
        rows, columns, mines = size
        return f"{game} opens only {known} (rows x columns/mines), not {rows}x{columns}/{mines}"

    return refusal


def _same_mines(sizes: Iterable[Size]) -> Callable[[Size], Size]:
    """The fitting of a game that opens only ``sizes``: the one with a size's mine count (8x8
    for Beginner's 10), if any."""
    sizes = tuple(sizes)
    return lambda size: next((opened for opened in sizes if opened[2] == size[2]), size)


def _xdemineur_refusal(size: Size) -> str | None:
    columns = size[1]
    if columns < XDEMINEUR_MIN_COLUMNS:
        return f"xdemineur needs at least {XDEMINEUR_MIN_COLUMNS} columns, not {columns}"
    return None


SGT_FREE_CELLS = 9
"""sgt-mines keeps the first click's cell and its 8 neighbours free of mines."""


def _sgt_refusal(size: Size) -> str | None:
    rows, columns, mines = size
    if rows < 3 or columns < 3:
        return f"sgt-mines needs at least 3 rows and 3 columns, not {rows}x{columns}"
    if mines > rows * columns - SGT_FREE_CELLS:
        return (
            f"sgt-mines cannot place {mines} mines on {rows}x{columns}: it keeps "
            f"{SGT_FREE_CELLS} cells free, so at most {rows * columns - SGT_FREE_CELLS}"
        )
    return None


GNOME_MINES_SIZES: dict[Size, str] = {
    (8, 8, 10): "--small",
    LEVELS["intermediate"]: "--medium",
    LEVELS["expert"]: "--big",
}
"""The only sizes gnome-mines opens from its command line (a custom size needs its picker)."""
GNOME_MINES_WINDOW = (1000, 600)
"""gnome-mines' window size (its own default, 600x400, cuts a 30x16 board off)."""


def _gnome_mines_settings(size: Size) -> dict[str, str]:
    """GSettings' keyfile backend: the window size, and the defaults the tests rely on written
    out (question marks on, as the user's game has them; no animations)."""
    width, height = GNOME_MINES_WINDOW
    return {
        "glib-2.0/settings/keyfile": (
            "[org/gnome/Mines]\n"
            f"window-width={width}\nwindow-height={height}\n"
            "use-question-marks=true\nuse-animations=false\n"
        )
    }


KMINES_LEVELS: dict[Size, str] = {
    LEVELS["beginner"]: "Easy",
    LEVELS["intermediate"]: "Medium",
    LEVELS["expert"]: "Hard",
}
KMINES_SIDE = (5, 50)
KMINES_FREE_CELLS = 10
"""kmines' custom sizes (``kmines.kcfg``): 5 to 50 cells a side, at least 10 cells free."""


def _kmines_refusal(size: Size) -> str | None:
    rows, columns, mines = size
    low, high = KMINES_SIDE
    sides_ok = low <= rows <= high and low <= columns <= high
    if size in KMINES_LEVELS or (sides_ok and mines <= rows * columns - KMINES_FREE_CELLS):
        return None
    return (
        f"kmines cannot play {rows}x{columns} with {mines} mines (custom: {low} to {high} "
        f"cells a side, at most rows*columns-{KMINES_FREE_CELLS} mines)"
    )


def _kmines_settings(size: Size) -> dict[str, str]:
    """``kminesrc``: the level, a custom size's keys, and question marks on (its default)."""
    rows, columns, mines = size
    level = KMINES_LEVELS.get(size, "Custom")
    text = f"[KgDifficulty]\nLevel={level}\n\n[General]\nquestion mark=true\n"
    if level == "Custom":
        text += f"\n[Options]\ncustom width={columns}\ncustom height={rows}\ncustom mines={mines}\n"
    return {"kminesrc": text}


ACE_LEVELS: dict[Size, str] = {
    (8, 8, 6): "1",
    (11, 11, 20): "2",
    (16, 16, 45): "3",
    (32, 32, 200): "4",
}
"""ace-minesweeper's four boards and the key that switches to each; it opens at the last
(``games/minesweeper.c`` of the Ace of Penguins: no options, no settings file)."""


def _ace_fitted(size: Size) -> Size:
    """The ace-minesweeper board whose mine density is nearest ``size``'s (Expert's: 32x32)."""
    return min(ACE_LEVELS, key=lambda board: abs(_density(board) - _density(size)))


def _density(size: Size) -> float:
    rows, columns, mines = size
    return mines / (rows * columns)


XBOMB_LEVELS: dict[Size, str] = {(8, 8, 10): "-1", (16, 16, 40): "-2", LEVELS["expert"]: "-3"}
"""xbomb's three boards and the option that opens each (``xbomb.c``: widths, heights, nbombs)."""
XBOMB_CELL = 40
"""Pixels a side of xbomb's cells: it scales them to its window (at its own size for Expert, 20
pixels: see ``xbomb-own-size``)."""


def _xbomb_arguments(size: Size) -> list[str]:
    """The level's option, and a window that scales its cells to :data:`XBOMB_CELL` pixels."""
    rows, columns, _ = size
    width, height = columns * XBOMB_CELL + 50, rows * XBOMB_CELL + 110
    return [XBOMB_LEVELS[size], "-geometry", f"{width}x{height}"]


XBOMB = Launcher(
    binary="xbomb",
    package="xbomb",
    window_class="xbomb",
    arguments=_xbomb_arguments,
    refusal=_opens_only("xbomb", XBOMB_LEVELS),
    fitted=_same_mines(XBOMB_LEVELS),
    new_game_key="s",
)

GTK_QUIET = {"GSETTINGS_BACKEND": "keyfile", "NO_AT_BRIDGE": "1"}
"""GTK settings from a file in the private config folder (no dconf service), and no
accessibility bus to look for."""

LAUNCHERS: dict[str, Launcher] = {
    "winemine": Launcher(
        binary="wine",
        package="wine",
        window_class="winemine",
        arguments=lambda size: ["winemine"],
        refusal=winemine_refusal,
        prepare=_winemine_prepared,
    ),
    # winemine as a fresh install has it: its own levels, best times of 999 s, so that a win
    # opens its name prompt, then its best-times table (as Microsoft's Minesweeper does).
    "winemine-fresh-install": Launcher(
        binary="wine",
        package="wine",
        window_class="winemine",
        arguments=lambda size: ["winemine"],
        refusal=_opens_only("winemine at its own levels", WINEMINE_LEVELS),
        prepare=functools.partial(_winemine_prepared, fresh_install=True),
    ),
    "xdemineur": Launcher(
        binary="xdemineur",
        package="xdemineur",
        window_class="xdemineur",
        # always 21 px cells (no option or X resource for another size): sizes vary, not scales
        arguments=lambda size: ["-geometry", f"{size[1]}x{size[0]}", "-m", str(size[2])],
        refusal=_xdemineur_refusal,
        fitted=lambda size: (size[0], max(size[1], XDEMINEUR_MIN_COLUMNS), size[2]),
    ),
    "sgt-mines": Launcher(
        binary="sgt-mines",
        package="sgt-puzzles",
        window_class="sgt-mines",
        arguments=lambda size: [f"{size[1]}x{size[0]}n{size[2]}"],
        refusal=_sgt_refusal,
        config_files=lambda size: {},
        environment=GTK_QUIET,
    ),
    "gnome-mines": Launcher(
        binary="gnome-mines",
        package="gnome-mines",
        window_class="gnome-mines",
        arguments=lambda size: [GNOME_MINES_SIZES[size]],
        refusal=_opens_only("gnome-mines", GNOME_MINES_SIZES),
        config_files=_gnome_mines_settings,
        fitted=_same_mines(GNOME_MINES_SIZES),
        environment=GTK_QUIET,
        session_bus=True,
    ),
    "kmines": Launcher(
        binary="kmines",
        package="kmines",
        window_class="kmines",
        arguments=lambda size: [],
        refusal=_kmines_refusal,
        config_files=_kmines_settings,
        session_bus=True,  # KDE programs exit without a session bus
    ),
    "ace-minesweeper": Launcher(
        binary="ace-minesweeper",
        package="ace-of-penguins",
        window_class="ace-minesweeper",
        by_title=True,
        arguments=lambda size: [],
        refusal=_opens_only("ace-minesweeper", ACE_LEVELS),
        fitted=_ace_fitted,
        level_key=lambda size: None if size == (32, 32, 200) else ACE_LEVELS[size],
    ),
    "xbomb": XBOMB,
    # xbomb in the window it opens by itself: at Expert 20-px cells, whose digits are drawn
    # taller than the cells, over the top of the cells below.
    "xbomb-own-size": replace(XBOMB, arguments=lambda size: [XBOMB_LEVELS[size]]),
}
"""Every game autosweeper can start, by name."""
GAMES = tuple(LAUNCHERS)
