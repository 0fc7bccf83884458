"""The play loop: read the board, ask the solver, click, wait for the game, until won or lost.

The loop talks to the game only through a :class:`Table` (read a stable board, play a move,
start a new game, find the board again), so the same loop plays a real window through
:class:`ScreenTable` and a simulated game in the tests.

Nothing here guesses about the screen: a click is sent only if the screen, captured at that
moment, still shows the game as last read (else the burst stops and the board is read again); a
board the solver finds impossible ends the game as ``misread``, and so does an unreadable cell
unless the board is found again elsewhere (it moved); a screen that cannot be captured, a click
the game did not take even when clicked again, the fail-safe or a stop request end it as
``stopped``. Either way no click follows. Every game is in the outcome log from its first click on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace

import numpy as np

from calibration.dialogs import DIALOGS_IN_A_ROW
from calibration.errors import CalibrationError
from calibration.meanings import check_counting
from calibration.numbers import label_from_play
from controller.errors import ClickOutsideError, NoNewGameAction, NotAsRead
from controller.outcomes import GameSetup, LoggedGame, OutcomeLog, Result
from controller.stopping import KeyWatch, StopRequested
from controller.stopwatch import Stopwatch
from controller.table import DialogAnswer, Table
from solver import Board, BoardError, Cell, GameState, Tile
from solver.bench.stats import format_win_rate
from solver.engine import neighbour_counts
from solver.strategy import Action, Move, next_moves
from vision.errors import (
    BoardNotFoundError,
    CaptureError,
    UnreadableCellError,
    UnreadableFaceError,
    UnstableFrameError,
)
from vision.read import Reading


class NoFreshGame(Exception):
    """No new game could be started: the run cannot go on (no game was logged)."""


class GameAborted(Exception):
    """A game ended before won or lost; ``result`` says how, the message why."""

    def __init__(self, result: Result, message: str) -> None:
        super().__init__(message)
        self.result = result


@dataclass(frozen=True)
class GameReport:
    """A finished game as the live line shows it."""

    record: LoggedGame
    reason: str | None
    """Why the game was not won or lost, when it was not."""


_NEW_GAME_TRIES = 2
_CLICK_CONFIRM_TRIES = 10
"""Re-reads while clicks are not all visible yet: a game busy with a burst of queued clicks on a
loaded machine can hold still between two of them, and take a few tenths of a second more."""
_CLICK_CONFIRM_PAUSE = 0.1
"""Seconds between re-reads while a click is not visible yet (a slow game may lag a frame)."""
_FACE_REREADS = 3
ANIMATION_REREADS = 80
"""Re-reads, :data:`_CLICK_CONFIRM_PAUSE` apart, of a board with an unreadable cell before it
counts as moved or misread: an end-of-game flash lasts about 0.4 s in the slowest game met, and
a message drawn over the board at a game's end may stay for 4 s and then fade (a "You have lost."
or "Congratulations! You have won!" popup shown for 4000 ms; at 50 re-reads a won game's last
read still found it)."""
STILL_REREADS = 10
"""Re-reads in a row that found the same cells unreadable before those cells are tried as a
number first seen in play (:meth:`GamePlayer._adopt`), without waiting out every
:data:`ANIMATION_REREADS`: a flash or a fading message changes, a new number stays (waiting
them all out cost 8 s per number first seen, such as a session's first 5)."""
IMPOSSIBLE_REREADS = 5
"""Re-reads, :data:`_CLICK_CONFIRM_PAUSE` apart, of a board the solver finds impossible before
the game counts as misread (an Expert board was once read with a 0 beside closed cells)."""
_REFUSED_BURSTS = 3
"""Bursts in a row whose first click is refused with the board read fine in between: the game
keeps changing under the bot (an animation, something drawn over it), so the game is stopped."""


class GamePlayer:
    """Plays games on one table and logs each; see the module docstring for what stops it."""

    def __init__(
        self,
        table: Table,
        log: OutcomeLog,
        *,
        flags: bool = False,
        one_game_a_second: bool = True,
        stop_key: KeyWatch | None = None,
        stopwatch: Stopwatch | None = None,
    ) -> None:
        self.table = table
        self.log = log
        self.flags = flags
        self.stop_key = stop_key
        """Checked before every click and every new game: held down, it stops the run."""
        self.stopwatch = stopwatch or Stopwatch()
        self.one_game_a_second = one_game_a_second
        """Start no two games within one clock second. A game may seed its mines with the time
        in whole seconds at the first click, so two games begun in the same second are the same
        game, and a fast bot would count one board twice."""
        self._last_start_second: int | None = None
        self._clicked: set[Cell] = set()
        """The cells the last burst clicked to open (or chord)."""
        self._flagged: set[Cell] = set()
        """The cells the last burst flagged."""
        self._reads: list[Reading] | None = None
        """The reads of the game being played (None between games)."""
        self._ended: Board | None = None
        """The board the last game ended on (None before the first game of the run)."""
        self._won_board_takes_flags: bool | None = None
        """Whether the game took a flag on a board shown won with mines still closed (see
        :meth:`_flag_the_mines_left`); None until such a board was met."""

    def play_game(self) -> GameReport:
        """Start a fresh game, play it to the end, and return its logged record."""
        self._check_stop_key()
        try:
            with _game_errors():
                board = self._fresh_board()
        except GameAborted as aborted:
            raise NoFreshGame(f"could not start a new game: {aborted}") from aborted
        self._wait_for_a_new_second()
        game_id = self.log.start_game(
            GameSetup(
                self.table.game,
                self.table.skin,
                board.rows,
                board.columns,
                board.mines,
                self.table.first_click,
            )
        )
        self._board = board
        self._reads = []
        ended = False
        try:
            with _game_errors():
                result = self._play_to_the_end(game_id, self.table.first_click or "none")
                self.log.record_end(game_id, result, _with_labels(self._board))
                ended = True
                self._learn_won_face(result)
                self._label_new_pictures()
                self._check_reads_against_the_end()
            reason = None
        except GameAborted as aborted:
            result, reason = aborted.result, str(aborted)
        except BaseException as fault:  # a stop, a dialog that stays, the display or disk gone
            self._end_cut_short(game_id, fault, ended)
            raise
        finally:
            self._reads = None
            self._ended = self._board
        final = _with_labels(self._board)
        return GameReport(self.log.finish_game(game_id, result, final, reason), reason)

    def _learn_won_face(self, result: Result) -> None:
        """A game won while its face matched none of the skin's shows the won face: the table
        learns it (see :meth:`Table.learn_won_face`)."""
        reads = self._reads or []
        if result != Result.WON or not reads or reads[-1].face is not None:
            return
        if reads[-1].board is self._board and self.table.learn_won_face():
            self.stopwatch.counts["won faces learned in play"] += 1

    def _end_cut_short(self, game_id: int, fault: BaseException, ended: bool) -> None:
        """Complete the row of a game that ``fault`` cut short, as far as the log still can: a
        game whose end was read keeps it (its result is already written); any other is
        ``stopped`` with the fault as its reason. Should the log itself fail here, the next run
        marks the row ``cut off``; ``fault`` is what the caller raises either way."""
        if ended:
            return
        reason = str(fault) or type(fault).__name__
        with suppress(Exception):
            self.log.finish_game(game_id, Result.STOPPED, _with_labels(self._board), reason)

    def _label_new_pictures(self) -> None:
        """Give the pictures first seen in this game the numbers its boards prove (see
        :func:`calibration.numbers.label_from_play`); the table then reads them so."""
        reads = self._reads or []
        if not any(reading.pictures for reading in reads):
            return
        boards = [(reading.board, reading.pictures) for reading in reads]
        if boards[-1][0] is not self._board:  # the end was read apart from the clicks
            opened = self._board.tiles == Tile.OPENED
            last = {cell: picture for cell, picture in boards[-1][1].items() if opened[cell]}
            boards.append((self._board, last))
        labels = self._proven(boards)
        if labels:
            self.table.label(labels)
        self._board = _with_labels(self._board, boards[-1][1], labels)

    def _label_in_play(self) -> None:
        """Give the pictures first seen in play the numbers the board just read proves, while
        the game goes on: the solver counts those numbers from its next move, not from the next
        game (the first game that shows a rare number no longer guesses without it). The reads
        so far are rewritten as the table reads them now, and the board is read again."""
        reads = self._reads or []
        if not reads or not reads[-1].pictures or reads[-1].outcome != GameState.PLAYING:
            return
        if _number_not_drawn_yet(reads[-1].board) is not None:
            return  # a frame caught mid-drawing: its numbers may allow a picture a wrong value
        labels = self._proven([(reads[-1].board, reads[-1].pictures)])  # it knows the most
        if not labels:
            return
        self.table.label(labels)
        self.stopwatch.counts["pictures labelled in play"] += len(labels)
        reads[:] = [_relabelled(reading, labels) for reading in reads]
        reading = self._look()
        self._board = reading.board
        reads.append(reading)

    def _proven(self, boards: Sequence[tuple[Board, Mapping[Cell, int]]]) -> dict[int, Tile]:
        """The numbers ``boards`` (reads of this game, each with its pictures first seen)
        prove for those pictures; a contradiction ends the game misread."""
        known = {
            c: {int(tile) for tile in tiles} for c, tiles in self.table.known_numbers().items()
        }
        try:
            return label_from_play(  # the bot flags only proven mines
                boards, known, self.table.picture_classes(), flags_are_mines=True
            )
        except CalibrationError as contradiction:
            raise GameAborted(
                Result.MISREAD, f"the pictures first seen in this game: {contradiction}"
            ) from contradiction

    def _check_reads_against_the_end(self) -> None:
        """Every read of the game agrees with its end, or the game is misread: a cell read as a
        number shows that number at the end, and the end obeys the counting rules (on a loss
        that shows the mines, each number counts them; see
        :func:`calibration.meanings.check_counting`). A misread that no rule caught during play,
        and that a click did not expose, still does not go into the log as a real game.
        An end that disagrees may be a message the game draws over its board for a while, its
        inside read as cells (a "You have lost." message fading in): the board is read again,
        :data:`ANIMATION_REREADS` times at most, until it agrees."""
        for _ in range(ANIMATION_REREADS):
            if self._end_disagreement() is None:
                return
            time.sleep(_CLICK_CONFIRM_PAUSE)
            self._board = self._look().board
        disagreement = self._end_disagreement()
        if disagreement is not None:
            raise GameAborted(Result.MISREAD, disagreement)

    def _end_disagreement(self) -> str | None:
        """How the board read last contradicts the counting rules or a read made during play,
        if it does (a read of the ended board is the end as it showed then)."""
        final = self._board
        try:
            check_counting(final, "the board at the game's end", flags_are_mines=True)  # proven
        except CalibrationError as wrong:
            return str(wrong)
        for number, reading in enumerate(self._reads or [], start=1):
            if reading.outcome != GameState.PLAYING:
                continue
            tiles = reading.board.tiles
            differ = np.argwhere((tiles <= Tile.EIGHT) & (tiles != final.tiles))
            if len(differ):
                cell = (int(differ[0][0]), int(differ[0][1]))
                return (
                    f"read {number} of the game showed cell {cell} as {Tile(tiles[cell]).name}, "
                    f"the board at its end shows {Tile(final.tiles[cell]).name}"
                )
        return None

    def _check_stop_key(self) -> None:
        if self.stop_key is not None and self.stop_key.pressed():
            raise StopRequested(f"stop key {self.stop_key.name} pressed")

    def _wait_for_a_new_second(self) -> None:
        if self.one_game_a_second and self._last_start_second is not None:
            time.sleep(max(0.0, self._last_start_second + 1 - time.time()))
        self._last_start_second = int(time.time())

    def _fresh_board(self) -> Board:
        """The board of a new game (see :meth:`_new_board`), found whole: the board found may be
        part of it (:meth:`Table.check_whole`), and is then read whole."""
        board = self._new_board()
        if self.table.check_whole():
            self.stopwatch.counts["boards found whole at a new game"] += 1
            board = self._look().board
        return board

    def _new_board(self) -> Board:
        """The board of a new game: the one shown if untouched, else one started the skin's way.

        Some games open a starting area by themselves, so a new game is recognised
        as a board still playing, without marks, that the new-game action changed. A game busy
        finishing the last one may miss the action; it is tried again.
        """
        reading = self._look()
        if reading.outcome == GameState.PLAYING and reading.board.is_fresh:
            return reading.board
        refusals = 0
        attempt = 0
        while attempt < _NEW_GAME_TRIES:
            if self._close_dialogs():  # a score table or a question takes the keys
                reading = self._look()
            try:
                self.table.new_game(attempt)
            except NotAsRead:
                # The board changed since it was read (a game may flash it after a loss):
                # read it again, and act on what it shows then.
                refusals += 1
                if refusals == _REFUSED_BURSTS:
                    raise
                reading = self._look()
                if reading.outcome == GameState.PLAYING and reading.board.is_fresh:
                    return reading.board
                continue
            attempt += 1
            after = self._look_for_change()
            if _is_new_game(reading.board, after):
                return after.board
            reading = after
        raise GameAborted(
            Result.STOPPED,
            f"{_NEW_GAME_TRIES} new-game actions did not show a new game; the board shows\n"
            f"{reading.board}",
        )

    def _play_to_the_end(self, game_id: int, rule: str) -> Result:
        """Play until the game is won or lost; :attr:`_board` always holds the last read board."""
        outcome = GameState.PLAYING
        refusals = 0

        def logged(move: Move) -> None:
            with self.stopwatch.stage("log"):
                self.log.record_move(
                    game_id, move.cell, move.action.value, move.safety, move.is_guess
                )

        while outcome == GameState.PLAYING:
            moves, outcome = self._moves(rule)
            if outcome != GameState.PLAYING:
                continue
            board = self._board
            if not moves:
                self._board, outcome = self._end_shown(board)
                continue

            clicked, refusal = self._click(moves, logged)
            self._remember(clicked)
            if refusal is not None and not clicked:
                refusals += 1
                if refusals == _REFUSED_BURSTS:
                    raise GameAborted(
                        Result.STOPPED,
                        f"{refusals} times in a row the game was not as read just before the "
                        f"first click: {refusal}",
                    )
            elif clicked:
                refusals = 0
            reading = self._confirmed(clicked) if clicked else self._look()
            self._board, outcome = reading.board, reading.outcome
            if self._reads is not None:
                self._reads.append(reading)
                self._label_in_play()
        if outcome != GameState.WON:
            return Result.LOST
        self._flag_the_mines_left(logged)
        return Result.WON

    def _flag_the_mines_left(self, logged: Callable[[Move], None]) -> None:
        """Flag the mines a board shown won left closed, if the game still takes flags then.

        With every safe cell open a board looks won, but some games end only once every mine is
        flagged as well, and with no face to say so only the game can tell: the first
        such board gets one flag. A game that already ended ignores it and is not asked again;
        one that takes it gets a flag on every mine left, and on every such board after."""
        board, reads = self._board, self._reads or []
        flags = [Move((int(r), int(c)), Action.FLAG) for r, c in np.argwhere(board.closed)]
        if not flags or self._won_board_takes_flags is False:
            return
        if reads and reads[-1].face == GameState.WON:
            return  # the game's face said won
        if self._won_board_takes_flags is None:
            clicked, _ = self._click(flags[:1], logged)
            if not clicked:
                return
            self._remember(clicked)
            reading = self._look_for_change()
            self._won_board_takes_flags = reading.board[flags[0].cell] == Tile.FLAG
            if not self._won_board_takes_flags:
                return
            self._board, flags = reading.board, flags[1:]
        clicked, _ = self._click(flags, logged)
        if clicked:
            self._remember(clicked)
            self._board = self._reread_until_taken(clicked).board

    def _remember(self, clicked: Sequence[Move]) -> None:
        """Which cells a burst just opened and which it flagged: a picture no tile matches on
        one of them may be the game's picture of what the click did (see :meth:`_adopt`)."""
        self._clicked = {move.cell for move in clicked if move.action != Action.FLAG}
        self._flagged = {move.cell for move in clicked if move.action == Action.FLAG}

    def _moves(self, rule: str) -> tuple[list[Move], GameState]:
        """The solver's moves on the last board read, and the game's state. A board no mine
        layout fits may be a frame caught while the game still drew a click: it is read again,
        :data:`IMPOSSIBLE_REREADS` times at most, before the game counts as misread."""
        rereads = 0
        while True:
            try:
                with self.stopwatch.stage("solver"):
                    return _solver_moves(self._board, rule, self.flags), GameState.PLAYING
            except GameAborted:
                if rereads == IMPOSSIBLE_REREADS:
                    raise
            rereads += 1
            self.stopwatch.counts["impossible boards read again"] += 1
            time.sleep(_CLICK_CONFIRM_PAUSE)
            reading = self._look()
            self._board = reading.board
            if self._reads:
                self._reads[-1] = reading  # the frame caught mid-drawing is no read of the game
            if reading.outcome != GameState.PLAYING:
                return [], reading.outcome

    def _click(
        self, moves: Sequence[Move], clicked_one: Callable[[Move], None] = lambda move: None
    ) -> tuple[list[Move], NotAsRead | None]:
        """Click ``moves`` in turn until one is refused because the game is not there as read;
        return the moves clicked (not those skipped, already done) and the refusal, if any."""
        clicked: list[Move] = []
        for move in moves:
            self._check_stop_key()
            try:
                if not self.table.play(move):
                    self.stopwatch.counts["skipped, already open"] += 1
                    continue
            except NotAsRead as refusal:
                self.stopwatch.counts["bursts stopped"] += 1
                return clicked, refusal
            clicked.append(move)
            clicked_one(move)
        return clicked, None

    def _end_shown(self, board: Board) -> tuple[Board, GameState]:
        """The board and outcome when the solver has no move left.

        A board with every cell opened or flagged, as many flags as mines, is won whatever the
        face shows: nothing is left to play (and a skin's face crop may not tell won from
        playing). Otherwise the game is given a moment to draw its end; if it never does, stop.
        """
        if board.is_won and not board.closed.any():
            return board, GameState.WON
        reading = self._look_for_change()
        if reading.outcome == GameState.PLAYING and np.array_equal(
            reading.board.tiles, board.tiles
        ):
            raise GameAborted(
                Result.STOPPED, f"the solver has no move and the game goes on, on\n{board}"
            )
        return reading.board, reading.outcome

    def _confirmed(self, moves: Sequence[Move]) -> Reading:
        """The board after ``moves``, once the game shows every one of them taken.

        A cell still closed after every re-read is clicked once more: opening a cell known
        safe, or taking the same guess again, adds no risk, and a click on a cell that did open
        changes nothing. A missed flag is not: a second right-click could take a flag off.
        Flags missed on a board with every safe cell open say the game is over: it is read won.
        """
        reading = self._reread_until_taken(moves)
        missed = _untaken(moves, reading.board) if reading.outcome == GameState.PLAYING else []
        if missed and all(move.action == Action.OPEN for move in missed):
            self.stopwatch.counts["clicked again"] += len(missed)
            again, refusal = self._click(missed)
            if refusal is not None:
                return self._look()  # the game changed: what is left to click is decided anew
            reading = self._reread_until_taken(again) if again else self._look()
            missed = _untaken(missed, reading.board) if reading.outcome == GameState.PLAYING else []
        if missed and reading.board.is_won and all(m.action == Action.FLAG for m in missed):
            # Every safe cell open and no flag taken: the game is over, so won, though its face
            # still shows its playing picture (a game may skip drawing its won face).
            self.stopwatch.counts["wins the face did not show"] += 1
            return replace(reading, face=GameState.WON)
        if missed:
            cells = ", ".join(str(move.cell) for move in missed)
            raise GameAborted(Result.STOPPED, f"the game did not take the clicks on {cells}")
        return reading

    def _reread_until_taken(self, moves: Sequence[Move]) -> Reading:
        """The first read after ``moves`` that shows them taken or the game over, else the last
        re-read."""
        reading = self._look_for_change()
        for _ in range(_CLICK_CONFIRM_TRIES):
            if reading.outcome != GameState.PLAYING or not _untaken(moves, reading.board):
                break
            time.sleep(_CLICK_CONFIRM_PAUSE)
            reading = self._look()
        return reading

    def _look_for_change(self) -> Reading:
        """The board once it differs from the last read; if it never does, as it is (whoever
        waits for the change decides what an unchanged board means)."""
        try:
            return self._look(changed=True)
        except UnstableFrameError:
            return self._look()

    def _look(self, changed: bool = False) -> Reading:
        """A stable read. An unreadable face is read again a few times: while a mouse button is
        down a game may show a face of its own (a surprised "o" mouth), and a slow game can hold
        it for a frame or two after the click."""
        for _ in range(_FACE_REREADS):
            try:
                return self._read(changed)
            except UnreadableFaceError:
                time.sleep(_CLICK_CONFIRM_PAUSE)
                changed = False
        try:
            return self._read(changed)
        except UnreadableFaceError as unreadable:
            raise GameAborted(Result.MISREAD, str(unreadable)) from unreadable

    def _read(self, changed: bool) -> Reading:
        """One read. A cell that is unreadable may be caught in an animation (a game may flash
        the whole board when it ends) or under a message: the dialogs are closed, the
        pointer leaves the window (a message may stay while hovered), and the board is read
        again for a while; cells unreadable alike for :data:`STILL_REREADS` re-reads are tried
        as a number first seen in play. Still
        unreadable, the board may have moved: it is looked for once. Found nowhere, the board is
        misread: a tile the skin lacks, or a window closed or covered, look the same from here."""
        try:
            return self.table.look(changed)
        except UnreadableCellError as first:
            unreadable = first
        self._close_dialogs()  # one may cover the board (a "Game Over" window)
        answer = self._answer_dialog()  # one drawn in the game's window (a browser's)
        answers = int(answer == DialogAnswer.ANSWERED)
        if answer == DialogAnswer.NO_VEIL and unreadable.everywhere:
            found = self._read_where_moved()  # a page that writes "Game over" above its board
            if found is not None:
                return found
        self.table.step_away()  # a message may stay while the pointer rests on it
        still = 0
        for _ in range(ANIMATION_REREADS):
            time.sleep(_CLICK_CONFIRM_PAUSE)
            try:
                return self.table.look()
            except UnreadableCellError as again:
                still = still + 1 if again.cells == unreadable.cells else 0
                unreadable = again
            if self._close_dialogs():  # one opened late (a best-times table after a prompt)
                still = 0
            if answer == DialogAnswer.ANSWERED and answers < DIALOGS_IN_A_ROW:
                # Answering one dialog may open the next (a name prompt, then a score table).
                answer = self._answer_dialog()
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

    def _close_dialogs(self) -> int:
        closed = self.table.close_dialogs()
        self.stopwatch.counts["dialogs closed"] += closed
        return closed

    def _answer_dialog(self) -> DialogAnswer:
        answer = self.table.answer_dialog()
        if answer == DialogAnswer.ANSWERED:
            self.stopwatch.counts["dialogs answered in the game's window"] += 1
        return answer

    def _adopt(self, unreadable: UnreadableCellError) -> Reading | None:
        """During a game, a picture no tile matches may be a number first seen now: the board is
        read with such pictures as opened cells of unknown number, but only where a click just
        opened a cell: each was closed, is now read as opened, and was clicked or lies next to
        a 0 (the game's flood); and the game goes on. A board that vanished or was covered, or
        the mines of a loss the skin never saw, are none of that. On cells the last burst
        flagged, and only there, such pictures are the game's flag for their size class (a
        skin may have seen flags on some sizes of cell only); they are learned as flags, never
        as numbers. A loss that shows every cell may show a number never seen on closed
        cells no click opened: the rest of the board, read lost, ends the game with those cells
        read as opened cells of unknown number, learning nothing from them. A loss may redraw
        the opened numbers (as one theme does), a cell read as a number showing a
        picture never seen: with the rest read lost, it is that number as a finished game
        draws it, and the skin keeps the picture so. Between games, a new game may open a
        start by itself with such pictures beside its 0s: numbers not learned yet
        too; a finished board is read lost as after its game."""
        cells = unreadable.cells
        if self._reads is None:
            adopted = self._adopt_opened(cells, set(), "pictures first seen on a new board")
            if adopted is not None:
                return adopted
            board = self._ended
        else:
            board = self._board
            if all(board.closed[cell] for cell in cells):
                if all(cell in self._flagged for cell in cells):
                    learned = self.table.learn_flags(cells)
                    if learned is not None:
                        self.stopwatch.counts["flags first seen in play"] += len(cells)
                        return learned
                adopted = self._adopt_opened(cells, self._clicked, "pictures first seen in play")
                if adopted is not None:
                    return adopted
        numbers = {}
        if board is not None:  # a board read before, in a game of this run
            numbers = {cell: Tile(board[cell]) for cell in cells if board[cell].is_number}
            if not all(
                board.closed[cell] or board[cell] == Tile.OPENED or cell in numbers
                for cell in cells
            ):
                return None
        lost = self.table.read_lost(cells, numbers)  # also the lost board a new game starts from
        if lost is not None:
            self.stopwatch.counts["cells a loss showed, not read"] += len(cells) - len(numbers)
            self.stopwatch.counts["numbers a loss redrew, first seen"] += len(numbers)
        return lost

    def _adopt_opened(
        self, cells: tuple[Cell, ...], clicked: Set[Cell], counted_as: str
    ) -> Reading | None:
        """The board read with the pictures at ``cells`` as numbers first seen, if each was
        opened by a click (of ``clicked``) or by the game's flood (beside a 0), in a game not
        lost (see :meth:`_adopt`)."""

        def opened(reading: Reading) -> bool:
            board = reading.board
            zeros = neighbour_counts(board.tiles == Tile.ZERO) > 0
            return (
                (reading.outcome == GameState.PLAYING or board.is_won)
                and all(board[cell] == Tile.OPENED for cell in cells)
                and all(cell in clicked or zeros[cell] for cell in cells)
            )

        adopted = self.table.adopt_unknown(cells, opened)
        if adopted is not None:
            self.stopwatch.counts[counted_as] += len(cells)
        return adopted


def _relabelled(reading: Reading, labels: Mapping[int, Tile]) -> Reading:
    """``reading`` as the table reads it once it has learned ``labels`` (see
    :meth:`Table.label`): their cells show their numbers, the pictures left numbered anew in
    the same order."""
    tiles = reading.board.tiles.copy()
    pictures: dict[Cell, int] = {}
    for cell, picture in reading.pictures.items():
        if picture in labels:
            tiles[cell] = labels[picture]
        else:
            pictures[cell] = picture - sum(labelled < picture for labelled in labels)
    board = reading.board
    return replace(
        reading, board=Board(board.rows, board.columns, board.mines, tiles), pictures=pictures
    )


def _with_labels(
    board: Board,
    pictures: Mapping[Cell, int] | None = None,
    labels: Mapping[int, Tile] | None = None,
) -> Board:
    """``board`` with each opened cell of unknown number showing its picture's label. A cell
    still unlabelled is logged as hidden: the board format has no character for it."""
    tiles = board.tiles.copy()
    for cell, picture in (pictures or {}).items():
        tiles[cell] = (labels or {}).get(picture, Tile.HIDDEN)
    tiles[tiles == Tile.OPENED] = Tile.HIDDEN
    return Board(board.rows, board.columns, board.mines, tiles)


@contextmanager
def _game_errors() -> Iterator[None]:
    """Turn what can go wrong on the screen into how the game ends."""
    try:
        yield
    except (UnreadableCellError, UnreadableFaceError) as unreadable:
        raise GameAborted(Result.MISREAD, str(unreadable)) from unreadable
    except (BoardNotFoundError, CaptureError) as gone:
        raise GameAborted(Result.STOPPED, f"the board is gone: {gone}") from gone
    except (
        UnstableFrameError,
        ClickOutsideError,
        NotAsRead,
        NoNewGameAction,
    ) as error:
        raise GameAborted(Result.STOPPED, str(error)) from error
    except KeyboardInterrupt as interrupt:
        raise StopRequested("stopped by the user") from interrupt


def _is_new_game(before: Board, after: Reading) -> bool:
    """Whether ``after`` (read after a new-game action on ``before``) shows a new game."""
    if after.outcome != GameState.PLAYING:
        return False
    marked = np.isin(after.board.tiles, (Tile.FLAG, Tile.QUESTION)).any()
    changed = not np.array_equal(before.tiles, after.board.tiles)
    return after.board.is_fresh or (changed and not marked)


def _solver_moves(board: Board, rule: str, flags: bool) -> list[Move]:
    """The solver's next moves. A board no mine layout satisfies was misread (or the mine count
    is wrong): the game ends as ``misread``, with the solver's reason and the board read. So does
    a 0 beside a hidden cell, which every game opens by itself: a number not drawn yet (a game
    once showed an opened cell blank between two 4s), whose neighbours the solver would open."""
    undrawn = _number_not_drawn_yet(board)
    if undrawn is not None:
        row, column = undrawn
        raise GameAborted(
            Result.MISREAD,
            f"cell ({row}, {column}) reads 0 beside a hidden cell, which the game would have "
            f"opened: a number not drawn yet? It was read as\n{board}",
        )
    try:
        return next_moves(board, rule, flags=flags) or _flags_to_finish(board)
    except BoardError as impossible:
        raise GameAborted(
            Result.MISREAD,
            f"the solver finds the board impossible: {impossible}; it was read as\n{board}",
        ) from impossible


def _number_not_drawn_yet(board: Board) -> Cell | None:
    """The first 0 beside a hidden cell, if any: every game opens a 0's neighbours by itself,
    so it is a number the game has not drawn yet (or a misread)."""
    beside_hidden = (board.tiles == Tile.ZERO) & (neighbour_counts(board.tiles == Tile.HIDDEN) > 0)
    if not beside_hidden.any():
        return None
    row, column = (int(value) for value in np.argwhere(beside_hidden)[0])
    return row, column


def _flags_to_finish(board: Board) -> list[Move]:
    """Flags on the mines left when every safe cell is open: some games end only once every
    mine is flagged."""
    if not board.is_won:
        return []
    return [Move((int(r), int(c)), Action.FLAG) for r, c in np.argwhere(board.closed)]


def _untaken(moves: Sequence[Move], board: Board) -> list[Move]:
    """The moves whose effect the board does not show (chords have no single effect to see)."""
    closed = board.closed
    return [
        move
        for move in moves
        if (move.action == Action.OPEN and closed[move.cell])
        or (move.action == Action.FLAG and board[move.cell] != Tile.FLAG)
    ]


def play_games(
    player: GamePlayer,
    games: int,
    *,
    echo: Callable[[str], None] = print,
    progress: Callable[[int], Iterable[int]] = range,
) -> Iterator[GameReport]:
    """Play up to ``games`` games, yielding each and echoing its live line.

    A misread or stopped game ends the run: the screen is not what the bot thinks it is. A stop
    request propagates (after the game it interrupted is logged as stopped), as does
    :class:`NoFreshGame`.
    """
    won = finished = 0
    for number in progress(games):
        report = player.play_game()
        record = report.record
        if record.result.is_finished_game:
            finished += 1
            won += record.result == Result.WON
        echo(live_line(number + 1, report, won, finished))
        yield report
        if not record.result.is_finished_game:
            return


def live_line(number: int, report: GameReport, won: int, finished: int) -> str:
    """One line per game: result, time, moves, guesses, and the running win rate."""
    record = report.record
    chances = ", ".join(f"{c:.0%}" for c in record.guess_chances)
    guesses = f"{record.guesses} guess{'es' if record.guesses != 1 else ''}"
    line = (
        f"game {number}: {record.result.value} in {record.duration or 0:.1f} s, "
        f"{record.clicks} clicks, {guesses}{f' ({chances})' if chances else ''}; "
        f"win rate {format_win_rate(won, finished)} of {finished}"
    )
    return f"{line} -- {report.reason}" if report.reason else line
