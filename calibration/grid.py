"""Finding a board's grid in a capture with no skin: the repeating tile of a fresh game.

A fresh board is one small picture (the hidden tile) repeated rows x columns times, so:

1. *Pitch*: the shift along x (and along y) under which the most detailed pixels (those that
   differ from a neighbour) land on an identical pixel. Plain areas are ignored: they repeat under
   every shift and so say nothing.
2. *Phase*: of the pitch-sized blocks the capture can be cut into, the cut that shows the most
   identical detailed blocks is the one aligned with the cells: any other cut straddles the
   board's edges and loses a row and a column of them.
3. *Extent*: the bounding box of the blocks equal to that most common block, the hidden tile.

Only exact pixel equality is used: a screen capture repeats a game's bitmap bit for bit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.skin import Image

MIN_PITCH = 8
MAX_PITCH = 64
PITCH_TOLERANCE = 0.97
"""The pitch is the smallest shift scoring at least this fraction of the best score (multiples of
the pitch score almost as well, a little lower for losing a row of cells)."""
MIN_HIDDEN_CELLS = 8


class GridNotFoundError(RuntimeError):
    """The capture shows no repeating tile grid; the message says what was looked for."""


@dataclass(frozen=True)
class Grid:
    """A board's grid inside a capture: ``origin`` is cell (0, 0)'s top-left pixel (x, y)."""

    origin: tuple[int, int]
    pitch: tuple[int, int]
    rows: int
    columns: int
    hidden: Image
    """The hidden tile: the pitch-sized block that fills a fresh board."""

    def blocks(self, frame: Image) -> npt.NDArray[np.uint8]:
        """A (rows, columns, pitch_y, pitch_x, 3) view of every cell's block in ``frame``."""
        return lattice_blocks(frame, self.origin, self.pitch, (self.rows, self.columns))

    def cell_centre(self, row: int, column: int) -> tuple[int, int]:
        """The (x, y) pixel in the middle of a cell, relative to the capture."""
        return (
            self.origin[0] + column * self.pitch[0] + self.pitch[0] // 2,
            self.origin[1] + row * self.pitch[1] + self.pitch[1] // 2,
        )


def lattice_blocks(
    frame: Image, origin: tuple[int, int], pitch: tuple[int, int], shape: tuple[int, int]
) -> npt.NDArray[np.uint8]:
    """A strided view cutting ``frame`` into ``shape`` (rows, columns) blocks of ``pitch`` size."""
    (x, y), (pitch_x, pitch_y), (rows, columns) = origin, pitch, shape
    if (
        x < 0
        or y < 0
        or x + columns * pitch_x > frame.shape[1]
        or y + rows * pitch_y > frame.shape[0]
    ):
        raise GridNotFoundError(
            f"a {rows}x{columns} grid of {pitch_x}x{pitch_y} px cells at ({x}, {y}) does not fit "
            f"in a {frame.shape[1]}x{frame.shape[0]} capture"
        )
    row_stride, column_stride, channel_stride = frame.strides
    return np.lib.stride_tricks.as_strided(
        frame[y:, x:],
        shape=(rows, columns, pitch_y, pitch_x, frame.shape[2]),
        strides=(
            pitch_y * row_stride,
            pitch_x * column_stride,
            row_stride,
            column_stride,
            channel_stride,
        ),
        writeable=False,
    )


def find_grid(*frames: Image) -> Grid:
    """The grid of hidden tiles in ``frames``: captures of one game window (see module doc).

    One fresh frame is enough to find the grid; a second one with some cells opened settles the
    phase on games whose tiles have a border of the background colour (winemine), where the
    fresh board alone fits two cuts equally well. The board spans every cell hidden in any frame
    (xdemineur opens a starting area by itself, which may cover an edge row of one frame).
    """
    frame = frames[0]
    height, width = frame.shape[:2]
    if any(other.shape != frame.shape for other in frames):
        raise GridNotFoundError("the captures to find a grid in differ in size")
    detail = _detailed_pixels(frame)
    if not detail.any():
        raise GridNotFoundError(f"the {width}x{height} capture is one plain colour: no board in it")
    pitch = (_pitch(frame, detail, axis=1), _pitch(frame, detail, axis=0))
    weights = np.random.default_rng(0).integers(1, 2**62, size=(pitch[1], pitch[0], 3))
    best: tuple[int, tuple[int, int], int] | None = None
    for phase_y in range(pitch[1]):
        for phase_x in range(pitch[0]):
            counts: Counter[int] = Counter()
            for each in frames:
                counts.update(_detailed_block_hashes(each, (phase_x, phase_y), pitch, weights))
            if counts:
                key, count = counts.most_common(1)[0]
                if best is None or count > best[0]:
                    best = (count, (phase_x, phase_y), key)
    if best is None or best[0] < MIN_HIDDEN_CELLS * len(frames):
        found = 0 if best is None else best[0] // len(frames)
        raise GridNotFoundError(
            f"no board in the {width}x{height} capture: with a pitch of {pitch[0]}x{pitch[1]} px "
            f"only {found} identical detailed tiles repeat (a board needs {MIN_HIDDEN_CELLS})"
        )
    _, phase, key = best
    shape = ((height - phase[1]) // pitch[1], (width - phase[0]) // pitch[0])
    hidden_anywhere = np.zeros(shape, dtype=bool)
    for each in frames:
        hidden_anywhere |= _block_hashes(each, phase, pitch, weights) == key
    rows, columns = np.nonzero(hidden_anywhere)
    if not len(rows):
        raise GridNotFoundError("the captures show no hidden tile (is the game fresh?)")
    top, left = int(rows.min()), int(columns.min())
    origin = (phase[0] + left * pitch[0], phase[1] + top * pitch[1])
    first = np.argwhere(_block_hashes(frame, phase, pitch, weights) == key)[0]
    hidden = np.array(lattice_blocks(frame, phase, pitch, shape)[first[0], first[1]])
    return Grid(origin, pitch, int(rows.max()) - top + 1, int(columns.max()) - left + 1, hidden)


def _block_hashes(
    frame: Image, phase: tuple[int, int], pitch: tuple[int, int], weights: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """One 64-bit hash per block of the cut at ``phase`` (equal blocks, equal hashes)."""
    (phase_x, phase_y), (pitch_x, pitch_y) = phase, pitch
    rows = (frame.shape[0] - phase_y) // pitch_y
    columns = (frame.shape[1] - phase_x) // pitch_x
    region = frame[phase_y : phase_y + rows * pitch_y, phase_x : phase_x + columns * pitch_x]
    blocks = region.astype(np.int64).reshape(rows, pitch_y, columns, pitch_x, 3)
    return np.einsum("aybxc,yxc->ab", blocks, weights)


def _detailed_block_hashes(
    frame: Image, phase: tuple[int, int], pitch: tuple[int, int], weights: npt.NDArray[np.int64]
) -> list[int]:
    """Hashes of the blocks of the cut at ``phase`` that are not one plain colour."""
    (phase_x, phase_y), (pitch_x, pitch_y) = phase, pitch
    rows = (frame.shape[0] - phase_y) // pitch_y
    columns = (frame.shape[1] - phase_x) // pitch_x
    if rows < 1 or columns < 1:
        return []
    hashes = _block_hashes(frame, phase, pitch, weights)
    # A plain block hashes like its first pixel's colour times the summed weights.
    first_pixels = frame[phase_y::pitch_y, phase_x::pitch_x][:rows, :columns].astype(np.int64)
    detailed = hashes != first_pixels @ weights.sum(axis=(0, 1))
    return [int(value) for value in hashes[detailed]]


def _detailed_pixels(frame: Image) -> npt.NDArray[np.bool_]:
    """Pixels that differ from the pixel to their right or below: the ones a shift can test."""
    differs = np.zeros(frame.shape[:2], dtype=bool)
    differs[:, :-1] |= (frame[:, 1:] != frame[:, :-1]).any(axis=2)
    differs[:-1, :] |= (frame[1:, :] != frame[:-1, :]).any(axis=2)
    return differs


def _pitch(frame: Image, detail: npt.NDArray[np.bool_], axis: int) -> int:
    """The shift along ``axis`` (1: x, 0: y) under which detailed pixels repeat best."""
    size = frame.shape[axis]
    scores: dict[int, float] = {}
    for shift in range(MIN_PITCH, min(MAX_PITCH, size // 2) + 1):
        if axis == 1:
            same = (frame[:, shift:] == frame[:, :-shift]).all(axis=2) & detail[:, :-shift]
            scores[shift] = float(same.sum())
        else:
            same = (frame[shift:] == frame[:-shift]).all(axis=2) & detail[:-shift]
            scores[shift] = float(same.sum())
    if not scores:
        raise GridNotFoundError(f"a capture {size} px across is too small to hold a board")
    best = max(scores.values())
    return min(shift for shift, score in scores.items() if score >= PITCH_TOLERANCE * best)
