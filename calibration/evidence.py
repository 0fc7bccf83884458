"""Giving each tile appearance its meaning from the game's own logic, with no hand labelling.

Calibration records what every click did: the board before and after as a grid of appearance
ids (one id per pitch-sized picture, grouped by distance, see :class:`Catalogue`). The meanings
follow from the rules every Minesweeper obeys:

* a right-click on a hidden cell shows a FLAG; a second one a QUESTION mark (or hidden again
  when the game has no marks);
* on a loss the clicked cell shows the EXPLODED mine, every other hidden cell that changes is a
  MINE (or a number, in a game that shows everything), and a flag that changes was a WRONG_FLAG;
  a game may draw every mine as the one hit, and may redraw the cells opened before the loss
  (xbomb), each number into a look of its own: that look reads as the number it replaced;
* a picture seen on a cell opened without losing is a number; its value follows from the bounds
  the boards put on it (:mod:`calibration.numbers`): exact where a loss showed every mine, else
  at most its closed neighbours and at least the mines shown around it.

Contradictions (one appearance counting two different numbers, a cell changing on a board
where nothing else could) stop calibration with :class:`CalibrationError` naming the cell.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import product

import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError, UnknownAppearanceError
from calibration.numbers import HIGHEST, NumberBounds, count_bounds
from solver import Board, Cell, GameState, Tile
from solver.board import PICTURED_TILES
from solver.engine import neighbour_counts
from vision.geometry import Rect, padded_sources
from vision.match import TemplateBank
from vision.skin import MAX_SLACK, SIZE_CLASSES, Image

Ids = npt.NDArray[np.int32]
"""A (rows, columns) grid of appearance ids."""


GROUPING_TOLERANCE = 0.03
"""The default distance (vision.match's RMS distance / 255) within which two cell pictures count
as one appearance: a game's hidden tiles may differ by a few levels (sgt-mines draws several
variants) without being different tiles. :meth:`Catalogue.learn_spread` widens it for a game
whose fresh board varies more."""
MAX_GROUPING_TOLERANCE = 0.08
"""Above this, one appearance's pictures would vary as much as two different tiles of a game
with small digits differ."""
SPREAD_MARGIN = 2.5
"""The tolerance is this many times the widest spread seen among the fresh board's hidden tiles."""
BACKGROUND_LINE = 2.0
"""Levels by which an edge row or column of the fresh board's hidden pictures must vary more
than the picture as a whole (median per-pixel spread) to count as background between tiles."""
OFFSET_ALLOWANCE = 4
"""A level offset this many times the background's spread between the fresh board's tiles counts
as the tolerance: half-transparent opened tiles vary more than the lines between hidden ones
(kmines Expert in a 1280x1024 screen: 20 levels against 13)."""
MAX_PAINTED = 1 / 3
"""The deepest band along a side of a cell's picture that a neighbour may paint over (see
:func:`unpainted_box`), as a share of the picture."""
PAINT_LEVELS = 96
"""Levels by which a pixel must change to count as painted over: a digit's colour, not the soft
shade an opened cell casts on its neighbours (kmines: up to 41 levels) nor antialiasing."""
PAINT_MARGIN = 2
"""Lines left out past the deepest band painted over: another digit may reach a little further."""
MAX_RING = 1 / 4
"""The deepest frame inside a cell's picture a focus ring may take, as a share of the picture
(see :func:`ring_pixels`)."""
RING_LINE = 3
"""Changed pixels in one line of a cell's picture that make that line a line of a ring: a
dotted ring changes every other pixel of it."""
SHARED_LINES = 0.75
"""The share of a first click's opened pictures that must show an edge line as the hidden tile
does for it to be a grid line (see :meth:`Catalogue.trim_shared_lines`)."""
MIN_LEVEL_WEIGHT = 0.1
"""The least weight a background offset keeps (see :class:`vision.match.TemplateBank`): a flat
hidden tile and a flat opened one may differ only in level."""


class Catalogue:
    """Every distinct appearance seen, each with a small id; the hidden tile is id 0.

    Pictures are grouped by distance, not by pixel equality, so that antialiased, gradient or
    slightly varied tiles (the same tile drawn over a different background) are one appearance.
    Each appearance keeps the first picture seen as its representative. Only the ``box`` (x, y,
    width, height) of each pitch-sized picture is compared, with a background offset counted at
    ``level_weight``; :meth:`learn_spread` learns both from the fresh board.

    Pictures are grouped within a size class (:func:`vision.geometry.size_classes`): a game may
    draw a tile a little differently in wide and narrow cells, so each class has its own
    appearances, and two appearances of different classes may mean one tile. Only the hidden
    tile is one appearance in every class (the fresh board shows it everywhere alike).
    """

    def __init__(self, hidden: Image, tolerance: float = GROUPING_TOLERANCE) -> None:
        self.images: list[Image] = []
        self.tolerance = tolerance
        self.box = (0, 0, hidden.shape[1], hidden.shape[0])
        self.lines_box = self.box
        """The box without the lines most pictures share (see :meth:`trim_shared_lines`)."""
        self.level_weight = 1.0
        self.ignored: npt.NDArray[np.bool_] | None = None
        """Pixels of each picture left out of comparisons (a focus ring's, see
        :func:`ring_pixels`); None: none."""
        self.classes: dict[int, int] = {}
        """Per appearance id but the hidden tile's, the size class of the cells it shows."""
        self._bank: TemplateBank[int] | None = None
        self._alike: dict[tuple[int, int], bool] = {}
        """:meth:`alike`'s answers so far (comparing across size classes is slow)."""
        self.add(hidden)

    def learn_spread(self, blocks: npt.NDArray[np.uint8]) -> float:
        """Learn how the hidden tile varies over a fresh board (any leading shape of cell
        pictures; the ones near the hidden tile are taken as its variants) and return the
        tolerance.

        Edge rows and columns where the variants differ most are the background showing between
        tiles (kmines' gradient): they are left out of the box compared. How much the background
        varies sets how little a tile's lighter or darker background counts (half-transparent
        tiles show it), and the variants' spread within the box widens the tolerance. Raises if
        the variants spread so widely that tiles could not be told apart.
        """
        pictures = blocks.reshape(-1, *self.images[HIDDEN_ID].shape)
        loose = TemplateBank([HIDDEN_ID], [self.images[HIDDEN_ID]], MIN_LEVEL_WEIGHT)
        variants = pictures[loose.distances(pictures)[:, 0] <= MAX_GROUPING_TOLERANCE]
        spread = (variants.max(axis=0).astype(np.int16) - variants.min(axis=0)).max(axis=2)
        self.box, background = _inner_box(spread)
        self.level_weight = max(
            MIN_LEVEL_WEIGHT,
            min(1.0, GROUPING_TOLERANCE * 255 / (OFFSET_ALLOWANCE * background or 1)),
        )
        self._bank, self._alike = None, {}
        widest = float(self._distances(variants)[:, HIDDEN_ID].max())
        wanted = SPREAD_MARGIN * widest
        if wanted > MAX_GROUPING_TOLERANCE:
            raise CalibrationError(
                f"the fresh board's hidden tiles differ by up to {widest:.3f} from each other: "
                "too much to tell tiles apart by"
            )
        self.tolerance = max(self.tolerance, wanted)
        return self.tolerance

    def trim_shared_lines(self, blocks: npt.NDArray[np.uint8]) -> None:
        """Leave out of the box the edge lines that every picture of ``blocks`` (any leading
        shape: a board after its first click, hidden and opened cells) shows alike: grid lines.
        A game may redraw them when a game ends (xbomb rings the cells opened in green), which
        changes no tile. Call it before any picture but the hidden one is added.

        Also keeps, as :attr:`lines_box`, the box without the edge lines that every hidden
        picture and most others (:data:`SHARED_LINES`) show as the hidden tile does: a game
        whose digits are drawn past their cells (xbomb's in 20-px cells) crosses a few grid
        lines with them (see :meth:`with_box`)."""
        pictures = blocks.reshape(-1, *self.images[HIDDEN_ID].shape)
        (x, y), (width, height) = tile_box(list(pictures), self.box)
        hidden = self._distances(pictures)[:, HIDDEN_ID] <= self.tolerance
        self.box = (x, y, width, height)
        self._bank, self._alike = None, {}
        tile = self.images[HIDDEN_ID][y : y + height, x : x + width]
        same = (pictures[:, y : y + height, x : x + width] == tile).all(axis=3)

        def shared(lines: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
            """Per line, whether it is one the pictures share (``lines``: per picture)."""
            most = lines[~hidden].mean(axis=0) >= SHARED_LINES if (~hidden).any() else True
            return np.asarray(lines[hidden].all(axis=0) & most)

        rows, columns = shared(same.all(axis=2)), shared(same.all(axis=1))
        top, bottom = _leading(rows), height - _leading(rows[::-1])
        left, right = _leading(columns), width - _leading(columns[::-1])
        if top < bottom and left < right:
            self.lines_box = (x + left, y + top, right - left, bottom - top)

    def with_box(self, box: tuple[int, int, int, int]) -> Catalogue:
        """A catalogue comparing only ``box`` of each picture, and of it only what
        :attr:`lines_box` holds (a game that paints past its cells crosses grid lines too),
        with this one's tolerance and background weight, knowing only the hidden tile."""
        shared = Rect(*box).intersection(Rect(*self.lines_box))
        if shared.width and shared.height:
            box = (shared.left, shared.top, shared.width, shared.height)
        return self._anew(box, self.ignored)

    def ignoring(self, pixels: npt.NDArray[np.bool_]) -> Catalogue:
        """A catalogue that also leaves ``pixels`` (of a picture) out of comparisons, comparing
        this one's box, knowing only the hidden tile."""
        return self._anew(self.box, pixels if self.ignored is None else self.ignored | pixels)

    def _anew(
        self, box: tuple[int, int, int, int], ignored: npt.NDArray[np.bool_] | None
    ) -> Catalogue:
        """A catalogue comparing ``box`` less ``ignored``, with this one's tolerance, lines and
        background weight, knowing only the hidden tile."""
        catalogue = Catalogue(self.images[HIDDEN_ID], self.tolerance)
        catalogue.box, catalogue.ignored = box, ignored
        catalogue.lines_box, catalogue.level_weight = self.lines_box, self.level_weight
        return catalogue

    def ignores_all(self, pixels: npt.NDArray[np.bool_]) -> bool:
        """Whether every one of ``pixels`` (of a picture) is left out of comparisons already,
        or lies outside the box compared."""
        x, y, width, height = self.box
        inside = pixels[y : y + height, x : x + width]
        if self.ignored is not None:
            inside = inside & ~self.ignored[y : y + height, x : x + width]
        return not inside.any()

    @property
    def mask(self) -> npt.NDArray[np.bool_] | None:
        """The pixels of the box compared (see :class:`vision.match.TemplateBank`); None: all."""
        if self.ignored is None:
            return None
        x, y, width, height = self.box
        return np.ascontiguousarray(~self.ignored[y : y + height, x : x + width])

    def add(self, image: Image, size_class: int = 0) -> int:
        """The id of ``image``'s appearance (seen on a cell of ``size_class``), new if no known
        one of that class is within the tolerance."""
        if self.images:
            distances = self._distances(image[None])[0] + self._barred(size_class)
            nearest = int(np.argmin(distances))
            if distances[nearest] <= self.tolerance:
                return nearest
        return self.add_distinct(image, size_class)

    def add_distinct(self, image: Image, size_class: int = 0) -> int:
        """A new appearance for ``image`` even if a known one is within the tolerance: the game
        was seen drawing it in place of that one (gnome-mines' question mark is its flag with a
        small "?"). Each picture then takes the id of the appearance nearest to it."""
        self.images.append(np.array(image))
        self._bank = None
        if len(self.images) > 1:
            self.classes[len(self.images) - 1] = size_class
        return len(self.images) - 1

    def ids(
        self, blocks: npt.NDArray[np.uint8], classes: npt.NDArray[np.uint8] | None = None
    ) -> Ids:
        """Ids of a (rows, columns, height, width, 3) array of cell pictures, whose cells have
        the size ``classes`` (rows, columns; default all class 0). Each picture takes the
        appearance nearest to it, counting those its own frame adds: a 0 over an edge of the
        game's background may lie within the tolerance of the hidden tile and yet nearer the 0
        a cell beside it shows."""
        rows, columns = blocks.shape[:2]
        if classes is None:
            classes = np.zeros((rows, columns), dtype=np.uint8)
        known = len(self.images)
        nearest, distance = self._nearest(blocks, classes)
        for row, column in np.argwhere(distance > self.tolerance):
            nearest[row, column] = self.add(blocks[row, column], int(classes[row, column]))
        if len(self.images) > known:
            nearest = self._nearest(blocks, classes)[0]
        return nearest.reshape(rows, columns)

    def _nearest(
        self, blocks: npt.NDArray[np.uint8], classes: npt.NDArray[np.uint8]
    ) -> tuple[Ids, npt.NDArray[np.float32]]:
        """Per picture of ``blocks`` (see :meth:`ids`), the known appearance of its cell's size
        class nearest to it, and its distance."""
        distances = self._distances(blocks)
        if self.classes and classes.any():  # no appearance of another class is nearest
            distances = (
                distances + np.stack([self._barred(c) for c in range(SIZE_CLASSES)])[classes]
            )
        nearest = np.argmin(distances, axis=-1).astype(np.int32)
        return nearest, np.take_along_axis(distances, nearest[..., None], axis=-1)[..., 0]

    def share_class(self, first: int, second: int) -> bool:
        """Whether two appearances may show on cells of one size class (then they are two
        tiles; otherwise they may be one tile drawn for two sizes)."""
        one, other = self.classes.get(first), self.classes.get(second)
        return one is None or other is None or one == other

    def alike(self, first: int, second: int) -> bool:
        """Whether two appearances' pictures are within the tolerance of each other: one tile,
        if they show on cells of different size classes (then at the best of the places where
        the game may add a wider cell's pixels, see :func:`vision.geometry.padded_sources`)."""
        known = self._alike.get((first, second))
        if known is None:
            known = self._alike[first, second] = self._compare(first, second)
        return known

    def _compare(self, first: int, second: int) -> bool:
        if self.share_class(first, second):
            distances = self._distances(self.images[first][None])[0]
            return bool(distances[second] <= self.tolerance)
        x, y, width, height = self.box
        crop = (..., slice(y, y + height), slice(x, x + width), slice(None))
        target = self.images[second]
        bank = TemplateBank([second], [target[crop]], self.level_weight, self.mask)
        distances = bank.distances(self._placed(first, second)[crop])
        return bool(distances.min() <= self.tolerance)

    def _placed(self, first: int, second: int) -> npt.NDArray[np.uint8]:
        """(places along y, places along x, height, width, 3): appearance ``first``'s picture
        moved as a cell of ``second``'s size class would show the tile, for each place where
        the game may add the wider cell's pixels. A pixel no pixel of ``first`` shows (an added
        one, or one left out of comparisons) is ``second``'s own, so only the rest counts."""
        picture, target = self.images[first], self.images[second]
        one, other = self.classes.get(first, 0), self.classes.get(second, 0)
        takes = []  # per axis: for each place, the line of ``first`` each line of ``second`` shows
        for axis, wide in ((0, 2), (1, 1)):  # y, then x (size class bits, vision.geometry)
            lines = picture.shape[axis]
            if not (one ^ other) & wide:
                takes.append(np.arange(lines)[None])
                continue
            placements = []
            for excess in range(1, MAX_SLACK + 1):
                sources = padded_sources(lines, excess)
                if one & wide:  # ``first`` is the wider cell: turn the map round
                    turned = np.full_like(sources, -1)
                    places, shown = np.nonzero(sources >= 0)
                    turned[places, sources[places, shown]] = shown
                    sources = turned
                placements.append(sources)
            takes.append(np.unique(np.concatenate(placements), axis=0))
        rows, columns = takes[0][:, None, :, None], takes[1][None, :, None, :]
        shown_here = (rows >= 0) & (columns >= 0)
        rows, columns = np.maximum(rows, 0), np.maximum(columns, 0)
        if self.ignored is not None:
            shown_here &= ~self.ignored[rows, columns]
        return np.where(shown_here[..., None], picture[rows, columns], target)

    def _barred(self, size_class: int) -> npt.NDArray[np.float32]:
        """Per appearance, infinity unless it may show on a cell of ``size_class``."""
        barred = np.zeros(len(self.images), dtype=np.float32)
        for appearance, its_class in self.classes.items():
            if its_class != size_class:
                barred[appearance] = np.inf
        return barred

    def _distances(self, blocks: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
        x, y, width, height = self.box
        if self._bank is None:
            crops = [image[y : y + height, x : x + width] for image in self.images]
            self._bank = TemplateBank(list(range(len(crops))), crops, self.level_weight, self.mask)
        return self._bank.distances(blocks[..., y : y + height, x : x + width, :])


def _inner_box(spread: npt.NDArray[np.int16]) -> tuple[tuple[int, int, int, int], float]:
    """The (x, y, width, height) box of a picture left once edge lines whose per-pixel
    ``spread`` (levels) stands out are cut (at most half the picture each way), and how much
    the background varies, in levels: the median spread of the pixels cut (of the whole
    picture when none is)."""
    height, width = spread.shape
    typical = float(np.median(spread))
    top, bottom, left, right = 0, height, 0, width
    while True:
        lines = {
            "top": (spread[top, left:right], bottom - top, height),
            "bottom": (spread[bottom - 1, left:right], bottom - top, height),
            "left": (spread[top:bottom, left], right - left, width),
            "right": (spread[top:bottom, right - 1], right - left, width),
        }
        side, (line, length, full) = max(lines.items(), key=lambda item: np.median(item[1][0]))
        if np.median(line) <= typical + BACKGROUND_LINE or 2 * (length - 1) < full:
            break
        top += side == "top"
        bottom -= side == "bottom"
        left += side == "left"
        right -= side == "right"
    cut = np.ones_like(spread, dtype=bool)
    cut[top:bottom, left:right] = False
    background = float(np.median(spread[cut])) if cut.any() else typical
    return (left, top, right - left, bottom - top), background


def tile_box(
    blocks: list[Image], box: tuple[int, int, int, int]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The tile inside pitch blocks: the part of ``box`` (x, y, width, height) without the edge
    lines every one of ``blocks`` shows alike (grid lines), as ``(x, y), (width, height)``."""
    x, y, box_width, box_height = box
    stack = np.stack(blocks)[:, y : y + box_height, x : x + box_width]
    same = (stack == stack[:1]).all(axis=(0, 3))
    rows_same, columns_same = same.all(axis=1), same.all(axis=0)
    top = _leading(rows_same)
    bottom = len(rows_same) - _leading(rows_same[::-1])
    left = _leading(columns_same)
    right = len(columns_same) - _leading(columns_same[::-1])
    if top >= bottom or left >= right:
        return (x, y), (box_width, box_height)
    return (x + left, y + top), (right - left, bottom - top)


def unpainted_box(
    before: npt.NDArray[np.uint8], after: npt.NDArray[np.uint8], box: tuple[int, int, int, int]
) -> tuple[int, int, int, int]:
    """``box`` (x, y, width, height in a cell's picture) without the bands a click painted
    over: ``before`` and ``after`` are every cell's picture (rows, columns, height, width, 3)
    around the click.

    A game may draw a cell's number larger than the cell (xbomb's digits in 20-px cells reach a
    few pixels into the cell below), so the cells beside one that opens change in a band along
    the side facing it, hidden or opened, and a tile shows in several pictures there. A band
    counts when a cell changed only within :data:`MAX_PAINTED` of its side facing a neighbour
    that changed beyond such bands (opened); the box then ends :data:`PAINT_MARGIN` lines past
    the deepest band on each side. Changes outside ``box`` (lines between cells, which a game
    may redraw when a game ends) do not count.
    """
    height, width = before.shape[2:4]
    x, y, box_width, box_height = box
    inside = np.s_[y : y + box_height, x : x + box_width]  # lines left out already do not count
    touched = (before[:, :, *inside] != after[:, :, *inside]).any(axis=(2, 3, 4)).nonzero()
    difference = np.abs(before[touched][:, *inside].astype(np.int16) - after[touched][:, *inside])
    changed = difference.max(axis=-1) > PAINT_LEVELS  # (cells touched, box height, box width)
    spans: dict[tuple[int, int], tuple[int, int, int, int]] = {}  # top, bottom, left, right
    for (row, column), pixels in zip(zip(*touched, strict=True), changed, strict=True):
        rows, columns = np.flatnonzero(pixels.any(axis=1)), np.flatnonzero(pixels.any(axis=0))
        if rows.size:
            top, bottom = y + int(rows[0]), y + int(rows[-1]) + 1
            spans[int(row), int(column)] = (
                top,
                bottom,
                x + int(columns[0]),
                x + int(columns[-1]) + 1,
            )
    deep_rows, deep_columns = MAX_PAINTED * height, MAX_PAINTED * width
    opened = {
        cell
        for cell, (top, bottom, left, right) in spans.items()
        if bottom - top > deep_rows and right - left > deep_columns
    }
    left_edge, top_edge, right_edge, bottom_edge = x, y, x + box_width, y + box_height
    for (row, column), (top, bottom, left, right) in spans.items():
        if (row - 1, column) in opened and bottom <= deep_rows:
            top_edge = max(top_edge, bottom + PAINT_MARGIN)
        if (row + 1, column) in opened and top >= height - deep_rows:
            bottom_edge = min(bottom_edge, top - PAINT_MARGIN)
        if (row, column - 1) in opened and right <= deep_columns:
            left_edge = max(left_edge, right + PAINT_MARGIN)
        if (row, column + 1) in opened and left >= width - deep_columns:
            right_edge = min(right_edge, left - PAINT_MARGIN)
    if 2 * (right_edge - left_edge) < width or 2 * (bottom_edge - top_edge) < height:
        return box  # too little left to tell tiles apart by: the game is not understood
    return left_edge, top_edge, right_edge - left_edge, bottom_edge - top_edge


def ring_pixels(
    before: npt.NDArray[np.uint8],
    after: npt.NDArray[np.uint8],
    opened_before: npt.NDArray[np.bool_],
    clicked: Cell,
    box: tuple[int, int, int, int],
) -> npt.NDArray[np.bool_] | None:
    """The pixels of a cell's picture where a focus ring moved off a cell that showed an opened
    tile (``opened_before``, rows x columns) and was not ``clicked``, between ``before`` and
    ``after`` (every cell's picture: rows, columns, height, width, 3); None if none did.

    A game whose cells are toolkit buttons (DangerUXB's tk ones) draws a ring, often dotted, just
    inside the edges of the button clicked last: a tile shows with it and without it. A cell
    counts when it changed only within a frame (see :func:`_frame_ring`); changes outside
    ``box`` (lines between cells, which a game may redraw when a game ends) do not count. A ring
    leaves one cell: frames that changed on several (a game redrawing its buttons on a loss) are
    none."""
    x, y, width, height = box
    inside = np.s_[y : y + height, x : x + width]
    ring = None
    candidates = opened_before & (before[:, :, *inside] != after[:, :, *inside]).any(axis=(2, 3, 4))
    candidates[clicked] = False
    for row, column in np.argwhere(candidates):
        found = _frame_ring(before[row, column], after[row, column], box)
        if found is None:
            continue
        if ring is not None:  # a second cell: no ring
            return None
        ring = found
    return ring


def hit_ring(
    after: npt.NDArray[np.uint8],
    uncovered: npt.NDArray[np.bool_],
    clicked: Cell,
    classes: npt.NDArray[np.uint8],
    box: tuple[int, int, int, int],
) -> npt.NDArray[np.bool_] | None:
    """The pixels of a cell's picture where the ``clicked`` cell differs from another cell the
    same click ``uncovered`` (rows x columns), of its size class (``classes``), by a focus ring
    alone (see :func:`_frame_ring`); None if it differs from none so. ``after``: every cell's
    picture after the click.

    DangerUXB draws every mine of a loss as the one hit, and the hit, its button sunken, with
    its focus ring deeper inside than on a number: no ring moves off an opened cell there, and
    the hit would otherwise look unlike the mines it uncovered whenever the focus is on it."""
    same = uncovered & (classes == classes[clicked])
    same[clicked] = False
    for row, column in np.argwhere(same):
        ring = _frame_ring(after[row, column], after[clicked], box)
        if ring is not None:
            return ring
    return None


def _frame_ring(
    first: npt.NDArray[np.uint8], second: npt.NDArray[np.uint8], box: tuple[int, int, int, int]
) -> npt.NDArray[np.bool_] | None:
    """Where two pictures of a cell differ, as a ring: None unless, within ``box`` (x, y,
    width, height: the part compared), they differ only within a frame no deeper than
    :data:`MAX_RING` of it, on all four sides. The pixels are those that differ, with each
    line of the frame that holds :data:`RING_LINE` of them filled from end to end (a dotted
    ring's gaps)."""
    x, y, width, height = box
    inside = np.s_[y : y + height, x : x + width]
    changed = (first[inside] != second[inside]).any(axis=2)
    ys, xs = np.nonzero(changed)
    if not len(ys):
        return None
    insets = np.minimum(np.minimum(ys, height - 1 - ys), np.minimum(xs, width - 1 - xs))
    depth = int(insets.max())
    sides = (
        (ys <= depth).any(),
        (ys >= height - 1 - depth).any(),
        (xs <= depth).any(),
        (xs >= width - 1 - depth).any(),
    )
    if depth > MAX_RING * min(height, width) or not all(sides):
        return None
    ring = np.zeros(first.shape[:2], dtype=bool)
    ring[inside] = changed
    top, bottom, left, right = y + ys.min(), y + ys.max() + 1, x + xs.min(), x + xs.max() + 1
    for line in np.flatnonzero(changed.sum(axis=1) >= RING_LINE):
        ring[y + line, left:right] = True
    for line in np.flatnonzero(changed.sum(axis=0) >= RING_LINE):
        ring[top:bottom, x + line] = True
    return ring


def _leading(flags: np.ndarray) -> int:
    count = 0
    for flag in flags:
        if not flag:
            break
        count += 1
    return count


HIDDEN_ID = 0


class ClickKind(StrEnum):
    """Which button a calibration click pressed. Not :class:`solver.strategy.Action`: a right-click
    here puts a flag, a question mark or nothing, whatever the game does next."""

    OPEN = "open"
    """A left-click."""
    MARK = "mark"
    """A right-click."""


@dataclass(frozen=True)
class Step:
    """One click and the board before and after it."""

    click: ClickKind
    cell: Cell
    before: Ids
    after: Ids
    unpainted: tuple[int, int, int, int] | None = None
    """For a click that opened cells, the part of the cells' pictures it left unpainted beside
    them (see :func:`unpainted_box`); None: not looked at."""
    ring: npt.NDArray[np.bool_] | None = None
    """The pixels of a cell's picture where a focus ring moved off a cell opened before (see
    :func:`ring_pixels`); None: none did."""

    @property
    def changed(self) -> npt.NDArray[np.bool_]:
        return self.before != self.after

    def painted_past(self, box: tuple[int, int, int, int]) -> bool:
        """Whether the click painted over part of ``box`` (the part of the cells compared) in
        cells beside those it opened (see :func:`unpainted_box`)."""
        return self.unpainted not in (None, box)

    @property
    def uncovered(self) -> npt.NDArray[np.bool_]:
        """The cells hidden before the click that it changed."""
        return self.changed & (self.before == HIDDEN_ID)


@dataclass
class PlayedGame:
    """The steps of one calibration game; its ``state`` is LOST once its last step is known to
    have lost it (WON likewise)."""

    steps: list[Step] = field(default_factory=list)
    state: GameState = GameState.PLAYING
    mines: int | None = None
    """The board's mine count, where the user gave it."""

    @property
    def finished(self) -> bool:
        return self.state is not GameState.PLAYING


@dataclass
class Evidence:
    """What the games showed, shared by every window of one game program calibrated together."""

    catalogue: Catalogue
    games: list[PlayedGame] = field(default_factory=list)
    opened: set[int] = field(default_factory=set)
    """Appearances seen on hidden cells that changed on a click that did not lose."""
    loss_messages: list[bool] = field(default_factory=list)
    """Per lost board watched for a message drawn over it, whether the board changed again."""
    set_aside: list[PlayedGame] = field(default_factory=list)
    """Games whose boards contradicted the others (see :meth:`set_game_aside`), in order."""
    _lasting: set[int] = field(default_factory=set, init=False, repr=False)
    _marks: set[int] = field(default_factory=set, init=False, repr=False)
    _scanned: list[int] = field(default_factory=list, init=False, repr=False)
    """Per game, how many of its steps :meth:`_scan` has looked at."""

    def opened_safely(self, step: Step) -> None:
        """Record the appearances of the cells ``step`` opened as safe ones.

        Cells next to a flag are left out: some games draw a number with more flags around it
        than it counts in another way (sgt-mines), and calibration's flags are often wrong.
        """
        self._scan()
        flagged = np.isin(step.after, list(self._marks - {HIDDEN_ID}))
        opened = step.uncovered & (neighbour_counts(flagged) == 0)
        self.opened.update(int(i) for i in np.unique(step.after[opened]))

    @property
    def safe_appearances(self) -> set[int]:
        """Appearances of opened cells: the numbers.

        Only pictures that lasted count: a cell showing one after a click shows it again when the
        board is captured for the next click, so a frame caught in a flash or a repaint teaches
        nothing. And the flags a game puts on the mines left when a click wins it change hidden
        cells too, so what a right-click shows is left out.
        """
        self._scan()
        return (self.opened & self._lasting) - self._marks

    def _scan(self) -> None:
        """Look at the steps recorded since the last scan, for lasting pictures and marks."""
        self._scanned += [0] * (len(self.games) - len(self._scanned))
        for index, game in enumerate(self.games):
            start = self._scanned[index]
            for later in range(max(start, 1), len(game.steps)):
                earlier = game.steps[later - 1].after
                kept = (earlier == game.steps[later].before) & (earlier != HIDDEN_ID)
                self._lasting.update(int(i) for i in np.unique(earlier[kept]))
            for step in game.steps[start:]:
                if step.click is ClickKind.MARK:
                    self._marks.add(int(step.after[step.cell]))
            self._scanned[index] = len(game.steps)

    def set_game_aside(self, game: PlayedGame) -> None:
        """Learn nothing more from ``game``'s boards (they contradict the others), but keep
        them to be weighed again (:meth:`take_back_instead_of`); the pictures it showed that
        lasted stay known, as a later capture confirmed each."""
        index = next(index for index, kept in enumerate(self.games) if kept is game)
        del self.games[index]
        del self._scanned[index : index + 1]
        self.set_aside.append(game)

    def forget(self, games: Sequence[PlayedGame]) -> None:
        """Learn nothing from ``games``, kept or set aside (played on a part of the board taken
        for the whole: their numbers count mines outside it). The pictures they showed that
        lasted stay known, as a game set aside's do."""
        gone = {id(game) for game in games}
        kept = [index for index, game in enumerate(self.games) if id(game) not in gone]
        self._scanned = [self._scanned[index] for index in kept if index < len(self._scanned)]
        self.games = [self.games[index] for index in kept]
        self.set_aside = [game for game in self.set_aside if id(game) not in gone]

    def take_back_instead_of(self, odd: PlayedGame) -> None:
        """Set ``odd`` aside and learn from the games set aside before again: together with
        the others they outvote it."""
        back, self.set_aside = self.set_aside, []
        self.set_game_aside(odd)
        self.games += back

    def rebase(self, catalogue: Catalogue) -> None:
        """Read every game recorded so far, and the ones to come, with ``catalogue`` (one that
        compares another part of the cells' pictures): each appearance becomes the one its
        picture is in the new catalogue, so pictures that differed only outside the part
        compared now are one."""
        old = self.catalogue
        new_ids = np.array(
            [catalogue.add(image, old.classes.get(i, 0)) for i, image in enumerate(old.images)],
            dtype=np.int32,
        )
        for game in self.games + self.set_aside:
            game.steps[:] = [
                replace(step, before=new_ids[step.before], after=new_ids[step.after])
                for step in game.steps
            ]
        self.opened = {int(new_ids[i]) for i in self.opened}
        self._lasting = {int(new_ids[i]) for i in self._lasting}
        self._marks = {int(new_ids[i]) for i in self._marks}
        self.catalogue = catalogue

    def end_appearances(self) -> list[int]:
        """Appearances only a lost game shows: those the losing click showed on its cell, not
        safe ones. Not the other cells a loss changed: a game that shows every cell on a loss
        (xbomb) shows numbers there that no safe click opened yet."""
        ends = {
            int(game.steps[-1].after[game.steps[-1].cell])
            for game in self.games
            if game.state is GameState.LOST
        }
        return sorted(ends - self.safe_appearances - {HIDDEN_ID})


@dataclass
class Meanings:
    """What calibration has worked out: appearance id to tile, and where each was learned."""

    tiles: dict[int, Tile] = field(default_factory=dict)
    where: dict[int, str] = field(default_factory=dict)
    numbers: NumberBounds = field(default_factory=NumberBounds)
    """What the boards prove about the value of each number picture."""
    has_question_marks: bool | None = None
    """None until a second right-click has shown whether the game has question marks."""
    catalogue: Catalogue | None = None
    """Where the appearances' size classes are known; without it every appearance is taken to
    share one class (one tile, one appearance)."""
    finished: dict[int, int] = field(default_factory=dict)
    """Pictures a lost game drew in place of a number on the cells opened before its end, each
    with the appearance of the number it replaced (see :func:`redrawn_numbers`), and in place
    of the hidden tile on closed cells with no mine (see :func:`_no_mines`)."""
    hit_mine_apart: bool | None = None
    """Whether a loss draws the mine hit unlike the other mines; None until a loss showed both.
    False: every mine is drawn as the EXPLODED one, and MINE has no picture of its own."""

    def copy(self) -> Meanings:
        """A copy to learn a game into, kept only if the game contradicts nothing (the
        catalogue is shared, not copied)."""
        numbers = NumberBounds(
            dict(self.numbers.low), dict(self.numbers.high), dict(self.numbers.where)
        )
        return replace(
            self,
            tiles=dict(self.tiles),
            where=dict(self.where),
            numbers=numbers,
            finished=dict(self.finished),
        )

    def readable(self) -> dict[int, Tile]:
        """The tile of every appearance whose tile is known (finished looks included)."""
        looks = {look: self.tiles.get(number) for look, number in self.finished.items()}
        return self.tiles | {look: tile for look, tile in looks.items() if tile is not None}

    def id_of(self, tile: Tile) -> int | None:
        return next((i for i, t in self.tiles.items() if t == tile), None)

    def ids_of(self, tile: Tile) -> list[int]:
        """Every appearance of ``tile`` (one per size class it is drawn differently in)."""
        return [i for i, t in self.tiles.items() if t == tile]

    def share_class(self, first: int, second: int) -> bool:
        return self.catalogue is None or self.catalogue.share_class(first, second)

    def give(self, appearance: int, tile: Tile, where: str) -> None:
        """Record ``appearance`` as ``tile``; raise if either already has another partner."""
        known = self.tiles.get(appearance)
        if known is not None and known != tile:
            raise CalibrationError(
                f"appearance #{appearance} looks like {known.name} ({self.where[appearance]}) "
                f"but also like {tile.name} ({where})"
            )
        other = next(
            (i for i in self.ids_of(tile) if i != appearance and self.share_class(i, appearance)),
            None,
        )
        if other is not None:
            raise CalibrationError(
                f"{tile.name} has two appearances: #{other} ({self.where[other]}) and "
                f"#{appearance} ({where}); the game draws it in more than one way, or draws "
                "past its cells (then enlarge the window)"
            )
        if known is None:
            self.tiles[appearance] = tile
            self.where[appearance] = where

    def missing(self) -> list[Tile]:
        """Tiles not learned yet (QUESTION is not missing from a game that has no marks)."""
        learned = set(self.tiles.values())
        return [
            tile
            for tile in PICTURED_TILES
            if tile not in learned
            and not (tile == Tile.QUESTION and self.has_question_marks is False)
            and not (tile == Tile.MINE and self.hit_mine_apart is False)
        ]


def learn_marks(meanings: Meanings, game: PlayedGame) -> None:
    """FLAG from a right-click on a hidden cell; QUESTION (or none) from a right-click on a flag."""
    for step in game.steps:
        if step.click != ClickKind.MARK:
            continue
        before, after = int(step.before[step.cell]), int(step.after[step.cell])
        where = f"right-click on cell {step.cell}"
        if before == HIDDEN_ID:
            if after == HIDDEN_ID:
                raise CalibrationError(f"{where} changed nothing: the game shows no flags?")
            meanings.give(after, Tile.FLAG, where)
        elif meanings.tiles.get(before) == Tile.FLAG:
            if after == HIDDEN_ID:
                meanings.has_question_marks = False
            else:
                meanings.has_question_marks = True
                meanings.give(after, Tile.QUESTION, where + " showing a flag")


def redrawn_numbers(before: Ids, after: Ids, safe: set[int]) -> dict[int, int] | None:
    """How a finished board ``after`` redrew the cells that showed numbers (``safe``
    appearances) on ``before``: each new picture with the number appearance it replaced.

    Empty when no such cell changed. A game that redraws them (xbomb rings them in green)
    redraws every one, each number into one picture of its own never seen on a safe cell;
    anything else (some cells redrawn and others not, two numbers alike, a picture of another
    tile) is a board caught in the middle of its repaint, and gives None.
    """
    opened = np.isin(before, list(safe))
    changed = opened & (after != before)
    if not changed.any():
        return {}
    if (opened & ~changed).any():
        return None
    pairs = set(zip(after[opened].tolist(), before[opened].tolist(), strict=True))
    looks = dict(pairs)
    if len(looks) != len(pairs) or len(set(looks.values())) != len(looks):
        return None
    if HIDDEN_ID in looks or set(looks) & safe:
        return None
    return {int(look): int(number) for look, number in looks.items()}


def learn_from_loss(meanings: Meanings, game: PlayedGame, safe: set[int]) -> None:
    """EXPLODED, MINE and WRONG_FLAG from the last, losing step of ``game``, and what the loss
    proves about the numbers around (``safe``: the appearances seen on cells opened safely).

    A hidden cell that changes on the loss shows a MINE, unless its new picture is a number
    (a game that shows everything on a loss) or the EXPLODED one (a game that draws every mine
    as the one hit; on a cell of another size class, a picture alike is EXPLODED there). A
    question-marked one teaches nothing: some games show the mine under it, others keep the
    mark, redrawn on the finished board (gnome-mines), mine or not. Cells opened before the loss
    keep their numbers, or are all redrawn, each number into a finished look of its own
    (:func:`redrawn_numbers`). A game that showed the
    mines shows all of them but perhaps those under marks
    redrawn so, so a number counts the mines shown plus at most its neighbours of that kind; one
    that shows only the mine hit bounds its neighbours.
    """
    if game.state is not GameState.LOST or not game.steps:
        return
    last = game.steps[-1]
    before, after = last.before, last.after
    where = f"the loss at cell {last.cell}"
    hit = int(after[last.cell])
    meanings.give(hit, Tile.EXPLODED, where)
    looks = redrawn_numbers(before, after, safe) or {}
    changed = last.changed
    changed[last.cell] = False
    closed = [i for i, tile in meanings.tiles.items() if tile.is_closed]
    uncovered = changed & np.isin(before, closed)
    catalogue = meanings.catalogue
    others = {int(i) for i in np.unique(after[uncovered])} - {hit} - safe
    if catalogue is not None:  # the mine hit's picture, on a cell of another size class
        for other in others:
            if not catalogue.share_class(hit, other) and catalogue.alike(hit, other):
                meanings.give(other, Tile.EXPLODED, f"{where}, drawn as the mine hit")
    hits = meanings.ids_of(Tile.EXPLODED)
    alike = bool(np.isin(after[uncovered], hits).any())
    marks = np.isin(before, [i for t in (Tile.FLAG, Tile.QUESTION) for i in meanings.ids_of(t)])
    mines = None if alike else game.mines  # with every mine drawn as the hit, no other is one
    no_mines = _no_mines(meanings, after[uncovered & ~marks], hit, mines, int(marks.sum()))
    flagged = np.isin(before, meanings.ids_of(Tile.FLAG))
    shown = uncovered & ~marks & ~np.isin(after, list(no_mines))
    redrawn_flags = changed & flagged
    others_marked = int(marks.sum() - redrawn_flags.sum())
    right_flags = _right_flags(
        meanings, after[redrawn_flags], int(shown.sum()), mines, others_marked
    )
    for row, column in zip(*np.nonzero(changed), strict=True):
        cell = (int(row), int(column))
        was, now = int(before[cell]), int(after[cell])
        was_tile = meanings.tiles.get(was)
        if now in safe or was_tile == Tile.QUESTION:
            continue
        if now in no_mines:
            if was_tile == Tile.HIDDEN and meanings.finished.get(now, was) == was:
                meanings.finished[now] = was
            continue
        if uncovered[cell]:
            # With every mine drawn as the one hit, any other picture uncovered is a number
            # (perhaps one never opened yet): it is learned where a cell opens safely.
            if not alike:
                meanings.give(now, Tile.MINE, f"{where}, cell {cell} uncovered")
        elif was_tile == Tile.FLAG and now in right_flags:
            meanings.finished[now] = was  # a mine, its flag redrawn on the finished field
        elif was_tile == Tile.FLAG:
            if not (alike and now in hits):  # else the mine under the flag, drawn as the hit one
                meanings.give(now, Tile.WRONG_FLAG, f"{where}, the flag on cell {cell} changed")
        elif was_tile is None and was not in safe:
            # A picture that never lasted: the board before the click was caught mid-draw (Wine
            # on a loaded machine pauses in the middle of drawing a flood); it teaches nothing.
            continue
        elif (
            looks.get(now) == was
            and meanings.finished.get(now, was) == was
            and now not in meanings.tiles
        ):
            meanings.finished[now] = was
        else:
            known = {i: _known_as(meanings, i, safe) for i in (was, now)}
            beside = bool(neighbour_counts(uncovered)[cell])
            raise CalibrationError(
                f"{where}: cell {cell} changed from appearance #{was} ({known[was]}) to "
                f"#{now} ({known[now]}) on losing, and not as every cell opened before; "
                "that is no rule of Minesweeper"
                + (
                    ", but a neighbour the loss uncovered may have drawn over it: if the "
                    "game's numbers or mines spill out of their cells, enlarge the window"
                    if beside
                    else ""
                )
            )
    apart = bool(np.isin(after[changed], meanings.ids_of(Tile.MINE)).any())
    _learn_how_mines_are_drawn(meanings, alike, apart, where)

    def showing(*tiles: Tile) -> npt.NDArray[np.bool_]:
        known = [i for tile in tiles for i in meanings.ids_of(tile)]
        return np.isin(after, known)

    mines_shown = showing(Tile.MINE).any() or alike
    # Flags left standing on a board that shows the mines are mines in a game that marks its
    # wrong flags (one such mark learned); another game may leave a wrong flag as it was.
    kept = neighbour_counts(showing(Tile.FLAG) & (before == after) & mines_shown)
    none = np.zeros_like(kept)
    sure, unsure = (kept, none) if meanings.ids_of(Tile.WRONG_FLAG) else (none, kept)
    counts = neighbour_counts(showing(Tile.MINE, Tile.EXPLODED)) + sure
    counts += neighbour_counts(flagged & np.isin(after, list(right_flags)))
    # A question mark whose cell shows a known tile after the loss (the mine under it, or the
    # mark unchanged on a cell with none, as in Windows Minesweeper) is counted as what it shows.
    redrawn = np.isin(before, meanings.ids_of(Tile.QUESTION)) & ~np.isin(
        after, list(meanings.tiles)
    )
    marked = neighbour_counts(redrawn)
    numbers = after.copy()
    for look, number in meanings.finished.items():
        numbers[after == look] = number
    # A flag that turned into a number's picture may be the game's sign of a wrong flag (xbomb
    # draws it as its blank 0), not that number: it bounds nothing.
    was_flagged = np.isin(before, meanings.ids_of(Tile.FLAG))
    for row, column in zip(*np.nonzero(np.isin(numbers, list(safe)) & ~was_flagged), strict=True):
        cell = (int(row), int(column))
        number = int(counts[cell])
        high = number + int(marked[cell] + unsure[cell]) if mines_shown else HIGHEST
        meanings.numbers.narrow(
            int(numbers[cell]), number, high, f"{where}, cell {cell} next to {number} mines shown"
        )


def _no_mines(
    meanings: Meanings,
    uncovered: npt.NDArray[np.int32],
    hit: int,
    mines: int | None,
    marked: int = 0,
) -> set[int]:
    """The pictures of the unmarked closed cells a loss changed (``uncovered``, besides the
    mine ``hit``) that cannot be mines, where the board's mine count ``mines`` is known and the
    loss draws the mines apart from the hit one. A game
    that darkens its whole field on a loss (gnome-mines' classic theme) so draws its closed
    cells with no mine. Pictures alike (one tile's in other size classes) count together.

    Such a loss shows every mine but the hit one and those under the ``marked`` cells: with
    more pictures than that, a picture on more cells than there are mines besides the hit one
    is none; so is every other picture where exactly one picture's cells are as many as the
    mines shown may be (a loss leaving few closed cells), and one already learned as a closed
    cell's finished look."""
    pictures, counts = np.unique(uncovered[uncovered != hit], return_counts=True)
    cells = dict(zip(pictures.tolist(), counts.tolist(), strict=True))
    learned = {picture for picture in cells if meanings.finished.get(picture) == HIDDEN_ID}
    most = -1 if mines is None else mines - 1
    if most < 0 or sum(cells.values()) <= most:
        return learned
    catalogue = meanings.catalogue

    def one_tile(first: int, second: int) -> bool:
        return first == second or catalogue is not None and catalogue.alike(first, second)

    def counted(picture: int) -> int:
        return sum(count for other, count in cells.items() if one_tile(picture, other))

    # Comparing pictures is slow across size classes: those over the count alone come first.
    over = {picture for picture, count in cells.items() if count > most} or {
        picture for picture in cells if counted(picture) > most
    }
    over |= learned
    rest = [picture for picture in cells if not any(one_tile(picture, no) for no in over)]
    if sum(cells[picture] for picture in rest) > most:
        fits = [picture for picture in rest if most - marked <= counted(picture) <= most]
        if fits and all(one_tile(fits[0], other) for other in fits):
            over |= {picture for picture in rest if not one_tile(fits[0], picture)}
    return {picture for picture in cells if any(one_tile(picture, no) for no in over)}


def _right_flags(
    meanings: Meanings, changed: npt.NDArray[np.int32], shown: int, mines: int | None, marked: int
) -> set[int]:
    """Of the pictures of the flags a loss changed (``changed``), those on mines: the flag as
    a finished game draws it (gnome-mines' classic theme redraws every flag, a wrong one
    crossed). The loss shows ``shown`` mines on unmarked cells besides the hit one, where the
    board has ``mines`` (None: not known, or not told apart from the hit one); the others are
    under marks: under these flags, or under the ``marked`` other marked cells. Pictures are
    taken as right only where one choice of them alone fits that count and what earlier losses
    taught (a wrong flag's picture is never right, a right one's always); else none is."""
    pictures, counts = np.unique(changed, return_counts=True)
    if mines is None or not len(pictures):
        return set()
    under_marks = mines - 1 - shown
    wrong = set(meanings.ids_of(Tile.WRONG_FLAG))
    flags = meanings.ids_of(Tile.FLAG)
    known = {int(p) for p in pictures if meanings.finished.get(int(p)) in flags}
    fitting = []
    for chosen in product((False, True), repeat=len(pictures)):
        right = {int(p) for p, taken in zip(pictures, chosen, strict=True) if taken}
        flagged = sum(int(count) for count, taken in zip(counts, chosen, strict=True) if taken)
        if under_marks - marked <= flagged <= under_marks and known <= right and not right & wrong:
            fitting.append(right)
    return fitting[0] if len(fitting) == 1 else set()


def _known_as(meanings: Meanings, appearance: int, safe: set[int]) -> str:
    """What ``appearance`` is known to be, for an error message."""
    tile = meanings.tiles.get(appearance)
    if tile is not None:
        return tile.name
    return "a number not learned yet" if appearance in safe else "never seen opened safely"


def _learn_how_mines_are_drawn(meanings: Meanings, alike: bool, apart: bool, where: str) -> None:
    """Record whether this loss drew the other mines as the one hit (``alike``) or as MINEs
    (``apart``); raise if it did both, or an earlier loss did the other."""
    if not alike and not apart:
        return  # only the mine hit was shown: nothing said
    if alike and apart or meanings.hit_mine_apart is alike:
        raise CalibrationError(
            f"{where}: the other mines were drawn {'as' if alike else 'unlike'} the one hit "
            f"{'and also unlike it' if alike and apart else 'and the other way on an earlier loss'}"
        )
    meanings.hit_mine_apart = apart


def learn_from_play(meanings: Meanings, game: PlayedGame, safe: set[int]) -> None:
    """Upper bounds on the numbers from every board of ``game`` before its end: a number is at
    most its count of neighbours not opened (those whose picture is not in ``safe``)."""
    if not safe:
        return
    steps = game.steps[:-1] if game.state is GameState.LOST else game.steps
    opened_ids = np.array(sorted(safe))
    for index, step in enumerate(steps, start=1):
        opened = np.isin(step.after, opened_ids)
        closed_around = neighbour_counts(~opened)
        for appearance in np.unique(step.after[opened]).tolist():
            cells = opened & (step.after == appearance)
            high = int(closed_around[cells].min())
            where = f"click {index} (on {step.cell}), a cell with {high} closed neighbours"
            meanings.numbers.narrow(int(appearance), 0, high, where)


def learn_numbers(meanings: Meanings, safe: set[int]) -> None:
    """Give every number picture whose value the bounds force its tile."""
    for appearance, value in meanings.numbers.values(safe, meanings.share_class).items():
        meanings.give(appearance, Tile(value), meanings.numbers.where.get(appearance, "bounds"))


def board_of(ids: Ids, meanings: Meanings, mines: int = 0, opened: Collection[int] = ()) -> Board:
    """The board ``ids`` shows under ``meanings``; raise naming the first unknown appearance.

    ``opened``: appearances seen on cells opened without losing. Those not learned yet are
    numbers of unknown value, read as :attr:`Tile.OPENED` (safe, no constraint)."""
    tiles = np.full(ids.shape, 255, dtype=np.uint8)
    tiles[np.isin(ids, list(opened))] = Tile.OPENED
    for appearance, tile in meanings.readable().items():
        tiles[ids == appearance] = tile
    unknown = np.argwhere(tiles == 255)
    if len(unknown):
        cell = (int(unknown[0][0]), int(unknown[0][1]))
        raise UnknownAppearanceError(f"cell {cell} shows appearance #{ids[cell]}, not learned yet")
    return Board(ids.shape[0], ids.shape[1], mines, tiles)


def beside_zeros(ids: Ids, meanings: Meanings) -> set[int]:
    """The appearances of the cells beside a 0: the game's flood opened each of them, so each
    is a number whatever the game shows (xdemineur opens a 0 of a new game by itself)."""
    beside = neighbour_counts(np.isin(ids, meanings.ids_of(Tile.ZERO))) > 0
    return {int(appearance) for appearance in np.unique(ids[beside])}


def lost_board(step: Step, meanings: Meanings) -> Board:
    """The board a losing ``step`` ended on: as :func:`board_of`, but a flag that turned into
    a number's picture is a WRONG_FLAG (xbomb draws a wrong flag as its blank 0)."""
    board = board_of(step.after, meanings)
    flags = np.isin(step.before, meanings.ids_of(Tile.FLAG))
    tiles = board.tiles.copy()
    tiles[flags & (tiles <= Tile.EIGHT)] = Tile.WRONG_FLAG
    return Board(board.rows, board.columns, board.mines, tiles)


def check_counting(board: Board, where: str, flags_are_mines: bool = False) -> None:
    """Raise unless ``board`` obeys the counting rules.

    On a lost board that shows the mines every number counts the mines shown around it, and
    perhaps flags left standing (those of ``flags_are_mines``, surely; see
    :func:`calibration.numbers.count_bounds`); a game that
    shows only the mine hit is judged as during play.
    During play a number lies between the mines already shown around it (none) and its
    unopened neighbours (flags may be wrong then), and a 0 has no hidden neighbour: the game
    opens those by itself.
    """
    tiles = board.tiles
    low, high = count_bounds(board, flags_are_mines=flags_are_mines)
    hidden_around = neighbour_counts(tiles == Tile.HIDDEN)
    for cell in board.cells():
        tile = board[cell]
        if not tile.is_number:
            continue
        if not low[cell] <= tile <= high[cell]:
            raise CalibrationError(
                f"{where}: cell {cell} reads {int(tile)}, but between {int(low[cell])} and "
                f"{int(high[cell])} mines can be around it"
            )
        if tile == Tile.ZERO and hidden_around[cell]:
            raise CalibrationError(
                f"{where}: cell {cell} reads 0 but has {int(hidden_around[cell])} hidden neighbours"
            )


def new_meanings(catalogue: Catalogue | None = None) -> Meanings:
    """Meanings before any game: only the hidden tile (id 0, taken from the fresh board), the
    appearances' size classes known from ``catalogue``."""
    meanings = Meanings(catalogue=catalogue)
    meanings.give(HIDDEN_ID, Tile.HIDDEN, "the fresh board")
    return meanings


def learn_game(meanings: Meanings, game: PlayedGame, safe: set[int]) -> None:
    """Add what one finished game proves (its marks first: its loss needs to know its flags);
    ``safe`` are the appearances seen on cells opened safely, in this game or any other."""
    learn_marks(meanings, game)
    learn_from_loss(meanings, game, safe)
    learn_from_play(meanings, game, safe)
    learn_numbers(meanings, safe)


def learn(games: Iterable[PlayedGame], safe: set[int]) -> Meanings:
    """All meanings the recorded games prove."""
    meanings = new_meanings()
    games = list(games)
    for game in games:
        learn_game(meanings, game, safe)
    return meanings
