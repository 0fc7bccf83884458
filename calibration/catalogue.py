"""Grouping cell pictures into appearances: each distinct look a cell shows gets a small id.

Calibration learns a game's tiles from the game's own boards, so it must first tell which
pictures show one tile. Pictures are grouped by distance, not by pixel equality (antialiased,
gradient or slightly varied tiles are one appearance), on the part of a cell's picture that
shows the tile: without grid lines (:meth:`Catalogue.trim_shared_lines`), bands a neighbour's
digit paints over (:func:`unpainted_box`) or a focus ring (:func:`ring_pixels`). A board then
reads as a grid of appearance ids (:data:`Ids`); what each id means is worked out by
:mod:`calibration.meanings`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from vision.geometry import Rect, padded_sources
from vision.match import TemplateBank
from vision.skin import MAX_SLACK, SIZE_CLASSES, Image

Ids = npt.NDArray[np.int32]
"""A (rows, columns) grid of appearance ids."""

HIDDEN_ID = 0
"""The id of the hidden tile's appearance: the first picture a catalogue holds, taken from the
fresh board."""


GROUPING_TOLERANCE = 0.03
"""The default distance (vision.match's RMS distance / 255) within which two cell pictures count
as one appearance: a game's hidden tiles may differ by a few levels (some games draw several
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
(an Expert board over a gradient in a 1280x1024 screen: 20 levels against 13)."""
SHARED_LINES = 0.75
"""The share of a first click's opened pictures that must show an edge line as the hidden tile
does for it to be a grid line (see :meth:`Catalogue.trim_shared_lines`)."""
LEVEL_GAP = 8.0
"""Levels by which the fresh board's pictures near the hidden tile may stand apart in mean level
and still be its variants: hidden tiles over a gradient run through their levels with no such
gap; flat opened cells a new game showed by itself (flat as its hidden tiles are) stand off."""
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
        tiles (a gradient behind the board): they are left out of the box compared. How much the
        background varies sets how little a tile's lighter or darker background counts
        (half-transparent tiles show it), and the variants' spread within the box widens the
        tolerance. Raises if the variants spread so widely that tiles could not be told apart.
        """
        pictures = blocks.reshape(-1, *self.images[HIDDEN_ID].shape)
        loose = TemplateBank([HIDDEN_ID], [self.images[HIDDEN_ID]], MIN_LEVEL_WEIGHT)
        variants = pictures[loose.distances(pictures)[:, 0] <= MAX_GROUPING_TOLERANCE]
        variants = variants[_level_run(variants, self.images[HIDDEN_ID])]
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
        A game may redraw them when a game ends (one rings the cells opened in green), which
        changes no tile. Call it before any picture but the hidden one is added.

        Also keeps, as :attr:`lines_box`, the box without the edge lines that every hidden
        picture and most others (:data:`SHARED_LINES`) show as the hidden tile does: a game
        whose digits are drawn past their cells (large digits in 20-px cells) crosses a few grid
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
        was seen drawing it in place of that one (a question mark drawn as the flag with a
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


def _level_run(pictures: npt.NDArray[np.uint8], hidden: Image) -> npt.NDArray[np.bool_]:
    """Which of ``pictures`` lie in the run of mean levels around ``hidden``'s, no two
    neighbours in it more than :data:`LEVEL_GAP` apart."""
    offsets = pictures.mean(axis=(1, 2, 3)) - float(hidden.mean())
    order = np.argsort(offsets)
    runs = np.concatenate([[0], np.cumsum(np.diff(offsets[order]) > LEVEL_GAP)])
    home = runs[np.argmin(np.abs(offsets[order]))]
    kept = np.zeros(len(pictures), dtype=bool)
    kept[order[runs == home]] = True
    return kept


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


def _leading(flags: np.ndarray) -> int:
    count = 0
    for flag in flags:
        if not flag:
            break
        count += 1
    return count
