"""The click planner: a plan opens exactly the safe cells, never a mine, in no more clicks than
single opens, and on tiny boards within one click of the best plan."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Board, Cell, FirstClick, Game, Tile
from solver.bench.play import play_game
from solver.chords import chorded_moves, plan_clicks, possible_chords
from solver.strategy import Action, Move, next_moves


@st.composite
def positions(draw: st.DrawFn) -> tuple[Board, np.ndarray, list[Cell], list[Cell]]:
    """A tiny board part played (numbers true to a mine layout, some mines flagged), some of
    its closed safe cells known safe and some of its mines known (every flag among them)."""
    rows, columns = draw(st.integers(2, 4)), draw(st.integers(2, 5))
    cells = [(r, c) for r in range(rows) for c in range(columns)]
    mines = draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 2))
    layout = np.zeros((rows, columns), dtype=bool)
    for cell in mines:
        layout[cell] = True
    game = Game.from_layout(layout)
    safe_cells = [cell for cell in cells if not layout[cell]]
    opened = st.lists(st.sampled_from(safe_cells), max_size=9) if safe_cells else st.just([])
    for cell in draw(opened):
        game.open(cell)
    flagged = draw(st.sets(st.sampled_from(sorted(mines)))) if mines else set()
    for cell in flagged:
        game.flag(cell)
    board = game.board.copy()
    closed_safe = [cell for cell in safe_cells if board.closed[cell]]
    safe = draw(st.sets(st.sampled_from(closed_safe))) if closed_safe else set()
    known = draw(st.sets(st.sampled_from(sorted(mines)))) if mines else set()
    return board, layout, sorted(safe), sorted(known | flagged)


def opened_by(board: Board, layout: np.ndarray, plan: list[Move]) -> set[Cell]:
    """The cells ``plan`` opens, as a game does but with no 0 opening its neighbours; fails
    on a mine opened."""
    tiles = board.tiles.copy()
    opened: set[Cell] = set()

    def open_cell(cell: Cell) -> None:
        assert not layout[cell], f"{cell} is a mine"
        tiles[cell] = Tile.OPENED
        opened.add(cell)

    for move in plan:
        if move.action is Action.FLAG:
            assert tiles[move.cell] == Tile.HIDDEN
            tiles[move.cell] = Tile.FLAG
        elif move.action is Action.OPEN:
            open_cell(move.cell)
        else:
            around = list(board.neighbours(move.cell))
            assert sum(tiles[near] == Tile.FLAG for near in around) == board[move.cell]
            for near in around:
                if tiles[near] in (Tile.HIDDEN, Tile.QUESTION):
                    open_cell(near)
    return opened


def best_clicks(board: Board, safe: list[Cell], mines: list[Cell]) -> int:
    """The fewest clicks over every set of chords the board allows (brute force)."""
    chords = possible_chords(board, safe, mines)
    best = len(safe)
    for size in range(1, len(chords) + 1):
        for chosen in itertools.combinations(chords, size):
            opens = set().union(*(chord.opens for chord in chosen))
            flags = set().union(*(chord.flags for chord in chosen))
            best = min(best, size + len(flags) + len(set(safe) - opens))
    return best


@settings(max_examples=400, deadline=None)
@given(positions())
def test_a_plan_opens_exactly_the_safe_cells_in_no_more_clicks(
    position: tuple[Board, np.ndarray, list[Cell], list[Cell]],
) -> None:
    board, layout, safe, mines = position
    plan = plan_clicks(board, safe, mines)
    assert opened_by(board, layout, plan) == set(safe)
    assert len(plan) <= len(safe)
    assert len(plan) <= best_clicks(board, safe, mines) + 1


def test_a_chord_is_only_where_the_flags_shown_are_known_mines() -> None:
    board = Board.from_rows(["F1U", "11U", "UUU"], 1)
    assert plan_clicks(board, [(0, 2), (1, 2)], []) == [
        Move((0, 2), Action.OPEN),
        Move((1, 2), Action.OPEN),
    ]


def test_a_chord_that_pays_for_its_flag_is_planned_after_the_single_opens() -> None:
    # the 1 at (1, 1) has one mine at (0, 0) among its neighbours: flag, chord; 7 cells, 2 clicks
    board = Board.from_rows(["UUUU", "U1UU", "UUUU", "UUU0"], 1)
    safe = [cell for cell in board.neighbours((1, 1)) if cell != (0, 0)] + [(3, 2)]
    plan = plan_clicks(board, safe, [(0, 0)])
    assert plan == [
        Move((3, 2), Action.OPEN),
        Move((0, 0), Action.FLAG),
        Move((1, 1), Action.CHORD),
    ]


def test_a_chord_opening_one_cell_is_not_worth_its_click() -> None:
    board = Board.from_rows(["F1", "1U"], 1)
    assert plan_clicks(board, [(1, 1)], [(0, 0)]) == [Move((1, 1), Action.OPEN)]


def test_chorded_play_wins_the_same_games_in_fewer_clicks() -> None:
    def single(board: Board, rule: FirstClick) -> list[Move]:
        return next_moves(board, rule)

    clicks = {single: 0, chorded_moves: 0}
    for seed in range(8):
        games = {
            strategy: play_game(strategy, Game.level("intermediate", FirstClick.SAFE, seed))
            for strategy in clicks
        }
        assert games[single].won == games[chorded_moves].won
        assert games[single].guesses == games[chorded_moves].guesses
        for strategy, outcome in games.items():
            clicks[strategy] += outcome.clicks
    assert clicks[chorded_moves] < clicks[single]
