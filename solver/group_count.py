"""Counting the layouts of the frontier's groups, each group alone: the exact core of
:mod:`solver.analysis`.

* The *frontier* is the unknown cells next to a number. Numbers that share no frontier cell,
  directly or through a chain, do not influence each other except through the total mine count,
  so the frontier splits into independent *groups*, each counted alone.
* Cells that touch exactly the same numbers are interchangeable: they are merged into a *box*,
  and putting ``m`` mines in a box of ``k`` cells counts ``C(k, m)`` ways. The search runs over
  boxes, not cells.
* Inside a group the boxes are put in an order that keeps few numbers "open" (some boxes chosen,
  some not) at a time (:mod:`solver.box_order`), and the count is a dynamic programme along that
  order: the state after a box is how many mines each open number still needs. A forward pass
  counts the ways to reach every state, a backward pass the ways to finish from it; their
  product gives, for every box, the number of layouts in which it holds each mine. Every
  quantity is kept per number of mines in the group, as an exact ``{mines: count}`` polynomial,
  because the groups are tied together by the mine counter.

If a group's programme visits more than ``max_states`` states (the budgets are settings,
:class:`solver.settings.Settings`; not seen in real play, nor in random or contrived Expert
positions tried so far), numbers are dropped from that group, the one open across the most boxes
first, until a bound on the states fits; so a decision costs at most about two such passes and
never hangs. A group's work is bounded as well (``max_group_work``: on a big board long
mine-count polynomials make each state costly), and the groups of one analysis share a budget,
``max_total_work``, so that a board with hundreds of big groups (a 100x100 custom board) is
bounded too: once it is spent, each group gets ``min_group_work``. Every layout of the full
problem is still counted, plus some that break a dropped number, so cells reported safe or mines
stay certain, while counts become upper bounds: :func:`count_groups` returns each group's
dropped numbers with its count.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from solver.board import Cell
from solver.box_order import longest_open, order_boxes
from solver.constraints import Constraint
from solver.errors import BoardError
from solver.settings import Settings, current

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


class GroupCount:
    """The forward-backward count of one group's layouts over its boxes."""

    def __init__(
        self,
        boxes: list[tuple[Cell, ...]],
        box_numbers: list[tuple[int, ...]],
        needs: list[int],
        mine_limit: int,
        order: list[int],
        max_work: int,
        max_states: int,
    ) -> None:
        self.mine_limit = mine_limit
        self.max_work = max_work
        self.max_states = max_states
        self.work = 0
        """Work of the count, in steps of its inner loops (the unit of ``max_work``)."""
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
            if visited > self.max_states or self.work > self.max_work:
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
    numbers: list[Constraint], mine_limit: int, max_work: int, settings: Settings
) -> tuple[GroupCount, tuple[Constraint, ...]]:
    """Count one group; when it needs more than ``settings.max_states`` or ``max_work``, drop
    numbers (see the module notes).

    The count is a pure function of its arguments, and most groups come back unchanged on the
    next move (a move changes the frontier in one place), so counts are memoised. A group with
    fewer cells than ``mine_limit`` is never cut short by it, so the limit is taken no higher
    than that: finding a mine elsewhere then keeps the memo's answer.
    """
    cells = frozenset(cell for constraint in numbers for cell in constraint.unknown)
    return _count_group_memo(tuple(numbers), cells, min(mine_limit, len(cells)), max_work, settings)


@lru_cache(maxsize=64)
def _count_group_memo(
    numbers: tuple[Constraint, ...],
    cells: frozenset[Cell],
    mine_limit: int,
    max_work: int,
    settings: Settings,
) -> tuple[GroupCount, tuple[Constraint, ...]]:
    """:func:`_count_group`, memoised (a benchmark or test that changes the settings gets fresh
    counts). 64 counts: an Expert board has a dozen groups or so, and 64 keep nine tenths of the
    reuse that 256 do, in a quarter of the memory.

    After a first count overflows, numbers are dropped until
    :func:`~solver.box_order.estimated_states` (an upper bound on the states visited) fits under
    ``settings.max_states``, so the second count visits no more; if its work still overflows,
    the bound aimed at is half the last one each time.
    """
    dropped: list[Constraint] = []
    kept = list(numbers)
    states_aimed_at = settings.max_states
    spent = 0
    while True:
        boxes, box_numbers = _boxes(cells, kept)
        needs = [c.mines for c in kept]
        far_over = 4 * states_aimed_at if dropped else float("inf")
        # Every state visited costs at least a step of work.
        hopeless = min(far_over, max_work - spent)
        sizes = [len(box) for box in boxes]
        order, bound = order_boxes(box_numbers, sizes, needs, settings, hopeless)
        if dropped and bound > states_aimed_at:
            # Far over, drop a sixteenth of the numbers at once: ordering the boxes again after
            # each single number took seconds on groups of hundreds of numbers.
            how_many = 1 if bound <= far_over else max(1, len(kept) // 16)
            drop = set(longest_open(order, box_numbers, how_many))
            dropped += [kept[number] for number in sorted(drop)]
            kept = [number for index, number in enumerate(kept) if index not in drop]
            continue
        # With every number dropped the group is one box of free cells: its count takes one
        # step of at most ``len(cells) + 2`` work, allowed whatever the budget left.
        budget = max_work - spent if kept else max(max_work - spent, len(cells) + 2)
        try:
            count = GroupCount(
                boxes, box_numbers, needs, mine_limit, order, budget, settings.max_states
            )
            count.work += spent
            return count, tuple(dropped)
        except _TooManyStates as overflow:
            spent = min(spent + overflow.work, max_work - settings.min_group_work)
            if dropped:
                states_aimed_at = max(1, min(states_aimed_at, bound) // 2)
            dropped.append(kept.pop(longest_open(order, box_numbers, 1)[0]))


Counted = list[tuple[list[Constraint], GroupCount, tuple[Constraint, ...]]]
"""Each group's numbers, its count, and the numbers left out to keep within its work budget."""


def count_groups(constraints: list[Constraint], mines_left: int, unflagged: int) -> Counted:
    """Count every group of linked numbers within the analysis's work budget; a group no layout
    satisfies is a BoardError naming its first number."""
    counted: Counted = []
    settings = current()
    work_left = settings.max_total_work
    for numbers in _split_into_groups(tuple(constraints)):
        max_work = min(settings.max_group_work, max(work_left, settings.min_group_work))
        count, dropped = _count_group(numbers, mines_left, max_work, settings)
        work_left -= count.work
        if not count.layouts_by_mines:
            raise BoardError(
                f"no placement of the {unflagged} unflagged mines satisfies this number "
                "and the numbers linked to it",
                cell=numbers[0].cell,
            )
        counted.append((numbers, count, dropped))
    return counted
