"""The ground under a cell, read from the pixels just around its tile.

A game that draws its opened cells half-transparent over a picture (kmines) shows the picture's
sharp edges through them: an opened 0 with a lighter and a darker part, nearly as far from its
template as from the hidden tile. The one-pixel ring around the tile shows the same edge
(lines between tiles, or the cell's own border), so the ground inside is estimated from the
ring alone: a Coons patch, the blend of the ring's rows interpolated down and its columns
interpolated across, less the blend of its corners. Its mean is taken away per channel: the
level is the match's business, the shape inside the cell is this one's.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]


def ground_shapes(ringed: npt.NDArray[np.uint8]) -> Floats:
    """(n, height, width, channels): for each (height + 2, width + 2, channels) picture of a
    tile with its ring in ``ringed``, how the ground varies inside the ring (mean 0 per channel)."""
    pictures = ringed.astype(np.float64)
    height, width = pictures.shape[1] - 2, pictures.shape[2] - 2
    down = (np.arange(1, height + 1) / (height + 1))[None, :, None, None]
    across = (np.arange(1, width + 1) / (width + 1))[None, None, :, None]
    top, bottom = pictures[:, :1, 1:-1], pictures[:, -1:, 1:-1]
    left, right = pictures[:, 1:-1, :1], pictures[:, 1:-1, -1:]
    corners = pictures[:, [0, -1]][:, :, [0, -1]]  # (n, 2, 2, channels)
    upper = corners[:, :1, :1] * (1 - across) + corners[:, :1, 1:] * across
    lower = corners[:, 1:, :1] * (1 - across) + corners[:, 1:, 1:] * across
    rows = top * (1 - down) + bottom * down
    columns = left * (1 - across) + right * across
    corners = upper * (1 - down) + lower * down
    ground = rows + columns - corners
    return ground - ground.mean(axis=(1, 2), keepdims=True)
