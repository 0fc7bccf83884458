"""The pitch and phase of a capture's tile grid, by exact pixel equality (see
:mod:`calibration.grid` for how they are used): every pitch-sized block of a capture hashed at
once with a rolling hash, the cuts of the capture compared by their hashes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from calibration.errors import GridNotFoundError
from vision.skin import Image

MIN_PITCH = 8
MAX_PITCH = 128
"""Cells of up to this many pixels are found (a Beginner board stretched to a 1000x600 window
has cells of 70 and 71 px)."""
PITCH_TOLERANCE = 0.97
"""The pitch is the smallest shift scoring at least this fraction of the best score (multiples of
the pitch score almost as well, a little lower for losing a row of cells)."""


def middle_phase(phases: list[tuple[int, int]], pitch: tuple[int, int]) -> tuple[int, int]:
    """Of cuts that fit equally well, the one in the middle of their run along each axis.

    On a board whose cells differ in size the evenly spaced part fits cuts up to half a cell
    off as well as the aligned one; the middle one keeps each block's centre on its tile.
    """
    middle = []
    for axis in (0, 1):
        values = sorted({phase[axis] for phase in phases})
        # The run may wrap around the pitch: start it after the widest gap between values.
        gaps = [
            (b - a) % pitch[axis] or pitch[axis]
            for a, b in zip(values, values[1:] + values[:1], strict=True)
        ]
        first = (gaps.index(max(gaps)) + 1) % len(values)
        run = values[first:] + values[:first]
        middle.append(run[len(run) // 2])
    chosen = (middle[0], middle[1])
    return chosen if chosen in phases else phases[0]


_HASH_BASES = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F)
"""Odd 64-bit multipliers of the block hash along x and along y."""


def packed_pixels(frame: Image) -> npt.NDArray[np.int64]:
    """Each pixel's three channels as one number (equal pixels, equal numbers)."""
    wide = frame.astype(np.int64)
    return wide[..., 0] | (wide[..., 1] << 8) | (wide[..., 2] << 16)


def _window_sums(values: npt.NDArray[np.uint64], size: int, base: int) -> npt.NDArray[np.uint64]:
    """Along the last axis, sum of ``values[k + i] * base**i`` for i < ``size`` at every k,
    modulo 2**64 (a rolling polynomial hash: all windows in a few passes)."""
    length = values.shape[-1]
    powers = np.cumprod(np.full(length, base, dtype=np.uint64), dtype=np.uint64)
    powers = np.concatenate([np.ones(1, dtype=np.uint64), powers[:-1]])
    inverse = pow(base, -1, 2**64)
    unpowers = np.cumprod(np.full(length, inverse, dtype=np.uint64), dtype=np.uint64)
    unpowers = np.concatenate([np.ones(1, dtype=np.uint64), unpowers[:-1]])
    prefix = np.zeros((*values.shape[:-1], length + 1), dtype=np.uint64)
    np.cumsum(values * powers, axis=-1, dtype=np.uint64, out=prefix[..., 1:])
    return (prefix[..., size:] - prefix[..., :-size]) * unpowers[: length - size + 1]


def block_hash_map(
    packed: npt.NDArray[np.int64], pitch: tuple[int, int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """For every pixel where a pitch-sized block can start: the block's hash (equal blocks,
    equal hashes) and whether it is one plain colour."""
    with np.errstate(over="ignore"):
        values = packed.astype(np.uint64)
        rows = _window_sums(values, pitch[0], _HASH_BASES[0])
        hashes = _window_sums(rows.T.copy(), pitch[1], _HASH_BASES[1]).T
        # A plain block hashes like its first pixel times the hash of a block of ones.
        ones = _window_sums(
            np.ones((pitch[1], pitch[0]), dtype=np.uint64), pitch[0], _HASH_BASES[0]
        )
        unit = _window_sums(ones.T.copy(), pitch[1], _HASH_BASES[1])[0, 0]
        plain = hashes == values[: hashes.shape[0], : hashes.shape[1]] * unit
    return hashes.view(np.int64), plain


def changed_blocks(
    change: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]],
    phase: tuple[int, int],
    pitch: tuple[int, int],
    rim: int,
) -> tuple[int, int, int]:
    """How many blocks of the cut at ``phase`` hold pixels of ``change`` (rows and columns of
    the pixels that differ between two frames): those changed more than a strip past a changed
    neighbour, and all; and how deep the deepest such strip reaches into its block. Part-blocks
    at the frame's edges count: a cut whose whole blocks leave out a changed column must not
    look the better for it (a click that opened cells up to the board's left edge chose a cut
    half a cell off, one column short).

    A block is changed more than such a strip when it holds more than ``rim`` lines of pixels,
    or any pixel deeper inside than ``rim``, or one within ``rim`` of an edge across which the
    neighbour (or the one across the corner) is not itself changed more: a frame redrawn past a
    cell lies along the changed cell's block. A cut on the inner edge of opened cells' frames
    leaves such pieces along the area's far sides, with nothing changed beyond them."""
    ys, xs = change
    (phase_x, phase_y), (pitch_x, pitch_y) = phase, pitch
    columns, inside_x = np.divmod(xs - phase_x + pitch_x, pitch_x)
    rows, inside_y = np.divmod(ys - phase_y + pitch_y, pitch_y)
    shape = (int(rows.max(initial=0)) + 3, int(columns.max(initial=0)) + 3)
    blocks = (rows + 1) * shape[1] + columns + 1  # a ring of blocks around, for the neighbours
    counts = np.bincount(blocks, minlength=shape[0] * shape[1])
    step_x = (inside_x >= pitch_x - rim).astype(np.intp) - (inside_x < rim)
    step_y = (inside_y >= pitch_y - rim).astype(np.intp) - (inside_y < rim)
    deep = (step_x == 0) & (step_y == 0)
    more = (counts > rim * max(pitch)) | (np.bincount(blocks[deep], minlength=counts.size) > 0)
    row_step = step_y * shape[1]
    beside = (
        (step_x != 0) & more[blocks + step_x]
        | (step_y != 0) & more[blocks + row_step]
        | (step_x != 0) & (step_y != 0) & more[blocks + row_step + step_x]
    )
    more |= np.bincount(blocks[~beside], minlength=counts.size) > 0
    # A frame drawn evenly around its cell reaches as deep into the blocks on either side at
    # the aligned cut; a cut a pixel off sees it deeper on one side.
    strip = ~more[blocks]
    across = more[blocks + row_step + step_x] & (step_x != 0) & (step_y != 0)
    toward_x = strip & (step_x != 0) & (more[blocks + step_x] | across)
    toward_y = strip & (step_y != 0) & (more[blocks + row_step] | across)
    depth_x = np.where(step_x < 0, inside_x + 1, pitch_x - inside_x)[toward_x]
    depth_y = np.where(step_y < 0, inside_y + 1, pitch_y - inside_y)[toward_y]
    deepest = max(int(depth_x.max(initial=0)), int(depth_y.max(initial=0)))
    return int(more.sum()), int((counts > 0).sum()), deepest


def changed_pixels(
    before: Image, after: Image
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The rows and columns of the pixels that differ between two frames."""
    rows, columns = np.nonzero((before != after).any(axis=2))
    return rows, columns


def cut_at(
    hashes: npt.NDArray[np.int64],
    plain: npt.NDArray[np.bool_],
    phase: tuple[int, int],
    pitch: tuple[int, int],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The hashes, and plainness, of the blocks of the cut at ``phase``."""
    (phase_x, phase_y), (pitch_x, pitch_y) = phase, pitch
    return hashes[phase_y::pitch_y, phase_x::pitch_x], plain[phase_y::pitch_y, phase_x::pitch_x]


def _edge_pixels(packed: npt.NDArray[np.int64], axis: int) -> npt.NDArray[np.bool_]:
    """Pixels that differ from the next one along ``axis`` (1: x, 0: y): the ones a shift along
    that axis can test. A plain area repeats under every shift, and so does a line along it."""
    differs = np.zeros(packed.shape, dtype=bool)
    if axis == 1:
        differs[:, :-1] = packed[:, 1:] != packed[:, :-1]
    else:
        differs[:-1, :] = packed[1:, :] != packed[:-1, :]
    return differs


def _textured(values: npt.NDArray[np.int32]) -> npt.NDArray[np.bool_]:
    """Pixels equal to the pixels some shift of 2 to ``MIN_PITCH - 1`` before and after them
    along each row: a texture finer than any tile. A line across the rows is not one, though
    the texture beside it repeats its colour (a tile's edge beside a checkerboard stipple):
    its pixels equal the pixels beside them in the next rows, as a stipple's do not."""
    found = np.zeros(values.shape, dtype=bool)
    for shift in range(2, MIN_PITCH):
        middle = values[:, shift:-shift]
        found[:, shift:-shift] |= (middle == values[:, : -2 * shift]) & (
            middle == values[:, 2 * shift :]
        )
    across = np.zeros(values.shape, dtype=bool)
    across[1:-1] = (values[1:-1] == values[:-2]) & (values[1:-1] == values[2:])
    return found & ~across


def find_pitch(packed: npt.NDArray[np.int64], axis: int) -> int:
    """The shift along ``axis`` (1: x, 0: y) under which edge pixels repeat best.

    Pixels of a fine texture inside the tiles (a hidden tile drawn as a 2-pixel stipple, in
    50-pixel cells) do not count: they repeat under every shift that is a multiple of their
    period, and so more often than the tiles do, which lose a row past the board's end."""
    size = packed.shape[axis]
    scores: dict[int, float] = {}
    values, detail = packed.astype(np.int32), _edge_pixels(packed, axis)
    if axis == 0:
        values, detail = values.T.copy(), detail.T.copy()
    detail &= ~_textured(values)
    for shift in range(MIN_PITCH, min(MAX_PITCH, size // 2) + 1):
        # An edge repeats when the pixels on both its sides do: one side alone also repeats at
        # any shift that lands inside a line as wide (flat tiles between 4-pixel lines).
        same = values[:, shift:] == values[:, :-shift]
        same[:, :-1] &= values[:, shift + 1 :] == values[:, 1:-shift]
        same[:, -1] = False
        same &= detail[:, :-shift]
        scores[shift] = float(np.count_nonzero(same))
    if not scores:
        raise GridNotFoundError(f"a capture {size} px across is too small to hold a board")
    best = max(scores.values())
    return min(shift for shift, score in scores.items() if score >= PITCH_TOLERANCE * best)
