"""Cheap sound deductions (solver/deduce.py): every single-number deduction found, the classic
patterns, and never a mine called safe, checked against the exact analysis and the real mines."""

from __future__ import annotations

import random

import pytest
from bruteforce import random_position, small_positions
from hypothesis import given, settings

from solver import Board, Tile, analyze, find_certain


def test_find_certain_and_analyze_never_call_a_mine_safe() -> None:
    """Hunt over many positions from play, of every size, for a deduction the truth refutes."""
    rng = random.Random(20261121)
    checked = 0
    for _ in range(400):
        rows, columns = rng.randint(2, 16), rng.randint(2, 30)
        mines = rng.randint(1, rows * columns * 2 // 5)
        board = random_position(
            rng, rows, columns, mines, rng.randint(1, 12), rng.choice([0.0, 0.5]), 0.05
        )
        assert board.real_mines is not None
        real = board.real_mines
        simple_safe, simple_mines = find_certain(board)
        result = analyze(board)
        assert simple_safe <= result.safe and simple_mines <= result.mines
        assert not any(real[cell] for cell in result.safe)
        assert all(real[cell] for cell in result.mines)
        for cell in board.cells():
            if board[cell] in (Tile.HIDDEN, Tile.QUESTION):
                chance = result.probability(cell)
                assert chance > 0 if real[cell] else chance < 1
        checked += len(result.safe) + len(result.mines)
    assert checked > 1000


def single_number_deductions(board: Board) -> set[tuple[int, int]]:
    """Cells one number alone decides, found the plain way: for comparison with find_certain."""
    decided = set()
    for cell in board.cells():
        if board[cell].is_number:
            around = list(board.neighbours(cell))
            unknown = [n for n in around if board[n] in (Tile.HIDDEN, Tile.QUESTION)]
            flags = sum(board[n] == Tile.FLAG for n in around)
            if int(board[cell]) - flags in (0, len(unknown)):
                decided.update(unknown)
    return decided


@settings(max_examples=300, deadline=None)
@given(small_positions)
def test_find_certain_includes_every_single_number_deduction(board: Board) -> None:
    safe, mines = find_certain(board)
    assert single_number_deductions(board) <= safe | mines
    assert not safe & mines


@pytest.mark.parametrize(
    ("rows", "mines", "safe", "certain_mines"),
    [
        # 1-2-1 against a wall: the mines sit under the 1s.
        (["UUUUU", "11211", "00000"], 2, {(0, 0), (0, 2), (0, 4)}, {(0, 1), (0, 3)}),
        # subset rule: each 1 sees a subset of the 2's cells, so the 2's extra cells are mines.
        (["UUU", "121", "000"], 2, {(0, 1)}, {(0, 0), (0, 2)}),
        # the mine counter: no mines left, so even cells touching no number are safe.
        (["UUUUU", "F1000", "11000", "00000"], 1, {(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)}, set()),
    ],
)
def test_find_certain_on_classic_patterns(
    rows: list[str], mines: int, safe: set[tuple[int, int]], certain_mines: set[tuple[int, int]]
) -> None:
    board = Board.from_rows(rows, mines)
    found_safe, found_mines = find_certain(board)
    assert safe <= found_safe and certain_mines <= found_mines
    result = analyze(board)
    assert found_safe <= result.safe and found_mines <= result.mines
