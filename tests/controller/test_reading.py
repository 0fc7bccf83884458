"""How the patient reader tells the end of a game whose end takes its board away."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest

from controller.game import GameAborted, GameInPlay
from controller.outcomes import Result
from controller.reading import PatientReader
from controller.stopwatch import Stopwatch
from controller.table import Table
from solver import Board, Game, GameState
from solver.strategy import Action, Move
from vision.errors import UnreadableCellError


class GoneTable:
    """A table whose board has gone: every cell unreadable, and a message there, or not."""

    board_goes_away = True

    def __init__(self, message: GameState | None) -> None:
        self.message = message

    def end_message(self) -> GameState | None:
        return self.message


def _gone(board: Board) -> UnreadableCellError:
    cells = tuple((r, c) for r in range(board.rows) for c in range(board.columns))
    return UnreadableCellError("no cell reads", cells[0], Path("x.png"), cells, len(cells))


def _reader(board: Board, clicked: list[Move], message: GameState | None) -> PatientReader:
    reader = PatientReader(cast(Table, GoneTable(message)), Stopwatch())
    reader.game = GameInPlay(1, board)
    reader.game.remember(clicked)
    return reader


def _started() -> Board:
    """A 5x5 board with 3 mines, its corner opened: 24 cells closed."""
    game = Game(5, 5, 3, "safe", seed=3)
    game.open((0, 0))
    return game.board


def _safe_closed() -> list[tuple[int, int]]:
    """The closed cells of :func:`_started`'s board that hold no mine."""
    game = Game(5, 5, 3, "safe", seed=3)
    game.open((0, 0))
    mines = game.mine_layout
    assert mines is not None
    return [
        (r, c) for r in range(5) for c in range(5) if not mines[r, c] and game.board.closed[r, c]
    ]


def test_a_board_gone_after_a_guess_with_more_cells_left_than_mines_is_a_loss() -> None:
    board = _started()
    reader = _reader(board, [Move((4, 4), Action.OPEN, 0.9)], None)
    reading = reader._board_gone(_gone(board))
    assert reading is not None and reading.outcome is GameState.LOST


def test_a_board_gone_after_clicks_on_cells_known_safe_is_a_win_whatever_they_flooded() -> None:
    """No click of the burst could hit a mine: a board gone after it is a win, though the cells
    clicked leave more closed than mines (a 0 among them opened the rest)."""
    board = _started()
    reader = _reader(board, [Move((4, 4), Action.OPEN)], None)
    reading = reader._board_gone(_gone(board))
    assert reading is not None and reading.outcome is GameState.WON


def test_a_board_gone_after_a_guess_is_what_the_message_over_it_says() -> None:
    board = _started()
    reader = _reader(board, [Move((4, 4), Action.OPEN, 0.9)], GameState.WON)
    reading = reader._board_gone(_gone(board))
    assert reading is not None and reading.outcome is GameState.WON


def test_a_board_gone_after_a_guess_on_the_last_safe_cell_stops_the_game_unless_told() -> None:
    board, safe = _started(), _safe_closed()
    clicked = [Move(cell, Action.OPEN) for cell in safe[:-1]] + [Move(safe[-1], Action.OPEN, 0.5)]
    reader = _reader(board, clicked, None)
    with pytest.raises(GameAborted) as stopped:
        reader._board_gone(_gone(board))
    assert stopped.value.result is Result.STOPPED


def test_a_board_gone_after_the_last_safe_cell_opened_for_sure_is_a_win() -> None:
    board, safe = _started(), _safe_closed()
    reader = _reader(board, [Move(cell, Action.OPEN) for cell in safe], None)
    reading = reader._board_gone(_gone(board))
    assert reading is not None and reading.outcome is GameState.WON
