"""How real games start a board, for the simulated win rate a live run is compared with.

winemine moves a mine from under the first click (``safe``); gnome-mines and kmines keep the
first click's 3x3 block free (``opening``). xdemineur places its mines uniformly with no
protection, then opens one uniformly chosen 0 cell by itself before the player's first click
(and nothing, if the board has no 0). That is not the simulator's ``opening`` rule (where the
player chooses the cell the 0 must be under), so its games are started here the way it starts
them.
"""

from __future__ import annotations

import numpy as np

from solver.bench.play import play_game
from solver.engine import FirstClick, Game, neighbour_counts
from solver.strategy import next_moves

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


def simulated_win_rate(size: tuple[int, int, int], start: str, games: int, seed: int = 0) -> float:
    """The solver's win rate on ``games`` simulated boards of ``size``, started by ``start``
    (a :class:`FirstClick` rule, or :data:`XDEMINEUR`)."""
    rows, columns, mines = size
    rng = np.random.default_rng(seed)
    wins = 0
    for number in range(games):
        if start == XDEMINEUR:
            game = xdemineur_start(rows, columns, mines, rng)
        else:
            game = Game(rows, columns, mines, FirstClick(start), seed + number)
        wins += play_game(next_moves, game, seed + number).won
    return wins / games
