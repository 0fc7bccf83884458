"""Turning what calibration learned into a :class:`vision.skin.Skin`: one template per tile,
cropped to the part that differs between tiles, the variants of wider cells, the pictures a
finished game draws apart, and a match threshold well inside the gap between tiles; and the
check that vision reads the live board with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from calibration.catalogue import Catalogue, tile_box
from calibration.errors import CalibrationError
from calibration.faces import crop
from calibration.meanings import Meanings
from calibration.record import Evidence
from solver import Board, Tile
from vision.errors import BoardNotFoundError
from vision.geometry import Rect
from vision.ground import flattened
from vision.locate import locate
from vision.match import TemplateBank, flatness
from vision.new_game import NewGame
from vision.read import BoardReader
from vision.skin import MAX_SLACK, SIZE_CLASSES, Image, Skin

MAX_THRESHOLD = 0.1
"""The largest match threshold a skin gets."""
THRESHOLD_SHARE = 0.4
"""The match threshold is this share of the distance between the two closest templates."""


def build_skin(
    name: str,
    evidence: Evidence,
    meanings: Meanings,
    faces: dict[str, Image],
    new_game: NewGame,
    uneven: bool = False,
) -> Skin:
    """The skin: one template per learned tile, cropped to the part that differs between tiles.

    ``uneven``: the board's cells differ in size, so the skin lets a later board's cells be up
    to :data:`vision.skin.MAX_SLACK` pixels wider than its pitch (a window resized gives them
    other sizes)."""
    catalogue = evidence.catalogue
    crop = _TileCrop.of(catalogue, meanings)
    templates, variants = _templates_and_variants(catalogue, meanings, crop)
    mask = crop.mask(catalogue)
    threshold = min(
        match_threshold(templates | tiles, catalogue.level_weight, catalogue.tolerance, mask)
        for tiles in [{}, *variants.values()]
    )
    finished = _finished_pictures(
        meanings,
        catalogue.classes,
        templates,
        variants,
        crop,
        threshold,
        catalogue.level_weight,
        mask,
    )
    threshold = min(
        threshold, _kept_apart(finished, templates, variants, catalogue.level_weight, mask)
    )
    grid = catalogue.images[0].shape
    return Skin(
        name=name,
        pitch=(grid[1], grid[0]),
        tile_size=crop.size,
        tile_offset=crop.offset,
        templates=templates,
        threshold=threshold,
        variants=variants,
        seen=_shown_in(catalogue, meanings) if uneven else {},
        new_game=new_game,
        faces=faces,
        extra={
            "question_marks": meanings.has_question_marks,
            "hit_mine_drawn_apart": meanings.hit_mine_apart,
            "right_click_marks": meanings.takes_marks,
            "board_gone_on_end": meanings.ends_off_board,
        },
        slack=(MAX_SLACK, MAX_SLACK) if uneven else (0, 0),
        level_weight=catalogue.level_weight,
        mask=mask,
        finished=finished,
    )


@dataclass(frozen=True)
class _TileCrop:
    """The part of a cell's picture a skin keeps: the box where the tiles differ."""

    images: list[Image]
    offset: tuple[int, int]
    size: tuple[int, int]
    ringed: bool
    """A board over a gradient: the tile is cut a pixel wider, the ground its ring shows taken
    away where the picture was cut from a cell over an edge of the background."""

    @classmethod
    def of(cls, catalogue: Catalogue, meanings: Meanings) -> _TileCrop:
        pictures = [catalogue.images[i] for i in meanings.tiles]
        (offset_x, offset_y), (width, height) = tile_box(pictures, catalogue.box)
        ringed = (
            catalogue.level_weight < 1
            and min(offset_x, offset_y) >= 1
            and offset_x + width < catalogue.images[0].shape[1]
            and offset_y + height < catalogue.images[0].shape[0]
        )
        return cls(catalogue.images, (offset_x, offset_y), (width, height), ringed)

    def __call__(self, i: int) -> Image:
        """Appearance ``i``'s tile."""
        block = self.images[i]
        (x, y), (width, height) = self.offset, self.size
        if self.ringed:
            return flattened(block[y - 1 : y + height + 1, x - 1 : x + width + 1])
        return np.ascontiguousarray(block[y : y + height, x : x + width])

    def mask(self, catalogue: Catalogue) -> npt.NDArray[np.bool_] | None:
        """The pixels of the tile compared, where a focus ring's are left out (None: all)."""
        if catalogue.ignored is None:
            return None
        (x, y), (width, height) = self.offset, self.size
        kept = ~catalogue.ignored[y : y + height, x : x + width]
        return None if kept.all() else kept


def _templates_and_variants(
    catalogue: Catalogue, meanings: Meanings, crop: _TileCrop
) -> tuple[dict[Tile, Image], dict[int, dict[Tile, Image]]]:
    """Each tile's template, and per wider size class the tiles it draws apart. A tile drawn
    differently in wider cells has one appearance per size class: the narrow cells' one is the
    template, the others its variants for their classes."""
    seen = catalogue.classes  # the hidden tile (in no entry) is one appearance everywhere
    appearances = sorted(meanings.tiles.items(), key=lambda item: seen.get(item[0], 0) != 0)
    blocks: dict[Tile, int] = {}
    for i, tile in appearances:
        blocks.setdefault(tile, i)
    extra = {
        size_class: {tile: i for i, tile in appearances if seen.get(i) == size_class}
        for size_class in range(1, SIZE_CLASSES)
    }
    templates = {tile: crop(i) for tile, i in blocks.items()}
    variants = {
        size_class: {
            tile: crop(i)
            for tile, i in tiles.items()
            if not np.array_equal(crop(i), templates[tile])
        }
        for size_class, tiles in extra.items()
    }
    return templates, {size_class: tiles for size_class, tiles in variants.items() if tiles}


def _shown_in(catalogue: Catalogue, meanings: Meanings) -> dict[int, set[Tile]]:
    """Per size class, the tiles seen on its cells: play may meet a tile first in a class that
    never showed it."""
    seen = catalogue.classes
    return {
        size_class: {
            tile for i, tile in meanings.tiles.items() if seen.get(i, size_class) == size_class
        }
        for size_class in range(SIZE_CLASSES)
    }


def _finished_pictures(
    meanings: Meanings,
    classes: dict[int, int],
    templates: dict[Tile, Image],
    variants: dict[int, dict[Tile, Image]],
    crop: Callable[[int], Image],
    threshold: float,
    level_weight: float,
    mask: npt.NDArray[np.bool_] | None,
) -> dict[int, dict[Tile, Image]]:
    """Per size class, the tile crops (``crop``) of the pictures a lost game drew in place of
    a tile (:attr:`Meanings.finished`) that do not read as the class's picture of that tile
    (as the skin reads, with ``level_weight`` and ``mask``; ``classes``: each appearance's size
    class): a game that draws its whole field darker on a loss. One that redraws only around
    its tiles (rings them) needs none."""
    finished: dict[int, dict[Tile, Image]] = {}
    readable = meanings.readable()
    for look in sorted(meanings.finished):
        tile = readable.get(look)
        if tile is None or tile not in templates:
            continue
        size_class = classes.get(look, 0)
        own = variants.get(size_class, {}).get(tile, templates[tile])
        picture = crop(look)
        bank = TemplateBank([tile], [own], level_weight, mask)
        if float(bank.distances(picture[None])[0, 0]) > threshold:
            finished.setdefault(size_class, {}).setdefault(tile, picture)
    return finished


def _kept_apart(
    finished: dict[int, dict[Tile, Image]],
    templates: dict[Tile, Image],
    variants: dict[int, dict[Tile, Image]],
    level_weight: float,
    mask: npt.NDArray[np.bool_] | None,
) -> float:
    """A threshold that keeps each of a finished game's pictures as far from the other tiles'
    pictures its cells are read against as :func:`match_threshold` keeps the templates (no
    bound without such pictures)."""
    closest = math.inf
    for size_class, drawn in finished.items():
        read = list((templates | variants.get(size_class, {})).items()) + list(drawn.items())
        bank = TemplateBank(
            [tile for tile, _ in read], [image for _, image in read], level_weight, mask
        )
        tiles = np.array([tile for tile, _ in read])
        for tile, picture in drawn.items():
            distances = bank.distances(picture[None])[0]
            closest = min(closest, float(distances[tiles != tile].min(initial=math.inf)))
    return THRESHOLD_SHARE * closest


def match_threshold(
    templates: dict[Tile, Image],
    level_weight: float = 1.0,
    grouped: float = 0.0,
    mask: npt.NDArray[np.bool_] | None = None,
) -> float:
    """A distance well inside the gap between the two most alike templates (measured as the
    skin will read, with ``level_weight`` and ``mask``), and at least ``grouped``: the distance
    within which calibration took pictures for one tile, so the skin reads what calibration saw
    (a digit over a gradient varies that much). Never above :data:`MAX_THRESHOLD`.

    A flat patch of the hidden tile's colour (a window's background) must stay out of reach, or
    the board could be found where there is none: when the tiles' gap would take it in (a faint
    texture among far-apart tiles), the threshold is that share of the hidden tile's flatness."""
    tiles = sorted(templates)
    bank = TemplateBank(tiles, [templates[tile] for tile in tiles], level_weight, mask)
    closest = MAX_THRESHOLD / THRESHOLD_SHARE
    for a, b in combinations(range(len(tiles)), 2):
        distance = float(bank.distances(templates[tiles[a]][None])[0, b])
        closest = min(closest, distance)
    threshold = min(MAX_THRESHOLD, max(THRESHOLD_SHARE * closest, grouped))
    hidden = templates.get(Tile.HIDDEN)
    if hidden is None:
        return threshold
    flat = flatness(hidden, mask)
    if flat <= threshold:
        threshold = max(THRESHOLD_SHARE * flat, grouped)
    if flat <= threshold:
        raise CalibrationError(
            f"the hidden tile is too plain (flatness {flat:.3f}) to find the board by"
        )
    return threshold


def verify(
    skin: Skin,
    window: Rect,
    frame: Image,
    expected: Board,
    new_game_frame: Callable[[], Image | None] = lambda: None,
) -> None:
    """Locate the board with ``skin`` in ``frame`` (a capture of ``window``) and read it as
    play does; raise unless it reads ``expected``. Where it is not found there, it is located
    on ``new_game_frame()`` (a capture of a new game, if one starts), as play finds its board
    at a game's start: a finished board's edge column of 0s may look like the plain window
    beside it, so that the board fits two places."""
    origin, shape = (window.left, window.top), expected.tiles.shape
    try:
        geometry = locate(skin, frame, origin, shape)
    except BoardNotFoundError:
        fresh = new_game_frame()
        if fresh is None:
            raise
        geometry = locate(skin, fresh, origin, shape)
    reader = BoardReader(skin, geometry)
    reading = reader.read(crop(frame, _within(reader.region, window)), expected.mines)
    if not np.array_equal(reading.board.tiles, expected.tiles):
        wrong = np.argwhere(reading.board.tiles != expected.tiles)[0]
        cell = (int(wrong[0]), int(wrong[1]))
        raise CalibrationError(
            f"vision reads cell {cell} as {Tile(int(reading.board.tiles[cell])).name}, "
            f"calibration saw {Tile(int(expected.tiles[cell])).name}"
        )


def _within(rect: Rect, window: Rect) -> Rect:
    """``rect`` (screen coordinates) in the coordinates of a capture of ``window``."""
    return Rect(rect.left - window.left, rect.top - window.top, rect.width, rect.height)
