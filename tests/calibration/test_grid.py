"""A fresh board told in a window's capture with no skin (calibration/grid.py's quick look):
what `autosweeper calibrate` uses to find the game when no window is named."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import TESTS
from pictures import read_picture

from calibration.grid import fresh_board_shape

DATA = TESTS / "data"


@pytest.mark.parametrize(
    ("capture", "shape"),
    [
        ("windows/winemine_fresh.png", (9, 9)),
        ("windows/xbomb_small_fresh.png", (16, 30)),
        ("windows/pygame-minesweeper-monochrome_fresh.png", (16, 30)),
        ("web98/window.png", (9, 9)),
        # kmines draws its tiles over a gradient that shows through: no two equal, but alike
        # (its edge row and column, lighter, are left out: a quick look, not the grid)
        ("kmines/expert16-fresh.png", (16, 30)),
        ("kmines/beginner-fresh.png", (8, 8)),
    ],
)
def test_a_fresh_board_is_told_with_its_size(capture: str, shape: tuple[int, int]) -> None:
    assert fresh_board_shape(read_picture(DATA / capture)) == shape


@pytest.mark.parametrize(
    "capture",
    [
        "windows/winemine_flood_to_left_edge.png",
        "vision_real/xdemineur-playing.png",
        "kmines/expert-lost.png",
        "gnome-mines/medium-lost.png",
        "web98/prompt.png",
        "webcanvas/boom.png",
    ],
)
def test_a_board_in_play_or_ended_or_covered_is_no_fresh_board(capture: str) -> None:
    assert fresh_board_shape(read_picture(DATA / capture)) is None


def test_a_plain_window_and_a_toolbar_of_alike_buttons_are_no_board() -> None:
    assert fresh_board_shape(np.full((200, 300, 3), 200, np.uint8)) is None
    button = read_picture(DATA / "vision_real/winemine/tiles/HIDDEN.png")
    toolbar = np.full((120, 40 + 12 * button.shape[1], 3), 200, np.uint8)
    toolbar[20 : 20 + button.shape[0], 20 : 20 + 12 * button.shape[1]] = np.tile(button, (1, 12, 1))
    assert fresh_board_shape(toolbar) is None  # one row of 12: no board
    board = np.full((60 + 9 * button.shape[0], 40 + 9 * button.shape[1], 3), 200, np.uint8)
    board[40:-20, 20:-20] = np.tile(button, (9, 9, 1))
    assert fresh_board_shape(board) == (9, 9)
