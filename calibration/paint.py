"""What a click paints over the pictures of the cells around it, besides opening cells: the
bands a number drawn larger than its cell paints over its neighbours (:func:`unpainted_box`),
and a focus ring a game draws around the cell clicked (:func:`ring_pixels`, :func:`hit_ring`).
Calibration leaves those pixels out when it compares a cell's pictures, so that a neighbour's
paint or a ring is not taken for a new appearance."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from solver import Cell

MAX_PAINTED = 1 / 3
"""The deepest band along a side of a cell's picture that a neighbour may paint over (see
:func:`unpainted_box`), as a share of the picture."""
PAINT_LEVELS = 96
"""Levels by which a pixel must change to count as painted over: a digit's colour, not the soft
shade an opened cell casts on its neighbours (up to 41 levels) nor antialiasing."""
PAINT_MARGIN = 2
"""Lines left out past the deepest band painted over: another digit may reach a little further."""
MAX_RING = 1 / 4
"""The deepest frame inside a cell's picture a focus ring may take, as a share of the picture
(see :func:`ring_pixels`)."""
RING_LEVELS = 48
"""Levels by which a pixel must change to count as a ring's: a ring's line stands out from the
button it is drawn on; the soft shade a hidden button casts on an opened cell beside it, which
leaves when that neighbour opens, does not (15 levels, 4 px deep, in one toolkit)."""
RING_LINE = 3
"""Changed pixels in one line of a cell's picture that make that line a line of a ring: a
dotted ring changes every other pixel of it."""


def unpainted_box(
    before: npt.NDArray[np.uint8], after: npt.NDArray[np.uint8], box: tuple[int, int, int, int]
) -> tuple[int, int, int, int]:
    """``box`` (x, y, width, height in a cell's picture) without the bands a click painted
    over: ``before`` and ``after`` are every cell's picture (rows, columns, height, width, 3)
    around the click.

    A game may draw a cell's number larger than the cell (large digits in 20-px cells reach a
    few pixels into the cell below), so the cells beside one that opens change in a band along
    the side facing it, hidden or opened, and a tile shows in several pictures there. A band
    counts when a cell changed only within :data:`MAX_PAINTED` of its side facing a neighbour
    that changed beyond such bands (opened); the box then ends :data:`PAINT_MARGIN` lines past
    the deepest band on each side. Changes outside ``box`` (lines between cells, which a game
    may redraw when a game ends) do not count.
    """
    height, width = before.shape[2:4]
    x, y, box_width, box_height = box
    inside = np.s_[y : y + box_height, x : x + box_width]  # lines left out already do not count
    touched = (before[:, :, *inside] != after[:, :, *inside]).any(axis=(2, 3, 4)).nonzero()
    difference = np.abs(before[touched][:, *inside].astype(np.int16) - after[touched][:, *inside])
    changed = difference.max(axis=-1) > PAINT_LEVELS  # (cells touched, box height, box width)
    spans: dict[tuple[int, int], tuple[int, int, int, int]] = {}  # top, bottom, left, right
    for (row, column), pixels in zip(zip(*touched, strict=True), changed, strict=True):
        rows, columns = np.flatnonzero(pixels.any(axis=1)), np.flatnonzero(pixels.any(axis=0))
        if rows.size:
            top, bottom = y + int(rows[0]), y + int(rows[-1]) + 1
            spans[int(row), int(column)] = (
                top,
                bottom,
                x + int(columns[0]),
                x + int(columns[-1]) + 1,
            )
    deep_rows, deep_columns = MAX_PAINTED * height, MAX_PAINTED * width
    opened = {
        cell
        for cell, (top, bottom, left, right) in spans.items()
        if bottom - top > deep_rows and right - left > deep_columns
    }
    left_edge, top_edge, right_edge, bottom_edge = x, y, x + box_width, y + box_height
    for (row, column), (top, bottom, left, right) in spans.items():
        if (row - 1, column) in opened and bottom <= deep_rows:
            top_edge = max(top_edge, bottom + PAINT_MARGIN)
        if (row + 1, column) in opened and top >= height - deep_rows:
            bottom_edge = min(bottom_edge, top - PAINT_MARGIN)
        if (row, column - 1) in opened and right <= deep_columns:
            left_edge = max(left_edge, right + PAINT_MARGIN)
        if (row, column + 1) in opened and left >= width - deep_columns:
            right_edge = min(right_edge, left - PAINT_MARGIN)
    if 2 * (right_edge - left_edge) < width or 2 * (bottom_edge - top_edge) < height:
        return box  # too little left to tell tiles apart by: the game is not understood
    return left_edge, top_edge, right_edge - left_edge, bottom_edge - top_edge


def ring_pixels(
    before: npt.NDArray[np.uint8],
    after: npt.NDArray[np.uint8],
    opened_before: npt.NDArray[np.bool_],
    clicked: Cell,
    box: tuple[int, int, int, int],
) -> npt.NDArray[np.bool_] | None:
    """The pixels of a cell's picture where a focus ring moved off a cell that showed an opened
    tile (``opened_before``, rows x columns) and was not ``clicked``, between ``before`` and
    ``after`` (every cell's picture: rows, columns, height, width, 3); None if none did.

    A game whose cells are toolkit buttons draws a ring, often dotted, just
    inside the edges of the button clicked last: a tile shows with it and without it. A cell
    counts when it changed only within a frame (see :func:`_frame_ring`); changes outside
    ``box`` (lines between cells, which a game may redraw when a game ends) do not count. A ring
    leaves one cell: frames that changed on several (a game redrawing its buttons on a loss) are
    none."""
    x, y, width, height = box
    inside = np.s_[y : y + height, x : x + width]
    ring = None
    candidates = opened_before & (before[:, :, *inside] != after[:, :, *inside]).any(axis=(2, 3, 4))
    candidates[clicked] = False
    for row, column in np.argwhere(candidates):
        found = _frame_ring(before[row, column], after[row, column], box)
        if found is None:
            continue
        if ring is not None:  # a second cell: no ring
            return None
        ring = found
    return ring


def hit_ring(
    after: npt.NDArray[np.uint8],
    uncovered: npt.NDArray[np.bool_],
    clicked: Cell,
    classes: npt.NDArray[np.uint8],
    box: tuple[int, int, int, int],
) -> npt.NDArray[np.bool_] | None:
    """The pixels of a cell's picture where the ``clicked`` cell differs from another cell the
    same click ``uncovered`` (rows x columns), of its size class (``classes``), by a focus ring
    alone (see :func:`_frame_ring`); None if it differs from none so. ``after``: every cell's
    picture after the click.

    A game of toolkit buttons may draw every mine of a loss as the one hit, and the hit, its
    button sunken, with its focus ring deeper inside than on a number: no ring moves off an opened
    cell there, and the hit would otherwise look unlike the mines it uncovered whenever the focus is
    on it."""
    same = uncovered & (classes == classes[clicked])
    same[clicked] = False
    for row, column in np.argwhere(same):
        ring = _frame_ring(after[row, column], after[clicked], box)
        if ring is not None:
            return ring
    return None


def _frame_ring(
    first: npt.NDArray[np.uint8], second: npt.NDArray[np.uint8], box: tuple[int, int, int, int]
) -> npt.NDArray[np.bool_] | None:
    """Where two pictures of a cell differ (by more than :data:`RING_LEVELS`), as a ring: None
    unless, within ``box`` (x, y, width, height: the part compared), they differ only within a
    frame no deeper than
    :data:`MAX_RING` of it, on all four sides. The pixels are those that differ, with each
    line of the frame that holds :data:`RING_LINE` of them filled from end to end (a dotted
    ring's gaps)."""
    x, y, width, height = box
    inside = np.s_[y : y + height, x : x + width]
    difference = np.abs(first[inside].astype(np.int16) - second[inside])
    changed = difference.max(axis=2) > RING_LEVELS
    ys, xs = np.nonzero(changed)
    if not len(ys):
        return None
    insets = np.minimum(np.minimum(ys, height - 1 - ys), np.minimum(xs, width - 1 - xs))
    depth = int(insets.max())
    sides = (
        (ys <= depth).any(),
        (ys >= height - 1 - depth).any(),
        (xs <= depth).any(),
        (xs >= width - 1 - depth).any(),
    )
    if depth > MAX_RING * min(height, width) or not all(sides):
        return None
    ring = np.zeros(first.shape[:2], dtype=bool)
    ring[inside] = changed
    top, bottom, left, right = y + ys.min(), y + ys.max() + 1, x + xs.min(), x + xs.max() + 1
    for line in np.flatnonzero(changed.sum(axis=1) >= RING_LINE):
        ring[y + line, left:right] = True
    for line in np.flatnonzero(changed.sum(axis=0) >= RING_LINE):
        ring[top:bottom, x + line] = True
    return ring
