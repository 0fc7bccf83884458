"""A skin: how one Minesweeper program draws its board, learned by calibration.

Its tile templates, grid geometry, faces and way to start a new game, and what each of them must
be. Skins travel between machines as archives, so a skin is untrusted data: every field is
checked when a skin is made (:meth:`Skin.check`); its way to start a new game, and the keys
it may name, are :mod:`vision.new_game`'s. Calibration writes skins; vision only reads them.
The folder a skin is stored in, and the safe reading of its files, are
:mod:`vision.skin_folder`'s.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from solver import FirstClick, Tile
from solver.board import PICTURED_TILES
from vision.errors import SkinError, shown
from vision.new_game import NewGame

Image = npt.NDArray[np.uint8]
"""A BGR image, shape (height, width, 3)."""

FACE_STATES = ("playing", "won", "lost")
SKIN_FORMAT = 1
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A skin's name, which is also its folder's name in the skins folder."""

MAX_BUTTONS = 4
"""Looks of a new-game button a skin keeps at most: one per way a game ends, and as it starts."""
MIN_SIDE, MAX_SIDE = 4, 256
"""Bounds in pixels of a cell's pitch, a tile's and a face's width and height."""
MAX_SLACK = 2
"""At most this many pixels may a cell of an uneven board be wider than the skin's pitch (a
grid stretched to its window shares the leftover pixels out one per cell)."""
MIN_COMPARED = 0.5
"""The least share of a tile's pixels a skin's mask may keep (see :attr:`Skin.mask`)."""

EXTRA_TYPES: dict[str, type] = {
    "question_marks": bool,
    "hit_mine_drawn_apart": bool,
    "game": str,
    "first_click": str,
    "board": str,
    "click_pause": float,
    "animation_still": float,
    "chord": str,
    "right_click_marks": bool,
    "board_gone_on_end": bool,
    "relayout": bool,
}
"""Types of the ``extra`` facts the program reads (null: not known); other keys are kept but
never used. ``board`` is the board calibrated, when its mine count was given, as
``ROWSxCOLUMNSxMINES`` (for example ``8x8x10``): play takes that count for a board of its size.
``click_pause`` is the seconds play waits after each click, learned when the game missed clicks
sent faster. ``animation_still`` is the seconds a board must hold still after a click to count
as drawn, for a game calibration saw animate what a click opens (at most
:data:`MAX_ANIMATION_STILL`). ``chord`` is how the game takes a chord, one of
:data:`CHORD_WAYS`, learned in play. ``right_click_marks`` is False for a game whose
right-click marks no cell (a web game that flags with Ctrl+click): its skin has no flag, and
play sends no flag and no chord. ``relayout``
is True for a game whose board re-lays itself out as it is played (a column widens once a cell
in it opens): play follows its cells by place (:mod:`vision.relayout`)."""
MAX_ANIMATION_STILL = 1.0
"""Most seconds a skin may ask a board to hold still after a click: a look waits at most
:data:`vision.stable.STILL_TIMEOUT` (2 s) for that."""
CHORD_WAYS = ("middle", "both", "left", "none")
"""How a game may take a chord on a number: the middle button, the left and right buttons
together, a left click; or not at all."""
_BOARD_TEXT = re.compile(r"([1-9][0-9]{0,2})x([1-9][0-9]{0,2})x([0-9]{1,6})")


def board_text(rows: int, columns: int, mines: int) -> str:
    """The text form of a board's size and mine count (``extra.board``), as :func:`parse_board`
    reads it."""
    return f"{rows}x{columns}x{mines}"


def parse_board(text: object) -> tuple[int, int, int] | None:
    """Rows, columns and mines from :func:`board_text`'s form; None for anything else, or for
    a board with no cell left free of mines."""
    size = _BOARD_TEXT.fullmatch(text) if isinstance(text, str) else None
    if size is None:
        return None
    rows, columns, mines = (int(number) for number in size.groups())
    return (rows, columns, mines) if mines < rows * columns else None


FIRST_CLICK_RULES = tuple(rule.value for rule in FirstClick)


SIZE_CLASSES = 4
"""Cells fall into size classes by whether they are wider than the pitch along x (1) and along y
(2): narrow both ways is class 0, the only class of an evenly spaced board."""


@dataclass
class Skin:
    """Tile templates and grid geometry of one game's look.

    ``pitch`` is the distance in pixels from one cell to the next (x, y); each template is the
    ``tile_size`` (width, height) crop taken at a cell's top-left corner plus ``tile_offset``.
    A skin that reading or playing could not use is refused when made (:meth:`check`).
    """

    name: str
    pitch: tuple[int, int]
    tile_size: tuple[int, int]
    templates: dict[Tile, Image]
    threshold: float
    """The largest template distance accepted (RMS pixel difference / 255, see vision.match)."""
    new_game: NewGame
    tile_offset: tuple[int, int] = (0, 0)
    faces: dict[str, Image] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    """Game-specific facts calibration learned (for example whether it has question marks)."""
    slack: tuple[int, int] = (0, 0)
    """How many pixels (x, y) wider than ``pitch`` a cell may be: (0, 0) where every cell is one
    size; else its board is located cell edge by cell edge (see :mod:`vision.locate`)."""
    level_weight: float = 1.0
    """How much a tile's background lighter or darker than its template counts (see
    :class:`vision.match.TemplateBank`): below 1 for a game that draws tiles over a gradient."""
    variants: dict[int, dict[Tile, Image]] = field(default_factory=dict)
    """Per size class from 1 (see :data:`SIZE_CLASSES`), templates its cells are read against
    instead of :attr:`templates`' (a game that draws a number a little differently in wider
    cells); saved as ``tiles/<TILE>.<class>.png``."""
    seen: dict[int, set[Tile]] = field(default_factory=dict)
    """Per size class (0 to 3), the tiles seen on its cells; empty: every template was seen in
    every class (an even board's one class). A class reads a tile it never showed with another
    class's picture, which may be far from how it draws that tile: a picture met there in play
    may still be that number (see :meth:`known_in`)."""
    buttons: tuple[Image, ...] = ()
    """What the screen showed around the new-game point (centred on it) just before clicks
    there started a new game, one picture per look (a face that shows how the game ended): play
    clicks the point only while it shows one of them, so that a window laid out anew never gets
    a click on whatever button took its place."""
    mask: npt.NDArray[np.bool_] | None = None
    """Per pixel of a tile (height, width), whether it is compared; None: every pixel. A game
    whose cells are toolkit buttons draws a focus ring on the one clicked last: the ring's
    pixels are left out, so a tile reads the same with it and without it."""
    finished: dict[int, dict[Tile, Image]] = field(default_factory=dict)
    """Per size class (0 to 3), pictures only a finished game draws, each read as its tile on
    cells of that class: a lost game that draws the whole field darker redraws its numbers, and
    its closed cells with no mine, unlike any template; saved as
    ``tiles/finished/<TILE>.<class>.png``."""

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Raise :class:`SkinError` naming the first field that reading or playing could not use."""
        problem = self._first_problem()
        if problem:
            raise SkinError(f"skin {shown(self.name)}: {problem}")

    def _first_problem(self) -> str | None:
        return self._geometry_problem() or self._picture_problem() or self._extra_problem()

    def _geometry_problem(self) -> str | None:
        if not isinstance(self.name, str) or not NAME_PATTERN.fullmatch(self.name):
            return "name: use 1 to 64 letters, digits, '.', '_' and '-', first a letter or digit"
        for name, value, low in (
            ("pitch", self.pitch, MIN_SIDE),
            ("tile_size", self.tile_size, MIN_SIDE),
            ("tile_offset", self.tile_offset, 0),
        ):
            if not _is_pair(value, low):
                return f"{name} {shown(value)} is not two whole numbers from {low} to {MAX_SIDE}"
        if not (
            isinstance(self.slack, tuple | list)
            and len(self.slack) == 2
            and all(type(number) is int and 0 <= number <= MAX_SLACK for number in self.slack)
        ):
            return f"slack {shown(self.slack)} is not two whole numbers from 0 to {MAX_SLACK}"
        if any(
            o + s > p for o, s, p in zip(self.tile_offset, self.tile_size, self.pitch, strict=True)
        ):
            return (
                f"tile_offset {tuple(self.tile_offset)} puts the {_size(self.tile_size)} "
                f"tile crop outside its {_size(self.pitch)} cell"
            )
        if not is_number(self.threshold) or not 0 < self.threshold <= 1:
            return f"threshold {shown(self.threshold)} is not a number above 0 and at most 1"
        if not is_number(self.level_weight) or not 0 < self.level_weight <= 1:
            return f"level_weight {shown(self.level_weight)} is not a number above 0 and at most 1"
        if not isinstance(self.new_game, NewGame):
            return f"new_game {shown(self.new_game)} is not a NewGame"
        return None

    def _tile_picture_problem(self, tile: Tile, image: Image, path: str) -> str | None:
        """What is wrong with ``tile``'s picture read from ``path``, if anything."""
        if _is_picture(image) and _picture_size(image) == tuple(self.tile_size):
            return None
        return (
            f"tile {tile.name} ({path}) is {_describe(image)}, "
            f"not the tile_size {_size(self.tile_size)}"
        )

    def _picture_problem(self) -> str | None:
        return (
            self._templates_problem()
            or self._variants_problem()
            or self._finished_problem()
            or self._seen_problem()
            or self._faces_problem()
            or self._mask_problem()
            or self._buttons_problem()
        )

    def _templates_problem(self) -> str | None:
        if not isinstance(self.templates, dict) or not self.templates:
            return "tiles: there is no tile template"
        for tile, image in self.templates.items():
            if not isinstance(tile, Tile):
                return f"tiles: {shown(tile)} is not a tile"
            if problem := self._tile_picture_problem(tile, image, f"tiles/{tile.name}.png"):
                return problem
        return None

    def _variants_problem(self) -> str | None:
        if not isinstance(self.variants, dict):
            return f"variants {shown(self.variants)} is not a dict"
        for size_class, variants in self.variants.items():
            if type(size_class) is not int or not 0 < size_class < SIZE_CLASSES:
                return f"variants: {shown(size_class)} is not a size class from 1 to 3"
            for tile, image in variants.items():
                if tile not in self.templates:
                    return f"tile {_tile_name(tile)} has a size-class {size_class} variant only"
                path = f"tiles/{tile.name}.{size_class}.png"
                if problem := self._tile_picture_problem(tile, image, path):
                    return problem
        return None

    def _finished_problem(self) -> str | None:
        if not isinstance(self.finished, dict):
            return f"finished {shown(self.finished)} is not a dict"
        for size_class, drawn in self.finished.items():
            if type(size_class) is not int or not 0 <= size_class < SIZE_CLASSES:
                return f"finished: {shown(size_class)} is not a size class from 0 to 3"
            for tile, image in drawn.items():
                if tile not in self.templates:
                    return f"tile {_tile_name(tile)} has a finished game's picture only"
                path = finished_file(tile, size_class)
                if problem := self._tile_picture_problem(tile, image, path):
                    return problem
        return None

    def _seen_problem(self) -> str | None:
        if not isinstance(self.seen, dict):
            return f"seen {shown(self.seen)} is not a dict"
        for size_class, tiles in self.seen.items():
            if type(size_class) is not int or not 0 <= size_class < SIZE_CLASSES:
                return f"seen: {shown(size_class)} is not a size class from 0 to 3"
            if not isinstance(tiles, set) or not tiles <= set(self.templates):
                return f"seen: class {size_class} holds {shown(tiles)}, not a set of its tiles"
        return None

    def _faces_problem(self) -> str | None:
        if not isinstance(self.faces, dict):
            return f"faces {shown(self.faces)} is not a dict"
        sizes = set()
        for state, image in self.faces.items():
            if state not in FACE_STATES:
                return f"faces: {shown(state)} is not one of {', '.join(FACE_STATES)}"
            if not _is_picture(image) or not _is_pair(_picture_size(image), MIN_SIDE):
                return (
                    f"face {state} (faces/{state}.png) is {_describe(image)}, "
                    f"not {MIN_SIDE} to {MAX_SIDE} pixels a side"
                )
            sizes.add(_picture_size(image))
        if len(sizes) > 1:
            return (
                f"faces: the pictures differ in size ({', '.join(sorted(_size(s) for s in sizes))})"
            )
        return None

    def _mask_problem(self) -> str | None:
        if self.mask is not None and not (
            isinstance(self.mask, np.ndarray)
            and self.mask.dtype == np.bool_
            and (self.mask.shape[1], self.mask.shape[0]) == tuple(self.tile_size)
            and self.mask.mean() >= MIN_COMPARED
        ):
            return (
                f"mask (mask.png) is not a black and white {_size(self.tile_size)} picture "
                f"white on at least {MIN_COMPARED:.0%} of it"
            )
        return None

    def _buttons_problem(self) -> str | None:
        if not isinstance(self.buttons, tuple) or len(self.buttons) > MAX_BUTTONS:
            return f"buttons: not a tuple of at most {MAX_BUTTONS} pictures"
        if self.buttons and self.new_game.at is None:
            return "buttons: pictures of a new-game button, but new_game names no point"
        for number, button in enumerate(self.buttons, start=1):
            if not _is_picture(button) or not _is_pair(_picture_size(button), MIN_SIDE):
                return (
                    f"button {number} ({button_file(number)}) is {_describe(button)}, "
                    f"not {MIN_SIDE} to {MAX_SIDE} pixels a side"
                )
        return None

    def _extra_problem(self) -> str | None:
        if not isinstance(self.extra, dict):
            return f"extra {shown(self.extra)} is not a JSON object"
        for key, wanted in EXTRA_TYPES.items():
            fact = self.extra.get(key)
            if fact is not None and type(fact) is not wanted:
                return f"extra.{key} {shown(fact)} is not a {wanted.__name__} (or null)"
        rule = self.extra.get("first_click")
        if rule is not None and rule not in FIRST_CLICK_RULES:
            return f"extra.first_click {shown(rule)} is not one of {', '.join(FIRST_CLICK_RULES)}"
        chord = self.extra.get("chord")
        if chord is not None and chord not in CHORD_WAYS:
            return f"extra.chord {shown(chord)} is not one of {', '.join(CHORD_WAYS)}"
        still = self.extra.get("animation_still")
        if still is not None and not 0 < still <= MAX_ANIMATION_STILL:
            return (
                f"extra.animation_still {shown(still)} is not above 0 and at most "
                f"{MAX_ANIMATION_STILL}"
            )
        board = self.extra.get("board")
        if board is not None and parse_board(board) is None:
            return f"extra.board {shown(board)} is not ROWSxCOLUMNSxMINES (mines < cells)"
        return None

    @property
    def calibrated_shape(self) -> tuple[int, int] | None:
        """Rows and columns of the board this skin was calibrated on, if it records them."""
        board = parse_board(self.extra.get("board"))
        return None if board is None else board[:2]

    def mines_for(self, rows: int, columns: int) -> int | None:
        """The mine count calibration was given for a board of this size, if it was."""
        board = parse_board(self.extra.get("board"))
        return board[2] if board is not None and board[:2] == (rows, columns) else None

    def pictures(self, finished: bool = False) -> list[tuple[Tile, Image]]:
        """Every template with its tile, sorted by tile, then the size-class variants by class
        and tile: what to look for where a cell's size class is not known; with ``finished``,
        then the pictures only a finished game draws (:attr:`finished`) in the same order."""
        by_class = sorted(self.variants.items())
        if finished:
            by_class += sorted(self.finished.items())
        return [(tile, self.templates[tile]) for tile in sorted(self.templates)] + [
            (tile, drawn[tile]) for _, drawn in by_class for tile in sorted(drawn)
        ]

    def known_in(self, size_class: int) -> set[Tile]:
        """The tiles cells of ``size_class`` were seen showing (all templates when :attr:`seen`
        is empty)."""
        return set(self.seen.get(size_class, set())) if self.seen else set(self.templates)

    @property
    def takes_marks(self) -> bool:
        """Whether the game marks a cell on a right-click (not known: it is taken to)."""
        return self.extra.get("right_click_marks") is not False

    @property
    def board_gone_on_end(self) -> bool:
        """Whether the game's end takes its board away (a message, then a menu whose button
        brings a board back); not known: it is taken not to."""
        return self.extra.get("board_gone_on_end") is True

    def missing_tiles(self) -> list[Tile]:
        """Tiles the skin has no template for yet, so that a board showing one cannot be read.

        QUESTION is not missing from a game that calibration found to have no question marks
        (``extra["question_marks"]`` is False), nor MINE from one that draws every mine of a loss
        as the one hit (``extra["hit_mine_drawn_apart"]`` is False: they read as EXPLODED), nor
        any mark from one that takes no right-click mark (``extra["right_click_marks"]``), nor
        a tile only a lost board shows from a game whose end takes its board away and that
        never showed one (``extra["board_gone_on_end"]``).
        """
        no_marks = not self.takes_marks
        no_loss = self.board_gone_on_end and Tile.EXPLODED not in self.templates
        not_drawn = {
            Tile.QUESTION: no_marks or self.extra.get("question_marks") is False,
            Tile.MINE: no_loss or self.extra.get("hit_mine_drawn_apart") is False,
            Tile.EXPLODED: no_loss,
            Tile.FLAG: no_marks,
            Tile.WRONG_FLAG: no_marks or no_loss,
        }
        return [
            tile
            for tile in PICTURED_TILES
            if tile not in self.templates and not not_drawn.get(tile, False)
        ]

    def save(self, folder: Path) -> Path:
        """Write the skin into ``folder`` (created if needed) and return it."""
        from vision.skin_folder import write_skin  # which imports this module

        return write_skin(self, folder)

    @classmethod
    def load(cls, folder: Path) -> Skin:
        """Read a folder written by :meth:`save`; raise :class:`SkinError` naming the file and the
        field that is wrong. Only files of known tiles and face states are read."""
        from vision.skin_folder import read_skin  # which imports this module

        return read_skin(folder, cls)


def finished_file(tile: Tile, size_class: int) -> str:
    """The file of a skin's picture of ``tile`` as a finished game draws it on cells of
    ``size_class`` (see :attr:`Skin.finished`)."""
    return f"tiles/finished/{tile.name}.{size_class}.png"


def button_file(number: int) -> str:
    """The file of a skin's ``number``-th look of its new-game button (counted from 1)."""
    return "button.png" if number == 1 else f"button.{number}.png"


def _tile_name(tile: object) -> str:
    return tile.name if isinstance(tile, Tile) else shown(tile)


def _is_pair(value: object, low: int) -> bool:
    return (
        isinstance(value, tuple | list)
        and len(value) == 2
        and all(type(number) is int and low <= number <= MAX_SIDE for number in value)
    )


def is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_picture(image: object) -> bool:
    return (
        isinstance(image, np.ndarray)
        and image.dtype == np.uint8
        and image.ndim == 3
        and image.shape[2] == 3
    )


def _picture_size(image: Image) -> tuple[int, int]:
    return int(image.shape[1]), int(image.shape[0])


def _describe(image: object) -> str:
    if _is_picture(image):
        assert isinstance(image, np.ndarray)
        return f"a {_size(_picture_size(image))} picture"
    return "not a BGR picture"


def _size(pair: tuple[int, int] | list[int]) -> str:
    return f"{pair[0]}x{pair[1]}"
