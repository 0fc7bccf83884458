"""Sampled layouts, checked against every layout a brute force finds: each sample is one of
them, and each of them comes up equally often."""

from __future__ import annotations

import random
from collections import Counter
from math import sqrt

import numpy as np
import pytest
from bruteforce import enumerate_solutions, random_position, small_positions
from hypothesis import HealthCheck, given, settings

from solver.analysis import analyze
from solver.board import Board, Cell, Tile
from solver.errors import PositionTooLarge
from solver.sampling import LayoutSampler
from solver.settings import current, using


def _mines(layout: np.ndarray) -> frozenset[Cell]:
    return frozenset((int(r), int(c)) for r, c in zip(*layout.nonzero(), strict=True))


def _solutions(board: Board) -> set[frozenset[Cell]]:
    """Every full layout (flags included) a brute force finds consistent with ``board``."""
    flags = frozenset(cell for cell in board.cells() if board[cell] == Tile.FLAG)
    return {flags | mines for mines in enumerate_solutions(board).solution_mines}


def _boxes_vary(board: Board) -> bool:
    """Whether a group's layouts with the same number of mines spread them over its boxes in
    more than one way (where drawing a layout box by box needs the right weights)."""
    for group in analyze(board).groups:
        choices = set(group._count.box_layouts(frozenset(group.layouts_by_mines)))
        if len({sum(choice) for choice in choices}) < len(choices):
            return True
    return False


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions)
def test_every_sample_is_a_layout_the_board_allows(board: Board) -> None:
    if board.is_won or board.is_lost:
        return
    sampler = LayoutSampler(analyze(board))
    rng = random.Random(0)
    allowed = _solutions(board)
    for _ in range(20):
        assert _mines(sampler.sample(rng)) in allowed


@pytest.mark.parametrize("seed", range(6))
def test_every_layout_comes_up_equally_often(seed: int) -> None:
    rng = random.Random(seed)
    while True:  # a few dozen layouts, where a box of cells may take different mine counts
        board = random_position(rng, 4, 5, 5, openings=2, flag_share=0.3)
        if board.is_won or not _boxes_vary(board):
            continue
        allowed = _solutions(board)
        if 4 <= len(allowed) <= 60:
            break
    sampler = LayoutSampler(analyze(board))
    draws = 300 * len(allowed)
    seen = Counter(_mines(sampler.sample(rng)) for _ in range(draws))
    assert set(seen) == allowed
    expected = draws / len(allowed)
    chi_square = sum((n - expected) ** 2 / expected for n in seen.values())
    freedom = len(allowed) - 1
    assert chi_square < freedom + 6 * sqrt(2 * freedom), (chi_square, freedom)


def test_a_position_whose_count_is_not_exact_is_refused() -> None:
    board = random_position(random.Random(3), 16, 30, 99, openings=6)
    with using(current().changed({"max_states": 10})):
        analysis = analyze(board)
    assert not analysis.exact  # a group had numbers dropped: its weights are not the true ones
    with pytest.raises(PositionTooLarge, match="not exact"):
        LayoutSampler(analysis)
