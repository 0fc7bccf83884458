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
:mod:`solver.analysis` only counts them; so the layouts are listed, as bitmasks over the
unknown cells (:mod:`solver.layouts`), and a position is a bitmask over that list
(:mod:`solver.winprob_search`). Both run compiled where the package's extension is built
(:mod:`solver._winprob_core`, Cython: the same steps in the same order, tested equal), and in
Python otherwise. A flag is taken as a mine, as :func:`solver.analysis.analyze` takes it, so
that both count the same layouts of a flagged board; an opened cell whose number is not known
(:attr:`~solver.board.Tile.OPENED`) as a safe cell that shows no number, now or later in the
search, so its value is neither assumed nor used.

Limits: the search refuses, with :class:`PositionTooLarge`, positions with more than
``max_layouts`` consistent layouts (:data:`MAX_LAYOUTS` by default), more than
``max_unresolved`` cells whose content still differs between layouts, or whose layouts take
more than ``max_enumeration_steps`` steps to list (both settings,
:class:`solver.settings.Settings`), and gives up the same way once it has looked at
``max_visits`` layouts (:data:`MAX_VISITS`; a layout is looked at each time a move's outcome
sorts it, so this counts the search's work, and bounds its time, deterministically).

The first-click ``rule`` only changes anything on a fresh board; once a cell is open, every
layout consistent with the board is taken as equally likely under every rule.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import combinations
from math import comb

from solver.board import Board, Cell
from solver.engine import FirstClick
from solver.errors import BoardError, PositionTooLarge
from solver.layouts import consistent_layouts
from solver.winprob_search import Search, new_search

MAX_LAYOUTS = 2000
"""Default cap on the consistent full-board layouts a search will take on."""

MAX_VISITS = 5_000_000
"""Default cap on the layouts one search may look at (about 1.5 s of one core a million)."""


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
) -> tuple[list[Cell], Search, int]:
    """The hidden cells, a search of ``board``'s layouts over them and the layouts' total
    weight; :class:`BoardError` if none fits."""
    cells, layouts = _hidden_cells(board), consistent_layouts(board, _index(board), max_layouts)
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
