"""One game in play: its board as last read, the reads made during it, and the last burst's
clicks. The play loop keeps one per game (:class:`controller.loop.GamePlayer` keeps what lasts
the whole run); a game that cannot go on ends by :class:`GameAborted`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from calibration.learn_in_play import with_labels
from controller.outcomes import Result
from solver import Board, Cell, GameState, Tile
from solver.engine import neighbour_counts
from solver.strategy import Action, Move
from vision.read import Reading


class GameAborted(Exception):
    """A game ended before won or lost; ``result`` says how, the message why."""

    def __init__(self, result: Result, message: str) -> None:
        super().__init__(message)
        self.result = result


REFUSED_BURSTS = 3
"""Bursts (or new-game actions) in a row whose first click is refused with the board read fine
in between: the game keeps changing under the bot (an animation, something drawn over it), so
the game is stopped."""


@dataclass
class GameInPlay:
    """The state of one game, from its first read to its end."""

    game_id: int
    """Its row in the outcome log."""
    board: Board
    """The board as last read."""
    reads: list[Reading] = field(default_factory=list)
    """The reads of the game after each burst, in order (checked against its end)."""
    clicked: set[Cell] = field(default_factory=set)
    """The cells the last burst clicked to open (or chord)."""
    flagged: set[Cell] = field(default_factory=set)
    """The cells the last burst flagged."""
    guessed: bool = False
    """Whether the last burst opened a cell not known safe."""

    def remember(self, clicked: Sequence[Move]) -> None:
        """Which cells a burst just opened and which it flagged: a picture no tile matches on
        one of them may be the game's picture of what the click did (see
        :meth:`controller.reading.PatientReader._adopt`). A chord opens the closed cells
        around its number on the board as read."""
        self.clicked = {move.cell for move in clicked if move.action != Action.FLAG}
        for move in clicked:
            if move.action == Action.CHORD:
                self.clicked.update(
                    near for near in self.board.neighbours(move.cell) if self.board[near].is_closed
                )
        self.flagged = {move.cell for move in clicked if move.action == Action.FLAG}
        self.guessed = any(move.is_guess for move in clicked)

    def logged_board(self) -> Board:
        """The board as the outcome log keeps it (see
        :func:`calibration.learn_in_play.with_labels`)."""
        return with_labels(self.board)


def untaken(moves: Sequence[Move], board: Board) -> list[Move]:
    """The moves whose effect the board does not show (chords have no single effect to see)."""
    closed = board.closed
    return [
        move
        for move in moves
        if (move.action == Action.OPEN and closed[move.cell])
        or (move.action == Action.FLAG and board[move.cell] != Tile.FLAG)
    ]


def zeros_beside_hidden(board: Board) -> list[Cell]:
    """The 0s beside a hidden cell, in reading order: every game opens a 0's neighbours by
    itself, so each is a number the game has not drawn yet, one drawn like the 0, or a misread."""
    beside_hidden = (board.tiles == Tile.ZERO) & (neighbour_counts(board.tiles == Tile.HIDDEN) > 0)
    return [(int(row), int(column)) for row, column in np.argwhere(beside_hidden)]


def number_not_drawn_yet(board: Board) -> Cell | None:
    """The first of :func:`zeros_beside_hidden`, if any."""
    return next(iter(zeros_beside_hidden(board)), None)


def won_by_its_flags(reading: Reading) -> Reading:
    """``reading`` as the win it shows, if it shows one no face says: no face read, no mine
    shown, and as many flags as mines, some of them drawn as the skin's wrong flag. Such a game
    ended won once every mine was flagged (whatever cells were still closed) and redrew its
    flags as a finished game draws them: a game of toolkit buttons disables them all, and a
    disabled button draws its flag in another ink, the one a loss gives a wrong flag. They are
    flags: the bot flags only proven mines, and a loss shows a mine."""
    board = reading.board
    tiles = board.tiles
    redrawn = tiles == Tile.WRONG_FLAG
    if reading.face is not None or not redrawn.any():
        return reading
    if np.isin(tiles, (Tile.MINE, Tile.EXPLODED)).any():
        return reading
    if int(redrawn.sum()) + int((tiles == Tile.FLAG).sum()) != board.mines:
        return reading
    flags = np.where(redrawn, np.uint8(Tile.FLAG), tiles).astype(tiles.dtype)
    won = Board(board.rows, board.columns, board.mines, flags)
    return replace(reading, board=won, face=GameState.WON)


def won_with_its_mines_shown(reading: Reading, clicked: set[Cell]) -> Reading:
    """``reading`` as the win it shows, if it shows one no face says: no face read, no cell
    left closed, as many mines shown as the board has, and none of them on a cell the last
    burst ``clicked``. A game that draws every mine as the one hit, and shows every cell once
    it is over, draws a win as it draws a loss but for the mine hit; the bot opens only cells
    it proved safe or guessed, so a mine under none of its clicks was not hit."""
    board = reading.board
    if reading.face is not None or not clicked or board.unopened.any():
        return reading  # in play, most reads: looked at before any cell is
    tiles = board.tiles
    mines = np.isin(tiles, (Tile.MINE, Tile.EXPLODED))
    if int(mines.sum()) != board.mines or any(mines[cell] for cell in clicked):
        return reading
    flags = np.where(mines, np.uint8(Tile.FLAG), tiles).astype(tiles.dtype)
    won = Board(board.rows, board.columns, board.mines, flags)
    return replace(reading, board=won, face=GameState.WON)
