"""Real games started and their windows found (controller/desktop/games.py): sgt-mines,
gnome-mines, kmines, ace-minesweeper and xbomb started as their launch data says
(controller/desktop/launchers.py) each open at the asked size with their whole board on the
screen, and closing one leaves no process (by pid and start time) and no private settings folder
behind; xdemineur and winemine open, move and close; a game that cannot be started, or whose
window search fails, says why."""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import mss
import numpy as np
import psutil
import pytest
from conftest import LaunchGame, alive
from game_screens import bounding, grab, hidden_tiles, pointer_off

from calibration.grid import find_lattice
from controller.desktop import games
from controller.desktop.display import VirtualDisplay
from controller.desktop.games import PRIVATE_FOLDERS, GameWindow, launch_game, visible_windows
from controller.desktop.launchers import LAUNCHERS, XBOMB_CELL, Launcher
from controller.desktop.processes import find_binary, is_running
from controller.desktop.sizes import Size, resolve_size
from controller.errors import SandboxError
from vision.geometry import Rect


def processes_of(window: GameWindow) -> list[psutil.Process]:
    """The game, its launcher and everything the launcher started."""
    launcher = psutil.Process(window.launcher.pid)
    return [launcher, psutil.Process(window.pid), *launcher.children(recursive=True)]


def closed_leaving(window: GameWindow) -> list[int]:
    """Close ``window``; the pids of its processes (by pid and start time) still running."""
    started = [(process, process.create_time()) for process in processes_of(window)]
    window.close()
    return [process.pid for process, at in started if is_running(process.pid, at)]


CASES: list[tuple[str, str | Size]] = [
    ("sgt-mines", "beginner"),
    ("sgt-mines", "expert"),
    ("gnome-mines", (8, 8, 10)),  # --small: gnome-mines has no 9x9 beginner
    ("gnome-mines", "expert"),
    ("kmines", "beginner"),
    ("kmines", "expert"),
    ("kmines", (10, 12, 20)),  # custom
]


@pytest.mark.realgame
@pytest.mark.parametrize(("game", "level"), CASES)
def test_a_game_opens_with_its_whole_board_and_closes_without_leftovers(
    game: str, level: str | Size, launch: LaunchGame
) -> None:
    window = launch(game, level)
    rows, columns, _ = resolve_size(level)
    assert window.window_id in visible_windows(LAUNCHERS[game].window_class, by_title=False)
    with mss.MSS() as screen:
        monitor = screen.monitors[0]
    frame = Rect(*window.geometry)
    assert frame.intersection(Rect(0, 0, monitor["width"], monitor["height"])) == frame
    pointer_off(window)
    tiles = hidden_tiles(grab(window))
    assert len(tiles) == rows * columns, f"{len(tiles)} tiles show of {rows}x{columns}"
    board = bounding(tiles)
    assert Rect(0, 0, frame.width, frame.height).intersection(board) == board
    folder = window.folder
    assert folder is not None and (folder / PRIVATE_FOLDERS["XDG_CONFIG_HOME"]).is_dir()
    left = closed_leaving(window)
    assert left == [], f"{game} left processes {left} running"
    assert not folder.exists()


@pytest.mark.realgame
@pytest.mark.parametrize("size", [(8, 8, 6), (32, 32, 200)])
def test_ace_minesweeper_found_by_its_title_opens_at_a_size_its_key_chose(
    size: Size, launch: LaunchGame
) -> None:
    """ace-minesweeper sets no WM_CLASS and opens at 32x32; a key switches its board."""
    window = launch("ace-minesweeper", size)
    assert window.window_id in visible_windows("ace-minesweeper", by_title=True)
    assert visible_windows("ace-minesweeper") == set()
    pointer_off(window)
    tiles = hidden_tiles(grab(window))
    assert len(tiles) == size[0] * size[1], f"{len(tiles)} tiles show of {size[0]}x{size[1]}"
    assert closed_leaving(window) == []


@pytest.mark.realgame
@pytest.mark.parametrize("size", [(8, 8, 10), (16, 30, 99)])
def test_xbomb_opens_each_board_whole_in_cells_its_digits_fit(
    size: Size, launch: LaunchGame
) -> None:
    """xbomb scales its cells to its window: each board opens whole in XBOMB_CELL-pixel cells
    (its hidden tiles are a stipple, so the grid is found as calibration finds it)."""
    window = launch("xbomb", size)
    pointer_off(window)
    lattice = find_lattice(grab(window))
    grid = lattice.grid(lattice.ranked[0])
    assert (grid.rows, grid.columns, grid.pitch) == (*size[:2], (XBOMB_CELL, XBOMB_CELL))
    assert closed_leaving(window) == []


@pytest.mark.parametrize(
    ("game", "size", "message"),
    [
        ("gnome-mines", (9, 9, 10), r"gnome-mines opens only 8x8/10, 16x16/40, 16x30/99 .* 9x9/10"),
        ("kmines", (4, 10, 5), r"kmines cannot play 4x10 with 5 mines \(custom: 5 to 50"),
        ("kmines", (10, 10, 91), "at most rows\\*columns-10 mines"),
        ("sgt-mines", (2, 9, 1), "at least 3 rows and 3 columns, not 2x9"),
        ("sgt-mines", (9, 9, 73), "cannot place 73 mines on 9x9: .* at most 72"),
        ("ace-minesweeper", (9, 9, 10), r"ace-minesweeper opens only 8x8/6, 11x11/20, .* 9x9/10"),
        ("xbomb", (9, 9, 10), r"xbomb opens only 8x8/10, 16x16/40, 16x30/99 .* not 9x9/10"),
    ],
)
def test_a_size_a_game_cannot_open_is_refused_in_one_line(
    game: str, size: Size, message: str
) -> None:
    with pytest.raises(SandboxError, match=message) as refused:
        launch_game(game, size)
    assert "\n" not in str(refused.value)


def test_a_missing_game_or_bus_names_the_package_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(games, "find_binary", lambda name: None)
    with pytest.raises(
        SandboxError, match=r"^sgt-mines is not installed \(apt-get install sgt-puzzles\)$"
    ):
        launch_game("sgt-mines")
    monkeypatch.setattr(games, "find_binary", lambda name: None if "dbus" in name else name)
    with pytest.raises(
        SandboxError, match=r"^kmines needs dbus-run-session \(apt-get install dbus\)$"
    ):
        launch_game("kmines")


def test_a_game_that_exits_before_its_window_opens_says_why_in_its_own_words(
    virtual_display: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = "echo starting; echo 'fixme: ignored' >&2; echo 'cannot open board.cfg' >&2; exit 3"
    failing = Launcher("sh", "dash", "no-such-window-class", lambda size: ["-c", script])
    monkeypatch.setitem(LAUNCHERS, "failing", failing)
    with pytest.raises(
        SandboxError,
        match=r"exited with status 3 before opening a window; it said: fixme: ignored \| "
        r"cannot open board\.cfg$",
    ):
        launch_game("failing")


def test_a_game_that_exits_before_its_window_opens_is_started_once_more(
    virtual_display: object, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Wine's winemine, started just after the last one closed, now and then exits with status 1.
    tried = tmp_path / "tried"
    script = f"if [ -e {tried} ]; then exec /usr/games/xdemineur; fi; touch {tried}; exit 1"
    flaky = Launcher("sh", "dash", "xdemineur", lambda size: ["-c", script])
    monkeypatch.setitem(LAUNCHERS, "flaky", flaky)
    with launch_game("flaky") as window:
        assert window.geometry.width > 0
    assert tried.exists()


def _grab(window: GameWindow) -> np.ndarray:
    x, y, width, height = window.geometry
    with mss.MSS() as screen:
        return np.asarray(screen.grab({"left": x, "top": y, "width": width, "height": height}))


def test_unknown_game_and_level_are_named() -> None:
    with pytest.raises(SandboxError, match="unknown game 'nethack'"):
        launch_game("nethack")
    with pytest.raises(SandboxError, match="unknown level 'hard'"):
        launch_game("xdemineur", "hard")


@pytest.mark.realgame
def test_xdemineur_opens_moves_and_closes(xdemineur: GameWindow) -> None:
    x, y, width, height = xdemineur.geometry
    assert width > 12 * 20 and height > 9 * 20
    moved = xdemineur.move(x + 150, y + 90)
    assert (moved.x, moved.y) == (x + 150, y + 90)
    assert _grab(xdemineur)[:, :, :3].std() > 10, "the moved window shows no picture"
    xdemineur.close()
    assert not alive(xdemineur.pid)


@pytest.mark.realgame
def test_xdemineur_refuses_fewer_than_twelve_columns(virtual_display: VirtualDisplay) -> None:
    if find_binary("xdemineur") is None:
        pytest.skip("xdemineur is not installed")
    with pytest.raises(SandboxError, match="at least 12 columns"):
        launch_game("xdemineur", (9, 9, 10))


@pytest.mark.realgame
def test_winemine_opens_at_the_asked_size_and_closes(launch) -> None:
    small = launch("winemine", (9, 9, 10))
    wide = launch("winemine", (9, 20, 10))
    assert small.window_id != wide.window_id
    # a launch returns once the game has painted its window, not merely mapped it
    assert _grab(small)[:, :, :3].std() > 10 and _grab(wide)[:, :, :3].std() > 10
    # 16 px cells: 11 more columns make the window 176 px wider, whatever the frame.
    assert wide.geometry.width - small.geometry.width == 11 * 16
    wide.close()
    assert not alive(wide.pid) and alive(small.pid)


@pytest.mark.realgame
def test_winemines_launched_at_once_each_open_at_their_own_size(launch) -> None:
    """Every winemine reads its size from the one shared registry: launches must not mix."""
    sizes = [(9, 9, 10), (9, 20, 10), (12, 14, 20)]
    with ThreadPoolExecutor(len(sizes)) as pool:
        windows = list(pool.map(lambda size: launch("winemine", size), sizes))
    frames = {
        (window.geometry.width - 16 * columns, window.geometry.height - 16 * rows)
        for window, (rows, columns, _) in zip(windows, sizes, strict=True)
    }
    assert len(frames) == 1, f"windows of other sizes than asked: frames {frames}"


def test_a_window_that_vanishes_during_the_search_is_searched_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """xdotool fails with BadWindow when a window is destroyed while it walks the tree (a CI
    run's click-safety trials launched a game as the last one's killed window went away)."""
    answers = [
        subprocess.CompletedProcess([], 1, "", "X Error of failed request:  BadWindow"),
        subprocess.CompletedProcess([], 0, "41943046\n", ""),
    ]
    calls: list[list[str]] = []

    def run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        return answers.pop(0)

    monkeypatch.setattr(subprocess, "run", run)
    assert games.visible_windows("xdemineur") == {41943046}
    assert len(calls) == 2


@pytest.mark.parametrize(
    ("message", "searches"),
    [("X Error of failed request:  BadWindow", games.SEARCH_ATTEMPTS), ("Can't open display", 1)],
)
def test_a_search_that_keeps_failing_or_fails_otherwise_is_an_error(
    message: str, searches: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []

    def run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        return subprocess.CompletedProcess(command, 1, "", message)

    monkeypatch.setattr(subprocess, "run", run)
    with pytest.raises(SandboxError, match=message):
        games.visible_windows("xdemineur")
    assert len(calls) == searches
