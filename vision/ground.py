"""The ground under a cell, read from the pixels just around its tile.

A game that draws its opened cells half-transparent over a picture shows the picture's
sharp edges through them: an opened 0 with a lighter and a darker part, nearly as far from its
template as from the hidden tile. The one-pixel ring around the tile shows the same edge
(lines between tiles, or the cell's own border), so the ground inside is estimated from the
ring alone: a Coons patch, the blend of the ring's rows interpolated down and its columns
interpolated across, less the blend of its corners. Its mean is taken away per channel: the
level is the match's business, the shape inside the cell is this one's. Calibration takes it
away from a template cut from a cell over such an edge.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.match import BACKGROUND_NEAR, flat_background

Floats = npt.NDArray[np.float64]

FLATTER = 0.1
"""The share of a tile's pixels that must join its flat ground for the ground its ring shows to
be taken away from it."""


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
    return np.asarray(ground - ground.mean(axis=(1, 2), keepdims=True), dtype=np.float64)


def flattened(ringed: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The tile inside ``ringed`` (a picture of it with its pixel ring) with the ground its ring
    shows taken away, where that leaves more of it flat (a half-transparent tile cut from a
    cell over an edge of the background: a template to compare others with); else the tile as
    it is (an opaque tile, whose ring only shows lines between tiles)."""
    tile = ringed[1:-1, 1:-1]
    flat = np.clip(tile - ground_shapes(ringed[None])[0], 0, 255).round().astype(np.uint8)
    pixels, channels = tile.shape[0] * tile.shape[1], tile.shape[2]

    def flat_share(picture: npt.NDArray[np.uint8]) -> float:
        away = flat_background(picture.reshape(pixels, channels).astype(np.float32))
        return float(np.mean(away <= BACKGROUND_NEAR))

    return flat if flat_share(flat) > flat_share(tile) + FLATTER else np.array(tile)
