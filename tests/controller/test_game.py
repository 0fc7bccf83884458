"""Tests of controller/game.py: one game's state as the play loop keeps it."""

from __future__ import annotations

import numpy as np

from controller.game import won_with_its_mines_shown
from solver import Board, GameState, Tile
from vision.read import Reading


def shown_board() -> Reading:
    """A 2x2 board with one mine, every cell shown, each mine drawn as the one hit."""
    tiles = np.array([[Tile.EXPLODED, Tile.ONE], [Tile.ONE, Tile.ONE]], dtype=np.uint8)
    board = Board(2, 2, 1, tiles)
    return Reading(board, np.zeros((2, 2), dtype=np.float32), None)


def test_every_cell_shown_with_no_mine_under_the_last_click_is_a_win() -> None:
    """A game that shows every cell when it ends, each mine drawn as the one hit, draws a win as
    it draws a loss but for the cell clicked (a grid of toolkit buttons, issue 49): the last
    click opened a number, so the game was won, not lost."""
    reading = won_with_its_mines_shown(shown_board(), {(1, 1)})
    assert reading.outcome == GameState.WON
    assert reading.board.tiles[0, 0] == Tile.FLAG


def test_every_cell_shown_with_a_mine_under_the_last_click_is_a_loss() -> None:
    reading = won_with_its_mines_shown(shown_board(), {(0, 0)})
    assert reading.outcome == GameState.LOST
