"""Minesweeper rules and mathematics: board model, game engine, exact analysis, move choice.

The public API (kept stable, other programs drive it)::

    from solver import Board
    board = Board.from_text(text)  # MINESWEEPER-BOARD v0.1 (ms-toollib's standard), JSMinesweeper
    board.to_text()                # MINESWEEPER-BOARD v0.1; to_text("emoji") for the emoji render

This package imports nothing else of autosweeper.
"""

# First: a stale compiled module would be imported by the lines below.
from solver import _build  # noqa: F401
from solver.analysis import Analysis, Group, analyze
from solver.board import LEVELS, Board, Cell, Tile
from solver.deduce import find_certain
from solver.engine import FirstClick, Game, GameState
from solver.errors import AutosweeperError, BoardError, PositionTooLarge, SolverError
from solver.strategy import Action, Move, choose_move, next_moves
from solver.winprob import win_probability

__all__ = [
    "AutosweeperError",
    "SolverError",
    "LEVELS",
    "Board",
    "BoardError",
    "Cell",
    "Tile",
    "FirstClick",
    "Game",
    "GameState",
    "Analysis",
    "Group",
    "analyze",
    "find_certain",
    "Action",
    "Move",
    "choose_move",
    "next_moves",
    "PositionTooLarge",
    "win_probability",
]
