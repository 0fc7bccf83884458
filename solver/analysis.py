"""Exact mine probabilities: count every full-board mine layout consistent with what is shown.

How the count is organised, and why it stays fast on Expert boards:

* First the cheap rules of :mod:`solver.deduce` settle what they can. Those cells hold the same
  value in every solution, so fixing them changes no count, and it spares the search the many
  dead ends that forced cells otherwise create.
* The *frontier*, the unknown cells next to a number, splits into independent *groups* of cells
  linked through numbers, each counted alone, per number of mines, over boxes of
  interchangeable cells (:mod:`solver.group_count`).
* The groups are then combined with the unknown cells that touch no number: a frontier using
  ``t`` mines leaves ``C(off_frontier_cells, mines_left - t)`` ways to place the rest.

All counts are exact Python integers and probabilities exact :class:`~fractions.Fraction`.

A group too big to count within its budget of states and work has some of its numbers left
out (:mod:`solver.group_count`), and combining the groups on a big board whose counts have
thousands of digits runs to :data:`ROUGH` precision past ``max_exact_products`` (a setting,
:class:`solver.settings.Settings`, as the groups' budgets are). Cells
reported safe or mines stay certain either way, while counts and probabilities become
approximate: :attr:`Analysis.exact` and :attr:`Group.exact` say so and
:attr:`Analysis.approximation` why.
"""

from __future__ import annotations

import decimal
import itertools
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from solver.board import Board, Cell, Tile
from solver.constraints import Constraint, Constraints, read_constraints
from solver.deduce import certain_cells
from solver.errors import BoardError
from solver.group_count import (
    Counted,
    GroupCount,
    Polynomial,
    count_groups,
    polynomial_product,
    ways,
)
from solver.settings import current

try:
    from solver import _guess_core as _core
except ImportError:  # a checkout whose extension is not built: the same rows, in Python
    _core = None  # type: ignore[assignment]

_Item = TypeVar("_Item")
"""What a box holds for :func:`_picks`: its cells, or their columns in a table."""

ROUGH = decimal.Context(prec=30, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
"""30 significant digits and an exponent range no count can leave."""


@dataclass(frozen=True)
class Group:
    """Frontier cells tied together by numbers; independent of the other groups but for the
    total mine count. Cells the cheap rules settle before counting belong to no group."""

    cells: frozenset[Cell]
    numbers: tuple[Cell, ...]
    """The numbers constraining these cells, in reading order (dropped ones included)."""
    boxes: tuple[tuple[Cell, ...], ...]
    """Cells touching exactly the same numbers, interchangeable in every count."""
    layouts_by_mines: Mapping[int, int]
    """How many mine layouts of these cells satisfy the numbers, by their number of mines;
    only counts the rest of the board can complete appear."""
    solutions_by_mines: Mapping[int, int]
    """How many full-board solutions put that many mines in these cells: the group's mine-count
    distribution, once divided by :attr:`Analysis.solutions`."""
    _count: GroupCount = field(repr=False, compare=False)
    exact: bool = True
    """False when numbers had to be dropped (see the module notes): counts are then upper bounds."""
    _dropped: tuple[Constraint, ...] = field(default=(), repr=False, compare=False)

    @property
    def identity(self) -> Hashable:
        """What its layouts depend on, as a key: equal for the same group met on a later move
        (the count of an unchanged group is remembered and shared), so that work on its
        layouts can be remembered too."""
        return self._count, frozenset(self.layouts_by_mines), self._dropped

    @property
    def layout_count(self) -> int:
        """Distinct mine layouts of these cells that some full-board solution completes."""
        return sum(self.layouts_by_mines.values())

    def layouts(self) -> Iterator[frozenset[Cell]]:
        """Every such layout, as the set of its mines. Lazy: the count can be astronomical."""
        count = self._count
        for choice in count.box_layouts(frozenset(self.layouts_by_mines)):
            for chosen in _picks(count.boxes, choice):
                layout = frozenset(cell for part in chosen for cell in part)
                if all(len(c.unknown & layout) == c.mines for c in self._dropped):
                    yield layout

    def layout_table(self) -> tuple[tuple[Cell, ...], npt.NDArray[np.bool_]]:
        """:meth:`layouts` as a table (not lazy): the cells in order, and a row per layout with
        a column per cell, True for a mine. Built with no set per layout: the look-ahead
        tables thousands of layouts a guess."""
        cells = tuple(sorted(self.cells))
        column = {cell: i for i, cell in enumerate(cells)}
        boxes = [tuple(column[cell] for cell in box) for box in self._count.boxes]
        choices = list(self._count.box_layouts(frozenset(self.layouts_by_mines)))
        rows = _layout_rows if _core is None else _core.layout_rows
        mined = rows(boxes, choices, len(cells))
        for dropped in self._dropped:
            mined = mined[
                mined[:, [column[cell] for cell in dropped.unknown]].sum(1) == dropped.mines
            ]
        return cells, mined


def _picks(
    boxes: Sequence[tuple[_Item, ...]], choice: tuple[int, ...]
) -> Iterator[tuple[tuple[_Item, ...], ...]]:
    """The ways to pick ``choice``'s mines in ``boxes`` (each box's cells, or their columns in a
    table), as a tuple of picks, one per box."""
    picks = zip(boxes, choice, strict=True)
    return itertools.product(*(itertools.combinations(b, m) for b, m in picks))


def _layout_rows(
    boxes: list[tuple[int, ...]], choices: list[tuple[int, ...]], width: int
) -> npt.NDArray[np.bool_]:
    """The rows of :meth:`Group.layout_table` before the dropped numbers are checked: for each
    choice of mines per box, every way to pick them (``boxes``: each box's columns), a row per
    layout, in :func:`_picks`' order (solver/_guess_core.pyx compiles it)."""
    columns: list[int] = []
    layouts_of_choice: list[int] = []
    for choice in choices:
        before = len(columns)
        columns += itertools.chain.from_iterable(
            itertools.chain.from_iterable(_picks(boxes, choice))
        )
        mines = sum(choice)
        layouts_of_choice.append((len(columns) - before) // mines if mines else 1)
    count = sum(layouts_of_choice)
    mines_of_row = np.repeat(np.array([sum(c) for c in choices], dtype=np.intp), layouts_of_choice)
    mined = np.zeros((count, width), dtype=bool)
    mined[np.repeat(np.arange(count), mines_of_row), columns] = True
    return mined


@dataclass(frozen=True)
class Analysis:
    """Everything exact that can be said about where the mines are."""

    board: Board
    """A copy of the board analysed (a live game's board changes after the analysis)."""
    solutions: int
    """Full-board mine layouts consistent with the board (flags taken as mines)."""
    safe: frozenset[Cell]
    """Unknown cells that are a mine in no solution."""
    mines: frozenset[Cell]
    """Unknown cells that are a mine in every solution."""
    groups: tuple[Group, ...]
    off_frontier: frozenset[Cell]
    """Unknown cells touching no number; they all share one probability."""
    mines_left: int
    """Mines not covered by flags (certain mines not flagged are still counted here)."""
    mines_to_place: int
    """Mines the groups and the undecided off-frontier cells share: :attr:`mines_left` less the
    certain mines the simple rules settle before counting (those are in no group). This is the
    total that the groups' ``layouts_by_mines`` are combined against."""
    frontier_layout_count: int
    """Distinct mine layouts of the whole frontier that some solution completes."""
    off_frontier_counted: int
    """Off-frontier cells the count spreads mines over (those the simple rules left open).
    When the count proves them all mines, they are in :attr:`mines` yet still in
    :attr:`mines_to_place`."""
    exact: bool = True
    """False if some group was too big to count exactly (see the module notes)."""
    approximation: str = ""
    """Why the analysis is not exact, for people; empty when it is."""
    _mined_solutions: Mapping[Cell, int] = field(default_factory=dict, repr=False, compare=False)
    _off_frontier_mined_solutions: int = field(default=0, repr=False, compare=False)
    _decided_frontier_mines: frozenset[Cell] = field(default=frozenset(), repr=False, compare=False)
    """Frontier mines the simple rules settle before counting; they are in no group."""
    _possible_group_totals: frozenset[int] = field(default=frozenset(), repr=False, compare=False)
    """Mines the groups together may hold, leaving a number the off-frontier cells can take."""

    def mined_solutions(self, cell: Cell) -> int:
        """In how many of the :attr:`solutions` ``cell`` is a mine (flags: all of them)."""
        tile = self.board[cell]
        if tile == Tile.FLAG:
            return self.solutions
        if tile.is_opened:
            return 0
        if cell in self.off_frontier:
            return self._off_frontier_mined_solutions
        return self._mined_solutions[cell]

    def probability(self, cell: Cell) -> Fraction:
        """The exact chance that ``cell`` holds a mine: 1 for a flag, 0 for an opened cell."""
        return Fraction(self.mined_solutions(cell), self.solutions)

    def probabilities(self) -> npt.NDArray[np.float64]:
        """Mine chance of every cell as floats, NaN on opened cells."""
        grid = np.full((self.board.rows, self.board.columns), np.nan)
        grid[self.board.tiles == Tile.FLAG] = 1.0
        if self.off_frontier:
            rows, columns = zip(*self.off_frontier, strict=True)
            grid[rows, columns] = self._off_frontier_mined_solutions / self.solutions
        for cell, mined in self._mined_solutions.items():
            grid[cell] = mined / self.solutions
        return grid

    def frontier_layouts(self, limit: int) -> list[frozenset[Cell]] | None:
        """The distinct mine sets on the frontier, or None when there are more than ``limit``.

        When the analysis is not :attr:`exact`, the count compared with ``limit`` is an upper
        bound, while the layouts listed are exactly the valid ones.
        """
        if self.frontier_layout_count > limit:
            return None
        per_group: list[dict[int, list[frozenset[Cell]]]] = []
        for group in self.groups:
            by_mines: dict[int, list[frozenset[Cell]]] = {}
            for layout in group.layouts():
                by_mines.setdefault(len(layout), []).append(layout)
            per_group.append(by_mines)
        result: list[frozenset[Cell]] = []
        for totals in itertools.product(*(sorted(by_mines) for by_mines in per_group)):
            if sum(totals) in self._possible_group_totals:
                parts = [by_mines[t] for by_mines, t in zip(per_group, totals, strict=True)]
                result.extend(
                    self._decided_frontier_mines.union(*chosen)
                    for chosen in itertools.product(*parts)
                )
        return result


def _approximation(inexact_groups: int, groups: int, rough_products: int) -> str:
    """Why an analysis is approximate (``rough_products``: 0, or the multiplications that made
    the combination run to :data:`ROUGH` precision), or "" when it is exact."""
    settings = current()
    reasons = []
    if inexact_groups:
        reasons.append(
            f"{inexact_groups} of the {groups} frontier groups were too big to count exactly "
            f"(at most {settings.max_states:,} states and {settings.max_group_work:,} "
            f"steps a group, {settings.max_total_work:,} an analysis), so some of their "
            "numbers were left out: counts are upper bounds"
        )
    if rough_products:
        reasons.append(
            f"combining the groups takes {rough_products:,} multiplications, more than the "
            f"{settings.max_exact_products:,} done exactly, so probabilities have {ROUGH.prec} "
            "significant digits"
        )
    if not reasons:
        return ""
    return "; ".join(reasons) + "; certain cells are still certain"


def analyze(board: Board) -> Analysis:
    """Count all mine layouts consistent with ``board`` and derive exact mine probabilities.

    Raises :class:`BoardError` for a finished game or a board no layout satisfies, naming the
    first offending number in reading order where there is one.
    """
    # The analysis describes this moment, even of a live game's board.
    position = read_constraints(board.copy())
    try:
        certain = certain_cells(position)
    except BoardError:
        # The board is impossible; the full count below finds that too and names the group.
        certain = frozenset(), frozenset()
    return analyze_position(position, certain)


def analyze_position(
    position: Constraints, certain: tuple[frozenset[Cell], frozenset[Cell]]
) -> Analysis:
    """:func:`analyze` for a board already read, with the cells the cheap rules settle
    (:func:`solver.deduce.certain_cells`): the move chooser has both in hand when it needs the
    full count, and reading them again was a tenth of a move's time.

    ``position.board`` must not change afterwards (the analysis keeps it): read a copy of a
    live game's board.
    """
    board = position.board
    known_safe, known_mines = certain
    touching_numbers = frozenset().union(*(c.unknown for c in position.constraints))
    off_frontier = position.unknown_besides(touching_numbers)
    mines_left = position.mines_left - len(known_mines)
    off = len(off_frontier - known_safe - known_mines)

    constraints = _still_open(position.constraints, known_safe | known_mines, known_mines)
    counted = count_groups(constraints, mines_left, position.mines_left)
    before = _products_before(counted, mines_left)
    frontier_by_mines = before[-1]
    # Ways the off-frontier cells take the rest, by frontier mines: each binomial once, since on a
    # big board they have thousands of digits and the groups below ask for the same ones.
    rest = {t: ways(off, mines_left - t) for t in frontier_by_mines}
    solutions = _solutions(counted, frontier_by_mines, rest, mines_left, off)
    products = _combining_products(counted, before)
    rough = products > current().max_exact_products
    groups, mined_solutions, group_mines = _sweep_back(counted, before, rest, rough)
    inexact = [group for group in groups if not group.exact]
    mined_solutions.update(dict.fromkeys(touching_numbers & known_safe, 0))
    mined_solutions.update(dict.fromkeys(touching_numbers & known_mines, solutions))
    off_mined = _off_frontier_mined(
        off_frontier, certain, frontier_by_mines, mines_left, off, solutions
    )
    possible = frozenset(t for t in frontier_by_mines if 0 <= mines_left - t <= off)
    safe = {cell for cell, mined in mined_solutions.items() if mined == 0}
    mines = group_mines | (touching_numbers & known_mines)
    if off_frontier and off_mined == 0:
        safe |= off_frontier
    elif off_frontier and off_mined == solutions:
        mines |= off_frontier
    return Analysis(
        board=board,
        solutions=solutions,
        safe=frozenset(safe),
        mines=frozenset(mines),
        groups=tuple(groups),
        off_frontier=off_frontier,
        mines_left=position.mines_left,
        mines_to_place=mines_left,
        frontier_layout_count=sum(n for t, n in frontier_by_mines.items() if t in possible),
        off_frontier_counted=off,
        exact=not inexact and not rough,
        approximation=_approximation(len(inexact), len(groups), products if rough else 0),
        _mined_solutions=mined_solutions,
        _off_frontier_mined_solutions=off_mined,
        _decided_frontier_mines=touching_numbers & known_mines,
        _possible_group_totals=possible,
    )


def _products_before(counted: Counted, mines_left: int) -> list[Polynomial]:
    """Products of the polynomials of the groups before each group, and last of all of them:
    the frontier's layouts by their mines."""
    before: list[Polynomial] = [{0: 1}]
    for _, count, _ in counted:
        before.append(polynomial_product(before[-1], count.layouts_by_mines, mines_left))
    return before


def _combining_products(counted: Counted, before: list[Polynomial]) -> int:
    """The multiplications that combining the groups takes (against
    ``max_exact_products``)."""
    return sum(
        2 * len(count.layouts_by_mines) * len(before[index])
        for index, (_, count, _) in enumerate(counted)
    )


def _off_frontier_mined(
    off_frontier: frozenset[Cell],
    certain: tuple[frozenset[Cell], frozenset[Cell]],
    frontier_by_mines: Polynomial,
    mines_left: int,
    off: int,
    solutions: int,
) -> int:
    """In how many of the ``solutions`` one given cell touching no number is a mine (they all
    share the count): the ``off`` cells the cheap rules left open take the ``mines_left`` the
    frontier leaves."""
    known_safe, known_mines = certain
    if off_frontier <= known_mines:
        return solutions
    if off_frontier & known_safe:
        return 0
    # the layouts with a mine in one given off-frontier cell
    return sum(n * ways(off - 1, mines_left - t - 1) for t, n in frontier_by_mines.items())


def _solutions(
    counted: Counted,
    frontier_by_mines: Polynomial,
    rest: dict[int, int],
    mines_left: int,
    off: int,
) -> int:
    """Every full-board layout: the frontier's by its mine count, times the ways the cells
    touching no number take the rest; none is a BoardError saying how many mines the numbers
    need."""
    solutions = sum(n * rest.get(t, 0) for t, n in frontier_by_mines.items())
    if solutions == 0:
        low = sum(min(count.layouts_by_mines) for _, count, _ in counted)
        high = sum(max(count.layouts_by_mines) for _, count, _ in counted)
        raise BoardError(
            f"the numbers need {low} to {high} more mines, but {mines_left} must go there "
            f"and into the {off} unknown cells touching no number"
        )
    return solutions


def _still_open(
    constraints: Iterable[Constraint], known: frozenset[Cell], known_mines: frozenset[Cell]
) -> list[Constraint]:
    """The numbers with cells still undecided, reduced to those cells (the cheap rules' certain
    safe cells and mines taken out)."""
    return [
        Constraint(
            constraint.cell,
            constraint.unknown - known,
            constraint.mines - len(constraint.unknown & known_mines),
        )
        for constraint in constraints
        if constraint.unknown - known
    ]


def _sweep_back(
    counted: Counted, before: list[Polynomial], rest: dict[int, int], rough: bool
) -> tuple[list[Group], dict[Cell, int], set[Cell]]:
    """The groups with their exact counts, each box's mined-solution count, and the cells that
    are a mine in every layout, from one sweep back over the groups.

    ``completing[s]`` is the number of ways the groups after this one and the off-frontier
    cells finish a board whose earlier groups hold ``s`` mines. (Multiplying all other groups
    together for every group grew with the square of the number of groups: half a minute on a
    100x100 board.) With ``rough`` the sums are kept to :data:`ROUGH`'s precision.
    """
    number = ROUGH.create_decimal if rough else int
    groups: list[Group] = []
    mined_solutions: dict[Cell, int] = {}
    group_mines: set[Cell] = set()
    completing: dict[int, int | decimal.Decimal] = {t: number(n) for t, n in rest.items()}
    with decimal.localcontext(ROUGH):
        for index in range(len(counted) - 1, -1, -1):
            numbers, count, dropped = counted[index]
            earlier = {s: number(n) for s, n in before[index].items()}
            completions = {
                t: sum(n * completing.get(s + t, 0) for s, n in earlier.items())
                for t in count.layouts_by_mines
            }
            completing = {
                s: sum(n * completing.get(s + t, 0) for t, n in count.layouts_by_mines.items())
                for s in earlier
            }
            completable = {t: n for t, n in count.layouts_by_mines.items() if completions[t]}
            for box, by_mines in zip(count.boxes, count.box_mines, strict=True):
                mined = int(sum(n * completions.get(t, 0) for t, n in by_mines.items()))
                mined_solutions.update(dict.fromkeys(box, mined))
                # A mine in every layout of every completable size: exact even when rough.
                if all(by_mines.get(t, 0) == n for t, n in completable.items()):
                    group_mines.update(box)
            groups.append(
                Group(
                    cells=frozenset(cell for box in count.boxes for cell in box),
                    numbers=tuple(c.cell for c in numbers),
                    boxes=tuple(count.boxes),
                    layouts_by_mines=completable,
                    solutions_by_mines={t: int(n * completions[t]) for t, n in completable.items()},
                    exact=not dropped,
                    _count=count,
                    _dropped=dropped,
                )
            )
    groups.reverse()
    return groups, mined_solutions, group_mines
