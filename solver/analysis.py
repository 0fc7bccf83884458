"""Exact mine probabilities: count every full-board mine layout consistent with what is shown.

How the count is organised, and why it stays fast on Expert boards:

* First the cheap rules of :mod:`solver.deduce` settle what they can. Those cells hold the same
  value in every solution, so fixing them changes no count, and it spares the search the many
  dead ends that forced cells otherwise create.
* The *frontier* is the unknown cells next to a number. Numbers that share no frontier cell,
  directly or through a chain, do not influence each other except through the total mine count,
  so the frontier splits into independent *groups*, each counted alone.
* Cells that touch exactly the same numbers are interchangeable: they are merged into a *box*,
  and putting ``m`` mines in a box of ``k`` cells counts ``C(k, m)`` ways. The search runs over
  boxes, not cells.
* Inside a group the boxes are put in an order that keeps few numbers "open" (some boxes chosen,
  some not) at a time, and the count is a dynamic programme along that order: the state after a
  box is how many mines each open number still needs. A forward pass counts the ways to reach
  every state, a backward pass the ways to finish from it; their product gives, for every box,
  the number of layouts in which it holds each mine. Every quantity is kept per number of mines
  in the group, as an exact ``{mines: count}`` polynomial, because the groups are tied together
  by the mine counter.
* The groups are then combined with the unknown cells that touch no number: a frontier using
  ``t`` mines leaves ``C(off_frontier_cells, mines_left - t)`` ways to place the rest.

All counts are exact Python integers and probabilities exact :class:`~fractions.Fraction`.

If a group's programme visits more than :data:`MAX_STATES` states (not seen in real play, nor
in random or contrived Expert positions tried so far), numbers are dropped from that group, the
one open across the most boxes first, until a bound on the states fits; so a decision costs at
most about two such passes and never hangs. A group's work is bounded as well
(:data:`MAX_GROUP_WORK`: on a big board long mine-count polynomials make each state costly),
and the groups of one analysis share a budget, :data:`MAX_TOTAL_WORK`, so that a board with
hundreds of big groups (a 100x100 custom board) is bounded too: once it is spent, each group
gets :data:`MIN_GROUP_WORK`. Every layout of the full problem is still counted, plus some that
break a dropped number, so cells reported safe or mines stay certain, while counts and
probabilities become approximate: :attr:`Analysis.exact` and :attr:`Group.exact` say so and
:attr:`Analysis.approximation` why.
"""

from __future__ import annotations

import decimal
import itertools
from collections.abc import Hashable, Iterable, Iterator, Mapping, Set
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from solver.board import Board, Cell, Tile
from solver.constraints import Constraint, Constraints, read_constraints
from solver.deduce import certain_cells
from solver.errors import BoardError

MAX_STATES = 60_000
"""Most states the forward pass over one group may visit (well under a second) before numbers
are dropped."""

MAX_GROUP_WORK = 6_000_000
"""Most work the count of one group may take, in steps of its inner loops (about the products of
its states' mine-count polynomials): a group of hundreds of cells on a big board has long
polynomials, so its states alone do not bound its time (about a second at this limit)."""

MAX_TOTAL_WORK = 12_000_000
"""Most work the groups of one analysis may take together (a 100x100 board can hold hundreds of
big groups). Once it is spent, each further group gets :data:`MIN_GROUP_WORK`."""

MIN_GROUP_WORK = 20_000
"""Work every group may still take once :data:`MAX_TOTAL_WORK` is spent (enough for the small
groups that make up most of a board)."""

MAX_EXACT_PRODUCTS = 300_000
"""Most multiplications the combination of the groups may take in whole numbers. Beyond, on big
boards whose counts have thousands of digits (seconds per hundred thousand), it runs to
:data:`ROUGH` precision: the solution count and the certain cells stay exact, the probabilities
become approximate."""

ROUGH = decimal.Context(prec=30, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
"""30 significant digits and an exponent range no count can leave."""

Polynomial = dict[int, int]
"""Counts by number of mines: ``{mines: count}``."""


@lru_cache(maxsize=1 << 12)
def ways(n: int, k: int) -> int:
    """C(n, k), and 0 when k is out of range (no way to place the mines). Remembered: the
    look-ahead asks for the same few hundred-digit counts again and again."""
    return comb(n, k) if 0 <= k <= n else 0


def _add_product(
    target: Polynomial, a: Mapping[int, int], b: Mapping[int, int], limit: int
) -> None:
    """target += a * b, dropping terms with more than ``limit`` mines."""
    for i, x in a.items():
        for j, y in b.items():
            if i + j <= limit:
                target[i + j] = target.get(i + j, 0) + x * y


def polynomial_product(a: Mapping[int, int], b: Mapping[int, int], limit: int) -> Polynomial:
    """a * b, dropping terms with more than ``limit`` mines (combines independent groups)."""
    result: Polynomial = {}
    _add_product(result, a, b, limit)
    return result


class _TooManyStates(Exception):
    """The programme of a group outgrew the states or work it was given."""

    def __init__(self, work: int) -> None:
        super().__init__(work)
        self.work = work


_BITS_PER_NEED = 4
"""A state packs each open number's remaining need (at most 8) into its own 4-bit slot."""
_NEED_MASK = (1 << _BITS_PER_NEED) - 1


@dataclass(frozen=True)
class _Step:
    """How one box changes the state (an int of 4-bit slots, one per open number).

    Placing ``m`` mines in the box turns ``state`` into ``state + opening - m * touched``: the
    numbers that open here get their slots filled, and every touched number loses ``m``.
    """

    size: int
    low: int
    high: int
    """Bounds on the mines in this box from the numbers that open here."""
    reads: tuple[tuple[int, int], ...]
    """Per already open number of this box: (slot shift, capacity of its boxes still to come).
    After ``m`` mines its need must be within 0..capacity."""
    opening: int
    touched: int

    def choices(self, state: int) -> range:
        """The mine counts for this box that keep every number satisfiable."""
        low, high = self.low, self.high
        for shift, capacity in self.reads:
            need = (state >> shift) & _NEED_MASK
            low = max(low, need - capacity)
            high = min(high, need)
        return range(low, high + 1)


def _greedy_order(
    box_numbers: list[tuple[int, ...]], boxes_of: list[list[int]], start: int
) -> list[int]:
    """An order of the boxes from ``start`` that keeps few numbers open at a time.

    Each step takes, among the boxes next to an open number, the one that opens the fewest new
    numbers net of those it closes; this walks along the frontier instead of across it.
    """
    unplaced = [len(boxes) for boxes in boxes_of]
    open_numbers: set[int] = set()
    remaining = set(range(len(box_numbers)))
    candidates = {start}
    order: list[int] = []

    def cost(box: int) -> tuple[int, int, int]:
        opened = sum(1 for n in box_numbers[box] if n not in open_numbers)
        closed = sum(1 for n in box_numbers[box] if unplaced[n] == 1)
        return opened - closed, opened, box

    while remaining:
        box = min(candidates or remaining, key=cost)
        order.append(box)
        remaining.discard(box)
        candidates.discard(box)
        for number in box_numbers[box]:
            unplaced[number] -= 1
            if unplaced[number]:
                open_numbers.add(number)
                candidates.update(b for b in boxes_of[number] if b in remaining)
            else:
                open_numbers.discard(number)
    return order


def _estimated_states(
    order: list[int], box_numbers: list[tuple[int, ...]], sizes: list[int], needs: list[int]
) -> int:
    """A bound on the states the programme visits along ``order``, to compare orders cheaply.

    After each box, an open number that has seen ``a`` of its cells and has ``c`` to come can
    still need only ``min(need, a) - max(0, need - c) + 1`` different counts; the bound
    multiplies these over the open numbers and adds over the boxes.
    """
    seen = [0] * len(needs)
    to_come = [0] * len(needs)
    for box, numbers in enumerate(box_numbers):
        for number in numbers:
            to_come[number] += sizes[box]
    open_numbers: set[int] = set()
    total = 0
    for box in order:
        for number in box_numbers[box]:
            seen[number] += sizes[box]
            to_come[number] -= sizes[box]
            if to_come[number]:
                open_numbers.add(number)
            else:
                open_numbers.discard(number)
        states = 1
        for number in open_numbers:
            need = needs[number]
            states *= min(need, seen[number]) - max(0, need - to_come[number]) + 1
        total += states
    return total


_TRY_MORE_STARTS_ABOVE = 2_000
"""Estimated states above which other starting boxes are tried (an order's cost varies a lot
with where it starts on big groups; on small ones the first order is already cheap)."""
_OTHER_STARTS = 12


def _order_boxes(
    box_numbers: list[tuple[int, ...]],
    sizes: list[int],
    needs: list[int],
    hopeless_above: float = float("inf"),
) -> tuple[list[int], int]:
    """The cheapest, by :func:`_estimated_states`, of a few greedy orders from different starts,
    with its estimate.

    The first starts at a box touching the fewest numbers (often an end of the frontier); for a
    big group, further starts are spread along that first order, unless the first estimate is
    over ``hopeless_above`` (numbers will be dropped anyway: each order costs the square of the
    boxes, seconds on groups of hundreds of boxes).
    """
    boxes_of: list[list[int]] = [[] for _ in needs]
    for box, numbers in enumerate(box_numbers):
        for number in numbers:
            boxes_of[number].append(box)
    first_start = min(range(len(box_numbers)), key=lambda box: (len(box_numbers[box]), box))
    best = _greedy_order(box_numbers, boxes_of, first_start)
    best_cost = _estimated_states(best, box_numbers, sizes, needs)
    if _TRY_MORE_STARTS_ABOVE < best_cost <= hopeless_above:
        stride = max(1, len(best) // _OTHER_STARTS)
        for start in {best[-1], *best[stride::stride]}:
            order = _greedy_order(box_numbers, boxes_of, start)
            cost = _estimated_states(order, box_numbers, sizes, needs)
            if cost < best_cost:
                best, best_cost = order, cost
    return best, best_cost


class _GroupCount:
    """The forward-backward count of one group's layouts over its boxes."""

    def __init__(
        self,
        boxes: list[tuple[Cell, ...]],
        box_numbers: list[tuple[int, ...]],
        needs: list[int],
        mine_limit: int,
        order: list[int],
        max_work: int,
    ) -> None:
        self.mine_limit = mine_limit
        self.max_work = max_work
        self.work = 0
        """Work of the count, in the units of :data:`MAX_GROUP_WORK`."""
        self.boxes = [boxes[b] for b in order]
        numbers_in_order = [box_numbers[b] for b in order]
        position: dict[int, list[int]] = {number: [] for number in range(len(needs))}
        for step, numbers in enumerate(numbers_in_order):
            for number in numbers:
                position[number].append(step)
        last = {number: steps[-1] for number, steps in position.items()}
        self.steps: list[_Step] = []
        slot_of: dict[int, int] = {}
        for step, numbers in enumerate(numbers_in_order):
            size = len(self.boxes[step])
            low, high, opening, touched = 0, size, 0, 0
            reads = []
            for number in numbers:
                capacity = sum(len(self.boxes[s]) for s in position[number] if s > step)
                if number not in slot_of:
                    low = max(low, needs[number] - capacity)
                    high = min(high, needs[number])
                    if not capacity:
                        continue
                    free = set(range(len(slot_of) + 1)) - set(slot_of.values())
                    slot_of[number] = min(free)
                    opening += needs[number] << (_BITS_PER_NEED * slot_of[number])
                else:
                    reads.append((_BITS_PER_NEED * slot_of[number], capacity))
                touched += 1 << (_BITS_PER_NEED * slot_of[number])
                if last[number] == step:
                    del slot_of[number]
            self.steps.append(_Step(size, low, high, tuple(reads), opening, touched))
        self.forward = self._forward()
        self.backward, self.box_mines = self._backward()
        self.layouts_by_mines: Polynomial = self.forward[-1].get(0, {})

    def _forward(self) -> list[dict[int, Polynomial]]:
        tables: list[dict[int, Polynomial]] = [{0: {0: 1}}]
        visited = 0
        for step in self.steps:
            table: dict[int, Polynomial] = {}
            for state, counts in tables[-1].items():
                base = state + step.opening
                choices = step.choices(state)
                # This loop, and the backward pass's product of two polynomials per state.
                self.work += len(counts) * (len(choices) + len(counts))
                for mines in choices:
                    ways = comb(step.size, mines)
                    target = table.setdefault(base - mines * step.touched, {})
                    for total, count in counts.items():
                        if total + mines <= self.mine_limit:
                            target[total + mines] = target.get(total + mines, 0) + count * ways
            visited += len(table)
            if visited > MAX_STATES or self.work > self.max_work:
                raise _TooManyStates(self.work)
            tables.append(table)
        return tables

    def _backward(self) -> tuple[list[dict[int, Polynomial]], list[Polynomial]]:
        """Ways to finish from every reachable state, and each box's per-cell mine counts."""
        tables: list[dict[int, Polynomial]] = [{} for _ in self.forward]
        tables[-1] = {0: {0: 1}}
        box_mines: list[Polynomial] = [{} for _ in self.steps]
        for index in range(len(self.steps) - 1, -1, -1):
            step = self.steps[index]
            after = tables[index + 1]
            for state, counts in self.forward[index].items():
                finish: Polynomial = {}
                mined: Polynomial = {}
                base = state + step.opening
                for mines in step.choices(state):
                    rest = after.get(base - mines * step.touched)
                    if not rest:
                        continue
                    ways = comb(step.size, mines)
                    ways_with_one_cell_mined = comb(step.size - 1, mines - 1) if mines else 0
                    for total, count in rest.items():
                        finish[total + mines] = finish.get(total + mines, 0) + count * ways
                        if mines:
                            mined[total + mines] = (
                                mined.get(total + mines, 0) + count * ways_with_one_cell_mined
                            )
                if finish:
                    tables[index][state] = finish
                    _add_product(box_mines[index], counts, mined, self.mine_limit)
        return tables, box_mines

    def box_layouts(self, allowed_totals: frozenset[int]) -> Iterator[tuple[int, ...]]:
        """Every choice of mines per box (in search order) with a total in ``allowed_totals``.

        A depth-first walk that only enters states the backward pass can finish from, so no
        branch is a dead end; kept iterative because groups can have thousands of boxes.
        """
        pending: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
        while pending:
            state, total, chosen = pending.pop()
            index = len(chosen)
            if index == len(self.steps):
                if total in allowed_totals:
                    yield chosen
                continue
            step = self.steps[index]
            for mines in reversed(step.choices(state)):
                following = state + step.opening - mines * step.touched
                rest = self.backward[index + 1].get(following)
                if rest and any(total + mines + more in allowed_totals for more in rest):
                    pending.append((following, total + mines, (*chosen, mines)))


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
    _count: _GroupCount = field(repr=False, compare=False)
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
            picks = zip(count.boxes, choice, strict=True)
            for chosen in itertools.product(*(itertools.combinations(b, m) for b, m in picks)):
                layout = frozenset(cell for part in chosen for cell in part)
                if all(len(c.unknown & layout) == c.mines for c in self._dropped):
                    yield layout


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


def _split_into_groups(constraints: tuple[Constraint, ...]) -> list[list[Constraint]]:
    """Numbers linked by shared unknown cells, each list in reading order."""
    parent = list(range(len(constraints)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_number_of: dict[Cell, int] = {}
    for index, constraint in enumerate(constraints):
        for cell in constraint.unknown:
            other = first_number_of.setdefault(cell, index)
            parent[root(index)] = root(other)
    members: dict[int, list[Constraint]] = {}
    for index, constraint in enumerate(constraints):
        members.setdefault(root(index), []).append(constraint)
    return list(members.values())


def _longest_open(order: list[int], box_numbers: list[tuple[int, ...]], count: int) -> list[int]:
    """The ``count`` numbers that stay open across the most boxes of ``order``, longest first:
    dropping them narrows the programme most."""
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for step, box in enumerate(order):
        for number in box_numbers[box]:
            first.setdefault(number, step)
            last[number] = step
    return sorted(first, key=lambda number: (first[number] - last[number], number))[:count]


def _boxes(
    cells: Set[Cell], numbers: list[Constraint]
) -> tuple[list[tuple[Cell, ...]], list[tuple[int, ...]]]:
    """``cells`` merged by the ``numbers`` (indices) they touch: the boxes and their numbers.
    Cells touching none of them form one box free of numbers."""
    numbers_of: dict[Cell, list[int]] = {cell: [] for cell in cells}
    for index, constraint in enumerate(numbers):
        for cell in constraint.unknown:
            numbers_of[cell].append(index)
    boxes_by_numbers: dict[tuple[int, ...], list[Cell]] = {}
    for cell in sorted(numbers_of):
        boxes_by_numbers.setdefault(tuple(numbers_of[cell]), []).append(cell)
    return [tuple(box) for box in boxes_by_numbers.values()], list(boxes_by_numbers)


def _count_group(
    numbers: list[Constraint], mine_limit: int, max_work: int
) -> tuple[_GroupCount, tuple[Constraint, ...]]:
    """Count one group; when it needs more than :data:`MAX_STATES` or ``max_work``, drop numbers
    (see the module notes).

    The count is a pure function of its arguments and settings, and most groups come back
    unchanged on the next move (a move changes the frontier in one place), so counts are
    memoised. A group with fewer cells than ``mine_limit`` is never cut short by it, so the
    limit is taken no higher than that: finding a mine elsewhere then keeps the memo's answer.
    """
    cells = frozenset(cell for constraint in numbers for cell in constraint.unknown)
    settings = (MAX_STATES, MIN_GROUP_WORK, _TRY_MORE_STARTS_ABOVE, _OTHER_STARTS)
    return _count_group_memo(tuple(numbers), cells, min(mine_limit, len(cells)), max_work, settings)


@lru_cache(maxsize=64)
def _count_group_memo(
    numbers: tuple[Constraint, ...],
    cells: frozenset[Cell],
    mine_limit: int,
    max_work: int,
    settings: tuple[int, ...],
) -> tuple[_GroupCount, tuple[Constraint, ...]]:
    """:func:`_count_group`, memoised (``settings`` only keys the memo: a benchmark or test
    that changes them gets fresh counts). 64 counts: an Expert board has a dozen groups or so,
    and 64 keep nine tenths of the reuse that 256 do, in a quarter of the memory.

    After a first count overflows, numbers are dropped until :func:`_estimated_states` (an upper
    bound on the states visited) fits under :data:`MAX_STATES`, so the second count visits no
    more; if its work still overflows, the bound aimed at is half the last one each time.
    """
    dropped: list[Constraint] = []
    kept = list(numbers)
    states_aimed_at = MAX_STATES
    spent = 0
    while True:
        boxes, box_numbers = _boxes(cells, kept)
        needs = [c.mines for c in kept]
        far_over = 4 * states_aimed_at if dropped else float("inf")
        # Every state visited costs at least a step of work.
        hopeless = min(far_over, max_work - spent)
        order, bound = _order_boxes(box_numbers, [len(box) for box in boxes], needs, hopeless)
        if dropped and bound > states_aimed_at:
            # Far over, drop a sixteenth of the numbers at once: ordering the boxes again after
            # each single number took seconds on groups of hundreds of numbers.
            how_many = 1 if bound <= far_over else max(1, len(kept) // 16)
            drop = set(_longest_open(order, box_numbers, how_many))
            dropped += [kept[number] for number in sorted(drop)]
            kept = [number for index, number in enumerate(kept) if index not in drop]
            continue
        try:
            count = _GroupCount(boxes, box_numbers, needs, mine_limit, order, max_work - spent)
            count.work += spent
            return count, tuple(dropped)
        except _TooManyStates as overflow:
            spent = min(spent + overflow.work, max_work - MIN_GROUP_WORK)
            if dropped:
                states_aimed_at = max(1, min(states_aimed_at, bound) // 2)
            dropped.append(kept.pop(_longest_open(order, box_numbers, 1)[0]))


def _approximation(inexact_groups: int, groups: int, rough_products: int) -> str:
    """Why an analysis is approximate (``rough_products``: 0, or the multiplications that made
    the combination run to :data:`ROUGH` precision), or "" when it is exact."""
    reasons = []
    if inexact_groups:
        reasons.append(
            f"{inexact_groups} of the {groups} frontier groups were too big to count exactly "
            f"(at most {MAX_STATES:,} states and {MAX_GROUP_WORK:,} steps a group, "
            f"{MAX_TOTAL_WORK:,} an analysis), so some of their numbers were left out: counts "
            "are upper bounds"
        )
    if rough_products:
        reasons.append(
            f"combining the groups takes {rough_products:,} multiplications, more than the "
            f"{MAX_EXACT_PRODUCTS:,} done exactly, so probabilities have {ROUGH.prec} "
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
    off_frontier = position.unknown - touching_numbers
    mines_left = position.mines_left - len(known_mines)
    off = len(off_frontier - known_safe - known_mines)

    constraints = _still_open(position.constraints, known_safe | known_mines, known_mines)
    counted = _count_groups(constraints, mines_left, position.mines_left)
    # Products of the polynomials of the groups before each group.
    before: list[Polynomial] = [{0: 1}]
    for _, count, _ in counted:
        before.append(polynomial_product(before[-1], count.layouts_by_mines, mines_left))
    frontier_by_mines = before[-1]
    # Ways the off-frontier cells take the rest, by frontier mines: each binomial once, since on a
    # big board they have thousands of digits and the groups below ask for the same ones.
    rest = {t: ways(off, mines_left - t) for t in frontier_by_mines}
    solutions = _solutions(counted, frontier_by_mines, rest, mines_left, off)
    products = sum(
        2 * len(count.layouts_by_mines) * len(before[index])
        for index, (_, count, _) in enumerate(counted)
    )
    rough = products > MAX_EXACT_PRODUCTS
    groups, mined_solutions, group_mines = _sweep_back(counted, before, rest, rough)
    inexact = [group for group in groups if not group.exact]
    mined_solutions.update(dict.fromkeys(touching_numbers & known_safe, 0))
    mined_solutions.update(dict.fromkeys(touching_numbers & known_mines, solutions))
    if off_frontier <= known_mines:
        off_mined = solutions
    elif off_frontier & known_safe:
        off_mined = 0
    else:  # the layouts with a mine in one given off-frontier cell
        off_mined = sum(n * ways(off - 1, mines_left - t - 1) for t, n in frontier_by_mines.items())
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


_Counted = list[tuple[list[Constraint], _GroupCount, tuple[Constraint, ...]]]
"""Each group's numbers, its count, and the numbers left out to keep within its work budget."""


def _solutions(
    counted: _Counted,
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


def _count_groups(constraints: list[Constraint], mines_left: int, unflagged: int) -> _Counted:
    """Count every group of linked numbers within the analysis's work budget; a group no layout
    satisfies is a BoardError naming its first number."""
    counted: _Counted = []
    work_left = MAX_TOTAL_WORK
    for numbers in _split_into_groups(tuple(constraints)):
        max_work = min(MAX_GROUP_WORK, max(work_left, MIN_GROUP_WORK))
        count, dropped = _count_group(numbers, mines_left, max_work)
        work_left -= count.work
        if not count.layouts_by_mines:
            raise BoardError(
                f"no placement of the {unflagged} unflagged mines satisfies this number "
                "and the numbers linked to it",
                cell=numbers[0].cell,
            )
        counted.append((numbers, count, dropped))
    return counted


def _sweep_back(
    counted: _Counted, before: list[Polynomial], rest: dict[int, int], rough: bool
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
