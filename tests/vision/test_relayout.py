"""Following a board that re-lays itself out (vision/relayout.py) up to the capture's edge."""

from __future__ import annotations

import numpy as np
import pytest

from vision.errors import CaptureError
from vision.relayout import Relayout, indices, measure

SIDE = 10


def tile(width: int) -> np.ndarray:
    """A cell ``width`` pixels wide: a dark left and top edge, a light right and bottom one."""
    cell = np.full((SIDE, width, 3), 128, dtype=np.uint8)
    cell[:, 0], cell[0, :] = 50, 50
    cell[:, -1], cell[-1, 1:] = 200, 200
    return cell


def test_a_board_grown_past_the_captures_edge_is_a_capture_error_not_an_index_error() -> None:
    # mfranceschi-minesweeper at Expert: 30 columns of 34 px fit the screen fresh; opened,
    # they widen to 38-40 px and the board runs past the screen's right edge, which clips the
    # capture (an IndexError ended calibration with a traceback).
    fresh = np.concatenate([tile(SIDE)] * 3, axis=1)
    relayout = Relayout.even(tile(SIDE), (1, 3), fresh)
    grown = np.concatenate([tile(14)] * 3, axis=1)  # 42 px, of which the screen shows 34
    with pytest.raises(CaptureError, match="past the edge"):
        relayout.follow(grown[:, :34])


FRAME, STALE = 217, 255
"""A toolkit button's frame (the pixel on each side of it), and a pixel left over from before."""


def button(width: int, fill: int) -> np.ndarray:
    """A toolkit button ``width`` pixels wide and :data:`SIDE` high: its frame, a light left
    and top bevel, a dark right and bottom one, and ``fill`` between; a wider one is the same
    with more of its fill in the middle."""
    cell = np.full((SIDE, width, 3), fill, dtype=np.uint8)
    cell[1:-1, 1], cell[1, 1:-1] = 192, 192
    cell[1:-1, -2], cell[-2, 1:-1] = 77, 77
    cell[:, 0], cell[:, -1], cell[0, :], cell[-1, :] = FRAME, FRAME, FRAME, FRAME
    return cell


def board(*columns: list[np.ndarray], past: int = 0) -> np.ndarray:
    """The cells of ``columns`` (each a list of cells from the top) side by side, and ``past``
    black pixels past the board's right edge (the screen beyond the game's window)."""
    drawn = np.concatenate([np.concatenate(cells, axis=0) for cells in columns], axis=1)
    return np.pad(drawn, ((0, 0), (0, past), (0, 0)))


HIDDEN_FILL, OPENED_FILL = 40, 236


def test_the_last_columns_end_is_where_the_other_widened_columns_say_when_two_ends_fit() -> None:
    """mfranceschi-minesweeper's last column read 1 px short (issue 49): the end of the last
    column had two places that fit, the right one and 1 px before it, where a picture kept of
    a cell cut 1 px short fitted as well; the first won, and the tile lost its right border.
    Nothing follows the last column to tell them apart. The other opened columns are 13 px
    wide, so the opened last one is too."""
    hidden, opened = button(10, HIDDEN_FILL), button(13, OPENED_FILL)
    capture = board([hidden, hidden], [opened, opened], [opened, opened], past=8)
    short = capture[:SIDE, indices(np.array([23, 35]), 10)]  # the last cell cut 1 px short
    bank = np.stack([hidden, button(10, OPENED_FILL), short])
    starts = (np.array([0, 10, 20, 30]), np.array([0, SIDE, 2 * SIDE]))
    found, placed = measure(capture, starts, {10, 12, 13}, (10, SIDE), bank)
    assert found.tolist() == [0, 10, 23, 36]
    assert placed.all()


def test_a_board_caught_with_a_stale_pixel_between_two_columns_teaches_no_picture() -> None:
    """mfranceschi-minesweeper, as it re-lays its buttons out for a new game, may show a
    pixel left over from before between two columns' frames, for two captures in a row: the
    line between the columns fits 1 px either side of it, and the cells on the side that took
    the pixel were learned with it in their border (their neighbours' border was sure). Such
    pictures later fitted a column cut 1 px short. A column's edge is sure only where its own
    cells show a border seen before there."""
    hidden, opened = button(10, HIDDEN_FILL), button(13, OPENED_FILL)
    relayout = Relayout.even(hidden, (2, 3), board([hidden] * 2, [hidden] * 2, [hidden] * 2))
    laid_out = board([opened, button(13, HIDDEN_FILL)], [hidden] * 2, [hidden] * 2, past=8)
    for _ in range(2):  # a capture is learned from once shown twice in a row
        relayout.follow(laid_out)
    assert relayout.starts[0].tolist() == [0, 13, 23, 33]
    known = len(relayout.pictures)
    stale = np.full((2 * SIDE, 1, 3), STALE, dtype=np.uint8)
    caught = np.concatenate([laid_out[:, :13], stale, laid_out[:, 13:-1]], axis=1)
    for _ in range(2):
        relayout.follow(caught)
    assert len(relayout.pictures) == known, "a cell cut with the stale pixel was learned"
