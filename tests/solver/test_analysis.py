"""Exact analysis and cheap deductions, checked against a brute-force count and the real mines."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from bruteforce import (
    BruteForce,
    enumerate_solutions,
    random_position,
    small_positions,
    with_unread,
)
from conftest import BOARDS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import (
    Analysis,
    Board,
    BoardError,
    Cell,
    Game,
    Tile,
    analyze,
    box_order,
    find_certain,
    group_count,
)
from solver import analysis as analysis_module
from solver.analysis import Group
from solver.constraints import read_constraints
from solver.deduce import certain_cells
from solver.settings import current, using
from solver.strategy import next_moves


def assert_matches_brute_force(board: Board, truth: BruteForce | None = None) -> Analysis:
    """The analysis of ``board`` against ``truth``, by default the brute force of ``board``."""
    truth = enumerate_solutions(board) if truth is None else truth
    result = analyze(board)
    assert result.solutions == truth.solutions
    for cell, mined in truth.mined.items():
        assert result.probability(cell) == Fraction(mined, truth.solutions), cell
    expected = np.full(board.tiles.shape, np.nan)
    expected[board.tiles == Tile.FLAG] = 1.0
    for cell, mined in truth.mined.items():
        expected[cell] = mined / truth.solutions
    np.testing.assert_allclose(result.probabilities(), expected, rtol=0, atol=1e-9)
    assert result.safe == {cell for cell, mined in truth.mined.items() if mined == 0}
    assert result.mines == {c for c, mined in truth.mined.items() if mined == truth.solutions}
    assert result.frontier_layout_count == len(truth.frontier_layouts)
    layouts = result.frontier_layouts(limit=len(truth.frontier_layouts))
    assert layouts is not None and len(layouts) == len(truth.frontier_layouts)
    assert set(layouts) == truth.frontier_layouts
    if truth.frontier_layouts:
        assert result.frontier_layouts(limit=len(truth.frontier_layouts) - 1) is None
    for group in result.groups:
        by_mines = Counter(len(mines & group.cells) for mines in truth.solution_mines)
        assert group.solutions_by_mines == by_mines
        assert sum(group.solutions_by_mines.values()) == result.solutions
    return result


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions)
def test_analysis_agrees_with_brute_force_on_small_positions(board: Board) -> None:
    assert_matches_brute_force(board)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions)
def test_analysis_agrees_with_brute_force_on_many_small_positions(board: Board) -> None:
    assert_matches_brute_force(board)


@st.composite
def unread_numbers(draw: st.DrawFn) -> tuple[Board, frozenset[Cell]]:
    """A small position and some of its numbers, which a reader may not know yet."""
    board = draw(small_positions)
    numbers = [cell for cell in board.cells() if board[cell].is_number]
    if not numbers:
        return board, frozenset()
    return board, frozenset(draw(st.lists(st.sampled_from(numbers), unique=True)))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(unread_numbers())
def test_an_unread_number_counts_as_a_safe_cell_without_its_number(
    position: tuple[Board, frozenset[Cell]],
) -> None:
    """Exactly the brute force of the board as read, those numbers only known to be safe; and
    sound: the real layout is one of the solutions, and what is certain holds in it."""
    board, unread = position
    shown = with_unread(board, unread)
    truth = enumerate_solutions(board, unread=unread)
    result = assert_matches_brute_force(shown, truth)
    real = board.real_mines
    assert real is not None
    assert frozenset(cell for cell in board.cells() if real[cell] and board[cell].is_closed) in (
        truth.solution_mines
    )
    assert not any(real[cell] for cell in result.safe)
    assert all(real[cell] for cell in result.mines)
    safe, mines = find_certain(shown)
    assert safe <= result.safe and mines <= result.mines
    for cell in unread:
        assert result.probability(cell) == 0 and np.isnan(result.probabilities()[cell])
    position_read = read_constraints(shown)
    assert position_read.mines_left == board.mines - int((board.tiles == Tile.FLAG).sum())
    assert position_read.unknown_count == int(board.closed.sum())
    assert all(constraint.cell not in unread for constraint in position_read.constraints)


def test_an_unread_number_between_two_cells_leaves_each_an_even_chance() -> None:
    """Read as hidden it would be a third each, read as a 0 impossible."""
    result = analyze(Board.from_rows(["U-U"], mines=1))
    assert result.solutions == 2 and result.safe == set() and result.mines == set()
    assert result.probability((0, 0)) == result.probability((0, 2)) == Fraction(1, 2)
    assert result.probability((0, 1)) == 0


@settings(max_examples=200, deadline=None)
@given(small_positions)
def test_groups_partition_the_undecided_frontier_and_multiply_to_the_layouts(
    board: Board,
) -> None:
    result = analyze(board)
    cells = [group.cells for group in result.groups]
    assert sum(len(c) for c in cells) == len(frozenset().union(*cells))
    settled_safe, settled_mines = find_certain(board)
    for group in result.groups:
        assert group.cells.isdisjoint(result.off_frontier)
        assert group.layout_count == sum(1 for _ in group.layouts())
        assert {len(layout) for layout in group.layouts()} <= set(group.layouts_by_mines)
        assert group.cells.isdisjoint(settled_safe | settled_mines)
    off = [result.probability(cell) for cell in result.off_frontier]
    assert len(set(off)) <= 1


def _table_layouts(group: Group) -> list[frozenset[Cell]]:
    """The rows of a group's layout table, each as the set of its mines."""
    cells, mined = group.layout_table()
    return [frozenset(c for c, mine in zip(cells, row, strict=True) if mine) for row in mined]


@settings(max_examples=200, deadline=None)
@given(small_positions)
def test_a_groups_layout_table_holds_its_layouts(board: Board) -> None:
    for group in analyze(board).groups:
        table = _table_layouts(group)
        assert sorted(group.cells) == list(group.layout_table()[0])
        assert Counter(table) == Counter(group.layouts())


def test_a_layout_table_leaves_out_the_layouts_a_dropped_number_forbids() -> None:
    board = read_fixture("expert_wide_frontier.txt")
    with using(replace(current(), max_states=3)):
        relaxed = analyze(board)
    dropped = [g for g in relaxed.groups if not g.exact and g.layout_count <= 20_000]
    assert dropped
    for group in dropped:
        assert Counter(_table_layouts(group)) == Counter(group.layouts())


def test_off_frontier_cells_are_weighted_by_the_mines_they_can_take() -> None:
    # The 1 puts exactly one mine among its three cells; the other two of the 3 mines go into
    # the four cells touching no number: 3 * C(4, 2) = 18 solutions. A uniform guess over the
    # seven unknown cells would say 3/7 everywhere.
    board = Board.from_rows(["UUUU", "1UUU"], 3)
    result = analyze(board)
    assert result.solutions == 3 * 6
    assert result.off_frontier == {(0, 2), (0, 3), (1, 2), (1, 3)}
    assert result.probability((0, 0)) == result.probability((1, 1)) == Fraction(1, 3)
    assert result.probability((1, 3)) == Fraction(1, 2)
    assert result.probability((1, 0)) == 0


def test_flags_have_probability_one_and_opened_cells_nan() -> None:
    board = Board.from_rows(["F1", "11"], 1)
    result = analyze(board)
    assert result.solutions == 1 and result.probability((0, 0)) == 1
    grid = result.probabilities()
    assert grid[0, 0] == 1.0 and np.isnan(grid[1, 1])


def read_fixture(name: str) -> Board:
    return Board.from_text((BOARDS / name).read_text())


@pytest.mark.parametrize(
    ("name", "cell", "words"),
    [
        ("too_many_flags_around.txt", (1, 1), "flags around"),
        ("too_few_unopened.txt", (1, 2), "only 2 unopened"),
        ("more_flags_than_mines.txt", None, "flags on a board with only"),
        ("more_mines_than_cells.txt", None, "cells are unknown"),
        ("contradicting_numbers.txt", (1, 0), "no placement of"),
        ("second_group_contradicts.txt", (2, 1), "no placement of"),
        ("not_enough_mines.txt", (0, 1), "no placement of the 1 unflagged"),
        ("too_many_mines_for_the_numbers.txt", None, "the numbers need 1 to 1 more mines"),
        ("lost_game.txt", (0, 1), "the game is over"),
    ],
)
def test_impossible_boards_raise_naming_the_first_offending_cell(
    name: str, cell: tuple[int, int] | None, words: str
) -> None:
    board = read_fixture(name)
    with pytest.raises(BoardError) as caught:
        analyze(board)
    assert caught.value.cell == cell
    assert words in str(caught.value)
    with pytest.raises(BoardError):
        find_certain(board)


def test_hard_expert_position_matches_ms_toollib() -> None:
    ms_toollib = pytest.importorskip("ms_toollib")
    board = read_fixture("expert_wide_frontier.txt")
    result = analyze(board)
    assert result.exact
    ours = result.probabilities()
    theirs = np.array(ms_toollib.cal_probability_onboard(ms_toollib_grid(board), board.mines)[0])
    hidden = board.tiles == Tile.HIDDEN
    np.testing.assert_allclose(ours[hidden], theirs[hidden], rtol=0, atol=1e-9)


def ms_toollib_grid(board: Board) -> list[list[int]]:
    """ms-toollib's board form: numbers as they are, 10 for a hidden cell (found by experiment:
    it also reads 11 as a flag but treats it as hidden, so the boards compared carry none)."""
    assert not np.isin(board.tiles, (Tile.FLAG, Tile.QUESTION)).any()
    return [[int(t) if t <= Tile.EIGHT else 10 for t in row] for row in board.tiles]


@pytest.mark.parametrize("seed", range(3))
def test_probabilities_match_ms_toollib_on_positions_from_expert_play(seed: int) -> None:
    ms_toollib = pytest.importorskip("ms_toollib")
    rng = random.Random(seed)
    for _ in range(15):
        board = random_position(rng, 16, 30, 99, rng.randint(1, 40))
        theirs = np.array(
            ms_toollib.cal_probability_onboard(ms_toollib_grid(board), board.mines)[0]
        )
        hidden = board.tiles == Tile.HIDDEN
        np.testing.assert_allclose(
            analyze(board).probabilities()[hidden], theirs[hidden], rtol=0, atol=1e-9
        )


def test_too_big_groups_fall_back_to_fewer_numbers_and_stay_sound() -> None:
    board = read_fixture("expert_wide_frontier.txt")
    exact = analyze(board)
    with using(replace(current(), max_states=3)):
        relaxed = analyze(board)
    assert not relaxed.exact and any(not group.exact for group in relaxed.groups)
    assert relaxed.solutions >= exact.solutions
    assert relaxed.safe <= exact.safe and relaxed.mines <= exact.mines
    assert board.real_mines is not None
    assert not any(board.real_mines[cell] for cell in relaxed.safe)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), openings=st.integers(1, 30))
def test_state_bound_holds_on_expert_positions(seed: int, openings: int) -> None:
    """The fallback relies on the bound: a count whose bound fits is never cut short."""
    board = random_position(random.Random(seed), 16, 30, 99, openings)
    constraints = read_constraints(board).constraints
    for numbers in group_count._split_into_groups(constraints):
        cells = {cell for constraint in numbers for cell in constraint.unknown}
        boxes, box_numbers = group_count._boxes(cells, numbers)
        needs = [constraint.mines for constraint in numbers]
        sizes = [len(b) for b in boxes]
        order, bound = box_order.order_boxes(box_numbers, sizes, needs, current())
        limits = current().max_group_work, current().max_states
        count = group_count.GroupCount(boxes, box_numbers, needs, board.mines, order, *limits)
        assert sum(len(table) for table in count.forward[1:]) <= bound


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["safe", "opening"])
def test_expert_play_never_opens_a_mine_called_safe_and_matches_ms_toollib(rule: str) -> None:
    """Whole Expert games: every certain cell checked against the real mines, every analysis
    against ms-toollib, every decision timed."""
    ms_toollib = pytest.importorskip("ms_toollib")
    slowest = 0.0
    for seed in range(150):
        game = Game.level("expert", rule=rule, seed=seed)
        game.open((7, 15))
        while not game.is_over:
            layout = game.mine_layout
            assert layout is not None
            safe, mines = find_certain(game.board)
            if not safe:
                started = time.perf_counter()
                result = analyze(game.board)
                slowest = max(slowest, time.perf_counter() - started)
                assert safe <= result.safe and mines <= result.mines
                safe, mines = result.safe, result.mines
                theirs = ms_toollib.cal_probability_onboard(
                    ms_toollib_grid(game.board), game.mines
                )[0]
                hidden = game.board.tiles == Tile.HIDDEN
                np.testing.assert_allclose(
                    result.probabilities()[hidden], np.array(theirs)[hidden], atol=1e-9
                )
            assert not any(layout[cell] for cell in safe)
            assert all(layout[cell] for cell in mines)
            if safe:
                for cell in safe:
                    game.open(cell)
            else:
                chances = np.where(game.board.tiles == Tile.HIDDEN, result.probabilities(), 2)
                game.open(divmod(int(np.argmin(chances)), game.columns))
    assert slowest < 2.0


def test_analysis_keeps_describing_the_board_it_was_given() -> None:
    game = Game.level("beginner", seed=3)
    game.open((0, 0))
    snapshot = game.board.copy()
    result = analyze(game.board)
    game.open(min(result.safe))
    assert result.board == snapshot and result.board != game.board
    assert result.mined_solutions(min(result.safe)) == 0


def same_analysis(a: Analysis, b: Analysis) -> bool:
    """Two analyses say the same: counts, certain cells, groups and every probability."""
    return (
        a.solutions == b.solutions
        and (a.safe, a.mines, a.off_frontier) == (b.safe, b.mines, b.off_frontier)
        and [(g.cells, dict(g.solutions_by_mines)) for g in a.groups]
        == [(g.cells, dict(g.solutions_by_mines)) for g in b.groups]
        and np.array_equal(a.probabilities(), b.probabilities(), equal_nan=True)
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions)
def test_an_analysis_of_a_board_already_read_is_the_analysis_of_the_board(board: Board) -> None:
    position = read_constraints(board.copy())
    assert same_analysis(
        analysis_module.analyze_position(position, certain_cells(position)), analyze(board)
    )


@pytest.mark.parametrize("rule", ["safe", "opening"])
def test_counts_remembered_from_earlier_moves_are_the_counts_made_afresh(rule: str) -> None:
    """Groups met again on later moves (some with fewer mines left than before) are answered
    from memory: the answer must be the one a count from scratch gives."""
    compared = 0
    for seed in range(10):
        game = Game.level("expert", rule, seed=seed)
        while not game.is_over:
            moves = next_moves(game.board, rule)
            if moves[0].is_guess and not game.board.is_fresh:
                remembered = analyze(game.board)
                group_count._count_group_memo.cache_clear()
                assert same_analysis(remembered, analyze(game.board))
                compared += 1
            for move in moves:
                game.open(move.cell)
    assert compared > 20
