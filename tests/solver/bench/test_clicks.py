"""Clicks on simulated games: 3BV as ms-toollib counts it, and chords that win the same games in
fewer clicks."""

from __future__ import annotations

import numpy as np
import pytest

from solver.bench.clicks import measure_clicks, three_bv
from solver.engine import FirstClick, Game


def test_three_bv_counts_openings_and_cells_on_no_opening() -> None:
    layout = np.array([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0]], dtype=bool)
    # one opening (the six 0s at the top left with their border), and the three 1s of the
    # bottom row, on no opening's border
    assert three_bv(layout) == 4
    assert three_bv(np.array([[1, 0, 1]], dtype=bool)) == 1
    assert three_bv(np.array([[0, 1, 0, 1, 0]], dtype=bool)) == 3


@pytest.mark.parametrize("seed", range(5))
def test_three_bv_is_ms_toollibs(seed: int) -> None:
    toollib = pytest.importorskip("ms_toollib")
    game = Game.level("expert", FirstClick.SAFE, seed)
    game.open((0, 0))
    layout = game.mine_layout
    assert layout is not None
    numbers = [[-1 if mine else 0 for mine in row] for row in layout.tolist()]
    board = toollib.cal_board_numbers(numbers)
    assert three_bv(layout) == toollib.cal_bbbv(board)


def test_chords_win_the_same_games_in_fewer_clicks() -> None:
    figures, differ = measure_clicks(
        ["solver.strategy:next_moves", "solver.chords:chorded_moves"],
        "intermediate",
        FirstClick.SAFE,
        games=6,
    )
    single, chorded = figures
    assert differ == []
    assert single.wins == chorded.wins
    assert single.bbbv == chorded.bbbv
    assert chorded.clicks < single.clicks
    assert chorded.efficiency > single.efficiency
