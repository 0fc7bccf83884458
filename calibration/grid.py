"""Finding a board's grid in a capture with no skin: the repeating tile of a fresh game.

A fresh board is one small picture (the hidden tile) repeated rows x columns times, so:

1. *Pitch*: the shift along x (and along y) under which the most detailed pixels (those that
   differ from a neighbour) land on an identical pixel. Plain areas are ignored: they repeat under
   every shift and so say nothing.
2. *Phase*: of the pitch-sized blocks the capture can be cut into, the cut that shows the most
   identical detailed blocks is the one aligned with the cells: any other cut straddles the
   board's edges and loses a row and a column of them. After a click, the cut in which the
   fewest blocks changed is surer (see :func:`find_lattice`).
3. *Extent*: the bounding box of the blocks showing the hidden tile (which one that is, a click
   tells: see :mod:`calibration.hidden_tile`), grown over opened edge rows
   (:mod:`calibration.extent`: a game may open cells by itself on each new game).
4. *Uneven cells*: some games (a grid stretched to its window) make the first cells a pixel
   wider than the rest, so one pitch fits only part of the board. From one hidden cell the cell
   edges are walked out along its row and its column, each next cell being the size (the pitch give
   or take :data:`vision.skin.MAX_SLACK`) that shows the hidden tile (see
   :class:`vision.geometry.Spacing` for how a wide cell is cut to the pitch).

Pitch and phase use exact pixel equality (most of a game's hidden tiles repeat bit for bit); the
extent takes every block near the hidden tile, since some games draw it in slight variants.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, partial

import numpy as np
import numpy.typing as npt

from calibration.catalogue import GROUPING_TOLERANCE
from calibration.errors import GridNotFoundError
from calibration.extent import covers, extended_edges, grown_box, hidden_blocks, in_phase
from calibration.pitch import (
    MIN_PITCH,
    block_hash_map,
    changed_blocks,
    changed_pixels,
    cut_at,
    find_pitch,
    middle_phase,
    packed_pixels,
)
from vision.geometry import Edges, Spacing, cell_images, size_classes
from vision.locate import walk_edges
from vision.match import TemplateBank, tile_lattice
from vision.skin import MAX_SLACK, Image

MIN_HIDDEN_CELLS = 8
FRAME_SHARE = 6
"""A click may redraw pixels up to this fraction of a cell (1 / FRAME_SHARE) past the cell it
changed: a toolkit button's frame or shadow drawn over its neighbours' edges (3 to 4 px of 38
seen)."""
MIN_CUT_STRIP = 3
"""Pixels of a cell a capture's edge must show for :meth:`Grid.cut_sides` to tell it is one."""


@dataclass(frozen=True)
class Grid:
    """A board's grid inside a capture: ``origin`` is cell (0, 0)'s top-left pixel (x, y).

    Cells are ``pitch`` pixels apart unless ``edges`` says where each starts (a board whose
    cells differ in size; each is then cut to a ``pitch``-sized picture, see
    :class:`vision.geometry.Spacing`).
    """

    origin: tuple[int, int]
    pitch: tuple[int, int]
    rows: int
    columns: int
    hidden: Image
    """The hidden tile: the pitch-sized block that fills a fresh board."""
    edges: Edges | None = None

    @cached_property
    def spacing(self) -> tuple[Spacing, Spacing]:
        """The cells along x and along y."""
        if self.edges is None:
            return Spacing.even(self.pitch[0], self.columns), Spacing.even(self.pitch[1], self.rows)
        return Spacing(self.edges[0], self.pitch[0]), Spacing(self.edges[1], self.pitch[1])

    @cached_property
    def size_classes(self) -> npt.NDArray[np.uint8]:
        """(rows, columns): each cell's size class (see :func:`vision.geometry.size_classes`)."""
        return size_classes(*self.spacing)

    @property
    def size(self) -> tuple[int, int]:
        """The board's width and height in pixels."""
        return self.spacing[0].length, self.spacing[1].length

    @property
    def slack(self) -> tuple[int, int]:
        """How many pixels wider than the pitch the widest cell is, along x and along y."""
        return tuple(  # type: ignore[return-value]
            max(b - a for a, b in zip(axis.starts, axis.starts[1:], strict=False)) - axis.cut
            for axis in self.spacing
        )

    def cell_centre(self, row: int, column: int) -> tuple[int, int]:
        """The (x, y) pixel in the middle of a cell, relative to the capture."""
        (along_x, along_y), (x, y) = self.spacing, self.origin
        return (
            x + (along_x.starts[column] + along_x.starts[column + 1]) // 2,
            y + (along_y.starts[row] + along_y.starts[row + 1]) // 2,
        )

    def cell_at(self, x: int, y: int) -> tuple[int, int]:
        """The (row, column) of the cell holding pixel (x, y) of the capture."""
        (along_x, along_y), (left, top) = self.spacing, self.origin
        row, column = along_y.cell_of(y - top), along_x.cell_of(x - left)
        if row is None or column is None:
            raise GridNotFoundError(f"pixel ({x}, {y}) is outside the board at {self.origin}")
        return row, column

    def pictures(self, frame: Image, at: tuple[int, int] | None = None) -> npt.NDArray[np.uint8]:
        """(rows, columns, pitch y, pitch x, 3): every cell's picture in ``frame``, whose pixel
        ``at`` (default: :attr:`origin`) is the first cell's top-left corner."""
        return cell_images(frame, at or self.origin, self.spacing, (0, 0), self.pitch)

    def cut_sides(self, fresh: Image, tolerance: float = GROUPING_TOLERANCE) -> list[str]:
        """The sides ("left", "right", "top", "bottom") where the edge of ``fresh`` (the capture
        of a fresh board the grid was found in) cuts the board: a region drawn too small, or a
        window shrunk below its board, hides the rest, and a board read in part is misread.

        A side is cut when the board's outermost cells there reach the edge and are narrower
        than every other cell (a part of a cell, taken for a cell), or when the strip narrower
        than a cell between the board and the edge shows, along most of the side, the part of
        the hidden tile that fits there.
        """
        height, width = fresh.shape[:2]
        (left, top), (board_width, board_height) = self.origin, self.size
        right, bottom = left + board_width, top + board_height
        (cut_x, cut_y), hidden = self.pitch, self.hidden
        sides = {  # the gap, where a strip along the side starts, the axis across it, the part
            "left": (left, (0, top), 0, 0, hidden[:, cut_x - left :]),
            "right": (width - right, (right, top), 0, -1, hidden[:, : width - right]),
            "top": (top, (left, 0), 1, 0, hidden[cut_y - top :]),
            "bottom": (height - bottom, (left, bottom), 1, -1, hidden[: height - bottom]),
        }
        found = []
        for side, (gap, start, axis, outermost, part) in sides.items():
            sizes = list(np.diff(self.spacing[axis].starts))
            if gap < MIN_CUT_STRIP:
                outer = sizes.pop(outermost)
                if sizes and outer < min(sizes):
                    found.append(side)
                continue
            if gap >= min(sizes) or np.ptp(part) == 0:
                continue  # room for a whole cell, or a plain strip that any background matches
            strip, along = Spacing.even(gap, 1), self.spacing[1 - axis]
            if axis == 0:
                strips = cell_images(fresh, start, (strip, along), (0, 0), (gap, cut_y))
            else:
                strips = cell_images(fresh, start, (along, strip), (0, 0), (cut_x, gap))
            near = TemplateBank([0], [np.ascontiguousarray(part)]).distances(strips) <= tolerance
            if 2 * int(near.sum()) > near.size:
                found.append(side)
        return found


@dataclass(frozen=True)
class Lattice:
    """The captures cut into pitch-sized blocks at the phase aligned with the cells."""

    phase: tuple[int, int]
    pitch: tuple[int, int]
    frames: tuple[Image, ...]
    hashes: tuple[npt.NDArray[np.int64], ...]
    """Per frame, one hash per block (equal blocks, equal hashes)."""
    detail: tuple[npt.NDArray[np.bool_], ...]
    """Per frame, which blocks are not one plain colour."""
    ranked: tuple[int, ...]
    """Hashes of detailed blocks, the most frequent first: the hidden tile is among the first."""

    def cell_of(self, x: int, y: int) -> tuple[int, int]:
        """The lattice (row, column) holding capture pixel (x, y)."""
        return (y - self.phase[1]) // self.pitch[1], (x - self.phase[0]) // self.pitch[0]

    def hash_at(self, frame: int, x: int, y: int) -> int:
        """The hash of the block holding pixel (x, y) in frame number ``frame``."""
        return int(self.hashes[frame][self.cell_of(x, y)])

    def grid(self, hidden: int, tolerance: float = GROUPING_TOLERANCE) -> Grid:
        """The board whose hidden tile has hash ``hidden``: the box of every cell hidden in some
        frame (within ``tolerance`` of that picture, as calibration groups appearances), grown
        over edge rows and columns that look like opened cells (a starting area the game
        opened by itself along an edge); see :mod:`calibration.extent`."""
        index = next((i for i, hashes in enumerate(self.hashes) if (hashes == hidden).any()), None)
        if index is None:
            raise GridNotFoundError("no hidden tile in the captures (is the game fresh?)")
        # The hidden block whose row and column hold the most hidden blocks: the edge walk of
        # an uneven board (below) goes out from it along them, and stops at opened cells.
        shown = self.hashes[index] == hidden
        found = np.argwhere(shown)
        counts = shown.sum(axis=1)[found[:, 0]] + shown.sum(axis=0)[found[:, 1]]
        row, column = found[int(np.argmax(counts))]
        if not self.detail[index][row, column]:
            raise GridNotFoundError(
                f"the hidden tile ({self.pitch[0]}x{self.pitch[1]} px) is one plain colour: its "
                "cells cannot be told from each other or from a plain window around them"
            )
        picture = np.array(self.blocks(index)[row, column])
        rim = -(-min(self.pitch) // FRAME_SHARE)
        rows, columns = np.nonzero(hidden_blocks(self, picture, tolerance, rim))
        top, left = int(rows.min()), int(columns.min())
        bottom, right = int(rows.max()) + 1, int(columns.max()) + 1
        top, bottom, left, right = grown_box(self, (top, bottom, left, right), tolerance, rim)
        origin = (self.phase[0] + left * self.pitch[0], self.phase[1] + top * self.pitch[1])
        seed = (self.phase[0] + column * self.pitch[0], self.phase[1] + row * self.pitch[1])
        even = Grid(origin, self.pitch, bottom - top, right - left, picture)
        uneven = self._uneven_grid(self.frames[index], seed, tolerance, keep_even=True)
        if uneven is not None and uneven.slack == (0, 0) and not in_phase(uneven, even):
            uneven = None  # pitch-sized cells off the cut: a walk over flat tiles fits any cut
        if uneven is not None and not covers(uneven, even):
            # A walk stopped short by opened cells (a game that opens an area by itself) found
            # only part of the board: the even cut's extent says how many cells lie past it,
            # and those may be the wider ones.
            uneven = _extended(uneven, even, self.frames[index])
        if uneven is None or not covers(uneven, even) or uneven.slack == (0, 0):
            return even
        return uneven

    def _uneven_grid(
        self, frame: Image, seed: tuple[int, int], tolerance: float, keep_even: bool = False
    ) -> Grid | None:
        """The board walked out cell by cell from the hidden cell at ``seed`` (its top-left
        pixel) along its row and its column, or None when every cell found is pitch-sized
        (then the cut's own extent, which also crosses opened cells, is the better one) unless
        ``keep_even``."""
        pitch = self.pitch
        corner = list(seed)
        edges = []
        for axis in (0, 1):
            # The seed block may be off its cell by up to half a cell and the slack (see
            # _middle), or lie on a wider cell: of the cells of each size near it, the one from
            # which the most cells are found is a cell.
            sizes = range(max(MIN_PITCH, pitch[axis] - MAX_SLACK), pitch[axis] + MAX_SLACK + 1)
            reach = (pitch[axis] + MAX_SLACK) // 2 + 1
            line = _CellLine(frame, seed, pitch, axis, reach)
            walks = []
            for shift in sorted(range(-reach, reach + 1), key=abs):
                start = seed[axis] + shift
                for size in sizes:
                    fits = partial(line.distance, (start, size))
                    walk = walk_edges(fits, (start, start + size), sizes, tolerance)
                    cells = zip(walk, np.diff(walk), strict=False)
                    walks.append((walk, sum(fits(int(a), int(b)) for a, b in cells)))
            # Most cells, then the most alike in size (a block half off may end on a sliver),
            # then the most alike in picture: flat tiles fit any cut across the gaps between
            # them, but the board's edge shows the cut that puts a whole gap in every cell.
            found = min(walks, key=lambda each: (-len(each[0]), np.ptp(np.diff(each[0])), each[1]))[
                0
            ]
            edges.append(tuple(int(edge - found[0]) for edge in found))
            corner[axis] = int(found[0])
        sizes_x, sizes_y = (np.diff(axis) for axis in edges)
        if (sizes_x == pitch[0]).all() and (sizes_y == pitch[1]).all() and not keep_even:
            return None
        if np.ptp(sizes_x) > MAX_SLACK or np.ptp(sizes_y) > MAX_SLACK:
            return None
        cut = (int(sizes_x.min()), int(sizes_y.min()))
        spacing = (Spacing(edges[0], cut[0]), Spacing(edges[1], cut[1]))
        row = spacing[1].cell_of(seed[1] + pitch[1] // 2 - corner[1])
        column = spacing[0].cell_of(seed[0] + pitch[0] // 2 - corner[0])
        if row is None or column is None:
            return None
        pictures = cell_images(frame, (corner[0], corner[1]), spacing, (0, 0), cut)
        hidden = np.ascontiguousarray(pictures[row, column])
        return Grid(
            (corner[0], corner[1]), cut, len(sizes_y), len(sizes_x), hidden, (edges[0], edges[1])
        )

    def alike(
        self, tolerance: float = GROUPING_TOLERANCE, rim: int = 0
    ) -> list[npt.NDArray[np.intp]]:
        """The detailed blocks of the first frame grouped by distance, the largest group first,
        each as (row, column) pairs. A game that draws its tiles over a picture showing through
        them has no two hidden tiles equal pixel for pixel, so the
        most frequent blocks (:attr:`ranked`) are a toolbar's, not its board's. With ``rim``,
        that many pixels along each side are left out (frames drawn past opened cells over
        their neighbours)."""
        blocks = self.blocks(0)
        rows, columns = blocks.shape[:2]
        detailed = np.flatnonzero(self.detail[0].ravel())
        if not detailed.size:
            return []
        pictures = np.ascontiguousarray(blocks.reshape(rows * columns, *blocks.shape[2:])[detailed])
        middle = None
        if rim:
            middle = np.zeros(self.pitch[::-1], dtype=bool)
            middle[rim:-rim, rim:-rim] = True
        bank = TemplateBank(range(len(pictures)), list(pictures), mask=middle)
        near = bank.distances(pictures) <= tolerance
        left = np.ones(len(pictures), dtype=bool)
        groups = []
        while left.any():
            counts = np.where(left, (near & left).sum(axis=1), -1)
            members = np.flatnonzero(near[int(np.argmax(counts))] & left)
            groups.append(np.column_stack(np.unravel_index(detailed[members], (rows, columns))))
            left[members] = False
        return groups

    def blocks(self, frame: int) -> npt.NDArray[np.uint8]:
        """The pitch-sized blocks of frame number ``frame`` at this cut, as a lattice view."""
        shape = self.hashes[frame].shape
        return tile_lattice(self.frames[frame], self.phase, self.pitch, self.pitch, shape)


def _extended(uneven: Grid, even: Grid, frame: Image) -> Grid | None:
    """``uneven`` with the rows and columns past it that ``even`` holds (see
    :func:`calibration.extent.extended_edges`), or None if it cannot be so extended."""
    assert uneven.edges is not None
    found = []
    for axis in (0, 1):
        start, size = uneven.origin[1 - axis], uneven.size[1 - axis]
        across = frame[:, start : start + size] if axis == 1 else frame[start : start + size]
        lines = across if axis == 1 else across.swapaxes(0, 1)
        walked = (uneven.origin[axis], uneven.edges[axis])
        box = (even.origin[axis], even.origin[axis] + even.size[axis])
        found.append(extended_edges(walked, box, even.pitch[axis], lines) or walked)
    (left, columns), (top, rows) = found
    if min(np.diff(columns)) < uneven.pitch[0] or min(np.diff(rows)) < uneven.pitch[1]:
        return None
    return Grid(
        (left, top), uneven.pitch, len(rows) - 1, len(columns) - 1, uneven.hidden, (columns, rows)
    )


class _CellLine:
    """The row (``axis`` 0) or column (1) of pitch-sized blocks through the block at ``seed``,
    ready to tell how far apart two cells of any starts and sizes are (one within ``reach``
    pixels of the seed): the distance of :class:`vision.match.TemplateBank` between both cut
    to the smaller size, as :class:`vision.geometry.Spacing` cuts cells.

    The edge walk asks this thousands of times, so the squared differences of every pixel line
    across the axis with every line near the seed are summed along their diagonals once; a
    question is then a few lookups.
    """

    def __init__(
        self, frame: Image, seed: tuple[int, int], pitch: tuple[int, int], axis: int, reach: int
    ) -> None:
        x, y = seed
        band = frame[y : y + pitch[1]].swapaxes(0, 1) if axis == 0 else frame[:, x : x + pitch[0]]
        lines = band.reshape(band.shape[0], -1).astype(np.int64)
        self.length, self.across = len(lines), lines.shape[1]
        self.low = max(0, seed[axis] - reach)
        high = min(self.length, seed[axis] + reach + pitch[axis] + MAX_SLACK)
        norms = np.einsum("ij,ij->i", lines, lines)
        near = lines[self.low : high]
        squared = norms[:, None] + norms[None, self.low : high] - 2 * (lines @ near.T)
        # sums[a, r]: the squared differences of lines a - n and low + r - n, n = 1, 2, ...
        self.sums = np.zeros((self.length + 1, high - self.low + 1), dtype=np.int64)
        for column in range(high - self.low):
            self.sums[1:, column + 1] = squared[:, column] + self.sums[:-1, column]

    def distance(self, reference: tuple[int, int], start: int, size: int) -> float:
        """How far the cell of ``size`` pixels at ``start`` is from the cell ``reference``
        (start, size) near the seed (infinite unless both lie inside the capture and reach)."""
        (near, near_size), sums = reference, self.sums
        near -= self.low
        if start < 0 or start + size > self.length or near < 0 or near + near_size >= sums.shape[1]:
            return float("inf")
        cut = min(size, near_size)
        head, tail = (cut + 1) // 2, cut - (cut + 1) // 2
        first = sums[start + head, near + head] - sums[start, near]
        end, near_end = start + size, near + near_size
        last = sums[end, near_end] - sums[end - tail, near_end - tail]
        return float(np.sqrt((first + last) / (cut * self.across))) / 255.0


def find_lattice(*frames: Image) -> Lattice:
    """The pitch and phase of the tile grid in ``frames``: captures of one game window.

    With one frame the cut is the one showing the most identical detailed blocks, right for a
    fresh board. Given a second frame, taken after a click opened cells, the cut in which the
    fewest blocks changed (part-blocks at the edges too) wins instead: only the aligned cut sees
    each opened cell as one block. That settles games whose tiles have a border of the
    background colour, where a fresh board fits two cuts equally well, and boards with a large
    opened area (a starting area the game opens itself), whose near-plain pictures repeat under
    misaligned cuts too. Blocks changed only in a strip as deep as a toolkit button's frame
    (:data:`FRAME_SHARE`) along a block changed more count only after the rest: they would show
    in every block around the cell at the aligned cut.
    """
    frame = frames[0]
    height, width = frame.shape[:2]
    if any(other.shape != frame.shape for other in frames):
        raise GridNotFoundError("the captures to find a grid in differ in size")
    packed = packed_pixels(frame)
    if (packed == packed.flat[0]).all():
        raise GridNotFoundError(f"the {width}x{height} capture is one plain colour: no board in it")
    pitch = (find_pitch(packed, axis=1), find_pitch(packed, axis=0))
    maps = [block_hash_map(packed_pixels(each), pitch) for each in frames]
    changes = [
        changed_pixels(before, after) for before, after in zip(frames, frames[1:], strict=False)
    ]
    scores = _cut_scores(maps, changes, pitch)
    best = min(scores.values(), default=None)
    if best is None or -best[2] < MIN_HIDDEN_CELLS * len(frames):
        found = 0 if best is None else -best[2] // len(frames)
        raise GridNotFoundError(
            f"no board in the {width}x{height} capture: with a pitch of {pitch[0]}x{pitch[1]} px "
            f"only {found} identical detailed tiles repeat (a board needs {MIN_HIDDEN_CELLS})"
        )
    phase = middle_phase([phase for phase, score in scores.items() if score == best], pitch)
    final = [cut_at(hashes, plain, phase, pitch) for hashes, plain in maps]
    detailed = np.concatenate([hashes[~plain] for hashes, plain in final])
    keys, counts = np.unique(detailed, return_counts=True)
    ranked = tuple(int(key) for key in keys[np.argsort(-counts, kind="stable")])
    return Lattice(
        phase,
        pitch,
        tuple(frames),
        tuple(hashes for hashes, _ in final),
        tuple(~plain for _, plain in final),
        ranked,
    )


Maps = list[tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]]
"""Per frame, the block hashes and plainness of every place a block can start."""


def _cut_scores(
    maps: Maps,
    changes: list[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]],
    pitch: tuple[int, int],
) -> dict[tuple[int, int], tuple[int, int, int, int]]:
    """Per phase of a cut that shows a detailed block, its rank (lowest best) for
    :func:`find_lattice`."""
    # A click may redraw a few pixels past the cell it opened (a toolkit button's frame or
    # shadow drawn over its neighbours' edges): the aligned cut sees those strips change in
    # every block around the cell, a cut that takes them in with the cell fewer. So the cuts
    # are ranked first by the blocks that changed by more than such a strip past a changed
    # neighbour (see changed_blocks), which a cut across the opened cells splits into more;
    # then by every block changed, and then, as a fresh board is, by their identical blocks;
    # last by how deep such a strip reaches (a frame drawn evenly around its cell reaches as
    # deep on every side at the aligned cut: a board opened by the game itself may leave the
    # other ranks tied between it and the cut a pixel off).
    # The strip is a FRAME_SHARE of a cell deep, rounded up: numbers that paint 3 px into the
    # cell below at a 16 px pitch (a drawn game) are such a strip.
    rim = -(-min(pitch) // FRAME_SHARE)
    scores: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    for phase_y in range(pitch[1]):
        for phase_x in range(pitch[0]):
            phase = (phase_x, phase_y)
            cuts = [cut_at(hashes, plain, phase, pitch) for hashes, plain in maps]
            detailed = np.concatenate([hashes[~plain] for hashes, plain in cuts])
            if not detailed.size:
                continue
            per_change = [changed_blocks(change, phase, pitch, rim) for change in changes]
            scores[phase] = (
                sum(more for more, _, _ in per_change),
                sum(every for _, every, _ in per_change),
                -int(np.unique(detailed, return_counts=True)[1].max()),
                max((deepest for _, _, deepest in per_change), default=0),
            )
    return scores


FRESH_BOARD_SIDE = 5
"""Cells a side a fresh board has at least, to be told from a toolbar's row of buttons."""
FRESH_BOARD_FILL = 0.9
"""Of the box around the most repeated tile, the share it must fill: a fresh board is that tile
and nothing else (a few cells may differ, lit under the pointer)."""


def fresh_board_shape(frame: Image) -> tuple[int, int] | None:
    """(rows, columns) of the fresh Minesweeper board ``frame`` shows, if it shows one: one
    detailed tile repeated over a box at least :data:`FRESH_BOARD_SIDE` cells a side, and filling
    it; pixel for pixel, or within the grouping tolerance (a board drawn over a picture that
    shows through its tiles). A quick look for a window worth calibrating; calibration itself
    finds the grid exactly."""
    try:
        lattice = find_lattice(frame)
    except GridNotFoundError:
        return None
    exact = np.argwhere(lattice.hashes[0] == lattice.ranked[0])
    for cells in (exact, *lattice.alike()[:1]):
        height, width = (cells.max(axis=0) - cells.min(axis=0) + 1).tolist()
        if (
            min(height, width) >= FRESH_BOARD_SIDE
            and len(cells) >= FRESH_BOARD_FILL * height * width
        ):
            return int(height), int(width)
    return None
