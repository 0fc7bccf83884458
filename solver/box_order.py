"""The order in which the count of a group (:mod:`solver.group_count`) visits its boxes.

The count is a dynamic programme along an order of the group's boxes, whose state is how many
mines each "open" number (some of its boxes chosen, some not) still needs, so its cost grows
with the numbers open at a time. The orders here keep few numbers open: each walks along the
frontier instead of across it, and a cheap bound on the states an order visits
(:func:`estimated_states`) picks the best of a few starts. When a count must drop numbers, the
ones open across the most boxes go first (:func:`longest_open`).
"""

from __future__ import annotations

from solver.settings import Settings


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


def estimated_states(
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


def order_boxes(
    box_numbers: list[tuple[int, ...]],
    sizes: list[int],
    needs: list[int],
    settings: Settings,
    hopeless_above: float = float("inf"),
) -> tuple[list[int], int]:
    """The cheapest, by :func:`estimated_states`, of a few greedy orders from different starts,
    with its estimate.

    The first starts at a box touching the fewest numbers (often an end of the frontier); for a
    big group whose first estimate is over ``settings.try_more_starts_above``,
    ``settings.other_starts`` further starts are spread along that first order, unless the first
    estimate is over ``hopeless_above`` (numbers will be dropped anyway: each order costs the
    square of the boxes, seconds on groups of hundreds of boxes).
    """
    boxes_of: list[list[int]] = [[] for _ in needs]
    for box, numbers in enumerate(box_numbers):
        for number in numbers:
            boxes_of[number].append(box)
    first_start = min(range(len(box_numbers)), key=lambda box: (len(box_numbers[box]), box))
    best = _greedy_order(box_numbers, boxes_of, first_start)
    best_cost = estimated_states(best, box_numbers, sizes, needs)
    if settings.try_more_starts_above < best_cost <= hopeless_above:
        stride = max(1, len(best) // settings.other_starts)
        for start in {best[-1], *best[stride::stride]}:
            order = _greedy_order(box_numbers, boxes_of, start)
            cost = estimated_states(order, box_numbers, sizes, needs)
            if cost < best_cost:
                best, best_cost = order, cost
    return best, best_cost


def longest_open(order: list[int], box_numbers: list[tuple[int, ...]], count: int) -> list[int]:
    """The ``count`` numbers that stay open across the most boxes of ``order``, longest first:
    dropping them narrows the programme most."""
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for step, box in enumerate(order):
        for number in box_numbers[box]:
            first.setdefault(number, step)
            last[number] = step
    return sorted(first, key=lambda number: (first[number] - last[number], number))[:count]
