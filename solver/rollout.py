"""Roll-outs: a guess valued by playing the game out from it on boards the position may be.

The look-ahead (:mod:`solver.guess`) scores a guess by the next move or two; where two cells
score alike that says little about which wins more games. A roll-out asks the games instead:
draw full layouts consistent with the board (:mod:`solver.sampling`), and on each, open the
candidate and let the fast player finish the game. The same layouts serve every candidate
(common random numbers), so the comparison between two cells is far sharper than either win
count alone: most layouts are won or lost by both.

The work is bounded by the number of layouts, not by time, so a run repeats exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from solver.analysis import Analysis
from solver.board import Board, Cell
from solver.engine import Game
from solver.sampling import LayoutSampler


def playout_wins(
    analysis: Analysis,
    candidates: Sequence[Cell],
    layouts: int,
    finish: Callable[[Game], bool],
    seed: int,
) -> dict[Cell, int]:
    """For each candidate, in how many of ``layouts`` drawn layouts opening it and playing on
    with ``finish`` wins. :class:`~solver.errors.PositionTooLarge` when the count is not exact."""
    sampler = LayoutSampler(analysis)
    rng = random.Random(seed)
    wins = dict.fromkeys(candidates, 0)
    board = analysis.board
    for _ in range(layouts):
        layout = sampler.sample(rng)
        for cell in candidates:
            if layout[cell]:
                continue
            game = game_at(board, layout)
            game.open(cell)
            wins[cell] += finish(game)
    return wins


def game_at(board: Board, layout: npt.NDArray[np.bool_]) -> Game:
    """A game with mines at ``layout`` that shows what ``board`` shows (its opened cells opened;
    flags are left out: the player reads them as mines either way)."""
    game = Game.from_layout(layout)
    opened = ~board.unopened
    for row, column in zip(*opened.nonzero(), strict=True):
        game.open((int(row), int(column)))
    return game
