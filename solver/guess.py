"""One move ahead for a guess: which numbers a cell may show, and how safe the next move then is.

Re-running the full analysis for every number every candidate might show costs tens of
milliseconds each on Expert. This module instead works from one :class:`~solver.analysis.Analysis`:
a new number at ``cell`` only constrains the unknown cells around it, so only the frontier
groups touching them and the untouched cells among them (off the frontier) are enumerated; every
other group enters through its count of layouts per number of mines, and the cells touching no
number through binomial counts. Weights are exact whole numbers of full-board layouts.

"Progress" after a number is a cell of the enumerated groups (or one of the off-frontier
neighbours) that is safe in every layout left. Certainties that only the global mine count
could create elsewhere are not looked for, so progress is a slight underestimate.

The "next safety" after a number is the exact safety of the safest of those same cells. The
number also shifts every other cell's chance a little, through the mine count the cells share;
that shift is left out (the caller takes their safety as it was).
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from math import comb
from typing import cast

import numpy as np
import numpy.typing as npt

from solver.analysis import Analysis, Group
from solver.board import Board, Cell, Tile
from solver.group_count import Polynomial, polynomial_product, ways
from solver.settings import current

try:
    from solver import _guess_core as _core
except ImportError:  # a checkout whose extension is not built: the same classes, in Python
    _core = None  # type: ignore[assignment]

_CLOSED = (int(Tile.HIDDEN), int(Tile.QUESTION))
"""The tiles of :attr:`Tile.is_closed`, as ints (read off the tile array, without a Tile each)."""


@dataclass(frozen=True)
class Outlook:
    """What opening one cell may lead to."""

    cell: Cell
    safety: float
    """Chance the cell holds no mine."""
    shows: Mapping[int, float]
    """Chance of each number it may show (they add up to ``safety``)."""
    progress: float
    """Chance it is safe and its number leaves a certainly safe cell to open next."""
    next_safety: Mapping[int, float]
    """For each number it may show, the safety of the safest cell whose chance that number
    changes (an unknown neighbour, or a cell of a group one of them is in)."""
    second_safety: Mapping[int, float]
    """For each number, the safety of the second safest of those cells (0 for a lone one)."""
    reassessed: frozenset[Cell]
    """Those cells: the safety of every other cell is taken as unchanged by the number."""


class LookAhead:
    """Outlooks of candidate cells of one analysed position, sharing the per-group work."""

    def __init__(self, analysis: Analysis, max_layouts: int | None = None) -> None:
        self.analysis = analysis
        self.max_layouts = current().max_enumerated_layouts if max_layouts is None else max_layouts
        """Most layouts of the touched groups (their product) one look-ahead will enumerate
        (by default the setting ``max_enumerated_layouts``)."""
        self.group_of: dict[Cell, int] = {
            cell: index for index, group in enumerate(analysis.groups) for cell in group.cells
        }
        self._layouts: dict[int, _Layouts | None] = {}
        self._others: dict[tuple[int, ...], Polynomial] = {}
        self._completed: dict[tuple[tuple[int, ...], int, int], int] = {}
        grouped = frozenset(self.group_of)
        self.fixed_mines = analysis.mines - grouped
        """Certain mines in no group: the mine count the groups share already leaves them out."""
        self.off_free = analysis.off_frontier - analysis.mines - analysis.safe
        proven_off = bool(analysis.off_frontier) and analysis.off_frontier <= analysis.mines
        self.to_place = analysis.mines_to_place - analysis.off_frontier_counted * proven_off
        """Mines the groups and :attr:`off_free` share (off-frontier cells the count proved
        mines are among :attr:`fixed_mines`)."""
        every_group: Polynomial = {0: 1}
        for group in analysis.groups:
            every_group = polynomial_product(every_group, group.layouts_by_mines, self.to_place)
        self.consistent = analysis.solutions == sum(
            count * ways(len(self.off_free), self.to_place - t) for t, count in every_group.items()
        )
        """Whether these counts rebuild the analysis's own (else no outlook is given)."""

    def outlook(self, cell: Cell) -> Outlook | None:
        """The outlook of opening ``cell``, or None when its groups have too many layouts."""
        board = self.analysis.board
        if not self.consistent or cell in self.fixed_mines:
            return None
        around = list(board.neighbours(cell))
        tiles = [int(board.tiles[n]) for n in around]
        known = sum(
            1 for n, t in zip(around, tiles, strict=True) if t == Tile.FLAG or n in self.fixed_mines
        )
        unknown = [
            n
            for n, t in zip(around, tiles, strict=True)
            if t in _CLOSED and n not in self.fixed_mines
        ]
        touched = sorted({self.group_of[n] for n in [cell, *unknown] if n in self.group_of})
        enumerated = self._enumerated(touched)
        if enumerated is None:
            return None
        off_around = [n for n in unknown if n in self.off_free]
        counts = self._count_numbers(cell, known, unknown, off_around, touched, enumerated)
        group_cells = frozenset().union(*(self.analysis.groups[i].cells for i in touched)) - {cell}
        next_safety, second_safety, progress = _next_safeties(counts, group_cells, len(off_around))
        total = self.analysis.solutions
        return Outlook(
            cell=cell,
            safety=sum(counts.weight.values()) / total,
            shows={shown: w / total for shown, w in sorted(counts.weight.items())},
            progress=progress / total,
            next_safety=next_safety,
            second_safety=second_safety,
            reassessed=group_cells | frozenset(off_around),
        )

    def _enumerated(self, touched: list[int]) -> list[_Layouts] | None:
        """Every layout of each touched group, or None when they are too many to combine."""
        enumerated = [self._group_layouts(index) for index in touched]
        size = 1
        for layouts in enumerated:
            if layouts is None:
                return None
            size *= len(layouts.mined)
        return None if size > self.max_layouts else cast(list[_Layouts], enumerated)

    def _count_numbers(
        self,
        cell: Cell,
        known: int,
        unknown: list[Cell],
        off_around: list[Cell],
        touched: list[int],
        enumerated: list[_Layouts],
    ) -> _NumberCounts:
        """Weigh every full-board layout with ``cell`` safe by the number it shows there.

        A layout's weight depends only on the mines its groups put next to ``cell`` and in
        all, so the groups' layouts are counted by those two (small numbers, in numpy) and each
        such class is weighed once, exactly, instead of each layout.
        """
        to_place, groups = self.to_place, tuple(touched)
        spare_off = len(self.off_free) - len(off_around) - (cell in self.off_free)
        k = len(off_around)

        def completions(mines: int, in_off_around: int) -> int:
            """Full-board layouts completing ``mines`` in the touched groups, ``in_off_around``
            in the off-frontier neighbours, ``cell`` safe."""
            rest = to_place - mines - in_off_around
            return comb(k, in_off_around) * self._completing(groups, spare_off, rest)

        counts = _NumberCounts()
        unknown_cells = frozenset(unknown)
        classes = (
            _classes(cell, unknown_cells, enumerated)
            if _core is None
            else _core.layout_classes(cell, unknown_cells, enumerated)
        )
        for near, mines, layouts, mined_in in classes:
            for j in range(k + 1):
                w = completions(mines, j)
                if not w:
                    continue
                shown = known + near + j
                counts.weight[shown] += layouts * w
                mined = counts.mined_weight[shown]
                for mine, times in mined_in:
                    mined[mine] += times * w
                counts.off_mined_weight[shown] += layouts * w * j
        return counts

    def _completing(self, touched: tuple[int, ...], spare_off: int, mines: int) -> int:
        """The layouts of the groups not in ``touched`` and ``spare_off`` off-frontier cells
        that hold ``mines`` together: a sum of hundred-digit products, the same for every
        candidate touching the same groups (the cells away from the frontier touch none)."""
        key = (touched, spare_off, mines)
        known = self._completed.get(key)
        if known is None:
            others = self._untouched(touched)
            known = sum(count * ways(spare_off, mines - u) for u, count in others.items())
            self._completed[key] = known
        return known

    def _untouched(self, touched: tuple[int, ...]) -> Polynomial:
        """The layouts of the groups not in ``touched``, by their mines (the candidates of one
        guess mostly touch the same group or none, so each product is made once)."""
        others = self._others.get(touched)
        if others is None:
            others = {0: 1}
            for index, group in enumerate(self.analysis.groups):
                if index not in touched:
                    others = polynomial_product(others, group.layouts_by_mines, self.to_place)
            self._others[touched] = others
        return others

    def _group_layouts(self, index: int) -> _Layouts | None:
        if index not in self._layouts:
            group: Group = self.analysis.groups[index]
            self._layouts[index] = (
                _layouts_of(group) if group.layout_count <= self.max_layouts else None
            )
        return self._layouts[index]


_LAYOUT_TABLES: OrderedDict[Hashable, _Layouts] = OrderedDict()
"""The layout tables of recent groups by :attr:`~solver.analysis.Group.identity`, most recently
used last: a group that a move leaves unchanged is met again at the next guess."""

_LAYOUT_TABLES_KEPT = 64


def _layouts_of(group: Group) -> _Layouts:
    """:meth:`_Layouts.of`, remembered across guesses."""
    key = group.identity
    table = _LAYOUT_TABLES.get(key)
    if table is None:
        table = _LAYOUT_TABLES[key] = _Layouts.of(group)
        if len(_LAYOUT_TABLES) > _LAYOUT_TABLES_KEPT:
            _LAYOUT_TABLES.popitem(last=False)
    else:
        _LAYOUT_TABLES.move_to_end(key)
    return table


@dataclass(frozen=True)
class _Layouts:
    """The layouts of one group as a table: a row per layout, a column per cell."""

    cells: tuple[Cell, ...]
    mined: npt.NDArray[np.bool_]

    @classmethod
    def of(cls, group: Group) -> _Layouts:
        return cls(*group.layout_table())


def _classes(
    cell: Cell, unknown: frozenset[Cell], enumerated: list[_Layouts]
) -> Iterator[tuple[int, int, int, list[tuple[Cell, int]]]]:
    """The combined layouts of the groups (one of each) that leave ``cell`` safe, in classes
    by their mines among ``unknown`` and in all: per class, those two counts, how many layouts
    it holds, and how many of them have a mine in each cell (cells never mined left out)."""
    if not enumerated:  # no group touched: the one empty layout
        yield 0, 0, 1, []
        return
    cells: list[Cell] = []
    combined = np.ones((1, 0), dtype=bool)
    for layouts in enumerated:
        rows = len(layouts.mined)
        combined = np.concatenate(
            [np.repeat(combined, rows, axis=0), np.tile(layouts.mined, (len(combined), 1))],
            axis=1,
        )
        cells += layouts.cells
    if cell in cells:
        combined = combined[~combined[:, cells.index(cell)]]
    if not len(combined):
        return
    near = combined[:, [i for i, c in enumerate(cells) if c in unknown]].sum(axis=1)
    key = near * (len(cells) + 1) + combined.sum(axis=1)
    classes, members = np.unique(key, return_inverse=True)
    order = np.argsort(members, kind="stable")
    starts = np.searchsorted(members[order], np.arange(len(classes)))
    sizes = np.diff(np.append(starts, len(order))).tolist()
    mined_in = np.add.reduceat(combined[order].astype(np.int64), starts, axis=0).tolist()
    for value, size, per_cell in zip(classes.tolist(), sizes, mined_in, strict=True):
        near_count, total = divmod(value, len(cells) + 1)
        yield near_count, total, size, [(c, n) for c, n in zip(cells, per_cell, strict=True) if n]


@dataclass
class _NumberCounts:
    """For each number a cell may show: the weight of the layouts showing it, the part of that
    weight with a mine in each reassessed group cell, and with mines among its off-frontier
    neighbours (counted once per mine there, since they are all alike)."""

    weight: defaultdict[int, int] = field(default_factory=lambda: defaultdict(int))
    mined_weight: defaultdict[int, defaultdict[Cell, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    off_mined_weight: defaultdict[int, int] = field(default_factory=lambda: defaultdict(int))


def _next_safeties(
    counts: _NumberCounts, group_cells: frozenset[Cell], k: int
) -> tuple[dict[int, float], dict[int, float], int]:
    """Per number shown, the safeties of the two safest reassessed cells, and the weight of the
    numbers that leave a certainly safe one (``k`` off-frontier neighbours reassessed)."""
    next_safety = {}
    second_safety = {}
    progress = 0
    for shown, w in counts.weight.items():
        # the weight of layouts with a mine in each reassessed cell, times ``scale`` so that
        # the off-frontier neighbours' share (all alike) stays a whole number; the two
        # lightest, padded with "always a mine"
        scale = k or 1
        mined = counts.mined_weight[shown]
        mined_in = [mined.get(c, 0) * scale for c in group_cells]
        mined_in += [counts.off_mined_weight[shown]] * min(k, 2)
        fewest = sorted(mined_in)[:2] + [w * scale] * 2
        # Whole numbers divide to the nearest float, as exactly as through a Fraction.
        next_safety[shown] = (w * scale - fewest[0]) / (w * scale)
        second_safety[shown] = (w * scale - fewest[1]) / (w * scale)
        progress += w if fewest[0] == 0 else 0
    return next_safety, second_safety, progress


def forced_fifty_fifty(analysis: Analysis, max_layouts: int | None = None) -> Cell | None:
    """A cell of an unavoidable 50/50, or None when the position has none (that this sees): in
    groups of at most ``max_layouts`` layouts (by default the setting ``max_enumerated_layouts``).

    Two neighbouring cells form one when every layout puts exactly one mine in them and no
    cell that could still be opened, other than the two, sees one of them but not the other:
    then nothing but opening one can tell them apart, so the guess will have to be made anyway,
    and making it first costs nothing and spares the work (and the risk) spent elsewhere first.
    """
    board = analysis.board
    if max_layouts is None:
        max_layouts = current().max_enumerated_layouts
    group_of = {cell: group for group in analysis.groups for cell in group.cells}

    def half(cell: Cell) -> bool:
        """Whether ``cell`` is a mine in exactly half the solutions."""
        return 2 * analysis.mined_solutions(cell) == analysis.solutions

    for a, group in sorted(group_of.items()):
        if not half(a):
            continue
        for b in board.neighbours(a):
            if b <= a or group_of.get(b) is not group or not half(b):
                continue
            if (
                _sees_only_one(board, analysis, a, b)
                and group.layout_count <= max_layouts
                and all((a in layout) != (b in layout) for layout in group.layouts())
            ):
                return a
    return None


def _sees_only_one(board: Board, analysis: Analysis, a: Cell, b: Cell) -> bool:
    """Whether every cell next to exactly one of ``a``, ``b`` is settled: a certain mine, or a
    number whose unknown neighbours other than ``a``, ``b`` are certain mines. An opened cell
    whose number is not known yet is not settled: once read, its number may tell them apart."""
    one_side = set(board.neighbours(a)) ^ set(board.neighbours(b))
    for cell in one_side - {a, b}:
        tile = board[cell]
        if tile == Tile.OPENED:
            return False
        if tile.is_closed:
            if cell not in analysis.mines:
                return False
        elif tile.is_number:
            for n in board.neighbours(cell):
                unknown = board[n].is_closed
                if unknown and n not in (a, b) and n not in analysis.mines:
                    return False
    return True
