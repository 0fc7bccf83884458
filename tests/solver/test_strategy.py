"""Move choice: certain moves are really safe, guesses only when needed and among the safest."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Board, BoardError, Tile
from solver.analysis import analyze
from solver.engine import FirstClick, Game, GameState
from solver.errors import MoveError
from solver.settings import current
from solver.strategy import (
    Action,
    Move,
    choose_move,
    first_click,
    next_moves,
)
from solver.winprob import win_probability

SMALL_GAMES = [(9, 9, 10), (8, 8, 12), (6, 10, 12)]


def play_and_check(game: Game, rule: str, flags: bool = False) -> int:
    """Play ``game`` to the end with next_moves, checking every decision; return guesses made."""
    guesses = 0
    while not game.is_over:
        board = game.board
        moves = next_moves(board, rule, flags=flags)
        assert moves, "a game in progress always has a move"
        opens = [m for m in moves if m.action is Action.OPEN]
        assert sum(m.is_guess for m in moves) <= 1
        layout = game.mine_layout
        if board.is_fresh:
            assert len(opens) == 1 and opens[0].cell == first_click(board, rule)
        else:
            analysis = analyze(board)
            assert layout is not None
            for move in moves:
                if move.action is Action.FLAG:
                    assert layout[move.cell] and move.cell in analysis.mines
                elif not move.is_guess:
                    assert not layout[move.cell] and move.cell in analysis.safe
            if analysis.safe:
                assert not any(m.is_guess for m in moves)
            else:
                (guess,) = opens
                assert guess.is_guess
                assert guess.safety == pytest.approx(float(1 - analysis.probability(guess.cell)))
                guesses += 1
        for move in moves:
            if move.action is Action.FLAG:
                game.flag(move.cell)
            else:
                game.open(move.cell)
            if game.is_over:
                break
    return guesses


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SMALL_GAMES), st.sampled_from(list(FirstClick)), st.integers(0, 2**32 - 1))
def test_certain_moves_are_safe_and_guesses_only_when_nothing_is_certain(
    size: tuple[int, int, int], rule: FirstClick, seed: int
) -> None:
    rows, columns, mines = size
    play_and_check(Game(rows, columns, mines, rule, seed), str(rule))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_flags_are_offered_on_request_and_are_real_mines(seed: int) -> None:
    play_and_check(Game(9, 9, 10, FirstClick.SAFE, seed), "safe", flags=True)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([*SMALL_GAMES, (16, 16, 40)]),
    st.sampled_from(list(FirstClick)),
    st.integers(0, 2**32 - 1),
    st.sets(st.integers(0, 8), min_size=1),
)
def test_numbers_the_reader_has_not_learned_never_make_a_mine_look_safe(
    size: tuple[int, int, int], rule: FirstClick, seed: int, unlearned: set[int]
) -> None:
    """Play as a skin that has not learned some numbers' pictures sees the game: those numbers
    show as opened cells of unknown number. Certain moves stay right, moves only touch closed
    cells, and the board reads as won exactly when the game is."""
    game = Game(*size, rule, seed)

    def seen() -> Board:
        board = game.board.copy()
        board.tiles[np.isin(board.tiles, list(unlearned))] = Tile.OPENED
        return board

    while not game.is_over:
        board = seen()
        moves = next_moves(board, rule, flags=True)
        assert moves and sum(move.is_guess for move in moves) <= 1
        layout = game.mine_layout
        for move in moves:
            assert board[move.cell].is_closed
            if layout is not None and not move.is_guess:
                assert layout[move.cell] == (move.action is Action.FLAG)
        for move in moves:
            (game.flag if move.action is Action.FLAG else game.open)(move.cell)
            if game.is_over:
                break
    assert seen().is_won == (game.state is GameState.WON)
    assert seen().is_lost == (game.state is GameState.LOST)
    assert next_moves(seen(), rule) == []


def guess_positions(count: int) -> list[Board]:
    """Positions where the next move is a guess, from seeded Intermediate games."""
    found: list[Board] = []
    seed = 0
    while len(found) < count:
        game = Game(16, 16, 40, FirstClick.SAFE, seed)
        seed += 1
        while not game.is_over:
            moves = next_moves(game.board)
            if any(m.is_guess for m in moves) and not game.board.is_fresh:
                found.append(game.board.copy())
            for move in moves:
                game.open(move.cell)
    return found[:count]


@pytest.fixture(scope="module")
def guesses() -> list[Board]:
    return guess_positions(30)


def test_a_guess_is_among_the_safest_cells_or_wins_most_often(guesses: list[Board]) -> None:
    """Outside the endgame the guess is within candidate_safety_ratio of the safest cell; in the
    endgame (few layouts) best play after it wins as often as the position allows."""
    endgames = 0
    for board in guesses:
        analysis = analyze(board)
        cell = choose_move(board)
        assert board[cell] == Tile.HIDDEN
        if analysis.solutions > current().endgame_layouts:
            safest = 1 - min(analysis.probability(c) for c in _unknown(board))
            assert 1 - analysis.probability(cell) >= current().candidate_safety_ratio * safest
            continue
        endgames += 1
        won = Fraction(0)
        for shown in range(9):
            after = board.copy()
            after.tiles[cell] = shown
            try:
                chance_shown = Fraction(analyze(after).solutions, analysis.solutions)
            except BoardError:
                continue
            won += chance_shown * win_probability(after)
        assert won == win_probability(board)
    assert endgames, "the sample should reach the endgame search at least once"


def _unknown(board: Board) -> list[tuple[int, int]]:
    return [cell for cell in board.cells() if board[cell] == Tile.HIDDEN]


def test_first_click_is_a_corner_or_an_inner_cell_for_openings() -> None:
    expert = Board.empty(16, 30, 99)
    assert first_click(expert, "safe") == (0, 0)
    assert first_click(expert, "xp") == (0, 0)
    assert first_click(expert, "opening") == (3, 3)
    assert next_moves(expert, "none")[0].is_guess
    assert not next_moves(expert, "safe")[0].is_guess


def test_finished_games_have_no_moves() -> None:
    assert next_moves(Board.from_rows(["1X", "11"], mines=1)) == []
    assert next_moves(Board.from_rows(["1F", "11"], mines=1)) == []


def test_a_certain_cell_beats_any_guess() -> None:
    board = Board.from_rows(["1UU", "1UU", "UUU"], mines=1)
    moves = next_moves(board)
    assert moves and not any(move.is_guess for move in moves)
    assert choose_move(board) in {move.cell for move in moves}


def test_move_is_a_value() -> None:
    assert Move((1, 2), Action.OPEN) == Move((1, 2), Action.OPEN, 1.0)
    assert Move((1, 2), Action.OPEN, 0.5).is_guess


@given(
    st.tuples(st.integers(0, 200), st.integers(0, 200)),
    st.sampled_from(list(Action)),
    st.one_of(st.just(1.0), st.floats(0.0, 1.0, exclude_max=True)),
)
def test_a_move_reads_back_from_its_text(
    cell: tuple[int, int], action: Action, safety: float
) -> None:
    move = Move(cell, action, safety)
    assert Move.from_text(move.text()) == move
    assert str(move) == move.text()


def test_a_move_text_names_action_cell_and_a_guess_safety() -> None:
    assert Move((3, 4), Action.OPEN).text() == "open 3,4"
    assert Move((0, 12), Action.FLAG).text() == "flag 0,12"
    assert Move((7, 1), Action.OPEN, 0.8125).text() == "open 7,1 safety=0.8125"


@pytest.mark.parametrize(
    "text", ["open 3", "drop 1,1", "open -1,2", "open 3,4 safety=1.0", "open 3,4 safety=x", ""]
)
def test_text_that_is_not_a_move_is_refused_naming_it(text: str) -> None:
    with pytest.raises(MoveError, match=re.escape(repr(text))):
        Move.from_text(text)
