"""A board's extent on a lattice of blocks: its hidden cells, and the cells a game opened itself.

A fresh board is not always all hidden: some games open a 0 and its flood by themselves on every
new game, out to the board's edge, and some draw each opened cell's frame a few pixels past it,
over the hidden cells beside it. So:

- a block is hidden when it is the hidden tile within the grouping tolerance, or when it is so
  but for the rim of its sides that face no hidden block (a frame drawn over it from an opened
  neighbour), one of its sides facing a hidden block: the rim toward the board's outside is then
  still compared, and a window's border beside the board is no hidden cell;
- an edge row or column beside the box is more of the board when its blocks are pictures the
  box shows (within the tolerance), or all detailed and not all alike, some shown in the box (a
  window's frame beside a board repeats one picture, or is plain; menus and counters share no
  picture with it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from vision.match import TemplateBank
from vision.skin import MAX_SLACK, Image

if TYPE_CHECKING:
    from calibration.grid import Grid, Lattice

Box = tuple[int, int, int, int]
"""Rows top to bottom (exclusive), then columns left to right (exclusive), in blocks."""
STRONG_SHARE = 0.9
"""A place where the lines differ across this share of the strongest's pixels is as strong."""
EDGE_SHARE = 0.5
"""Two lines that differ across this share of their pixels are an edge however strong others
are."""
SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""The neighbours across the top, bottom, left and right sides of a block, as (row, column)."""


def hidden_blocks(
    lattice: Lattice, picture: Image, tolerance: float, rim: int
) -> npt.NDArray[np.bool_]:
    """Which blocks are hidden cells in some frame of ``lattice`` (see the module's text)."""
    found = [
        _hidden_in(lattice.blocks(index), detail, picture, tolerance, rim)
        for index, detail in enumerate(lattice.detail)
    ]
    return np.asarray(np.logical_or.reduce(found), dtype=bool)


def _hidden_in(
    blocks: npt.NDArray[np.uint8],
    detail: npt.NDArray[np.bool_],
    picture: Image,
    tolerance: float,
    rim: int,
) -> npt.NDArray[np.bool_]:
    """The hidden blocks of one frame: the tile itself, then, spreading from them, the tile
    but for the rim of the sides facing no hidden block."""
    hidden = (TemplateBank([0], [picture]).distances(blocks)[..., 0] <= tolerance) & detail
    banks: dict[tuple[bool, ...], TemplateBank[int]] = {}
    rows, columns = hidden.shape
    grown = True
    while grown:
        grown = False
        for row, column in np.argwhere(detail & ~hidden):
            facing = tuple(
                0 <= row + dy < rows
                and 0 <= column + dx < columns
                and hidden[row + dy, column + dx]
                for dy, dx in SIDES
            )
            if not any(facing):
                continue
            if facing not in banks:
                banks[facing] = TemplateBank([0], [picture], mask=_rim_mask(picture, facing, rim))
            if banks[facing].distances(blocks[row, column])[0] <= tolerance:
                hidden[row, column] = grown = True
    return hidden


def _rim_mask(picture: Image, facing: tuple[bool, ...], rim: int) -> npt.NDArray[np.bool_]:
    """The pixels of ``picture`` compared: all but the rim along each side not ``facing`` a
    hidden block."""
    mask = np.ones(picture.shape[:2], dtype=bool)
    top, bottom, left, right = facing
    if not top:
        mask[:rim] = False
    if not bottom:
        mask[-rim:] = False
    if not left:
        mask[:, :rim] = False
    if not right:
        mask[:, -rim:] = False
    return mask


def grown_box(lattice: Lattice, box: Box, tolerance: float, rim: int) -> Box:
    """``box`` grown over the edge rows and columns beside it that are more of the board."""
    top, bottom, left, right = box
    rows, columns = lattice.hashes[0].shape
    grown = True
    while grown:
        grown = False
        for side, strip in enumerate(
            (
                (top - 1, top, left, right),
                (bottom, bottom + 1, left, right),
                (top, bottom, left - 1, left),
                (top, bottom, right, right + 1),
            )
        ):
            r0, r1, c0, c1 = strip
            if r0 < 0 or c0 < 0 or r1 > rows or c1 > columns:
                continue
            facing = tuple(each != side for each in range(len(SIDES)))
            if looks_like_cells(
                lattice, strip, (top, bottom, left, right), tolerance, (facing, rim)
            ):
                top, bottom = min(top, r0), max(bottom, r1)
                left, right = min(left, c0), max(right, c1)
                grown = True
    return top, bottom, left, right


def looks_like_cells(
    lattice: Lattice,
    strip: Box,
    box: Box,
    tolerance: float,
    outer: tuple[tuple[bool, ...], int],
) -> bool:
    """Whether a row or column of blocks next to the board is more of the board (see the
    module's text), in every frame. Its blocks are compared with the box's but for the rim
    along their ``outer`` side (the sides kept, and the rim's depth): the frames of opened
    cells drawn over their neighbours reach no further into an edge cell from outside."""
    (r0, r1, c0, c1), (top, bottom, left, right) = strip, box
    for index, detail in enumerate(lattice.detail):
        blocks = lattice.blocks(index)
        inside = blocks[top:bottom, left:right].reshape(-1, *blocks.shape[2:])
        line = np.ascontiguousarray(blocks[r0:r1, c0:c1].reshape(-1, *blocks.shape[2:]))
        mask = _rim_mask(line[0], *outer)
        shown = _nearest(inside, line, mask) <= tolerance
        if shown.all():
            continue
        alike = TemplateBank([0], [line[0]]).distances(line)[:, 0] <= tolerance
        varied = bool(detail[r0:r1, c0:c1].all()) and not alike.all()
        if not (varied and shown.any()):
            return False
    return True


def _nearest(
    pictures: npt.NDArray[np.uint8], patches: npt.NDArray[np.uint8], mask: npt.NDArray[np.bool_]
) -> npt.NDArray[np.float32]:
    """Per patch, its distance to the nearest of ``pictures`` over the pixels of ``mask``."""
    _, first = np.unique(pictures.reshape(len(pictures), -1), axis=0, return_index=True)
    looks = [np.ascontiguousarray(pictures[index]) for index in first]
    distances = TemplateBank(range(len(looks)), looks, mask=mask).distances(patches)
    return np.asarray(distances.min(axis=1), dtype=np.float32)


def extended_edges(
    walked: tuple[int, tuple[int, ...]],
    box: tuple[int, int],
    pitch: int,
    lines: npt.NDArray[np.uint8],
) -> tuple[int, tuple[int, ...]] | None:
    """Along one axis, the cells an edge walk found (its first cell's start and its edges, as
    :data:`vision.geometry.Edges` holds them) with the cells past them that the box of the even
    cut (start, end) takes in: whole rows or columns a game opened by itself stop the walk,
    which goes over hidden cells only. Returns the new start and edges, or None where the box
    adds no cell. ``lines`` are the capture's pixel lines across the axis, each over the board's
    span the other way: the board's outer edge is where they change across the most pixels
    (the board's frame), where the cells past the walked ones are from the pitch to the slack
    wider; the pixels past the walked cells are shared out, the outermost cells the wider (as
    a grid stretched to its window does with its first cells)."""
    start, edges = walked
    end = start + edges[-1]
    before = max(0, round((start - box[0]) / pitch))
    after = max(0, round((box[1] - end) / pitch))
    if not before and not after:
        return None
    changed = (lines[1:] != lines[:-1]).any(axis=2).mean(axis=1)  # changed[i]: lines i, i + 1
    sizes = [int(each) for each in np.diff(edges)]
    if before:
        outer = _frame_line(
            changed, range(start - before * pitch, start - before * (pitch + MAX_SLACK) - 1, -1)
        )
        sizes = _shared(start - outer, before) + sizes
        start = outer
    if after:
        outer = _frame_line(
            changed, range(end + after * pitch, end + after * (pitch + MAX_SLACK) + 1)
        )
        sizes += _shared(outer - end, after)[::-1]
    if min(sizes) < pitch - MAX_SLACK or max(sizes) > pitch + MAX_SLACK:
        return None
    return start, tuple(int(each) for each in np.r_[0, np.cumsum(sizes)])


def _frame_line(changed: npt.NDArray[np.float64], places: range) -> int:
    """Of ``places`` (where the board's outer edge may lie: its cells past the walked ones
    no narrower than the pitch, nor wider than the slack allows; the first place, where they
    are pitch-sized, first), the first between two lines that differ across nearly the most
    pixels (:data:`STRONG_SHARE`), or across :data:`EDGE_SHARE` of them: a frame an opened
    cell draws past its edge draws a line as strong a few pixels out."""
    inside = [at for at in places if 1 <= at <= len(changed)]
    if not inside:
        return places[0]
    strongest = max(float(changed[at - 1]) for at in inside)
    strong = min(STRONG_SHARE * strongest, EDGE_SHARE)
    return next(at for at in inside if changed[at - 1] >= strong)


def _shared(span: int, cells: int) -> list[int]:
    """``span`` pixels shared out among ``cells`` cells, the first ones the wider."""
    size, wider = divmod(span, cells)
    return [size + 1] * wider + [size] * (cells - wider)


def in_phase(grid: Grid, other: Grid) -> bool:
    """Whether ``grid``'s first cell starts on ``other``'s cut."""
    return all(
        (a - b) % pitch == 0
        for a, b, pitch in zip(grid.origin, other.origin, other.pitch, strict=True)
    )


def covers(grid: Grid, other: Grid) -> bool:
    """Whether ``grid``'s cells span every pixel of ``other``'s but for less than a cell."""
    return all(
        start <= other_start + pitch and start + size >= other_start + other_size - pitch
        for start, size, other_start, other_size, pitch in zip(
            grid.origin, grid.size, other.origin, other.size, other.pitch, strict=True
        )
    )
