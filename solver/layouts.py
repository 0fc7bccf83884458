"""Every full-board mine layout consistent with a board, listed as bitmasks over its hidden
cells: what the exact win-probability search (:mod:`solver.winprob`) works on, where
:mod:`solver.analysis` only counts them.

Each independent part of the frontier (cells linked through numbers) is listed alone by
backtracking (:func:`_part_layouts`, compiled where :mod:`solver._winprob_core` is built: the
same layouts in the same order, after the same steps); the parts are then combined, and the
hidden cells touching no number take the remaining mines in every possible way. A flag is taken
as a mine, as :func:`solver.analysis.analyze` takes it, so that both count the same layouts of a
flagged board; an opened cell whose number is not known (:attr:`~solver.board.Tile.OPENED`) as a
safe cell that shows no number.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations
from math import comb

import numpy as np

from solver.board import Board, Cell, Tile
from solver.engine import neighbour_counts, neighbour_table
from solver.errors import PositionTooLarge
from solver.settings import current

try:
    from solver import _winprob_core as _core
except ImportError:  # a checkout whose extension is not built: the same listing, in Python
    _core = None  # type: ignore[assignment]


def consistent_layouts(board: Board, index: dict[Cell, int], max_layouts: int) -> list[int]:
    """Every full-board mine layout consistent with the numbers and the mine total, as bitmasks.

    Each independent part of the frontier (cells linked through numbers) is enumerated alone by
    backtracking; the parts are then combined, skipping early every combination whose mine
    count the rest can no longer bring to the total; the hidden cells touching no number take
    the remaining mines in every possible way. Raises :class:`PositionTooLarge` past
    ``max_layouts`` layouts or the setting ``max_enumeration_steps`` backtracking steps.
    """
    flagged = board.tiles == Tile.FLAG
    unflagged = board.mines - int(flagged.sum())
    if unflagged < 0:
        return []
    numbers = board.tiles <= Tile.EIGHT
    needs = board.tiles.astype(np.int16) - neighbour_counts(flagged)
    hidden_around = neighbour_counts(board.closed)
    if (numbers & ((needs < 0) | (needs > hidden_around))).any():
        return []
    rows, columns = (numbers & (hidden_around > 0)).nonzero()
    cells = list(zip(rows.tolist(), columns.tolist(), strict=True))
    constraints = list(
        zip(needs[rows, columns].tolist(), hidden_neighbours(board, cells, index), strict=True)
    )
    frontier = {cell for _, cells in constraints for cell in cells}
    off_frontier = [i for i in range(len(index)) if i not in frontier]
    steps = [0]
    parts = [_list_part(cells, constraints, steps) for cells in _frontier_parts(constraints)]
    if any(not layouts for layouts in parts):
        return []
    fewest = [min(mines for _, mines in layouts) for layouts in parts] + [0]
    most = [max(mines for _, mines in layouts) for layouts in parts] + [0]
    for i in range(len(parts) - 1, -1, -1):
        fewest[i] += fewest[i + 1]
        most[i] += most[i + 1]
    off = len(off_frontier)
    chosen_frontiers: list[tuple[int, int]] = []
    counted = 0
    # Depth first over the parts with a stack of (part, mask, mines so far): a board can have
    # thousands of parts, too many for a recursion.
    pending = [(0, 0, 0)]
    while pending:
        part, mask, chosen_mines = pending.pop()
        if part == len(parts):
            chosen_frontiers.append((mask, unflagged - chosen_mines))
            counted += comb(off, unflagged - chosen_mines)
            if counted > max_layouts:
                raise PositionTooLarge(f"more than {max_layouts} consistent layouts")
            continue
        for part_mask, part_mines in reversed(parts[part]):
            total = chosen_mines + part_mines
            if total + fewest[part + 1] <= unflagged <= total + most[part + 1] + off:
                pending.append((part + 1, mask | part_mask, total))
    off_bits = [1 << i for i in off_frontier]
    # Most frontier choices leave the same number of mines to the cells off the frontier: their
    # ways to take them are listed once per number.
    off_layouts = {
        rest: [sum(chosen) for chosen in combinations(off_bits, rest)]
        for rest in {rest for _, rest in chosen_frontiers}
    }
    return [mask | off for mask, rest in chosen_frontiers for off in off_layouts[rest]]


def hidden_neighbours(board: Board, cells: list[Cell], index: dict[Cell, int]) -> list[list[int]]:
    """For each of ``cells``, the bits in ``index`` of its neighbours there, in the order of
    :meth:`~solver.board.Board.neighbours`: read off flat tables, as a search sets up over
    hundreds of cells."""
    columns = board.columns
    around = neighbour_table(board.rows, columns)
    if _core is not None:  # the same lists, built in C
        return _core.hidden_neighbours(index, columns, around, cells)
    bit_of = [-1] * (board.rows * columns)
    for (r, c), bit in index.items():
        bit_of[r * columns + c] = bit
    return [[bit_of[n] for n in around[r * columns + c] if bit_of[n] >= 0] for r, c in cells]


def _frontier_parts(constraints: list[tuple[int, list[int]]]) -> list[list[int]]:
    """The frontier cells split into parts linked through numbers, each in breadth-first order
    (so that the numbers of a part are settled early in its backtracking)."""
    numbers_of: defaultdict[int, list[int]] = defaultdict(list)
    for k, (_, cells) in enumerate(constraints):
        for cell in cells:
            numbers_of[cell].append(k)
    seen: set[int] = set()
    parts = []
    for start in sorted(numbers_of):
        if start in seen:
            continue
        order = [start]
        seen.add(start)
        for cell in order:
            for k in numbers_of[cell]:
                for other in constraints[k][1]:
                    if other not in seen:
                        seen.add(other)
                        order.append(other)
        parts.append(order)
    return parts


def _list_part(
    cells: list[int], constraints: list[tuple[int, list[int]]], steps: list[int]
) -> list[tuple[int, int]]:
    """:func:`_part_layouts`, compiled where :mod:`solver._winprob_core` is built."""
    max_steps = current().max_enumeration_steps
    if _core is None:
        return _part_layouts(cells, constraints, steps, max_steps)
    return _core.part_layouts(cells, constraints, steps, max_steps, PositionTooLarge)


def _part_layouts(
    cells: list[int], constraints: list[tuple[int, list[int]]], steps: list[int], max_steps: int
) -> list[tuple[int, int]]:
    """Every mine layout of one frontier part satisfying its numbers, with its mine count.

    ``steps`` counts backtracking steps across parts, to give up past ``max_steps`` on
    contrived positions.
    """
    members = set(cells)
    watching: defaultdict[int, list[int]] = defaultdict(list)
    for k, (_, around) in enumerate(constraints):
        if members.intersection(around):
            for cell in around:
                watching[cell].append(k)
    mines_left = {k: constraints[k][0] for ks in watching.values() for k in ks}
    unknown_left = {k: len(constraints[k][1]) for k in mines_left}
    found: list[tuple[int, int]] = []
    # Backtracking without recursion (a part can have thousands of cells): ``tried[p]`` is -1
    # before cell ``p`` is tried, 0 while it is tried safe, 1 while it is tried a mine.
    numbers_at = [watching[cell] for cell in cells]
    tried = [-1] * len(cells)
    position, mask, mines = 0, 0, 0
    steps[0] += 1
    while position >= 0:
        if position == len(cells):
            found.append((mask, mines))
            position -= 1
            continue
        feasible = True
        if tried[position] < 0:
            tried[position] = 0
            for k in numbers_at[position]:
                unknown_left[k] -= 1
                feasible &= mines_left[k] <= unknown_left[k]
        elif tried[position] == 0:
            tried[position] = 1
            mask |= 1 << cells[position]
            mines += 1
            for k in numbers_at[position]:
                mines_left[k] -= 1
                feasible &= mines_left[k] >= 0
        else:  # both tried: undo the mine and go back
            tried[position] = -1
            mask ^= 1 << cells[position]
            mines -= 1
            for k in numbers_at[position]:
                unknown_left[k] += 1
                mines_left[k] += 1
            position -= 1
            continue
        if feasible:
            position += 1
            steps[0] += 1
            if steps[0] > max_steps:
                raise PositionTooLarge(f"enumerating the layouts took over {max_steps} steps")
    return found
