"""How real games start a board, for the simulated win rate a live run is compared with.

winemine moves a mine from under the first click (``safe``); gnome-mines and kmines keep the
first click's 3x3 block free (``opening``). xdemineur places its mines uniformly with no
protection, then opens one uniformly chosen 0 cell by itself before the player's first click
(and nothing, if the board has no 0). That is not the simulator's ``opening`` rule (where the
player chooses the cell the 0 must be under), so its games are started here the way it starts
them. mfranceschi-minesweeper deals its mines again until the first click is a 0 in a patch of
more than 5 zeros (:data:`BIG_OPENING`); minesweeper-python draws its mines with repeats, so that
its count varies from game to game (:func:`distinct_of_draws`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.bench.play import play_game
from solver.board import Board
from solver.engine import FirstClick, Game, neighbour_counts
from solver.strategy import first_click, next_moves

XDEMINEUR = "xdemineur"
"""xdemineur's own start, beside the :class:`solver.engine.FirstClick` rules."""


def xdemineur_start(rows: int, columns: int, mines: int, rng: np.random.Generator) -> Game:
    """A game started as xdemineur starts one: mines uniform over every cell, then one
    uniformly chosen 0 opened by the game (none when there is no 0)."""
    cells = np.zeros(rows * columns, dtype=bool)
    cells[rng.choice(rows * columns, size=mines, replace=False)] = True
    layout = cells.reshape(rows, columns)
    zeros = np.argwhere((neighbour_counts(layout) == 0) & ~layout)
    game = Game.from_layout(layout)
    if len(zeros):
        row, column = zeros[rng.integers(len(zeros))]
        game.open((int(row), int(column)))
    return game


BIG_OPENING = "big-opening"
"""mfranceschi-minesweeper 0.2.3's start (``controller/game.py``, ``reset_grid``): mines uniform,
dealt again while the first click is a mine or lies in a patch of at most
:data:`BIG_OPENING_ZEROS` cells showing 0 (joined side to side, ``get_count_of_close_zero_
neighbours_cells``)."""
BIG_OPENING_ZEROS = 5


def big_opening_start(rows: int, columns: int, mines: int, rng: np.random.Generator) -> Game:
    """A game started as mfranceschi-minesweeper starts one, at the cell the play loop opens
    first on a game whose first click opens a 0 (the rule its calibration learns)."""
    cell = first_click(Board.empty(rows, columns, mines), FirstClick.OPENING)
    while True:
        cells = np.zeros(rows * columns, dtype=bool)
        cells[rng.choice(rows * columns, size=mines, replace=False)] = True
        layout = cells.reshape(rows, columns)
        if not layout[cell] and _zero_patch(layout, cell) > BIG_OPENING_ZEROS:
            game = Game.from_layout(layout)
            game.open(cell)
            return game


def _zero_patch(layout: np.ndarray, cell: tuple[int, int]) -> int:
    """How many cells showing 0 (mines with no mine beside them too, as the game counts them)
    join ``cell`` side to side, itself included."""
    zeros = neighbour_counts(layout) == 0
    seen = {cell} if zeros[cell] else set()
    todo = list(seen)
    while todo:
        row, column = todo.pop()
        for near in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
            inside = 0 <= near[0] < layout.shape[0] and 0 <= near[1] < layout.shape[1]
            if inside and near not in seen and zeros[near]:
                seen.add(near)
                todo.append(near)
    return len(seen)


def distinct_of_draws(rows: int, columns: int, draws: int) -> Callable[[np.random.Generator], int]:
    """The mine count of a game that places ``draws`` mines on cells drawn with repeats
    (minesweeper-python 0.0.4: 38 draws on 16x16, 30-38 mines), one game at a time."""

    def count(rng: np.random.Generator) -> int:
        return len(set(rng.integers(rows * columns, size=draws).tolist()))

    return count


def simulated_win_rate(
    size: tuple[int, int, int],
    start: str,
    games: int,
    seed: int = 0,
    mines: Callable[[np.random.Generator], int] | None = None,
) -> float:
    """The solver's win rate on ``games`` simulated boards of ``size``, started by ``start``
    (a :class:`FirstClick` rule, :data:`XDEMINEUR` or :data:`BIG_OPENING`), each with
    ``mines(rng)`` mines if given, else ``size``'s (the solver told each game's count)."""
    rows, columns, _ = size
    rng = np.random.default_rng(seed)
    wins = 0
    for number in range(games):
        count = size[2] if mines is None else mines(rng)
        if start == XDEMINEUR:
            game = xdemineur_start(rows, columns, count, rng)
        elif start == BIG_OPENING:
            game = big_opening_start(rows, columns, count, rng)
        else:
            game = Game(rows, columns, count, FirstClick(start), seed + number)
        wins += play_game(next_moves, game, seed + number).won
    return wins / games
