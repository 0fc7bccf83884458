"""The analysis's bounds: its work per group and per analysis, and the rough combination on
big boards, each falling back soundly and saying so."""

from __future__ import annotations

import random
import time
from fractions import Fraction

import pytest
from bruteforce import random_position, with_unread

import solver.analysis as analysis_module
from solver import Board, analyze
from solver.settings import current, using


def expert_positions(count: int) -> list[Board]:
    rng = random.Random(11)
    return [random_position(rng, 16, 30, 99, rng.randint(3, 25)) for _ in range(count)]


def assert_sound(board: Board, relaxed: analysis_module.Analysis) -> None:
    assert board.real_mines is not None
    assert not any(board.real_mines[cell] for cell in relaxed.safe)
    assert all(board.real_mines[cell] for cell in relaxed.mines)


SMALLEST_BUDGETS = {"max_states": 1, "max_group_work": 1, "min_group_work": 1}
"""Every bound at the least its range allows: every number of a group may be dropped."""


@pytest.mark.parametrize(
    "limits",
    [{"max_total_work": 0, "min_group_work": 50}, {"max_states": 3}, SMALLEST_BUDGETS],
)
@pytest.mark.parametrize("unread_share", [0.0, 0.3])
def test_a_spent_budget_leaves_groups_approximate_and_sound(
    limits: dict[str, int], unread_share: float
) -> None:
    """Past the analysis's budget, or a group's states, some groups are approximate, and sound;
    so with some numbers not read yet (opened cells whose number is not known)."""
    rng = random.Random(12)
    boards = []
    for board in expert_positions(12):
        numbers = [cell for cell in board.cells() if board[cell].is_number]
        unread = rng.sample(numbers, round(len(numbers) * unread_share))
        boards.append(with_unread(board, frozenset(unread)))
    exact = [analyze(board) for board in boards]
    approximated = 0
    for board, truth in zip(boards, exact, strict=True):
        with using(current().changed(limits)):
            relaxed = analyze(board)
        assert relaxed.solutions >= truth.solutions
        assert relaxed.safe <= truth.safe and relaxed.mines <= truth.mines
        assert_sound(board, relaxed)
        if relaxed.exact:
            assert relaxed.approximation == "" and relaxed.solutions == truth.solutions
        else:
            approximated += 1
            assert "frontier groups were too big to count exactly" in relaxed.approximation
    assert approximated >= 3


def test_rough_combination_keeps_the_count_and_certain_cells_exact() -> None:
    for board in expert_positions(12):
        exact = analyze(board)
        with using(current().changed({"max_exact_products": 0})):
            rough = analyze(board)
        assert rough.solutions == exact.solutions
        assert (rough.safe, rough.mines) == (exact.safe, exact.mines)
        if rough.groups:
            assert not rough.exact and "significant digits" in rough.approximation
        for cell in board.cells():
            if board[cell].is_unopened:
                difference = abs(rough.probability(cell) - exact.probability(cell))
                assert difference <= Fraction(1, 10**25)


@pytest.mark.slow
def test_a_dense_100x100_board_is_analysed_in_bounded_time() -> None:
    board = random_position(random.Random(3), 100, 100, 3000, openings=400)
    started = time.perf_counter()
    result = analyze(board)
    assert time.perf_counter() - started < 60
    assert_sound(board, result)
