"""Which visible windows show a fresh Minesweeper board: the game to calibrate when the user
names none, as a user would point at it ("that one"), whatever its title's language."""

from __future__ import annotations

from calibration.grid import fresh_board_shape
from controller.desktop.windows import DesktopWindow, WindowSource, shows_anything
from controller.errors import WindowError
from vision.capture import Screen
from vision.geometry import Rect

SMALLEST_BOARD_WINDOW = 64
"""Pixels a side a window needs to hold a board of 5x5 cells of the smallest size calibration
finds, with some frame."""


def board_windows(
    source: WindowSource, screen: Screen
) -> list[tuple[DesktopWindow, tuple[int, int]]]:
    """The visible windows showing a fresh board, each with the board's (rows, columns), in
    the order ``source`` lists them. Only the part of a window on the screen is looked at."""
    whole = screen.screen
    found = []
    for window in source.windows():
        frame = _on_screen(window.frame, whole)
        if frame is None or min(frame.width, frame.height) < SMALLEST_BOARD_WINDOW:
            continue
        shape = fresh_board_shape(screen.grab(frame))
        if shape is not None:
            found.append((window, shape))
    return found


def the_board_window(source: WindowSource, screen: Screen) -> DesktopWindow:
    """The one visible window showing a fresh board; none, or several, is a
    :class:`WindowError` saying so (the several listed by title and frame)."""
    found = board_windows(source, screen)
    if len(found) == 1:
        return found[0][0]
    if not found:
        raise WindowError(
            f"no visible window on {source.desktop} shows a fresh Minesweeper board: open a new "
            "game (every cell hidden), or name its window with --window-title or --window-class"
        )
    listed = "; ".join(
        f"{window.describe()} ({rows}x{columns} cells)" for window, (rows, columns) in found
    )
    raise WindowError(
        f"{len(found)} visible windows on {source.desktop} show a fresh board: {listed}; "
        "name one with --window-title or --window-class"
    )


def _on_screen(frame: Rect, screen: Rect) -> Rect | None:
    """The part of ``frame`` on ``screen``, or None if it shows nothing there."""
    return frame.intersection(screen) if shows_anything(frame, screen) else None
