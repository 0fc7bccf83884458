"""The board as calibration sees it (calibration/view.py): where the pointer rests off the board,
and whether a click moved the cells of a board that re-lays itself out."""

from __future__ import annotations

import pytest
from captured_screen import CapturedScreen
from drawn_boards import WINDOWS
from pictures import read_picture

from calibration.grid import find_lattice
from calibration.hidden_tile import only_changes_around
from calibration.view import moved_by_click, rest_point
from vision.geometry import Rect


@pytest.mark.parametrize(
    ("window", "board"),
    [
        (Rect(0, 0, 240, 302), Rect(30, 55, 180, 180)),  # room all round
        (Rect(10, 10, 100, 100), Rect(10, 10, 100, 98)),  # only a strip below
        (Rect(10, 10, 100, 100), Rect(12, 10, 98, 100)),  # only a strip on the left
    ],
)
def test_the_pointer_rests_in_the_window_off_the_board(window: Rect, board: Rect) -> None:
    point = rest_point(window, board)
    assert point is not None
    assert window.contains(*point) and not board.contains(*point)


def test_a_board_filling_its_window_leaves_no_place_to_rest() -> None:
    assert rest_point(Rect(0, 0, 50, 50), Rect(0, 0, 50, 50)) is None


MFRANCESCHI_WINDOW = Rect(0, 0, 499, 304)
"""mfranceschi-minesweeper's window, fresh: its board of Tk buttons reaches its right edge."""
MFRANCESCHI_CLICK = (278, 167)


def test_a_first_click_that_moved_the_cells_past_the_window_is_told_from_the_screen() -> None:
    """Screens of mfranceschi-minesweeper's first click (the screen 560 px wide): the columns it
    opened widened from 34 to 39 px and the board ran past the window's first right edge (the
    window grew after). The cut the click's changes chose lies 7 px off the cells, and the
    window's capture showed the board cut by its edge; the cells the fresh capture shows alone
    are seen moved on the screen, past that edge, so calibration takes those."""
    fresh = read_picture(WINDOWS / "mfranceschi_fresh.png")
    relaid = read_picture(WINDOWS / "mfranceschi_relaid.png")
    in_window = (slice(0, MFRANCESCHI_WINDOW.height), slice(0, MFRANCESCHI_WINDOW.width))
    fresh_window, relaid_window = fresh[in_window], relaid[in_window]
    changes = only_changes_around(fresh_window, relaid_window, MFRANCESCHI_CLICK)
    lattice = find_lattice(fresh_window, changes)
    off = lattice.grid(lattice.hash_at(0, *MFRANCESCHI_CLICK))
    assert off.origin != (227, 28) and off.cut_sides(fresh_window) == ["right"]
    alone = find_lattice(fresh_window)
    grid = alone.grid(alone.hash_at(0, *MFRANCESCHI_CLICK))
    assert (grid.rows, grid.columns, grid.origin) == (8, 8, (227, 28))
    assert moved_by_click(CapturedScreen(relaid), MFRANCESCHI_WINDOW, grid, fresh_window)
    assert not moved_by_click(CapturedScreen(fresh), MFRANCESCHI_WINDOW, grid, fresh_window)
