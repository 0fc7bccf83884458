"""The exact win probability against a textbook minimax on tiny boards, and known positions."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np
import pytest
from bruteforce import with_unread
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Board, BoardError, Game, Tile, winprob
from solver.analysis import analyze
from solver.engine import neighbour_counts
from solver.errors import PositionTooLarge
from solver.layouts import consistent_layouts
from solver.settings import current, using
from solver.winprob import best_guess, guess_values, win_probability


def _layouts(board: Board) -> list[tuple[frozenset, np.ndarray]]:
    """Every placement of the board's mines, with the number each cell would show."""
    cells = [(r, c) for r in range(board.rows) for c in range(board.columns)]
    out = []
    for chosen in combinations(cells, board.mines):
        mines = np.zeros((board.rows, board.columns), dtype=bool)
        for cell in chosen:
            mines[cell] = True
        out.append((frozenset(chosen), neighbour_counts(mines)))
    return out


def _minimax(board: Board, layouts: list[tuple[frozenset, np.ndarray]]):  # noqa: ANN202
    """Best play by the definition over equally likely layouts (repeats allowed).

    Open any unopened cell, average over what it shows. No free openings, no pruning, no flood
    fill (which only opens safe cells a best player would open anyway): a state is the opened
    cells and the layouts still possible. Returns the value of a state and what opening one
    cell in it wins (a count of layouts, by which it is then averaged).
    """
    cells = [(r, c) for r in range(board.rows) for c in range(board.columns)]

    @cache
    def value(opened: frozenset, possible: frozenset[int]) -> Fraction:
        if len(cells) - len(opened) == board.mines:
            return Fraction(1)
        best = Fraction(0)
        for cell in cells:
            if cell not in opened:
                best = max(best, won_by_opening(opened, possible, cell) / len(possible))
        return best

    def won_by_opening(opened: frozenset, possible: frozenset[int], cell: tuple) -> Fraction:
        """The layouts of ``possible`` (a count) that opening ``cell`` and then best play win."""
        shown: dict[int, list[int]] = {}
        for k in possible:
            mines, numbers = layouts[k]
            if cell not in mines:
                shown.setdefault(int(numbers[cell]), []).append(k)
        return sum(
            (len(ks) * value(opened | {cell}, frozenset(ks)) for ks in shown.values()), Fraction(0)
        )

    return value, won_by_opening


def _consistent(board: Board) -> tuple[frozenset, list[tuple[frozenset, np.ndarray]]]:
    """The opened cells of a board, and every layout that fits it (a flag is a mine in each;
    an opened cell whose number is not known only safe, and never shows its number)."""
    cells = list(np.ndindex(board.rows, board.columns))
    opened = frozenset(cell for cell in cells if board[cell] <= 8 or board[cell] == Tile.OPENED)
    flagged = frozenset(
        cell for cell in np.ndindex(board.rows, board.columns) if board[cell] == Tile.FLAG
    )
    layouts = [
        (mines, numbers)
        for mines, numbers in _layouts(board)
        if flagged <= mines
        and opened.isdisjoint(mines)
        and all(numbers[cell] == board[cell] for cell in opened if board[cell] <= 8)
    ]
    return opened, layouts


def brute_force_win_probability(board: Board) -> Fraction:
    """The minimax value of an opened board, every consistent layout equally likely."""
    opened, layouts = _consistent(board)
    value, _ = _minimax(board, layouts)
    return value(opened, frozenset(range(len(layouts))))


def brute_force_cell_values(board: Board) -> dict[tuple[int, int], Fraction]:
    """For each hidden cell, the chance of winning by opening it first, then playing best."""
    opened, layouts = _consistent(board)
    _, won_by_opening = _minimax(board, layouts)
    every = frozenset(range(len(layouts)))
    return {
        cell: won_by_opening(opened, every, cell) / len(layouts)
        for cell in np.ndindex(board.rows, board.columns)
        if board[cell] == Tile.HIDDEN
    }


def brute_force_fresh_board(board: Board, rule: str) -> Fraction:
    """The best first click under ``rule`` followed by best play, by the minimax above."""
    best = Fraction(0)
    for first in np.ndindex(board.rows, board.columns):
        met = []  # the layouts the first click meets, with repeats for xp's moved mines
        for mines, numbers in _layouts(board):
            block = {first, *board.neighbours(first)}
            if rule == "safe" and first in mines or rule == "opening" and mines & block:
                continue
            if rule == "xp" and first in mines:
                free = next(c for c in np.ndindex(board.rows, board.columns) if c not in mines)
                mines = (mines - {first}) | {free}
                grid = np.zeros((board.rows, board.columns), dtype=bool)
                grid[tuple(np.array(sorted(mines)).T)] = True
                numbers = neighbour_counts(grid)
            met.append((mines, numbers))
        if not met:
            continue
        _, won_by_opening = _minimax(board, met)
        won = won_by_opening(frozenset(), frozenset(range(len(met))), first)
        best = max(best, won / len(met))
    return best


@st.composite
def tiny_positions(draw: st.DrawFn, flags: bool = False, most_rows: int = 2) -> Board:
    """A real game on at most ``most_rows`` x 4 cells, some of its safe cells opened (and, with
    ``flags``, some of its mines flagged)."""
    rows = draw(st.integers(1, most_rows))
    columns = draw(st.integers(3, 4))
    mines = draw(st.integers(1, rows * columns - 2))
    flat = np.zeros(rows * columns, dtype=bool)
    flat[draw(st.permutations(range(rows * columns)))[:mines]] = True
    layout = flat.reshape(rows, columns)
    numbers = neighbour_counts(layout)
    tiles = np.full((rows, columns), Tile.HIDDEN, dtype=np.uint8)
    safe = [(r, c) for r in range(rows) for c in range(columns) if not layout[r, c]]
    for cell in draw(st.lists(st.sampled_from(safe), min_size=1, unique=True)):
        tiles[cell] = numbers[cell]
    if flags:
        mined = [(r, c) for r in range(rows) for c in range(columns) if layout[r, c]]
        for cell in draw(st.lists(st.sampled_from(mined), min_size=1, unique=True)):
            tiles[cell] = Tile.FLAG
    return Board(rows, columns, mines, tiles)


@settings(max_examples=150, deadline=None)
@given(tiny_positions())
def test_win_probability_matches_brute_force_minimax(board: Board) -> None:
    assert win_probability(board) == brute_force_win_probability(board)


@settings(max_examples=150, deadline=None)
@given(tiny_positions(most_rows=3))
def test_twelve_cell_positions_match_brute_force_minimax(board: Board) -> None:
    """Room for cells that can only ever show one number, which the search tries last."""
    assert win_probability(board) == brute_force_win_probability(board)


@settings(max_examples=150, deadline=None)
@given(tiny_positions(most_rows=3), st.data())
def test_unread_numbers_are_searched_as_safe_cells_that_never_tell_their_number(
    board: Board, data: st.DataObject
) -> None:
    """Best play from a board whose reader has not learned some numbers: it never learns them
    in the search either (the information is lost, never assumed), so knowing them would win
    at least as often."""
    numbers = [cell for cell in board.cells() if board[cell].is_number]
    cells = sorted(frozenset(data.draw(st.lists(st.sampled_from(numbers)))))
    unread = with_unread(board, frozenset(cells))
    chance = win_probability(unread)
    assert chance == brute_force_win_probability(unread)
    _, layouts = _consistent(unread)
    shown = Counter(tuple(int(numbers[cell]) for cell in cells) for _, numbers in layouts)
    known = Fraction(0)
    for values, count in shown.items():
        read = unread.copy()
        for cell, value in zip(cells, values, strict=True):
            read.tiles[cell] = value
        known += count * win_probability(read)
    assert known >= chance * len(layouts)
    searched = consistent_layouts(unread, _unknown_index(unread), winprob.MAX_LAYOUTS)
    assert len(searched) == analyze(unread).solutions
    assert guess_values(unread) == {
        cell: value
        for cell, value in brute_force_cell_values(unread).items()
        if 0 < analyze(unread).probability(cell) < 1
    }


@settings(max_examples=100, deadline=None)
@given(tiny_positions(flags=True))
def test_flags_count_as_mines_as_in_the_analysis(board: Board) -> None:
    assert win_probability(board) == brute_force_win_probability(board)
    layouts = consistent_layouts(board, _unknown_index(board), winprob.MAX_LAYOUTS)
    assert len(layouts) == analyze(board).solutions


def test_a_flag_beside_a_number_is_one_of_its_mines() -> None:
    # the flag satisfies the 1, so the cell on its right is safe: a certain win, not a 50/50
    assert win_probability(Board.from_rows(["F1U"], mines=1)) == 1


def _unknown_index(board: Board) -> dict[tuple[int, int], int]:
    unknown = [cell for cell in board.cells() if board[cell] in (Tile.HIDDEN, Tile.QUESTION)]
    return {cell: i for i, cell in enumerate(unknown)}


@settings(max_examples=60, deadline=None)
@given(tiny_positions())
def test_best_guess_achieves_the_win_probability(board: Board) -> None:
    """Opening the chosen cell and then playing best wins as often as the position allows."""
    try:
        cell, chance = best_guess(board)
    except ValueError:  # solved already, or only certain safe cells left
        return
    assert chance == win_probability(board)
    assert board[cell] == Tile.HIDDEN


@settings(max_examples=100, deadline=None)
@given(tiny_positions(most_rows=3))
def test_every_undecided_cell_is_valued_as_brute_force_minimax_values_it(board: Board) -> None:
    """Each cell's own value, not just the best: the regret measure compares a choice with it."""
    values = guess_values(board)
    expected = brute_force_cell_values(board)
    analysis = analyze(board)
    undecided = {cell for cell in expected if 0 < analysis.probability(cell) < 1}
    assert values == {cell: expected[cell] for cell in undecided}
    if values and not analysis.safe:
        assert max(values.values()) == win_probability(board)


def test_pure_fifty_fifty_is_one_half() -> None:
    board = Board.from_rows(["1U", "1U"], mines=1)
    assert win_probability(board) == Fraction(1, 2)


def test_solved_board_and_lost_board() -> None:
    assert win_probability(Board.from_rows(["1U", "11"], mines=1)) == 1
    assert win_probability(Board.from_rows(["UUU", "111"], mines=1)) == 1
    assert win_probability(Board.from_rows(["1X", "11"], mines=1)) == 0


def test_seed_example_prefers_the_informative_side_cell() -> None:
    """Three cells in a row, one mine, no first-click help: a side cell wins 2/3, the middle 1/3."""
    assert win_probability(Board.empty(1, 3, 1), rule="none") == Fraction(2, 3)


@pytest.mark.parametrize("rule", ["safe", "xp", "opening", "none"])
@pytest.mark.parametrize(("rows", "columns", "mines"), [(2, 3, 1), (2, 3, 2), (1, 5, 2), (3, 3, 2)])
def test_fresh_tiny_board_matches_brute_force(
    rule: str, rows: int, columns: int, mines: int
) -> None:
    board = Board.empty(rows, columns, mines)
    assert win_probability(board, rule=rule) == brute_force_fresh_board(board, rule)


def test_too_many_layouts_raise_instead_of_hanging() -> None:
    board = Board.empty(16, 30, 99)
    board.tiles[0, 0] = 0
    board.tiles[0, 1] = board.tiles[1, 0] = board.tiles[1, 1] = 0
    with pytest.raises(PositionTooLarge):
        win_probability(board)
    with pytest.raises(PositionTooLarge):
        win_probability(Board.empty(9, 9, 10))


def test_a_search_past_its_budget_of_layout_visits_gives_up() -> None:
    board = Board.empty(3, 3, 2)
    assert win_probability(board, max_visits=100_000) == brute_force_fresh_board(board, "safe")
    with pytest.raises(PositionTooLarge, match="more than 30 layouts"):
        win_probability(board, max_visits=30)


def test_listing_layouts_past_its_step_cap_gives_up() -> None:
    board = Board.from_rows(["UUUUUU", "111111", "000000"], mines=2)
    assert win_probability(board) == brute_force_win_probability(board)
    few_steps = replace(current(), max_enumeration_steps=5)
    with using(few_steps), pytest.raises(PositionTooLarge, match="steps"):
        win_probability(board)


def test_unknown_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="rule"):
        win_probability(Board.empty(2, 2, 1), rule="vista")


@pytest.mark.parametrize(
    ("rule", "rows", "columns", "mines"),
    [
        ("xp", 2, 2, 4),
        ("safe", 2, 2, 4),
        ("safe", 1, 1, 1),
        ("opening", 2, 2, 1),
    ],
)
def test_a_fresh_board_no_game_of_the_rule_can_deal_is_refused_in_one_line(
    rule: str, rows: int, columns: int, mines: int
) -> None:
    """The engine refuses such a game; the search says so too (xp hit StopIteration)."""
    with pytest.raises(BoardError, match=f"'{rule}' first-click rule") as caught:
        win_probability(Board.empty(rows, columns, mines), rule=rule)
    assert "\n" not in str(caught.value)
    with pytest.raises(BoardError):
        Game(rows, columns, mines, rule)


def test_a_fresh_board_of_mines_alone_is_lost_at_the_first_click_with_no_protection() -> None:
    assert win_probability(Board.empty(2, 2, 4), rule="none") == 0


def _row_of_numbers(columns: int) -> Board:
    """Three rows: hidden cells with a mine in every third column from the second, then their
    numbers, then zeros. With 999 columns only that layout fits: one part of 999 cells."""
    layout = np.zeros((3, columns), dtype=bool)
    layout[0, 1::3] = True
    numbers = neighbour_counts(layout)
    rows = ["U" * columns, *("".join(str(n) for n in row) for row in numbers[1:])]
    return Board.from_rows(rows, mines=int(layout.sum()))


def test_a_frontier_part_of_a_thousand_cells_is_listed_without_recursion() -> None:
    """Listing a part recursed once per cell: past about 1,000 cells, a RecursionError."""
    assert win_probability(_row_of_numbers(999)) == 1


def test_a_thousand_frontier_parts_are_combined_without_recursion() -> None:
    """Combining the parts recursed once per part."""
    board = Board.from_rows(["111" * 1000, "1U1" * 1000, "111" * 1000], mines=1000)
    assert win_probability(board) == 1
