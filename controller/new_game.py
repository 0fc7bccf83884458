"""Starting a new game in play: the board shown if it is untouched, else the skin's new-game
action (a key, the face, a point beside the board; see :meth:`controller.table.Table.new_game`),
judged by the board it shows after.

Calibration finds which action a game takes (:mod:`calibration.new_game_ways`); here it is
used, and a new game is recognised by what the board shows, not by the action sent.
"""

from __future__ import annotations

import numpy as np

from controller.errors import NotAsRead
from controller.game import REFUSED_BURSTS, GameAborted
from controller.outcomes import Result
from controller.reading import PatientReader
from solver import Board, GameState, Tile
from vision.errors import UnreadableCellError
from vision.read import Reading

NEW_GAME_TRIES = 2
"""New-game actions sent before the run gives up: a game busy finishing the last one may miss
the first."""


def fresh_board(reader: PatientReader) -> Board:
    """The board of a new game (see :func:`_new_board`), found whole: the board found may be
    part of it (:meth:`controller.table.Table.check_whole`), and is then read whole; with the
    mine count the game shows, where play reads it
    (:meth:`controller.table.Table.read_mine_count`)."""
    board = _new_board(reader)
    if reader.table.check_whole():
        reader.stopwatch.counts["boards found whole at a new game"] += 1
        board = reader.look().board
    count = reader.table.read_mine_count()  # a game may lay a new count for each game
    if count is not None and count != board.mines:
        reader.stopwatch.counts["new mine counts read"] += 1
        board = Board(board.rows, board.columns, count, board.tiles)
    return board


def _new_board(reader: PatientReader) -> Board:
    """The board of a new game: the one shown if untouched, else one started the skin's way.

    Some games open a starting area by themselves, so a new game is recognised
    as a board still playing, without marks, that the new-game action changed. A game busy
    finishing the last one may miss the action; it is tried again.
    """
    reading = _shown(reader)
    if reading is not None and reading.outcome == GameState.PLAYING and reading.board.is_fresh:
        return reading.board
    refusals = 0
    attempt = 0
    while attempt < NEW_GAME_TRIES:
        if reader.close_dialogs():  # a score table or a question takes the keys
            reading = _shown(reader)
        try:
            reader.table.new_game(attempt)
        except NotAsRead:
            # The board changed since it was read (a game may flash it after a loss):
            # read it again, and act on what it shows then.
            refusals += 1
            if refusals == REFUSED_BURSTS:
                raise
            reading = _shown(reader)
            if (
                reading is not None
                and reading.outcome == GameState.PLAYING
                and reading.board.is_fresh
            ):
                return reading.board
            continue
        attempt += 1
        after = reader.look_for_change()
        if _is_new_game(None if reading is None else reading.board, after):
            return after.board
        reading = after
    shows = "no board" if reading is None else f"\n{reading.board}"
    raise GameAborted(
        Result.STOPPED,
        f"{NEW_GAME_TRIES} new-game actions did not show a new game; the board shows {shows}",
    )


def _shown(reader: PatientReader) -> Reading | None:
    """The board shown between games; None where a game's end took the board away (the
    table says the game does so, and no cell of it reads): the window shows a message or a
    menu there."""
    if not reader.table.board_goes_away:
        return reader.look()
    try:
        return reader.table.look()
    except UnreadableCellError:
        return None


def _is_new_game(before: Board | None, after: Reading) -> bool:
    """Whether ``after`` (read after a new-game action on ``before``; None: no board was
    shown) shows a new game."""
    if after.outcome != GameState.PLAYING:
        return False
    if before is None:
        return after.board.is_fresh
    marked = np.isin(after.board.tiles, (Tile.FLAG, Tile.QUESTION)).any()
    changed = not np.array_equal(before.tiles, after.board.tiles)
    return after.board.is_fresh or (changed and not marked)
