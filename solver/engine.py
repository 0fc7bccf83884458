"""A simulated Minesweeper game: seeded mine placement under each first-click rule, and play.

The benchmark plays millions of moves through :class:`Game`, so the hot paths work on flat
Python sequences (a ``bytearray`` mirror of the tiles, precomputed neighbour lists) and write
the changed cells into the numpy tile array in one vectorised step per action. ``Game.board`` is
a read-only live view of that array: callers see every change without copying.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from solver.board import LEVELS, Board, Cell, Tile
from solver.errors import BoardError

_HIDDEN = int(Tile.HIDDEN)
_FLAG = int(Tile.FLAG)
_FEW = 16
"""Cells opened at once below which the tile array is written cell by cell: one cell, the usual
open, costs a tenth of a vectorised write's set-up."""


class FirstClick(StrEnum):
    """How a game keeps the first opened cell from ending it, as the real programs do."""

    SAFE = "safe"
    """Never a mine; mines uniform over the other cells (Wine's winemine, Minesweeper X)."""
    XP = "xp"
    """Mines uniform over all cells; a mine under the first click moves to the first free cell
    in reading order from the top-left corner (Windows XP)."""
    OPENING = "opening"
    """Always a 0: no mine in the 3x3 block around the first click (Windows 7 and later)."""
    NONE = "none"
    """Mines uniform over all cells; the first click may lose."""

    @classmethod
    def parse(cls, rule: FirstClick | str) -> FirstClick:
        """The rule named ``rule`` (any case), or a ValueError listing the rules."""
        try:
            return cls(str(rule).lower())
        except ValueError:
            choices = ", ".join(cls)
            raise ValueError(f"unknown first-click rule {rule!r}; choose from {choices}") from None


class GameState(StrEnum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@lru_cache(maxsize=64)
def neighbour_table(rows: int, columns: int) -> tuple[tuple[int, ...], ...]:
    """For each flat cell index, the flat indices of its up to eight neighbours."""
    table = []
    for r in range(rows):
        for c in range(columns):
            table.append(
                tuple(
                    rr * columns + cc
                    for rr in (r - 1, r, r + 1)
                    for cc in (c - 1, c, c + 1)
                    if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < columns
                )
            )
    return tuple(table)


def neighbour_counts(mine_layout: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    """The number every cell would show: how many of its eight neighbours hold a mine."""
    rows, columns = mine_layout.shape
    padded = np.zeros((rows + 2, columns + 2), dtype=np.uint8)
    padded[1:-1, 1:-1] = mine_layout
    above, middle, below = padded[:-2], padded[1:-1], padded[2:]
    return (
        above[:, :-2] + above[:, 1:-1] + above[:, 2:]
        + middle[:, :-2] + middle[:, 2:]
        + below[:, :-2] + below[:, 1:-1] + below[:, 2:]
    )  # fmt: skip


class Game:
    """One game: hidden mines, the tiles a player sees, and the actions a player may take.

    Mines are placed at the first :meth:`open` (so the first-click rule can protect it), from a
    ``numpy`` generator seeded with ``seed``: the same seed and first click give the same game.
    Actions on an already opened cell, or after the game has ended, change nothing, as in the
    real programs; a cell off the board raises :class:`BoardError`. Flags toggle on and off
    (question marks, an option of the real programs, are not simulated).
    """

    def __init__(
        self,
        rows: int,
        columns: int,
        mines: int,
        rule: FirstClick | str = FirstClick.SAFE,
        seed: int | None = None,
    ) -> None:
        self.rule = FirstClick.parse(rule)
        spare = {
            FirstClick.NONE: 0,
            FirstClick.SAFE: 1,
            FirstClick.XP: 1,
            FirstClick.OPENING: min(rows, 2) * min(columns, 2),
        }[self.rule]
        if rows < 1 or columns < 1:
            raise BoardError(f"a game needs at least one row and one column, not {rows}x{columns}")
        if not 0 <= mines <= rows * columns - spare:
            raise BoardError(
                f"{mines} mines do not fit in {rows}x{columns} cells under the "
                f"'{self.rule}' first-click rule (at most {rows * columns - spare})"
            )
        self._rng = np.random.default_rng(seed)
        self._tiles = np.full((rows, columns), Tile.HIDDEN, dtype=np.uint8)
        view = self._tiles.view()
        view.flags.writeable = False
        self.board = Board(rows, columns, mines, view)
        """The tiles as the player sees them; read-only, updated in place by every action."""
        self._flat = self._tiles.reshape(-1)
        self._mirror = bytearray([_HIDDEN]) * (rows * columns)
        self._neighbours = neighbour_table(rows, columns)
        self._mines: npt.NDArray[np.bool_] | None = None
        self._mine_flags: bytes = b""
        self._counts: bytes = b""
        self._count_array: npt.NDArray[np.uint8] = np.zeros(0, dtype=np.uint8)
        self._safe_cells = rows * columns - mines
        self._opened = 0
        self._flags = 0
        self.state = GameState.PLAYING

    @classmethod
    def level(
        cls, name: str, rule: FirstClick | str = FirstClick.SAFE, seed: int | None = None
    ) -> Game:
        """A game of a standard level (``beginner``, ``intermediate``, ``expert``)."""
        try:
            rows, columns, mines = LEVELS[name.lower()]
        except KeyError:
            raise ValueError(f"unknown level {name!r}; choose one of {', '.join(LEVELS)}") from None
        return cls(rows, columns, mines, rule, seed)

    @classmethod
    def from_layout(cls, mine_layout: npt.ArrayLike) -> Game:
        """A game whose mines are already where ``mine_layout`` (rows x columns, truthy = mine)
        says; no first-click rule applies. For tests and replays of known boards."""
        layout = np.asarray(mine_layout, dtype=bool)
        if layout.ndim != 2:
            raise BoardError(f"a mine layout needs two dimensions, not shape {layout.shape}")
        game = cls(layout.shape[0], layout.shape[1], int(layout.sum()), FirstClick.NONE)
        game._set_mines(layout)
        return game

    # -- queries ------------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        return self.board.rows

    @property
    def columns(self) -> int:
        return self.board.columns

    @property
    def mines(self) -> int:
        return self.board.mines

    @property
    def mine_layout(self) -> npt.NDArray[np.bool_] | None:
        """Where the mines are (a copy), or None before the first open places them."""
        return None if self._mines is None else self._mines.copy()

    @property
    def mines_left(self) -> int:
        """The real games' counter: mines minus flags placed."""
        return self.mines - self._flags

    @property
    def is_over(self) -> bool:
        return self.state is not GameState.PLAYING

    # -- actions ------------------------------------------------------------------------------

    def open(self, cell: Cell) -> list[Cell]:
        """Open ``cell`` (a 0 opens its neighbours in turn); return the cells it opened.

        Flagged and already opened cells are left alone, as a real left click leaves them.
        """
        index = self._index(cell)
        if self.is_over or self._mirror[index] != _HIDDEN:
            return []
        if self._mines is None:
            self._place_mines(index)
        if self._mine_flags[index]:
            self._lose([index])
            return [self._cell(index)]
        return self._reveal([index])

    def chord(self, cell: Cell) -> list[Cell]:
        """Open every unflagged neighbour of the number at ``cell`` when its flags match it.

        Like a real double click: when the flag count differs nothing happens, and a wrong flag
        means a mine among the opened neighbours, which loses the game.
        """
        index = self._index(cell)
        number = self._mirror[index]
        if self.is_over or number > Tile.EIGHT:
            return []
        around = self._neighbours[index]
        mirror = self._mirror
        if sum(1 for j in around if mirror[j] == _FLAG) != number:
            return []
        targets = [j for j in around if mirror[j] == _HIDDEN]
        hit = [j for j in targets if self._mine_flags[j]]
        if not hit:
            return self._reveal(targets)
        opened = self._flood([j for j in targets if not self._mine_flags[j]])
        self._lose(hit)
        return [self._cell(j) for j in hit + opened]

    def flag(self, cell: Cell) -> bool:
        """Toggle a flag on an unopened cell; return whether the cell is flagged now."""
        index = self._index(cell)
        tile = self._mirror[index]
        if self.is_over or tile not in (_HIDDEN, _FLAG):
            return tile == _FLAG
        new = _HIDDEN if tile == _FLAG else _FLAG
        self._flags += 1 if new == _FLAG else -1
        self._mirror[index] = new
        self._flat[index] = new
        return new == _FLAG

    # -- internals ----------------------------------------------------------------------------

    def _index(self, cell: Cell) -> int:
        try:
            r, c = int(cell[0]), int(cell[1])
        except (TypeError, ValueError, IndexError):
            raise BoardError(f"a cell is a (row, column) pair of integers, not {cell!r}") from None
        rows, columns = self._tiles.shape
        if not (0 <= r < rows and 0 <= c < columns):
            raise BoardError(f"off the {rows}x{columns} board", cell=(r, c))
        return r * columns + c

    def _cell(self, index: int) -> Cell:
        return divmod(index, self.columns)

    def _place_mines(self, first: int) -> None:
        cells = self.rows * self.columns
        allowed = np.ones(cells, dtype=bool)
        if self.rule is FirstClick.SAFE:
            allowed[first] = False
        elif self.rule is FirstClick.OPENING:
            allowed[first] = False
            allowed[list(self._neighbours[first])] = False
        candidates = np.flatnonzero(allowed)
        if self.mines > candidates.size:
            raise BoardError(
                f"{self.mines} mines do not fit outside the 3x3 block of the first click "
                f"on a {self.rows}x{self.columns} board",
                cell=self._cell(first),
            )
        chosen = candidates[self._rng.choice(candidates.size, size=self.mines, replace=False)]
        layout = np.zeros(cells, dtype=bool)
        layout[chosen] = True
        if self.rule is FirstClick.XP and layout[first]:
            layout[int(np.argmin(layout))] = True  # the first free cell in reading order
            layout[first] = False
        self._set_mines(layout.reshape(self.rows, self.columns))

    def _set_mines(self, layout: npt.NDArray[np.bool_]) -> None:
        self._mines = layout
        self._mine_flags = layout.tobytes()
        self._count_array = neighbour_counts(layout).reshape(-1)
        self._counts = self._count_array.tobytes()

    def _reveal(self, starts: list[int]) -> list[Cell]:
        """Open the given safe cells with their floods, and end the game if that wins it."""
        opened = self._flood(starts)
        if self._opened == self._safe_cells:
            self._win()
        columns = self.columns
        return [divmod(i, columns) for i in opened]

    def _flood(self, starts: list[int]) -> list[int]:
        """Open the given safe cells and flood out from each 0 among them, with a stack."""
        mirror, counts, neighbours = self._mirror, self._counts, self._neighbours
        opened: list[int] = []
        stack: list[int] = []
        for start in starts:
            if mirror[start] == _HIDDEN:
                mirror[start] = counts[start]
                opened.append(start)
                if counts[start] == 0:
                    stack.append(start)
        while stack:
            for j in neighbours[stack.pop()]:
                if mirror[j] == _HIDDEN:
                    mirror[j] = counts[j]
                    opened.append(j)
                    if counts[j] == 0:
                        stack.append(j)
        if len(opened) < _FEW:
            flat = self._flat
            for j in opened:
                flat[j] = counts[j]
        else:
            self._flat[opened] = self._count_array[opened]
        self._opened += len(opened)
        return opened

    def _win(self) -> None:
        """Every safe cell is open: the real games then flag every remaining mine."""
        assert self._mines is not None
        self.state = GameState.WON
        mines = self._mines.reshape(-1)
        self._flat[mines] = _FLAG
        self._flags = self.mines
        for index in np.flatnonzero(mines).tolist():
            self._mirror[index] = _FLAG

    def _lose(self, exploded: list[int]) -> None:
        """Show the end-of-game tiles: the opened mines exploded, other unflagged mines shown,
        flags on safe cells marked wrong, correct flags kept."""
        assert self._mines is not None
        self.state = GameState.LOST
        mines = self._mines.reshape(-1)
        flagged = self._flat == _FLAG
        self._flat[mines & ~flagged] = Tile.MINE
        self._flat[flagged & ~mines] = Tile.WRONG_FLAG
        self._flat[exploded] = Tile.EXPLODED
        self._mirror[:] = self._flat.tobytes()
