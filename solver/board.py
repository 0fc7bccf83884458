"""The visible state of a Minesweeper board.

A :class:`Board` is what a player sees: the size, the total number of mines, and one
:class:`Tile` per cell. It knows nothing of where the mines really are, except when a text
file carries a ``[real]`` section (kept in :attr:`Board.real_mines`).

Its text forms, read by :meth:`Board.from_text` and written by :meth:`Board.to_text` (the
MINESWEEPER-BOARD v0.1 standard of ms-toollib, autosweeper's earlier form, JSMinesweeper's),
are :mod:`solver.board_text`'s. Boards read from text have at most :data:`MAX_ROWS` rows and
:data:`MAX_COLUMNS` columns.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from solver.errors import BoardError

Cell = tuple[int, int]
"""A cell as (row, column), both counted from 0 at the top left."""


class Tile(IntEnum):
    """What one cell shows. 0-8 are opened cells showing that number; :attr:`OPENED` is an
    opened cell whose number is not known."""

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    HIDDEN = 9
    FLAG = 10
    QUESTION = 11
    MINE = 12
    """A mine shown at the end of a lost game."""
    EXPLODED = 13
    """The mine that was opened, ending the game."""
    WRONG_FLAG = 14
    """A flag on a cell that held no mine, shown at the end of a lost game."""
    OPENED = 15
    """Opened without losing, its number not known yet (a picture a skin has not learned):
    safe, but no constraint on its neighbours, so the solver loses information, never
    soundness. The board standard has no character for it (see :meth:`Board.to_text`)."""

    @property
    def is_number(self) -> bool:
        return self <= Tile.EIGHT

    @property
    def is_opened(self) -> bool:
        """A number or :attr:`OPENED`: an opened cell, so certainly not a mine."""
        return self <= Tile.EIGHT or self == Tile.OPENED

    @property
    def is_unopened(self) -> bool:
        """Hidden, flagged or question-marked: the cells whose content is still unknown."""
        return self in _UNOPENED_TILES

    @property
    def is_closed(self) -> bool:
        """Hidden or question-marked: neither opened nor flagged, so a click may open it."""
        return self in _CLOSED_TILES


TILE_COUNT = len(Tile)
PICTURED_TILES = tuple(tile for tile in Tile if tile != Tile.OPENED)
"""The tiles a game draws, each a picture a skin learns: all but :attr:`Tile.OPENED`, which
says that a picture is not learned yet."""
_CLOSED_TILES = (Tile.HIDDEN, Tile.QUESTION)
_HIDDEN, _EXPLODED, _WRONG_FLAG = int(Tile.HIDDEN), int(Tile.EXPLODED), int(Tile.WRONG_FLAG)
"""Tiles as plain ints: numpy compares an array with an int three times as fast as with an
IntEnum member, and every move asks whether the game is over."""
_UNOPENED_TILES = (Tile.HIDDEN, Tile.FLAG, Tile.QUESTION)


def tile_mask(tiles: npt.NDArray[np.uint8], kinds: tuple[Tile, ...]) -> npt.NDArray[np.bool_]:
    """Where ``tiles`` (a board's, so each below :data:`TILE_COUNT`) is one of ``kinds``.

    A table lookup: ``np.isin`` sorts both arrays, several times slower, and the solver asks
    this of the whole board a few times on every move.
    """
    return _kinds_table(kinds)[tiles]


@lru_cache(maxsize=32)
def _kinds_table(kinds: tuple[Tile, ...]) -> npt.NDArray[np.bool_]:
    table = np.zeros(TILE_COUNT, dtype=bool)
    table[list(kinds)] = True
    return table


MAX_ROWS = 100
MAX_COLUMNS = 100
"""The largest board read from text: the custom boards of Minesweeper programs stay within
100x100, and a bigger one is refused before its rows are read."""

LEVELS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}
"""The standard levels as (rows, columns, mines)."""


@dataclass(eq=False)
class Board:
    """A rectangular board as the player sees it.

    ``tiles`` is a (rows, columns) array of :class:`Tile` values (uint8), so that vision can
    build one with a single vectorised step and the solver can scan it quickly.
    """

    rows: int
    columns: int
    mines: int
    tiles: npt.NDArray[np.uint8] = field(repr=False)
    real_mines: npt.NDArray[np.bool_] | None = field(default=None, repr=False)
    metadata: dict[str, str] = field(default_factory=dict, repr=False)
    """The text form's metadata other than the size and mine count (``game_mode``, ``author``,
    ``comment``, keys unknown to autosweeper), kept so that a file is written back as read."""

    def __post_init__(self) -> None:
        if self.rows < 1 or self.columns < 1:
            raise BoardError(
                f"a board needs at least one row and one column, not {self.rows}x{self.columns}"
            )
        if not 0 <= self.mines <= self.rows * self.columns:
            raise BoardError(f"{self.mines} mines do not fit in {self.rows}x{self.columns} cells")
        self.tiles = np.asarray(self.tiles, dtype=np.uint8)
        if self.tiles.shape != (self.rows, self.columns):
            raise BoardError(
                f"tiles have shape {self.tiles.shape}, expected {(self.rows, self.columns)}"
            )
        if self.tiles.size and int(self.tiles.max()) >= TILE_COUNT:
            r, c = np.argwhere(self.tiles >= TILE_COUNT)[0]
            raise BoardError(f"unknown tile value {self.tiles[r, c]}", cell=(int(r), int(c)))
        if self.real_mines is not None:
            self.real_mines = np.asarray(self.real_mines, dtype=bool)
            if self.real_mines.shape != self.tiles.shape:
                raise BoardError("the [real] layout does not have the board's shape")

    # -- construction -------------------------------------------------------------------------
    # The text forms (solver.board_text) build boards: that module is imported when first used.

    @classmethod
    def empty(cls, rows: int, columns: int, mines: int) -> Board:
        """A fresh board: every cell hidden."""
        return cls(rows, columns, mines, np.full((rows, columns), Tile.HIDDEN, dtype=np.uint8))

    @classmethod
    def from_rows(cls, lines: list[str], mines: int) -> Board:
        """A board from rows of MINESWEEPER-BOARD view characters (``U``, ``F``, digits...),
        and :data:`~solver.board_text.OPENED_CHAR` for :attr:`Tile.OPENED`, as ``str(board)``
        writes them."""
        from solver.board_text import read_rows

        return read_rows(lines, mines)

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Read any of the text forms of :mod:`solver.board_text`; raise :class:`BoardError`
        naming the line."""
        from solver.board_text import read_text

        return read_text(text)

    @classmethod
    def read_file(cls, path: str | os.PathLike[str]) -> Board:
        """Read a board file as :meth:`from_text`, refusing one over
        :data:`~solver.board_text.MAX_TEXT_BYTES` without reading it whole. Raise
        :class:`OSError` or :class:`UnicodeDecodeError` for a file that cannot be read,
        :class:`BoardError` for one that is no board."""
        from solver.board_text import read_file

        return read_file(path)

    # -- text forms ---------------------------------------------------------------------------

    def to_text(self, render: str = "ascii") -> str:
        """The board as MINESWEEPER-BOARD v0.1 text, ``render`` ``ascii`` or ``emoji``.

        ``[real]`` is written when the layout is known and ``[view]`` unless the board is fresh
        with a known layout (a ``[real]`` alone reads back as that board). A board with an
        :attr:`Tile.OPENED` cell is refused: the standard has no character for it.
        """
        from solver.board_text import write_text

        return write_text(self, render)

    def to_jsminesweeper_text(self) -> str:
        """The board in JSMinesweeper's form (unopened cells other than flags become ``H``);
        like :meth:`to_text`, it refuses an :attr:`Tile.OPENED` cell."""
        from solver.board_text import write_jsminesweeper

        return write_jsminesweeper(self)

    def __str__(self) -> str:
        """The ``[view]`` rows (:data:`~solver.board_text.OPENED_CHAR` for
        :attr:`Tile.OPENED`)."""
        from solver.board_text import view_rows

        return view_rows(self)

    def __repr__(self) -> str:
        """The board as the standard's text, which :meth:`from_text` reads back; with an
        :attr:`Tile.OPENED` cell, which the standard cannot write, as :meth:`from_rows` reads
        it back instead (the ``[real]`` layout and the metadata left out)."""
        if (self.tiles == Tile.OPENED).any():
            return f"Board.from_rows({str(self).splitlines()!r}, mines={self.mines})"
        return f"Board.from_text({self.to_text()!r})"

    # -- queries ------------------------------------------------------------------------------

    def __getitem__(self, cell: Cell) -> Tile:
        return Tile(int(self.tiles[cell]))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.rows, self.columns, self.mines) == (
            other.rows,
            other.columns,
            other.mines,
        ) and bool(np.array_equal(self.tiles, other.tiles))

    def copy(self) -> Board:
        real = None if self.real_mines is None else self.real_mines.copy()
        return Board(
            self.rows, self.columns, self.mines, self.tiles.copy(), real, dict(self.metadata)
        )

    def cells(self) -> Iterator[Cell]:
        for r in range(self.rows):
            for c in range(self.columns):
                yield (r, c)

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """The up to eight cells around ``cell``."""
        r, c = cell
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < self.rows and 0 <= c + dc < self.columns:
                    yield (r + dr, c + dc)

    @property
    def closed(self) -> npt.NDArray[np.bool_]:
        """Cells neither opened nor flagged (hidden or question-marked): where a click may still
        open something."""
        return tile_mask(self.tiles, _CLOSED_TILES)

    @property
    def unopened(self) -> npt.NDArray[np.bool_]:
        """Cells whose content is still unknown: closed or flagged."""
        return tile_mask(self.tiles, _UNOPENED_TILES)

    @property
    def is_lost(self) -> bool:
        """An exploded mine is on the board."""
        return bool((self.tiles == _EXPLODED).any())

    @property
    def is_won(self) -> bool:
        """Not lost, and every cell that is not a mine is opened."""
        if self.is_lost:
            return False
        return int(self.unopened.sum()) == self.mines and not (self.tiles == _WRONG_FLAG).any()

    @property
    def is_fresh(self) -> bool:
        """No cell opened or marked yet."""
        return bool((self.tiles == _HIDDEN).all())
