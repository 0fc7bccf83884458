"""Learning a game's skin from games started on the current display: the calibration boards,
opened side by side and played until every tile and face has been seen."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from calibration.learn import BUDGET, Calibration, calibrate
from controller.desktop.games import GameWindow, launch_game
from controller.desktop.launchers import LAUNCHERS
from controller.desktop.sizes import Size
from controller.errors import SandboxError
from controller.mouse import Mouse
from vision.capture import ScreenGrabber
from vision.geometry import Rect
from vision.new_game import NewGame
from vision.relayout import GROWTH_SHARE

CALIBRATION_BOARDS: dict[str, tuple[Size, ...]] = {
    "winemine": ((9, 9, 10), (12, 12, 100)),
    "xdemineur": ((9, 12, 10), (16, 16, 150), (16, 16, 215)),
}
"""Per game a sparse board (zeros, low numbers, an easy win) and dense ones for the numbers up
to 8. winemine's first click is safe, so its dense board shows a high number every game;
xdemineur's first click may hit a mine, so a board of about 60% mines shows the middle numbers
often and one of 84% the 7s and 8s."""
WINDOW_GAP = 20
REDRAW_WAIT = 0.5
"""Seconds for windows uncovered by a move to redraw before the first capture."""


def calibrate_game(
    game: str,
    name: str | None = None,
    *,
    size: Size | None = None,
    origin: tuple[int, int] = (WINDOW_GAP, 2 * WINDOW_GAP),
    max_games: int = 150,
    seed: int | None = None,
) -> Calibration:
    """Start ``game`` on the current (virtual) display at its calibration sizes, side by side
    from screen point ``origin``, and learn its skin. The windows are closed afterwards. A game
    with no calibration boards is learned from one window of ``size`` (the board about to be
    played), as a window a user opened is: for the usual budget of play."""
    boards, budget = CALIBRATION_BOARDS.get(game), math.inf
    if boards is None and size is not None:
        boards, budget = (size,), BUDGET
    if boards is None:
        raise SandboxError(
            f"no calibration boards for {game} yet; known: {', '.join(CALIBRATION_BOARDS)}"
        )
    with ScreenGrabber() as grabber:
        screen = grabber.screen
    windows: list[GameWindow] = []
    try:
        left, top = origin
        row_height = 0
        for size in boards:
            window = launch_game(game, size)
            windows.append(window)
            width, height = window.geometry.width, window.geometry.height
            if left + width > screen.right and left != origin[0]:  # next row of windows
                left, top, row_height = origin[0], top + row_height + WINDOW_GAP, 0
            if left == origin[0]:  # a window too wide for the margin stands nearer the edge
                left = max(screen.left, min(left, screen.right - width))
            if left + width > screen.right or top + height > screen.bottom:
                raise SandboxError(
                    f"a {width}x{height} {game} window does not fit on the {screen.width}x"
                    f"{screen.height} screen at ({left}, {top})"
                )
            window.move(left, top)
            left += width + WINDOW_GAP
            row_height = max(row_height, height)
        time.sleep(REDRAW_WAIT)
        rects = [Rect(*window.geometry) for window in windows]
        mines = [size[2] for size in boards]
        # Boards chosen to show every tile have no time limit: every tile is learned.
        key = LAUNCHERS[game].new_game_key
        return calibrate_windows(
            name or game,
            rects,
            mines,
            max_games,
            seed,
            budget=budget,
            new_game=None if key is None else NewGame("key", key),
        )
    finally:
        for window in windows:
            window.close()


def calibrate_windows(
    name: str,
    windows: Sequence[Rect],
    mines: Sequence[int | None],
    max_games: int,
    seed: int | None,
    budget: float = BUDGET,
    new_game: NewGame | None = None,
    new_game_at: tuple[int, int] | None = None,
) -> Calibration:
    """Learn skin ``name`` from fresh games in ``windows``, with a mouse allowed only there;
    ``new_game`` is how the game starts a new one, or ``new_game_at`` the screen point of its
    "New game" button, if the user said (else it is found)."""
    mouse = Mouse(windows)
    # A board that re-lays itself out (a column widened by a cell opened in it) grows its
    # window: its cells may then lie past the window's first size, by as much as the board
    # follows them (see vision.relayout).
    mouse.allowed += [
        Rect(w.left, w.top, w.width + w.width // GROWTH_SHARE, w.height + w.height // GROWTH_SHARE)
        for w in windows
    ]
    with ScreenGrabber() as grabber:
        return calibrate(
            name,
            mouse,
            grabber,
            windows,
            mines=mines,
            max_games=max_games,
            budget=budget,
            seed=seed,
            new_game=new_game,
            new_game_at=new_game_at,
        )
