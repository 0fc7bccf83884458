"""Random full-board mine layouts consistent with a board, every one equally likely.

A roll-out (:mod:`solver.rollout`) values a guess by playing it out on boards the position may
really be, so the boards must come in the proportions the position has them. The exact count
(:mod:`solver.analysis`) already holds what that takes, so a layout is drawn in three steps,
each from exact whole-number weights (no layout is ever listed):

1. how many mines each group of frontier cells holds, in proportion to the full-board
   solutions with those counts (the group's layouts with that many mines, times the ways the
   later groups and the cells touching no number can take the rest);
2. each group's layout with that many mines, box by box, from its count's table of the ways
   to finish (:class:`solver.group_count.GroupCount`), a box of ``n`` interchangeable cells
   taking ``m`` mines in ``C(n, m)`` ways;
3. the mines left, spread over the cells touching no number.

Cells the cheap rules settled are mines or safe in every layout; flags count as mines.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from solver.analysis import Analysis, Group
from solver.board import Cell, Tile
from solver.errors import PositionTooLarge
from solver.group_count import ways


class LayoutSampler:
    """Draws layouts of one position; :class:`PositionTooLarge` for a position whose count is
    not exact (numbers dropped or rounded: its weights are not the true ones)."""

    def __init__(self, analysis: Analysis) -> None:
        if not analysis.exact:
            raise PositionTooLarge(f"the count is not exact ({analysis.approximation})")
        board = analysis.board
        self._shape = (board.rows, board.columns)
        self._groups = analysis.groups
        grouped = {cell for group in analysis.groups for cell in group.cells}
        unknown = {(int(r), int(c)) for r, c in zip(*board.closed.nonzero(), strict=True)}
        free_off = analysis.off_frontier
        if analysis.off_frontier_counted != len(free_off):  # the cheap rules settled them all
            free_off = frozenset()
        self._off: Sequence[Cell] = sorted(free_off)
        settled = unknown - grouped - free_off
        flags = {
            (int(r), int(c)) for r, c in zip(*(board.tiles == Tile.FLAG).nonzero(), strict=True)
        }
        self._fixed: list[Cell] = sorted(flags | (settled & analysis.mines))
        self._to_place = analysis.mines_to_place
        self._finishing = self._finishing_tables()

    def _finishing_tables(self) -> list[dict[int, int]]:
        """``[i][s]``: the ways groups ``i``.. and the cells touching no number complete a board
        whose earlier groups hold ``s`` mines."""
        tables: list[dict[int, int]] = [{}] * (len(self._groups) + 1)
        off = len(self._off)
        last = {s: ways(off, self._to_place - s) for s in range(self._to_place + 1)}
        tables[-1] = {s: n for s, n in last.items() if n}
        for index in range(len(self._groups) - 1, -1, -1):
            by_mines, after = self._groups[index].layouts_by_mines, tables[index + 1]
            table = {}
            for s in range(self._to_place + 1):
                total = sum(n * after.get(s + t, 0) for t, n in by_mines.items())
                if total:
                    table[s] = total
            tables[index] = table
        if not tables[0].get(0):
            raise PositionTooLarge("no layout is consistent with the count")
        return tables

    def sample(self, rng: random.Random) -> npt.NDArray[np.bool_]:
        """One layout: True where a mine is."""
        layout = np.zeros(self._shape, dtype=bool)
        for cell in self._fixed:
            layout[cell] = True
        placed = 0
        for index, group in enumerate(self._groups):
            after = self._finishing[index + 1]
            weights = {t: n * after.get(placed + t, 0) for t, n in group.layouts_by_mines.items()}
            mines = _pick(weights, rng)
            for cell in _group_layout(group, mines, rng):
                layout[cell] = True
            placed += mines
        for cell in rng.sample(list(self._off), self._to_place - placed):
            layout[cell] = True
        return layout


def _pick(weights: Mapping[int, int], rng: random.Random) -> int:
    """A key drawn in proportion to its whole-number weight."""
    point = rng.randrange(sum(weights.values()))
    for key, weight in weights.items():
        if point < weight:
            return key
        point -= weight
    raise AssertionError("the weights changed while drawing")  # pragma: no cover


def _group_layout(group: Group, mines: int, rng: random.Random) -> list[Cell]:
    """The mined cells of one of ``group``'s layouts with ``mines`` mines, all equally likely."""
    count = group._count
    chosen: list[Cell] = []
    state, left = 0, mines
    for index, step in enumerate(count.steps):
        finishing = count.backward[index + 1]
        weights = {}
        for m in step.choices(state):
            rest = finishing.get(state + step.opening - m * step.touched)
            if rest and rest.get(left - m):
                weights[m] = ways(step.size, m) * rest[left - m]
        m = _pick(weights, rng)
        chosen += rng.sample(list(count.boxes[index]), m)
        state, left = state + step.opening - m * step.touched, left - m
    return chosen
