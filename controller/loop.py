"""The play loop: read the board, ask the solver, click, wait for the game, until won or lost.

The loop talks to the game only through a :class:`Table` (read a stable board, play a move,
start a new game, find the board again), so the same loop plays a real window through
:class:`controller.screen_table.ScreenTable` and a simulated game in the tests. Its parts, one
job each: :mod:`controller.new_game` starts a game, :mod:`controller.reading` reads the board
patiently, :mod:`controller.game` holds one game's state, :mod:`controller.lessons` learns from
its reads; :class:`GamePlayer` here keeps what lasts the whole run and plays each game's turns.

Nothing here guesses about the screen: a click is sent only if the screen, captured at that
moment, still shows the game as last read (else the burst stops and the board is read again); a
board the solver finds impossible ends the game as ``misread``, and so does an unreadable cell
unless the board is found again elsewhere (it moved); a screen that cannot be captured, a click
the game did not take even when clicked again, the fail-safe or a stop request end it as
``stopped``. Either way no click follows. Every game is in the outcome log from its first click on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace

import numpy as np

from controller.chording import Chording, burst, missed_chords
from controller.errors import ClickOutsideError, NoNewGameAction, NotAsRead
from controller.game import (
    REFUSED_BURSTS,
    GameAborted,
    GameInPlay,
    number_not_drawn_yet,
    untaken,
)
from controller.lessons import (
    check_reads_against_the_end,
    label_in_play,
    label_new_pictures,
    learn_won_face,
)
from controller.new_game import fresh_board
from controller.outcomes import GameSetup, LoggedGame, OutcomeLog, Result
from controller.reading import PatientReader
from controller.stopping import KeyWatch, StopRequested
from controller.stopwatch import Stopwatch
from controller.table import Table
from solver import Board, BoardError, GameState, Tile
from solver.bench.stats import format_win_rate
from solver.chords import chorded_moves
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


@dataclass(frozen=True)
class GameReport:
    """A finished game as the live line shows it."""

    record: LoggedGame
    reason: str | None
    """Why the game was not won or lost, when it was not."""


CLICK_AGAIN_TRIES = 3
"""Times a click the game did not take is sent again, each time further apart from the clicks
before it, before the game counts as stopped: a game still drawing the last click can lose the
next one twice in a row (seen in a CI run of the Windows build)."""
IMPOSSIBLE_REREADS = 5
"""Re-reads, :data:`controller.reading.REREAD_PAUSE` apart, of a board the solver finds
impossible before the game counts as misread (an Expert board was once read with a 0 beside
closed cells)."""


class GamePlayer:
    """Plays games on one table and logs each; see the module docstring for what stops it.

    It keeps what lasts the run (the table, the log, the settings, what the game was found to
    do); each game's own state is a :class:`GameInPlay`."""

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
        self.reader = PatientReader(table, self.stopwatch)
        self._last_start_second: int | None = None
        self._won_board_takes_flags: bool | None = None
        """Whether the game took a flag on a board shown won with mines still closed (see
        :meth:`_flag_the_mines_left`); None until such a board was met."""

    def play_game(self) -> GameReport:
        """Start a fresh game, play it to the end, and return its logged record."""
        self._check_stop_key()
        try:
            with _game_errors():
                board = fresh_board(self.reader)
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
        game = self.reader.game = GameInPlay(game_id, board)
        ended = False
        try:
            with _game_errors():
                result = self._play_to_the_end(game, self.table.first_click or "none")
                self.log.record_end(game_id, result, game.logged_board())
                ended = True
                learn_won_face(game, result, self.reader)
                label_new_pictures(game, self.reader)
                check_reads_against_the_end(game, self.reader)
            reason = None
        except GameAborted as aborted:
            result, reason = aborted.result, str(aborted)
        except BaseException as fault:  # a stop, a dialog that stays, the display or disk gone
            self._end_cut_short(game, fault, ended)
            raise
        finally:
            self.reader.game = None
            self.reader.ended = game.board
        return GameReport(
            self.log.finish_game(game_id, result, game.logged_board(), reason), reason
        )

    def _end_cut_short(self, game: GameInPlay, fault: BaseException, ended: bool) -> None:
        """Complete the row of a game that ``fault`` cut short, as far as the log still can: a
        game whose end was read keeps it (its result is already written); any other is
        ``stopped`` with the fault as its reason. Should the log itself fail here, the next run
        marks the row ``cut off``; ``fault`` is what the caller raises either way."""
        if ended:
            return
        reason = str(fault) or type(fault).__name__
        with suppress(Exception):
            self.log.finish_game(game.game_id, Result.STOPPED, game.logged_board(), reason)

    def _check_stop_key(self) -> None:
        if self.stop_key is not None and self.stop_key.pressed():
            raise StopRequested(f"stop key {self.stop_key.name} pressed")

    def _wait_for_a_new_second(self) -> None:
        if self.one_game_a_second and self._last_start_second is not None:
            time.sleep(max(0.0, self._last_start_second + 1 - time.time()))
        self._last_start_second = int(time.time())

    def _play_to_the_end(self, game: GameInPlay, rule: str) -> Result:
        """Play until the game is won or lost; ``game.board`` always holds the last read board."""
        outcome = GameState.PLAYING
        refusals = 0

        def logged(move: Move) -> None:
            with self.stopwatch.stage("log"):
                self.log.record_move(
                    game.game_id, move.cell, move.action.value, move.safety, move.is_guess
                )

        while outcome == GameState.PLAYING:
            moves, outcome = self._moves(game, rule)
            if outcome != GameState.PLAYING:
                continue
            board = game.board
            if not moves:
                game.board, outcome = self._end_shown(board)
                continue

            trying = self.table.chording() == Chording.TRYING
            clicked, refusal = self._click(burst(moves, board, trying), logged)
            game.remember(clicked)
            if refusal is not None and not clicked:
                refusals += 1
                if refusals == REFUSED_BURSTS:
                    raise GameAborted(
                        Result.STOPPED,
                        f"{refusals} times in a row the game was not as read just before the "
                        f"first click: {refusal}",
                    )
            elif clicked:
                refusals = 0
            reading = self._confirmed(clicked, board, logged) if clicked else self.reader.look()
            game.board, outcome = reading.board, reading.outcome
            game.reads.append(reading)
            label_in_play(game, self.reader)
        if outcome != GameState.WON:
            return Result.LOST
        self._flag_the_mines_left(game, logged)
        return Result.WON

    def _flag_the_mines_left(self, game: GameInPlay, logged: Callable[[Move], None]) -> None:
        """Flag the mines a board shown won left closed, if the game still takes flags then.

        With every safe cell open a board looks won, but some games end only once every mine is
        flagged as well, and with no face to say so only the game can tell: the first
        such board gets one flag. A game that already ended ignores it and is not asked again;
        one that takes it gets a flag on every mine left, and on every such board after."""
        board, reads = game.board, game.reads
        flags = _flags_on_closed(board)
        if not flags or not self.table.takes_flags or self._won_board_takes_flags is False:
            return
        if reads and reads[-1].face == GameState.WON:
            return  # the game's face said won
        if self._won_board_takes_flags is None:
            clicked, _ = self._click(flags[:1], logged)
            if not clicked:
                return
            game.remember(clicked)
            reading = self.reader.look_for_change()
            self._won_board_takes_flags = reading.board[flags[0].cell] == Tile.FLAG
            if not self._won_board_takes_flags:
                return
            game.board, flags = reading.board, flags[1:]
        clicked, _ = self._click(flags, logged)
        if clicked:
            game.remember(clicked)
            game.board = self.reader.reread_until_taken(clicked).board

    def _moves(self, game: GameInPlay, rule: str) -> tuple[list[Move], GameState]:
        """The solver's moves on the last board read, and the game's state. A board no mine
        layout fits may be a frame caught while the game still drew a click: it is read again,
        :data:`IMPOSSIBLE_REREADS` times at most, before the game counts as misread; its 0s
        beside hidden cells are then tried as numbers the skin lacks, drawn like its 0
        (:meth:`PatientReader.adopt_zeros_beside_hidden`)."""
        rereads = 0
        while True:
            try:
                takes = self.table.takes_flags  # chords and flags need the game to take flags
                chords = takes and self.table.chording() != Chording.OFF
                with self.stopwatch.stage("solver"):
                    moves = _solver_moves(game.board, rule, self.flags and takes, chords, takes)
                return moves, GameState.PLAYING
            except GameAborted:
                last = rereads == IMPOSSIBLE_REREADS  # tried once: then it stays as read
                adopted = self.reader.adopt_zeros_beside_hidden() if last else None
                if rereads >= IMPOSSIBLE_REREADS and adopted is None:
                    raise
            rereads += 1
            self.stopwatch.counts["impossible boards read again"] += 1
            if adopted is None:
                self.reader.pause()
                reading = self.reader.look()
            else:
                reading = adopted
            game.board = reading.board
            if game.reads:
                game.reads[-1] = reading  # the frame caught mid-drawing is no read of the game
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
                chord = move.action == Action.CHORD
                if not (self.table.chord(move.cell) if chord else self.table.play(move)):
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
        reading = self.reader.look_for_change()
        if reading.outcome == GameState.PLAYING and np.array_equal(
            reading.board.tiles, board.tiles
        ):
            raise GameAborted(
                Result.STOPPED, f"the solver has no move and the game goes on, on\n{board}"
            )
        return reading.board, reading.outcome

    def _confirmed(
        self, moves: Sequence[Move], before: Board, logged: Callable[[Move], None]
    ) -> Reading:
        """The board after ``moves`` (sent on the board read ``before``), once the game shows
        every one of them taken.

        A cell still closed after every re-read says the game missed a click: the clicks from
        now on go further apart, and that cell is clicked once more, up to
        :data:`CLICK_AGAIN_TRIES` times, slower each time: opening a cell known safe, or taking
        the same guess again, adds no risk, and a click on a cell that did open changes nothing.
        A missed flag is not: a second right-click could take a flag off.
        Flags missed on a board with every safe cell open say the game is over: it is read won.
        A chord that opened nothing is missed too: its cells are opened one by one (while the
        way the game chords is tried, that teaches the table, and no click is slowed down),
        each a move of its own in the log (a click sent again is not).
        """
        reading = self.reader.reread_until_taken(moves)
        playing = reading.outcome == GameState.PLAYING
        missed = untaken(moves, reading.board) if playing else []
        unopened = missed_chords(moves, before, reading.board) if playing else []
        trying = self.table.chording() == Chording.TRYING
        if trying and playing and any(move.action == Action.CHORD for move in moves):
            self.table.chord_opened(not unopened)
        if (missed or (unopened and not trying)) and self.table.take_clicks_slower():
            self.stopwatch.counts["clicks sent further apart"] += 1
        missed += unopened
        for attempt in range(CLICK_AGAIN_TRIES):
            if not missed or not all(move.action == Action.OPEN for move in missed):
                break
            if attempt and self.table.take_clicks_slower():
                self.stopwatch.counts["clicks sent further apart"] += 1
            self.stopwatch.counts["clicked again"] += len(missed)
            # A chord's cells are logged as moves of their own when first sent; a click sent
            # again is no new move.
            again, refusal = self._click(
                missed, _logged_only(unopened if not attempt else [], logged)
            )
            if refusal is not None:
                return self.reader.look()  # the game changed: what is left is decided anew
            reading = self.reader.reread_until_taken(again) if again else self.reader.look()
            missed = untaken(missed, reading.board) if reading.outcome == GameState.PLAYING else []
        if missed and reading.board.is_won and all(m.action == Action.FLAG for m in missed):
            # Every safe cell open and no flag taken: the game is over, so won, though its face
            # still shows its playing picture (a game may skip drawing its won face).
            self.stopwatch.counts["wins the face did not show"] += 1
            return replace(reading, face=GameState.WON)
        if missed:
            cells = ", ".join(str(move.cell) for move in missed)
            raise GameAborted(Result.STOPPED, f"the game did not take the clicks on {cells}")
        return reading


def _logged_only(moves: Sequence[Move], logged: Callable[[Move], None]) -> Callable[[Move], None]:
    """``logged``, for ``moves`` only."""

    def log(move: Move) -> None:
        if move in moves:
            logged(move)

    return log


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


def _solver_moves(
    board: Board, rule: str, flags: bool, chords: bool = False, finish: bool = True
) -> list[Move]:
    """The solver's next moves (with ``finish``, the flags some games need to end a game won).
    A board no mine layout satisfies was misread (or the mine count is wrong): the game ends
    as ``misread``, with the solver's reason and the board read. So does a 0 beside a hidden
    cell, which every game opens by itself: a number not drawn yet (a game once showed an opened
    cell blank between two 4s), whose neighbours the solver would open."""
    undrawn = number_not_drawn_yet(board)
    if undrawn is not None:
        row, column = undrawn
        raise GameAborted(
            Result.MISREAD,
            f"cell ({row}, {column}) reads 0 beside a hidden cell, which the game would have "
            f"opened: a number not drawn yet? It was read as\n{board}",
        )
    try:
        moves = chorded_moves if chords else next_moves
        return moves(board, rule, flags=flags) or (_flags_to_finish(board) if finish else [])
    except BoardError as impossible:
        raise GameAborted(
            Result.MISREAD,
            f"the solver finds the board impossible: {impossible}; it was read as\n{board}",
        ) from impossible


def _flags_to_finish(board: Board) -> list[Move]:
    """Flags on the mines left when every safe cell is open: some games end only once every
    mine is flagged."""
    return _flags_on_closed(board) if board.is_won else []


def _flags_on_closed(board: Board) -> list[Move]:
    """A flag on every closed cell of ``board``, in reading order."""
    return [Move((int(r), int(c)), Action.FLAG) for r, c in np.argwhere(board.closed)]


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
