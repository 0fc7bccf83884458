"""What each appearance means, and reading boards by it.

Calibration works out which tile each appearance of :mod:`calibration.catalogue` shows
(:mod:`calibration.inference` does, from the games it played); :class:`Meanings` holds what
is known so far: each appearance's tile and where it was learned, what the boards prove about
each number's value, the looks a finished game draws. With it a grid of appearance ids reads
as a board the solver plays (:func:`board_of`), and a board is checked against the counting
rules (:func:`check_counting`), by calibration on every board it played and by play on the end
of each game.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from calibration.catalogue import HIDDEN_ID, Catalogue, Ids
from calibration.errors import CalibrationError, UnknownAppearanceError
from calibration.numbers import NumberBounds, count_bounds
from calibration.record import Step
from solver import Board, Cell, Tile
from solver.board import PICTURED_TILES
from solver.engine import neighbour_counts

MARK_TILES = (Tile.FLAG, Tile.QUESTION, Tile.WRONG_FLAG)
LOSS_TILES = (Tile.MINE, Tile.EXPLODED, Tile.WRONG_FLAG)
"""The tiles only a lost board shows."""
"""The tiles only a right-click mark shows."""
NO_MARK_CELLS = 2
"""Cells a right-click must leave unmarked, no other having taken a mark, before a game counts
as taking no right-click mark (a web game that flags with Ctrl+click): one may have been missed."""


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
    with the appearance of the number it replaced (see
    :func:`calibration.inference.redrawn_numbers`), and in place of the hidden tile on closed
    cells with no mine (see :func:`calibration.inference._no_mines`)."""
    flag_kinds: dict[int, bool | None] = field(default_factory=dict)
    """Each picture flags showed after a loss (the flag's own, for flags left standing): True
    where proven on mines, False where proven on safe cells, None while unproven (see
    :mod:`calibration.loss_flags`)."""
    flag_where: dict[int, str] = field(default_factory=dict)
    """Where each of :attr:`flag_kinds` was first seen, for messages."""
    flag_counts: dict[int, set[int]] = field(default_factory=dict)
    """Per picture of :attr:`flag_kinds`, the mines around the flags a loss that showed every
    mine drew it on, where the loss told that count for sure (see
    :func:`calibration.loss_flags.may_be_number`)."""
    not_flags: set[int] = field(default_factory=set)
    """Pictures seen where no flag was placed: on cells opened safely, or after a loss on cells
    left unmarked before it. None is what a loss draws on a flag."""
    unmarked: set[Cell] = field(default_factory=set)
    """Hidden cells a right-click left as they were."""
    hit_mine_apart: bool | None = None
    """Whether a loss draws the mine hit unlike the other mines; None until a loss showed both.
    False: every mine is drawn as the EXPLODED one, and MINE has no picture of its own."""
    ends_off_board: bool = False
    """Whether a game's end took its board away (see :mod:`calibration.vanished`): while no
    loss shows on the board, no mine nor wrong flag is missing (the game may show none)."""

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
            flag_kinds=dict(self.flag_kinds),
            flag_where=dict(self.flag_where),
            flag_counts={kind: set(counts) for kind, counts in self.flag_counts.items()},
            not_flags=set(self.not_flags),
            unmarked=set(self.unmarked),
        )

    def opened_after_all(self, opened: Iterable[int]) -> None:
        """Forget the closed cell's finished look of each of ``opened`` (pictures seen on cells
        opened safely): a game that shows every cell on a loss draws the safe cells' numbers
        there, and a number no safe click had shown yet (of a size class few cells have) was
        taken for such a look. It is a number, valued by the bounds as any other."""
        for look in set(opened) & set(self.finished):
            if self.finished[look] == HIDDEN_ID:
                del self.finished[look]

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

    @property
    def takes_marks(self) -> bool | None:
        """Whether a right-click marks a cell: True once one drew a FLAG, False once
        :data:`NO_MARK_CELLS` cells were left unmarked, else None (not known yet)."""
        if self.ids_of(Tile.FLAG):
            return True
        return False if len(self.unmarked) >= NO_MARK_CELLS else None

    def missing(self) -> list[Tile]:
        """Tiles not learned yet (QUESTION is not missing from a game that has no marks, nor
        any mark from one that takes no right-click mark)."""
        learned = set(self.tiles.values())
        no_marks = self.takes_marks is False
        return [
            tile
            for tile in PICTURED_TILES
            if tile not in learned
            and not (tile in MARK_TILES and no_marks)
            and not (tile == Tile.QUESTION and self.has_question_marks is False)
            and not (tile == Tile.MINE and self.hit_mine_apart is False)
            and not (tile in LOSS_TILES and self.ends_off_board and Tile.EXPLODED not in learned)
        ]


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
    is a number whatever the game shows (a game may open a 0 of a new game by itself)."""
    beside = neighbour_counts(np.isin(ids, meanings.ids_of(Tile.ZERO))) > 0
    return {int(appearance) for appearance in np.unique(ids[beside])}


def lost_board(step: Step, meanings: Meanings) -> Board:
    """The board a losing ``step`` ended on: as :func:`board_of`, but a flag that turned into
    a number's picture is a WRONG_FLAG (a game may draw a wrong flag as its blank 0)."""
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
    opens those by itself (unless beside a flag: a game may open a cell's neighbours only
    where the flags around it match its number, a 0's too).
    """
    tiles = board.tiles
    low, high = count_bounds(board, flags_are_mines=flags_are_mines)
    hidden_around = neighbour_counts(tiles == Tile.HIDDEN)
    flagged_around = neighbour_counts(tiles == Tile.FLAG)
    for cell in board.cells():
        tile = board[cell]
        if not tile.is_number:
            continue
        if not low[cell] <= tile <= high[cell]:
            raise CalibrationError(
                f"{where}: cell {cell} reads {int(tile)}, but between {int(low[cell])} and "
                f"{int(high[cell])} mines can be around it"
            )
        if tile == Tile.ZERO and hidden_around[cell] and not flagged_around[cell]:
            raise CalibrationError(
                f"{where}: cell {cell} reads 0 but has {int(hidden_around[cell])} hidden neighbours"
            )


def new_meanings(catalogue: Catalogue | None = None) -> Meanings:
    """Meanings before any game: only the hidden tile (id 0, taken from the fresh board), the
    appearances' size classes known from ``catalogue``."""
    meanings = Meanings(catalogue=catalogue)
    meanings.give(HIDDEN_ID, Tile.HIDDEN, "the fresh board")
    return meanings
