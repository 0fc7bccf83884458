"""Finding the board on a fresh window by clicking its hidden tile (calibration/hidden_tile.py)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from drawn_boards import over_gradient
from drawn_game import (
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from calibration import hidden_tile
from solver import Tile
from vision.geometry import Rect
from vision.synthetic import draw, make_skin


def test_the_first_click_lands_on_a_tile_not_on_the_line_between_two() -> None:
    """On a fresh board the cut through the middle of DangerUXB's buttons repeats as well as
    the one along their edges, and the middle of such a block is the line between two buttons,
    which takes no click: two of calibration's three tries there changed nothing. A click goes
    where the block is plain, away from its lines."""
    window = ButtonsWindow()
    point, _, after = hidden_tile.click_the_hidden_tile(window, window, Rect(0, 0, 300, 300))  # type: ignore[arg-type]
    assert len(window.clicks) == 1, window.clicks
    assert not np.array_equal(after, ButtonsWindow().frame)


def test_a_board_whose_tiles_a_picture_shows_through_is_found_by_its_alike_tiles() -> None:
    """Calibration clicked the three most common blocks of kmines' Graveyard Mayhem window (its
    toolbar, its status bar, below the board) and gave up: the most common by equal pixels,
    and no two of its tiles are equal. Blocks alike within the grouping tolerance are tried
    next, and the first click that opens a tile is on the board."""
    window = PictureBehindWindow()
    point, fresh, after = hidden_tile.click_the_hidden_tile(window, window, Rect(0, 0, 300, 260))  # type: ignore[arg-type]
    assert window.board.cell_at(*point) is not None, window.clicks
    assert window.board.cell_at(*window.clicks[-1]) is not None
    assert not np.array_equal(fresh, after)


class ButtonsWindow:
    """A fresh board of native buttons (DangerUXB's tk buttons): white faces 30 px across, each
    edged by a dark line and a grey gap, some 34 px apart and some 33. A click on a line or a
    gap is taken by no button; one on a face opens that cell (its face turns grey)."""

    def __init__(self) -> None:
        self.faces = [int(start) for start in np.cumsum([11] + [34, 33] * 4)[:8]]
        """Where each row's (and column's) button faces start."""
        self.frame = np.full((300, 300, 3), 217, dtype=np.uint8)
        for top in self.faces:
            for left in self.faces:
                self.frame[top - 1, left - 1 : left + 30] = 153  # the line above and left
                self.frame[top - 1 : top + 30, left - 1] = 153
                self.frame[top : top + 30, left : left + 30] = 255
        self.clicks: list[tuple[int, int]] = []

    def grab(self, region: Rect | None = None) -> np.ndarray:
        region = region or Rect(0, 0, 300, 300)
        return self.frame[region.top : region.bottom, region.left : region.right].copy()

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.clicks.append((x, y))
        column = next((c for c in self.faces if c <= x < c + 30), None)
        row = next((r for r in self.faces if r <= y < r + 30), None)
        if column is not None and row is not None:
            self.frame[row : row + 30, column : column + 30] = 190

    def move(self, x: int, y: int) -> None:
        """Nothing lights up under the pointer."""


class PictureBehindWindow:
    """A fresh 9x9 board drawn over a picture that shows through its tiles (kmines' Graveyard
    Mayhem), so that no two hidden tiles are equal pixel for pixel; above it three toolbars,
    each repeating one detailed block a tile wide, which take no click. A click on a tile
    opens it."""

    def __init__(self) -> None:
        skin = make_skin(16, seed=3)
        hidden = np.full((9, 9), Tile.HIDDEN, dtype=np.uint8)
        scene = draw(skin, hidden, (40, 80), screen_size=(300, 260), face=None)
        self.board = scene.geometry
        self.frame = over_gradient(scene.screen, 250, 0.7, (1.0, 0.9, 0.8))
        buttons = np.random.default_rng(1).integers(0, 256, (3, 16, 16, 3), dtype=np.uint8)
        for row, button in enumerate(buttons):  # three toolbars, each of one button repeated
            for column in range(15):
                top, left = 8 + 16 * row, 20 + 16 * column
                self.frame[top : top + 16, left : left + 16] = button
        self.clicks: list[tuple[int, int]] = []

    def grab(self, region: Rect | None = None) -> npt.NDArray[np.uint8]:
        region = region or Rect(0, 0, 300, 260)
        return self.frame[region.top : region.bottom, region.left : region.right].copy()

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.clicks.append((x, y))
        cell = self.board.cell_at(x, y)
        if cell is not None:
            tile = self.board.tile_rect(cell)
            self.frame[tile.top : tile.bottom, tile.left : tile.right] = 200

    def move(self, x: int, y: int) -> None:
        """Nothing lights up under the pointer."""
