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

from solver.board import Board, Cell, Tile, tile_mask
from solver.engine import neighbour_counts
from solver.errors import BoardError

try:
    from solver import _rules_core as _core
except ImportError:  # a checkout whose extension is not built: the same reading, in Python
    _core = None  # type: ignore[assignment]

_END_OF_GAME_TILES = (Tile.MINE, Tile.EXPLODED, Tile.WRONG_FLAG)


@dataclass(frozen=True, init=False)
class Constraint:
    """``mines`` of the ``unknown`` cells around the number at ``cell`` are mines."""

    cell: Cell
    unknown: frozenset[Cell]
    mines: int

    def __init__(self, cell: Cell, unknown: frozenset[Cell], mines: int) -> None:
        # Written out, so that it is compiled with this module, where the generated one would
        # be interpreted: each analysis makes one per number.
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "unknown", unknown)
        object.__setattr__(self, "mines", mines)


@dataclass(frozen=True)
class Constraints:
    """Everything the numbers and the mine counter say about the unknown cells of a board."""

    board: Board
    keys: tuple[int, ...] = field(repr=False)
    """One per number that still has unknown neighbours, in reading order: where it is, which
    neighbours are unknown and how many mines they hold, as one int (see
    :class:`_NumberReader`). The compiled rules (solver/_rules_core.pyx) work from these, and
    most moves need nothing more, so the forms below are built on demand."""
    unknown_mask: npt.NDArray[np.bool_] = field(repr=False)
    """Hidden and question-marked cells: those that may or may not hold a mine."""
    unknown_count: int
    mines_left: int
    """Mines not yet accounted for by flags."""

    @cached_property
    def constraints(self) -> tuple[Constraint, ...]:
        """One per number that still has unknown neighbours, in reading order."""
        return tuple(constraint for constraint, _ in self._read)

    @cached_property
    def bits(self) -> tuple[tuple[int, int, int], ...]:
        """Each constraint as (its number's reading-order index ``row * columns + column``, its
        unknown cells as the bits ``1 << index`` of an int, its mines), for the deductions,
        which then work by integer operations instead of set ones."""
        return tuple(bits for _, bits in self._read)

    @cached_property
    def _read(self) -> list[tuple[Constraint, tuple[int, int, int]]]:
        """Both forms of every number, from the keys (remembered across moves by size)."""
        read = _unknown_around_table(self.board.rows, self.board.columns)
        known = read.known
        return [known.get(key) or read(key) for key in self.keys]

    def unknown_besides(self, cells: frozenset[Cell]) -> frozenset[Cell]:
        """The unknown cells not in ``cells`` (unknown ones), as a set: read off the mask, with
        no set of every unknown cell made first (the analysis asks for those touching no
        number, most of them early in a game)."""
        away = self.unknown_mask.copy()
        if cells:
            rows, columns = zip(*cells, strict=True)
            away[rows, columns] = False
        width = self.board.columns
        return frozenset(divmod(i, width) for i in np.flatnonzero(away).tolist())


def read_constraints(board: Board) -> Constraints:
    """The constraints of ``board``; raise :class:`BoardError` naming the first impossible number.

    Checked here: end-of-game tiles (a finished game is not a position), more flags than mines,
    more unflagged mines than unknown cells, and any number with more flags around it than its
    value or fewer unopened neighbours than it needs. Whether the numbers can all be satisfied
    together is left to the caller's search.
    """
    # The same reading in C (solver/_rules_core.pyx) where it is built; None where it raises.
    keyed = None if _core is None else _core.number_keys(board.tiles, board.mines)
    keys, unknown_count, flag_count = _number_keys(board) if keyed is None else keyed
    return Constraints(board, tuple(keys), board.closed, unknown_count, board.mines - flag_count)


def _number_keys(board: Board) -> tuple[list[int], int, int]:
    """Check ``board`` (see :func:`read_constraints`); return one key per number that has unknown
    neighbours, in reading order (see :class:`_NumberReader`), the count of unknown cells and
    the count of flags."""
    tiles = board.tiles
    finished = tile_mask(tiles, _END_OF_GAME_TILES)
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
    indices = np.flatnonzero(numbers & (unknown_around > 0))
    pattern = _unknown_pattern(unknown).ravel()[indices].astype(np.int64)
    needs = (values - flags_around).ravel()[indices].astype(np.int64)
    # One int per number: where it is, which neighbours are unknown, how many mines they hold.
    keys: list[int] = ((indices.astype(np.int64) << 12) | (pattern << 4) | needs).tolist()
    return keys, unknown_count, flag_count


_DIRECTIONS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
"""The eight neighbours in the order of :meth:`Board.neighbours`; bit ``k`` of a cell's
pattern (:func:`_unknown_pattern`) is its neighbour in direction ``k``."""


def _unknown_pattern(unknown: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint16]:
    """For each cell, which of its eight neighbours are unknown, as 8 bits (one per direction
    of :data:`_DIRECTIONS`; off the board counts as known)."""
    rows, columns = unknown.shape
    padded = np.zeros((rows + 2, columns + 2), dtype=np.uint16)
    padded[1:-1, 1:-1] = unknown
    pattern = np.zeros((rows, columns), dtype=np.uint16)
    for bit, (dr, dc) in enumerate(_DIRECTIONS):
        pattern |= padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + columns] << bit
    return pattern


class _NumberReader:
    """For one board size: the constraint of a number from its key (its reading-order index
    ``row * columns + column``, shifted left 12 bits, or the 8-bit pattern of its unknown
    neighbours shifted left 4, or the mines they hold), and its :attr:`Constraints.bits` form.

    Remembered in :attr:`known`, because reading constraints runs on every move of every game
    and a number's neighbourhood rarely changes between moves (constraints are immutable, so
    shared)."""

    KEPT = 1 << 16
    """Keys remembered at most (then forgotten all at once)."""

    def __init__(self, rows: int, columns: int) -> None:
        self.columns = columns
        self.neighbours = [
            {
                bit: (r + dr, c + dc)
                for bit, (dr, dc) in enumerate(_DIRECTIONS)
                if 0 <= r + dr < rows and 0 <= c + dc < columns
            }
            for r in range(rows)
            for c in range(columns)
        ]
        self.known: dict[int, tuple[Constraint, tuple[int, int, int]]] = {}

    def __call__(self, key: int) -> tuple[Constraint, tuple[int, int, int]]:
        index, pattern, mines = key >> 12, key >> 4 & 0xFF, key & 0xF
        cells = [cell for bit, cell in self.neighbours[index].items() if pattern >> bit & 1]
        bits = sum(1 << (r * self.columns + c) for r, c in cells)
        read = (
            Constraint(divmod(index, self.columns), frozenset(cells), mines),
            (index, bits, mines),
        )
        if len(self.known) >= self.KEPT:
            self.known.clear()
        self.known[key] = read
        return read


@lru_cache(maxsize=16)
def _unknown_around_table(rows: int, columns: int) -> _NumberReader:
    """The :class:`_NumberReader` of a board size."""
    return _NumberReader(rows, columns)
