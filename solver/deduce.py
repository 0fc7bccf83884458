"""Cheap, sound deductions: cells that are certainly safe or certainly mines.

These are the rules a human uses first, and they settle most moves of a game at a tiny fraction
of the cost of the exact analysis, so the move chooser calls :func:`find_certain` on every move
and runs :func:`solver.analysis.analyze` only when it finds nothing. The rules, repeated until
nothing new follows:

* one number: if its unknown neighbours must all be mines, or its flags and known mines already
  satisfy it, every remaining neighbour is decided;
* two numbers A and B that share cells: the mines in B's own cells minus the mines in A's own
  cells equal B's count minus A's. When that difference is as large as B's own cells, B's own
  cells are all mines and A's own cells all safe (with A inside B this is the subset rule);
* the mine counter: when no mines are left, or as many as unknown cells, every unknown cell is
  decided.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import numpy as np

from solver.board import Board, Cell
from solver.constraints import Constraints, read_constraints
from solver.errors import BoardError

try:
    from solver import _rules_core as _core
except ImportError:  # a checkout whose extension is not built: the same rules, in Python
    _core = None  # type: ignore[assignment]

_Number = tuple[int, int, int]
"""A constraint as the deductions hold it (:attr:`Constraints.bits`): sets of cells as ints make
the rules' unions, differences and counts single integer operations."""


def _reduce(numbers: list[_Number], safe: int, mines: int, columns: int) -> list[_Number]:
    """The numbers without the newly decided ``safe`` and ``mines`` cells; raise if a number
    can no longer be met."""
    decided = safe | mines
    reduced = []
    for number in numbers:
        index, unknown, need = number
        if not unknown & decided:
            reduced.append(number)
            continue
        need -= (unknown & mines).bit_count()
        unknown &= ~decided
        if not 0 <= need <= unknown.bit_count():
            raise BoardError(
                "the mines the other numbers force leave this number unsatisfiable",
                cell=divmod(index, columns),
            )
        if unknown:
            reduced.append((index, unknown, need))
    return reduced


def _pair_rule(a: _Number, b: _Number, columns: int) -> tuple[int, int]:
    """The two-number rule for B against A: the cells it proves (mines, safe), as bits.

    Both constraints stay true as cells get decided, so the rule is sound on either form.
    """
    only_b = b[1] & ~a[1]
    only_a = a[1] & ~b[1]
    difference = b[2] - a[2]
    only_b_count = only_b.bit_count()
    if difference > only_b_count or -difference > only_a.bit_count():
        cell_a, cell_b = divmod(a[0], columns), divmod(b[0], columns)
        raise BoardError(
            f"the numbers at {cell_a} and {cell_b} cannot both be satisfied",
            cell=min(cell_a, cell_b),
        )
    if difference == only_b_count:
        return only_b, only_a
    return 0, 0


def find_certain(board: Board) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """The unknown cells the simple rules prove safe, and those they prove to be mines.

    Sound but not complete: every cell returned is certain, but :func:`solver.analysis.analyze`
    may find more. Raises :class:`BoardError` for a board the rules show to be impossible.
    """
    return certain_cells(read_constraints(board))


def certain_cells(position: Constraints) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """:func:`find_certain` for a board already read into constraints."""
    found = None
    if _core is not None:
        # The same rules in C (solver/_rules_core.pyx); None where the Python raises.
        found = _core.certain_bits(
            position.keys,
            position.unknown_count,
            position.mines_left,
            position.unknown_mask.view(np.uint8),
        )
    safe, mines = _certain_bits(position) if found is None else found
    columns = position.board.columns
    return _cells(safe, columns), _cells(mines, columns)


def _certain_bits(position: Constraints) -> tuple[int, int]:
    """The cells the rules prove (safe, mines), as bits of reading-order ints."""
    columns = position.board.columns
    safe = mines = 0
    reduced_safe = reduced_mines = 0
    numbers = list(position.bits)
    while True:
        before = (safe, mines)
        if safe != reduced_safe or mines != reduced_mines:
            # Only cells decided since the last reduction can change a constraint.
            numbers = _reduce(numbers, safe & ~reduced_safe, mines & ~reduced_mines, columns)
            reduced_safe, reduced_mines = safe, mines
        for _, unknown, need in numbers:
            if need == 0:
                safe |= unknown
            elif need == unknown.bit_count():
                mines |= unknown
        if (safe, mines) == before:
            more_mines, more_safe = _apply_pair_rules(numbers, columns)
            mines |= more_mines
            safe |= more_safe
        if mines & safe:
            raise BoardError(
                "the numbers force this cell to be both a mine and safe",
                cell=divmod(_lowest_bit(mines & safe), columns),
            )
        mine_count = mines.bit_count()
        undecided = position.unknown_count - safe.bit_count() - mine_count
        mines_left = position.mines_left - mine_count
        if not 0 <= mines_left <= undecided:
            raise BoardError(
                f"the numbers force {mine_count} of the {position.mines_left} unflagged mines "
                f"and leave {undecided} cells for the rest"
            )
        if undecided and mines_left in (0, undecided):
            rest = _unknown_bits(position) & ~safe & ~mines
            if mines_left:
                mines |= rest
            else:
                safe |= rest
        if (safe, mines) == before:
            return safe, mines


def _apply_pair_rules(numbers: list[_Number], columns: int) -> tuple[int, int]:
    """The two-number rule on every pair of numbers that share an unknown cell: the cells it
    proves (mines, safe), as bits."""
    touching: defaultdict[int, list[int]] = defaultdict(list)
    for position, (_, unknown, _) in enumerate(numbers):
        for bit in _bit_indices(unknown):
            touching[bit].append(position)
    mines = safe = 0
    for position, a in enumerate(numbers):
        partners = {
            other for bit in _bit_indices(a[1]) for other in touching[bit] if other > position
        }
        for other in sorted(partners):
            b = numbers[other]
            for first, second in ((a, b), (b, a)):
                more_mines, more_safe = _pair_rule(first, second, columns)
                mines |= more_mines
                safe |= more_safe
    return mines, safe


def _unknown_bits(position: Constraints) -> int:
    """The board's unknown cells as bits of a reading-order int."""
    packed = np.packbits(position.unknown_mask.ravel(), bitorder="little")
    return int.from_bytes(packed.tobytes(), "little")


@lru_cache(maxsize=1 << 16)
def _bit_indices(bits: int) -> tuple[int, ...]:
    """The positions of the set bits, lowest first (memoised: a number's few unknown cells come
    back move after move)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return tuple(out)


def _lowest_bit(bits: int) -> int:
    return (bits & -bits).bit_length() - 1


def _cells(bits: int, columns: int) -> frozenset[Cell]:
    cells = []
    while bits:
        low = bits & -bits
        cells.append(divmod(low.bit_length() - 1, columns))
        bits ^= low
    return frozenset(cells)
