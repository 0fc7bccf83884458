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

import os
import signal
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from controller.errors import ControllerError
from controller.mouse import Check, ClickOutsideError, Grab
from controller.outcomes import GameRecord, GameSetup, OutcomeLog, Result
from solver import Board, BoardError, Cell, Tile
from solver.bench.stats import format_win_rate
from solver.strategy import Action, Move, next_moves
from vision.capture import ScreenGrabber
from vision.errors import (
    BoardNotFoundError,
    CaptureError,
    UnreadableCellError,
    UnreadableFaceError,
    UnstableFrameError,
    VisionError,
)
from vision.geometry import BoardGeometry, Rect
from vision.locate import locate_on_screen
from vision.match import TemplateBank
from vision.read import BoardReader, Reading
from vision.skin import Image, Skin
from vision.stable import wait_stable


class Table(Protocol):
    """One game on the screen, as the play loop sees it."""

    game: str
    """The program, e.g. ``winemine``."""
    skin: str
    first_click: str | None
    """The game's first-click rule when known (a :class:`solver.FirstClick` value)."""

    def look(self, changed: bool = False) -> Reading:
        """Wait until the board holds still (and, if ``changed``, differs from the last look);
        read it."""

    def play(self, move: Move) -> bool:
        """Click ``move``'s cell the way its action needs, if the game is still as last read.

        Returns False, clicking nothing, when the cell no longer needs the click (an earlier
        click of the burst opened it); raises :class:`NotAsRead`, clicking nothing, when the game
        is not there as last read (closed, moved, covered, or changed by itself)."""

    def new_game(self, attempt: int = 0) -> None:
        """Start a new game: the skin's way first; later attempts may use another way the game
        offers (a key press can miss, depending on which window has the keyboard)."""

    def relocate(self) -> bool:
        """Find the board again after it vanished; True if it moved (and was found)."""


class NotAsRead(VisionError):
    """Just before a click, the screen did not show the game as last read: nothing was clicked.
    The board must be read again (and found again, if it moved) before any further click."""


class StopRequested(Exception):
    """The user asked the bot to stop (SIGINT/SIGTERM, the stop key, or the pyautogui
    fail-safe)."""


class KeyWatch(Protocol):
    """A key the user holds down to stop the bot (:class:`StopKey`)."""

    name: str

    def pressed(self) -> bool:
        """Whether the key is down now."""


STOP_KEYS = {"Escape": 0x1B, "Pause": 0x13, "F12": 0x7B}
"""Keys that can stop the bot, with their Windows virtual-key codes (on X11 the names are the
keysyms)."""


class StopKeyError(ControllerError):
    """The stop key cannot be watched (unknown key, no keyboard state to read); says which."""


class StopKey:
    """A key the bot polls between moves: held down, it stops the run before the next click.

    On X11 the keyboard's state is read with XQueryKeymap on a connection of its own (through
    python-xlib, which pyautogui installs), so it works whichever window has the focus. On
    Windows ``GetAsyncKeyState`` is read instead; that path follows the documentation and is
    untested (no Windows machine here). Polling sees a key only while it is down: hold it until
    the bot stops, which is at most one move.
    """

    def __init__(
        self,
        name: str = "Escape",
        *,
        display: str | None = None,
        platform: str = sys.platform,
        user32: Any = None,
    ) -> None:
        """``display``: the X display (default ``DISPLAY``); ``user32`` is for tests."""
        if name not in STOP_KEYS:
            raise StopKeyError(f"unknown stop key {name!r}; choose from {', '.join(STOP_KEYS)}")
        self.name = name
        self._connection: Any = None
        self._user32: Any = None
        if platform == "win32":
            if user32 is None:
                import ctypes

                user32 = ctypes.windll.user32  # type: ignore[attr-defined]
            self._user32 = user32
            return
        from Xlib import XK
        from Xlib import display as xdisplay
        from Xlib.error import DisplayError

        where = display or os.environ.get("DISPLAY")
        try:
            self._connection = xdisplay.Display(where)
        except DisplayError as error:
            raise StopKeyError(f"cannot watch the stop key on display {where}: {error}") from error
        keycode = self._connection.keysym_to_keycode(XK.string_to_keysym(name))
        if not keycode:
            self.close()
            raise StopKeyError(f"display {where} has no {name} key to watch")
        self._byte, self._bit = divmod(int(keycode), 8)

    def pressed(self) -> bool:
        if self._user32 is not None:
            return bool(self._user32.GetAsyncKeyState(STOP_KEYS[self.name]) & 0x8000)
        return bool(self._connection.query_keymap()[self._byte] & (1 << self._bit))

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> StopKey:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class Stopwatch:
    """Wall time summed per stage of play (wait, capture, read, solver, click, log): where a live
    game's time goes. Cheap enough to run always; the live benchmark prints it."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.counts: Counter[str] = Counter()

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] += time.perf_counter() - started
            self.counts[name] += 1


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

    record: GameRecord
    reason: str | None
    """Why the game was not won or lost, when it was not."""


_NEW_GAME_TRIES = 2
_CLICK_CONFIRM_TRIES = 10
"""Re-reads while clicks are not all visible yet: a game busy with a burst of queued clicks on a
loaded machine can hold still between two of them, and take a few tenths of a second more."""
_CLICK_CONFIRM_PAUSE = 0.1
"""Seconds between re-reads while a click is not visible yet (a slow game may lag a frame)."""
_FACE_REREADS = 3
_REFUSED_BURSTS = 3
"""Bursts in a row whose first click is refused with the board read fine in between: the game
keeps changing under the bot (an animation, something drawn over it), so the game is stopped."""


class Player:
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
        """Start no two games within one clock second. Wine's winemine seeds its mines with the
        time in whole seconds at the first click, so two games begun in the same second are the
        same game, and a fast bot would count one board twice."""
        self._last_start_second: int | None = None

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
        try:
            with _game_errors():
                result = self._play_to_the_end(game_id, self.table.first_click or "none")
            reason = None
        except GameAborted as aborted:
            result, reason = aborted.result, str(aborted)
        except StopRequested as stop:
            self.log.finish_game(game_id, Result.STOPPED, self._board, str(stop))
            raise
        return GameReport(self.log.finish_game(game_id, result, self._board, reason), reason)

    def _check_stop_key(self) -> None:
        if self.stop_key is not None and self.stop_key.pressed():
            raise StopRequested(f"stop key {self.stop_key.name} pressed")

    def _wait_for_a_new_second(self) -> None:
        if self.one_game_a_second and self._last_start_second is not None:
            time.sleep(max(0.0, self._last_start_second + 1 - time.time()))
        self._last_start_second = int(time.time())

    def _fresh_board(self) -> Board:
        """The board of a new game: the one shown if untouched, else one started the skin's way.

        Some games (xdemineur) open a starting area by themselves, so a new game is recognised
        as a board still playing, without marks, that the new-game action changed. A game busy
        finishing the last one may miss the action; it is tried again.
        """
        reading = self._look()
        if reading.outcome == "playing" and reading.board.is_fresh:
            return reading.board
        for attempt in range(_NEW_GAME_TRIES):
            self.table.new_game(attempt)
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
        outcome = "playing"
        refusals = 0
        while outcome == "playing":
            board = self._board
            with self.stopwatch.stage("solver"):
                moves = _solver_moves(board, rule, self.flags)
            if not moves:
                self._board, outcome = self._end_shown(board)
                continue

            def logged(move: Move) -> None:
                with self.stopwatch.stage("log"):
                    self.log.record_move(
                        game_id, move.cell, move.action.value, move.safety, move.is_guess
                    )

            clicked, refusal = self._click(moves, logged)
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
        return Result.WON if outcome == "won" else Result.LOST

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

    def _end_shown(self, board: Board) -> tuple[Board, str]:
        """The board and outcome when the solver has no move left.

        A board with every cell opened or flagged, as many flags as mines, is won whatever the
        face shows: nothing is left to play (and a skin's face crop may not tell won from
        playing). Otherwise the game is given a moment to draw its end; if it never does, stop.
        """
        if board.is_won and not _closed_cells(board).any():
            return board, "won"
        reading = self._look_for_change()
        if reading.outcome == "playing" and np.array_equal(reading.board.tiles, board.tiles):
            raise GameAborted(
                Result.STOPPED, f"the solver has no move and the game goes on, on\n{board}"
            )
        return reading.board, reading.outcome

    def _confirmed(self, moves: Sequence[Move]) -> Reading:
        """The board after ``moves``, once the game shows every one of them taken.

        A cell still closed after every re-read is clicked once more: opening a cell known
        safe, or taking the same guess again, adds no risk, and a click on a cell that did open
        changes nothing. A missed flag is not: a second right-click could take a flag off.
        """
        reading = self._reread_until_taken(moves)
        missed = _untaken(moves, reading.board) if reading.outcome == "playing" else []
        if missed and all(move.action == Action.OPEN for move in missed):
            self.stopwatch.counts["clicked again"] += len(missed)
            again, refusal = self._click(missed)
            if refusal is not None:
                return self._look()  # the game changed: what is left to click is decided anew
            reading = self._reread_until_taken(again) if again else self._look()
            missed = _untaken(missed, reading.board) if reading.outcome == "playing" else []
        if missed:
            cells = ", ".join(str(move.cell) for move in missed)
            raise GameAborted(Result.STOPPED, f"the game did not take the clicks on {cells}")
        return reading

    def _reread_until_taken(self, moves: Sequence[Move]) -> Reading:
        """The first read after ``moves`` that shows them taken or the game over, else the last
        re-read."""
        reading = self._look_for_change()
        for _ in range(_CLICK_CONFIRM_TRIES):
            if reading.outcome != "playing" or not _untaken(moves, reading.board):
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
        down a game may show a face of its own (winemine's "o"), and a slow game can hold it for
        a frame or two after the click."""
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
        """One read. When a cell is unreadable the board may have moved: it is looked for once.
        Found nowhere, the board is misread: a tile the skin lacks, or a window closed or
        covered, look the same from here."""
        try:
            return self.table.look(changed)
        except UnreadableCellError as unreadable:
            try:
                moved = self.table.relocate()
            except BoardNotFoundError as nowhere:
                raise GameAborted(
                    Result.MISREAD, f"{unreadable}; and the board is not found elsewhere: {nowhere}"
                ) from unreadable
            if not moved:
                raise GameAborted(Result.MISREAD, str(unreadable)) from unreadable
        return self.table.look()


@contextmanager
def _game_errors() -> Iterator[None]:
    """Turn what can go wrong on the screen into how the game ends."""
    try:
        yield
    except (UnreadableCellError, UnreadableFaceError) as unreadable:
        raise GameAborted(Result.MISREAD, str(unreadable)) from unreadable
    except (BoardNotFoundError, CaptureError) as gone:
        raise GameAborted(Result.STOPPED, f"the board is gone: {gone}") from gone
    except (UnstableFrameError, ClickOutsideError, NotAsRead) as error:
        raise GameAborted(Result.STOPPED, str(error)) from error
    except KeyboardInterrupt as interrupt:
        raise StopRequested("stopped by the user") from interrupt


def _is_new_game(before: Board, after: Reading) -> bool:
    """Whether ``after`` (read after a new-game action on ``before``) shows a new game."""
    if after.outcome != "playing":
        return False
    marked = np.isin(after.board.tiles, (Tile.FLAG, Tile.QUESTION)).any()
    changed = not np.array_equal(before.tiles, after.board.tiles)
    return after.board.is_fresh or (changed and not marked)


def _solver_moves(board: Board, rule: str, flags: bool) -> list[Move]:
    """The solver's next moves. A board no mine layout satisfies was misread (or the mine count
    is wrong): the game ends as ``misread``, with the solver's reason and the board read."""
    try:
        return next_moves(board, rule, flags=flags) or _flags_to_finish(board)
    except BoardError as impossible:
        raise GameAborted(
            Result.MISREAD,
            f"the solver finds the board impossible: {impossible}; it was read as\n{board}",
        ) from impossible


def _closed_cells(board: Board) -> npt.NDArray[np.bool_]:
    """Hidden or question-marked: cells neither opened nor flagged."""
    return np.isin(board.tiles, (Tile.HIDDEN, Tile.QUESTION))


def _flags_to_finish(board: Board) -> list[Move]:
    """Flags on the mines left when every safe cell is open: games like xdemineur need them."""
    if not board.is_won:
        return []
    return [Move((int(r), int(c)), Action.FLAG) for r, c in np.argwhere(_closed_cells(board))]


def _untaken(moves: Sequence[Move], board: Board) -> list[Move]:
    """The moves whose effect the board does not show (chords have no single effect to see)."""
    closed = _closed_cells(board)
    return [
        move
        for move in moves
        if (move.action == Action.OPEN and closed[move.cell])
        or (move.action == Action.FLAG and board[move.cell] != Tile.FLAG)
    ]


def play_games(
    player: Player,
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


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGTERM (and SIGINT) into :class:`StopRequested` while playing, then restore them."""

    def request_stop(number: int, frame: object) -> None:
        raise StopRequested(f"stopped by signal {signal.Signals(number).name}")

    saved = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


_BUTTONS = {Action.OPEN: "left", Action.FLAG: "right", Action.CHORD: "middle"}


class GuardedPointer(Protocol):
    """A mouse that refuses clicks outside its allowed areas, and any the check refuses
    (:class:`controller.mouse.Mouse`)."""

    def allow(self, *areas: Rect) -> None: ...

    def click(self, x: int, y: int, button: str = "left", check: Check | None = None) -> None: ...

    def press(self, key: str, x: int, y: int, check: Check | None = None) -> None: ...


class ScreenTable:
    """A game window on the screen: read through a skin, clicked through the guarded mouse.

    The mouse may click only inside the located board and its face button, and only once the
    screen, captured at that very moment, shows the game as last read: the clicked cell as it
    was (a cell an earlier click of the burst opened is skipped), two opposite corner cells of
    the board as they were or opened since, and for a click on the face the face as it was. The
    clicked cell alone would not do: a window moved by a whole number of cells can show a
    closed cell there again, but then one of the corner cells shows what lies beyond the board.
    After the board moves it is located again (by the same skin and shape) and the allowed
    areas follow it.
    """

    def __init__(
        self,
        grabber: ScreenGrabber,
        skin: Skin,
        geometry: BoardGeometry,
        mouse: GuardedPointer,
        mines: int,
        *,
        game: str,
        first_click: str | None,
        stopwatch: Stopwatch | None = None,
    ) -> None:
        self.game = game
        self.skin = skin.name
        self.first_click = first_click
        self.mines = mines
        self.stopwatch = stopwatch or Stopwatch()
        self._grabber = grabber
        self._timed_grabber = _TimedGrabber(grabber, self.stopwatch)
        self._skin = skin
        self._mouse = mouse
        self._frame: Image | None = None
        self._reading: Reading | None = None
        self._face_as_read: TemplateBank[str] | None = None
        self._use(geometry)

    def _use(self, geometry: BoardGeometry) -> None:
        self.geometry = geometry
        self._reader = BoardReader(self._skin, geometry)
        self._frame = self._reading = self._face_as_read = None
        rows, columns = geometry.shape
        self._corners = ((0, 0), (rows - 1, columns - 1))
        areas = [geometry.rect] + ([geometry.face] if geometry.face is not None else [])
        self._mouse.allow(*areas)

    def look(self, changed: bool = False) -> Reading:
        """Only the board and face must hold still (the timer between them ticks every second).
        Time spent grabbing is the ``capture`` stage, inside ``wait``."""
        with self.stopwatch.stage("wait"):
            frame = wait_stable(
                self._timed_grabber,
                self._reader.region,
                watch=self._reader.watched,
                differs_from=self._frame if changed else None,
            )
        with self.stopwatch.stage("read"):
            reading = self._reader.read(frame, self.mines)
        self._frame, self._reading = frame, reading
        face = self._reader.face_image(frame)
        self._face_as_read = None if face is None else TemplateBank(["as read"], [face])
        return reading

    def play(self, move: Move) -> bool:
        needed = False

        def cell_as_read(grab: Grab) -> bool:
            nonlocal needed
            now = self._cells_now(grab, {move.cell, *self._corners})
            needed = now[move.cell] == self._as_read().board[move.cell]
            return needed

        x, y = self.geometry.cell_centre(move.cell)
        self._click(x, y, _BUTTONS[move.action], cell_as_read)
        return needed

    def new_game(self, attempt: int = 0) -> None:
        ways = self._new_game_ways()
        if not ways:
            raise GameAborted(
                Result.STOPPED,
                f"skin {self._skin.name!r} has no usable new-game action ({self._skin.new_game})",
            )
        face = self.geometry.face
        if ways[attempt % len(ways)] == "face" and face is not None:

            def face_as_read(grab: Grab) -> bool:
                self._cells_now(grab, self._corners)
                self._face_now(grab, face)
                return True

            self._click(*face.centre, "left", face_as_read)
        elif self._skin.new_game.key:
            x, y = self.geometry.rect.centre
            under = self.geometry.cell_at(x, y)

            def board_as_read(grab: Grab) -> bool:
                self._cells_now(grab, {*self._corners, *([under] if under is not None else [])})
                return True

            with _failsafe_as_stop():
                self._mouse.press(self._skin.new_game.key, x, y, board_as_read)

    def _as_read(self) -> Reading:
        if self._reading is None:
            raise NotAsRead("no click before the board is read")
        return self._reading

    def _cells_now(self, grab: Grab, cells: Iterable[Cell]) -> dict[Cell, Tile]:
        """What ``cells`` show now; raises :class:`NotAsRead` unless each shows what the last
        read did or what a click since could have made of it (a closed cell opened or flagged)."""
        board = self._as_read().board
        now = {}
        for cell in cells:
            tile = self._reader.read_tile(grab(self.geometry.tile_rect(cell)))
            if tile is None or not _could_follow(Tile(board[cell]), tile):
                shown = "matches no tile of the skin" if tile is None else f"shows {tile.name}"
                raise NotAsRead(
                    f"just before a click, cell {cell} at screen {self.geometry.cell_centre(cell)} "
                    f"{shown}, where the last read showed {Tile(board[cell]).name}: the game "
                    "window closed, moved or changed"
                )
            now[cell] = tile
        return now

    def _face_now(self, grab: Grab, face: Rect) -> None:
        """Raise :class:`NotAsRead` unless the face shows what the last read did."""
        if self._face_as_read is None:
            raise NotAsRead("no click on the face before it is read")
        distance = float(self._face_as_read.distances(grab(face)[None])[0, 0])
        if distance > self._skin.threshold:
            raise NotAsRead(
                f"just before a click, the face at screen ({face.left}, {face.top}) differs from "
                f"the last read (distance {distance:.3f}): the game window closed, moved or changed"
            )

    def _new_game_ways(self) -> list[str]:
        """``key`` and/or ``face``, the skin's own way first."""
        key = ["key"] if self._skin.new_game.key else []
        face = ["face"] if self.geometry.face is not None else []
        return key + face if self._skin.new_game.kind == "key" else face + key

    def relocate(self) -> bool:
        shape = (self.geometry.rows, self.geometry.columns)
        found = locate_on_screen(self._grabber, self._skin, shape=shape)
        if found == self.geometry:
            return False
        self._use(found)
        return True

    def _click(self, x: int, y: int, button: str, check: Check) -> None:
        with _failsafe_as_stop(), self.stopwatch.stage("click"):
            self._mouse.click(x, y, button, check)


def _could_follow(read: Tile, now: Tile) -> bool:
    """Whether a cell read as ``read`` may show ``now`` after some clicks of a burst."""
    closed = read in (Tile.HIDDEN, Tile.QUESTION)
    return now == read or (closed and (now.is_number or now == Tile.FLAG))


class _TimedGrabber:
    """A grabber whose grabs count as the stopwatch's ``capture`` stage."""

    def __init__(self, grabber: ScreenGrabber, stopwatch: Stopwatch) -> None:
        self._grabber = grabber
        self._stopwatch = stopwatch

    def grab(self, region: Rect | None = None) -> Image:
        with self._stopwatch.stage("capture"):
            return self._grabber.grab(region)


@contextmanager
def _failsafe_as_stop() -> Iterator[None]:
    """pyautogui's fail-safe (pointer in a screen corner) becomes a stop request."""
    try:
        yield
    except Exception as error:
        pyautogui = sys.modules.get("pyautogui")  # loaded by Mouse; if not, this is no fail-safe
        if pyautogui is not None and isinstance(error, pyautogui.FailSafeException):
            raise StopRequested(f"pyautogui fail-safe: {error}") from error
        raise
