"""Reading the board in play, patiently: a stable read of the table, through what games draw
over their boards for a while.

A cell no tile matches may be caught in an animation (a game may flash its board when it ends),
under a message or a dialog, a number or flag first seen in play, the mines of a loss, or the
board may have moved. :class:`PatientReader` tells these apart, in that order, before a game
counts as misread; what it learns on the way goes to the skin through the table (see
:mod:`calibration.learn_in_play`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence, Set

import numpy as np

from calibration.dialogs import DIALOGS_IN_A_ROW, DialogAnswer
from controller.game import (
    GameAborted,
    GameInPlay,
    untaken,
    won_by_its_flags,
    won_with_its_mines_shown,
    zeros_beside_hidden,
)
from controller.outcomes import Result
from controller.stopwatch import Stopwatch
from controller.table import Table
from solver import Board, Cell, GameState, Tile
from solver.engine import neighbour_counts
from solver.strategy import Move
from vision.errors import (
    BoardNotFoundError,
    UnreadableCellError,
    UnreadableFaceError,
    UnstableFrameError,
)
from vision.read import Reading

REREAD_PAUSE = 0.1
"""Seconds between re-reads while the board is not as expected yet (a slow game may lag a
frame)."""
CLICK_CONFIRM_TRIES = 10
"""Re-reads while clicks are not all visible yet: a game busy with a burst of queued clicks on a
loaded machine can hold still between two of them, and take a few tenths of a second more."""
FACE_REREADS = 3
ANIMATION_REREADS = 80
"""Re-reads, :data:`REREAD_PAUSE` apart, of a board with an unreadable cell before it counts as
moved or misread: an end-of-game flash lasts about 0.4 s in the slowest game met, and a message
drawn over the board at a game's end may stay for 4 s and then fade (a "You have lost." or
"Congratulations! You have won!" popup shown for 4000 ms; at 50 re-reads a won game's last
read still found it)."""
STILL_REREADS = 10
"""Re-reads in a row that found the same cells unreadable before those cells are tried as a
number first seen in play (:meth:`PatientReader._adopt`), without waiting out every
:data:`ANIMATION_REREADS`: a flash or a fading message changes, a new number stays (waiting
them all out cost 8 s per number first seen, such as a session's first 5)."""


class PatientReader:
    """Reads one table for the whole run; between games and during one (:attr:`game`)."""

    def __init__(self, table: Table, stopwatch: Stopwatch) -> None:
        self.table = table
        self.stopwatch = stopwatch
        self.game: GameInPlay | None = None
        """The game being played (None between games)."""
        self.ended: Board | None = None
        """The board the last game ended on (None before the first game of the run)."""

    def pause(self) -> None:
        """Give a slow game a moment before the board is read again."""
        with self.stopwatch.stage("reread"):
            time.sleep(REREAD_PAUSE)

    def look(self, changed: bool = False, patience: float | None = None) -> Reading:
        """A stable read (see :meth:`controller.table.Table.look`). An unreadable face is read
        again a few times: while a mouse button is down a game may show a face of its own (a
        surprised "o" mouth), and a slow game can hold it for a frame or two after the click.
        A board won by its flags alone, or showing its mines none of the last clicks hit, is
        read won (:func:`controller.game.won_by_its_flags`,
        :func:`controller.game.won_with_its_mines_shown`)."""
        for _ in range(FACE_REREADS):
            try:
                return self._won(self._read(changed, patience))
            except UnreadableFaceError:
                self.pause()
                changed = False
        try:
            return self._won(self._read(changed))
        except UnreadableFaceError as unreadable:
            raise GameAborted(Result.MISREAD, str(unreadable)) from unreadable

    def _won(self, reading: Reading) -> Reading:
        clicked = set() if self.game is None else self.game.clicked
        return won_with_its_mines_shown(won_by_its_flags(reading), clicked)

    def look_for_change(self, patience: float | None = None) -> Reading:
        """The board once it differs from the last read; if it does not within ``patience``
        seconds (None: the screen's own limit), as it is (whoever waits for the change decides
        what an unchanged board means)."""
        try:
            return self.look(changed=True, patience=patience)
        except UnstableFrameError:
            return self.look()

    def reread_until_taken(self, moves: Sequence[Move]) -> Reading:
        """The first read after ``moves`` that shows them taken or the game over, else the last
        re-read. A game still drawing queued clicks is read again as soon as its board changes
        (waiting at most :data:`REREAD_PAUSE` for that), not a fixed pause later; a board that
        shows them all taken is checked to be drawn whole (:meth:`Table.still_as_read`)."""
        reading = self.look_for_change()
        for _ in range(CLICK_CONFIRM_TRIES):
            if reading.outcome != GameState.PLAYING or not untaken(moves, reading.board):
                break
            reading = self.look_for_change(patience=REREAD_PAUSE)
        taken = reading.outcome == GameState.PLAYING and not untaken(moves, reading.board)
        if taken and not self.table.still_as_read():
            self.stopwatch.counts["boards read again: the game animates"] += 1
            reading = self.look()
        return reading

    def close_dialogs(self) -> int:
        closed = self.table.close_dialogs()
        self.stopwatch.counts["dialogs closed"] += closed
        return closed

    def answer_dialog(self) -> DialogAnswer:
        answer = self.table.answer_dialog()
        if answer == DialogAnswer.ANSWERED:
            self.stopwatch.counts["dialogs answered in the game's window"] += 1
        return answer

    def _read(self, changed: bool, patience: float | None = None) -> Reading:
        """One read. A cell that is unreadable may be caught in an animation (a game may flash
        the whole board when it ends) or under a message: the dialogs are closed, the
        pointer leaves the window (a message may stay while hovered), and the board is read
        again for a while; cells unreadable alike for :data:`STILL_REREADS` re-reads are tried
        as a number first seen in play. Still
        unreadable, the board may have moved: it is looked for once. Found nowhere, the board is
        misread: a tile the skin lacks, or a window closed or covered, look the same from here."""
        try:
            return self.table.look(changed, patience)
        except UnreadableCellError as first:
            unreadable = first
        gone = self._board_gone(unreadable)
        if gone is not None:
            return gone
        self.close_dialogs()  # one may cover the board (a "Game Over" window)
        answer = self.answer_dialog()  # one drawn in the game's window (a browser's)
        answers = int(answer == DialogAnswer.ANSWERED)
        if answer == DialogAnswer.NO_VEIL and unreadable.everywhere:
            found = self._read_where_moved()  # a page that writes "Game over" above its board
            if found is not None:
                return found
        self.table.step_away()  # a message may stay while the pointer rests on it
        still = 0
        for _ in range(ANIMATION_REREADS):
            self.pause()
            try:
                return self.table.look()
            except UnreadableCellError as again:
                still = still + 1 if again.cells == unreadable.cells else 0
                unreadable = again
            if self.close_dialogs():  # one opened late (a best-times table after a prompt)
                still = 0
            if answer == DialogAnswer.ANSWERED and answers < DIALOGS_IN_A_ROW:
                # Answering one dialog may open the next (a name prompt, then a score table).
                answer = self.answer_dialog()
                answers += answer == DialogAnswer.ANSWERED
                still = 0
            if still == STILL_REREADS:
                adopted = self._adopt(unreadable)
                if adopted is not None:
                    return adopted
        adopted = self._adopt(unreadable)
        if adopted is not None:
            return adopted
        try:
            moved = self.table.relocate()
        except BoardNotFoundError as nowhere:
            veiled = f" ({answer.value})" if answer == DialogAnswer.UNANSWERED else ""
            raise GameAborted(
                Result.MISREAD,
                f"{unreadable}{veiled}; and the board is not found elsewhere: {nowhere}",
            ) from unreadable
        if not moved:
            raise GameAborted(Result.MISREAD, str(unreadable)) from unreadable
        return self.table.look()

    def _board_gone(self, unreadable: UnreadableCellError) -> Reading | None:
        """The end of a game whose end takes its board away (:attr:`Table.board_goes_away`),
        when no cell of the board reads. After a burst of cells known safe it is a win (no such
        click hits a mine; their flood may have opened the rest). After a guess, a message
        over the board's place may tell (:meth:`Table.end_message`); where none reads, a loss
        where more cells than mines were left beside the cells clicked (the guess hit a mine,
        or a flood from it finished the board: the message is read first for that), and the
        game is stopped where exactly the mines were left (the guess may have opened the last
        safe cell). None: not such an end."""
        game = self.game
        if game is None or not self.table.board_goes_away or not unreadable.everywhere:
            return None
        board = game.board
        opened = np.zeros(board.tiles.shape, dtype=bool)
        for cell in game.clicked:
            opened[cell] = True
        outcome = GameState.WON
        if game.guessed:
            told = self.table.end_message()
            left = int((board.unopened & ~opened).sum())  # a flagged mine is left too
            if told is not None:
                self.stopwatch.counts["ends a message told"] += 1
                outcome = told
            elif left == board.mines:
                raise GameAborted(
                    Result.STOPPED,
                    "the board went away after a guess that may have opened the last safe "
                    "cell, and no message over it says how the game ended",
                )
            else:
                outcome = GameState.LOST
        self.stopwatch.counts["ends that took the board away"] += 1
        tiles = board.tiles.copy()
        if outcome is GameState.WON:
            tiles[opened & board.closed] = Tile.OPENED
        shown = Board(board.rows, board.columns, board.mines, tiles)
        return Reading(shown, np.zeros(tiles.shape, dtype=np.float32), outcome)

    def _read_where_moved(self) -> Reading | None:
        """The board read where it moved to, when no cell of it could be read where it was and
        it is found elsewhere; None if it is not, or reads no better there (then the board is
        read again for a while, as for an animation, before it is looked for again)."""
        try:
            if not self.table.relocate():
                return None
            reading = self.table.look()
        except (BoardNotFoundError, UnreadableCellError):
            return None
        self.stopwatch.counts["boards found moved at once"] += 1
        return reading

    def _adopt(self, unreadable: UnreadableCellError) -> Reading | None:
        """During a game, a picture no tile matches may be a number first seen now: the board is
        read with such pictures as opened cells of unknown number, but only where a click just
        opened a cell: each was closed, is now read as opened, and was clicked or lies next to
        a 0 (the game's flood); and the game goes on. A board that vanished or was covered, or
        the mines of a loss the skin never saw, are none of that. On cells the last burst
        flagged, and only there, such pictures are the game's flag for their size class (a
        skin may have seen flags on some sizes of cell only); they are learned as flags, never
        as numbers. So are as many as the board has mines where, read as flags, every safe
        cell shows open: the game flagged its mines on its win (a game that takes no flag from
        the bot may). A loss that shows every cell may show a number never seen on closed
        cells no click opened: the rest of the board, read lost, ends the game with those cells
        read as opened cells of unknown number, learning nothing from them. A loss may redraw
        the opened numbers (as one theme does), a cell read as a number showing a
        picture never seen: with the rest read lost, it is that number as a finished game
        draws it, and the skin keeps the picture so. Between games, a new game may open a
        start by itself with such pictures beside its 0s: numbers not learned yet
        too; a finished board is read lost as after its game."""
        cells = unreadable.cells
        game = self.game
        if game is None:
            adopted = self._adopt_opened(cells, set(), "pictures first seen on a new board")
            if adopted is not None:
                return adopted
            board = self.ended
        else:
            board = game.board
            if all(board.closed[cell] for cell in cells):
                flagged = all(cell in game.flagged for cell in cells)
                if flagged or len(cells) == board.mines:
                    learned = self.table.learn_flags(cells, lambda read: flagged or _won(read))
                    if learned is not None:
                        self.stopwatch.counts["flags first seen in play"] += len(cells)
                        return learned
                adopted = self._adopt_opened(cells, game.clicked, "pictures first seen in play")
                if adopted is not None:
                    return adopted
        redrawn = {}
        if board is not None:  # a board read before, in a game of this run
            # Numbers and flags (play's own) a loss may redraw: a flag on a mine, a green cross.
            redrawn = {
                cell: Tile(board[cell])
                for cell in cells
                if board[cell].is_number or board[cell] == Tile.FLAG
            }
            if not all(
                board.closed[cell] or board[cell] == Tile.OPENED
                for cell in cells
                if cell not in redrawn
            ):
                return None
        lost = self.table.read_lost(cells, redrawn)  # also the lost board a new game starts from
        if lost is not None:
            self.stopwatch.counts["cells a loss showed, not read"] += len(cells) - len(redrawn)
            self.stopwatch.counts["numbers or flags a loss redrew, first seen"] += len(redrawn)
        return lost

    def adopt_zeros_beside_hidden(self) -> Reading | None:
        """The game's last read with its 0s beside hidden cells taken as numbers first seen, if
        their pictures then read apart from the skin's 0 (see :meth:`_adopt_opened`); None
        where the skin knows every number, or they read as 0s still (a number not drawn yet).
        A number the skin lacks may be drawn faintly enough to match its 0 (a game that shows
        no mine at its end teaches few numbers in calibration), and no game leaves a 0's
        neighbours hidden: it is such a number, unless the game draws it late."""
        game = self.game
        if game is None or all(len(known) == 8 for known in self.table.known_numbers().values()):
            return None
        cells = tuple(zeros_beside_hidden(game.board))
        return self._adopt_opened(cells, game.clicked, "numbers read as 0s, first seen", True)

    def _adopt_opened(
        self, cells: tuple[Cell, ...], clicked: Set[Cell], counted_as: str, last_read: bool = False
    ) -> Reading | None:
        """The board read with the pictures at ``cells`` as numbers first seen, if each was
        opened by a click (of ``clicked``) or by the game's flood (beside a 0), in a game not
        lost (see :meth:`_adopt`); with ``last_read``, from the frame last read, not the one
        last found unreadable."""

        def opened(reading: Reading) -> bool:
            board = reading.board
            zeros = neighbour_counts(board.tiles == Tile.ZERO) > 0
            return (
                (reading.outcome == GameState.PLAYING or board.is_won)
                and all(board[cell] == Tile.OPENED for cell in cells)
                and all(cell in clicked or zeros[cell] for cell in cells)
            )

        adopted = self.table.adopt_unknown(cells, opened, last_read)
        if adopted is not None:
            self.stopwatch.counts[counted_as] += len(cells)
        return adopted


def _won(reading: Reading) -> bool:
    """Whether ``reading`` shows a game won: every safe cell open, the face not saying lost."""
    return reading.board.is_won and reading.outcome != GameState.LOST
