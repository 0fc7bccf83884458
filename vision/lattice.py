"""The search for a board on pitch-spaced lattices of the screen, one lattice at a time.

The first three steps of :func:`vision.locate.locate`:

1. *Anchor*: grey-level template matching of one distinctive tile (HIDDEN first, the tile a new
   game is full of) gives candidate positions, hence the grid's phase modulo the pitch. When no
   board lies on those phases (a won board has no hidden tile left, and the hidden tile's picture
   may nearly match opened cells a pixel off), the next distinctive tile is matched in turn.
2. *Lattice*: at each candidate phase the whole screen is cut into pitch-spaced tile images and
   read at once (:class:`vision.match.TemplateBank`): a cell is a *hit* when it shows a template
   for sure, a *strong* hit when that template is not plain (see :func:`vision.match.flatness`).
3. *Board*: the bounding box of the largest group of strong hits, which must be all hits. Plain
   tiles (an opened ZERO is often one colour) also match window backgrounds and a black desktop,
   so they never extend a board by themselves; an edge line of plain tiles is found only when the
   caller gives the board's ``shape``, and then only if exactly one placement fits. On a board
   whose cells are not all one size, the board is one strong cell, for
   :mod:`vision.locate` to walk out to its edges.

Apart from :mod:`vision.locate`, which chooses among the boards found here, walks an uneven one
out and finds the face, because each step here reads one lattice and knows nothing of the others.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from solver import Tile
from vision.geometry import Rect
from vision.match import TemplateBank, Verdict, flatness, nearest_per_label, tile_lattice
from vision.opened import OPENED_TILES, Cells, Mask, opened_beside_zeros
from vision.skin import Image, Skin

GREY_SLACK = 1.5
"""Grey distance is at most about 1.33 times the colour distance (BGR2GRAY's largest weight
0.587, times 3 channels, square-rooted); candidates use this bound so none is missed."""

PHASES_TRIED = 4
"""How many of the most frequent grid phases of the anchor's matches are examined."""

LABELS = max(Tile) + 1
"""How many tile values there are: the length of an array by tile value."""


@dataclass(frozen=True)
class Candidate:
    """A board found on one lattice: its cells in lattice units and its count of strong hits."""

    top: int
    left: int
    rows: int
    columns: int
    strong: int


def anchor_phases(
    skin: Skin, screen: Image, distinctive: list[Tile]
) -> Iterator[list[tuple[int, int]]]:
    """Grid phases (tile x mod pitch, tile y mod pitch) where each anchor tile that is found
    sits, the best first, one tile at a time (HIDDEN first, then the least plain)."""
    grey = cv2.cvtColor(screen, cv2.COLOR_BGR2GRAY)
    order = sorted(
        distinctive, key=lambda tile: (tile != Tile.HIDDEN, -flatness(skin.templates[tile]))
    )
    neighbourhood = np.ones((skin.pitch[1], skin.pitch[0]), dtype=np.uint8)
    for tile in order:
        template = cv2.cvtColor(skin.templates[tile], cv2.COLOR_BGR2GRAY)
        limit = (GREY_SLACK * skin.threshold * 255 + 1) ** 2 * template.size
        squared = cv2.matchTemplate(grey, template, cv2.TM_SQDIFF)
        # Only the best position within a pitch counts: a near-miss shifted by a pixel or two
        # from a real tile would otherwise vote for a wrong phase.
        best_nearby = squared == cv2.erode(squared, neighbourhood)
        ys, xs = np.nonzero(best_nearby & (squared <= limit))
        if len(xs):
            # The phases of the closest matches first: on a plain background of a colour near
            # the tile's grey, near-misses can outnumber a small board's real tiles.
            closest: dict[tuple[int, int], float] = {}
            distances = squared[ys, xs].tolist()
            for x, y, distance in zip(xs.tolist(), ys.tolist(), distances, strict=True):
                phase = (x % skin.pitch[0], y % skin.pitch[1])
                closest[phase] = min(distance, closest.get(phase, math.inf))
            yield sorted(closest, key=closest.__getitem__)[:PHASES_TRIED]


def read_lattice(
    skin: Skin, bank: TemplateBank[Tile], plain: Mask, screen: Image, phase: tuple[int, int]
) -> tuple[Mask, Mask, npt.NDArray[np.float32]]:
    """Read every pitch-spaced tile image from ``phase`` (the first tile's x, y): hits, strong,
    and each image's distance to the tile it reads as."""
    (pitch_x, pitch_y), (width, height) = skin.pitch, skin.tile_size
    start_x, start_y = phase
    columns = (screen.shape[1] - start_x - width) // pitch_x + 1
    rows = (screen.shape[0] - start_y - height) // pitch_y + 1
    if rows < 1 or columns < 1:
        empty = np.zeros((0, 0), dtype=bool)
        return empty, empty, np.zeros((0, 0), dtype=np.float32)
    lattice = tile_lattice(screen, phase, skin.pitch, skin.tile_size, (rows, columns))
    verdict = judge_tiles(skin, bank, lattice)
    best, distance = verdict.best.copy(), verdict.best_distance.copy()

    def judge(cells: Cells) -> tuple[Mask, Mask]:
        rows, columns = cells.T
        again = judge_tiles(skin, bank, lattice[rows, columns], only=OPENED_TILES)
        sure = again.accepted
        best[rows[sure], columns[sure]] = again.best[sure]
        distance[rows[sure], columns[sure]] = again.best_distance[sure]
        return sure, again.best == Tile.ZERO

    zeros = verdict.accepted & (verdict.best == Tile.ZERO)
    hits = opened_beside_zeros(verdict.accepted, zeros, judge)
    return hits, hits & ~plain[best], distance


def judge_tiles(
    skin: Skin,
    bank: TemplateBank[Tile],
    images: npt.NDArray[np.uint8],
    only: Mask | None = None,
) -> Verdict:
    """The skin's verdict on ``images``, its best pick a tile value: a tile's pictures for
    every size class (see :meth:`vision.skin.Skin.pictures`) count as one. ``only``: by tile
    value, the tiles the images may show (default: all)."""
    tiles = [tile for tile, _ in skin.pictures(finished=True)]
    distances = nearest_per_label(bank.distances(images), tiles, LABELS)
    if only is not None:
        distances[..., ~only] = np.inf
    return bank.judge(distances, skin.threshold)


def boards(
    hits: Mask,
    strong: Mask,
    shape: tuple[int, int] | None,
    problems: list[str],
    blocks: list[Rect],
    start: tuple[int, int],
    pitch: tuple[int, int],
) -> list[Candidate]:
    """Board rectangles on one lattice; why others were rejected is appended to ``problems``,
    and blocks that are no rectangle only for cells matching nothing to ``blocks`` (as areas of
    ``screen``)."""
    count, labels = cv2.connectedComponents(hits.astype(np.uint8), connectivity=4)
    found = []
    for label in range(1, count):
        group = (labels == label) & strong
        if not group.any():
            continue
        rows, columns = np.nonzero(group)
        top, left = int(rows.min()), int(columns.min())
        bottom, right = int(rows.max()) + 1, int(columns.max()) + 1
        at = f"the tiles at screen x {start[0] + left * pitch[0]}, y {start[1] + top * pitch[1]}"
        missing = np.argwhere(~hits[top:bottom, left:right])
        if len(missing):
            row, column = missing[0]
            blocks.append(
                Rect(
                    start[0] + left * pitch[0],
                    start[1] + top * pitch[1],
                    (right - left) * pitch[0],
                    (bottom - top) * pitch[1],
                )
            )
            problems.append(
                f"{at} form no rectangle: lattice cell (row {row}, column {column}) of the "
                f"{bottom - top}x{right - left} block matches no template for sure"
            )
            continue
        box = Candidate(top, left, bottom - top, right - left, int(group.sum()))
        fitted = box if shape is None else _fit(hits, box, shape, problems, at)
        if fitted is not None:
            found.append(fitted)
    if not found and not problems:
        problems.append("only plain tiles matched, which cannot show where a board is")
    return found


def _fit(
    hits: Mask, box: Candidate, shape: tuple[int, int], problems: list[str], at: str
) -> Candidate | None:
    """The one all-hit ``shape`` rectangle holding ``box``, or None (and why) if not exactly one."""
    rows, columns = shape
    if box.rows > rows or box.columns > columns:
        problems.append(f"{at} form a {box.rows}x{box.columns} board, larger than {rows}x{columns}")
        return None
    sums = np.pad(hits.astype(np.int32).cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    fits = [
        (top, left)
        for top in range(max(0, box.top + box.rows - rows), box.top + 1)
        for left in range(max(0, box.left + box.columns - columns), box.left + 1)
        if top + rows <= hits.shape[0]
        and left + columns <= hits.shape[1]
        and sums[top + rows, left + columns]
        - sums[top, left + columns]
        - sums[top + rows, left]
        + sums[top, left]
        == rows * columns
    ]
    if len(fits) == 1:
        top, left = fits[0]
        return Candidate(top, left, rows, columns, box.strong)
    problems.append(
        f"{at} ({box.rows}x{box.columns} distinctive cells) "
        + ("fit no" if not fits else f"fit {len(fits)} different")
        + f" {rows}x{columns} boards of readable cells"
    )
    return None


def strong_cell(hits: Mask, strong: Mask, distance: npt.NDArray[np.float32]) -> list[Candidate]:
    """The distinctive cell nearest its tile (``distance``) of the largest group of cells read
    for sure, as a one-cell board whose ``strong`` counts that group (none when no cell is
    distinctive). Nearest, because a tile with little detail still reads for sure a few pixels
    off its cell (an opened 0 drawn as a rounded square on the window's ground), and a walk
    started there sets the cells around it off by as much."""
    count, labels = cv2.connectedComponents(hits.astype(np.uint8), connectivity=4)
    sizes = [
        int((labels == label).sum()) if (strong & (labels == label)).any() else 0
        for label in range(1, count)
    ]
    if not sizes or max(sizes) == 0:
        return []
    label = 1 + sizes.index(max(sizes))
    group = strong & (labels == label)
    row, column = np.unravel_index(np.argmin(np.where(group, distance, np.inf)), group.shape)
    return [Candidate(int(row), int(column), 1, 1, max(sizes))]
