"""The exact chance of winning a position with best play, for endgames and tiny boards.

Mine probabilities alone choose badly near the end of a game: a safer cell can teach less
than a riskier one, and sometimes no later move can tell two layouts apart. This module searches
every way the rest of the game can go instead (the recursion of seed 003):

* a *position* is the set of full-board mine layouts still consistent with what has been seen,
  all equally likely (weights only differ for the ``xp`` first click, see below);
* opening a cell loses on the layouts with a mine there and splits the rest by the number
  shown; every cell that is then safe in all layouts of a part is opened for free (opening a
  certain safe cell never lowers the chance of winning, and it also covers the flood fill of a 0);
* the value of a position is the best, over the cells it could open, of the summed values of the
  parts; a single layout is won.

Values are kept as whole numbers -- the total weight of the layouts best play wins -- so the
search needs no fractions until the end. Positions are memoised, and a cell is skipped when even
winning every layout it survives could not beat the best cell found so far.

The search needs every layout spelled out, cells touching no number included, where
:mod:`solver.analysis` only counts them; so the layouts are listed here, as bitmasks over the
unknown cells, and a position is a bitmask over that list. The search (:class:`_Search`) and
the backtracking that lists a frontier part's layouts (:func:`_part_layouts`) run compiled
where the package's extension is built (:mod:`solver._winprob_core`, Cython: the same steps in
the same order, tested equal), and in Python otherwise. A flag is taken as a mine, as
:func:`solver.analysis.analyze` takes it, so that both count the same layouts of a flagged
board; an opened cell whose number is not known (:attr:`~solver.board.Tile.OPENED`) as a safe
cell that shows no number, now or later in the search, so its value is neither assumed nor
used.

Limits: the search refuses, with :class:`PositionTooLarge`, positions with more than
``max_layouts`` consistent layouts (:data:`MAX_LAYOUTS` by default), more than
:data:`MAX_UNRESOLVED` cells whose content still differs between layouts, or whose layouts take
more than :data:`MAX_ENUMERATION_STEPS` steps to list, and gives up the same way once it has
looked at ``max_visits`` layouts (:data:`MAX_VISITS`; a layout is looked at each time a move's
outcome sorts it, so this counts the search's work, and bounds its time, deterministically).

The first-click ``rule`` only changes anything on a fresh board; once a cell is open, every
layout consistent with the board is taken as equally likely under every rule.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import reduce
from itertools import combinations
from math import comb
from operator import and_, or_
from typing import cast

import numpy as np

from solver.board import Board, Cell, Tile
from solver.engine import FirstClick, neighbour_counts
from solver.errors import BoardError, PositionTooLarge

try:
    from solver import _winprob_core as _core
except ImportError:  # a checkout whose extension is not built: the same search, in Python
    _core = None  # type: ignore[assignment]

MAX_LAYOUTS = 2000
"""Default cap on the consistent full-board layouts a search will take on."""

MAX_VISITS = 5_000_000
"""Default cap on the layouts one search may look at (about 1.5 s of one core a million)."""

MAX_ENUMERATION_STEPS = 200_000
"""Cap on the backtracking steps spent listing the consistent layouts."""

MAX_UNRESOLVED = 48
"""Cap on the cells that are a mine in some consistent layouts and not in others."""


def win_probability(
    board: Board,
    *,
    rule: FirstClick | str = FirstClick.SAFE,
    max_layouts: int = MAX_LAYOUTS,
    max_visits: int = MAX_VISITS,
) -> Fraction:
    """The exact chance of winning from ``board`` with best play from here on.

    Raises :class:`PositionTooLarge` beyond the documented limits, :class:`BoardError` for a
    board that no layout fits and ``ValueError`` for an unknown ``rule``.
    """
    rule = FirstClick.parse(rule)
    if board.is_lost:
        return Fraction(0)
    if board.is_fresh:
        return _fresh_board_win_probability(board, rule, max_layouts, max_visits)
    _, search, total = _consistent_search(board, max_layouts, max_visits)
    return Fraction(search.won_after(search.everything), total)


def best_guess(
    board: Board, *, max_layouts: int = MAX_LAYOUTS, max_visits: int = MAX_VISITS
) -> tuple[Cell, Fraction]:
    """The cell to open that wins most often, with that chance of winning.

    A certain safe cell, when the board has one, is as good as any and is returned. Raises
    :class:`PositionTooLarge` beyond the limits and :class:`BoardError` when no layout fits or there
    is nothing to open (solved, or every hidden cell a certain mine).
    """
    cells, search, total = _consistent_search(board, max_layouts, max_visits)
    certain_safe = search.safe_everywhere()
    if certain_safe:
        return cells[certain_safe[0]], Fraction(search.won_after(search.everything), total)
    cell_index, won = search.best_cell(search.everything, 0)
    if cell_index is None:
        raise BoardError("every hidden cell is a certain mine: nothing to open")
    return cells[cell_index], Fraction(won, total)


def guess_values(
    board: Board, *, max_layouts: int = MAX_LAYOUTS, max_visits: int = MAX_VISITS
) -> dict[Cell, Fraction]:
    """The exact chance of winning after opening each undecided cell, with best play after it.

    Undecided cells are those a mine in some consistent layouts and not in others (certain
    cells are left out: a safe one is always right to open, a mine always wrong). Unlike
    :func:`best_guess`, which stops looking at a cell once it cannot beat the best so far,
    every cell is valued in full, which is what measuring another player's choice needs.
    Empty when nothing is undecided. The board is taken as it is (a fresh board's first-click
    rule is not applied). Raises :class:`PositionTooLarge` beyond the limits (``max_visits`` is
    shared by all the cells) and :class:`BoardError` when no layout fits.
    """
    cells, search, total = _consistent_search(board, max_layouts, max_visits)
    return {
        cells[cell]: Fraction(search.won_after(search.surviving(cell)), total)
        for cell in search.unresolved
    }


def _consistent_search(
    board: Board, max_layouts: int, max_visits: int
) -> tuple[list[Cell], _Search, int]:
    """The hidden cells, a search of ``board``'s layouts over them and the layouts' total
    weight; :class:`BoardError` if none fits."""
    cells, layouts = _hidden_cells(board), _layouts(board, _index(board), max_layouts)
    if not layouts:
        raise BoardError("no mine layout is consistent with this board")
    search = new_search(board, cells, layouts, [1] * len(layouts), max_visits)
    return cells, search, len(layouts)


def _hidden_cells(board: Board) -> list[Cell]:
    """The hidden cells in reading order: cell ``i`` is bit ``i`` of a layout."""
    return [(int(r), int(c)) for r, c in zip(*board.closed.nonzero(), strict=True)]


def _index(board: Board) -> dict[Cell, int]:
    """Each hidden cell's bit in a layout."""
    return {cell: i for i, cell in enumerate(_hidden_cells(board))}


def new_search(
    board: Board, cells: list[Cell], layouts: list[int], weights: list[int], max_visits: int
) -> _Search:
    """A search of ``layouts`` (bitmasks over ``cells``) of ``board``, compiled where
    :mod:`solver._winprob_core` is built (the same search in C, move for move), else
    :class:`_Search`. Raises :class:`PositionTooLarge` past :data:`MAX_UNRESOLVED`."""
    unresolved = _unresolved_mask(layouts).bit_count()
    if unresolved > MAX_UNRESOLVED:
        raise PositionTooLarge(
            f"{unresolved} cells are still undecided, more than {MAX_UNRESOLVED}"
        )
    index = {cell: i for i, cell in enumerate(cells)}
    neighbours = [[index[n] for n in board.neighbours(cell) if n in index] for cell in cells]
    if _core is None:
        return _Search(layouts, weights, neighbours, max_visits, PositionTooLarge)
    # The compiled twin has _Search's methods (its stub, solver/_winprob_core.pyi, lists them).
    return cast(_Search, _core.Search(layouts, weights, neighbours, max_visits, PositionTooLarge))


class _Search:
    """One win-probability search over a list of layouts (each a bitmask over the hidden cells).

    A *position* is a bitmask over that list: bit ``i`` set while layout ``i`` is still
    possible. Everything a split asks of a layout is worked out once, up front: per cell, the
    layouts with a mine there (:attr:`mined_at`) and those showing each number there
    (:attr:`showing`). Positions are split, and their parts listed, in one fixed order (cell by
    cell in index order, each by the number shown from 0 up), so the search looks at layouts in
    the same order on every run, and :mod:`solver._winprob_core`, which compiles this class
    step for step, gives up at the same point and picks the same cells.
    """

    def __init__(
        self,
        layouts: list[int],
        weights: list[int],
        neighbours: list[list[int]],
        max_visits: int,
        too_large: type[Exception],
    ) -> None:
        self.weights = weights
        self.uniform = all(weight == 1 for weight in weights)
        """Every layout weighs 1 (all rules but ``xp`` on a fresh board): a weight is a count."""
        self.lightest = min(weights, default=0)
        self.max_visits = max_visits
        self.visits_left = max_visits
        self.too_large = too_large
        self.everything = (1 << len(layouts)) - 1
        self.mined_at = [0] * len(neighbours)
        for i, layout in enumerate(layouts):
            for cell in _bits(layout):
                self.mined_at[cell] |= 1 << i
        self.unresolved = [c for c, m in enumerate(self.mined_at) if 0 != m != self.everything]
        """The cells a mine in some layouts and not in others, in index order."""
        self.openable = [c for c, m in enumerate(self.mined_at) if m != self.everything]
        """The cells safe in some layout: a mine in every layout is never opened."""
        self.showing: dict[int, list[int]] = {}
        for cell in self.openable:
            mask = sum(1 << n for n in neighbours[cell])
            by_number = [0] * 9
            for i, layout in enumerate(layouts):
                by_number[(layout & mask).bit_count()] |= 1 << i
            self.showing[cell] = by_number
        self.memo: dict[int, int] = {}

    def safe_everywhere(self) -> list[int]:
        """The cells safe in every layout, in index order."""
        return [cell for cell, mined in enumerate(self.mined_at) if not mined]

    def surviving(self, cell: int) -> int:
        """The position left once ``cell`` is opened and found safe."""
        return self.everything & ~self.mined_at[cell]

    def weigh(self, layouts: int) -> int:
        """The total weight of the position ``layouts``."""
        if self.uniform:
            return layouts.bit_count()
        return sum(self.weights[i] for i in _bits(layouts))

    def split(self, layouts: int, opened: int) -> list[int]:
        """The positions ``layouts`` falls into once every certain safe cell is opened.

        ``opened`` holds the cells already open (safe in all ``layouts``, their numbers known).
        Raises ``too_large`` once the search has looked at too many layouts.
        """
        parts: list[int] = []
        self._split_into(parts, layouts, opened)
        return parts

    def _split_into(self, parts: list[int], layouts: int, opened: int) -> None:
        """:meth:`split`, appending the positions to ``parts``."""
        count = layouts.bit_count()
        self.visits_left -= count
        if self.visits_left < 0:
            raise self.too_large(f"the search looked at more than {self.max_visits} layouts")
        newly_safe = [
            cell
            for cell in self.openable
            if not opened >> cell & 1 and not layouts & self.mined_at[cell]
        ]
        if not newly_safe or count == 1:
            parts.append(layouts)
            return
        # Layouts that show the same numbers on the newly safe cells stay together.
        pieces = [layouts]
        for cell in newly_safe:
            pieces = [
                piece & showing
                for piece in pieces
                for showing in self.showing[cell]
                if piece & showing
            ]
        if len(pieces) == 1:  # the numbers tell nothing: no further cell becomes safe either
            parts.append(layouts)
            return
        opened |= sum(1 << cell for cell in newly_safe)
        for piece in pieces:
            if piece & (piece - 1):
                self._split_into(parts, piece, opened)
            else:
                parts.append(piece)

    def won_after(self, layouts: int) -> int:
        """The weight best play wins from ``layouts`` once every cell safe in all of them (and
        every cell that makes safe in turn) is opened: the value of a move that leaves them
        (none: a move that always loses)."""
        return sum(map(self.value, self.split(layouts, 0))) if layouts else 0

    def value(self, layouts: int) -> int:
        """The weight of the layouts of this (closed) position that best play wins."""
        if layouts.bit_count() <= 2:  # two layouts have a cell that is a mine in just the lighter
            return max(self.weights[i] for i in _bits(layouts))
        known = self.memo.get(layouts)
        if known is None:
            opened = sum(1 << c for c, m in enumerate(self.mined_at) if not layouts & m)
            known = self.best_cell(layouts, opened)[1]
            self.memo[layouts] = known
        return known

    def best_cell(self, layouts: int, opened: int) -> tuple[int | None, int]:
        """The cell index whose opening wins the most weight, and that weight.

        A *dead* cell, one whose number (and the cells it makes safe) tells the layouts that
        survive it nothing, is tried only when every cell is dead: opening it can wait until
        the end of any line of play at no cost, since nothing played in between depends on it;
        so when equal weights make every informative cell worth at least two layouts (each part
        it splits into is worth one at least), the best first move is an informative one.
        """
        candidates = []
        for cell in self.unresolved:
            if 0 != layouts & self.mined_at[cell] != layouts:
                surviving = layouts & ~self.mined_at[cell]
                candidates.append((self.weigh(surviving), cell, surviving))
        candidates.sort(key=lambda candidate: -candidate[0])
        best_cell: int | None = None
        best = -1
        dead: list[tuple[int, list[int]]] = []
        for bound, cell, surviving in candidates:
            if bound <= best:
                break
            parts = self.split(surviving, opened)
            if self.uniform and len(parts) == 1 and surviving & (surviving - 1):
                dead.append((cell, parts))
                continue
            won = self._outcome(parts, bound, best)
            if won is not None:
                best_cell, best = cell, won
                if won == bound and bound == candidates[0][0]:
                    break
        if best_cell is None:
            for cell, parts in dead:
                won = self._outcome(parts, self.weigh(parts[0]), best)
                if won is not None:
                    best_cell, best = cell, won
        if best_cell is None and layouts.bit_count() == 1:
            return None, self.weights[layouts.bit_length() - 1]
        return best_cell, max(best, 0)

    def _outcome(self, parts: list[int], bound: int, best: int) -> int | None:
        """The weight best play wins over ``parts`` (the positions one move leads to, together
        worth ``bound``), or None once it cannot beat ``best``.

        A part of two layouts or more loses one at least (its next cell is a mine in some
        layout), which bounds the total before any part is searched.
        """
        undecided = sum(1 for part in parts if part & (part - 1))
        reachable = bound - undecided * self.lightest
        if reachable <= best:
            return None
        won = 0
        for part in parts:
            if not part & (part - 1):
                won += self.weights[part.bit_length() - 1]
                continue
            part_value = self.value(part)
            won += part_value
            reachable -= self.weigh(part) - self.lightest - part_value
            if reachable <= best:
                return None
        return won


def _fresh_board_win_probability(
    board: Board, rule: FirstClick, max_layouts: int, max_visits: int
) -> Fraction:
    """Best first click under ``rule`` on an untouched (tiny) board, then best play."""
    count = board.rows * board.columns
    if comb(count, board.mines) > max_layouts:
        raise PositionTooLarge(
            f"a fresh {board.rows}x{board.columns} board with {board.mines} mines has "
            f"{comb(count, board.mines)} layouts, more than {max_layouts}"
        )
    every_layout = [
        sum(1 << i for i in chosen) for chosen in combinations(range(count), board.mines)
    ]
    best = Fraction(0)
    dealt = False
    for first in range(count):
        weights = _first_click_weights(board, every_layout, first, rule)
        if not weights:
            continue
        dealt = True
        search = new_search(
            board, _hidden_cells(board), list(weights), list(weights.values()), max_visits
        )
        won = search.won_after(search.surviving(first))
        best = max(best, Fraction(won, sum(weights.values())))
    if not dealt:
        raise BoardError(
            f"a fresh {board.rows}x{board.columns} board with {board.mines} mines cannot be "
            f"dealt under the '{rule}' first-click rule: no first click leaves the mines room"
        )
    return best


def _first_click_weights(
    board: Board, every_layout: list[int], first: int, rule: FirstClick
) -> dict[int, int]:
    """How many equally likely layouts lead to each layout the first click at ``first`` meets.

    Under ``none`` a layout with a mine at ``first`` is kept (a loss); ``safe`` and ``opening``
    drop such layouts, ``xp`` moves the mine (and drops a layout with no free cell to take it).
    Empty when the rule can deal no game with this first click.
    """
    bit = 1 << first
    if rule is FirstClick.NONE:
        return dict.fromkeys(every_layout, 1)
    if rule is FirstClick.SAFE:
        return {layout: 1 for layout in every_layout if not layout & bit}
    if rule is FirstClick.OPENING:
        row, column = divmod(first, board.columns)
        around = bit | sum(1 << (r * board.columns + c) for r, c in board.neighbours((row, column)))
        return {layout: 1 for layout in every_layout if not layout & around}
    weights: defaultdict[int, int] = defaultdict(int)
    for layout in every_layout:
        if layout & bit:
            free = next((i for i in range(board.rows * board.columns) if not layout >> i & 1), -1)
            if free < 0:
                continue
            layout = (layout & ~bit) | (1 << free)
        weights[layout] += 1
    return dict(weights)


def _layouts(board: Board, index: dict[Cell, int], max_layouts: int) -> list[int]:
    """Every full-board mine layout consistent with the numbers and the mine total, as bitmasks.

    Each independent part of the frontier (cells linked through numbers) is enumerated alone by
    backtracking; the parts are then combined, skipping early every combination whose mine
    count the rest can no longer bring to the total; the hidden cells touching no number take
    the remaining mines in every possible way. Raises :class:`PositionTooLarge` past
    ``max_layouts`` layouts or :data:`MAX_ENUMERATION_STEPS` backtracking steps.
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
    constraints: list[tuple[int, list[int]]] = []
    for r, c in zip(*(numbers & (hidden_around > 0)).nonzero(), strict=True):
        cell = (int(r), int(c))
        hidden = [index[n] for n in board.neighbours(cell) if n in index]
        constraints.append((int(needs[cell]), hidden))
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
    if _core is None:
        return _part_layouts(cells, constraints, steps)
    return _core.part_layouts(cells, constraints, steps, MAX_ENUMERATION_STEPS, PositionTooLarge)


def _part_layouts(
    cells: list[int], constraints: list[tuple[int, list[int]]], steps: list[int]
) -> list[tuple[int, int]]:
    """Every mine layout of one frontier part satisfying its numbers, with its mine count.

    ``steps`` counts backtracking steps across parts, to give up on contrived positions.
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
            if steps[0] > MAX_ENUMERATION_STEPS:
                raise PositionTooLarge(
                    f"enumerating the layouts took over {MAX_ENUMERATION_STEPS} steps"
                )
    return found


def _unresolved_mask(layouts: list[int]) -> int:
    """The cells that are a mine in some of ``layouts`` and not in others."""
    return reduce(or_, layouts, 0) & ~reduce(and_, layouts, -1)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
