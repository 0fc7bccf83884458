"""The visible state of a Minesweeper board, and its text forms.

A :class:`Board` is what a player sees: the size, the total number of mines, and one
:class:`Tile` per cell. It knows nothing of where the mines really are, except when a text
file carries an optional ``[real]`` section (kept in :attr:`Board.real_mines`).

Two text forms are read:

* MINESWEEPER-BOARD v0.1 (Metasweeper / ms-toollib's board standard)::

      MINESWEEPER-BOARD v0.1
      rows: 3
      columns: 4
      mines: 2
      [view]
      U1F1
      U110
      U100
      [real]
      .*.*
      ....
      ....

* JSMinesweeper's form: a ``30x16x99`` header (columns x rows x mines) and rows of digits,
  ``H`` hidden, ``F`` flag.

and the first is written by :meth:`Board.to_text`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np
import numpy.typing as npt

from solver.errors import SolverError

Cell = tuple[int, int]
"""A cell as (row, column), both counted from 0 at the top left."""


class Tile(IntEnum):
    """What one cell shows. 0-8 are opened cells showing that number."""

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

    @property
    def is_number(self) -> bool:
        return self <= Tile.EIGHT

    @property
    def is_unopened(self) -> bool:
        """Hidden, flagged or question-marked: the cells whose content is still unknown."""
        return self in (Tile.HIDDEN, Tile.FLAG, Tile.QUESTION)


TILE_COUNT = len(Tile)

_VIEW_CHARS: dict[str, Tile] = {
    **{str(n): Tile(n) for n in range(9)},
    "U": Tile.HIDDEN,
    "F": Tile.FLAG,
    "?": Tile.QUESTION,
    "@": Tile.MINE,
    "X": Tile.EXPLODED,
    "#": Tile.WRONG_FLAG,
}
_CHAR_OF_TILE: dict[Tile, str] = {tile: char for char, tile in _VIEW_CHARS.items()}
_JS_CHARS: dict[str, Tile] = {
    **{str(n): Tile(n) for n in range(9)},
    "H": Tile.HIDDEN,
    "F": Tile.FLAG,
}

LEVELS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}
"""The standard levels as (rows, columns, mines)."""


class BoardError(SolverError, ValueError):
    """A board that cannot be read or cannot exist. The message names where."""

    def __init__(self, message: str, cell: Cell | None = None, line: int | None = None) -> None:
        where = []
        if line is not None:
            where.append(f"line {line}")
        if cell is not None:
            where.append(f"cell (row {cell[0]}, column {cell[1]})")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.cell = cell
        self.line = line


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

    @classmethod
    def empty(cls, rows: int, columns: int, mines: int) -> Board:
        """A fresh board: every cell hidden."""
        return cls(rows, columns, mines, np.full((rows, columns), Tile.HIDDEN, dtype=np.uint8))

    @classmethod
    def from_rows(cls, lines: list[str], mines: int) -> Board:
        """A board from rows of MINESWEEPER-BOARD view characters (``U``, ``F``, digits...)."""
        return _parse_view(lines, mines, first_line=1)

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Read MINESWEEPER-BOARD v0.1 or JSMinesweeper text; raise :class:`BoardError`."""
        lines = [line.strip() for line in text.strip().splitlines()]
        if not lines or not lines[0]:
            raise BoardError("the board text is empty")
        if lines[0].upper().startswith("MINESWEEPER-BOARD"):
            return _parse_metasweeper(lines)
        if re.fullmatch(r"\d+x\d+x\d+", lines[0]):
            return _parse_jsminesweeper(lines)
        raise BoardError(
            "unknown board format: expected a 'MINESWEEPER-BOARD v0.1' header or a "
            f"JSMinesweeper 'COLUMNSxROWSxMINES' header, found {lines[0][:40]!r}",
            line=1,
        )

    # -- text forms ---------------------------------------------------------------------------

    def to_text(self) -> str:
        """The board as MINESWEEPER-BOARD v0.1 text (with ``[real]`` when the layout is known)."""
        out = [
            "MINESWEEPER-BOARD v0.1",
            f"rows: {self.rows}",
            f"columns: {self.columns}",
            f"mines: {self.mines}",
            "[view]",
        ]
        out += ["".join(_CHAR_OF_TILE[Tile(t)] for t in row) for row in self.tiles]
        if self.real_mines is not None:
            out.append("[real]")
            out += ["".join("*" if m else "." for m in row) for row in self.real_mines]
        return "\n".join(out) + "\n"

    def to_jsminesweeper_text(self) -> str:
        """The board in JSMinesweeper's form (unopened cells other than flags become ``H``)."""
        out = [f"{self.columns}x{self.rows}x{self.mines}"]
        for row in self.tiles:
            chars = []
            for t in row:
                tile = Tile(t)
                chars.append(
                    str(int(tile)) if tile.is_number else "F" if tile == Tile.FLAG else "H"
                )
            out.append("".join(chars))
        return "\n".join(out) + "\n"

    def __str__(self) -> str:
        return "\n".join("".join(_CHAR_OF_TILE[Tile(t)] for t in row) for row in self.tiles)

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
        return Board(self.rows, self.columns, self.mines, self.tiles.copy(), real)

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
    def is_lost(self) -> bool:
        """An exploded mine is on the board."""
        return bool((self.tiles == Tile.EXPLODED).any())

    @property
    def is_won(self) -> bool:
        """Not lost, and every cell that is not a mine is opened."""
        if self.is_lost:
            return False
        unopened = int(np.isin(self.tiles, (Tile.HIDDEN, Tile.FLAG, Tile.QUESTION)).sum())
        return unopened == self.mines and not (self.tiles == Tile.WRONG_FLAG).any()

    @property
    def is_fresh(self) -> bool:
        """No cell opened or marked yet."""
        return bool((self.tiles == Tile.HIDDEN).all())


def _parse_view(lines: list[str], mines: int, first_line: int) -> Board:
    if not lines:
        raise BoardError("the board has no rows", line=first_line)
    width = len(lines[0])
    tiles = np.empty((len(lines), width), dtype=np.uint8)
    for r, text in enumerate(lines):
        if len(text) != width:
            raise BoardError(
                f"row {r} has {len(text)} cells, the first row has {width}", line=first_line + r
            )
        for c, char in enumerate(text):
            tile = _VIEW_CHARS.get(char.upper())
            if tile is None:
                raise BoardError(
                    f"unknown cell character {char!r}", cell=(r, c), line=first_line + r
                )
            tiles[r, c] = tile
    return Board(len(lines), width, mines, tiles)


def _header_int(lines: list[str], key: str) -> int | None:
    for number, line in enumerate(lines, start=1):
        if line.startswith("["):
            return None
        if line.lower().startswith(key + ":"):
            value = line.split(":", 1)[1].strip()
            if not value.isdigit():
                raise BoardError(f"'{key}:' needs a whole number, found {value!r}", line=number)
            return int(value)
    return None


def _section(lines: list[str], name: str) -> tuple[int, list[str]] | None:
    """The non-empty lines of section ``[name]``, and the line number of the first."""
    try:
        start = next(i for i, line in enumerate(lines) if line.lower() == f"[{name}]")
    except StopIteration:
        return None
    body: list[str] = []
    for line in lines[start + 1 :]:
        if line.startswith("["):
            break
        if line:
            body.append(line)
    return start + 2, body


def _parse_metasweeper(lines: list[str]) -> Board:
    view = _section(lines, "view")
    if view is None:
        raise BoardError("MINESWEEPER-BOARD text has no [view] section")
    first, rows = view
    mines = _header_int(lines, "mines")
    if mines is None:
        raise BoardError("MINESWEEPER-BOARD text has no 'mines:' line")
    board = _parse_view(rows, mines, first)
    for key, actual in (("rows", board.rows), ("columns", board.columns)):
        declared = _header_int(lines, key)
        if declared is not None and declared != actual:
            raise BoardError(f"the header says {key}: {declared}, the [view] has {actual}")
    real = _section(lines, "real")
    if real is not None:
        first_real, real_rows = real
        layout = np.zeros(board.tiles.shape, dtype=bool)
        if len(real_rows) != board.rows:
            raise BoardError(
                f"[real] has {len(real_rows)} rows, [view] has {board.rows}", line=first_real
            )
        for r, text in enumerate(real_rows):
            if len(text) != board.columns:
                raise BoardError(f"[real] row {r} has {len(text)} cells", line=first_real + r)
            layout[r] = [ch == "*" for ch in text]
        board.real_mines = layout
    return board


def _parse_jsminesweeper(lines: list[str]) -> Board:
    columns, rows, mines = (int(x) for x in lines[0].split("x"))
    body = [line for line in lines[1:] if line]
    if len(body) != rows:
        raise BoardError(f"the header says {rows} rows, the text has {len(body)}", line=1)
    tiles = np.empty((rows, columns), dtype=np.uint8)
    for r, text in enumerate(body):
        if len(text) != columns:
            raise BoardError(
                f"row {r} has {len(text)} cells, the header says {columns}", line=r + 2
            )
        for c, char in enumerate(text):
            tile = _JS_CHARS.get(char.upper())
            if tile is None:
                raise BoardError(f"unknown cell character {char!r}", cell=(r, c), line=r + 2)
            tiles[r, c] = tile
    return Board(rows, columns, mines, tiles)
