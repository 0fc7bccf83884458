"""The ground under a cell, read from the pixels just around its tile.

A game that draws its opened cells half-transparent over a picture shows the picture's
sharp edges through them: an opened 0 with a lighter and a darker part, nearly as far from its
template as from the hidden tile. The one-pixel ring around the tile shows the same edge
(lines between tiles, or the cell's own border), so the ground inside is estimated from the
ring alone: a Coons patch, the blend of the ring's rows interpolated down and its columns
interpolated across, less the blend of its corners. Its mean is taken away per channel: the
level is the match's business, the shape inside the cell is this one's. Calibration takes it
away from a template cut from a cell over such an edge; a reader judges a cell it refused once
more over it (:func:`over_their_ground`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from solver import Cell, Tile
from vision.match import BACKGROUND_NEAR, TemplateBank, Verdict, flat_background

Floats = npt.NDArray[np.float64]

FLATTER = 0.1
"""The share of a tile's pixels that must join its flat ground for the ground its ring shows to
be taken away from it."""
GROUND_EXPLAINS = 0.5
"""A refused cell is read over its ground only if that leaves at most this share of its distance
to the nearest template: the edge its ring shows explains most of what set it apart. A cell
blended of two tiles (a frame caught mid-redraw) keeps over 0.59 of it whatever ring is drawn
around it; opened 0s over the edge of a background picture seen through them kept 0.30 and 0.40."""
MAX_GROUND_LOOKS = 16
"""At most this many refused cells are judged again over their ground: more are a board that is
covered or moved, not a gradient's edge."""


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


def over_their_ground(
    verdict: Verdict,
    ringed_picture: Callable[[Cell], npt.NDArray[np.uint8]],
    bank: TemplateBank[Tile],
    threshold: float,
) -> Verdict:
    """``verdict`` (of every cell of a board, read with ``bank`` at ``threshold``) with its
    refused cells judged again over the ground their ring shows (``ringed_picture`` of a cell:
    its tile with the pixel ring; see :func:`confirmed_over_ground`), at most
    :data:`MAX_GROUND_LOOKS` of them."""
    refused = np.argwhere(~verdict.accepted)
    if not len(refused) or len(refused) > MAX_GROUND_LOOKS:
        return verdict
    ringed = np.stack([ringed_picture((row, column)) for row, column in refused.tolist()])
    rows, columns = refused.T
    confirmed, again = confirmed_over_ground(
        bank, threshold, ringed, verdict.best[rows, columns], verdict.best_distance[rows, columns]
    )
    rows, columns = rows[confirmed], columns[confirmed]
    best_distance, second_distance = verdict.best_distance.copy(), verdict.second_distance.copy()
    within, unambiguous = verdict.within_threshold.copy(), verdict.unambiguous.copy()
    best_distance[rows, columns] = again.best_distance[confirmed]
    second_distance[rows, columns] = again.second_distance[confirmed]
    within[rows, columns] = unambiguous[rows, columns] = True
    return replace(
        verdict,
        best_distance=best_distance,
        second_distance=second_distance,
        within_threshold=within,
        unambiguous=unambiguous,
    )


def confirmed_over_ground(
    bank: TemplateBank[Tile],
    threshold: float,
    ringed: npt.NDArray[np.uint8],
    nearest: npt.NDArray[np.intp],
    distance: npt.NDArray[np.float32],
) -> tuple[npt.NDArray[np.bool_], Verdict]:
    """Which refused tiles (``ringed``: each with its pixel ring; ``nearest``: the template
    each was nearest to, at ``distance``) read over the ground their ring shows, and the
    verdict over it. A tile is accepted only as the one it was nearest to anyway, and only
    where the ground explains most of its distance (:data:`GROUND_EXPLAINS`): the ground breaks
    a near tie, it never changes what a cell reads."""
    distances = bank.distances_over_ground(ringed[:, 1:-1, 1:-1], ground_shapes(ringed))
    again = bank.judge(distances, threshold)
    confirmed = (
        again.accepted
        & (again.best == nearest)
        & (again.best_distance <= GROUND_EXPLAINS * distance)
    )
    return confirmed, again
