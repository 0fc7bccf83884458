"""Following a board whose cells move while it is played: a grid of toolkit buttons sized by
their content widens a column (or a row) once a cell in it opens, and moves every one after it.

Cells are known by their place in the grid. In each capture the lines between them are found
again (:func:`measure`): a cell starts where its first :data:`BORDER_SHARE` of pixels shows as
some cell's picture seen before shows them (the hidden tile's, an opened cell's), and ends where
its last ones do; the cells of a column (row) vote together, and the columns (rows) follow each
other without a gap. A cell's picture (:func:`indices`) is then its two borders with the middle
of the cell between them, so a picture centred in its button (a number) reads the same at every
width, and a cell of the size it had on the fresh board reads exactly as it did.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.errors import CaptureError
from vision.skin import Image

BORDER_SHARE = 4
"""A cell's border, along each axis, is this fraction of its picture (at least a pixel)."""
GROWTH_SHARE = 2
"""A cell grows by at most this fraction of its picture (a column of buttons 32 px wide that
widened to 37-39 px was seen)."""
MISMATCH = 0.03**2
"""The mean squared difference (levels / 255, squared) above which a border matches nothing
(calibration's grouping tolerance, squared): a cell showing a picture never seen before votes
for no place."""
MAX_PICTURES = 256
"""Distinct cell pictures kept to match borders against (a game shows a few dozen)."""
NEW_SIZE = 1e-4
"""The cost of a cell of a size no cell had before: between places that fit equally (a column
whose every cell just changed, or whose borders are plain), the one of sizes seen wins."""

Positions = npt.NDArray[np.intp]


def border(cut: int) -> int:
    """Pixels of a ``cut``-pixel picture taken from each end of its cell."""
    return max(1, cut // BORDER_SHARE)


def indices(starts: Positions, cut: int) -> Positions:
    """Where (from the board's first pixel) each pixel of every cell's ``cut``-pixel picture
    is, cell after cell, for cells starting at ``starts`` (then the last one's end): each
    cell's borders, and the middle of what lies between them."""
    edge, middle = border(cut), cut - 2 * border(cut)
    taken = []
    for start, end in zip(starts[:-1], starts[1:], strict=True):
        centre = start + (end - start - middle) // 2
        taken += [start + np.arange(edge), centre + np.arange(middle), end - edge + np.arange(edge)]
    return np.concatenate(taken).astype(np.intp)


@dataclass
class Relayout:
    """A board's cells followed by place: their current ``starts`` along x and y (pixels from
    the board's top-left corner, then the last cell's end), and the distinct ``cut``-sized
    cell ``pictures`` seen so far, whose borders tell where cells are."""

    cut: tuple[int, int]
    starts: tuple[Positions, Positions]
    pictures: Image
    """(n, cut y, cut x, 3)."""

    @classmethod
    def even(cls, hidden: Image, shape: tuple[int, int], board: Image) -> Relayout:
        """Cells the size of ``hidden`` (the hidden tile's picture) side by side on a board of
        ``shape`` (rows, columns), as ``board`` (its capture) shows them."""
        (rows, columns), (height, width) = shape, hidden.shape[:2]
        starts = (np.arange(columns + 1) * width, np.arange(rows + 1) * height)
        relayout = cls((width, height), (starts[0], starts[1]), hidden[None])
        relayout.learn(board)
        return relayout

    def __post_init__(self) -> None:
        along_x, along_y = (set(np.diff(starts).tolist()) for starts in self.starts)
        self.sizes = (along_x, along_y)
        """The cell sizes seen so far along x and along y."""
        self.last: Image | None = None
        """The capture followed last."""

    @property
    def size(self) -> tuple[int, int]:
        """The board's width and height now."""
        return int(self.starts[0][-1]), int(self.starts[1][-1])

    def follow(self, capture: Image) -> Image:
        """The board in ``capture`` (whose top-left pixel is the board's, and which reaches
        past where the board could have grown) as cut-sized pictures side by side at their
        places in the grid, its cells' lines found anew."""
        flipped, turned = capture.swapaxes(0, 1), self.pictures.swapaxes(1, 2)
        for _ in range(2):  # columns with the rows as they were, then rows with those columns
            columns, placed = measure(capture, self.starts, self.sizes[0], self.cut, self.pictures)
            _within(columns, capture.shape[1], "right")
            self.starts = (columns, self.starts[1])
            rows, placed_too = measure(
                flipped, self.starts[::-1], self.sizes[1], self.cut[::-1], turned
            )
            _within(rows, capture.shape[0], "bottom")
            moved = not np.array_equal(rows, self.starts[1])
            self.starts = (columns, rows)
            for seen, starts in zip(self.sizes, self.starts, strict=True):
                seen.update(np.diff(starts).tolist())
            if not moved:
                break
        xs, ys = (indices(starts, cut) for starts, cut in zip(self.starts, self.cut, strict=True))
        board = np.ascontiguousarray(capture[ys][:, xs])
        if self.last is not None and np.array_equal(self.last, capture):
            # A board caught while the game re-lays it out shows cells cut at places they
            # never hold still at: only a capture shown twice in a row is learned from.
            self.learn(board, placed_too[:, None] & placed[None, :])
        self.last = capture.copy()
        return board

    def learn(self, board: Image, placed: npt.NDArray[np.bool_] | None = None) -> None:
        """Keep the cell pictures ``board`` (cut-sized pictures side by side) shows that were
        not seen before, up to :data:`MAX_PICTURES`: those of the cells ``placed`` (rows,
        columns; default all), whose every edge showed a border seen before. A picture cut at
        a wrong place (a board caught as the game re-lays it out) would vote for that place
        again."""
        width, height = self.cut
        rows, columns = board.shape[0] // height, board.shape[1] // width
        cells = board.reshape(rows, height, columns, width, 3).swapaxes(1, 2)
        if placed is not None:
            cells = cells[placed]
        known = {picture.tobytes() for picture in self.pictures}
        new = [cell for cell in cells.reshape(-1, height, width, 3) if cell.tobytes() not in known]
        room = MAX_PICTURES - len(self.pictures)
        if new and room > 0:
            distinct = {cell.tobytes(): cell for cell in new}
            taken = list(distinct.values())[:room]
            self.pictures = np.concatenate([self.pictures, np.stack(taken)])


def _within(starts: Positions, size: int, edge: str) -> None:
    """Cells found to end past the capture (a board grown past the screen's edge, which clips
    the capture) cannot be read: a :class:`CaptureError` saying so."""
    if int(starts[-1]) > size:
        raise CaptureError(
            f"the board has grown past the edge of the screen, on its {edge}: its cells reach "
            f"{int(starts[-1])} px from its corner, the screen shows {size}"
        )


def measure(
    capture: Image,
    starts: tuple[Positions, Positions],
    sizes: set[int],
    cut: tuple[int, int],
    pictures: Image,
) -> tuple[Positions, npt.NDArray[np.bool_]]:
    """Where the cells start along x in ``capture`` (then the last one's end), each from
    ``cut[0]`` pixels to half as much more, given where they started last along x and y
    (``starts``), the ``sizes`` seen along x, and the cell ``pictures`` seen (see
    :class:`Relayout`); and per column, whether both its edges are sure: some cell of the
    column shows a border seen before at each (the board's first edge is fixed)."""
    (last, across), (size, size_across) = starts, cut
    count = len(last) - 1
    edge = border(size)
    lines = capture[indices(across, size_across)].astype(np.float64)
    widths = np.arange(size, size + size // GROWTH_SHARE + 1)
    reach = count * int(widths[-1]) + 1
    places = np.arange(reach)
    bank = pictures.astype(np.float64)
    cost = np.full(reach, np.inf)
    cost[0] = 0.0
    came_from = np.zeros((count + 1, reach), dtype=np.intp)
    fits = []
    for column in range(count):
        ends = np.arange(size * column, min(reach, int(widths[-1]) * column + 1))
        ends = ends[np.isfinite(cost[ends])]
        near = (places >= ends[0]) & (places <= ends[-1] + widths[-1])
        firsts = _fits(lines, bank[:, :, :edge], places, near)
        lasts = _fits(lines, bank[:, :, -edge:], places - edge, near)
        fits.append((firsts, lasts))
        new_cost = np.full(reach, np.inf)
        for width in widths:
            after = ends + width
            inside = after < reach
            begin, end = ends[inside], after[inside]
            votes = np.minimum(firsts[begin] + lasts[end], MISMATCH).sum(axis=1)
            total = cost[begin] + votes + NEW_SIZE * (int(width) not in sizes)
            better = total < new_cost[end]
            new_cost[end[better]] = total[better]
            came_from[column + 1, end[better]] = begin[better]
        cost = new_cost
    found = _best_path(cost, came_from)
    placed = np.zeros(count, dtype=bool)
    for column, (firsts, lasts) in enumerate(fits):
        # A column's own cells must show a border seen before at each of its edges: a cell
        # past the line found (a pixel left over between two columns' frames, caught as the
        # game re-lays its buttons out) must not be learned on the strength of its neighbour.
        first = column == 0 or bool((firsts[found[column]] < MISMATCH).any())
        placed[column] = first and bool((lasts[found[column + 1]] < MISMATCH).any())
    return found, placed


def _best_path(cost: npt.NDArray[np.float64], came_from: Positions) -> Positions:
    """The cells' starts (then the last one's end) of the cheapest way to the board's end, from
    ``cost`` (per place of the last cell's end) and ``came_from`` (per cell and place of its
    end, where it started). Nothing follows the last cell to say where it ends: between ends
    that fit alike (within half of :data:`NEW_SIZE`), the one whose last cell has the width most
    other cells have wins (a grid sized by its buttons' content widens its columns alike)."""
    best = float(cost.min())
    paths = [_path(came_from, int(end)) for end in np.flatnonzero(cost <= best + NEW_SIZE / 2)]
    if len(paths) == 1:
        return paths[0]
    shared = [int((np.diff(path)[:-1] == path[-1] - path[-2]).sum()) for path in paths]
    return paths[int(np.argmax(shared))]


def _path(came_from: Positions, end: int) -> Positions:
    """The starts of the cells of the way to ``end`` kept in ``came_from`` (see
    :func:`_best_path`), then ``end``."""
    found = [end]
    for column in range(len(came_from) - 1, 0, -1):
        end = int(came_from[column, end])
        found.append(end)
    return np.array(found[::-1], dtype=np.intp)


def _fits(
    lines: npt.NDArray[np.float64],
    strips: npt.NDArray[np.float64],
    at: npt.NDArray[np.intp],
    wanted: npt.NDArray[np.bool_],
) -> npt.NDArray[np.float64]:
    """(len(at), rows): per row of cells, how far the strip of ``lines`` starting at each of
    ``at`` (where ``wanted``) is from the nearest of ``strips`` (n, cell height, strip width,
    3): the mean squared difference; infinite where the strip leaves the capture or is not
    wanted."""
    height, edge = strips.shape[1:3]
    rows = len(lines) // height
    result = np.full((len(at), rows), np.inf)
    valid = wanted & (at >= 0) & (at + edge <= lines.shape[1])
    if not valid.any():
        return result
    windows = np.lib.stride_tricks.sliding_window_view(lines, edge, axis=1)
    # windows: (rows * height, width - edge + 1, 3, edge); as strips: (places, rows, pixels)
    taken = windows[:, at[valid]].transpose(1, 0, 3, 2).reshape(-1, rows, height * edge * 3)
    flat = strips.reshape(len(strips), -1)
    squared = (
        np.einsum("prd,prd->pr", taken, taken)[..., None]
        + np.einsum("kd,kd->k", flat, flat)[None, None]
        - 2 * taken @ flat.T
    )
    result[valid] = np.maximum(squared.min(axis=-1), 0.0) / (flat.shape[1] * 255.0**2)
    return result
