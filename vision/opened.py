"""Cells beside an opened 0 are opened: every game opens the neighbours of a 0 by itself.

A cell that matches one of an opened cell's pictures but lies too near a closed tile's to tell
(an opened 0 drawn half-transparent over an edge of a background picture, where a 16-px 0
differs from the hidden tile only by a thin bevel) is read among the opened tiles alone when a
0 is beside it. The reader and :func:`vision.locate.locate` both use it; neither loosens a match,
they only take away the candidates the game's rule excludes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from solver import Cell, Tile
from solver.engine import neighbour_counts

Mask = npt.NDArray[np.bool_]
Cells = npt.NDArray[np.intp]
"""(n, 2): rows and columns of cells."""
JudgeOpened = Callable[[Cells], tuple[Mask, Mask]]
"""Judges ``cells`` among the opened tiles alone: per cell, whether one matches for sure, and
whether that one is the 0."""

OPENED_TILES = np.array([Tile(value).is_opened for value in range(max(Tile) + 1)])
"""By tile value: the tiles an opened cell shows (a number, or one not known yet)."""


def opened_beside_zeros(accepted: Mask, zeros: Mask, judge: JudgeOpened) -> Mask:
    """``accepted`` (rows, columns) with each refused cell beside one of ``zeros`` (cells
    accepted as a 0) that ``judge`` reads for sure; a cell it reads as a 0 does the same for its
    own neighbours in turn. Each cell is judged at most once."""
    accepted, zeros = accepted.copy(), zeros.copy()
    tried = np.zeros_like(accepted)
    while True:
        cells = np.argwhere((neighbour_counts(zeros) > 0) & ~accepted & ~tried)
        if not len(cells):
            return accepted
        rows, columns = cells.T
        tried[rows, columns] = True
        sure, zero = judge(cells)
        accepted[rows[sure], columns[sure]] = True
        zeros[rows[sure & zero], columns[sure & zero]] = True


def opened_beside_a_zero(tiles: npt.NDArray[np.uint8], cell: Cell) -> bool:
    """Whether ``cell`` of a read board (``tiles``) shows an opened tile with a 0 beside it: a
    check of that cell alone judges it among the opened tiles, as the read may have."""
    row, column = cell
    around = tiles[max(row - 1, 0) : row + 2, max(column - 1, 0) : column + 2] == Tile.ZERO
    return bool(OPENED_TILES[tiles[cell]]) and int(around.sum()) > int(tiles[cell] == Tile.ZERO)
