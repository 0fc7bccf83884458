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
   tells: see :mod:`calibration.session`), grown over opened edge rows (:class:`Lattice`).

Pitch and phase use exact pixel equality (most of a game's hidden tiles repeat bit for bit); the
extent takes every block near the hidden tile, since some games draw it in slight variants.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from calibration.evidence import GROUPING_TOLERANCE
from vision.match import TemplateBank, tile_lattice
from vision.skin import Image

MIN_PITCH = 8
MAX_PITCH = 64
PITCH_TOLERANCE = 0.97
"""The pitch is the smallest shift scoring at least this fraction of the best score (multiples of
the pitch score almost as well, a little lower for losing a row of cells)."""
MIN_HIDDEN_CELLS = 8


class GridNotFoundError(CalibrationError):
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

    def cell_centre(self, row: int, column: int) -> tuple[int, int]:
        """The (x, y) pixel in the middle of a cell, relative to the capture."""
        return (
            self.origin[0] + column * self.pitch[0] + self.pitch[0] // 2,
            self.origin[1] + row * self.pitch[1] + self.pitch[1] // 2,
        )

    def cell_at(self, x: int, y: int) -> tuple[int, int]:
        """The (row, column) of the cell holding pixel (x, y) of the capture."""
        return (y - self.origin[1]) // self.pitch[1], (x - self.origin[0]) // self.pitch[0]


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
        over edge rows and columns that look like opened cells (a starting area that xdemineur
        opened along an edge)."""
        index = next((i for i, hashes in enumerate(self.hashes) if (hashes == hidden).any()), None)
        if index is None:
            raise GridNotFoundError("no hidden tile in the captures (is the game fresh?)")
        row, column = np.argwhere(self.hashes[index] == hidden)[0]
        picture = np.array(self.blocks(index)[row, column])
        bank = TemplateBank([0], [picture])
        anywhere = np.logical_or.reduce(
            [
                (bank.distances(self.blocks(i))[..., 0] <= tolerance) & detail
                for i, detail in enumerate(self.detail)
            ]
        )
        rows, columns = np.nonzero(anywhere)
        top, left = int(rows.min()), int(columns.min())
        bottom, right = int(rows.max()) + 1, int(columns.max()) + 1
        grown = True
        while grown:
            grown = False
            for r0, r1, c0, c1 in (
                (top - 1, top, left, right),
                (bottom, bottom + 1, left, right),
                (top, bottom, left - 1, left),
                (top, bottom, right, right + 1),
            ):
                if r0 < 0 or c0 < 0 or r1 > anywhere.shape[0] or c1 > anywhere.shape[1]:
                    continue
                if self._looks_like_cells((r0, r1, c0, c1), (top, bottom, left, right)):
                    top, bottom = min(top, r0), max(bottom, r1)
                    left, right = min(left, c0), max(right, c1)
                    grown = True
        origin = (self.phase[0] + left * self.pitch[0], self.phase[1] + top * self.pitch[1])
        return Grid(origin, self.pitch, bottom - top, right - left, picture)

    def blocks(self, frame: int) -> npt.NDArray[np.uint8]:
        """The pitch-sized blocks of frame number ``frame`` at this cut, as a lattice view."""
        shape = self.hashes[frame].shape
        return tile_lattice(self.frames[frame], self.phase, self.pitch, self.pitch, shape)

    def _looks_like_cells(
        self, strip: tuple[int, int, int, int], box: tuple[int, int, int, int]
    ) -> bool:
        """Whether a row or column of blocks next to the board is more of the board: in every
        frame its pictures are ones the board shows, or they are all detailed, not all alike
        (a window's frame beside a board repeats one picture, or is plain), and some of them
        are shown on the board too (menus and counters share no picture with it)."""
        (r0, r1, c0, c1), (top, bottom, left, right) = strip, box
        for hashes, detail in zip(self.hashes, self.detail, strict=True):
            inside = set(hashes[top:bottom, left:right].ravel().tolist())
            pictures = set(hashes[r0:r1, c0:c1].ravel().tolist())
            varied = bool(detail[r0:r1, c0:c1].all()) and len(pictures) > 1
            if not (pictures <= inside or (varied and pictures & inside)):
                return False
        return True


def find_lattice(*frames: Image) -> Lattice:
    """The pitch and phase of the tile grid in ``frames``: captures of one game window.

    With one frame the cut is the one showing the most identical detailed blocks, right for a
    fresh board. Given a second frame, taken after a click opened cells, the cut in which the
    fewest blocks changed wins instead: only the aligned cut sees each opened cell as one block.
    That settles games whose tiles have a border of the background colour (winemine), where a
    fresh board fits two cuts equally well, and boards with a large opened area (xdemineur's
    starting area), whose near-plain pictures repeat under misaligned cuts too.
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
    best: tuple[tuple[int, int], tuple[int, int], Counter[int]] | None = None
    for phase_y in range(pitch[1]):
        for phase_x in range(pitch[0]):
            phase = (phase_x, phase_y)
            counts: Counter[int] = Counter()
            hashes = []
            for each in frames:
                block_hashes, detailed = _block_hashes_and_detail(each, phase, pitch, weights)
                counts.update(block_hashes[detailed].tolist())
                hashes.append(block_hashes)
            if not counts:
                continue
            changed = sum(int((a != b).sum()) for a, b in zip(hashes, hashes[1:], strict=False))
            score = (changed, -counts.most_common(1)[0][1])
            if best is None or score < best[0]:
                best = (score, phase, counts)
    if best is None or -best[0][1] < MIN_HIDDEN_CELLS * len(frames):
        found = 0 if best is None else -best[0][1] // len(frames)
        raise GridNotFoundError(
            f"no board in the {width}x{height} capture: with a pitch of {pitch[0]}x{pitch[1]} px "
            f"only {found} identical detailed tiles repeat (a board needs {MIN_HIDDEN_CELLS})"
        )
    _, phase, counts = best
    final = [_block_hashes_and_detail(each, phase, pitch, weights) for each in frames]
    ranked = tuple(key for key, _ in counts.most_common())
    return Lattice(
        phase,
        pitch,
        tuple(frames),
        tuple(hashes for hashes, _ in final),
        tuple(detail for _, detail in final),
        ranked,
    )


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


def _block_hashes_and_detail(
    frame: Image, phase: tuple[int, int], pitch: tuple[int, int], weights: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The block hashes of the cut at ``phase``, and which blocks are not one plain colour."""
    hashes = _block_hashes(frame, phase, pitch, weights)
    rows, columns = hashes.shape
    # A plain block hashes like its first pixel's colour times the summed weights.
    first_pixels = frame[phase[1] :: pitch[1], phase[0] :: pitch[0]][:rows, :columns]
    return hashes, hashes != first_pixels.astype(np.int64) @ weights.sum(axis=(0, 1))


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
