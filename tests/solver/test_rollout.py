"""Roll-outs: the games they play start where the board is, and their win counts estimate the
exact chance of winning (checked against the exact search, itself checked by brute force)."""

from __future__ import annotations

import random
from math import sqrt

import numpy as np
import pytest
from bruteforce import random_position

from solver import strategy
from solver.analysis import analyze
from solver.board import Tile
from solver.engine import Game
from solver.rollout import game_at, playout_wins
from solver.settings import current, using
from solver.strategy import choose_guess, play_to_end
from solver.winprob import guess_values


@pytest.mark.parametrize("seed", range(5))
def test_a_played_out_game_starts_from_the_board(seed: int) -> None:
    board = random_position(random.Random(seed), 9, 9, 10, openings=3)
    assert board.real_mines is not None
    game = game_at(board, board.real_mines)
    opened = ~board.unopened
    assert np.array_equal(game.board.tiles[opened], board.tiles[opened])
    assert not ((game.board.tiles != Tile.HIDDEN) & board.unopened).any()


@pytest.mark.parametrize("seed", range(4))
def test_playout_wins_estimate_the_exact_chance_of_winning(seed: int) -> None:
    """In positions this small the fast player plays the exact search, so a cell's roll-outs
    win as often as best play after opening it does."""
    rng = random.Random(seed)
    while True:
        board = random_position(rng, 4, 5, 5, openings=2)
        if board.is_won or board.is_lost:
            continue
        values = guess_values(board)
        if len(values) >= 2:
            break
    cells = sorted(values)[:3]
    layouts = 300
    wins = playout_wins(analyze(board), cells, layouts, play_to_end, seed)
    for cell in cells:
        exact = float(values[cell])
        spread = sqrt(exact * (1 - exact) / layouts)
        assert abs(wins[cell] / layouts - exact) <= 5 * spread + 1e-9, (cell, wins, values)


def test_roll_outs_choose_among_the_cells_the_look_ahead_scores_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The corner opened shows a number: the first guess is among cells the look-ahead scores
    alike. Roll-outs pick the one that wins most of them, and only among those."""
    game = Game.level("expert", "safe", 7000001)
    game.open((0, 0))
    assert game.board[(0, 0)] != Tile.ZERO  # a guess has to follow
    analysis = analyze(game.board.copy())
    fast, _ = choose_guess(analysis)
    asked: list[list[tuple[int, int]]] = []

    def favour_the_last(
        _analysis: object, candidates: list[tuple[int, int]], *_: object
    ) -> dict[tuple[int, int], int]:
        asked.append(list(candidates))
        return {cell: index for index, cell in enumerate(candidates)}

    monkeypatch.setattr(strategy, "playout_wins", favour_the_last)
    with using(current().changed({"rollout_layouts": 10, "rollout_candidates": 3})):
        strong, _ = choose_guess(analysis)
    assert len(asked) == 1 and asked[0][0] == fast and len(asked[0]) == 3
    assert strong == asked[0][-1] != fast
    with using(current().changed({"rollout_layouts": 10, "rollout_score_gap": 0.0})):
        assert choose_guess(analysis)[0] in (fast, *asked[-1][1:])
