"""sgt-mines, gnome-mines, kmines, ace-minesweeper and xbomb started (controller/desktop/games.py)
as their launch data says (controller/desktop/launchers.py):
each opens at the asked size with its whole board on the screen, and closing it leaves no process
(by pid and start time) and no private settings folder behind."""

from __future__ import annotations

from pathlib import Path

import mss
import psutil
import pytest
from conftest import LaunchGame
from game_screens import bounding, grab, hidden_tiles, pointer_off

from calibration.grid import find_lattice
from controller.desktop import games
from controller.desktop.games import PRIVATE_FOLDERS, GameWindow, launch_game, visible_windows
from controller.desktop.launchers import LAUNCHERS, XBOMB_CELL, Launcher
from controller.desktop.processes import is_running
from controller.desktop.sizes import Size, resolve_size
from controller.errors import SandboxError
from vision.geometry import Rect
from vision.skin import NEW_GAME_KEYS, is_new_game_key


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


def test_ace_minesweeper_fits_a_level_to_the_board_nearest_its_mine_density() -> None:
    launcher = LAUNCHERS["ace-minesweeper"]
    assert launcher.fitted((9, 9, 10)) == (8, 8, 6)
    assert launcher.fitted((16, 16, 40)) == (11, 11, 20)
    assert launcher.fitted((16, 30, 99)) == (32, 32, 200)
    assert launcher.refusal((9, 9, 10)) is not None


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


def test_xbomb_fits_a_level_to_its_board_of_that_many_mines() -> None:
    launcher = LAUNCHERS["xbomb"]
    assert launcher.fitted((9, 9, 10)) == (8, 8, 10)
    assert launcher.fitted((16, 30, 99)) == (16, 30, 99)
    assert launcher.refusal((8, 8, 10)) is None


def test_a_launchers_new_game_key_is_one_a_skin_may_keep_and_discovery_does_not_try() -> None:
    keys = {name: launcher.new_game_key for name, launcher in LAUNCHERS.items()}
    assert keys["xbomb"] == "s"
    for name, key in keys.items():
        assert key is None or (is_new_game_key(key) and key not in NEW_GAME_KEYS), name


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


@pytest.mark.parametrize(
    ("game", "size"),
    [("kmines", (10, 10, 90)), ("kmines", (50, 5, 240)), ("sgt-mines", (9, 9, 72))],
)
def test_the_largest_sizes_a_game_takes_are_not_refused(game: str, size: Size) -> None:
    assert LAUNCHERS[game].refusal(size) is None


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


@pytest.mark.parametrize(
    ("level", "fitted"),
    [((9, 9, 10), (8, 8, 10)), ((16, 30, 99), (16, 30, 99)), ((9, 9, 11), (9, 9, 11))],
)
def test_gnome_mines_fits_a_level_to_the_size_of_its_mine_count(level: Size, fitted: Size) -> None:
    # Beginner's 10 mines: its 8x8 board; a count it has no size for stays, to be refused.
    launcher = LAUNCHERS["gnome-mines"]
    assert launcher.fitted(level) == fitted
    assert (launcher.refusal(fitted) is None) == (fitted[2] in (10, 99))


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
