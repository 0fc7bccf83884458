"""The numbers of a board as mine-count constraints on the unknown cells around them.

Both the cheap deductions (:mod:`solver.deduce`) and the exact analysis (:mod:`solver.analysis`)
start here, so that a board is checked for impossibilities the same way by both. Flags count as
known mines; question marks count as hidden cells; an opened cell whose number is not known
(:attr:`~solver.board.Tile.OPENED`) counts as a safe cell and constrains nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import numpy.typing as npt

from solver.board import Board, BoardError, Cell, Tile
from solver.engine import neighbour_counts

_END_OF_GAME_TILES = (Tile.MINE, Tile.EXPLODED, Tile.WRONG_FLAG)


@dataclass(frozen=True)
class Constraint:
    """``mines`` of the ``unknown`` cells around the number at ``cell`` are mines."""

    cell: Cell
    unknown: frozenset[Cell]
    mines: int


@dataclass(frozen=True)
class Constraints:
    """Everything the numbers and the mine counter say about the unknown cells of a board."""

    board: Board
    constraints: tuple[Constraint, ...]
    """One per number that still has unknown neighbours, in reading order."""
    unknown_mask: npt.NDArray[np.bool_] = field(repr=False)
    """Hidden and question-marked cells: those that may or may not hold a mine."""
    unknown_count: int
    mines_left: int
    """Mines not yet accounted for by flags."""

    @cached_property
    def unknown(self) -> frozenset[Cell]:
        """The unknown cells as a set, built on demand: most moves need only their count."""
        columns = self.board.columns
        return frozenset(divmod(i, columns) for i in np.flatnonzero(self.unknown_mask).tolist())


def read_constraints(board: Board) -> Constraints:
    """The constraints of ``board``; raise :class:`BoardError` naming the first impossible number.

    Checked here: end-of-game tiles (a finished game is not a position), more flags than mines,
    more unflagged mines than unknown cells, and any number with more flags around it than its
    value or fewer unopened neighbours than it needs. Whether the numbers can all be satisfied
    together is left to the caller's search.
    """
    tiles = board.tiles
    finished = np.isin(tiles, _END_OF_GAME_TILES)
    if finished.any():
        r, c = (int(x) for x in np.argwhere(finished)[0])
        raise BoardError(
            f"the board shows {Tile(int(tiles[r, c])).name}: the game is over, "
            "there is no position to analyze",
            cell=(r, c),
        )
    flags = tiles == Tile.FLAG
    flag_count = int(flags.sum())
    if flag_count > board.mines:
        raise BoardError(f"{flag_count} flags on a board with only {board.mines} mines")
    unknown = board.closed
    numbers = tiles <= Tile.EIGHT
    values = tiles.astype(np.int16)
    flags_around = neighbour_counts(flags).astype(np.int16)
    unknown_around = neighbour_counts(unknown).astype(np.int16)
    impossible = numbers & ((flags_around > values) | (flags_around + unknown_around < values))
    if impossible.any():
        r, c = (int(x) for x in np.argwhere(impossible)[0])
        value, flagged = int(values[r, c]), int(flags_around[r, c])
        if flagged > value:
            raise BoardError(f"the {value} has {flagged} flags around it", cell=(r, c))
        unopened = flagged + int(unknown_around[r, c])
        raise BoardError(f"the {value} has only {unopened} unopened cells around it", cell=(r, c))
    unknown_count = int(unknown.sum())
    if board.mines - flag_count > unknown_count:
        raise BoardError(
            f"{board.mines - flag_count} mines are not flagged "
            f"but only {unknown_count} cells are unknown"
        )
    columns = board.columns
    is_unknown = unknown.ravel().tolist()
    needs = (values - flags_around).ravel().tolist()
    table = _neighbour_table(board.rows, columns)
    constraints = []
    for index in np.flatnonzero(numbers & (unknown_around > 0)).tolist():
        around = frozenset(cell for cell, flat in table[index] if is_unknown[flat])
        constraints.append(Constraint(divmod(index, columns), around, needs[index]))
    return Constraints(board, tuple(constraints), unknown, unknown_count, board.mines - flag_count)


@lru_cache(maxsize=16)
def _neighbour_table(rows: int, columns: int) -> tuple[tuple[tuple[Cell, int], ...], ...]:
    """For each cell in reading order, its neighbours as (cell, index in reading order); built
    once per board size, because reading constraints runs on every move of every game."""
    board = Board.empty(rows, columns, 0)
    return tuple(
        tuple((n, n[0] * columns + n[1]) for n in board.neighbours(cell)) for cell in board.cells()
    )
