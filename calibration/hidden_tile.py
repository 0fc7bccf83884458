"""Finding the board on a fresh window: click the window's most common tiles until one changes.

The tile that changes when clicked is the hidden tile; with it, the lattice of the board and
where the first click opened cells are known (see :mod:`calibration.grid`). Nothing is clicked
before the window shows a lattice of tiles, and a click lands on a tile's plainest point, never
on the line between two.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import cv2
import numpy as np
import numpy.typing as npt

from calibration import waits
from calibration.dialogs import dialog_seen
from calibration.errors import CalibrationError
from calibration.grid import FRAME_SHARE, find_lattice
from calibration.pointer import Pointer
from calibration.view import settled
from vision.geometry import Rect
from vision.skin import Image
from vision.stable import Grabber

HIDDEN_CANDIDATES = 3
"""How many of a fresh board's most common tiles are clicked to find the hidden one, counted by
equal pixels and then again by likeness (:meth:`calibration.grid.Lattice.alike`)."""
EDGE_LEVELS = 24
"""Colour levels by which the pixels around one differ across a line or an edge (less: shading)."""
LOST_FIRST = (
    ": if it lost the game (a game with no safe first click may, and show every cell), start "
    "a new game there and calibrate again"
)
"""What to do when the first click may have lost the game."""
log = logging.getLogger(__name__)


def click_the_hidden_tile(
    pointer: Pointer, grabber: Grabber, window: Rect
) -> tuple[tuple[int, int], Image, Image]:
    """Click the most common tiles of the fresh board until one changes: that is the hidden
    tile (a game that opens a starting area by itself may show more opened cells than hidden
    ones). The most common by equal pixels are tried first, then by likeness.

    Returns the clicked point (window coordinates) and the window before and after.
    """
    # The pointer rests on the window's edge, off any board: a tile under it may be lit up.
    rest = (window.left + 1, window.top + window.height // 2)
    pointer.move(*rest)
    fresh = settled(grabber, window, None)  # a window just moved may still be redrawing
    lattice = find_lattice(fresh)
    log.debug(
        "window %s read: tiles of %dx%d px repeat in it; clicking the most common to find the "
        "hidden one",
        window,
        *lattice.pitch,
    )
    middle = np.array(lattice.hashes[0].shape) / 2

    def nearest_middle(cells: npt.NDArray[np.intp]) -> tuple[int, int]:
        # A game that opened cells by itself draws numbers beside them, and mines lie beside
        # numbers: a cell whose eight neighbours all show the same tile lies off them.
        inside = cells[[_surrounded(cells, cell) for cell in cells]]
        cells = inside if len(inside) else cells
        row, column = cells[np.argmin(((cells - middle) ** 2).sum(axis=1))]
        return int(row), int(column)

    def groups() -> Iterator[npt.NDArray[np.intp]]:
        for key in lattice.ranked[:HIDDEN_CANDIDATES]:
            yield np.argwhere(lattice.hashes[0] == key)
        # Then (found only if those fail) blocks alike within the grouping tolerance: a game
        # that draws its tiles over a picture showing through them has no two equal.
        yield from lattice.alike()[:HIDDEN_CANDIDATES]
        # Then by their middles: a game that draws an opened cell's frame over its neighbours
        # changes the hidden tiles beside a starting area it opened by itself.
        yield from lattice.alike(rim=-(-min(lattice.pitch) // FRAME_SHARE))[:HIDDEN_CANDIDATES]

    tried: list[tuple[int, int]] = []
    for cells in groups():
        if _border_like(cells, lattice.detail[0]):
            continue
        row, column = nearest_middle(cells)
        if (row, column) in tried:
            continue
        tried.append((row, column))
        left = lattice.phase[0] + int(column) * lattice.pitch[0]
        top = lattice.phase[1] + int(row) * lattice.pitch[1]
        block = Rect(window.left + left, window.top + top, *lattice.pitch)
        unclicked = grabber.grab(block)
        inside_x, inside_y = _plainest_point(unclicked)
        x, y = left + inside_x, top + inside_y
        point = (window.left + x, window.top + y)
        pointer.click(*point, "left")
        pointer.move(*rest)
        if not np.array_equal(settled(grabber, block, unclicked, waits.KEY_TIMEOUT), unclicked):
            log.debug("left-click at %s on a common tile: it changed, the hidden tile", point)
            return (x, y), fresh, settled(grabber, window, fresh)
        log.debug("left-click at %s on a common tile: nothing changed, not the hidden tile", point)
        fresh = grabber.grab(window)  # a click on a number may have opened cells
    dialog = dialog_seen(fresh, (window.left, window.top))
    raise CalibrationError(
        f"none of the {len(tried)} most common tiles in window {window} changed when "
        "clicked: is it a fresh Minesweeper game?" + ("" if dialog is None else f" ({dialog})")
    )


def _border_like(cells: npt.NDArray[np.intp], detail: npt.NDArray[np.bool_]) -> bool:
    """Whether blocks ``cells`` lie along a border rather than over an area, so that a point
    inside one may be off any board: they make one line (a toolbar, or a window's border
    beside the board), or they fill less than half their box and most of them touch a plain
    block or the capture's edge (a frame between the board and a plain window)."""
    if len(np.unique(cells[:, 0])) == 1 or len(np.unique(cells[:, 1])) == 1:
        return True
    padded = np.pad(detail, 1)
    rows, columns = cells[:, 0] + 1, cells[:, 1] + 1
    plain_beside = ~(
        padded[rows - 1, columns]
        & padded[rows + 1, columns]
        & padded[rows, columns - 1]
        & padded[rows, columns + 1]
    )
    height, width = (cells.max(axis=0) - cells.min(axis=0) + 1).tolist()
    return 2 * len(cells) < height * width and 2 * int(plain_beside.sum()) > len(cells)


def _surrounded(cells: npt.NDArray[np.intp], cell: npt.NDArray[np.intp]) -> bool:
    """Whether all eight neighbours of ``cell`` are among ``cells``."""
    near = np.abs(cells - cell).max(axis=1) == 1
    return int(near.sum()) == 8


def _plainest_point(block: Image) -> tuple[int, int]:
    """The point of ``block`` farthest from its edges and from any change of colour in it
    (nearest its middle among equals): a click there lands on a tile, not on the line between
    two. A fresh board of plain toolkit buttons repeats as well when cut through their middles,
    and the middle of such a block is a line that takes no click."""
    height, width = block.shape[:2]
    spread = cv2.morphologyEx(
        np.ascontiguousarray(block), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)
    )
    steady = (spread.max(axis=2) <= EDGE_LEVELS).astype(np.uint8)
    steady[[0, -1]] = steady[:, [0, -1]] = 0
    room = cv2.distanceTransform(steady, cv2.DIST_L2, 3)
    ys, xs = np.mgrid[0:height, 0:width]
    off_middle = np.hypot(xs - width // 2, ys - height // 2)
    y, x = np.unravel_index(np.argmax(room - off_middle / (height + width)), room.shape)
    return int(x), int(y)


def only_changes_around(before: Image, after: Image, point: tuple[int, int]) -> Image:
    """``before`` with just the changes connected to ``point`` taken from ``after``.

    A click changes a connected patch of cells around it; a counter ticking meanwhile elsewhere
    in the window must not count as a changed block when the cut is chosen.
    """
    changed = (before != after).any(axis=2).astype(np.uint8)
    if not changed.any():
        return before
    _, labels = cv2.connectedComponents(cv2.dilate(changed, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(changed)
    nearest = np.argmin((xs - point[0]) ** 2 + (ys - point[1]) ** 2)
    patch = (labels == labels[ys[nearest], xs[nearest]]) & changed.astype(bool)
    result = before.copy()
    result[patch] = after[patch]
    return result
